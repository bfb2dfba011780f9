// SPDX-License-Identifier: GPL-2.0
/*
 * The classes an agent (meas-exporter, pmdameas) holds enabled for its
 * whole life, so that their counters never reset under it: the facility resets a region only
 * when its last enabler stops it, and this open file is one enabler
 * until the process exits.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"

static double real_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int hold_enable(struct mx_hold *h, uint32_t mask)
{
	int rc = MEAS_RC_NONE, err = meas_start(h->fd, mask, &rc);
	unsigned int c;

	if (err) {
		const char *why = meas_result_str("start", rc);

		fprintf(stderr, "%s: START 0x%x: %s%s%s\n",
			program_invocation_short_name, mask,
			strerror(-err), why ? ": " : "", why ? why : "");
		return err;
	}
	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if (mask & (1U << c))
			h->since[c] = real_now();
	h->mask |= mask;
	return 0;
}

/**
 * mx_hold_start() - open /dev/meas and enable the exported classes
 * @h: zeroed
 * @mask: the module's classes to hold (0 and 14 by default)
 * @user: also hold every user-defined class, now and as they appear
 *
 * Return: 0 or a negative errno, with a message on stderr.
 */
int mx_hold_start(struct mx_hold *h, uint32_t mask, int user)
{
	h->fd = meas_open();
	if (h->fd < 0) {
		fprintf(stderr, "%s: /dev/meas: %s\n",
			program_invocation_short_name, strerror(-h->fd));
		return h->fd;
	}
	h->user = user;
	if (hold_enable(h, mask)) {
		close(h->fd);
		return -EPERM;
	}
	if (user) {
		struct meas_info info;

		if (!meas_info(h->fd, &info))
			mx_hold_user_classes(h, &info);
	}
	return 0;
}

/*
 * Enable the user-defined classes that appeared since the last scrape,
 * and load their names.  A class that cannot be enabled or described is
 * left out of this scrape and tried again at the next.
 */
void mx_hold_user_classes(struct mx_hold *h, const struct meas_info *info)
{
	uint32_t fresh;
	unsigned int c;

	if (!h->user)
		return;
	fresh = info->defined_mask & MEAS_CLASSMASK_CUSTOM & ~h->mask;
	for (c = 1; c < MEAS_NR_CLASSES; c++) {
		if (!(fresh & (1U << c)))
			continue;
		if (meas_class_names_load(h->fd, (int)c, &h->names[c]))
			continue;
		if (hold_enable(h, 1U << c))
			meas_class_names_free(&h->names[c]);
	}
}

void mx_hold_stop(struct mx_hold *h)
{
	unsigned int c;

	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if (h->mask & MEAS_CLASSMASK_CUSTOM & (1U << c))
			meas_class_names_free(&h->names[c]);
	close(h->fd);	/* the file's release stops what it started */
}

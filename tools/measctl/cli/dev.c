// SPDX-License-Identifier: GPL-2.0
/*
 * Opening /dev/meas, and what messages say of the device: why an open
 * failed, a module older than measctl (at every open: the calls added
 * since would fail with ENOTTY or read zeros), and the classes defined
 * now, which a usage error about classes names.  The parsers (parse.c,
 * opt.c) never open the device; what needs it is here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"

int fail_open(const struct cmd_ctx *ctx, int err)
{
	char why[256];

	return fail_hint(ctx, err, err == ENOENT ?
			 absent_hint(why, sizeof(why)) : err_hint(NULL, err),
			 "cannot open %s", MEAS_DEVICE);
}

void abi_warn(const struct cmd_ctx *ctx, unsigned int abi)
{
	char rel[64];

	if (meas_module_version(rel, sizeof(rel)))
		snprintf(rel, sizeof(rel), "unknown");
	warnx_ctx(ctx, "the loaded meas.ko (release %s) has ABI %u, older than the ABI %u measctl %s was built for: the calls added since fail; load the meas.ko of release %s",
		  rel, abi, MEAS_ABI_VERSION, MEAS_VERSION, MEAS_VERSION);
}

void abi_check(const struct cmd_ctx *ctx, int fd)
{
	struct meas_info in;

	if (!meas_info(fd, &in) && in.version < MEAS_ABI_VERSION)
		abi_warn(ctx, in.version);
}

int open_dev(const struct cmd_ctx *ctx)
{
	int fd = meas_open();

	if (fd < 0) {
		fail_open(ctx, -fd);
		return -1;
	}
	abi_check(ctx, fd);
	return fd;
}

/*
 * For usage errors about classes: the classes defined now ("0,14-15"),
 * or why that is not known.  Opens /dev/meas only to ask (INFO changes
 * nothing).
 */
const char *classes_defined_now(char *buf, size_t len)
{
	struct meas_info in;
	char list[64];
	int fd = meas_open(), err;

	if (fd < 0) {
		snprintf(buf, len, "unknown: meas.ko is not loaded or %s cannot be opened",
			 MEAS_DEVICE);
		return buf;
	}
	err = meas_info(fd, &in);
	close(fd);
	if (err) {
		snprintf(buf, len, "unknown: %s", strerror(-err));
		return buf;
	}
	format_classes(in.defined_mask, list, sizeof(list));
	snprintf(buf, len, "%s", list);
	return buf;
}

int classes_arg(struct cmd_ctx *ctx, const char *s, struct classes *c)
{
	char def[128];

	if (parse_classes(s, c))
		return usage_error(ctx, "bad class list '%s': classes are 0..%d, as a list (0,14), a range (0-3), a mask (0x1..0x%x) or 'all'; defined now: %s",
				   s, MEAS_NR_CLASSES - 1, MEAS_CLASSMASK_ALL,
				   classes_defined_now(def, sizeof(def)));
	return EXIT_OK;
}

// SPDX-License-Identifier: LGPL-2.1
/*
 * libmeas: user-defined classes (MEAS_IOC_DEFINE, _UNDEFINE, _DESCRIBE),
 * UPDATESTATISTICS (MEAS_IOC_UPDATE), and the names of a user-defined
 * class's items for tools that print them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "libmeas.h"

static int custom_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

int meas_define(int fd, struct meas_define *d, int *result)
{
	int err;

	d->size = sizeof(*d);
	d->result = MEAS_RC_NONE;
	err = custom_ioctl(fd, MEAS_IOC_DEFINE, d);
	if (result)
		*result = d->result;
	return err;
}

int meas_undefine(int fd, int class, int *result)
{
	struct meas_define d = {
		.size = sizeof(d),
		.class = class,
		.result = MEAS_RC_NONE,
	};
	int err = custom_ioctl(fd, MEAS_IOC_UNDEFINE, &d);

	if (result)
		*result = d.result;
	return err;
}

int meas_describe(int fd, int class, struct meas_define *d,
		  struct meas_item_def *items, size_t nitems, int *result)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	d->class = class;
	d->result = MEAS_RC_NONE;
	d->items = (uintptr_t)items;
	d->nitems = items ? nitems : 0;
	err = custom_ioctl(fd, MEAS_IOC_DESCRIBE, d);
	if (result)
		*result = d->result;
	return err;
}

int meas_update(int fd, int class, int subclass, int64_t entry,
		int64_t startingitem, uint32_t flags, int64_t valuechange,
		int *result)
{
	struct meas_update u = {
		.size = sizeof(u),
		.flags = flags,
		.class = class,
		.subclass = subclass,
		.entry = entry,
		.startingitem = startingitem,
		.valuechange = valuechange,
		.result = MEAS_RC_NONE,
	};
	int err = custom_ioctl(fd, MEAS_IOC_UPDATE, &u);

	if (result)
		*result = u.result;
	return err;
}

int meas_class_names_load(int fd, int class, struct meas_class_names *n)
{
	int err;

	memset(n, 0, sizeof(*n));
	err = meas_describe(fd, class, &n->d, NULL, 0, NULL);
	if (err)
		return err;
	/* The definition may change in between: describe again, bounded. */
	n->items = calloc(n->d.nitems ? n->d.nitems : 1, sizeof(*n->items));
	if (!n->items)
		return -ENOMEM;
	err = meas_describe(fd, class, &n->d, n->items, n->d.nitems, NULL);
	if (err) {
		meas_class_names_free(n);
		return err;
	}
	return 0;
}

void meas_class_names_free(struct meas_class_names *n)
{
	free(n->items);
	n->items = NULL;
}

/* The definition of item @item of @subclass, and its entry; NULL if none. */
static const struct meas_item_def *
custom_item(const struct meas_class_names *n, int subclass, int64_t item,
	    uint64_t *entry)
{
	uint64_t k0 = 0, per;
	int s;

	if (!n->items || subclass < 0 || (uint32_t)subclass >= n->d.nsub ||
	    n->d.nsub > MEAS_CUSTOM_MAX_SUBCLASSES || item < 0)
		return NULL;
	for (s = 0; s < subclass; s++)
		k0 += n->d.sub[s].items;
	per = n->d.sub[subclass].items;
	if (!per || (uint64_t)item / per >= n->d.sub[subclass].entries)
		return NULL;
	*entry = (uint64_t)item / per + 1;
	k0 += (uint64_t)item % per;
	return k0 < n->d.nitems ? &n->items[k0] : NULL;
}

const char *meas_class_item_name(const struct meas_class_names *n,
				 int subclass, int64_t item, char *buf,
				 size_t len)
{
	const struct meas_item_def *it;
	uint64_t entry;

	it = custom_item(n, subclass, item, &entry);
	if (!it || !it->name[0] || !len)
		return NULL;
	if (n->d.sub[subclass].entries == 1)
		snprintf(buf, len, "%.*s", MEAS_NAME_MAX, it->name);
	else
		snprintf(buf, len, "%.*s[%" PRIu64 "]", MEAS_NAME_MAX,
			 it->name, entry);
	return buf;
}

int meas_class_item_kind(const struct meas_class_names *n, int subclass,
			 int64_t item)
{
	const struct meas_item_def *it;
	uint64_t entry;

	it = custom_item(n, subclass, item, &entry);
	return it ? (int)it->kind : -1;
}

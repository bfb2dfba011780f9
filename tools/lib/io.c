// SPDX-License-Identifier: LGPL-2.1
/*
 * libmeas: the disks of class 0 (subclasses 1 to 4) and the class 14 I/O
 * trace: its streaming reader, whole-subclass reads, names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "libmeas.h"

int meas_iotrace_read(int fd, uint32_t flags, struct meas_io_record *buf,
		      size_t n, struct meas_iotrace_read *r)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->flags = flags;
	r->buf = (uintptr_t)buf;
	r->buflen = n * sizeof(*buf);
	r->result = MEAS_RC_NONE;
	return ioctl(fd, MEAS_IOC_IOTRACE_READ, r) < 0 ? -errno : 0;
}

int meas_get_subclass(int fd, int class, int subclass, struct meas_header *h,
		      uint64_t **items, size_t *n, int *result)
{
	uint64_t *v;
	size_t cnt;
	int err;

	*items = NULL;
	*n = 0;
	err = meas_header(fd, class, subclass, h, result);
	if (err)
		return err;
	if (h->entries < 1 || h->ent0size < MEAS_HEADER_WORDS ||
	    h->entsize > (SIZE_MAX / 8 - h->ent0size) / h->entries)
		return -ERANGE;
	cnt = (h->entries - 1) * h->entsize + h->ent0size - MEAS_HEADER_WORDS;
	v = calloc(cnt ? cnt : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	err = meas_get(fd, class, subclass, 0, cnt, v, cnt * sizeof(*v),
		       result);
	if (err) {
		free(v);
		return err;
	}
	*items = v;
	*n = cnt;
	return 0;
}

static const char *const disc_names[MEAS_C0_DISC_ITEMS] = {
	[MEAS_C0_DISC_DEV]		= "device",
	[MEAS_C0_DISC_READ_SWAP]	= "reads-swap",
	[MEAS_C0_DISC_WRITE_FORCED]	= "writes-forced",
	[MEAS_C0_DISC_WRITE_BACKGROUND]	= "writes-background",
	[MEAS_C0_DISC_READ_SYNC]	= "reads-sync",
	[MEAS_C0_DISC_WRITE_SYNC]	= "writes-sync",
	[MEAS_C0_DISC_READ_ASYNC]	= "reads-readahead",
	[MEAS_C0_DISC_WRITE_ASYNC]	= "writes-async",
	[MEAS_C0_DISC_READ_NOWAIT]	= "reads-nowait",
	[MEAS_C0_DISC_WRITE_NOWAIT]	= "writes-nowait",
	[MEAS_C0_DISC_BUSY]		= "busy-requeues",
	[MEAS_C0_DISC_CONTROL]		= "control",
	[MEAS_C0_DISC_QLEN0 + 0]	= "qlen-0",
	[MEAS_C0_DISC_QLEN0 + 1]	= "qlen-1",
	[MEAS_C0_DISC_QLEN0 + 2]	= "qlen-2",
	[MEAS_C0_DISC_QLEN0 + 3]	= "qlen-3",
	[MEAS_C0_DISC_QLEN0 + 4]	= "qlen-4",
	[MEAS_C0_DISC_QLEN0 + 5]	= "qlen-5",
	[MEAS_C0_DISC_QLEN0 + 6]	= "qlen-6+",
};

const char *meas_c0_disc_item_name(unsigned int item)
{
	return item < MEAS_C0_DISC_ITEMS ? disc_names[item] : NULL;
}

static const char *const xfer_names[MEAS_C0_XFER_ITEMS] = {
	[MEAS_C0_XFER_DEV]		= "device",
	[MEAS_C0_XFER_READS]		= "reads",
	[MEAS_C0_XFER_WRITES]		= "writes",
	[MEAS_C0_XFER_READ_BYTES]	= "read-bytes",
	[MEAS_C0_XFER_WRITE_BYTES]	= "write-bytes",
	[MEAS_C0_XFER_DISCARD_BYTES]	= "discard-bytes",
	[MEAS_C0_XFER_READ_NS]		= "read-ns",
	[MEAS_C0_XFER_WRITE_NS]		= "write-ns",
	[MEAS_C0_XFER_READS_TIMED]	= "reads-timed",
	[MEAS_C0_XFER_WRITES_TIMED]	= "writes-timed",
	[MEAS_C0_XFER_QUEUE_NS]		= "queue-ns",
	[MEAS_C0_XFER_SERVICE_NS]	= "service-ns",
	[MEAS_C0_XFER_INFLIGHT]		= "in-flight",
	[MEAS_C0_XFER_UNTRACKED]	= "untracked",
};

const char *meas_c0_xfer_item_name(unsigned int item)
{
	return item < MEAS_C0_XFER_ITEMS ? xfer_names[item] : NULL;
}

static const char *const op_names[16] = {
	[MEAS_IO_OP_READ]		= "read",
	[MEAS_IO_OP_WRITE]		= "write",
	[MEAS_IO_OP_FLUSH]		= "flush",
	[MEAS_IO_OP_DISCARD]		= "discard",
	[MEAS_IO_OP_SECURE_ERASE]	= "secure-erase",
	[MEAS_IO_OP_WRITE_ZEROES]	= "write-zeroes",
	[MEAS_IO_OP_ZONE_APPEND]	= "zone-append",
	[MEAS_IO_OP_ZONE_MGMT]		= "zone-mgmt",
	[MEAS_IO_OP_DRV_IN]		= "drv-in",
	[MEAS_IO_OP_DRV_OUT]		= "drv-out",
	[MEAS_IO_OP_OTHER]		= "other",
};

const char *meas_io_op_name(unsigned int op)
{
	return op < 16 && op_names[op] ? op_names[op] : "unknown";
}

/* One letter per operation, as blktrace's RWBS column: R, W, F, D... */
char meas_io_op_letter(unsigned int op)
{
	static const char letters[] = "RWFDEZAMIO?????X";

	return op < 16 ? letters[op] : '?';
}

int meas_dev_name(uint64_t dev, char *buf, size_t len)
{
	char path[64], line[256];
	FILE *f;

	if (dev >> 63) {
		snprintf(buf, len, "st%u:%u:%u:%u",
			 (unsigned int)(dev >> 40) & 0xffff,
			 (unsigned int)(dev >> 32) & 0xff,
			 (unsigned int)(dev >> 16) & 0xffff,
			 (unsigned int)dev & 0xffff);
		return 0;
	}
	snprintf(buf, len, "%u:%u", MEAS_DEV_MAJOR(dev), MEAS_DEV_MINOR(dev));
	if (!dev)
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent",
		 MEAS_DEV_MAJOR(dev), MEAS_DEV_MINOR(dev));
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line + 8);
			break;
		}
	fclose(f);
	return 0;
}


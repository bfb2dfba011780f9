// SPDX-License-Identifier: LGPL-2.1
/*
 * libmeas: class 15 over /dev/meas: GETPROCSTATS, READACTIVE, and the
 * names of the process items.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "libmeas.h"

int meas_getprocstats(int fd, struct meas_procstats *p)
{
	p->size = sizeof(*p);
	p->result = MEAS_RC_NONE;
	return ioctl(fd, MEAS_IOC_GETPROCSTATS, p) < 0 ? -errno : 0;
}

int meas_proc_get(int fd, uint32_t flags, int32_t pin, int64_t first,
		  int64_t count, uint64_t *buf, size_t buflen, int *result)
{
	struct meas_procstats p = {
		.flags = flags,
		.pin = pin,
		.firstitem = first,
		.wordcount = count,
		.buf = (uintptr_t)buf,
		.buflen = buflen,
	};
	int err = meas_getprocstats(fd, &p);

	if (result)
		*result = p.result;
	return err;
}

int meas_proc_header(int fd, uint64_t *h, int *result)
{
	return meas_proc_get(fd, 0, 0, 0, MEAS_PROC_ITEMS, h,
			     MEAS_PROC_ITEMS * sizeof(*h), result);
}

int meas_proc_all(int fd, uint64_t **items, size_t *nent, int *result)
{
	uint64_t h[MEAS_PROC_ITEMS];
	struct meas_procstats p = {
		.allpins = 1,
		.wordcount = MEAS_PROC_ITEMS,
	};
	size_t len;
	int err;

	*items = NULL;
	*nent = 0;
	err = meas_proc_header(fd, h, result);
	if (err)
		return err;
	/* Every entry fits; the call writes those up to the high-water mark. */
	len = h[MEAS_P0_ENTRIES] * MEAS_PROC_ITEMS * sizeof(uint64_t);
	*items = malloc(len);
	if (!*items)
		return -ENOMEM;
	p.buf = (uintptr_t)*items;
	p.buflen = len;
	err = meas_getprocstats(fd, &p);
	if (result)
		*result = p.result;
	if (err) {
		free(*items);
		*items = NULL;
		return err;
	}
	*nent = p.entries;
	return 0;
}

int meas_readactive(int fd, struct meas_readactive *ra)
{
	ra->size = sizeof(*ra);
	ra->result = MEAS_RC_NONE;
	if (!ra->recsize)
		ra->recsize = sizeof(struct meas_proc_rec);
	return ioctl(fd, MEAS_IOC_READACTIVE, ra) < 0 ? -errno : 0;
}

void meas_entity_init(struct meas_entity_desc *d, int include)
{
	memset(d, 0, sizeof(*d));
	d->type = include ? MEAS_ENT_PROCESS : -MEAS_ENT_PROCESS;
	d->len = sizeof(*d);
	d->pid = MEAS_ENT_ANY;
	d->cpu = MEAS_ENT_ANY;
	d->uid = MEAS_ENT_ANY;
}

static const char *const proc_names[MEAS_PROC_ITEMS] = {
	[MEAS_P_PROGRAM]		= "program",
	[MEAS_P_COMMAND]		= "command",
	[MEAS_P_GID]			= "gid",
	[MEAS_P_EGID]			= "egid",
	[MEAS_P_UID]			= "uid",
	[MEAS_P_EUID]			= "euid",
	[MEAS_P_SUID]			= "suid",
	[MEAS_P_SGID]			= "sgid",
	[MEAS_P_SESSION]		= "session",
	[MEAS_P_LAST_STOP]		= "last-stop",
	[MEAS_P_STOP_DISC_BLOCKED]	= "stops-disc-blocked",
	[MEAS_P_STOP_DISC_UNBLOCKED]	= "stops-disc-unblocked",
	[MEAS_P_STOP_BLOCKED_IO]	= "stops-blocked-io",
	[MEAS_P_STOP_TERMINAL]		= "stops-terminal",
	[MEAS_P_STOP_IMPEDED]		= "stops-impeded",
	[MEAS_P_STOP_TIMED_OUT]		= "stops-timed-out",
	[MEAS_P_STOP_PREEMPTED]		= "stops-preempted",
	[MEAS_P_LAUNCHES]		= "launches",
	[MEAS_P_DISC_READS]		= "disc-reads",
	[MEAS_P_DISC_WRITES]		= "disc-writes",
	[MEAS_P_CREATED]		= "created-ns",
	[MEAS_P_TERMINATED]		= "terminated-ns",
	[MEAS_P_CPU_TIME]		= "cpu-ns",
	[MEAS_P_PAUSE_DISC]		= "paused-disc-ns",
	[MEAS_P_PAUSE_IO]		= "paused-io-ns",
	[MEAS_P_PAUSE_TERMINAL]		= "paused-terminal-ns",
	[MEAS_P_PAUSE_IMPEDED]		= "paused-impeded-ns",
	[MEAS_P_PAUSE_ACTIVE]		= "paused-active-ns",
	[MEAS_P_DISC_BYTES]		= "disc-bytes",
	[MEAS_P_PID]			= "pid",
	[MEAS_P_PPID]			= "ppid",
	[MEAS_P_STATE]			= "state",
	[MEAS_P_GENERATION]		= "generation",
	[MEAS_P_LAST_CPU]		= "last-cpu",
	[MEAS_P_THREADS]		= "threads",
	[MEAS_P_STOP_JOBCTL]		= "stops-job-control",
	[MEAS_P_STOP_EXIT]		= "stops-exit",
	[MEAS_P_PAUSE_JOBCTL]		= "paused-job-control-ns",
	[MEAS_P_DISC_READ_BYTES]	= "disc-read-bytes",
	[MEAS_P_EXIT_STATUS]		= "exit-status",
	[MEAS_P_FLAGS]			= "flags",
};

const char *meas_proc_item_name(unsigned int item)
{
	return item < MEAS_PROC_ITEMS ? proc_names[item] : NULL;
}

/*
 * Items that count or add up time: what a view shows as the change over
 * an interval, and what PCP calls a counter.  The others are states,
 * identities and moments.
 */
int meas_proc_item_is_counter(unsigned int i)
{
	return (i >= MEAS_P_STOP_DISC_BLOCKED && i <= MEAS_P_STOP_PREEMPTED) ||
	       i == MEAS_P_LAUNCHES || i == MEAS_P_DISC_READS ||
	       i == MEAS_P_DISC_WRITES || i == MEAS_P_CPU_TIME ||
	       (i >= MEAS_P_PAUSE_DISC && i <= MEAS_P_DISC_BYTES &&
		!(i & 1)) ||
	       i == MEAS_P_STOP_JOBCTL || i == MEAS_P_STOP_EXIT ||
	       i == MEAS_P_PAUSE_JOBCTL || i == MEAS_P_DISC_READ_BYTES;
}

int meas_proc_item_is_time(unsigned int item)
{
	return item == MEAS_P_CPU_TIME || item == MEAS_P_PAUSE_DISC ||
	       item == MEAS_P_PAUSE_IO || item == MEAS_P_PAUSE_TERMINAL ||
	       item == MEAS_P_PAUSE_IMPEDED || item == MEAS_P_PAUSE_ACTIVE ||
	       item == MEAS_P_PAUSE_JOBCTL;
}

const char *meas_proc_stop_name(uint64_t item)
{
	switch (item) {
	case 0:
		return "-";
	case MEAS_P_STOP_DISC_BLOCKED:
		return "disc";
	case MEAS_P_STOP_DISC_UNBLOCKED:
		return "disc-async";
	case MEAS_P_STOP_BLOCKED_IO:
		return "blocked-io";
	case MEAS_P_STOP_TERMINAL:
		return "terminal";
	case MEAS_P_STOP_IMPEDED:
		return "impeded";
	case MEAS_P_STOP_TIMED_OUT:
		return "timed-out";
	case MEAS_P_STOP_PREEMPTED:
		return "preempted";
	case MEAS_P_STOP_JOBCTL:
		return "stopped";
	case MEAS_P_STOP_EXIT:
		return "exit";
	default:
		return "?";
	}
}

void meas_proc_string(const void *e, unsigned int item, size_t len,
		      char *buf)
{
	memcpy(buf, (const char *)e + item * sizeof(uint64_t), len);
	buf[len] = '\0';
}


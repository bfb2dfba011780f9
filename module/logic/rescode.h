/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * The result codes of every intrinsic: for each MPE code, the errno the
 * ioctl returns with it (the module) and its text (libmeas).  One table
 * per intrinsic, in rescode.c; pure, without kernel dependency, built
 * into the module, into libmeas and into the host unit tests.
 */
#ifndef _MEAS_RESCODE_H
#define _MEAS_RESCODE_H

/* The intrinsics, one table each */
enum meas_rc_call {
	MEAS_RC_START,		/* STARTSTATISTICS */
	MEAS_RC_STOP,		/* STOPSTATISTICS */
	MEAS_RC_GET,		/* GETSTATISTICS */
	MEAS_RC_DEFINE,		/* DEFINE, UNDEFINE, DESCRIBE */
	MEAS_RC_UPDATE,		/* UPDATESTATISTICS */
	MEAS_RC_GETCLOCK,
	MEAS_RC_GIVECLOCK,
	MEAS_RC_PROCSTATS,	/* GETPROCSTATS */
	MEAS_RC_READACTIVE,
	MEAS_RC_IOTRACE,	/* MEAS_IOC_IOTRACE_READ */
	MEAS_RC_TASK,		/* TASK_START, TASK_STOP */
	MEAS_RC_NR_CALLS
};

/**
 * struct meas_rc - one result code
 * @code: the MPE code (uapi/linux/meas*.h)
 * @err: the errno that comes with it, negative; 0 for success and for
 *	the codes meas never returns (the uapi says "does not arise")
 * @text: what it means, for people
 */
struct meas_rc {
	int code;
	int err;
	const char *text;
};

/**
 * struct meas_rc_table - the codes of one intrinsic
 * @names: the names libmeas callers give the intrinsic, NULL-terminated
 * @rc: its codes, in increasing order
 * @n: entries of @rc
 */
struct meas_rc_table {
	const char *const *names;
	const struct meas_rc *rc;
	unsigned int n;
};

extern const struct meas_rc_table meas_rc_tables[MEAS_RC_NR_CALLS];

const struct meas_rc *meas_rc_find(enum meas_rc_call call, int code);
int meas_rc_errno(enum meas_rc_call call, int code);
const char *meas_rc_text(enum meas_rc_call call, int code);
int meas_rc_call_of(const char *name);

#endif /* _MEAS_RESCODE_H */

// SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1
/*
 * The result codes of every intrinsic (rescode.h): the one place that
 * says which errno and which text go with each MPE code.  The uapi
 * headers list the same codes with their errno for programmers;
 * selftests/unit/rescode_test.c checks that every code has its entry.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/meas.h>
#else
#include <errno.h>
#include <string.h>
#include <linux/meas.h>
#endif
#include "rescode.h"

#define RC_TABLE(tab, ...) {						\
	.names = (const char *const []){ __VA_ARGS__, NULL },		\
	.rc = tab,							\
	.n = sizeof(tab) / sizeof((tab)[0]),				\
}

static const struct meas_rc start_rc[] = {
	{ MEAS_START_OK,	0,	 "ok" },
	{ MEAS_START_NOVMEM,	-ENOMEM, "no memory for the region" },
	{ MEAS_START_NODST,	-ENOMEM, "no per-CPU counter area" },
	{ MEAS_START_NOLOCK,	-EIO,	 "event sources could not be attached" },
	{ MEAS_START_TOOBIG,	-E2BIG,	 "region too big" },
	{ MEAS_START_BADCLASS,	-EINVAL, "class not defined" },
};

static const struct meas_rc stop_rc[] = {
	{ MEAS_STOP_OK,		0,	 "ok" },
	{ MEAS_STOP_BADPARM,	-EINVAL, "bad class mask" },
};

static const struct meas_rc get_rc[] = {
	{ MEAS_GET_OK,		0,	  "ok" },
	{ MEAS_GET_NOTENABLED,	-ENODATA, "class not enabled" },
	{ MEAS_GET_BOUNDS,	-ENOBUFS, "buffer out of bounds" },
	{ MEAS_GET_BADCOUNT,	-ERANGE,  "wordcount out of range" },
	{ MEAS_GET_BADITEM,	-ERANGE,  "startingitem out of range" },
	{ MEAS_GET_BADSUBCLASS,	-EINVAL,  "bad subclass" },
	{ MEAS_GET_BADCLASS,	-EINVAL,  "bad class" },
};

static const struct meas_rc define_rc[] = {
	{ MEAS_DEFINE_OK,	0,	 "ok" },
	{ MEAS_DEFINE_BADCLASS,	-EINVAL, "bad class" },
	{ MEAS_DEFINE_RESERVED,	-EINVAL, "class owned by the module" },
	{ MEAS_DEFINE_EXISTS,	-EEXIST, "class already defined" },
	{ MEAS_DEFINE_BUSY,	-EBUSY,	 "class enabled" },
	{ MEAS_DEFINE_NOCLASS,	-ENOENT, "not a user-defined class" },
	{ MEAS_DEFINE_BADSHAPE,	-EINVAL, "bad shape" },
	{ MEAS_DEFINE_BADNAME,	-EINVAL, "bad name" },
	{ MEAS_DEFINE_TOOBIG,	-E2BIG,	 "too many items" },
	{ MEAS_DEFINE_NOMEM,	-ENOMEM, "no memory" },
};

static const struct meas_rc update_rc[] = {
	{ MEAS_UPDATE_OK,		0,	  "ok" },
	{ MEAS_UPDATE_NOTENABLED,	-ENODATA, "class not enabled" },
	{ MEAS_UPDATE_BADITEM,		-ERANGE,  "bad startingitem" },
	{ MEAS_UPDATE_BADENTRY,		-ERANGE,  "bad entry" },
	{ MEAS_UPDATE_BADSUBCLASS,	-EINVAL,  "bad subclass" },
	{ MEAS_UPDATE_BADCLASS,		-EINVAL,  "bad class" },
};

/* NOBUF and NOENTRY: the errno of the failed allocation when there is one */
static const struct meas_rc getclock_rc[] = {
	{ MEAS_GETCLOCK_OK,		0,	    "ok" },
	{ MEAS_GETCLOCK_MISSING,	0,	    "missing parameter" },
	{ MEAS_GETCLOCK_INUSE,		-EBUSY,	    "clock in use" },
	{ MEAS_GETCLOCK_BADRATE,	-ERANGE,    "interval out of range" },
	{ MEAS_GETCLOCK_BADCOLLECTOR,	-EINVAL,    "invalid collector" },
	{ MEAS_GETCLOCK_NOCODE,		-EIO,	    "collector source unavailable" },
	{ MEAS_GETCLOCK_NOBUF,		-EINVAL,    "buffer not available" },
	{ MEAS_GETCLOCK_NONRESIDENT,	0,	    "collector not resident" },
	{ MEAS_GETCLOCK_NOENTRY,	-EMFILE,    "no descriptor for the buffer" },
	{ MEAS_GETCLOCK_NOTOWNER,	-EACCES,    "not the owner of the clock" },
	{ MEAS_GETCLOCK_NORESET,	-EALREADY,
	  "interval cannot change while ticking" },
};

static const struct meas_rc giveclock_rc[] = {
	{ MEAS_GIVECLOCK_OK,		0,	 "ok" },
	{ MEAS_GIVECLOCK_NOTOWNER,	-EACCES, "not the owner of the clock" },
	{ MEAS_GIVECLOCK_BADCOLLECTOR,	-EINVAL, "not the owner's collector" },
};

static const struct meas_rc procstats_rc[] = {
	{ MEAS_PROC_OK,		0,	  "ok" },
	{ MEAS_PROC_NOTENABLED,	-ENODATA, "class 15 not enabled" },
	{ MEAS_PROC_BOUNDS,	-ENOBUFS, "array out of bounds" },
	{ MEAS_PROC_BADCOUNT,	-ERANGE,  "bad wordcount" },
	{ MEAS_PROC_BADITEM,	-ERANGE,  "bad firstitem" },
	{ MEAS_PROC_BADPIN,	-ESRCH,	  "bad pin: no such process for the caller" },
};

static const struct meas_rc readactive_rc[] = {
	{ MEAS_RA_OK,		0,	    "ok" },
	{ MEAS_RA_BADDESC,	-EINVAL,    "bad entity descriptor" },
	{ MEAS_RA_BUFTOOSMALL,	-EOVERFLOW, "buffer too small" },
	{ MEAS_RA_CANNOTACCESS,	-ESTALE,    "cannot access: stale entity index" },
	{ MEAS_RA_NOTMEASURING,	-ENODATA,   "not measuring: class 15 not enabled" },
};

static const struct meas_rc iotrace_rc[] = {
	{ MEAS_IOTRACE_OK,		0,	  "ok" },
	{ MEAS_IOTRACE_NOTENABLED,	-ENODATA, "class 14 not enabled" },
	{ MEAS_IOTRACE_BOUNDS,		-ENOBUFS, "buffer out of bounds" },
};

/* SYSERR: -EIO when the CPU clock event or the probes fail (task.c) */
static const struct meas_rc task_rc[] = {
	{ MEAS_TASK_OK,		0,	 "ok" },
	{ MEAS_TASK_BUSY,	-EBUSY,	 "is already measured" },
	{ MEAS_TASK_NOTMEASURED, -ENOENT, "is not measured" },
	{ MEAS_TASK_NOTASK,	-ESRCH,	 "does not exist" },
	{ MEAS_TASK_SYSERR,	-ENOMEM, "cannot be measured: system error" },
	{ MEAS_TASK_NOTALLOWED,	-EPERM,	 "cannot be measured by this user" },
	{ MEAS_TASK_LIMIT,	-ENOSPC,
	  "cannot be measured: no further measurements possible" },
	{ MEAS_TASK_BADFILE,	-EMEDIUMTYPE,
	  "cannot be measured: invalid output file" },
	{ MEAS_TASK_FILEIO,	-EIO,
	  "cannot be measured: output file I/O error" },
};

const struct meas_rc_table meas_rc_tables[MEAS_RC_NR_CALLS] = {
	[MEAS_RC_START]		= RC_TABLE(start_rc, "start"),
	[MEAS_RC_STOP]		= RC_TABLE(stop_rc, "stop"),
	[MEAS_RC_GET]		= RC_TABLE(get_rc, "get"),
	[MEAS_RC_DEFINE]	= RC_TABLE(define_rc, "define", "undefine",
					   "describe"),
	[MEAS_RC_UPDATE]	= RC_TABLE(update_rc, "update"),
	[MEAS_RC_GETCLOCK]	= RC_TABLE(getclock_rc, "GETCLOCK"),
	[MEAS_RC_GIVECLOCK]	= RC_TABLE(giveclock_rc, "GIVECLOCK"),
	[MEAS_RC_PROCSTATS]	= RC_TABLE(procstats_rc, "GETPROCSTATS"),
	[MEAS_RC_READACTIVE]	= RC_TABLE(readactive_rc, "READACTIVE"),
	[MEAS_RC_IOTRACE]	= RC_TABLE(iotrace_rc, "iotrace"),
	[MEAS_RC_TASK]		= RC_TABLE(task_rc, "task"),
};

/**
 * meas_rc_find() - the entry of a code
 * @call: the intrinsic
 * @code: its code
 *
 * Return: the entry, or NULL for a call or code that does not exist.
 */
const struct meas_rc *meas_rc_find(enum meas_rc_call call, int code)
{
	const struct meas_rc_table *t;
	unsigned int i;

	if ((unsigned int)call >= MEAS_RC_NR_CALLS)
		return NULL;
	t = &meas_rc_tables[call];
	for (i = 0; i < t->n; i++)
		if (t->rc[i].code == code)
			return &t->rc[i];
	return NULL;
}

/*
 * The errno of a code.  The module returns only codes of the tables
 * (rescode_test.c checks the tables against the uapi); a code outside
 * them would be a bug, and gets EIO rather than success.
 */
int meas_rc_errno(enum meas_rc_call call, int code)
{
	const struct meas_rc *rc = meas_rc_find(call, code);

	return rc ? rc->err : -EIO;
}

/* The text of a code, NULL if it has none. */
const char *meas_rc_text(enum meas_rc_call call, int code)
{
	const struct meas_rc *rc = meas_rc_find(call, code);

	return rc ? rc->text : NULL;
}

/* The intrinsic of a libmeas call name, or -1. */
int meas_rc_call_of(const char *name)
{
	unsigned int c, i;

	for (c = 0; c < MEAS_RC_NR_CALLS; c++)
		for (i = 0; meas_rc_tables[c].names[i]; i++)
			if (!strcmp(meas_rc_tables[c].names[i], name))
				return c;
	return -1;
}

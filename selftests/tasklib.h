/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task measurement helpers of the in-VM selftests (task_test.c,
 * sec_test.c): START and STOP, the records of a task file, measured
 * children and other users.  Built into libselftest.a.
 */
#ifndef MEAS_SELFTEST_TASKLIB_H
#define MEAS_SELFTEST_TASKLIB_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/meas.h>

/* ---- the calls: 0 or -errno; the struct holds the reply ---------------- */

void tfill(struct meas_task_start *k, pid_t pid, unsigned int ms,
	   unsigned int flags, unsigned int load, const char *path);
int tstart(int fd, pid_t pid, unsigned int ms, unsigned int flags,
	   unsigned int load, const char *path, struct meas_task_start *k);
int tstop(int fd, pid_t pid, struct meas_task_stop *k);

/* ---- the file ---------------------------------------------------------- */

struct tfile {
	char *buf;
	size_t len;
};

struct tfile tread(const char *path);
/* The next record at *@off, NULL at the end or on a malformed size. */
const struct meas_trec *tnext(const struct tfile *f, size_t *off);
/* Offset of the @n-th session (0 first), or -1. */
long tsession(const struct tfile *f, int n);
/* The END record of the session at @start, NULL if not written yet. */
const struct meas_trec_end *tend(const struct tfile *f, long start);
/* Wait up to 20 s for the session's END; the file read at that point. */
struct tfile twait_end(const char *path, int session);
/* Records of @type in the session at @start. */
long tcount(const struct tfile *f, long start, int type);
/* SVC records of system call @nr in the session at @start. */
long tsvc(const struct tfile *f, long start, unsigned int nr);
/* The first OBJECT or MAP (@type) record whose name contains @s. */
const struct meas_trec_object *tobject(const struct tfile *f, long start,
				       int type, const char *s);

/* ---- measured children --------------------------------------------------- */

/* A child that runs @fn once the parent writes to the pipe *@go. */
pid_t spawn(int (*fn)(void *), void *arg, int *go);
/* Write to @go, then wait for @pid: its wait status. */
int release_and_wait(pid_t pid, int go);
/*
 * Measure a child running @fn from before its first instruction to its
 * exit; the file once the END record is there, *@at the session's offset
 * (-1 if anything failed).
 */
struct tfile measure_run(int fd, const char *path, int (*fn)(void *),
			 unsigned int ms, unsigned int flags,
			 unsigned int load, pid_t *pidp, long *at);

/* ---- users ------------------------------------------------------------- */

/* Runs @fn as user @uid, a member of meas, without capabilities; its exit status. */
int as_user(uid_t uid, int (*fn)(void *), void *arg);
/* Copy @src to @dst with @mode: 0 or -1. */
int copy_file(const char *src, const char *dst, mode_t mode);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * Task measurement helpers shared by task_test.c and sec_test.c: the
 * calls, the file's records, measured children, users (tasklib.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "common.h"
#include "tasklib.h"

/* ---- the calls --------------------------------------------------------- */

void tfill(struct meas_task_start *k, pid_t pid, unsigned int ms,
	   unsigned int flags, unsigned int load, const char *path)
{
	memset(k, 0, sizeof(*k));
	k->size = sizeof(*k);
	k->pid = pid;
	k->pcounter_ms = ms;
	k->flags = flags;
	k->load_info = load;
	k->path = (uintptr_t)path;
	k->result = MEAS_RC_NONE;
}

int tstart(int fd, pid_t pid, unsigned int ms, unsigned int flags,
	   unsigned int load, const char *path, struct meas_task_start *k)
{
	tfill(k, pid, ms, flags, load, path);
	return ioctl(fd, MEAS_IOC_TASK_START, k) ? -errno : 0;
}

int tstop(int fd, pid_t pid, struct meas_task_stop *k)
{
	memset(k, 0, sizeof(*k));
	k->size = sizeof(*k);
	k->pid = pid;
	k->result = MEAS_RC_NONE;
	return ioctl(fd, MEAS_IOC_TASK_STOP, k) ? -errno : 0;
}

/* ---- the file ---------------------------------------------------------- */

struct tfile tread(const char *path)
{
	struct tfile f = { 0 };
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return f;
	f.buf = malloc(st.st_size + 1);
	f.len = read(fd, f.buf, st.st_size);
	close(fd);
	return f;
}

/* The next record at *@off, NULL at the end or on a malformed size. */
const struct meas_trec *tnext(const struct tfile *f, size_t *off)
{
	const struct meas_trec *h;

	if (*off + sizeof(*h) > f->len)
		return NULL;
	h = (const void *)(f->buf + *off);
	if (h->size < sizeof(*h) || h->size % 8 || *off + h->size > f->len)
		return NULL;
	*off += h->size;
	return h;
}

/* Offset of the @n-th session (0 first), or -1. */
long tsession(const struct tfile *f, int n)
{
	const struct meas_trec *h;
	size_t off = 0, at;

	for (at = off; (h = tnext(f, &off)); at = off)
		if (h->type == MEAS_TREC_SESSION && !n--)
			return at;
	return -1;
}

/* The END record of the session at @start, NULL if not written yet. */
const struct meas_trec_end *tend(const struct tfile *f, long start)
{
	const struct meas_trec *h;
	size_t off = start;

	tnext(f, &off);
	while ((h = tnext(f, &off)) && h->type != MEAS_TREC_SESSION)
		if (h->type == MEAS_TREC_END)
			return (const void *)h;
	return NULL;
}

/* Wait up to 20 s for the last session's END; the file read at that point. */
struct tfile twait_end(const char *path, int session)
{
	struct tfile f = { 0 };
	int i;

	for (i = 0; i < 400; i++) {
		free(f.buf);
		f = tread(path);
		if (f.buf && tsession(&f, session) >= 0 &&
		    tend(&f, tsession(&f, session)))
			break;
		sleep_ms(50);
	}
	return f;
}

/* Records of @type in the session at @start. */
long tcount(const struct tfile *f, long start, int type)
{
	const struct meas_trec *h;
	size_t off = start;
	long n = 0;

	tnext(f, &off);
	while ((h = tnext(f, &off)) && h->type != MEAS_TREC_SESSION)
		n += h->type == type;
	return n;
}

long tsvc(const struct tfile *f, long start, unsigned int nr)
{
	const struct meas_trec *h;
	size_t off = start;
	long n = 0;

	tnext(f, &off);
	while ((h = tnext(f, &off)) && h->type != MEAS_TREC_SESSION)
		n += h->type == MEAS_TREC_SVC &&
		     ((const struct meas_trec_svc *)h)->nr == nr;
	return n;
}

/* The first OBJECT or MAP (@type) record whose name contains @s. */
const struct meas_trec_object *tobject(const struct tfile *f, long start,
				       int type, const char *s)
{
	const struct meas_trec *h;
	size_t off = start;

	tnext(f, &off);
	while ((h = tnext(f, &off)) && h->type != MEAS_TREC_SESSION)
		if (h->type == type &&
		    strstr(((const struct meas_trec_object *)h)->name, s))
			return (const void *)h;
	return NULL;
}

/* ---- measured children -------------------------------------------------- */

/* A child that runs @fn once the parent writes to the pipe. */
pid_t spawn(int (*fn)(void *), void *arg, int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(98);
		_exit(fn(arg));
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

int release_and_wait(pid_t pid, int go)
{
	int st = -1;

	if (write(go, "g", 1) != 1)
		return -1;
	close(go);
	waitpid(pid, &st, 0);
	return st;
}

/*
 * Measure a child running @fn from before its first instruction to its
 * exit (status in *@st); the file once the END record is there, with
 * *@at the session's offset (-1 if anything failed).
 */
struct tfile measure_run(int fd, const char *path, int (*fn)(void *),
			 unsigned int ms, unsigned int flags,
			 unsigned int load, pid_t *pidp, long *at)
{
	struct meas_task_start k;
	struct tfile f = { 0 };
	int go = -1, st;
	pid_t pid = spawn(fn, NULL, &go);

	*at = -1;
	if (pidp)
		*pidp = pid;
	if (tstart(fd, pid, ms, flags, load, path, &k)) {
		kill(pid, SIGKILL);
		close(go);
		waitpid(pid, &st, 0);
		return f;
	}
	st = release_and_wait(pid, go);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return f;
	f = twait_end(path, 0);
	*at = tsession(&f, 0);
	if (*at >= 0 && !tend(&f, *at))
		*at = -1;
	return f;
}

/* Runs @fn as user @uid, a member of meas, without capabilities; its exit status. */
int as_user(uid_t uid, int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int st = -1;

	if (!pid) {
		if (become_member(uid, uid))
			_exit(97);
		/* as after a login's exec: changing uid cleared it */
		prctl(PR_SET_DUMPABLE, 1);
		_exit(fn(arg));
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 96;
}

/* Copy @src to @dst with @mode: 0 or -1. */
int copy_file(const char *src, const char *dst, mode_t mode)
{
	int in = open(src, O_RDONLY), out, rc = 0;
	char buf[65536];
	ssize_t n;

	out = open(dst, O_CREAT | O_TRUNC | O_WRONLY, 0700);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			rc = -1;
	close(in);
	close(out);
	return rc || n < 0 ? -1 : chmod(dst, mode);
}


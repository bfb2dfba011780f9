// SPDX-License-Identifier: GPL-2.0
/*
 * measctl start and the holder process.
 *
 * Enablement belongs to an open file of /dev/meas, so "start" leaves a
 * process behind that keeps one open: the holder.  start forks it; the
 * holder detaches (setsid, stdio on /dev/null, cwd /, other fds
 * closed), opens /dev/meas, STARTs the classes, records itself as
 * $MEAS_RUNDIR/holder.<pid> (its mask) and reports the outcome to start
 * through a pipe, so the MPE result and errno reach the user and the
 * exit status.  It then waits in sigwaitinfo():
 *
 *   SIGUSR2 sent by sigqueue() with a class mask as value: STOP those of
 *	its classes, rewrite the record; when none is left, remove the
 *	record and exit;
 *   SIGTERM, SIGINT, SIGHUP: STOP everything, remove the record, exit.
 *
 * If the holder dies any other way (kill -9), the kernel closes its file
 * and that stops its classes; "stop" removes the stale record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"
#include "core/holder.h"

enum holder_stage {
	HS_OK,
	HS_SETUP,	/* detaching failed */
	HS_OPEN,	/* open /dev/meas */
	HS_INFO,	/* resolving "all" */
	HS_START,	/* STARTSTATISTICS */
	HS_RUNDIR,	/* creating the run directory */
	HS_RECORD,	/* writing the record */
};

/* What the holder tells start, through the pipe, in one write. */
struct holder_report {
	int stage;
	int err;			/* positive errno */
	int result;			/* MPE result of START */
	uint32_t mask;			/* the classes asked for, resolved */
	uint32_t global_mask;		/* after START */
	uint32_t enablers[MEAS_NR_CLASSES];
};

static const int holder_signals[] = { SIGUSR2, SIGTERM, SIGINT, SIGHUP };

static void holder_sigset(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < ARRAY_SIZE(holder_signals); i++)
		sigaddset(set, holder_signals[i]);
}

static void close_other_fds(int keep)
{
	int fd;

	if ((keep <= 3 || !close_range(3, keep - 1, 0)) &&
	    !close_range(keep + 1, ~0U, 0))
		return;
	for (fd = 3; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
}

/* Leave the session, the terminal and the cwd of the caller. */
static int holder_detach(int keep)
{
	int fd;

	if (setsid() < 0)
		return -errno;
	prctl(PR_SET_NAME, HOLDER_COMM, 0, 0, 0);
	umask(022);
	if (chdir("/"))
		return -errno;
	fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return -errno;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
	close_other_fds(keep);
	return 0;
}

static void holder_report(int wfd, struct holder_report *r)
{
	ssize_t n;

	do
		n = write(wfd, r, sizeof(*r));
	while (n < 0 && errno == EINTR);
	close(wfd);
}

/* Open, START, record; fills @r.  Returns the fd or -1. */
static int holder_setup(const char *dir, const struct classes *cls,
			struct holder_report *r)
{
	struct meas_info info;
	int fd, err;

	fd = meas_open();
	if (fd < 0) {
		r->stage = HS_OPEN;
		r->err = -fd;
		return -1;
	}
	if (cls->all) {
		err = meas_info(fd, &info);
		r->mask = err ? 0 : info.defined_mask;
		if (!r->mask) {
			r->stage = HS_INFO;
			r->err = err ? -err : ENODEV;
			goto fail;
		}
	}
	err = meas_start(fd, r->mask, &r->result);
	if (err) {
		r->stage = HS_START;
		r->err = -err;
		goto fail;
	}
	err = rundir_make(dir);
	if (err) {
		r->stage = HS_RUNDIR;
		r->err = -err;
		goto fail;
	}
	err = holder_record_write(dir, getpid(), r->mask);
	if (err) {
		r->stage = HS_RECORD;
		r->err = -err;
		goto fail;
	}
	if (!meas_info(fd, &info)) {
		r->global_mask = info.global_mask;
		memcpy(r->enablers, info.enablers, sizeof(r->enablers));
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* Serve stop requests until nothing is held; then clean up and exit. */
static void __noreturn holder_serve(int fd, const char *dir, uint32_t held)
{
	sigset_t set;
	siginfo_t si;
	uint32_t req;
	int sig;

	holder_sigset(&set);
	while (held) {
		sig = sigwaitinfo(&set, &si);
		if (sig < 0 && errno == EINTR)
			continue;
		if (sig != SIGUSR2)
			break;
		if (si.si_code != SI_QUEUE)
			continue;
		req = (uint32_t)si.si_value.sival_int & held;
		if (!req)
			continue;
		if (meas_stop(fd, req, NULL))
			break;
		held &= ~req;
		if (held)
			holder_record_write(dir, getpid(), held);
	}
	if (held)
		meas_stop(fd, held, NULL);
	/* STOP is done before the record goes: stop relies on the order. */
	holder_record_remove(dir, getpid());
	close(fd);
	_exit(EXIT_OK);
}

static void __noreturn holder_main(int wfd, const char *dir, const struct classes *cls)
{
	struct holder_report r = { .result = MEAS_RC_NONE, .mask = cls->mask };
	sigset_t set;
	int fd, err;

	/* Blocked before the record exists: no request can be lost. */
	holder_sigset(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* Started with stdio closed, the pipe may sit where /dev/null goes. */
	if (wfd <= STDERR_FILENO)
		wfd = fcntl(wfd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	err = wfd < 0 ? -errno : holder_detach(wfd);
	if (err) {
		r.stage = HS_SETUP;
		r.err = -err;
		holder_report(wfd, &r);
		_exit(EXIT_FAIL);
	}
	fd = holder_setup(dir, cls, &r);
	holder_report(wfd, &r);
	if (fd < 0)
		_exit(EXIT_FAIL);
	holder_serve(fd, dir, r.mask);
}

/* ---- the start command -------------------------------------------------- */

static int read_report(int rfd, struct holder_report *r)
{
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(*r)) {
		n = read(rfd, (char *)r + got, sizeof(*r) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

static int start_failed(struct cmd_ctx *ctx, const struct holder_report *r,
			const char *dir)
{
	char cl[64];

	format_classes(r->mask, cl, sizeof(cl));
	switch (r->stage) {
	case HS_OPEN:
		return fail_open(ctx, r->err);
	case HS_INFO:
		return fail(ctx, r->err, "cannot find the defined classes");
	case HS_START:
		return fail_call(ctx, "start", r->result, r->err,
				 "STARTSTATISTICS of classes %s (0x%04x)", cl,
				 r->mask);
	case HS_RUNDIR:
		return fail(ctx, r->err, "cannot create %s", dir);
	case HS_RECORD:
		return fail(ctx, r->err, "cannot write a holder record in %s",
			    dir);
	default:
		return fail(ctx, r->err, "cannot start the holder process");
	}
}

static void start_print(struct cmd_ctx *ctx, pid_t pid, const char *dir,
			const struct holder_report *r)
{
	char cl[64], gl[64], rec[PATH_MAX];
	struct json j;
	int c;

	holder_record_name(dir, pid, rec, sizeof(rec));
	format_classes(r->mask, cl, sizeof(cl));
	format_classes(r->global_mask, gl, sizeof(gl));
	if (!ctx->json) {
		printf("started classes %s (0x%04x): holder pid %d, record %s\n",
		       cl, r->mask, (int)pid, rec);
		printf("enabled classes: %s (0x%04x)\n", gl, r->global_mask);
		return;
	}
	json_doc_ok(&j, stdout, "start", true);
	json_mask(&j, "mask", r->mask);
	json_classes(&j, "classes", r->mask);
	json_i64(&j, "holder_pid", pid);
	json_str(&j, "record", rec);
	json_mask(&j, "global_mask", r->global_mask);
	json_classes(&j, "enabled_classes", r->global_mask);
	json_arr_begin(&j, "enablers");
	for (c = 0; c < MEAS_NR_CLASSES; c++)
		json_u64(&j, NULL, r->enablers[c]);
	json_arr_end(&j);
	json_doc_end(&j);
}

static int start_spawn(struct cmd_ctx *ctx, const char *dir,
		       const struct classes *cls)
{
	struct holder_report r;
	int p[2], status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return fail(ctx, errno, "pipe");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return fail(ctx, errno, "fork");
	}
	if (!pid) {
		close(p[0]);
		holder_main(p[1], dir, cls);
	}
	close(p[1]);
	if (read_report(p[0], &r)) {
		close(p[0]);
		waitpid(pid, &status, 0);
		return fail(ctx, 0, "the holder process died before reporting");
	}
	close(p[0]);
	if (r.stage != HS_OK) {
		waitpid(pid, &status, 0);
		return start_failed(ctx, &r, dir);
	}
	start_print(ctx, pid, dir, &r);
	return EXIT_OK;
}

static int cmd_start(struct cmd_ctx *ctx, int argc, char **argv)
{
	char dir[PATH_MAX];
	struct opt_state st;
	struct classes cls;
	int rc, err;

	rc = opt_parse(ctx, &st, argc, argv, NULL, false, NULL, NULL);
	if (rc != OPT_END)
		return rc;
	if (st.npos != 1)
		return usage_error(ctx, st.npos ? "too many arguments (one CLASSES, such as 0,14)" :
				   "which classes? (0..15, as 0,14, 0-3, 0x4001 or all)");
	rc = classes_arg(ctx, st.pos[0], &cls);
	if (rc)
		return rc;
	err = rundir_path(dir, sizeof(dir));
	if (err)
		return fail(ctx, -err, "bad MEAS_RUNDIR");
	return start_spawn(ctx, dir, &cls);
}

const struct command start_command = {
	.name = "start",
	.fn = cmd_start,
	.args = "CLASSES",
	.help = "enable CLASSES in a detached holder process (STARTSTATISTICS);\n"
		"    they stay enabled until 'measctl stop' or the holder dies",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * measctl task: openSM2's task measurement from the shell.  start and
 * stop are START-TASK-MEASUREMENT and STOP-TASK-MEASUREMENT; run measures
 * a command from its first instruction (the child waits on a pipe until
 * its measurement has started, then execs), waits for the file's END
 * record and prints a summary; report is in taskreport.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "task/task.h"
#include "cli/dev.h"

/* How long run waits for the END record after the command exited. */
#define TASK_END_WAIT_MS	10000

struct start_args {
	int32_t pid;		/* 0: the parent (the shell) */
	bool have_pid;
	uint32_t interval;	/* ms, 0: no sampling */
	uint32_t flags;
	uint32_t load;
	const char *file;	/* NULL: the standard file */
	bool report;		/* run --report */
	struct task_report_opts o;
};

enum { OPT_PID = 'p', OPT_INTERVAL = 'i', OPT_SVC = 's', OPT_LOAD = 'l',
	OPT_FILE = 'f', OPT_REPORT = 'r', OPT_TOP = 'n' };

static const struct opt start_opts[] = {
	{ "pid", 'p', OPT_ARG, OPT_PID },
	{ "interval", 'i', OPT_ARG, OPT_INTERVAL },
	{ "svc", 's', OPT_NONE, OPT_SVC },
	{ "load", 'l', OPT_ARG, OPT_LOAD },
	{ "file", 'f', OPT_ARG, OPT_FILE },
	{ "report", 'r', OPT_NONE, OPT_REPORT },
	{ "top", 'n', OPT_ARG, OPT_TOP },
	{ NULL, 0, OPT_NONE, 0 },
};

static int interval_opt(struct cmd_ctx *ctx, const char *arg, uint32_t *ms)
{
	uint64_t v;

	if (!strcmp(arg, "none")) {
		*ms = 0;
		return EXIT_OK;
	}
	if (parse_u64(arg, MEAS_TASK_PCOUNTER_MAX, &v) || !v)
		return usage_error(ctx, "--interval takes 'none' or 1..%u ms, not '%s'",
				   MEAS_TASK_PCOUNTER_MAX, arg);
	*ms = v;
	return EXIT_OK;
}

static int start_opt(struct cmd_ctx *ctx, int id, const char *arg, void *data)
{
	struct start_args *a = data;
	int64_t v;
	uint64_t u;

	switch (id) {
	case OPT_PID:
		if (parse_i64(arg, 1, INT32_MAX, &v))
			return usage_error(ctx, "bad PID '%s' (1..%d)", arg,
					   INT32_MAX);
		a->pid = v;
		a->have_pid = true;
		return EXIT_OK;
	case OPT_INTERVAL:
		return interval_opt(ctx, arg, &a->interval);
	case OPT_SVC:
		a->flags |= MEAS_TASK_SVC;
		return EXIT_OK;
	case OPT_LOAD:
		if (!strcmp(arg, "std"))
			a->load = MEAS_TASK_LOAD_STD;
		else if (!strcmp(arg, "detailed"))
			a->load = MEAS_TASK_LOAD_DETAILED;
		else
			return usage_error(ctx, "--load takes std or detailed, not '%s'",
					   arg);
		return EXIT_OK;
	case OPT_FILE:
		if (!arg[0] || strlen(arg) >= MEAS_TASK_PATH_MAX)
			return usage_error(ctx, "bad --file '%s' (a path of 1..%d bytes)",
					   arg, MEAS_TASK_PATH_MAX - 1);
		a->file = arg;
		return EXIT_OK;
	case OPT_REPORT:
		a->report = true;
		return EXIT_OK;
	default:
		if (parse_u64(arg, SIZE_MAX, &u))
			return usage_error(ctx, "bad --top '%s' (0 or more lines)",
					   arg);
		a->o.top = u;
		return EXIT_OK;
	}
}

/* The file a measurement of @pid writes to: --file or the standard one. */
static void task_file(const struct start_args *a, int32_t pid, char *buf,
		      size_t len)
{
	if (a->file)
		snprintf(buf, len, "%s", a->file);
	else if (meas_task_std_path(getuid(), pid, buf, len))
		buf[0] = '\0';
}

/* ---- failures: "NPS0045 process 123 is already measured" ---------------- */

static void task_fail_json(const struct cmd_ctx *ctx, const char *sub,
			   const char *msg, int result, int err,
			   int file_errno)
{
	struct json j;

	json_doc_ok(&j, stdout, ctx->name, false);
	json_str(&j, "subcommand", sub);
	json_str(&j, "error", msg);
	json_str(&j, "call", !strcmp(sub, "stop") ? "STOP-TASK-MEASUREMENT" :
						     "START-TASK-MEASUREMENT");
	json_i64(&j, "result", result);
	json_i64(&j, "errno", err);
	if (err && strerrorname_np(err))
		json_str(&j, "errno_name", strerrorname_np(err));
	json_i64(&j, "file_errno", file_errno);
	json_doc_end(&j);
}

static int task_fail(const struct cmd_ctx *ctx, const char *sub, int32_t pid,
		     int result, int err, int file_errno)
{
	char msg[512];
	int n;

	if (result == MEAS_RC_NONE || result == MEAS_TASK_OK)
		n = snprintf(msg, sizeof(msg), "%s of process %d: %s",
			     !strcmp(sub, "stop") ? "STOP-TASK-MEASUREMENT" :
						    "START-TASK-MEASUREMENT",
			     pid, strerror(err));
	else
		n = snprintf(msg, sizeof(msg), "NPS%04d process %d %s (%s)",
			     result, pid, meas_task_result_str(result),
			     strerrorname_np(err) ?: strerror(err));
	if (file_errno && n > 0 && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - n, ": file: %s",
			 strerror(file_errno));
	warnx_ctx(ctx, "%s", msg);
	if (ctx->json)
		task_fail_json(ctx, sub, msg, result, err, file_errno);
	return EXIT_FAIL;
}

/* START-TASK-MEASUREMENT of @pid; fills @s; an exit status. */
static int task_do_start(struct cmd_ctx *ctx, int fd, const char *sub,
			 const struct start_args *a, int32_t pid,
			 uint32_t flags, struct meas_task_start *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->flags = a->flags | flags;
	s->pid = pid;
	s->pcounter_ms = a->interval;
	s->load_info = a->load;
	s->path = (uintptr_t)a->file;
	err = meas_task_start(fd, s);
	if (err)
		return task_fail(ctx, sub, pid, s->result, -err, s->file_errno);
	return EXIT_OK;
}

/* ---- start and stop --------------------------------------------------- */

static int task_start(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct start_args a = { 0 };
	struct meas_task_start s;
	struct opt_state st;
	char file[MEAS_TASK_PATH_MAX];
	struct json j;
	int fd, rc;

	rc = opt_parse(ctx, &st, argc, argv, start_opts, false, start_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.npos || a.report || a.o.top)
		return usage_error(ctx, "task start takes options only");
	if (!a.have_pid)
		a.pid = getppid();
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	rc = task_do_start(ctx, fd, "start", &a, a.pid, 0, &s);
	close(fd);
	if (rc)
		return rc;
	task_file(&a, s.pid, file, sizeof(file));
	if (!ctx->json) {
		printf("session %llu pid %d file %s\n",
		       (unsigned long long)s.session, s.pid, file);
		return EXIT_OK;
	}
	json_doc_ok(&j, stdout, ctx->name, true);
	json_str(&j, "subcommand", "start");
	json_u64(&j, "session", s.session);
	json_i64(&j, "pid", s.pid);
	json_str(&j, "file", file);
	json_u64(&j, "interval_ms", a.interval);
	json_bool(&j, "svc", a.flags & MEAS_TASK_SVC);
	json_str(&j, "load", a.load ? "detailed" : "std");
	json_doc_end(&j);
	return EXIT_OK;
}

static int task_stop(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct meas_task_stop s;
	struct opt_state st;
	int64_t pid = getppid();
	struct json j;
	int fd, err, rc;

	rc = opt_parse(ctx, &st, argc, argv, NULL, false, NULL, NULL);
	if (rc != OPT_END)
		return rc;
	if (st.npos > 1)
		return usage_error(ctx, "task stop takes one PID");
	if (st.npos && parse_i64(st.pos[0], 1, INT32_MAX, &pid))
		return usage_error(ctx, "bad PID '%s' (1..%d)", st.pos[0],
				   INT32_MAX);
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	err = meas_task_stop(fd, pid, &s);
	close(fd);
	if (err)
		return task_fail(ctx, "stop", pid, s.result, -err, 0);
	if (!ctx->json) {
		printf("session %llu pid %d samples %llu kernel_samples %llu svcs %llu lost %llu\n",
		       (unsigned long long)s.session, s.pid,
		       (unsigned long long)s.samples,
		       (unsigned long long)s.kernel_samples,
		       (unsigned long long)s.svcs,
		       (unsigned long long)s.lost);
		return EXIT_OK;
	}
	json_doc_ok(&j, stdout, ctx->name, true);
	json_str(&j, "subcommand", "stop");
	json_u64(&j, "session", s.session);
	json_i64(&j, "pid", s.pid);
	json_u64(&j, "samples", s.samples);
	json_u64(&j, "kernel_samples", s.kernel_samples);
	json_u64(&j, "svcs", s.svcs);
	json_u64(&j, "lost", s.lost);
	json_doc_end(&j);
	return EXIT_OK;
}

/* ---- run ---------------------------------------------------------------- */

struct run_state {
	int status;		/* wait status */
	int exit_code;
	struct meas_task_start s;
	char file[MEAS_TASK_PATH_MAX];
	struct tf_file f;
	const struct tf_session *sess;	/* ours in @f, NULL if not found */
};

/* The child: wait until measured (a byte on @go), then exec @cmd. */
static void __noreturn run_child(int go, char **cmd)
{
	char c;
	ssize_t n;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	do
		n = read(go, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(EXIT_FAIL);	/* the measurement did not start */
	close(go);
	execvp(cmd[0], cmd);
	fprintf(stderr, "measctl task run: cannot run '%s': %s\n", cmd[0],
		strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

static int run_wait(pid_t pid, struct run_state *r)
{
	pid_t w;

	do
		w = waitpid(pid, &r->status, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	r->exit_code = run_exit_code(r->status);
	return 0;
}

/*
 * The kernel writes the END record shortly after the exit: read the file
 * until our session has it, for at most TASK_END_WAIT_MS.
 */
static void run_wait_end(struct run_state *r)
{
	struct timespec ts = { 0, 10 * 1000000 };
	int waited;

	for (waited = 0;; waited += 10) {
		tf_free(&r->f);
		tf_load(r->file, &r->f);
		r->sess = tf_find_session(&r->f, r->s.session);
		if ((r->sess && r->sess->ended) || waited >= TASK_END_WAIT_MS)
			return;
		nanosleep(&ts, NULL);
	}
}

/* Fork the child, measure it, let it go, wait for it and for the END. */
static int run_measured(struct cmd_ctx *ctx, int fd, struct start_args *a,
			char **cmd, struct run_state *r)
{
	int go[2], rc, err;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0)
		return fail(ctx, errno, "pipe");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(go[0]);
		close(go[1]);
		return fail(ctx, err, "fork");
	}
	if (!pid) {
		close(go[1]);
		run_child(go[0], cmd);
	}
	close(go[0]);
	/* Owned: should measctl die, the measurement ends with its file. */
	rc = task_do_start(ctx, fd, "run", a, pid, MEAS_TASK_OWNED, &r->s);
	if (rc) {
		close(go[1]);	/* the child reads EOF and exits */
		run_wait(pid, r);
		return rc;
	}
	task_file(a, pid, r->file, sizeof(r->file));
	if (write(go[1], "g", 1) != 1) {
		err = errno;
		kill(pid, SIGKILL);
		close(go[1]);
		run_wait(pid, r);
		return fail(ctx, err, "cannot release the command");
	}
	close(go[1]);
	err = run_wait(pid, r);
	if (err)
		return fail(ctx, -err, "waitpid");
	run_wait_end(r);
	return EXIT_OK;
}

static void run_summary_text(FILE *f, char **cmd, const struct run_state *r)
{
	const struct tf_session *s = r->sess;

	fprintf(f, "measctl task run: %s: ", cmd[0]);
	if (WIFSIGNALED(r->status))
		fprintf(f, "killed by signal %d (%s)", WTERMSIG(r->status),
			strsignal(WTERMSIG(r->status)));
	else
		fprintf(f, "exit status %d", r->exit_code);
	fprintf(f, ", session %llu pid %d file %s\n",
		(unsigned long long)r->s.session, r->s.pid, r->file);
	if (s && s->ended)
		fprintf(f, "  ended: %s, samples %llu kernel_samples %llu svcs %llu lost %llu, CPU %.3f s\n",
			task_end_text(s),
			(unsigned long long)s->end.samples,
			(unsigned long long)s->end.kernel_samples,
			(unsigned long long)s->end.svcs,
			(unsigned long long)s->end.lost, s->end.cpu_ns / 1e9);
}

static void run_summary_json(const struct cmd_ctx *ctx, char **cmd,
			     const struct run_state *r,
			     const struct start_args *a)
{
	const struct tf_session *s = r->sess;
	struct json j;

	json_doc_ok(&j, stdout, ctx->name, true);
	json_str(&j, "subcommand", "run");
	json_command(&j, cmd, r->exit_code, r->status);
	json_u64(&j, "session", r->s.session);
	json_i64(&j, "pid", r->s.pid);
	json_str(&j, "file", r->file);
	json_bool(&j, "complete", s && s->ended);
	if (s && a->report) {
		json_obj_begin(&j, "report");
		task_report_json(&j, s, &a->o);
		json_obj_end(&j);
	}
	json_doc_end(&j);
}

static int task_run(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	struct start_args a = { .o = { .top = TASK_REPORT_TOP } };
	struct run_state r = { 0 };
	struct opt_state st;
	int fd, rc;

	rc = opt_parse(ctx, &st, argc, argv, start_opts, true, start_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (a.have_pid)
		return usage_error(ctx, "task run measures its command: no --pid");
	if (st.rest >= argc)
		return usage_error(ctx, "no command to run");
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	/* Like time(1): an interrupted command still gets its report. */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	rc = run_measured(ctx, fd, &a, argv + st.rest, &r);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	close(fd);
	if (rc) {
		tf_free(&r.f);
		return rc;
	}
	if (!r.sess || !r.sess->ended)
		warnx_ctx(ctx, "%s: no END record for session %llu after %d ms",
			  r.file, (unsigned long long)r.s.session,
			  TASK_END_WAIT_MS);
	if (ctx->json) {
		run_summary_json(ctx, argv + st.rest, &r, &a);
	} else {
		run_summary_text(stdout, argv + st.rest, &r);
		if (a.report && r.sess) {
			fputc('\n', stdout);
			task_report_text(stdout, r.sess, &a.o);
		}
	}
	fflush(stdout);
	tf_free(&r.f);
	return r.exit_code;
}

/* ---- the command: its subcommands, report's in taskreport.c ------------- */

static const struct command task_start_command = {
	.name = "start",
	.fn = task_start,
	.args = "[--pid PID] [-i MS|none] [--svc] [--load std|detailed]\n"
		"    [--file PATH]",
};

static const struct command task_stop_command = {
	.name = "stop",
	.fn = task_stop,
	.args = "[PID]",
};

static const struct command task_run_command = {
	.name = "run",
	.fn = task_run,
	.args = "[-i MS|none] [--svc] [--load std|detailed] [--file PATH]\n"
		"    [--report] [--top N] [--] CMD [ARGS...]",
};

static const struct command *const task_subs[] = {
	&task_start_command,
	&task_stop_command,
	&task_run_command,
	&task_report_command,
	NULL
};

const struct command task_command = {
	.name = "task",
	.subs = task_subs,
	.help = "openSM2 task measurement: START-TASK-MEASUREMENT of PID (default:\n"
		"    the calling shell) with program counter samples every MS ms\n"
		"    of its CPU time, system calls (--svc) and load information,\n"
		"    into PATH (default /var/tmp/meas-task.UID.PID); STOP; run:\n"
		"    measure CMD from its start to its exit, print a summary (and\n"
		"    the report), exit with CMD's status; report: samples by object\n"
		"    and function, system calls by name and address, load\n"
		"    information (default: the file's last session); --svg: also\n"
		"    a flame graph of its samples",
};

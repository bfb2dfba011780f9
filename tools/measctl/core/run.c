// SPDX-License-Identifier: GPL-2.0
/*
 * measctl run: keep classes enabled on our own open file while a command
 * runs, and report the class 0 subclass 0 deltas over its run.  The
 * counters are system-wide: the report covers everything the machine did
 * meanwhile, not only the command.  Like time(1), run ignores SIGINT and
 * SIGQUIT while the command runs, so an interrupted command still gets
 * its report; it exits with the command's status (128 + signal if the
 * command was killed, 127/126 if it could not be executed).  --html FILE
 * also writes the report as a page (htmlreport.c) with the disks' rates;
 * --profile runs the command under "measctl profile --folded" to add its
 * flame graph.  --cgroup PATH adds class 15 and reports what that
 * cgroup's subtree did over the run, from the per-cgroup totals read
 * before and after: a service's deltas while the command ran (it need
 * not run in the cgroup: a load test against a service, say).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "pictures/picture.h"
#include "cli/dev.h"
#include "cli/rate.h"
#include "sched/sched.h"
#include "disk/disk.h"
#include "cgroup/cgroup.h"

struct run_args {
	struct classes cls;
	const char *output;
	const char *html;
	bool profile;
	char **cmd;
	char **run;		/* what is executed: cmd, or profile of it */
	char folded[64];	/* --profile: the folded stacks */
	uint32_t mask;
	char cgroup[CG_PATH_ARG_LEN];	/* --cgroup PATH, or "" */
};

struct run_result {
	struct c0_snap a, b;
	struct io_snap ia, ib;	/* --html: the disks */
	struct cg_snap ca, cb;	/* --cgroup: the cgroups */
	uint64_t cg[MEAS_PROC_ITEMS];	/* its subtree's deltas */
	bool cg_found;
	int status;		/* wait status */
	int exit_code;
	unsigned int cpus;
};

static void __noreturn run_child(char **cmd)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	execvp(cmd[0], cmd);
	fprintf(stderr, "measctl run: cannot run '%s': %s\n", cmd[0],
		strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* Fork, exec and wait; fills r->status and r->exit_code. */
static int run_program(struct cmd_ctx *ctx, char **cmd, struct run_result *r)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	pid_t pid, w;

	sigemptyset(&ign.sa_mask);
	fflush(stdout);
	fflush(stderr);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	pid = fork();
	if (pid < 0) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		return fail(ctx, errno, "fork");
	}
	if (!pid)
		run_child(cmd);
	do
		w = waitpid(pid, &r->status, 0);
	while (w < 0 && errno == EINTR);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	if (w < 0)
		return fail(ctx, errno, "waitpid");
	r->exit_code = run_exit_code(r->status);
	return EXIT_OK;
}

static void run_print_text(FILE *f, const struct run_args *a,
			   const struct run_result *r)
{
	double secs = rate_interval_s(&r->a.when, &r->b.when);
	char cl[64];

	format_classes(a->mask, cl, sizeof(cl));
	fprintf(f, "measctl run: %s: ", a->cmd[0]);
	if (WIFSIGNALED(r->status))
		fprintf(f, "killed by signal %d (%s)", WTERMSIG(r->status),
			strsignal(WTERMSIG(r->status)));
	else
		fprintf(f, "exit status %d", r->exit_code);
	fprintf(f, ", %.3f s elapsed, %u CPUs, classes %s\n", secs, r->cpus,
		cl);
	c0_print_text(f, &r->a, &r->b, r->cpus);
	if (r->cg_found)
		cg_delta_text(f, a->cgroup, r->cg, secs);
}

static void run_print_json(FILE *f, const struct run_args *a,
			   const struct run_result *r)
{
	struct json j;

	json_doc_ok(&j, f, "run", true);
	json_command(&j, a->cmd, r->exit_code, r->status);
	json_double(&j, "elapsed_s", rate_interval_s(&r->a.when, &r->b.when));
	json_u64(&j, "cpus", r->cpus);
	json_mask(&j, "mask", a->mask);
	c0_print_json(&j, "items", &r->a, &r->b, r->cpus);
	if (r->cg_found) {
		json_obj_begin(&j, "cgroup");
		json_str(&j, "path", a->cgroup);
		cg_json_items(&j, "items", r->cg, &r->ca, &r->cb);
		json_obj_end(&j);
	}
	json_doc_end(&j);
}

/* The flame graph of --profile's folded stacks; NULL without. */
static struct flame *run_flame(struct cmd_ctx *ctx, const struct run_args *a,
			       struct flame *fl)
{
	size_t lineno;
	int err;
	FILE *f;

	if (!a->profile || flame_init(fl))
		return NULL;
	f = fopen(a->folded, "re");
	if (!f) {
		warnx_ctx(ctx, "no profile: %s", strerror(errno));
		return fl;
	}
	err = flame_load(f, fl, &lineno);
	if (err)
		warnx_ctx(ctx, "profile, line %zu: %s", lineno, strerror(-err));
	fclose(f);
	return fl;
}

static int run_write_html(struct cmd_ctx *ctx, const struct run_args *a,
			  const struct run_result *r)
{
	struct html_run h = {
		.cmd = a->cmd, .status = r->status, .exit_code = r->exit_code,
		.cpus = r->cpus, .a = &r->a, .b = &r->b,
		.ia = r->ia.d ? &r->ia : NULL, .ib = r->ib.d ? &r->ib : NULL,
	};
	struct flame fl;
	FILE *f;
	int rc = EXIT_OK;

	h.fl = run_flame(ctx, a, &fl);
	f = fopen(a->html, "we");
	if (!f) {
		rc = fail(ctx, errno, "cannot write %s", a->html);
	} else {
		run_html(f, &h);
		if (fclose(f))
			rc = fail(ctx, errno, "cannot write %s", a->html);
	}
	if (h.fl)
		flame_free(h.fl);
	return rc;
}

/* --cgroup: the subtree's deltas, or a warning that it has none. */
static void run_cgroup_delta(struct cmd_ctx *ctx, const struct run_args *a,
			     struct run_result *r)
{
	int i = cg_snap_find(&r->cb, a->cgroup);

	if (i < 0) {
		warnx_ctx(ctx, "no totals under cgroup %s (nothing ran there, or nothing you may see)",
			  a->cgroup);
		return;
	}
	cg_node_delta(&r->ca, &r->cb, (size_t)i, r->cg);
	r->cg_found = true;
}

static int run_measured(struct cmd_ctx *ctx, int fd, struct run_args *a,
			FILE *out, struct meas_nl *nl)
{
	struct run_result r = { 0 };
	struct meas_info info;
	int err, result, rc;
	char cl[64];
	long n;

	if (a->cls.all && meas_info(fd, &info) == 0)
		a->mask = info.defined_mask;
	a->mask |= 1U << MEAS_CLASS_GLOBAL;
	if (nl)
		a->mask |= 1U << MEAS_CLASS_PROC;
	format_classes(a->mask, cl, sizeof(cl));
	err = meas_start(fd, a->mask, &result);
	if (err)
		return fail_call(ctx, "start", result, -err,
				 "STARTSTATISTICS of classes %s (0x%04x)", cl,
				 a->mask);
	err = c0_snapshot(fd, &r.a, &result);
	if (err)
		return fail_call(ctx, "get", result, -err, "GETSTATISTICS of class 0");
	if (a->html)
		io_snapshot(fd, &r.ia, &result);
	if (nl && cg_snap_take(ctx, nl, &r.ca)) {
		rc = EXIT_FAIL;
		goto out;
	}
	rc = run_program(ctx, a->run, &r);
	if (rc)
		goto out;
	if (nl && !cg_snap_take(ctx, nl, &r.cb))
		run_cgroup_delta(ctx, a, &r);
	err = c0_snapshot(fd, &r.b, &result);
	if (err) {
		fail_call(ctx, "get", result, -err, "GETSTATISTICS of class 0");
		rc = r.exit_code ? r.exit_code : EXIT_FAIL;
		goto out;
	}
	if (a->html)
		io_snapshot(fd, &r.ib, &result);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	r.cpus = n > 0 ? n : 1;
	if (ctx->json)
		run_print_json(out, a, &r);
	else
		run_print_text(out, a, &r);
	fflush(out);
	rc = a->html ? run_write_html(ctx, a, &r) : EXIT_OK;
	io_snap_free(&r.ia);
	io_snap_free(&r.ib);
	rc = r.exit_code ? r.exit_code : rc;
out:
	cg_snap_free(&r.ca);
	cg_snap_free(&r.cb);
	return rc;
}

static int run_do(struct cmd_ctx *ctx, struct run_args *a)
{
	struct meas_nl *nl = NULL;
	FILE *out = stdout;
	int fd, rc;

	if (a->cgroup[0]) {
		nl = cg_nl_open(ctx);
		if (!nl)
			return EXIT_FAIL;
	}
	if (a->output) {
		out = fopen(a->output, "we");
		if (!out) {
			if (nl)
				meas_nl_close(nl);
			return fail(ctx, errno, "cannot write %s", a->output);
		}
	}
	fd = open_dev(ctx);
	if (fd < 0) {
		rc = EXIT_FAIL;
	} else {
		rc = run_measured(ctx, fd, a, out, nl);
		close(fd);
	}
	if (nl)
		meas_nl_close(nl);
	if (out != stdout && fclose(out) && !rc)
		rc = fail(ctx, errno, "cannot write %s", a->output);
	return rc;
}

static int run_opt(struct cmd_ctx *ctx, int id, const char *arg, void *data)
{
	struct run_args *a = data;

	if (id == 'c')
		return classes_arg(ctx, arg, &a->cls);
	if (id == 'g')
		return cg_path_arg(ctx, arg, a->cgroup, sizeof(a->cgroup));
	if (id == 'H')
		a->html = arg;
	else if (id == 'p')
		a->profile = true;
	else
		a->output = arg;
	return EXIT_OK;
}

/* --profile: run "measctl profile --folded -o TMP -- CMD" instead. */
static int run_profiled(struct cmd_ctx *ctx, struct run_args *a, int argc)
{
	static const char *const pre[] = { "/proc/self/exe", "profile",
					   "--folded", "-o", NULL, "--" };
	size_t i, n = ARRAY_SIZE(pre);
	int fd, rc;

	strcpy(a->folded, "/tmp/measctl-run.XXXXXX");
	fd = mkstemp(a->folded);
	if (fd < 0)
		return fail(ctx, errno, "cannot make a file for the profile");
	close(fd);
	a->run = calloc(n + argc + 1, sizeof(*a->run));
	if (!a->run) {
		unlink(a->folded);
		return fail(ctx, ENOMEM, "run");
	}
	for (i = 0; i < n; i++)
		a->run[i] = (char *)(pre[i] ? pre[i] : a->folded);
	for (i = 0; a->cmd[i]; i++)
		a->run[n + i] = a->cmd[i];
	rc = run_do(ctx, a);
	unlink(a->folded);
	free(a->run);
	return rc;
}

static int cmd_run(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "classes", 'c', OPT_ARG, 'c' },
		{ "output", 'o', OPT_ARG, 'o' },
		{ "html", 0, OPT_ARG, 'H' },
		{ "profile", 0, OPT_NONE, 'p' },
		{ "cgroup", 0, OPT_ARG, 'g' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct run_args a = { .cls = { .mask = 1U << MEAS_CLASS_GLOBAL } };
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, true, run_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.rest >= argc)
		return usage_error(ctx, "no command to run (measctl run [OPTIONS] [--] CMD [ARGS...])");
	a.cmd = argv + st.rest;
	a.run = a.cmd;
	a.mask = a.cls.mask;
	if (a.profile && !a.html)
		return usage_error(ctx, "--profile is for --html");
	if (a.profile)
		return run_profiled(ctx, &a, argc - st.rest);
	return run_do(ctx, &a);
}

const struct command run_command = {
	.name = "run",
	.fn = cmd_run,
	.args = "[-c CLASSES] [-o FILE] [--html FILE [--profile]] [--cgroup PATH]\n"
		"    [--] CMD [ARGS...]",
	.help = "enable CLASSES (default 0; class 0 is always included) while\n"
		"    CMD runs, then print the class 0 subclass 0 deltas and rates\n"
		"    (to FILE with -o); --html: also a self-contained page with\n"
		"    stops by reason, disk rates and the deltas, --profile: and\n"
		"    CMD's flame graph; --cgroup: also what the cgroup PATH and\n"
		"    below did meanwhile (class 15 added); exits with CMD's status",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: command dispatch, usage and error reporting.
 *
 * Exit status: 0 success, 1 the operation failed, 2 bad usage (nothing
 * was changed); "run" exits with the status of its command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"

struct command {
	const char *name;
	int (*fn)(struct cmd_ctx *ctx, int argc, char **argv);
	const char *args;
	const char *help;
};

static const struct command commands[] = {
	{ "start", cmd_start, "CLASSES",
	  "enable CLASSES in a detached holder process (STARTSTATISTICS);\n"
	  "    they stay enabled until 'measctl stop' or the holder dies" },
	{ "stop", cmd_stop, "[-t SECONDS] [CLASSES]",
	  "ask the holders to disable CLASSES (default: all, the holders\n"
	  "    exit); wait up to -t SECONDS (default 5) and report what is\n"
	  "    still enabled" },
	{ "run", cmd_run,
	  "[-c CLASSES] [-o FILE] [--html FILE [--profile]] [--] CMD [ARGS...]",
	  "enable CLASSES (default 0; class 0 is always included) while\n"
	  "    CMD runs, then print the class 0 subclass 0 deltas and rates\n"
	  "    (to FILE with -o); --html: also a self-contained page with\n"
	  "    stops by reason, disk rates and the deltas, --profile: and\n"
	  "    CMD's flame graph; exits with CMD's status" },
	{ "get", cmd_get, "[--fast] CLASS SUBCLASS [START [COUNT]]",
	  "GETSTATISTICS (FGETSTATISTICS with --fast): print 'item value\n"
	  "    name' lines; START defaults to 0 (-3 is the header), COUNT to\n"
	  "    the rest of the subclass" },
	{ "header", cmd_header, "CLASS SUBCLASS",
	  "print the subclass header: entries, items per entry, entry-0\n"
	  "    size" },
	{ "info", cmd_info, "",
	  "print the ABI version, defined and enabled classes, enablers\n"
	  "    and region size of each class" },
	{ "watch", cmd_watch, "[-i SECONDS] [-n COUNT] [-c CLASSES]\n"
	  "    | --archive PATH [-S START] [-T FINISH] [-i SECONDS] [-n COUNT]",
	  "enable class 0 (and CLASSES) while running and print the class 0\n"
	  "    subclass 0 rates every SECONDS (default 1) until COUNT\n"
	  "    intervals or SIGINT/SIGTERM; times in % of one CPU;\n"
	  "    --archive: the same from a PCP archive of pmdameas" },
	/* disks and the I/O trace (iostat.c, iotrace.c) */
	{ "iostat", cmd_iostat, "[-i SECONDS] [-n COUNT] [-z]\n"
	  "    [--archive PATH [-S START] [-T FINISH]]",
	  "enable class 0 while running and print per-disk rates as\n"
	  "    iostat -x does, with the queue-length histogram, every\n"
	  "    SECONDS (default 1) until COUNT intervals or SIGINT/SIGTERM;\n"
	  "    -z leaves out the disks that did nothing; --archive: the\n"
	  "    same from a PCP archive of pmdameas" },
	{ "iotrace", cmd_iotrace,
	  "[-d SECONDS] [-n COUNT] [-i SECONDS] [-a] [--heatmap FILE.svg\n"
	  "    [--from FILE.json]]",
	  "enable class 14 while running and print one line per completed\n"
	  "    request (time, command, PID, disk, RWBS, sector, bytes, queue\n"
	  "    and device ms) for SECONDS, COUNT records or until SIGINT;\n"
	  "    -a starts at the oldest record the ring holds; lost records\n"
	  "    are reported; -i is the poll interval (default 0.1);\n"
	  "    --heatmap: also a latency heat map (SVG) of the records, or\n"
	  "    --from records saved with --json" },
	/* user-defined classes (define.c, update.c) */
	{ "define", cmd_define,
	  "[--replace] [--name NAME] CLASS [NAME:]ENTRIES:ITEMS...",
	  "define user-defined class CLASS (1..13), one subclass per\n"
	  "    argument; ITEMS is a count or NAME[/gauge],...; needs\n"
	  "    CAP_PERFMON; --replace redefines a class not enabled" },
	{ "undefine", cmd_undefine, "CLASS",
	  "remove a user-defined class that nothing has enabled" },
	{ "describe", cmd_describe, "CLASS",
	  "print the definition of a user-defined class: names, entries,\n"
	  "    items and their kinds" },
	{ "update", cmd_update,
	  "[--fast] [--set] [--double] CLASS SUBCLASS ENTRY ITEM VALUE",
	  "UPDATESTATISTICS (FUPDATESTATISTICS with --fast): add VALUE to\n"
	  "    the item (a number or its name), or replace it with --set" },
	{ "profile", cmd_profile,
	  "[-i MS] [-d SECONDS] [-n TOP] [-r RECORDS] [--all] [--folded]\n"
	  "    [--no-stacks] [--svg FILE] [-o FILE] [--] [CMD [ARGS...]]",
	  "sample the call stacks of every CPU every MS ms (default 10;\n"
	  "    GETCLOCK) while CMD runs, or for SECONDS (default 5) over the\n"
	  "    whole system; print the top programs and functions, or\n"
	  "    'program;frame;...;leaf count' lines (--folded); --svg: also\n"
	  "    write an interactive flame graph; --no-stacks: program\n"
	  "    counters only.  With CMD: its processes only (--all: every\n"
	  "    process); exits with CMD's status" },
	{ "flame", cmd_flame, "[-o FILE] [-t TITLE] [FILE]",
	  "an interactive flame graph (SVG) of folded stacks, 'frame;...\n"
	  "    count' lines as profile --folded writes them, from FILE or\n"
	  "    standard input" },
	/* class 15: processes (ps.c, top.c, exits.c) */
	{ "ps", cmd_ps, "[-a] [-x] [-s KEY]",
	  "one line per process of class 15 (GETPROCSTATS): CPU and wait\n"
	  "    time, switches, stops, last stop reason, disc bytes; -a: the\n"
	  "    exited too, -x: only those; -s: sort by KEY (pid, cpu, wait,\n"
	  "    launches, stops, io, disc, impeded, command, created)" },
	{ "top", cmd_top, "[-i SECONDS] [-n COUNT] [-N LINES] [-s KEY] [-x]\n"
	  "    [--archive PATH [-S START] [-T FINISH]]",
	  "live view of class 15 every SECONDS (default 2): %CPU, %WAIT\n"
	  "    (runnable), switches and stops/s, paused % by reason, last\n"
	  "    stop, disc bytes/s; sorted by KEY (default cpu); -x: also\n"
	  "    processes that exited in the interval; --archive: the same\n"
	  "    from a PCP archive of pmdameas -P" },
	{ "exits", cmd_exits, "[-n COUNT] [-t SECONDS] [-l]",
	  "stream the final record of each process that exits (generic\n"
	  "    netlink group 'exits', CAP_SYS_ADMIN); reports missed ones;\n"
	  "    -l: listen only, class 15 held by someone else" },
	/* task measurement (task.c, taskreport.c) */
	{ "task", cmd_task,
	  "start|stop|run|report ...\n"
	  "  measctl task start [--pid PID] [-i MS|none] [--svc] [--load std|detailed]\n"
	  "    [--file PATH]\n"
	  "  measctl task stop [PID]\n"
	  "  measctl task run [-i MS|none] [--svc] [--load std|detailed] [--file PATH]\n"
	  "    [--report] [--top N] [--] CMD [ARGS...]\n"
	  "  measctl task report [--session N|--all] [--top N] [--svg OUT] FILE",
	  "openSM2 task measurement: START-TASK-MEASUREMENT of PID (default:\n"
	  "    the calling shell) with program counter samples every MS ms\n"
	  "    of its CPU time, system calls (--svc) and load information,\n"
	  "    into PATH (default /var/tmp/meas-task.UID.PID); STOP; run:\n"
	  "    measure CMD from its start to its exit, print a summary (and\n"
	  "    the report), exit with CMD's status; report: samples by object\n"
	  "    and function, system calls by name and address, load\n"
	  "    information (default: the file's last session); --svg: also\n"
	  "    a flame graph of its samples" },
	{ "version", cmd_version, "",
	  "print the releases of measctl, libmeas and the loaded meas.ko,\n"
	  "    and their ABI versions (also measctl --version)" },
	{ "help", NULL, "[COMMAND]", "print this help" },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void help_one(const struct command *c, FILE *f)
{
	fprintf(f, "  measctl %s%s%s%s\n    %s\n", c->name,
		c->fn ? " [--json]" : "", c->args[0] ? " " : "", c->args,
		c->help);
}

static void help_all(FILE *f)
{
	size_t i;

	fputs("usage: measctl [--json] COMMAND [OPTIONS] [ARGS]\n"
	      "       measctl [--json] --version | --help\n"
	      "\n"
	      "The meas measurement interface (/dev/meas): STARTSTATISTICS,\n"
	      "STOPSTATISTICS and GETSTATISTICS of MPE IV on Linux.\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		help_one(&commands[i], f);
	fputs("\n"
	      "CLASSES: class numbers 0..15 as a list (0,14 or 0-3), a mask\n"
	      "(0x4001) or 'all' (every defined class).\n"
	      "--json prints one JSON document on stdout (watch: one object\n"
	      "per line).  Holders record themselves in $MEAS_RUNDIR\n"
	      "(default " MEASCTL_RUNDIR ").\n"
	      "Exit status: 0 ok, 1 failure, 2 bad usage; run: CMD's status.\n",
	      f);
}

void usage_cmd(const struct cmd_ctx *ctx, FILE *f)
{
	const struct command *c = find_command(ctx->name);

	if (!c) {
		help_all(f);
		return;
	}
	fputs("usage:\n", f);
	help_one(c, f);
}

static __printf(2, 0)
void vwarnx_ctx(const struct cmd_ctx *ctx, const char *fmt, va_list ap)
{
	fprintf(stderr, "measctl %s: ", ctx->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void warnx_ctx(const struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx_ctx(ctx, fmt, ap);
	va_end(ap);
}

int usage_error(const struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx_ctx(ctx, fmt, ap);
	va_end(ap);
	usage_cmd(ctx, stderr);
	return EXIT_USAGE;
}

static const char *call_name(const char *call)
{
	if (!strcmp(call, "start"))
		return "STARTSTATISTICS";
	if (!strcmp(call, "stop"))
		return "STOPSTATISTICS";
	if (!strcmp(call, "get"))
		return "GETSTATISTICS";
	if (!strcmp(call, "update"))
		return "UPDATESTATISTICS";
	return call;
}

/* Why a measurement call or the open of /dev/meas may have failed. */
static const char *err_hint(const char *call, int err)
{
	if (call && (err == EPERM || err == EACCES))
		return " (no permission: CAP_PERFMON or CAP_SYS_ADMIN is needed)";
	if (!call && (err == ENXIO || err == ENODEV))
		return " (is the meas module loaded?)";
	if (err == ENOTTY)
		return " (unknown to this meas.ko: older than measctl? see 'measctl --version')";
	return "";
}

/* The error document of --json: on stdout, so a reader always gets one. */
static void fail_json(const struct cmd_ctx *ctx, const char *msg,
		      const char *call, int result, int err)
{
	struct json j;
	const char *name = err ? strerrorname_np(err) : NULL;

	json_doc_ok(&j, stdout, ctx->name, false);
	json_str(&j, "error", msg);
	if (call) {
		json_str(&j, "call", call_name(call));
		json_i64(&j, "result", result);
		json_str(&j, "result_text", meas_result_str(call, result));
	}
	json_i64(&j, "errno", err);
	if (name)
		json_str(&j, "errno_name", name);
	json_doc_end(&j);
}

static int vfail(const struct cmd_ctx *ctx, const char *call, int result,
		 int err, const char *hint, const char *fmt, va_list ap)
{
	char what[512], msg[1024];

	vsnprintf(what, sizeof(what), fmt, ap);
	if (call)
		snprintf(msg, sizeof(msg), "%s failed: result %d (%s): %s%s",
			 what, result, meas_result_str(call, result),
			 err ? strerror(err) : "no error", hint);
	else if (err)
		snprintf(msg, sizeof(msg), "%s: %s%s", what, strerror(err),
			 hint);
	else
		snprintf(msg, sizeof(msg), "%s", what);
	warnx_ctx(ctx, "%s", msg);
	if (ctx->json)
		fail_json(ctx, msg, call, result, err);
	return EXIT_FAIL;
}

/* A failure without an MPE result; @err is a positive errno or 0. */
int fail(const struct cmd_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(ctx, NULL, 0, err, "", fmt, ap);
	va_end(ap);
	return rc;
}

static __printf(4, 5)
int fail_hint(const struct cmd_ctx *ctx, int err, const char *hint,
	      const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(ctx, NULL, 0, err, hint, fmt, ap);
	va_end(ap);
	return rc;
}

/* A failed measurement call: names the MPE result code and the errno. */
int fail_call(const struct cmd_ctx *ctx, const char *call, int result,
	      int err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(ctx, call, result, err, err_hint(call, err), fmt, ap);
	va_end(ap);
	return rc;
}

/* The open of /dev/meas failed with @err (positive). */
int fail_open(const struct cmd_ctx *ctx, int err)
{
	char why[256];

	return fail_hint(ctx, err, err == ENOENT ?
			 absent_hint(why, sizeof(why)) : err_hint(NULL, err),
			 "cannot open %s", MEAS_DEVICE);
}

/*
 * For usage errors about classes: the classes defined now ("0,14-15"),
 * or why that is not known.  Opens /dev/meas only to ask (INFO changes
 * nothing).
 */
const char *classes_defined_now(char *buf, size_t len)
{
	struct meas_info in;
	char list[64];
	int fd = meas_open(), err;

	if (fd < 0) {
		snprintf(buf, len, "unknown: meas.ko is not loaded or %s cannot be opened",
			 MEAS_DEVICE);
		return buf;
	}
	err = meas_info(fd, &in);
	close(fd);
	if (err) {
		snprintf(buf, len, "unknown: %s", strerror(-err));
		return buf;
	}
	format_classes(in.defined_mask, list, sizeof(list));
	snprintf(buf, len, "%s", list);
	return buf;
}

/* Open /dev/meas or report why not; returns the fd or -1. */
int open_dev(const struct cmd_ctx *ctx)
{
	int fd = meas_open();

	if (fd < 0) {
		fail_open(ctx, -fd);
		return -1;
	}
	abi_check(ctx, fd);
	return fd;
}

/* A usage error before a command runs: the message, then all the help. */
static __printf(1, 2)
int help_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	help_all(stderr);
	return EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc > 2)
		return help_error("measctl help: too many arguments");
	if (argc == 2) {
		c = find_command(argv[1]);
		if (!c)
			return help_error("measctl help: unknown command '%s'",
					  argv[1]);
		fputs("usage:\n", stdout);
		help_one(c, stdout);
		return EXIT_OK;
	}
	help_all(stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = { .name = "", .json = false };
	const struct command *c;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json")) {
			ctx.json = true;
			continue;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			help_all(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			ctx.name = "version";
			return cmd_version(&ctx, argc - i, argv + i);
		}
		return help_error("measctl: unknown option '%s'", argv[i]);
	}
	if (i == argc)
		return help_error("measctl: no command given");
	c = find_command(argv[i]);
	if (!c)
		return help_error("measctl: unknown command '%s'", argv[i]);
	if (!c->fn)
		return cmd_help(argc - i, argv + i);
	ctx.name = c->name;
	return c->fn(&ctx, argc - i, argv + i);
}

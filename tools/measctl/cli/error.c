// SPDX-License-Identifier: GPL-2.0
/*
 * measctl's errors: a line on standard error that names the command,
 * and with --json one error document on standard output, so that a
 * reader always gets one.  Exit status: 0 success, 1 the operation
 * failed, 2 bad usage (nothing was changed); a command run by measctl
 * exits with its own status, as a shell gives it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "cli/cli.h"

static __printf(2, 0)
void vwarnx_ctx(const struct cmd_ctx *ctx, const char *fmt, va_list ap)
{
	if (ctx->name[0])
		fprintf(stderr, "measctl %s: ", ctx->name);
	else
		fputs("measctl: ", stderr);
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
const char *err_hint(const char *call, int err)
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

int fail(const struct cmd_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(ctx, NULL, 0, err, "", fmt, ap);
	va_end(ap);
	return rc;
}

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

/* A command's exit status as a shell gives it: 128 + N for signal N. */
int run_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_FAIL;
}

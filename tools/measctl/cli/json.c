// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON writer: one compact document per line.  Values are
 * written as they come; the writer only tracks commas and nesting.
 */
#define _GNU_SOURCE
#include <math.h>
#include <inttypes.h>
#include <sys/wait.h>
#include "cli/cli.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void json_string(struct json *j, const char *s)
{
	const unsigned char *p;

	fputc('"', j->f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(j->f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", j->f);
		else if (*p == '\t')
			fputs("\\t", j->f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(j->f, "\\u%04x", *p);
		else
			fputc(*p, j->f);
	}
	fputc('"', j->f);
}

/* The comma and the key before a value; @key is NULL inside arrays. */
static void json_key(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (key) {
		json_string(j, key);
		fputc(':', j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_obj_begin(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_obj_end(struct json *j)
{
	json_close(j, '}');
}

void json_arr_begin(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_arr_end(struct json *j)
{
	json_close(j, ']');
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_key(j, key);
	json_string(j, val);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	json_key(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void json_i64(struct json *j, const char *key, int64_t val)
{
	json_key(j, key);
	fprintf(j->f, "%" PRId64, val);
}

/* JSON has no NaN or infinity: those become null. */
void json_double(struct json *j, const char *key, double val)
{
	json_key(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.10g", val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_key(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}

/*
 * The command a subcommand ran: "argv", "exit_status" and "signal" (the
 * terminating signal, or null), from waitpid()'s @status.
 */
void json_command(struct json *j, char *const *argv, int exit_code,
		  int status)
{
	json_arr_begin(j, "argv");
	for (; *argv; argv++)
		json_str(j, NULL, *argv);
	json_arr_end(j);
	json_i64(j, "exit_status", exit_code);
	if (WIFSIGNALED(status))
		json_i64(j, "signal", WTERMSIG(status));
	else
		json_null(j, "signal");
}

/* A class mask as a "0x0001" string. */
void json_mask(struct json *j, const char *key, uint32_t mask)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%04x", mask);
	json_str(j, key, buf);
}

/* A class mask as an array of class numbers. */
void json_classes(struct json *j, const char *key, uint32_t mask)
{
	int c;

	json_arr_begin(j, key);
	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if (mask & (1U << c))
			json_i64(j, NULL, c);
	json_arr_end(j);
}

/* End the document: a newline, flushed (watch prints one per interval). */
void json_end(struct json *j)
{
	fputc('\n', j->f);
	fflush(j->f);
}

/* Begin the document of command @cmd: {"command":@cmd, ... */
void json_doc_begin(struct json *j, FILE *f, const char *cmd)
{
	json_init(j, f);
	json_obj_begin(j, NULL);
	json_str(j, "command", cmd);
}

/* The same, then "ok":@ok. */
void json_doc_ok(struct json *j, FILE *f, const char *cmd, bool ok)
{
	json_doc_begin(j, f, cmd);
	json_bool(j, "ok", ok);
}

/* Close the document's object and end it. */
void json_doc_end(struct json *j)
{
	json_obj_end(j);
	json_end(j);
}

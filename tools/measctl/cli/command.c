// SPDX-License-Identifier: GPL-2.0
/*
 * measctl's commands: the one dispatcher of every level (measctl's
 * commands, a group's subcommands: task's), the usage of a command and
 * of all of them, and the help command.  Each command is defined beside
 * its handler and listed in commands.h.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "core/holder.h"

static const struct command *cmd_find(const struct command *const *cmds,
				      const char *name)
{
	for (; *cmds; cmds++)
		if (!strcmp((*cmds)->name, name))
			return *cmds;
	return NULL;
}

/* "start|stop|run|report" with @sep "|", or "start, stop..." with ", ". */
static void cmd_names(const struct command *const *cmds, const char *sep,
		      char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; *cmds && off < len; cmds++)
		off += snprintf(buf + off, len - off, "%s%s", off ? sep : "",
				(*cmds)->name);
}

/* A command's usage lines; a group's: its own, then each subcommand's. */
static void help_one(const struct command *c, FILE *f)
{
	const struct command *const *s;
	char names[128];

	fprintf(f, "  measctl %s%s", c->name, c->no_json ? "" : " [--json]");
	if (c->subs) {
		cmd_names(c->subs, "|", names, sizeof(names));
		fprintf(f, " %s ...\n", names);
		for (s = c->subs; *s; s++)
			fprintf(f, "  measctl %s %s%s%s\n", c->name, (*s)->name,
				(*s)->args[0] ? " " : "", (*s)->args);
	} else {
		fprintf(f, "%s%s\n", c->args[0] ? " " : "", c->args);
	}
	fprintf(f, "    %s\n", c->help);
}

void help_all(FILE *f)
{
	const struct command *const *c;

	fputs("usage: measctl [--json] COMMAND [OPTIONS] [ARGS]\n"
	      "       measctl [--json] --version | --help\n"
	      "\n"
	      "The meas measurement interface (/dev/meas): STARTSTATISTICS,\n"
	      "STOPSTATISTICS and GETSTATISTICS of MPE IV on Linux.\n"
	      "\n"
	      "Commands:\n", f);
	for (c = measctl_commands; *c; c++)
		help_one(*c, f);
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
	if (!ctx->cmd) {
		help_all(f);
		return;
	}
	fputs("usage:\n", f);
	help_one(ctx->cmd, f);
}

int cmd_select(struct cmd_ctx *ctx, const struct command *const *cmds,
	       int argc, char **argv)
{
	const struct command *c;
	bool top = !ctx->cmd;
	char names[128];

	cmd_names(cmds, ", ", names, sizeof(names));
	if (argc < 1)
		return top ? usage_error(ctx, "no command given") :
			     usage_error(ctx, "no subcommand (%s)", names);
	if (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		usage_cmd(ctx, stdout);
		return EXIT_OK;
	}
	c = cmd_find(cmds, argv[0]);
	if (!c)
		return top ? usage_error(ctx, "unknown command '%s'", argv[0]) :
			     usage_error(ctx, "unknown subcommand '%s' (%s)",
					 argv[0], names);
	/* a subcommand's messages and usage are its group's */
	if (top) {
		ctx->name = c->name;
		ctx->cmd = c;
	}
	if (c->subs)
		return cmd_select(ctx, c->subs, argc - 1, argv + 1);
	return c->fn(ctx, argc, argv);
}

/* The usage errors of help: the message, then all the help. */
static __printf(2, 3)
int help_error(struct cmd_ctx *ctx, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnx_ctx(ctx, "%s", msg);
	help_all(stderr);
	return EXIT_USAGE;
}

static int cmd_help(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cmd_ctx one = *ctx;

	if (argc > 2)
		return help_error(ctx, "too many arguments");
	if (argc == 1) {
		help_all(stdout);
		return EXIT_OK;
	}
	one.cmd = cmd_find(measctl_commands, argv[1]);
	if (!one.cmd)
		return help_error(ctx, "unknown command '%s'", argv[1]);
	usage_cmd(&one, stdout);
	return EXIT_OK;
}

const struct command help_command = {
	.name = "help",
	.fn = cmd_help,
	.args = "[COMMAND]",
	.help = "print this help",
	.no_json = true,
};

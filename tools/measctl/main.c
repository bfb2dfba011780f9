// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: the command-line tool of meas.  main() takes the options of
 * measctl itself (--json, --help, --version) and hands the rest to the
 * dispatcher (cli/command.c), over the commands of commands.h.
 */
#include <string.h>
#include "cli/cli.h"

#define MEASCTL_COMMAND(name)	extern const struct command name##_command;
#include "commands.h"
#undef MEASCTL_COMMAND

#define MEASCTL_COMMAND(name)	&name##_command,
const struct command *const measctl_commands[] = {
#include "commands.h"
	NULL
};

#undef MEASCTL_COMMAND

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = { .name = "", .json = false };
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
			ctx.name = version_command.name;
			ctx.cmd = &version_command;
			return version_command.fn(&ctx, argc - i, argv + i);
		}
		return usage_error(&ctx, "unknown option '%s'", argv[i]);
	}
	return cmd_select(&ctx, measctl_commands, argc - i, argv + i);
}

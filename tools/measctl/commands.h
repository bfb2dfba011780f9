/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of measctl, one line each, in the order measctl --help
 * lists them.  A command is defined in its own file, beside its handler,
 * as NAME_command (struct command, cli/cli.h); main.c includes this list
 * twice, with MEASCTL_COMMAND(NAME) declaring each, then listing it.
 * Documentation/internals.rst, "Adding a measctl command".
 */
MEASCTL_COMMAND(start)
MEASCTL_COMMAND(stop)
MEASCTL_COMMAND(run)
MEASCTL_COMMAND(get)
MEASCTL_COMMAND(header)
MEASCTL_COMMAND(info)
MEASCTL_COMMAND(watch)
MEASCTL_COMMAND(iostat)
MEASCTL_COMMAND(iotrace)
MEASCTL_COMMAND(define)
MEASCTL_COMMAND(undefine)
MEASCTL_COMMAND(describe)
MEASCTL_COMMAND(update)
MEASCTL_COMMAND(profile)
MEASCTL_COMMAND(flame)
MEASCTL_COMMAND(ps)
MEASCTL_COMMAND(top)
MEASCTL_COMMAND(exits)
MEASCTL_COMMAND(cgroup)
MEASCTL_COMMAND(task)
MEASCTL_COMMAND(version)
MEASCTL_COMMAND(help)

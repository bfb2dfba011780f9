/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl's framework, what every command uses: the context a command
 * runs in, the commands and their dispatch at every level with their
 * help (command.c), errors and exit statuses (error.c), numbers and
 * class lists (parse.c), options (opt.c) and JSON output (json.c).
 * What opens /dev/meas is dev.h's; the periodic views' clock is
 * interval.h's.  The commands themselves are listed in commands.h and
 * defined in their areas' folders (Documentation/internals.rst, "The
 * tools").
 */
#ifndef MEASCTL_CLI_H
#define MEASCTL_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "libmeas.h"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define __noreturn		__attribute__((noreturn))
#define __printf(f, a)		__attribute__((format(printf, f, a)))
#define __always_unused		__attribute__((unused))

/* Exit statuses. */
#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

/* ---- commands (command.c) ------------------------------------------------ */

struct command;

/**
 * struct cmd_ctx - what every command knows
 * @name: the command's name, for messages (a subcommand's group's: task)
 * @json: --json given
 * @cmd: the command whose usage its usage errors show; NULL: measctl's
 */
struct cmd_ctx {
	const char *name;
	bool json;
	const struct command *cmd;
};

typedef int (*cmd_fn)(struct cmd_ctx *ctx, int argc, char **argv);

/**
 * struct command - a command of measctl, defined beside its handler
 * @name: the word that names it
 * @fn: its handler, called with argv[0] the name; NULL for a group
 * @subs: a group's subcommands (task's), NULL-terminated; each has its
 *	name, handler and arguments, the group's help serves them all
 * @args: its arguments, for its usage line ("" for none)
 * @help: what it does, indented lines
 * @no_json: it takes no --json (help)
 *
 * Each is listed once in commands.h, as NAME_command.
 */
struct command {
	const char *name;
	cmd_fn fn;
	const struct command *const *subs;
	const char *args;
	const char *help;
	bool no_json;
};

/* measctl's commands (main.c, from commands.h), NULL-terminated. */
extern const struct command *const measctl_commands[];

/*
 * Run the command of @cmds (NULL-terminated) that argv[0] names, with
 * argv[0] its name; a group's subcommand the same way, one level down.
 * No word, an unknown one, -h or --help: usage, as the level says.
 */
int cmd_select(struct cmd_ctx *ctx, const struct command *const *cmds,
	       int argc, char **argv);
void usage_cmd(const struct cmd_ctx *ctx, FILE *f);
/* measctl --help: every command (to stdout, or stderr after an error). */
void help_all(FILE *f);

/* ---- errors (error.c) ---------------------------------------------------- */

__printf(2, 3)
void warnx_ctx(const struct cmd_ctx *ctx, const char *fmt, ...);
/* A usage error: the message, then the command's usage; EXIT_USAGE. */
__printf(2, 3)
int usage_error(const struct cmd_ctx *ctx, const char *fmt, ...);
/* A failure without an MPE result; @err is a positive errno or 0. */
__printf(3, 4)
int fail(const struct cmd_ctx *ctx, int err, const char *fmt, ...);
/* The same with @hint after the errno's text (" (...)" or ""). */
__printf(4, 5)
int fail_hint(const struct cmd_ctx *ctx, int err, const char *hint,
	      const char *fmt, ...);
/* A failed measurement call: names the MPE result code and the errno. */
__printf(5, 6)
int fail_call(const struct cmd_ctx *ctx, const char *call, int result,
	      int err, const char *fmt, ...);
/* Why a call (NULL: the open of /dev/meas) may have failed, or "". */
const char *err_hint(const char *call, int err);
/* The exit status of a command measctl ran, from its wait status. */
int run_exit_code(int status);

/* ---- numbers and class lists (parse.c) ---------------------------------- */

int parse_u64(const char *s, uint64_t max, uint64_t *out);
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
int parse_seconds(const char *s, double min, double max, double *out);

/* A class list: "all", a mask "0x4001", or "0,14" / "0-3,14". */
struct classes {
	bool all;	/* "all": every defined class (resolved later) */
	uint32_t mask;	/* the classes named, when !all */
};

int parse_classes(const char *s, struct classes *c);
uint32_t classes_resolve(const struct classes *c, uint32_t all_mask);
void format_classes(uint32_t mask, char *buf, size_t len);

/* ---- options (opt.c) ---------------------------------------------------- */

enum opt_arg { OPT_NONE, OPT_ARG };

/* A table of options ends with an entry without names. */
struct opt {
	const char *lng;	/* long name without "--", or NULL */
	char shrt;		/* short letter, or 0 */
	enum opt_arg arg;
	int id;			/* returned to the caller */
};

#define OPT_JSON_ID	1000	/* every command takes --json */
#define OPT_HELP_ID	1001	/* and -h / --help */

#define OPT_MAX_POS	4	/* positional arguments kept (get's) */

/*
 * opt_parse() walks argv (argv[0] is the command name) option by
 * option; positional arguments are counted in @npos, the first ones
 * kept in @pos.  "-" followed by a
 * digit is positional (negative numbers).  "--" ends the options; with
 * @stop_at_pos, so does the first positional argument (run's CMD).
 */
struct opt_state {
	int argc;
	char **argv;
	int i;
	bool stop_at_pos;
	bool done;
	char *arg;		/* argument of the option returned */
	const char *bad;	/* the offending word on error */
	int npos;		/* positional arguments seen */
	char *pos[OPT_MAX_POS];	/* the first of them */
	int rest;		/* index of the first word after options */
	const struct opt *more;	/* opt_parse_more()'s second table */
};

#define OPT_END		(-1)	/* also opt_parse(): go on */
#define OPT_UNKNOWN	(-2)
#define OPT_MISSING	(-3)	/* option needs an argument */
#define OPT_EXTRA	(-4)	/* option takes no argument, got "=x" */

/* A command's own option @id with its argument (NULL if none). */
typedef int (*opt_fn)(struct cmd_ctx *ctx, int id, const char *arg,
		      void *data);

int opt_parse(struct cmd_ctx *ctx, struct opt_state *st, int argc,
	      char **argv, const struct opt *opts, bool stop_at_pos,
	      opt_fn mine, void *data);
/* The same with the options of @more too (the periodic views' own). */
int opt_parse_more(struct cmd_ctx *ctx, struct opt_state *st, int argc,
		   char **argv, const struct opt *opts,
		   const struct opt *more, opt_fn mine, void *data);

/* ---- JSON output (json.c) ------------------------------------------------ */

#define JSON_MAX_DEPTH	16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
void json_command(struct json *j, char *const *argv, int exit_code,
		  int status);
void json_mask(struct json *j, const char *key, uint32_t mask);
void json_classes(struct json *j, const char *key, uint32_t mask);
void json_end(struct json *j);
void json_doc_begin(struct json *j, FILE *f, const char *cmd);
void json_doc_ok(struct json *j, FILE *f, const char *cmd, bool ok);
void json_doc_end(struct json *j);

#endif /* MEASCTL_CLI_H */

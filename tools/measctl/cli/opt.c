// SPDX-License-Identifier: GPL-2.0
/*
 * The options of a command: long (--opt VALUE, --opt=VALUE) and short
 * (-o VALUE, -oVALUE, no bundling), --json and --help for every command,
 * "--" and negative numbers as arguments, and the usage error of each
 * mistake.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

static const struct opt common_opts[] = {
	{ "json", 0, OPT_NONE, OPT_JSON_ID },
	{ "help", 'h', OPT_NONE, OPT_HELP_ID },
	{ NULL, 0, OPT_NONE, 0 },
};

static void opt_init(struct opt_state *st, int argc, char **argv,
		     bool stop_at_pos)
{
	memset(st, 0, sizeof(*st));
	st->argc = argc;
	st->argv = argv;
	st->i = 1;
	st->stop_at_pos = stop_at_pos;
	st->rest = argc;
}

/* Keep the first OPT_MAX_POS positional arguments, count them all. */
static void opt_pos(struct opt_state *st, char *w)
{
	if (st->npos < OPT_MAX_POS)
		st->pos[st->npos] = w;
	st->npos++;
}

/* The command's options, the second table's (or NULL), then --json, -h. */
static const struct opt *opt_find(const struct opt_state *st,
				  const struct opt *opts, const char *lng,
				  size_t len, char shrt)
{
	const struct opt *tabs[3] = { opts, st->more, common_opts };
	const struct opt *o;
	int t;

	for (t = 0; t < 3; t++)
		for (o = tabs[t]; o && (o->lng || o->shrt); o++) {
			if (lng && o->lng && strlen(o->lng) == len &&
			    !strncmp(o->lng, lng, len))
				return o;
			if (!lng && shrt && o->shrt == shrt)
				return o;
		}
	return NULL;
}

/* @o's argument: @inline_arg ("--x=ARG", "-xARG") or the next word. */
static int opt_take_arg(struct opt_state *st, const struct opt *o,
			char *inline_arg)
{
	if (inline_arg)
		st->arg = inline_arg;
	else if (st->i < st->argc)
		st->arg = st->argv[st->i++];
	else
		return OPT_MISSING;
	return o->id;
}

static int opt_long(struct opt_state *st, const struct opt *opts, char *w)
{
	char *eq = strchr(w + 2, '=');
	size_t len = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
	const struct opt *o = opt_find(st, opts, w + 2, len, 0);

	st->bad = w;
	if (!o)
		return OPT_UNKNOWN;
	if (o->arg == OPT_NONE)
		return eq ? OPT_EXTRA : o->id;
	return opt_take_arg(st, o, eq ? eq + 1 : NULL);
}

/* Short options: one per word ("-n 2" or "-n2"), no bundling. */
static int opt_short(struct opt_state *st, const struct opt *opts, char *w)
{
	const struct opt *o = opt_find(st, opts, NULL, 0, w[1]);

	st->bad = w;
	if (!o)
		return OPT_UNKNOWN;
	if (o->arg == OPT_NONE)
		return w[2] ? OPT_UNKNOWN : o->id;
	return opt_take_arg(st, o, w[2] ? w + 2 : NULL);
}

static bool is_positional(const char *w)
{
	return w[0] != '-' || !w[1] || isdigit((unsigned char)w[1]);
}

static int opt_next(struct opt_state *st, const struct opt *opts)
{
	char *w;

	while (!st->done && st->i < st->argc) {
		w = st->argv[st->i];
		if (!strcmp(w, "--")) {
			st->done = true;
			st->rest = ++st->i;
			/* Without a command to run, the rest is positional. */
			while (!st->stop_at_pos && st->i < st->argc)
				opt_pos(st, st->argv[st->i++]);
			break;
		}
		if (is_positional(w)) {
			if (st->stop_at_pos) {
				st->done = true;
				st->rest = st->i;
				break;
			}
			opt_pos(st, w);
			st->i++;
			continue;
		}
		st->i++;
		st->arg = NULL;
		return w[1] == '-' ? opt_long(st, opts, w) :
				     opt_short(st, opts, w);
	}
	if (!st->done) {
		st->done = true;
		st->rest = st->argc;
	}
	return OPT_END;
}

#define OPT_MINE	(-1)	/* opt_common(): the caller's option */
#define OPT_HANDLED	(-2)	/* opt_common(): handled, go on */

/*
 * Handle what every command shares: --json, --help and option errors.
 * Returns OPT_MINE when the option is the caller's, OPT_HANDLED when
 * parsing goes on, else an exit status (EXIT_OK after --help is printed,
 * EXIT_USAGE on an error).
 */
static int opt_common(struct cmd_ctx *ctx, struct opt_state *st, int id)
{
	switch (id) {
	case OPT_JSON_ID:
		ctx->json = true;
		return OPT_HANDLED;
	case OPT_HELP_ID:
		usage_cmd(ctx, stdout);
		return EXIT_OK;
	case OPT_UNKNOWN:
		return usage_error(ctx, "unknown option '%s'", st->bad);
	case OPT_MISSING:
		return usage_error(ctx, "option '%s' needs an argument",
				   st->bad);
	case OPT_EXTRA:
		return usage_error(ctx, "option '%s' takes no argument",
				   st->bad);
	default:
		return OPT_MINE;
	}
}

/*
 * Parse the options of a command: --json, --help and option errors are
 * handled here, the command's own options (@opts, may be NULL) go to
 * @mine with their argument; it returns 0 to go on, else an exit status
 * that ends the parse.  Returns OPT_END when the command goes on with
 * the positional arguments in @st, else its exit status.
 */
static int opt_run(struct cmd_ctx *ctx, struct opt_state *st,
		   const struct opt *opts, opt_fn mine, void *data)
{
	int id, rc;

	while ((id = opt_next(st, opts)) != OPT_END) {
		rc = opt_common(ctx, st, id);
		if (rc == OPT_MINE)
			rc = mine(ctx, id, st->arg, data) ?: OPT_HANDLED;
		if (rc != OPT_HANDLED)
			return rc;
	}
	return OPT_END;
}

int opt_parse(struct cmd_ctx *ctx, struct opt_state *st, int argc,
	      char **argv, const struct opt *opts, bool stop_at_pos,
	      opt_fn mine, void *data)
{
	opt_init(st, argc, argv, stop_at_pos);
	return opt_run(ctx, st, opts, mine, data);
}

int opt_parse_more(struct cmd_ctx *ctx, struct opt_state *st, int argc,
		   char **argv, const struct opt *opts,
		   const struct opt *more, opt_fn mine, void *data)
{
	opt_init(st, argc, argv, false);
	st->more = more;
	return opt_run(ctx, st, opts, mine, data);
}

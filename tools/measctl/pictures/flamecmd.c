// SPDX-License-Identifier: GPL-2.0
/*
 * measctl flame: the flame graph of folded stacks ("frame;frame;... count"
 * lines, as profile --folded writes them, or any tool of that format)
 * from FILE or standard input, as a self-contained SVG (flamesvg.c).  A
 * line that is not folded is an error naming its number, and no picture
 * is written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "pictures/picture.h"

struct flame_args {
	const char *output;
	const char *title;
};

int flame_load(FILE *in, struct flame *fl, size_t *lineno)
{
	size_t cap = 0;
	char *line = NULL;
	int err = 0;

	*lineno = 0;
	while (!err && getline(&line, &cap, in) > 0) {
		++*lineno;
		if (line[0] != '\n' && line[0] != '#')
			err = flame_add_line(fl, line);
	}
	free(line);
	if (!err && ferror(in))
		err = -EIO;
	return err;
}

static int flame_read(struct cmd_ctx *ctx, FILE *in, const char *name,
		      struct flame *fl)
{
	size_t lineno;
	int err = flame_load(in, fl, &lineno);

	if (err == -EINVAL)
		return fail(ctx, 0, "%s: line %zu: not 'frame;frame;... count'",
			    name, lineno);
	if (err)
		return fail(ctx, -err, "cannot read %s", name);
	return EXIT_OK;
}

static int flame_opt(struct cmd_ctx *ctx, int id, const char *arg,
		     void *data)
{
	struct flame_args *a = data;

	(void)ctx;
	if (id == 'o')
		a->output = arg;
	else
		a->title = arg;
	return EXIT_OK;
}

static int cmd_flame(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "output", 'o', OPT_ARG, 'o' },
		{ "title", 't', OPT_ARG, 't' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct flame_args a = { .title = "Flame graph" };
	const char *name = "standard input";
	struct opt_state st;
	FILE *in = stdin, *out = stdout;
	struct flame fl;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, flame_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.npos > 1)
		return usage_error(ctx, "flame takes at most one FILE");
	if (ctx->json)
		return usage_error(ctx, "flame writes SVG, not JSON");
	if (st.npos == 1 && strcmp(st.pos[0], "-")) {
		name = st.pos[0];
		in = fopen(name, "re");
		if (!in)
			return fail(ctx, errno, "cannot read %s", name);
	}
	if (flame_init(&fl)) {
		rc = fail(ctx, ENOMEM, "flame graph");
		goto close_in;
	}
	rc = flame_read(ctx, in, name, &fl);
	if (rc)
		goto free_flame;
	if (a.output) {
		out = fopen(a.output, "we");
		if (!out) {
			rc = fail(ctx, errno, "cannot write %s", a.output);
			goto free_flame;
		}
	}
	flame_svg(out, &fl, a.title, NULL, true);
	if (out != stdout ? fclose(out) : fflush(out))
		rc = fail(ctx, errno, "cannot write %s",
			  a.output ? a.output : "standard output");
free_flame:
	flame_free(&fl);
close_in:
	if (in != stdin)
		fclose(in);
	return rc;
}

const struct command flame_command = {
	.name = "flame",
	.fn = cmd_flame,
	.args = "[-o FILE] [-t TITLE] [FILE]",
	.help = "an interactive flame graph (SVG) of folded stacks, 'frame;...\n"
		"    count' lines as profile --folded writes them, from FILE or\n"
		"    standard input",
};

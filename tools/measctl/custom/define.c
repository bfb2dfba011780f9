// SPDX-License-Identifier: GPL-2.0
/*
 * measctl define, undefine and describe: user-defined classes
 * (MEAS_IOC_DEFINE, MEAS_IOC_UNDEFINE, MEAS_IOC_DESCRIBE).
 *
 *   measctl define [--replace] [--name NAME] CLASS SUBCLASS...
 *     SUBCLASS  [NAME:]ENTRIES:ITEMS
 *     ITEMS     a count N (N unnamed counters), or ITEM[,ITEM...]
 *     ITEM      NAME[/counter|/gauge] (or /c, /g); NAME "-": unnamed
 *
 * Names are checked by the kernel (code 7); only their length is checked
 * here, since a longer name does not fit the struct.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"

struct define_args {
	bool replace;
	const char *name;
	struct meas_define d;
	struct meas_item_def *items;
	size_t nitems;
};

/* Copy a name from the command line; "-" is no name. */
static int name_arg(struct cmd_ctx *ctx, char *dst, const char *s, size_t n)
{
	if (n >= MEAS_NAME_MAX)
		return usage_error(ctx, "name '%.*s' longer than %d characters",
				   (int)n, s, MEAS_NAME_MAX - 1);
	memset(dst, 0, MEAS_NAME_MAX);
	if (n != 1 || s[0] != '-')
		memcpy(dst, s, n);
	return EXIT_OK;
}

static int kind_arg(struct cmd_ctx *ctx, const char *k, uint32_t *kind)
{
	if (!strcmp(k, "c") || !strcmp(k, "counter"))
		*kind = MEAS_ITEM_COUNTER;
	else if (!strcmp(k, "g") || !strcmp(k, "gauge"))
		*kind = MEAS_ITEM_GAUGE;
	else
		return usage_error(ctx, "bad item kind '%s' (counter or gauge)",
				   k);
	return EXIT_OK;
}

/* ITEM[,ITEM...] into @a->items; returns the count via @n. */
static int items_arg(struct cmd_ctx *ctx, struct define_args *a, char *list,
		     uint64_t *n)
{
	struct meas_item_def *it;
	char *save, *w, *slash;
	int rc;

	*n = 0;
	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		it = realloc(a->items, (a->nitems + 1) * sizeof(*it));
		if (!it)
			return fail(ctx, ENOMEM, "item list");
		a->items = it;
		it = &a->items[a->nitems++];
		memset(it, 0, sizeof(*it));
		slash = strchr(w, '/');
		rc = name_arg(ctx, it->name, w, slash ? (size_t)(slash - w) :
			      strlen(w));
		if (!rc && slash)
			rc = kind_arg(ctx, slash + 1, &it->kind);
		if (rc)
			return rc;
		++*n;
	}
	return EXIT_OK;
}

/* A subclass: [NAME:]ENTRIES:ITEMS. */
static int sub_arg(struct cmd_ctx *ctx, struct define_args *a,
		   unsigned int s, const char *arg)
{
	struct meas_subclass_def *sub = &a->d.sub[s];
	char *buf = strdup(arg), *f[3], *save, *w;
	uint64_t v, n, first = a->nitems;
	int nf = 0, rc = EXIT_OK;

	if (!buf)
		return fail(ctx, ENOMEM, "subclass");
	for (w = strtok_r(buf, ":", &save); w && nf < 3;
	     w = strtok_r(NULL, ":", &save))
		f[nf++] = w;
	if (w || nf < 2 || arg[strlen(arg) - 1] == ':') {
		rc = usage_error(ctx, "bad subclass '%s' ([NAME:]ENTRIES:ITEMS)",
				 arg);
		goto out;
	}
	if (nf == 3)
		rc = name_arg(ctx, sub->name, f[0], strlen(f[0]));
	if (!rc && parse_u64(f[nf - 2], UINT32_MAX, &v))
		rc = usage_error(ctx, "bad number of entries '%s' (0..%u)",
				 f[nf - 2], UINT32_MAX);
	if (rc)
		goto out;
	sub->entries = v;
	if (!parse_u64(f[nf - 1], UINT32_MAX, &v)) {
		/* A count: unnamed counters (0 is the kernel's to refuse). */
		struct meas_item_def *it;

		if (v > MEAS_CUSTOM_MAX_ITEMS) {
			rc = usage_error(ctx, "more than %d items per entry",
					 MEAS_CUSTOM_MAX_ITEMS);
			goto out;
		}
		sub->items = v;
		if (!v)
			goto out;
		it = realloc(a->items, (a->nitems + v) * sizeof(*it));
		if (!it) {
			rc = fail(ctx, ENOMEM, "item list");
			goto out;
		}
		a->items = it;
		memset(&a->items[first], 0, v * sizeof(*it));
		a->nitems += v;
		goto out;
	}
	rc = items_arg(ctx, a, f[nf - 1], &n);
	sub->items = n;
out:
	free(buf);
	return rc;
}

static int define_opt(struct cmd_ctx *ctx __always_unused, int id,
		      const char *arg, void *data)
{
	struct define_args *a = data;

	if (id == 'r')
		a->replace = true;
	else
		a->name = arg;
	return EXIT_OK;
}

static int class_arg(struct cmd_ctx *ctx, const char *s, int *class)
{
	int64_t v;

	char def[128];

	if (parse_i64(s, INT32_MIN, INT32_MAX, &v))
		return usage_error(ctx, "bad class '%s': user-defined classes are 1..13; defined now: %s",
				   s, classes_defined_now(def, sizeof(def)));
	*class = v;
	return EXIT_OK;
}

/* OPT_END to go on, else the exit status (after --help: EXIT_OK). */
static int define_parse(struct cmd_ctx *ctx, struct define_args *a, int argc,
			char **argv)
{
	static const struct opt opts[] = {
		{ "replace", 'r', OPT_NONE, 'r' },
		{ "name", 'N', OPT_ARG, 'N' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct opt_state st;
	int rc, i, nsub;

	/* Options first: subclass specifications may look like anything. */
	rc = opt_parse(ctx, &st, argc, argv, opts, true, define_opt, a);
	if (rc != OPT_END)
		return rc;
	nsub = argc - st.rest - 1;
	if (nsub < 1)
		return usage_error(ctx, "CLASS and at least one SUBCLASS needed");
	if (nsub > MEAS_CUSTOM_MAX_SUBCLASSES)
		return usage_error(ctx, "more than %d subclasses",
				   MEAS_CUSTOM_MAX_SUBCLASSES);
	rc = class_arg(ctx, argv[st.rest], &a->d.class);
	if (!rc && a->name)
		rc = name_arg(ctx, a->d.name, a->name, strlen(a->name));
	for (i = 0; !rc && i < nsub; i++)
		rc = sub_arg(ctx, a, i, argv[st.rest + 1 + i]);
	a->d.nsub = nsub;
	a->d.flags = a->replace ? MEAS_DEFINE_REPLACE : 0;
	a->d.items = (uintptr_t)a->items;
	a->d.nitems = a->nitems;
	return rc ? rc : OPT_END;
}

static int cmd_define(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct define_args a = { 0 };
	int rc, fd, err, result;
	struct json j;

	rc = define_parse(ctx, &a, argc, argv);
	if (rc != OPT_END)
		goto out;
	rc = EXIT_OK;
	fd = open_dev(ctx);
	if (fd < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	err = meas_define(fd, &a.d, &result);
	close(fd);
	if (err) {
		rc = fail_call(ctx, "define", result, -err, "define class %d",
			       a.d.class);
		goto out;
	}
	if (ctx->json) {
		json_doc_ok(&j, stdout, "define", true);
		json_i64(&j, "class", a.d.class);
		json_u64(&j, "subclasses", a.d.nsub);
		json_u64(&j, "item_definitions", a.nitems);
		json_doc_end(&j);
	} else {
		printf("class %d defined: %u subclasses\n", a.d.class, a.d.nsub);
	}
out:
	free(a.items);
	return rc;
}

const struct command define_command = {
	.name = "define",
	.fn = cmd_define,
	.args = "[--replace] [--name NAME] CLASS [NAME:]ENTRIES:ITEMS...",
	.help = "define user-defined class CLASS (1..13), one subclass per\n"
		"    argument; ITEMS is a count or NAME[/gauge],...; needs\n"
		"    CAP_PERFMON; --replace redefines a class not enabled",
};

/* ---- undefine ------------------------------------------------------------ */

/* As define_parse(): OPT_END to go on, else the exit status. */
static int one_class(struct cmd_ctx *ctx, int argc, char **argv, int *class)
{
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, NULL, false, NULL, NULL);
	if (rc != OPT_END)
		return rc;
	if (st.npos != 1)
		return usage_error(ctx, st.npos ? "too many arguments (one CLASS)" :
				   "CLASS needed (1..13)");
	return class_arg(ctx, st.pos[0], class) ?: OPT_END;
}

static int cmd_undefine(struct cmd_ctx *ctx, int argc, char **argv)
{
	int rc, fd, err, result, class;
	struct json j;

	rc = one_class(ctx, argc, argv, &class);
	if (rc != OPT_END)
		return rc;
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	err = meas_undefine(fd, class, &result);
	close(fd);
	if (err)
		return fail_call(ctx, "undefine", result, -err,
				 "undefine class %d", class);
	if (ctx->json) {
		json_doc_ok(&j, stdout, "undefine", true);
		json_i64(&j, "class", class);
		json_doc_end(&j);
	} else {
		printf("class %d removed\n", class);
	}
	return EXIT_OK;
}

const struct command undefine_command = {
	.name = "undefine",
	.fn = cmd_undefine,
	.args = "CLASS",
	.help = "remove a user-defined class that nothing has enabled",
};

/* ---- describe ------------------------------------------------------------ */

static const char *kind_name(uint32_t kind)
{
	return kind == MEAS_ITEM_GAUGE ? "gauge" : "counter";
}

static void describe_text(int class, const struct meas_class_names *n)
{
	const struct meas_define *d = &n->d;
	uint64_t k = 0, i;
	uint32_t s;

	printf("class %d %s\n", class, d->name[0] ? d->name : "-");
	for (s = 0; s < d->nsub; s++) {
		printf("subclass %u %s: %u entr%s of %u item%s\n", s,
		       d->sub[s].name[0] ? d->sub[s].name : "-",
		       d->sub[s].entries, d->sub[s].entries == 1 ? "y" : "ies",
		       d->sub[s].items, d->sub[s].items == 1 ? "" : "s");
		for (i = 0; i < d->sub[s].items; i++, k++)
			printf("  item %" PRIu64 " %s %s\n", i,
			       n->items[k].name[0] ? n->items[k].name : "-",
			       kind_name(n->items[k].kind));
	}
}

static void describe_json(int class, const struct meas_class_names *n)
{
	const struct meas_define *d = &n->d;
	uint64_t k = 0, i;
	struct json j;
	uint32_t s;

	json_doc_ok(&j, stdout, "describe", true);
	json_i64(&j, "class", class);
	json_str(&j, "name", d->name);
	json_arr_begin(&j, "subclasses");
	for (s = 0; s < d->nsub; s++) {
		json_obj_begin(&j, NULL);
		json_u64(&j, "subclass", s);
		json_str(&j, "name", d->sub[s].name);
		json_u64(&j, "entries", d->sub[s].entries);
		json_u64(&j, "items_per_entry", d->sub[s].items);
		json_arr_begin(&j, "items");
		for (i = 0; i < d->sub[s].items; i++, k++) {
			json_obj_begin(&j, NULL);
			json_u64(&j, "item", i);
			json_str(&j, "name", n->items[k].name);
			json_str(&j, "kind", kind_name(n->items[k].kind));
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_doc_end(&j);
}

static int cmd_describe(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct meas_class_names n;
	int rc, fd, err, result = MEAS_RC_NONE, class;

	rc = one_class(ctx, argc, argv, &class);
	if (rc != OPT_END)
		return rc;
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	err = meas_class_names_load(fd, class, &n);
	if (err == -ENOENT || err == -EINVAL)
		meas_describe(fd, class, &n.d, NULL, 0, &result);
	close(fd);
	if (err)
		return fail_call(ctx, "describe", result, -err,
				 "describe class %d", class);
	if (ctx->json)
		describe_json(class, &n);
	else
		describe_text(class, &n);
	meas_class_names_free(&n);
	return EXIT_OK;
}

const struct command describe_command = {
	.name = "describe",
	.fn = cmd_describe,
	.args = "CLASS",
	.help = "print the definition of a user-defined class: names, entries,\n"
		"    items and their kinds",
};

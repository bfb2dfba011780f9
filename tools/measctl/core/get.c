// SPDX-License-Identifier: GPL-2.0
/*
 * measctl get, header and info: GETSTATISTICS (FGETSTATISTICS with
 * --fast), the subclass header (startingitem -3) and MEAS_IOC_INFO.
 * Class, subclass and item numbers outside what exists are passed to the
 * kernel, whose MPE result code says what is wrong with them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"
#include "custom/custom.h"

static const char *const header_names[MEAS_HEADER_WORDS] = {
	"entries", "items-per-entry", "entry0-size",
};

struct get_args {
	int cls, sub;
	bool fast;
	bool has_start, has_count;
	int64_t start, count;
};

static const char *item_name(const struct get_args *g, int64_t item)
{
	if (item < 0 && item >= MEAS_ITEM_HEADER)
		return header_names[item - MEAS_ITEM_HEADER];
	if (g->cls == MEAS_CLASS_GLOBAL && g->sub == MEAS_C0_SUB_FIXED &&
	    item >= 0 && item < MEAS_C0_FIXED_ITEMS)
		return meas_c0_item_name(item);
	return custom_item_name(g->cls, g->sub, item);
}

/* Items addressable from item 0, from the header; 0 if it is odd. */
static uint64_t header_items(const struct meas_header *h)
{
	uint64_t n;

	if (!h->entries || h->ent0size < MEAS_HEADER_WORDS ||
	    __builtin_mul_overflow(h->entries - 1, h->entsize, &n) ||
	    __builtin_add_overflow(n, h->ent0size - MEAS_HEADER_WORDS, &n) ||
	    n > INT64_MAX)
		return 0;
	return n;
}

/* CLASS SUBCLASS, the first of 2 to @max positional arguments. */
static int parse_cls_sub(struct cmd_ctx *ctx, const struct opt_state *st,
			 int max, struct get_args *g)
{
	char *const *pos = st->pos;
	int64_t v;

	if (st->npos < 2)
		return usage_error(ctx, "CLASS and SUBCLASS needed");
	char def[128];

	if (st->npos > max)
		return usage_error(ctx, "too many arguments (at most %s)",
				   max > 2 ? "CLASS SUBCLASS START COUNT" :
				   "CLASS SUBCLASS");
	if (parse_i64(pos[0], INT32_MIN, INT32_MAX, &v))
		return usage_error(ctx, "bad class '%s': a number 0..%d; defined now: %s",
				   pos[0], MEAS_NR_CLASSES - 1,
				   classes_defined_now(def, sizeof(def)));
	g->cls = v;
	if (parse_i64(pos[1], INT32_MIN, INT32_MAX, &v))
		return usage_error(ctx, "bad subclass '%s': a number (class 0 has 0..%d, 'measctl describe' lists a user-defined class's)",
				   pos[1], MEAS_C0_NR_SUBCLASSES - 1);
	g->sub = v;
	return EXIT_OK;
}

/* The header, by GETSTATISTICS or, with --fast, FGETSTATISTICS. */
static int read_header(struct cmd_ctx *ctx, int fd, const struct get_args *g,
		       struct meas_header *h)
{
	uint64_t w[MEAS_HEADER_WORDS] = { 0 }, words = 0;
	int result, err;

	if (!g->fast) {
		err = meas_header(fd, g->cls, g->sub, h, &result);
		if (err)
			return fail_call(ctx, "get", result, -err,
					 "GETSTATISTICS of the header of class %d subclass %d",
					 g->cls, g->sub);
		return EXIT_OK;
	}
	err = meas_fget(fd, g->cls, g->sub, MEAS_ITEM_HEADER, MEAS_HEADER_WORDS,
			w, sizeof(w), &words);
	if (err)
		return fail(ctx, -err, "FGETSTATISTICS of the header of class %d subclass %d",
			    g->cls, g->sub);
	if (words < MEAS_HEADER_WORDS) {
		warnx_ctx(ctx, "class %d subclass %d: no header (not enabled?)",
			  g->cls, g->sub);
		memset(w, 0, sizeof(w));
	}
	h->entries = w[0];
	h->entsize = w[1];
	h->ent0size = w[2];
	return EXIT_OK;
}

/* The start of the JSON document of get and header. */
static void json_cls_sub(struct json *j, const char *cmd,
			 const struct get_args *g)
{
	json_doc_ok(j, stdout, cmd, true);
	json_i64(j, "class", g->cls);
	json_i64(j, "subclass", g->sub);
}

static void get_print(struct cmd_ctx *ctx, const struct get_args *g,
		      const uint64_t *buf, uint64_t words)
{
	const char *name;
	struct json j;
	uint64_t k;

	if (!ctx->json) {
		for (k = 0; k < words; k++) {
			name = item_name(g, g->start + (int64_t)k);
			printf("%" PRId64 " %" PRIu64 " %s\n",
			       g->start + (int64_t)k, buf[k], name ? name : "-");
		}
		return;
	}
	json_cls_sub(&j, "get", g);
	json_i64(&j, "start", g->start);
	json_i64(&j, "count", g->count);
	json_bool(&j, "fast", g->fast);
	json_u64(&j, "words", words);
	json_arr_begin(&j, "items");
	for (k = 0; k < words; k++) {
		name = item_name(g, g->start + (int64_t)k);
		json_obj_begin(&j, NULL);
		json_i64(&j, "item", g->start + (int64_t)k);
		json_u64(&j, "value", buf[k]);
		if (name)
			json_str(&j, "name", name);
		else
			json_null(&j, "name");
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_doc_end(&j);
}

/* The transfer itself; @items sizes the buffer. */
static int get_items(struct cmd_ctx *ctx, int fd, const struct get_args *g,
		     uint64_t items)
{
	uint64_t nbuf, words = 0, *buf;
	int result = MEAS_RC_NONE, err;

	/* A count beyond the subclass is refused before the buffer is used. */
	nbuf = (uint64_t)g->count < items + MEAS_HEADER_WORDS ?
	       (uint64_t)g->count : items + MEAS_HEADER_WORDS;
	buf = calloc(nbuf ? nbuf : 1, sizeof(*buf));
	if (!buf)
		return fail(ctx, ENOMEM, "buffer of %" PRIu64 " items", nbuf);
	if (g->fast) {
		err = meas_fget(fd, g->cls, g->sub, g->start, g->count, buf,
				nbuf * sizeof(*buf), &words);
	} else {
		err = meas_get(fd, g->cls, g->sub, g->start, g->count, buf,
			       nbuf * sizeof(*buf), &result);
		words = err ? 0 : (uint64_t)g->count;
	}
	if (err) {
		free(buf);
		if (g->fast)
			return fail(ctx, -err, "FGETSTATISTICS of class %d subclass %d",
				    g->cls, g->sub);
		return fail_call(ctx, "get", result, -err,
				 "GETSTATISTICS of class %d subclass %d item %" PRId64
				 " count %" PRId64, g->cls, g->sub, g->start,
				 g->count);
	}
	if (g->fast && words < (uint64_t)g->count)
		warnx_ctx(ctx, "FGETSTATISTICS copied %" PRIu64 " of %" PRId64 " items",
			  words, g->count);
	get_print(ctx, g, buf, words);
	free(buf);
	return EXIT_OK;
}

static int get_do(struct cmd_ctx *ctx, struct get_args *g)
{
	struct meas_header h;
	uint64_t items;
	int fd, rc;

	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	rc = read_header(ctx, fd, g, &h);
	if (rc)
		goto out;
	items = header_items(&h);
	if (!g->has_start)
		g->start = 0;
	if (!g->has_count) {
		g->count = g->start >= MEAS_ITEM_HEADER &&
			   g->start < (int64_t)items ? (int64_t)items - g->start : 0;
		/* An empty subclass, asked as a whole: nothing to read. */
		if (!g->count && !g->has_start) {
			get_print(ctx, g, NULL, 0);
			goto out;
		}
	}
	rc = get_items(ctx, fd, g, items);
out:
	close(fd);
	return rc;
}

static int get_parse_pos(struct cmd_ctx *ctx, struct opt_state *st,
			 struct get_args *g)
{
	int rc;

	rc = parse_cls_sub(ctx, st, 4, g);	/* and START, COUNT */
	if (rc)
		return rc;
	g->has_start = st->npos > 2;
	if (g->has_start &&
	    parse_i64(st->pos[2], INT64_MIN, INT64_MAX, &g->start))
		return usage_error(ctx, "bad START '%s': an item number, 0 for the first, -3 for the header",
				   st->pos[2]);
	g->has_count = st->npos > 3;
	if (g->has_count && parse_i64(st->pos[3], 0, INT64_MAX, &g->count))
		return usage_error(ctx, "bad COUNT '%s' (0 or more)",
				   st->pos[3]);
	return EXIT_OK;
}

static int get_opt(struct cmd_ctx *ctx __always_unused,
		   int id __always_unused, const char *arg __always_unused,
		   void *data)
{
	struct get_args *g = data;

	g->fast = true;		/* --fast, the only option */
	return EXIT_OK;
}

static int cmd_get(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "fast", 'f', OPT_NONE, 'f' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct get_args g = { 0 };
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, get_opt, &g);
	if (rc != OPT_END)
		return rc;
	return get_parse_pos(ctx, &st, &g) ?: get_do(ctx, &g);
}

const struct command get_command = {
	.name = "get",
	.fn = cmd_get,
	.args = "[--fast] CLASS SUBCLASS [START [COUNT]]",
	.help = "GETSTATISTICS (FGETSTATISTICS with --fast): print 'item value\n"
		"    name' lines; START defaults to 0 (-3 is the header), COUNT to\n"
		"    the rest of the subclass",
};

/* ---- header ------------------------------------------------------------- */

static void header_print(struct cmd_ctx *ctx, const struct get_args *g,
			 const struct meas_header *h)
{
	struct json j;

	if (!ctx->json) {
		printf("class %d subclass %d\n", g->cls, g->sub);
		printf("entries %" PRIu64 "\n", h->entries);
		printf("items-per-entry %" PRIu64 "\n", h->entsize);
		printf("entry0-size %" PRIu64 "\n", h->ent0size);
		printf("items %" PRIu64 "\n", header_items(h));
		return;
	}
	json_cls_sub(&j, "header", g);
	json_u64(&j, "entries", h->entries);
	json_u64(&j, "items_per_entry", h->entsize);
	json_u64(&j, "entry0_size", h->ent0size);
	json_u64(&j, "items", header_items(h));
	json_doc_end(&j);
}

static int cmd_header(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct get_args g = { 0 };
	struct meas_header h;
	struct opt_state st;
	int rc, fd;

	rc = opt_parse(ctx, &st, argc, argv, NULL, false, NULL, NULL);
	if (rc != OPT_END)
		return rc;
	rc = parse_cls_sub(ctx, &st, 2, &g);
	if (rc)
		return rc;
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	rc = read_header(ctx, fd, &g, &h);
	if (!rc)
		header_print(ctx, &g, &h);
	close(fd);
	return rc;
}

const struct command header_command = {
	.name = "header",
	.fn = cmd_header,
	.args = "CLASS SUBCLASS",
	.help = "print the subclass header: entries, items per entry, entry-0\n"
		"    size",
};

/* ---- info --------------------------------------------------------------- */

static void info_print_text(const struct meas_info *in)
{
	char d[64], e[64];
	int c;

	format_classes(in->defined_mask, d, sizeof(d));
	format_classes(in->global_mask, e, sizeof(e));
	printf("abi-version %u\n", in->version);
	printf("defined-classes %s (0x%04x)\n", d, in->defined_mask);
	printf("enabled-classes %s (0x%04x)\n", e, in->global_mask);
	printf("%5s %8s %8s %14s\n", "class", "defined", "enablers",
	       "region-bytes");
	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if ((in->defined_mask | in->global_mask) & (1U << c))
			printf("%5d %8s %8u %14llu\n", c,
			       in->defined_mask & (1U << c) ? "yes" : "no",
			       in->enablers[c],
			       (unsigned long long)in->region_bytes[c]);
}

static void info_print_json(const struct meas_info *in)
{
	struct json j;
	int c;

	json_doc_ok(&j, stdout, "info", true);
	json_u64(&j, "abi_version", in->version);
	json_mask(&j, "defined_mask", in->defined_mask);
	json_classes(&j, "defined_classes", in->defined_mask);
	json_mask(&j, "global_mask", in->global_mask);
	json_classes(&j, "enabled_classes", in->global_mask);
	json_arr_begin(&j, "classes");
	for (c = 0; c < MEAS_NR_CLASSES; c++) {
		json_obj_begin(&j, NULL);
		json_i64(&j, "class", c);
		json_bool(&j, "defined", in->defined_mask & (1U << c));
		json_bool(&j, "enabled", in->global_mask & (1U << c));
		json_u64(&j, "enablers", in->enablers[c]);
		json_u64(&j, "region_bytes", in->region_bytes[c]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_doc_end(&j);
}

static int cmd_info(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct meas_info in;
	struct opt_state st;
	int rc, fd, err;

	rc = opt_parse(ctx, &st, argc, argv, NULL, false, NULL, NULL);
	if (rc != OPT_END)
		return rc;
	if (st.npos)
		return usage_error(ctx, "unexpected argument '%s' (info takes none)",
				   st.pos[0]);
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	err = meas_info(fd, &in);
	close(fd);
	if (err)
		return fail(ctx, -err, "MEAS_IOC_INFO");
	if (ctx->json)
		info_print_json(&in);
	else
		info_print_text(&in);
	return EXIT_OK;
}

const struct command info_command = {
	.name = "info",
	.fn = cmd_info,
	.args = "",
	.help = "print the ABI version, defined and enabled classes, enablers\n"
		"    and region size of each class",
};

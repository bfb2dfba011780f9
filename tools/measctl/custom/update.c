// SPDX-License-Identifier: GPL-2.0
/*
 * measctl update: UPDATESTATISTICS (FUPDATESTATISTICS with --fast) on an
 * item of a user-defined class.
 *
 *   measctl update [--fast] [--set] [--double] CLASS SUBCLASS ENTRY ITEM VALUE
 *
 * ITEM is an item number within the entry or the name of one (looked up
 * with MEAS_IOC_DESCRIBE); VALUE is added, or with --set replaces the
 * item.  Numbers out of range are passed on: the kernel's result code
 * says what is wrong with them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"

struct update_args {
	uint32_t flags;
	int cls, sub;
	int64_t entry, item, value;
	const char *item_name;	/* ITEM given as a name */
};

static int update_opt(struct cmd_ctx *ctx __always_unused, int id,
		      const char *arg __always_unused, void *data)
{
	struct update_args *u = data;

	u->flags |= id == 'f' ? MEAS_UPDATE_FAST :
		    id == 's' ? MEAS_UPDATE_NEWVALUE : MEAS_UPDATE_DOUBLE;
	return EXIT_OK;
}

/* A signed 64-bit value, or an unsigned one above INT64_MAX. */
static int parse_value(const char *s, int64_t *v)
{
	uint64_t u;

	if (!parse_i64(s, INT64_MIN, INT64_MAX, v))
		return 0;
	if (parse_u64(s, UINT64_MAX, &u))
		return -EINVAL;
	*v = (int64_t)u;
	return 0;
}

/* OPT_END to go on, else the exit status (after --help: EXIT_OK). */
static int update_parse(struct cmd_ctx *ctx, struct update_args *u, int argc,
			char **argv)
{
	static const struct opt opts[] = {
		{ "fast", 'f', OPT_NONE, 'f' },
		{ "set", 's', OPT_NONE, 's' },
		{ "double", 'd', OPT_NONE, 'd' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct opt_state st;
	char def[128];
	char **a;
	int64_t v;
	int rc;

	/* Options first: VALUE may be negative. */
	rc = opt_parse(ctx, &st, argc, argv, opts, true, update_opt, u);
	if (rc != OPT_END)
		return rc;
	if (argc - st.rest != 5)
		return usage_error(ctx, argc - st.rest < 5 ?
				   "CLASS SUBCLASS ENTRY ITEM VALUE needed" :
				   "too many arguments");
	a = argv + st.rest;
	if (parse_i64(a[0], INT32_MIN, INT32_MAX, &v))
		return usage_error(ctx, "bad class '%s': user-defined classes are 1..13; defined now: %s",
				   a[0], classes_defined_now(def, sizeof(def)));
	u->cls = v;
	if (parse_i64(a[1], INT32_MIN, INT32_MAX, &v))
		return usage_error(ctx, "bad subclass '%s': a number ('measctl describe %s' lists them)",
				   a[1], a[0]);
	u->sub = v;
	if (parse_i64(a[2], INT64_MIN, INT64_MAX, &u->entry))
		return usage_error(ctx, "bad entry '%s': a number, 1 for the first", a[2]);
	if (parse_i64(a[3], INT64_MIN, INT64_MAX, &u->item))
		u->item_name = a[3];
	if (parse_value(a[4], &u->value))
		return usage_error(ctx, "bad value '%s': a decimal integer, -9223372036854775808..18446744073709551615",
				   a[4]);
	return OPT_END;
}

/* The number of the item of @u->sub named @u->item_name. */
static int resolve_item(struct cmd_ctx *ctx, int fd, struct update_args *u)
{
	struct meas_class_names n;
	uint64_t k0 = 0, k;
	int err, s;

	err = meas_class_names_load(fd, u->cls, &n);
	if (err)
		return fail(ctx, -err, "item '%s': class %d has no definition",
			    u->item_name, u->cls);
	err = -ENOENT;
	if (u->sub >= 0 && (uint32_t)u->sub < n.d.nsub) {
		for (s = 0; s < u->sub; s++)
			k0 += n.d.sub[s].items;
		for (k = 0; k < n.d.sub[u->sub].items && err; k++)
			if (k0 + k < n.d.nitems &&
			    !strncmp(n.items[k0 + k].name, u->item_name,
				     MEAS_NAME_MAX)) {
				u->item = k;
				err = 0;
			}
	}
	meas_class_names_free(&n);
	if (err)
		return fail(ctx, 0, "class %d subclass %d has no item '%s'",
			    u->cls, u->sub, u->item_name);
	return EXIT_OK;
}

static int cmd_update(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct update_args u = { 0 };
	int rc, fd, err, result;
	struct json j;

	rc = update_parse(ctx, &u, argc, argv);
	if (rc != OPT_END)
		return rc;
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	rc = u.item_name ? resolve_item(ctx, fd, &u) : EXIT_OK;
	err = rc ? 0 : meas_update(fd, u.cls, u.sub, u.entry, u.item, u.flags,
				   u.value, &result);
	close(fd);
	if (rc)
		return rc;
	if (err)
		return fail_call(ctx, "update", result, -err,
				 "%s of class %d subclass %d entry %" PRId64
				 " item %" PRId64,
				 u.flags & MEAS_UPDATE_FAST ? "FUPDATESTATISTICS" :
				 "UPDATESTATISTICS", u.cls, u.sub, u.entry,
				 u.item);
	if (ctx->json) {
		json_doc_ok(&j, stdout, "update", true);
		json_i64(&j, "class", u.cls);
		json_i64(&j, "subclass", u.sub);
		json_i64(&j, "entry", u.entry);
		json_i64(&j, "item", u.item);
		json_i64(&j, "value", u.value);
		json_bool(&j, "set", u.flags & MEAS_UPDATE_NEWVALUE);
		json_bool(&j, "double", u.flags & MEAS_UPDATE_DOUBLE);
		json_bool(&j, "fast", u.flags & MEAS_UPDATE_FAST);
		json_i64(&j, "result", result);
		json_doc_end(&j);
	} else {
		printf("ok\n");
	}
	return EXIT_OK;
}

const struct command update_command = {
	.name = "update",
	.fn = cmd_update,
	.args = "[--fast] [--set] [--double] CLASS SUBCLASS ENTRY ITEM VALUE",
	.help = "UPDATESTATISTICS (FUPDATESTATISTICS with --fast): add VALUE to\n"
		"    the item (a number or its name), or replace it with --set",
};

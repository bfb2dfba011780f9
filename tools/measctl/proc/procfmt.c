// SPDX-License-Identifier: GPL-2.0
/*
 * What measctl ps, top and exits share: snapshots of class 15 (every
 * entry, with GETPROCSTATS allpins), holding the class enabled, rows and
 * their sort keys, names and the JSON form of an entry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "metrics.h"
#include "cli/cli.h"
#include "cli/dev.h"
#include "cli/interval.h"
#include "cgroup/cgroup.h"
#include "proc/proc.h"

/**
 * proc_hold() - make sure class 15 is enabled while @fd is open
 * @ctx: the command
 * @fd: an open /dev/meas
 * @why: what for, in messages
 *
 * START on @fd; without the privilege to, go on if someone else has the
 * class enabled.  Return: 0, or EXIT_FAIL (reported).
 */
int proc_hold(const struct cmd_ctx *ctx, int fd, const char *why)
{
	struct meas_info info;
	int err, result;

	err = meas_start(fd, 1U << MEAS_CLASS_PROC, &result);
	if (!err)
		return 0;
	if ((err == -EPERM || err == -EACCES) && !meas_info(fd, &info) &&
	    (info.global_mask & (1U << MEAS_CLASS_PROC)))
		return 0;
	return fail_call(ctx, "start", result, -err,
			 "STARTSTATISTICS of class 15 (%s)", why);
}

/*
 * A read of @s ended with @err: its time stamps; EXIT_FAIL reported if
 * class 15 is not enabled, else @err for the caller to report.
 */
static int proc_snap_taken(const struct cmd_ctx *ctx, struct proc_snap *s,
			   int err)
{
	s->t_ns = mono_ns();
	s->when.mono = s->t_ns;
	if (!err && s->nent) {
		s->when.start = s->items[MEAS_P0_CLOCK_START];
		s->when.end = s->items[MEAS_P0_CLOCK_END];
	}
	if (err == -ENODATA)
		return fail(ctx, ENODATA,
			    "class 15 is not enabled (run 'measctl start 15')");
	return err;
}

/**
 * proc_snap_take() - read every entry of class 15
 * @ctx: the command
 * @fd: an open /dev/meas
 * @s: filled in; proc_snap_free() it
 *
 * Return: 0, or EXIT_FAIL (reported).
 */
int proc_snap_take(const struct cmd_ctx *ctx, int fd, struct proc_snap *s)
{
	int err, result;

	memset(s, 0, sizeof(*s));
	err = meas_proc_all(fd, &s->items, &s->nent, &result);
	err = proc_snap_taken(ctx, s, err);
	if (err)
		return err > 0 ? err : fail_call(ctx, "GETPROCSTATS", result, -err,
						 "GETPROCSTATS of every process");
	return 0;
}

struct nl_fill {
	struct proc_snap *s;
	size_t cap;
};

/* A record of the dump into its slot's entry. */
static int nl_rec(const struct meas_proc_rec *r, uint64_t seq, void *arg)
{
	struct nl_fill *f = arg;
	struct proc_snap *s = f->s;
	size_t cap = f->cap;
	uint64_t *items;

	(void)seq;
	if (r->slot >= cap) {
		while (r->slot >= cap)
			cap = cap ? cap * 2 : 1024;
		items = realloc(s->items, cap * MEAS_PROC_ITEMS * sizeof(*items));
		if (!items)
			return -ENOMEM;
		memset(items + f->cap * MEAS_PROC_ITEMS, 0,
		       (cap - f->cap) * MEAS_PROC_ITEMS * sizeof(*items));
		s->items = items;
		f->cap = cap;
	}
	memcpy(s->items + (size_t)r->slot * MEAS_PROC_ITEMS, r->item,
	       sizeof(r->item));
	if (r->slot >= s->nent)
		s->nent = r->slot + 1;
	return 0;
}

/*
 * Every entry the caller may see, over generic netlink: entry 0 with a
 * GET, then the dump, each record at its slot (the others empty), as
 * GETPROCSTATS would give them to this caller.
 */
static int proc_snap_take_nl(const struct cmd_ctx *ctx, struct meas_nl *nl,
			     struct proc_snap *s)
{
	struct nl_fill f = { .s = s };
	struct meas_proc_rec h;
	int err;

	memset(s, 0, sizeof(*s));
	err = meas_nl_get(nl, 0, &h);
	if (!err) {
		h.slot = 0;
		err = nl_rec(&h, 0, &f);
	}
	if (!err)
		err = meas_nl_dump(nl, nl_rec, &f);
	err = proc_snap_taken(ctx, s, err);
	if (err)
		return err > 0 ? err : fail(ctx, -err, "reading the processes over netlink");
	return 0;
}

/**
 * proc_src_open() - where class 15 is read from
 * @ctx: the command
 * @src: set: /dev/meas (@src->fd), or, for a caller who may not open it
 *	(outside group meas), the generic netlink family (@src->nl), which
 *	shows them the processes they may see
 *
 * Return: EXIT_OK, or EXIT_FAIL (reported).
 */
int proc_src_open(const struct cmd_ctx *ctx, struct proc_src *src)
{
	int err = 0;

	src->nl = NULL;
	src->fd = meas_open();
	if (src->fd >= 0)
		return EXIT_OK;
	if (src->fd != -EACCES && src->fd != -EPERM)
		return fail_open(ctx, -src->fd);
	src->nl = meas_nl_open(&err);
	if (!src->nl)
		return fail(ctx, -err, "cannot open /dev/meas (%s) nor the generic netlink family",
			    strerror(-src->fd));
	return EXIT_OK;
}

void proc_src_close(struct proc_src *src)
{
	if (src->fd >= 0)
		close(src->fd);
	if (src->nl)
		meas_nl_close(src->nl);
	src->fd = -1;
	src->nl = NULL;
}

int proc_src_take(const struct cmd_ctx *ctx, struct proc_src *src,
		  struct proc_snap *s)
{
	if (src->nl)
		return proc_snap_take_nl(ctx, src->nl, s);
	return proc_snap_take(ctx, src->fd, s);
}

void proc_snap_free(struct proc_snap *s)
{
	free(s->items);
	s->items = NULL;
	s->nent = 0;
}

/* The entry of (slot, generation) in @s, or NULL. */
const uint64_t *proc_snap_find(const struct proc_snap *s, size_t slot,
			       uint64_t gen)
{
	const uint64_t *e;

	if (!slot || slot >= s->nent)
		return NULL;
	e = proc_snap_ent(s, slot);
	return e[MEAS_P_STATE] && e[MEAS_P_GENERATION] == gen ? e : NULL;
}

void proc_comm(const void *e, char *buf)
{
	meas_proc_string(e, MEAS_P_COMMAND, MEAS_PROC_COMM_LEN, buf);
}

void proc_program(const void *e, char *buf)
{
	meas_proc_string(e, MEAS_P_PROGRAM, MEAS_PROC_NAME_LEN, buf);
}

/* A user's name, or the number; @buf holds at least 16 bytes. */
const char *proc_user(uint64_t uid, char *buf, size_t len)
{
	static uint64_t last_uid = ~0ULL;
	static char last[16];
	struct passwd *pw;

	if (uid != last_uid) {
		pw = getpwuid((uid_t)uid);
		if (pw && strlen(pw->pw_name) < sizeof(last))
			strcpy(last, pw->pw_name);
		else
			snprintf(last, sizeof(last), "%llu",
				 (unsigned long long)uid);
		last_uid = uid;
	}
	snprintf(buf, len, "%s", last);
	return buf;
}

const char *proc_state_name(uint64_t state)
{
	switch (state) {
	case MEAS_PSTATE_LIVE:
		return "live";
	case MEAS_PSTATE_EXITED:
		return "exited";
	default:
		return "empty";
	}
}

uint64_t proc_stops(const void *items)
{
	static const unsigned char stop_items[] = {
		MEAS_P_STOP_DISC_BLOCKED, MEAS_P_STOP_DISC_UNBLOCKED,
		MEAS_P_STOP_BLOCKED_IO, MEAS_P_STOP_TERMINAL,
		MEAS_P_STOP_IMPEDED, MEAS_P_STOP_TIMED_OUT,
		MEAS_P_STOP_PREEMPTED, MEAS_P_STOP_JOBCTL, MEAS_P_STOP_EXIT,
	};
	const uint64_t *e = items;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < sizeof(stop_items); i++)
		n += e[stop_items[i]];
	return n;
}

/* The named items of an entry, as an object @key. */
void proc_json_items(struct json *j, const char *key, const void *items)
{
	const uint64_t *e = items;
	char s[MEAS_PROC_NAME_LEN + 1];
	const char *name;
	unsigned int i;

	json_obj_begin(j, key);
	proc_program(e, s);
	json_str(j, "program", s);
	proc_comm(e, s);
	json_str(j, "command", s);
	for (i = 0; i < MEAS_PROC_ITEMS; i++) {
		name = meas_proc_item_name(i);
		if (name && i != MEAS_P_PROGRAM && i != MEAS_P_COMMAND)
			json_u64(j, name, e[i]);
	}
	json_str(j, "state-name", proc_state_name(e[MEAS_P_STATE]));
	json_str(j, "last-stop-name", meas_proc_stop_name(e[MEAS_P_LAST_STOP]));
	json_obj_end(j);
}

/* Sort keys of ps and top, and the value each sorts on. */
static const struct {
	const char *name;
	int item;		/* -1: computed */
	bool ascending;
} proc_keys[] = {
	[PROC_KEY_PID]		= { "pid", MEAS_P_PID, true },
	[PROC_KEY_CPU]		= { "cpu", MEAS_P_CPU_TIME, false },
	[PROC_KEY_WAIT]		= { "wait", MEAS_P_PAUSE_ACTIVE, false },
	[PROC_KEY_LAUNCHES]	= { "launches", MEAS_P_LAUNCHES, false },
	[PROC_KEY_STOPS]	= { "stops", -1, false },
	[PROC_KEY_IO]		= { "io", MEAS_P_DISC_BYTES, false },
	[PROC_KEY_DISC]		= { "disc", MEAS_P_PAUSE_DISC, false },
	[PROC_KEY_IMPEDED]	= { "impeded", MEAS_P_PAUSE_IMPEDED, false },
	[PROC_KEY_COMMAND]	= { "command", -1, true },
	[PROC_KEY_CREATED]	= { "created", MEAS_P_CREATED, true },
};

static int proc_key_parse(const char *s, enum proc_key *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(proc_keys); i++)
		if (!strcmp(s, proc_keys[i].name)) {
			*key = i;
			return 0;
		}
	return -1;
}

int proc_opt(struct cmd_ctx *ctx, int id, const char *arg,
	     struct proc_opts *o)
{
	if (id == PROC_OPT_EXITED) {
		o->exited = true;
		return EXIT_OK;
	}
	if (id == PROC_OPT_CGROUP)
		return cg_path_arg(ctx, arg, o->cgroup, sizeof(o->cgroup));
	if (proc_key_parse(arg, &o->key))
		return usage_error(ctx, "bad sort key '%s' (pid, cpu, wait, launches, stops, io, disc, impeded, command, created)",
				   arg);
	return EXIT_OK;
}

bool proc_in_cgroup(const struct proc_opts *o, const void *items)
{
	const uint64_t *e = items;

	return !o->cgroup[0] || cg_id_under(e[MEAS_P_CGROUP], o->cgroup);
}

const char *proc_cgroup_name(const void *items, char *buf, size_t len)
{
	const uint64_t *e = items;
	const char *path = mx_cgmap_path(e[MEAS_P_CGROUP]);
	struct mx_cgname n;

	if (!path) {
		snprintf(buf, len, "-");
		return buf;
	}
	mx_cgname_classify(path, &n);
	return mx_cgname_label(&n, path, buf, len);
}

void proc_json_cgroup(struct json *j, const void *items)
{
	const uint64_t *e = items;
	char name[MX_CGN_UNIT_LEN + 32];
	const char *path = mx_cgmap_path(e[MEAS_P_CGROUP]);

	if (!path) {
		json_null(j, "cgroup");
		return;
	}
	json_str(j, "cgroup", path);
	json_str(j, "cgroup_name", proc_cgroup_name(e, name, sizeof(name)));
}

static enum proc_key sort_key;

static uint64_t row_value(const struct proc_row *r)
{
	int item = proc_keys[sort_key].item;

	if (item >= 0)
		return r->v[item];
	return proc_stops(r->v);
}

static int row_cmp(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;
	char cx[MEAS_PROC_COMM_LEN + 1], cy[MEAS_PROC_COMM_LEN + 1];
	uint64_t vx, vy;
	int c;

	if (sort_key == PROC_KEY_COMMAND) {
		proc_comm(x->e, cx);
		proc_comm(y->e, cy);
		c = strcmp(cx, cy);
	} else {
		vx = row_value(x);
		vy = row_value(y);
		c = vx < vy ? -1 : vx > vy;
	}
	if (!proc_keys[sort_key].ascending)
		c = -c;
	if (!c)
		c = x->e[MEAS_P_PID] < y->e[MEAS_P_PID] ? -1 :
		    x->e[MEAS_P_PID] > y->e[MEAS_P_PID];
	return c;
}

void proc_rows_sort(struct proc_row *rows, size_t n, enum proc_key key)
{
	sort_key = key;
	qsort(rows, n, sizeof(*rows), row_cmp);
}

/* Nanoseconds as seconds with 3 decimals, into @buf. */
const char *proc_secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ns / 1000000000ULL),
		 (unsigned long long)(ns / 1000000ULL % 1000));
	return buf;
}

/* Bytes with a unit, into @buf. */
const char *proc_bytes(uint64_t b, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	int u = 0;
	double v = b;

	while (v >= 1024 && units[u + 1]) {
		v /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%lluB", (unsigned long long)b);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
	return buf;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * measctl ps: one snapshot of class 15, a line per process, sorted.
 * Class 15 must be enabled (measctl start 15) for the counts to mean
 * anything; if it is not and the caller may enable it, ps does so for
 * the snapshot and says that the counts start now.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "proc/proc.h"

struct ps_args {
	struct proc_opts p;	/* -s KEY; -x: only the exited */
	bool all;		/* -a: the exited too */
};

static void ps_text(const struct proc_row *rows, size_t n)
{
	char user[16], cpu[24], wait[24], rb[16], wb[16], cg[PROC_CGROUP_COL + 1];
	char comm[MEAS_PROC_COMM_LEN + 1];
	const uint64_t *v;
	size_t i;

	printf("%7s %7s %-8s %-6s %3s %10s %10s %9s %9s %-10s %8s %8s %-*s %s\n",
	       "PID", "PPID", "USER", "STATE", "THR", "CPU-S", "WAIT-S",
	       "LAUNCHES", "STOPS", "LAST-STOP", "READ", "WRITE",
	       PROC_CGROUP_COL, "CGROUP", "COMMAND");
	for (i = 0; i < n; i++) {
		v = rows[i].v;
		proc_comm(v, comm);
		printf("%7llu %7llu %-8s %-6s %3llu %10s %10s %9llu %9llu %-10s %8s %8s %-*s %s\n",
		       (unsigned long long)v[MEAS_P_PID],
		       (unsigned long long)v[MEAS_P_PPID],
		       proc_user(v[MEAS_P_UID], user, sizeof(user)),
		       proc_state_name(v[MEAS_P_STATE]),
		       (unsigned long long)v[MEAS_P_THREADS],
		       proc_secs(v[MEAS_P_CPU_TIME], cpu, sizeof(cpu)),
		       proc_secs(v[MEAS_P_PAUSE_ACTIVE], wait, sizeof(wait)),
		       (unsigned long long)v[MEAS_P_LAUNCHES],
		       (unsigned long long)proc_stops(v),
		       meas_proc_stop_name(v[MEAS_P_LAST_STOP]),
		       proc_bytes(v[MEAS_P_DISC_READ_BYTES], rb, sizeof(rb)),
		       proc_bytes(v[MEAS_P_DISC_BYTES] -
				  v[MEAS_P_DISC_READ_BYTES], wb, sizeof(wb)),
		       PROC_CGROUP_COL, proc_cgroup_name(v, cg, sizeof(cg)),
		       comm);
	}
}

static void ps_json(const struct proc_row *rows, size_t n,
		    const struct proc_snap *s, bool fresh)
{
	const uint64_t *h = proc_snap_ent(s, 0);
	struct json j;
	size_t i;

	json_doc_ok(&j, stdout, "ps", true);
	json_bool(&j, "counts_start_now", fresh);
	json_obj_begin(&j, "header");
	json_u64(&j, "entries", h[MEAS_P0_ENTRIES]);
	json_u64(&j, "live", h[MEAS_P0_LIVE]);
	json_u64(&j, "exited", h[MEAS_P0_EXITED]);
	json_u64(&j, "overflow", h[MEAS_P0_OVERFLOW]);
	json_u64(&j, "thread_overflow", h[MEAS_P0_THREAD_OVERFLOW]);
	json_u64(&j, "started_ns", h[MEAS_P0_STARTED]);
	json_obj_end(&j);
	json_arr_begin(&j, "processes");
	for (i = 0; i < n; i++) {
		json_obj_begin(&j, NULL);
		json_u64(&j, "slot", rows[i].slot);
		proc_json_cgroup(&j, rows[i].v);
		proc_json_items(&j, "items", rows[i].v);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_doc_end(&j);
}

/* Read every entry; enable class 15 for the read if nobody has. */
static int ps_snapshot(struct cmd_ctx *ctx, int fd, struct proc_snap *s,
		       bool *fresh)
{
	int err, result, rc;

	*fresh = false;
	memset(s, 0, sizeof(*s));
	err = meas_proc_all(fd, &s->items, &s->nent, &result);
	if (err != -ENODATA)
		return err ? fail_call(ctx, "GETPROCSTATS", result, -err,
				       "GETPROCSTATS of every process") : 0;
	err = meas_start(fd, 1U << MEAS_CLASS_PROC, &result);
	if (err)
		return fail(ctx, ENODATA,
			    "class 15 is not enabled (run 'measctl start 15')");
	*fresh = true;
	warnx_ctx(ctx, "class 15 was not enabled: counts start now ('measctl start 15' keeps it)");
	rc = proc_snap_take(ctx, fd, s);
	meas_stop(fd, 1U << MEAS_CLASS_PROC, NULL);
	return rc;
}

/* Read every entry (netlink: those the caller may see, no enabling). */
static int ps_take(struct cmd_ctx *ctx, struct proc_src *src,
		   struct proc_snap *s, bool *fresh)
{
	*fresh = false;
	if (src->nl)
		return proc_src_take(ctx, src, s);
	return ps_snapshot(ctx, src->fd, s, fresh);
}

static int ps_do(struct cmd_ctx *ctx, const struct ps_args *a)
{
	struct proc_row *rows;
	struct proc_src src;
	struct proc_snap s;
	const uint64_t *e;
	size_t i, n = 0;
	bool fresh;
	int rc;
	uint64_t st;

	if (proc_src_open(ctx, &src))
		return EXIT_FAIL;
	rc = ps_take(ctx, &src, &s, &fresh);
	proc_src_close(&src);
	if (rc)
		return rc;
	rows = calloc(s.nent ? s.nent : 1, sizeof(*rows));
	if (!rows) {
		proc_snap_free(&s);
		return fail(ctx, ENOMEM, "no memory for %zu rows", s.nent);
	}
	for (i = 1; i < s.nent; i++) {
		e = proc_snap_ent(&s, i);
		st = e[MEAS_P_STATE];
		if (st == MEAS_PSTATE_EMPTY ||
		    (st == MEAS_PSTATE_EXITED && !a->all && !a->p.exited) ||
		    (st == MEAS_PSTATE_LIVE && a->p.exited) ||
		    !proc_in_cgroup(&a->p, e))
			continue;
		rows[n].e = e;
		memcpy(rows[n].v, rows[n].e, sizeof(rows[n].v));
		rows[n].slot = i;
		n++;
	}
	proc_rows_sort(rows, n, a->p.key);
	if (ctx->json)
		ps_json(rows, n, &s, fresh);
	else
		ps_text(rows, n);
	free(rows);
	proc_snap_free(&s);
	return EXIT_OK;
}

static int ps_opt(struct cmd_ctx *ctx, int id, const char *arg, void *data)
{
	struct ps_args *a = data;

	if (id == 'a') {
		a->all = true;
		return EXIT_OK;
	}
	return proc_opt(ctx, id, arg, &a->p);
}

static int cmd_ps(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "all", 'a', OPT_NONE, 'a' },
		{ "exited", 'x', OPT_NONE, PROC_OPT_EXITED },
		{ "sort", 's', OPT_ARG, PROC_OPT_SORT },
		{ "cgroup", 'c', OPT_ARG, PROC_OPT_CGROUP },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct ps_args a = { .p = { .key = PROC_KEY_PID } };
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, ps_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.npos)
		return usage_error(ctx, "unexpected argument '%s' (%s takes options only)",
				   st.pos[0], ctx->name);
	return ps_do(ctx, &a);
}

const struct command ps_command = {
	.name = "ps",
	.fn = cmd_ps,
	.args = "[-a] [-x] [-s KEY] [-c PATH]",
	.help = "one line per process of class 15 (GETPROCSTATS): CPU and wait\n"
		"    time, switches, stops, last stop reason, disc bytes, cgroup;\n"
		"    -a: the exited too, -x: only those; -s: sort by KEY (pid, cpu,\n"
		"    wait, launches, stops, io, disc, impeded, command, created);\n"
		"    -c: only the cgroup PATH and below; outside group meas: over\n"
		"    netlink, the processes the caller may see",
};

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: class 15, the processes (procfmt.c): a snapshot of every
 * entry, the rows ps and top show, their sort keys and formats.
 */
#ifndef MEASCTL_PROC_H
#define MEASCTL_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "libmeas.h"
#include "cli/cli.h"
#include "cli/rate.h"
#include "cgroup/cgroup.h"

/* Every entry of class 15 (GETPROCSTATS allpins) and when it was read. */
struct proc_snap {
	uint64_t *items;	/* nent entries of MEAS_PROC_ITEMS items */
	size_t nent;		/* entries 0..nent-1 */
	uint64_t t_ns;		/* CLOCK_MONOTONIC */
	struct rate_when when;	/* the time base of its deltas */
};

static inline const uint64_t *proc_snap_ent(const struct proc_snap *s,
					    size_t i)
{
	return s->items + i * MEAS_PROC_ITEMS;
}

/* A process as ps and top show it: @v totals (ps) or deltas (top). */
struct proc_row {
	const uint64_t *e;		/* its entry in the snapshot */
	uint64_t v[MEAS_PROC_ITEMS];
	size_t slot;
};

enum proc_key {
	PROC_KEY_PID, PROC_KEY_CPU, PROC_KEY_WAIT, PROC_KEY_LAUNCHES,
	PROC_KEY_STOPS, PROC_KEY_IO, PROC_KEY_DISC, PROC_KEY_IMPEDED,
	PROC_KEY_COMMAND, PROC_KEY_CREATED,
};

int proc_hold(const struct cmd_ctx *ctx, int fd, const char *why);

/* Where the entries come from: /dev/meas, or netlink for the others. */
struct proc_src {
	int fd;			/* /dev/meas, or -1 */
	struct meas_nl *nl;	/* else the generic netlink family */
};

int proc_src_open(const struct cmd_ctx *ctx, struct proc_src *src);
void proc_src_close(struct proc_src *src);
int proc_src_take(const struct cmd_ctx *ctx, struct proc_src *src,
		  struct proc_snap *s);
int proc_snap_take(const struct cmd_ctx *ctx, int fd, struct proc_snap *s);
void proc_snap_free(struct proc_snap *s);
const uint64_t *proc_snap_find(const struct proc_snap *s, size_t slot,
			       uint64_t gen);
void proc_comm(const void *e, char *buf);	/* 17 bytes */
void proc_program(const void *e, char *buf);	/* 33 bytes */
const char *proc_user(uint64_t uid, char *buf, size_t len);
const char *proc_state_name(uint64_t state);
uint64_t proc_stops(const void *items);
void proc_json_items(struct json *j, const char *key, const void *items);
/* The options of ps, top and exits alike, by these ids. */
enum proc_opt_id { PROC_OPT_SORT = 2100, PROC_OPT_EXITED, PROC_OPT_CGROUP };

/**
 * struct proc_opts - what -s, -x and --cgroup say
 * @key: the sort key
 * @exited: -x given (ps: only the exited; top: the exited too)
 * @cgroup: --cgroup PATH: only the processes in that subtree; "" for all
 */
struct proc_opts {
	enum proc_key key;
	bool exited;
	char cgroup[CG_PATH_ARG_LEN];
};

/* Option @id of enum proc_opt_id: EXIT_OK, or the usage error. */
int proc_opt(struct cmd_ctx *ctx, int id, const char *arg,
	     struct proc_opts *o);
/* Whether the process of entry @e is in the subtree of --cgroup. */
bool proc_in_cgroup(const struct proc_opts *o, const void *items);
/* The CGROUP column of entry @e: what its cgroup names, or "-". */
const char *proc_cgroup_name(const void *items, char *buf, size_t len);
/* The cgroup's path and name of entry @e, in a JSON object. */
void proc_json_cgroup(struct json *j, const void *items);

#define PROC_CGROUP_COL	24	/* the CGROUP column's width */
void proc_rows_sort(struct proc_row *rows, size_t n, enum proc_key key);
const char *proc_secs(uint64_t ns, char *buf, size_t len);
const char *proc_bytes(uint64_t b, char *buf, size_t len);

#endif /* MEASCTL_PROC_H */

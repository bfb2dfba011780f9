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
/* The options of ps and top alike: -s KEY and -x, by these ids. */
enum proc_opt_id { PROC_OPT_SORT = 2100, PROC_OPT_EXITED };

/**
 * struct proc_opts - what -s and -x say
 * @key: the sort key
 * @exited: -x given (ps: only the exited; top: the exited too)
 */
struct proc_opts {
	enum proc_key key;
	bool exited;
};

/* Option @id of enum proc_opt_id: EXIT_OK, or the usage error. */
int proc_opt(struct cmd_ctx *ctx, int id, const char *arg,
	     struct proc_opts *o);
void proc_rows_sort(struct proc_row *rows, size_t n, enum proc_key key);
const char *proc_secs(uint64_t ns, char *buf, size_t len);
const char *proc_bytes(uint64_t b, char *buf, size_t len);

#endif /* MEASCTL_PROC_H */

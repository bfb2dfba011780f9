/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the command-line tool of meas.  Declarations shared by its
 * units: command.c (dispatch, usage, errors), parse.c (numbers, class
 * lists, options), json.c (JSON output), holder.c (start and the holder
 * process), rundir.c (holder records), stop.c, get.c (get, header,
 * info), report.c (class 0 subclass 0 deltas), run.c, watch.c and
 * interval.c (what the periodic views share).
 */
#ifndef MEASCTL_H
#define MEASCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "libmeas.h"
#include "cli/rate.h"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define __noreturn		__attribute__((noreturn))
#define __printf(f, a)		__attribute__((format(printf, f, a)))
#define __always_unused		__attribute__((unused))

/* Exit statuses. */
#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

#define MEASCTL_RUNDIR		"/run/meas"
#define HOLDER_COMM		"measctl-holder"	/* comm of a holder */

/* ---- command.c ---------------------------------------------------------- */

/* What every command knows: its name and the output format. */
struct cmd_ctx {
	const char *name;	/* command name, for messages */
	bool json;		/* --json given */
};

void usage_cmd(const struct cmd_ctx *ctx, FILE *f);
__printf(2, 3)
int usage_error(const struct cmd_ctx *ctx, const char *fmt, ...);
__printf(3, 4)
int fail(const struct cmd_ctx *ctx, int err, const char *fmt, ...);
__printf(5, 6)
int fail_call(const struct cmd_ctx *ctx, const char *call, int result,
	      int err, const char *fmt, ...);
int fail_open(const struct cmd_ctx *ctx, int err);
/* ---- absent.c: why /dev/meas is missing, as " (...)" ---- */
const char *absent_hint(char *buf, size_t len);
int open_dev(const struct cmd_ctx *ctx);
__printf(2, 3)
void warnx_ctx(const struct cmd_ctx *ctx, const char *fmt, ...);

/* ---- parse.c ------------------------------------------------------------ */

int parse_u64(const char *s, uint64_t max, uint64_t *out);
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
int parse_seconds(const char *s, double min, double max, double *out);

/* A class list: "all", a mask "0x4001", or "0,14" / "0-3,14". */
struct classes {
	bool all;	/* "all": every defined class (resolved later) */
	uint32_t mask;	/* the classes named, when !all */
};

int parse_classes(const char *s, struct classes *c);
int classes_arg(struct cmd_ctx *ctx, const char *s, struct classes *c);
uint32_t classes_resolve(const struct classes *c, uint32_t all_mask);
void format_classes(uint32_t mask, char *buf, size_t len);

enum opt_arg { OPT_NONE, OPT_ARG };

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

/* ---- json.c ------------------------------------------------------------- */

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

/* ---- rundir.c ----------------------------------------------------------- */

int rundir_path(char *buf, size_t len);
int rundir_make(const char *dir);
int holder_record_write(const char *dir, pid_t pid, uint32_t mask);
int holder_record_read(const char *dir, pid_t pid, uint32_t *mask);
int holder_record_remove(const char *dir, pid_t pid);
void holder_record_name(const char *dir, pid_t pid, char *buf, size_t len);
bool holder_alive(pid_t pid);

struct holder_ent {
	pid_t pid;
	uint32_t mask;
	bool readable;		/* the record could be read */
};

int holder_scan(const char *dir, struct holder_ent **out, size_t *n);

/* ---- commands ----------------------------------------------------------- */

int cmd_start(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_stop(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_run(struct cmd_ctx *ctx, int argc, char **argv);
int run_exit_code(int status);
int cmd_get(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_header(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_info(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_version(struct cmd_ctx *ctx, int argc, char **argv);	/* version.c */
/* The classes defined now, for usage errors: "0,14-15" or why unknown. */
const char *classes_defined_now(char *buf, size_t len);
/* Warn when the module behind @fd speaks an older ABI than measctl. */
void abi_check(const struct cmd_ctx *ctx, int fd);
int cmd_watch(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_profile(struct cmd_ctx *ctx, int argc, char **argv);	/* profile.c */
int cmd_flame(struct cmd_ctx *ctx, int argc, char **argv);	/* flamecmd.c */
int cmd_task(struct cmd_ctx *ctx, int argc, char **argv);	/* task.c */

/* ---- report.c: class 0 subclass 0 snapshots and their deltas ------------ */

struct c0_snap {
	uint64_t v[MEAS_C0_FIXED_ITEMS];
	uint64_t t_ns;		/* CLOCK_MONOTONIC when taken */
	struct rate_when when;	/* the time base of its deltas */
};

int c0_snapshot(int fd, struct c0_snap *s, int *result);
uint64_t mono_ns(void);

/* How time items are shown: as % of elapsed × @cpus. */
void c0_print_text(FILE *f, const struct c0_snap *a, const struct c0_snap *b,
		   unsigned int cpus);
void c0_print_json(struct json *j, const char *key, const struct c0_snap *a,
		   const struct c0_snap *b, unsigned int cpus);

/* ---- user-defined classes: define.c, update.c, custom.c ----------------- */

int cmd_define(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_undefine(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_describe(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_update(struct cmd_ctx *ctx, int argc, char **argv);

/* get: the name of an item of a user-defined class, or NULL */
const char *custom_item_name(int class, int subclass, int64_t item);

/* watch: the items of the user-defined classes it enables */
struct custom_watch;
struct custom_watch *custom_watch_new(int fd, uint32_t mask);
void custom_watch_free(struct custom_watch *w);
void custom_watch_snap(int fd, struct custom_watch *w);
void custom_watch_text(FILE *f, const struct custom_watch *w, double secs);
void custom_watch_json(struct json *j, const char *key,
		       const struct custom_watch *w, double secs);

/* ---- class 15: ps.c, top.c, exits.c, procfmt.c --------------------------- */

int cmd_ps(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_top(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_exits(struct cmd_ctx *ctx, int argc, char **argv);

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
int proc_key_parse(const char *s, enum proc_key *key);
const char *proc_key_names(void);
void proc_rows_sort(struct proc_row *rows, size_t n, enum proc_key key);
const char *proc_secs(uint64_t ns, char *buf, size_t len);
const char *proc_bytes(uint64_t b, char *buf, size_t len);

/* ---- disks and the I/O trace: iostat.c, iotrace.c ----------------------- */

int cmd_iostat(struct cmd_ctx *ctx, int argc, char **argv);
/* iostat.c: per-disk rates between two snapshots (also run --html) */
/* One disk's items of subclasses 1 and 4. */
struct disk_snap {
	uint64_t disc[MEAS_C0_DISC_ITEMS];
	uint64_t xfer[MEAS_C0_XFER_ITEMS];
	char name[32];		/* a replay's name; live: "", from the dev */
};

struct io_snap {
	struct disk_snap *d;	/* entry 0 first */
	size_t n;
	uint64_t t_ns;
	struct rate_when when;	/* the time base of its deltas */
};

/* What one disk did in an interval. */
struct io_rate {
	char name[64];
	uint64_t dev;
	uint64_t reads, writes, rbytes, wbytes, control, busy;
	uint64_t qlen[MEAS_C0_DISC_QLEN_BUCKETS];
	double secs, r_s, w_s, rkb_s, wkb_s, r_await, w_await, aqu, ctl_s,
	       busy_s;
	uint64_t inflight;
};

void io_snap_free(struct io_snap *s);
int io_snapshot(int fd, struct io_snap *s, int *result);
/* @a NULL: from zero; @e 0 is the row "(others)". */
void io_rate(const struct disk_snap *a, const struct disk_snap *b,
	     size_t e, double secs, struct io_rate *r);
bool io_active(const struct io_rate *r);

int cmd_iotrace(struct cmd_ctx *ctx, int argc, char **argv);

/* ---- interval.c: the periodic views (watch, iostat, top, iotrace) ------- */

#include <signal.h>
#include <time.h>

/* Block SIGINT, SIGTERM, SIGHUP into @set, to wait for them. */
void meas_block_stop_signals(sigset_t *set);
/* Wait until @deadline (CLOCK_MONOTONIC ns); false if a signal came. */
bool meas_wait_until(const sigset_t *set, uint64_t deadline);
/* Local time with milliseconds and zone, as watch prints it: @at or now. */
void meas_timestamp(char *buf, size_t len, const struct timespec *at);

/* --interval and --count arguments, with their usage errors. */
int interval_arg(struct cmd_ctx *ctx, const char *arg, double min,
		 double max, double *out);
int count_arg(struct cmd_ctx *ctx, const char *arg, uint64_t max,
	      uint64_t *out);

/*
 * The ticks of a periodic view, every @interval from the first snapshot
 * (taken at @t0_ns), @count of them (0: until a signal):
 *
 *	tick_init(&t, set, interval, count, a.t_ns);
 *	while (tick_wait(&t)) {
 *		take b; print interval t.n from a to b; a = b;
 *		tick_taken(&t, a.t_ns);
 *	}
 */
struct tick {
	const sigset_t *set;	/* the stop signals */
	uint64_t step;		/* ns */
	uint64_t deadline;	/* of the current tick, CLOCK_MONOTONIC ns */
	uint64_t count;		/* 0: until a signal */
	uint64_t n;		/* the current interval, from 1 */
};

void tick_init(struct tick *t, const sigset_t *set, double interval,
	       uint64_t count, uint64_t t0_ns);
/* Wait for the next tick; false after @count ticks or on a signal. */
bool tick_wait(struct tick *t);
/* The snapshot of this tick was taken at @t_ns. */
void tick_taken(struct tick *t, uint64_t t_ns);

/* Block the stop signals into @set and open the device; -1 if it fails. */
int interval_open(const struct cmd_ctx *ctx, sigset_t *set);

typedef int (*interval_fn)(struct cmd_ctx *ctx, int fd, const sigset_t *set,
			   const void *args);
/*
 * With the stop signals blocked, hold @class on an open file of our own
 * while @fn runs, then stop it; @fn's exit status.
 */
int interval_hold(struct cmd_ctx *ctx, int class, interval_fn fn,
		  const void *args);

#endif /* MEASCTL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replay from a PCP archive (measctl watch, iostat and top --archive):
 * the values pmdameas exported and pmlogger recorded, read back through
 * libpcp's archive context, one frame per recorded sample or, with
 * --interval, per step of PCP's interpolation.  libpcp is opened at run
 * time (dlopen), so that measctl needs PCP only for a replay.
 * Documentation/pcp.rst.
 */
#ifndef MEASCTL_ARCHIVE_H
#define MEASCTL_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct cmd_ctx;

/* The options of a replay, as PCP's tools spell them. */
struct arch_opts {
	const char *path;	/* --archive: NULL for a live view */
	const char *start;	/* --start, NULL: the archive's start */
	const char *finish;	/* --finish, NULL: its end */
	double interval;	/* --interval given: its seconds, else 0 */
};

struct arch;

/*
 * Open @o->path and look up the @n metrics of @names.  A metric the
 * archive does not hold reads as no values.  Returns 0, or an exit
 * status after an error message.
 */
int arch_open(struct cmd_ctx *ctx, const struct arch_opts *o,
	      const char *const *names, size_t n, struct arch **out);
void arch_close(struct arch *a);

/* The next frame: 1, 0 at the end of the window, or an exit status < 0. */
int arch_next(struct cmd_ctx *ctx, struct arch *a);

/* When the frame was recorded (CLOCK_REALTIME), and in ns. */
const struct timespec *arch_time(const struct arch *a);
uint64_t arch_time_ns(const struct arch *a);

/* The values of metric @m in the frame. */
size_t arch_count(const struct arch *a, size_t m);
/*
 * Value @k of metric @m as a u64; its instance's number and name (NULL
 * for a metric without instances).
 */
uint64_t arch_value(struct arch *a, size_t m, size_t k, int *inst,
		    const char **name);
/* The value of instance @name of @m (NULL: the singular value); false if none. */
bool arch_find(struct arch *a, size_t m, const char *name, uint64_t *v);
/* The string value @k of @m, or NULL. */
const char *arch_string(const struct arch *a, size_t m, size_t k);

/* Parse the replay options of a view: id 'a', 'S', 'T'; EXIT_OK or usage. */
int arch_opt(struct cmd_ctx *ctx, int id, const char *arg,
	     struct arch_opts *o);

/* --start or --finish without --archive: a usage error. */
int arch_check(struct cmd_ctx *ctx, const struct arch_opts *o);

#endif /* MEASCTL_ARCHIVE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * measctl iotrace: one line per completed request, as biosnoop prints
 * them, from the class 14 ring through MEAS_IOC_IOTRACE_READ.  iotrace
 * holds class 14 on its own open file, so its cursor starts with the
 * trace: the records written from then on (from the oldest one the ring
 * still holds with --all) are printed in completion order, and records
 * the ring overwrote before they could be read are reported as lost,
 * never silently skipped.  With --json, one JSON object per record.
 * --heatmap FILE also draws the latency heat map of the records
 * (heatsvg.c); with --from, of records saved with --json before
 * (heatjson.c), without tracing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "pictures/picture.h"
#include "cli/interval.h"
#include "cgroup/cgroup.h"
#include "disk/ioring.h"

#define IOTRACE_POLL_MIN	0.001
#define IOTRACE_POLL_MAX	10.0

struct iotrace_args {
	double poll;		/* seconds between reads when idle */
	double duration;	/* 0: until a signal */
	uint64_t max;		/* records to print, 0: no limit */
	bool all;		/* from the oldest record held */
	const char *heatmap;	/* SVG to write, or NULL */
	const char *from;	/* --json records to draw, or NULL */
	struct heatmap *hm;	/* the heat map's requests */
	char cgroup[CG_PATH_ARG_LEN];	/* --cgroup PATH, "" for all */
};

/* blktrace's RWBS: F (preflush), the operation, F (FUA), A, S, M. */
static void rwbs(const struct meas_io_record *r, char *buf)
{
	char *p = buf;

	if (r->flags & MEAS_IO_F_PREFLUSH)
		*p++ = 'F';
	*p++ = meas_io_op_letter(r->op);
	if (r->flags & MEAS_IO_F_FUA)
		*p++ = 'F';
	if (r->flags & MEAS_IO_F_RAHEAD)
		*p++ = 'A';
	if (r->flags & MEAS_IO_F_SYNC)
		*p++ = 'S';
	if (r->flags & MEAS_IO_F_META)
		*p++ = 'M';
	*p = '\0';
}

static double ms_between(uint64_t from, uint64_t to)
{
	return from && to >= from ? (double)(to - from) / 1e6 : 0;
}

static void print_record(struct cmd_ctx *ctx, const struct meas_io_record *r,
			 uint64_t t0)
{
	double t = ((double)r->complete_ns - (double)t0) / 1e9;
	char name[64], comm[17], flags[8], dev[32];
	const char *cg = cg_id_path(r->cgroup);
	struct json j;

	meas_dev_name(r->dev, name, sizeof(name));
	memcpy(comm, r->comm, 16);
	comm[16] = '\0';
	if (r->flags & MEAS_IO_F_UNTRACKED)
		snprintf(comm, sizeof(comm), "?");
	rwbs(r, flags);
	if (!ctx->json) {
		printf("%-12.6f %-16s %-7d %-10s %-4s %-12llu %-8u %8.3f %8.3f %s%s%s\n",
		       t, comm, r->pid, name, flags,
		       (unsigned long long)r->sector, r->bytes,
		       ms_between(r->insert_ns, r->issue_ns),
		       ms_between(r->issue_ns, r->complete_ns), cg,
		       r->status ? " error" : "",
		       r->flags & MEAS_IO_F_PARTIAL ? " partial" : "");
		return;
	}
	snprintf(dev, sizeof(dev), "%u:%u", MEAS_DEV_MAJOR(r->dev),
		 MEAS_DEV_MINOR(r->dev));
	json_doc_begin(&j, stdout, "iotrace");
	json_double(&j, "time_s", t);
	json_str(&j, "disk", name);
	json_str(&j, "dev", dev);
	json_str(&j, "op", meas_io_op_name(r->op));
	json_str(&j, "rwbs", flags);
	json_u64(&j, "flags", r->flags);
	json_u64(&j, "sector", r->sector);
	json_u64(&j, "bytes", r->bytes);
	json_i64(&j, "pid", r->pid);
	json_i64(&j, "tgid", r->tgid);
	json_str(&j, "comm", comm);
	json_u64(&j, "cgroup_id", r->cgroup);
	if (r->cgroup && strcmp(cg, "-"))
		json_str(&j, "cgroup", cg);
	else
		json_null(&j, "cgroup");
	json_double(&j, "queue_ms", ms_between(r->insert_ns, r->issue_ns));
	json_double(&j, "latency_ms", ms_between(r->issue_ns,
						 r->complete_ns));
	json_u64(&j, "insert_ns", r->insert_ns);
	json_u64(&j, "issue_ns", r->issue_ns);
	json_u64(&j, "complete_ns", r->complete_ns);
	json_i64(&j, "status", r->status);
	json_u64(&j, "depth", r->depth);
	json_u64(&j, "cpu", r->cpu);
	json_doc_end(&j);
}

static void print_lost(struct cmd_ctx *ctx, uint64_t lost)
{
	struct json j;

	if (!ctx->json) {
		printf("# %llu records lost: the ring was overwritten before they were read\n",
		       (unsigned long long)lost);
		return;
	}
	json_doc_begin(&j, stdout, "iotrace");
	json_u64(&j, "lost", lost);
	json_doc_end(&j);
}

static int heat_record(struct heatmap *hm, const struct meas_io_record *r)
{
	char name[64];

	meas_dev_name(r->dev, name, sizeof(name));
	return hm_add_request(hm, name, r->issue_ns, r->complete_ns);
}

/* Write the heat map to @path. */
static int heat_write(struct cmd_ctx *ctx, struct heatmap *hm,
		      const char *path, const char *source)
{
	char title[512];
	FILE *f;

	f = fopen(path, "we");
	if (!f)
		return fail(ctx, errno, "cannot write %s", path);
	snprintf(title, sizeof(title), "I/O latency, issue to completion: %s",
		 source);
	heatmap_svg(f, hm, title, true);
	if (fclose(f))
		return fail(ctx, errno, "cannot write %s", path);
	return EXIT_OK;
}

/* The heat map of records saved with --json, one object a line. */
static int heat_from(struct cmd_ctx *ctx, const struct iotrace_args *a)
{
	size_t lineno = 0;
	int err, rc;
	FILE *f;

	f = fopen(a->from, "re");
	if (!f)
		return fail(ctx, errno, "cannot read %s", a->from);
	err = hm_load_json(f, a->hm, &lineno);
	fclose(f);
	if (err == -EINVAL)
		return fail(ctx, 0, "%s: line %zu: not an iotrace --json record",
			    a->from, lineno);
	if (err)
		return fail(ctx, -err, "cannot read %s", a->from);
	rc = heat_write(ctx, a->hm, a->heatmap, a->from);
	if (!rc)
		fprintf(stderr, "measctl iotrace: %zu requests drawn, %llu without an issue time, %llu lost\n",
			a->hm->nrec, (unsigned long long)a->hm->untimed,
			(unsigned long long)a->hm->lost);
	return rc;
}

/* Read and print one batch; *more: records are waiting already. */
static int iotrace_batch(struct cmd_ctx *ctx, struct io_ring *ring,
			 const struct iotrace_args *a, uint64_t t0,
			 uint64_t *records, bool *more)
{
	const struct meas_io_record *rec;
	int rc;

	rc = io_ring_read(ctx, ring);
	if (rc)
		return rc;
	if (ring->lost)
		print_lost(ctx, ring->lost);
	if (a->hm)
		a->hm->lost += ring->lost;
	while (!(a->max && *records >= a->max) &&
	       (rec = io_ring_next(ring))) {
		print_record(ctx, rec, t0);
		if (a->hm && heat_record(a->hm, rec))
			return fail(ctx, ENOMEM, "heat map");
		(*records)++;
	}
	fflush(stdout);
	*more = ring->pending && (!a->max || *records < a->max);
	return EXIT_OK;
}

static int iotrace_loop(struct cmd_ctx *ctx, int fd, const sigset_t *set,
			const void *args)
{
	const struct iotrace_args *a = args;
	uint64_t t0 = mono_ns(), end = 0, next, records = 0;
	struct io_ring ring;
	bool more = false, stop;
	int rc;

	rc = io_ring_init(ctx, &ring, fd, a->all, a->cgroup);
	if (rc)
		return rc;
	if (a->duration > 0)
		end = t0 + (uint64_t)(a->duration * 1e9);
	if (!ctx->json)
		printf("%-12s %-16s %-7s %-10s %-4s %-12s %-8s %8s %8s %s\n",
		       "TIME(s)", "COMM", "PID", "DISK", "T", "SECTOR",
		       "BYTES", "QUE(ms)", "LAT(ms)", "CGROUP");
	for (stop = false;;) {
		rc = iotrace_batch(ctx, &ring, a, t0, &records, &more);
		if (rc || (a->max && records >= a->max))
			break;
		if (more)
			continue;
		if (stop)
			break;	/* what came before the end is printed */
		next = mono_ns() + (uint64_t)(a->poll * 1e9);
		if (end && next > end)
			next = end;
		stop = !meas_wait_until(set, next) || (end && next >= end);
	}
	if (!rc && a->hm)
		rc = heat_write(ctx, a->hm, a->heatmap, "measctl iotrace");
	if (!rc && ctx->json) {
		struct json j;

		json_doc_ok(&j, stdout, "iotrace", true);
		json_u64(&j, "records", records);
		json_u64(&j, "lost", ring.lost_sum);
		json_u64(&j, "written", ring.total);
		json_doc_end(&j);
	} else if (!rc) {
		fprintf(stderr, "measctl iotrace: %llu records, %llu lost\n",
			(unsigned long long)records,
			(unsigned long long)ring.lost_sum);
	}
	io_ring_free(&ring);
	return rc;
}

static int iotrace_opt(struct cmd_ctx *ctx, int id, const char *arg,
		       void *data)
{
	struct iotrace_args *a = data;

	switch (id) {
	case 'i':
		return interval_arg(ctx, arg, IOTRACE_POLL_MIN,
				    IOTRACE_POLL_MAX, &a->poll);
	case 'd':
		if (parse_seconds(arg, 0.001, 86400 * 365.0, &a->duration))
			return usage_error(ctx, "bad duration '%s' (0.001..%g s)",
					   arg, 86400 * 365.0);
		return EXIT_OK;
	case 'n':
		return count_arg(ctx, arg, UINT64_MAX, &a->max);
	case 'H':
		a->heatmap = arg;
		return EXIT_OK;
	case 'F':
		a->from = arg;
		return EXIT_OK;
	case 'c':
		return cg_path_arg(ctx, arg, a->cgroup, sizeof(a->cgroup));
	default:
		a->all = true;
		return EXIT_OK;
	}
}

static int cmd_iotrace(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "interval", 'i', OPT_ARG, 'i' },
		{ "duration", 'd', OPT_ARG, 'd' },
		{ "count", 'n', OPT_ARG, 'n' },
		{ "all", 'a', OPT_NONE, 'a' },
		{ "heatmap", 0, OPT_ARG, 'H' },
		{ "from", 0, OPT_ARG, 'F' },
		{ "cgroup", 'c', OPT_ARG, 'c' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct iotrace_args a = { .poll = 0.1 };
	struct opt_state st;
	struct heatmap hm;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, iotrace_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.npos)
		return usage_error(ctx, "unexpected argument '%s' (%s takes options only)",
				   st.pos[0], ctx->name);
	if (a.from && !a.heatmap)
		return usage_error(ctx, "--from FILE needs --heatmap FILE.svg");
	if (!a.heatmap)
		return interval_hold(ctx, MEAS_CLASS_IO, iotrace_loop, &a);
	hm_init(&hm);
	a.hm = &hm;
	if (a.from)
		rc = heat_from(ctx, &a);
	else
		rc = interval_hold(ctx, MEAS_CLASS_IO, iotrace_loop, &a);
	hm_free(&hm);
	return rc;
}

const struct command iotrace_command = {
	.name = "iotrace",
	.fn = cmd_iotrace,
	.args = "[-d SECONDS] [-n COUNT] [-i SECONDS] [-a] [-c PATH]\n"
		"    [--heatmap FILE.svg [--from FILE.json]]",
	.help = "enable class 14 while running and print one line per completed\n"
		"    request (time, command, PID, disk, RWBS, sector, bytes, queue\n"
		"    and device ms, the cgroup it is charged to) for SECONDS,\n"
		"    COUNT records or until SIGINT; -c: only the I/O charged to\n"
		"    the cgroup PATH or below;\n"
		"    -a starts at the oldest record the ring holds; lost records\n"
		"    are reported; -i is the poll interval (default 0.1);\n"
		"    --heatmap: also a latency heat map (SVG) of the records, or\n"
		"    --from records saved with --json",
};

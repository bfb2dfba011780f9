// SPDX-License-Identifier: GPL-2.0
/*
 * measctl archive.c: replay from a PCP archive (archive.h).  libpcp.so.3
 * is opened with dlopen() when a replay starts, not linked: measctl runs
 * on machines without PCP, and only --archive needs it.  Its header
 * (Debian's libpcp3-dev) gives the types; a build without it refuses
 * --archive with a clear message.
 *
 * Without --interval a frame is each recorded sample (PM_MODE_FORW), so
 * that a replay shows exactly the differences the archive holds; with
 * --interval the frames are PCP's interpolation at that step
 * (PM_MODE_INTERP), as pmrep and pmval do it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "cli/cli.h"
#include "replay/archive.h"

int arch_opt(struct cmd_ctx *ctx, int id, const char *arg,
	     struct arch_opts *o)
{
	switch (id) {
	case 'a':
		if (!*arg)
			return usage_error(ctx, "empty --archive");
		o->path = arg;
		return EXIT_OK;
	case 'S':
		o->start = arg;
		return EXIT_OK;
	default:
		o->finish = arg;
		return EXIT_OK;
	}
}

int arch_check(struct cmd_ctx *ctx, const struct arch_opts *o)
{
	if (!o->path && (o->start || o->finish))
		return usage_error(ctx, "--start and --finish select a time window of --archive");
	return EXIT_OK;
}

#ifdef MEASCTL_PCP

#include <pcp/pmapi.h>

/* The functions of libpcp a replay calls, found by dlsym(). */
struct pcp_fns {
	int (*new_context)(int type, const char *name);
	int (*destroy_context)(int handle);
	char *(*err_str)(int code);
	int (*lookup_name)(int n, const char **names, pmID *pmids);
	int (*lookup_desc)(pmID pmid, pmDesc *desc);
	int (*archive_label)(pmLogLabel *label);
	int (*archive_end)(struct timeval *end);
	int (*parse_window)(const char *start, const char *finish,
			    const char *align, const char *offset,
			    const struct timeval *log_start,
			    const struct timeval *log_end,
			    struct timeval *rstart, struct timeval *rend,
			    struct timeval *roffset, char **msg);
	int (*set_mode)(int mode, const struct timeval *when, int delta);
	int (*fetch)(int n, pmID *pmids, pmResult **result);
	void (*free_result)(pmResult *result);
	int (*extract)(int valfmt, const pmValue *v, int type,
		       pmAtomValue *out, int outtype);
	int (*name_indom)(pmInDom indom, int inst, char **name);
};

/* An instance's name, as the archive names it. */
struct arch_inst {
	pmInDom indom;
	int inst;
	char *name;
};

struct arch {
	void *dl;
	struct pcp_fns f;
	int ctx;
	size_t n;
	pmID *pmids;
	pmDesc *descs;
	pmResult *res;
	struct timeval end;
	struct timespec when;
	struct arch_inst *insts;
	size_t ninsts, capinsts;
};

#define PCP_LIB "libpcp.so.3"

static int arch_dlsym(struct arch *a)
{
	static const char *const names[] = {
		"pmNewContext", "pmDestroyContext", "pmErrStr",
		"pmLookupName", "pmLookupDesc", "pmGetArchiveLabel",
		"pmGetArchiveEnd", "pmParseTimeWindow", "pmSetMode",
		"pmFetch", "pmFreeResult", "pmExtractValue", "pmNameInDom",
	};
	/* struct pcp_fns: function pointers only, in the order of @names */
	void **slot = (void **)&a->f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		slot[i] = dlsym(a->dl, names[i]);
		if (!slot[i])
			return -1;
	}
	return 0;
}

static int arch_lib(struct cmd_ctx *ctx, struct arch *a)
{
	a->dl = dlopen(PCP_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!a->dl)
		return fail(ctx, 0,
			    "--archive needs PCP's library %s (Debian: apt install libpcp3): %s",
			    PCP_LIB, dlerror());
	if (arch_dlsym(a))
		return fail(ctx, 0, "%s lacks a function a replay needs: %s",
			    PCP_LIB, dlerror());
	return EXIT_OK;
}

/* --start and --finish against the archive's bounds: the mode is set. */
static int arch_window(struct cmd_ctx *ctx, struct arch *a,
		       const struct arch_opts *o)
{
	struct timeval start, end, rstart, rend, roff;
	pmLogLabel label;
	char *msg = NULL;
	int err, mode, delta = 0;

	err = a->f.archive_label(&label);
	if (!err)
		err = a->f.archive_end(&end);
	if (err < 0)
		return fail(ctx, 0, "%s: %s", o->path, a->f.err_str(err));
	start = label.ll_start;
	if (a->f.parse_window(o->start, o->finish, NULL, NULL, &start, &end,
			      &rstart, &rend, &roff, &msg) < 0) {
		usage_error(ctx, "bad time window: %s", msg ? msg : "?");
		free(msg);
		return EXIT_USAGE;
	}
	if (timercmp(&rend, &rstart, <))
		return usage_error(ctx, "the time window ends before it starts (--start, --finish)");
	a->end = rend;
	mode = PM_MODE_FORW;
	if (o->interval > 0) {
		mode = PM_MODE_INTERP;
		delta = (int)(o->interval * 1000 + 0.5);
	}
	err = a->f.set_mode(mode, &rstart, delta);
	if (err < 0)
		return fail(ctx, 0, "%s: pmSetMode: %s", o->path,
			    a->f.err_str(err));
	return EXIT_OK;
}

static int arch_metrics(struct cmd_ctx *ctx, struct arch *a,
			const struct arch_opts *o, const char *const *names)
{
	size_t i;
	int err;

	a->pmids = calloc(a->n, sizeof(*a->pmids));
	a->descs = calloc(a->n, sizeof(*a->descs));
	if (!a->pmids || !a->descs)
		return fail(ctx, ENOMEM, "no memory for %zu metrics", a->n);
	err = a->f.lookup_name((int)a->n, (const char **)names, a->pmids);
	if (err <= 0)
		return fail(ctx, 0,
			    "%s holds none of the meas metrics this view reads (%s): was pmdameas installed while pmlogger recorded?",
			    o->path, err < 0 ? a->f.err_str(err) : "none found");
	for (i = 0; i < a->n; i++) {
		a->descs[i].pmid = PM_ID_NULL;
		if (a->pmids[i] != PM_ID_NULL &&
		    a->f.lookup_desc(a->pmids[i], &a->descs[i]) < 0)
			a->pmids[i] = PM_ID_NULL;
	}
	return EXIT_OK;
}

int arch_open(struct cmd_ctx *ctx, const struct arch_opts *o,
	      const char *const *names, size_t n, struct arch **out)
{
	struct arch *a = calloc(1, sizeof(*a));
	int rc;

	if (!a)
		return fail(ctx, ENOMEM, "no memory for a replay");
	a->ctx = -1;
	a->n = n;
	rc = arch_lib(ctx, a);
	if (rc == EXIT_OK) {
		a->ctx = a->f.new_context(PM_CONTEXT_ARCHIVE, o->path);
		if (a->ctx < 0)
			rc = fail(ctx, 0, "cannot open the archive %s: %s",
				  o->path, a->f.err_str(a->ctx));
	}
	if (rc == EXIT_OK)
		rc = arch_metrics(ctx, a, o, names);
	if (rc == EXIT_OK)
		rc = arch_window(ctx, a, o);
	if (rc != EXIT_OK) {
		arch_close(a);
		return rc;
	}
	*out = a;
	return EXIT_OK;
}

void arch_close(struct arch *a)
{
	size_t i;

	if (!a)
		return;
	if (a->res)
		a->f.free_result(a->res);
	if (a->ctx >= 0)
		a->f.destroy_context(a->ctx);
	for (i = 0; i < a->ninsts; i++)
		free(a->insts[i].name);
	free(a->insts);
	free(a->pmids);
	free(a->descs);
	if (a->dl)
		dlclose(a->dl);
	free(a);
}

static bool arch_after_end(const struct arch *a, const struct timeval *t)
{
	return t->tv_sec > a->end.tv_sec ||
	       (t->tv_sec == a->end.tv_sec && t->tv_usec > a->end.tv_usec);
}

int arch_next(struct cmd_ctx *ctx, struct arch *a)
{
	int err;

	if (a->res) {
		a->f.free_result(a->res);
		a->res = NULL;
	}
	err = a->f.fetch((int)a->n, a->pmids, &a->res);
	if (err == PM_ERR_EOL)
		return 0;
	if (err < 0) {
		a->res = NULL;
		fail(ctx, 0, "reading the archive: %s", a->f.err_str(err));
		return -EXIT_FAIL;
	}
	if (arch_after_end(a, &a->res->timestamp))
		return 0;
	a->when.tv_sec = a->res->timestamp.tv_sec;
	a->when.tv_nsec = a->res->timestamp.tv_usec * 1000L;
	return 1;
}

const struct timespec *arch_time(const struct arch *a)
{
	return &a->when;
}

uint64_t arch_time_ns(const struct arch *a)
{
	return (uint64_t)a->when.tv_sec * 1000000000ULL +
	       (uint64_t)a->when.tv_nsec;
}

static const pmValueSet *arch_vset(const struct arch *a, size_t m)
{
	const pmValueSet *vs;

	if (!a->res || m >= a->n || a->pmids[m] == PM_ID_NULL ||
	    (int)m >= a->res->numpmid)
		return NULL;
	vs = a->res->vset[m];
	return vs && vs->numval > 0 ? vs : NULL;
}

size_t arch_count(const struct arch *a, size_t m)
{
	const pmValueSet *vs = arch_vset(a, m);

	return vs ? (size_t)vs->numval : 0;
}

/* The name of @inst in @indom, looked up once. */
static const char *arch_inst_name(struct arch *a, pmInDom indom, int inst)
{
	struct arch_inst *p;
	char *name = NULL;
	size_t i;

	for (i = 0; i < a->ninsts; i++)
		if (a->insts[i].indom == indom && a->insts[i].inst == inst)
			return a->insts[i].name;
	if (a->f.name_indom(indom, inst, &name) < 0)
		return NULL;
	if (a->ninsts == a->capinsts) {
		size_t cap = a->capinsts ? a->capinsts * 2 : 64;

		p = realloc(a->insts, cap * sizeof(*p));
		if (!p) {
			free(name);
			return NULL;
		}
		a->insts = p;
		a->capinsts = cap;
	}
	a->insts[a->ninsts++] = (struct arch_inst){ indom, inst, name };
	return name;
}

uint64_t arch_value(struct arch *a, size_t m, size_t k, int *inst,
		    const char **name)
{
	const pmValueSet *vs = arch_vset(a, m);
	const pmDesc *d = &a->descs[m];
	pmAtomValue v;

	if (!vs || k >= (size_t)vs->numval)
		return 0;
	if (inst)
		*inst = vs->vlist[k].inst;
	if (name)
		*name = d->indom == PM_INDOM_NULL ? NULL :
			arch_inst_name(a, d->indom, vs->vlist[k].inst);
	if (d->type == PM_TYPE_STRING)
		return 0;
	if (a->f.extract(vs->valfmt, &vs->vlist[k], d->type, &v,
			 PM_TYPE_U64) < 0)
		return 0;
	return v.ull;
}

bool arch_find(struct arch *a, size_t m, const char *name, uint64_t *v)
{
	size_t k, n = arch_count(a, m);
	const char *in;

	for (k = 0; k < n; k++) {
		uint64_t x = arch_value(a, m, k, NULL, &in);

		if ((!name && !in) || (name && in && !strcmp(name, in))) {
			*v = x;
			return true;
		}
	}
	return false;
}

const char *arch_string(const struct arch *a, size_t m, size_t k)
{
	const pmValueSet *vs = arch_vset(a, m);

	if (!vs || k >= (size_t)vs->numval ||
	    a->descs[m].type != PM_TYPE_STRING ||
	    vs->valfmt == PM_VAL_INSITU)
		return NULL;
	return vs->vlist[k].value.pval->vbuf;
}

#else /* !MEASCTL_PCP */

struct arch {
	int unused;
};

int arch_open(struct cmd_ctx *ctx, const struct arch_opts *o,
	      const char *const *names, size_t n, struct arch **out)
{
	(void)o;
	(void)names;
	(void)n;
	*out = NULL;
	return fail(ctx, 0,
		    "this measctl was built without PCP's headers (libpcp3-dev): no --archive");
}

void arch_close(struct arch *a)
{
	(void)a;
}

int arch_next(struct cmd_ctx *ctx, struct arch *a)
{
	(void)ctx;
	(void)a;
	return 0;
}

const struct timespec *arch_time(const struct arch *a)
{
	static const struct timespec zero;

	(void)a;
	return &zero;
}

uint64_t arch_time_ns(const struct arch *a)
{
	(void)a;
	return 0;
}

size_t arch_count(const struct arch *a, size_t m)
{
	(void)a;
	(void)m;
	return 0;
}

uint64_t arch_value(struct arch *a, size_t m, size_t k, int *inst,
		    const char **name)
{
	(void)a;
	(void)m;
	(void)k;
	(void)inst;
	(void)name;
	return 0;
}

bool arch_find(struct arch *a, size_t m, const char *name, uint64_t *v)
{
	(void)a;
	(void)m;
	(void)name;
	(void)v;
	return false;
}

const char *arch_string(const struct arch *a, size_t m, size_t k)
{
	(void)a;
	(void)m;
	(void)k;
	return NULL;
}

#endif /* MEASCTL_PCP */

// SPDX-License-Identifier: GPL-2.0
/*
 * measctl task report: the evaluation of a task measurement file (what
 * SM2-PA does for openSM2).  Per session: the header, program counter
 * samples by object and by function, system calls by name and by calling
 * address, and the load information.  Addresses are resolved with the
 * file's own load information (taskfile.c), so they become
 * object-relative even after the object moved or was unloaded; function
 * names come from the object's symbol table as it is on disk now.
 * --svg FILE draws the samples of one session as a flame graph
 * (flamesvg.c): object, function; no call stacks, the task sampler
 * records the program counter only, and the program is the one process
 * measured (its name at START may be that of its parent, before exec),
 * so the title names the file and the session.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pictures/picture.h"
#include "clock/symbols.h"
#include "task/task.h"

/* ---- counting by key ---------------------------------------------------- */

/* One row of a table: what was counted and how often. */
struct trow {
	char *key;
	uint64_t count;
	const char *object;	/* path, NULL: not resolved */
	uint64_t offset;	/* in the object's file */
	const char *func;	/* NULL: no symbol */
	uint32_t nr, flags;	/* system calls */
};

struct tally {
	struct trow *rows;
	size_t n, cap;
	size_t *slot;		/* open addressing: row index + 1, 0 free */
	size_t nslot;
};

static uint64_t tally_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int tally_rehash(struct tally *t)
{
	size_t n = t->nslot ? t->nslot * 2 : 256, i, k;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		k = tally_hash(t->rows[i].key) & (n - 1);
		while (slot[k])
			k = (k + 1) & (n - 1);
		slot[k] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = n;
	return 0;
}

/* The row of @key, added (count 0, from @proto) if new; NULL: no memory. */
static struct trow *tally_get(struct tally *t, const char *key,
			      const struct trow *proto)
{
	struct trow *r;
	size_t k;

	if ((t->n + 1) * 2 > t->nslot && tally_rehash(t))
		return NULL;
	for (k = tally_hash(key) & (t->nslot - 1); t->slot[k];
	     k = (k + 1) & (t->nslot - 1))
		if (!strcmp(t->rows[t->slot[k] - 1].key, key))
			return &t->rows[t->slot[k] - 1];
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;

		r = realloc(t->rows, cap * sizeof(*r));
		if (!r)
			return NULL;
		t->rows = r;
		t->cap = cap;
	}
	r = &t->rows[t->n];
	*r = *proto;
	r->count = 0;
	r->key = strdup(key);
	if (!r->key)
		return NULL;
	t->slot[k] = ++t->n;
	return r;
}

static void tally_add(struct tally *t, const char *key,
		      const struct trow *proto)
{
	struct trow *r = tally_get(t, key, proto);

	if (r)
		r->count++;
}

static int trow_cmp(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* Most counted first; the hash is no longer needed. */
static void tally_sort(struct tally *t)
{
	free(t->slot);
	t->slot = NULL;
	t->nslot = 0;
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), trow_cmp);
}

static void tally_free(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->rows[i].key);
	free(t->rows);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- the evaluation of a session ---------------------------------------- */

struct eval {
	const struct tf_session *s;
	struct elfcache *ec;
	struct tally objects;	/* samples by object */
	struct tally funcs;	/* samples by object and function/offset */
	struct tally calls;	/* system calls by number */
	struct tally sites;	/* system calls by number and address */
	uint64_t unresolved;	/* samples in no known object */
	uint64_t svc_unresolved;
};

/* Where @ip of @gen at @seq is: object, file offset and function. */
static void eval_where(struct eval *e, uint32_t gen, uint64_t ip,
		       uint64_t seq, struct trow *w)
{
	const struct tf_object *o = tf_resolve(e->s, gen, ip, seq);

	memset(w, 0, sizeof(*w));
	if (!o) {
		w->offset = ip;
		return;
	}
	w->object = o->name;
	w->offset = tf_file_offset(o, ip);
	/* Only files have symbol tables; [vdso] and the like do not. */
	if (o->name[0] == '/')
		w->func = elfcache_find(e->ec, o->name, w->offset);
}

/* The key of a place: "object\tfunction" or "object\t+offset". */
static void where_key(const struct trow *w, char *buf, size_t len)
{
	if (!w->object)
		snprintf(buf, len, "[unknown]");
	else if (w->func)
		snprintf(buf, len, "%s\t%s", w->object, w->func);
	else
		snprintf(buf, len, "%s\t+%" PRIx64, w->object, w->offset);
}

static void eval_samples(struct eval *e)
{
	const struct tf_sample *x;
	char key[4352];
	struct trow w;
	size_t i;

	for (i = 0; i < e->s->nsample; i++) {
		x = &e->s->sample[i];
		eval_where(e, x->gen, x->ip, x->seq, &w);
		if (!w.object)
			e->unresolved++;
		tally_add(&e->objects, w.object ? w.object : "[unknown]", &w);
		where_key(&w, key, sizeof(key));
		tally_add(&e->funcs, key, &w);
	}
}

static void eval_svcs(struct eval *e)
{
	const struct tf_svc *x;
	char key[4400];
	struct trow w;
	size_t i;

	for (i = 0; i < e->s->nsvc; i++) {
		x = &e->s->svc[i];
		eval_where(e, x->gen, x->ip, x->seq, &w);
		if (!w.object)
			e->svc_unresolved++;
		w.nr = x->nr;
		w.flags = x->flags & MEAS_TREC_COMPAT;
		snprintf(key, sizeof(key), "%u/%u", w.nr, w.flags);
		tally_add(&e->calls, key, &w);
		/* By exact return address, object-relative where known. */
		snprintf(key, sizeof(key), "%u/%u/%s/%" PRIx64, w.nr, w.flags,
			 w.object ? w.object : "[unknown]",
			 w.object ? w.offset : x->ip);
		tally_add(&e->sites, key, &w);
	}
}

static void eval_run(struct eval *e, const struct tf_session *s)
{
	memset(e, 0, sizeof(*e));
	e->s = s;
	e->ec = elfcache_new();
	eval_samples(e);
	eval_svcs(e);
	tally_sort(&e->objects);
	tally_sort(&e->funcs);
	tally_sort(&e->calls);
	tally_sort(&e->sites);
}

static void eval_free(struct eval *e)
{
	tally_free(&e->objects);
	tally_free(&e->funcs);
	tally_free(&e->calls);
	tally_free(&e->sites);
	if (e->ec)
		elfcache_free(e->ec);
}

/* ---- what the header says ------------------------------------------------ */

const char *task_end_text(const struct tf_session *s)
{
	return s->ended ? tf_end_reason_name(s->end.reason) : "cut short";
}

static uint64_t session_ns(const struct tf_session *s)
{
	uint64_t last = s->ended ? s->end.h.time_ns : s->last_ns;

	return last > s->head.h.time_ns ? last - s->head.h.time_ns : 0;
}

/* Samples the CPU time should have given: CPU time / interval. */
static uint64_t expected_samples(const struct tf_session *s)
{
	if (!s->ended || !s->head.pcounter_ms)
		return 0;
	return s->end.cpu_ns / ((uint64_t)s->head.pcounter_ms * 1000000);
}

static const char *load_name(uint32_t load_info)
{
	return load_info == MEAS_TASK_LOAD_DETAILED ? "detailed" : "std";
}

static void realtime_text(uint64_t ns, char *buf, size_t len)
{
	time_t t = ns / 1000000000;
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S %z", &tm))
		snprintf(buf, len, "%" PRIu64 " ns", ns);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b && b[1] ? b + 1 : path;
}

static void prot_text(uint32_t prot, char *buf)
{
	buf[0] = prot & MEAS_TREC_PROT_READ ? 'r' : '-';
	buf[1] = prot & MEAS_TREC_PROT_WRITE ? 'w' : '-';
	buf[2] = prot & MEAS_TREC_PROT_EXEC ? 'x' : '-';
	buf[3] = '\0';
}

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * n / of : 0.0;
}

/* ---- text ----------------------------------------------------------------- */

static void text_header(FILE *f, const struct tf_session *s)
{
	const struct meas_trec_session *h = &s->head;
	char when[64];

	realtime_text(h->realtime_ns, when, sizeof(when));
	fprintf(f, "Session %" PRIu64 ": pid %u (%s), started %s by uid %u, process uid %u\n",
		(uint64_t)h->session, h->h.tid, h->comm, when, h->uid,
		h->target_uid);
	fprintf(f, "  kernel %s, page size %u\n", h->release, h->page_size);
	if (h->pcounter_ms)
		fprintf(f, "  interval %u ms of CPU time", h->pcounter_ms);
	else
		fprintf(f, "  no program counter sampling");
	fprintf(f, ", SVC statistics %s, load information %s%s\n",
		h->flags & MEAS_TASK_SVC ? "on" : "off",
		load_name(h->load_info),
		h->flags & MEAS_TASK_OWNED ? ", owned" : "");
	fprintf(f, "  duration %.3f s", session_ns(s) / 1e9);
	if (s->ended)
		fprintf(f, ", CPU %.3f s (user and system)", s->end.cpu_ns / 1e9);
	fprintf(f, ", ended: %s\n", task_end_text(s));
	fprintf(f, "  samples %zu", s->nsample);
	if (s->ended)
		fprintf(f, " (END: %" PRIu64 "), kernel-mode samples %" PRIu64
			" (not recorded), expected ~%" PRIu64 " (CPU / interval)",
			(uint64_t)s->end.samples,
			(uint64_t)s->end.kernel_samples, expected_samples(s));
	fprintf(f, "\n  system calls %zu", s->nsvc);
	if (s->ended)
		fprintf(f, " (END: %" PRIu64 ")", (uint64_t)s->end.svcs);
	fprintf(f, ", lost records %" PRIu64 " (%" PRIu64 " LOST records)",
		s->lost, s->lost_records);
	if (s->ended && s->end.lost != s->lost)
		fprintf(f, ", END says %" PRIu64, (uint64_t)s->end.lost);
	fputc('\n', f);
	if (s->ended && s->end.objects_dropped)
		fprintf(f, "  load information objects dropped: %" PRIu64 "\n",
			(uint64_t)s->end.objects_dropped);
	if (s->unknown)
		fprintf(f, "  records of unknown type skipped: %" PRIu64 "\n",
			s->unknown);
	if (s->anomalies)
		fprintf(f, "  load blocks out of order: %" PRIu64 "\n",
			s->anomalies);
}

static size_t rows_shown(const struct tally *t,
			 const struct task_report_opts *o)
{
	return o->top && o->top < t->n ? o->top : t->n;
}

/* "function (object)", "object+0xoff", or "[unknown]". */
static void where_text(const struct trow *r, char *buf, size_t len)
{
	if (!r->object)
		snprintf(buf, len, "[unknown]");
	else if (r->func)
		snprintf(buf, len, "%s (%s)", r->func, base_name(r->object));
	else
		snprintf(buf, len, "%s+0x%" PRIx64, base_name(r->object),
			 r->offset);
}

static void more_rows(FILE *f, const struct tally *t, size_t shown)
{
	if (shown < t->n)
		fprintf(f, "  (%zu more)\n", t->n - shown);
}

static void text_samples(FILE *f, const struct eval *e,
			 const struct task_report_opts *o)
{
	uint64_t total = e->s->nsample;
	char where[4400];
	size_t i, n;

	if (!total)
		return;
	fprintf(f, "\nPC samples by object:\n  %10s %6s  %s\n", "COUNT", "%",
		"OBJECT");
	n = rows_shown(&e->objects, o);
	for (i = 0; i < n; i++)
		fprintf(f, "  %10" PRIu64 " %6.2f  %s\n",
			e->objects.rows[i].count,
			pct(e->objects.rows[i].count, total),
			e->objects.rows[i].key);
	more_rows(f, &e->objects, n);
	fprintf(f, "\nPC samples by function:\n  %10s %6s  %s\n", "COUNT", "%",
		"FUNCTION (OBJECT) or OBJECT+OFFSET");
	n = rows_shown(&e->funcs, o);
	for (i = 0; i < n; i++) {
		where_text(&e->funcs.rows[i], where, sizeof(where));
		fprintf(f, "  %10" PRIu64 " %6.2f  %s\n",
			e->funcs.rows[i].count,
			pct(e->funcs.rows[i].count, total), where);
	}
	more_rows(f, &e->funcs, n);
}

/* "name", or "name/32" for a 32-bit call. */
static const char *call_text(const struct tf_session *s,
			     const struct trow *r, char *buf, size_t len)
{
	char nb[32];
	const char *n = syscall_name(s->head.audit_arch, r->flags, r->nr, nb,
				     sizeof(nb));

	snprintf(buf, len, "%s%s", n, r->flags & MEAS_TREC_COMPAT ? "/32" : "");
	return buf;
}

static void text_svcs(FILE *f, const struct eval *e,
		      const struct task_report_opts *o)
{
	const struct trow *r;
	char name[48], where[4400];
	size_t i, n;

	if (!e->s->nsvc)
		return;
	fprintf(f, "\nSystem calls by name:\n  %10s  %s\n", "COUNT", "NAME");
	n = rows_shown(&e->calls, o);
	for (i = 0; i < n; i++) {
		r = &e->calls.rows[i];
		fprintf(f, "  %10" PRIu64 "  %s\n", r->count,
			call_text(e->s, r, name, sizeof(name)));
	}
	more_rows(f, &e->calls, n);
	fprintf(f, "\nSystem calls by calling address:\n  %10s  %-20s %s\n",
		"COUNT", "NAME", "RETURN ADDRESS");
	n = rows_shown(&e->sites, o);
	for (i = 0; i < n; i++) {
		r = &e->sites.rows[i];
		where_text(r, where, sizeof(where));
		fprintf(f, "  %10" PRIu64 "  %-20s ", r->count,
			call_text(e->s, r, name, sizeof(name)));
		if (r->object && r->func)
			fprintf(f, "%s+0x%" PRIx64 " in %s\n",
				base_name(r->object), r->offset, r->func);
		else if (r->object)
			fprintf(f, "%s\n", where);
		else
			fprintf(f, "[unknown] 0x%" PRIx64 "\n", r->offset);
	}
	more_rows(f, &e->sites, n);
}

static void text_object(FILE *f, const struct tf_object *o)
{
	char prot[4];

	prot_text(o->prot, prot);
	fprintf(f, "      %016" PRIx64 "-%016" PRIx64 " %s %08" PRIx64 " %s\n",
		o->start, o->end, prot, o->pgoff, o->name);
}

static void text_load(FILE *f, const struct tf_session *s,
		      const struct tf_load *l)
{
	size_t k;

	fprintf(f, "  +%.3f s generation %u, %s: %zu objects",
		(l->time_ns - s->head.h.time_ns) / 1e9, l->gen,
		tf_load_kind_name(l->kind), l->n);
	if (!l->closed)
		fprintf(f, " (no LOAD_END)");
	else if (l->declared != l->n)
		fprintf(f, " (LOAD_END says %u)", l->declared);
	fputc('\n', f);
	for (k = l->first; k < l->first + l->n; k++)
		text_object(f, &s->obj[k]);
}

static void text_event(FILE *f, const struct tf_session *s,
		       const struct tf_event *ev)
{
	fprintf(f, "  +%.3f s generation %u ",
		(ev->time_ns - s->head.h.time_ns) / 1e9, ev->gen);
	if (ev->type == MEAS_TREC_EXEC) {
		fprintf(f, "EXEC\n");
	} else if (ev->type == MEAS_TREC_UNMAP) {
		fprintf(f, "UNMAP %016" PRIx64 "-%016" PRIx64 "\n", ev->start,
			ev->end);
	} else {
		fprintf(f, "MAP\n");
		text_object(f, &s->obj[ev->obj]);
	}
}

/* Load blocks and MAP, UNMAP, EXEC events in the order they came. */
static void text_loads(FILE *f, const struct tf_session *s)
{
	size_t l = 0, e = 0;

	fprintf(f, "\nLoad information:\n");
	while (l < s->nload || e < s->nev) {
		if (e == s->nev ||
		    (l < s->nload && s->load[l].seq < s->ev[e].seq))
			text_load(f, s, &s->load[l++]);
		else
			text_event(f, s, &s->ev[e++]);
	}
}

void task_report_text(FILE *f, const struct tf_session *s,
		      const struct task_report_opts *o)
{
	struct eval e;

	eval_run(&e, s);
	text_header(f, s);
	if (e.unresolved)
		fprintf(f, "  samples in no known object: %" PRIu64 "\n",
			e.unresolved);
	text_samples(f, &e, o);
	text_svcs(f, &e, o);
	text_loads(f, s);
	eval_free(&e);
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_header(struct json *j, const struct tf_session *s)
{
	const struct meas_trec_session *h = &s->head;

	json_u64(j, "session", h->session);
	json_u64(j, "offset", s->offset);
	json_i64(j, "pid", h->h.tid);
	json_str(j, "comm", h->comm);
	json_u64(j, "uid", h->uid);
	json_u64(j, "target_uid", h->target_uid);
	json_str(j, "release", h->release);
	json_u64(j, "page_size", h->page_size);
	json_u64(j, "audit_arch", h->audit_arch);
	json_u64(j, "realtime_ns", h->realtime_ns);
	json_u64(j, "interval_ms", h->pcounter_ms);
	json_bool(j, "svc", h->flags & MEAS_TASK_SVC);
	json_bool(j, "owned", h->flags & MEAS_TASK_OWNED);
	json_str(j, "load", load_name(h->load_info));
	json_bool(j, "complete", s->ended);
	if (s->ended)
		json_str(j, "end_reason", task_end_text(s));
	else
		json_null(j, "end_reason");
	json_u64(j, "duration_ns", session_ns(s));
	json_u64(j, "samples", s->nsample);
	json_u64(j, "svcs", s->nsvc);
	json_u64(j, "lost", s->lost);
	json_u64(j, "lost_records", s->lost_records);
	json_u64(j, "unknown_records", s->unknown);
	json_u64(j, "anomalies", s->anomalies);
	if (!s->ended) {
		json_null(j, "end");
		return;
	}
	json_obj_begin(j, "end");
	json_u64(j, "cpu_ns", s->end.cpu_ns);
	json_u64(j, "samples", s->end.samples);
	json_u64(j, "kernel_samples", s->end.kernel_samples);
	json_u64(j, "expected_samples", expected_samples(s));
	json_u64(j, "svcs", s->end.svcs);
	json_u64(j, "lost", s->end.lost);
	json_u64(j, "objects_dropped", s->end.objects_dropped);
	json_obj_end(j);
}

/*
 * "object", "offset" and "function" of a place; null where unknown.  A
 * function's samples have many offsets: @exact says this one is the
 * place's own.
 */
static void json_where(struct json *j, const struct trow *r, bool exact)
{
	if (r->object)
		json_str(j, "object", r->object);
	else
		json_null(j, "object");
	if (r->object && (exact || !r->func))
		json_u64(j, "offset", r->offset);
	else
		json_null(j, "offset");
	if (r->func)
		json_str(j, "function", r->func);
	else
		json_null(j, "function");
}

static void json_samples(struct json *j, const struct eval *e,
			 const struct task_report_opts *o)
{
	uint64_t total = e->s->nsample;
	const struct trow *r;
	size_t i, n;

	json_u64(j, "unresolved_samples", e->unresolved);
	json_arr_begin(j, "objects");
	n = rows_shown(&e->objects, o);
	for (i = 0; i < n; i++) {
		r = &e->objects.rows[i];
		json_obj_begin(j, NULL);
		if (r->object)
			json_str(j, "object", r->object);
		else
			json_null(j, "object");
		json_u64(j, "count", r->count);
		json_double(j, "percent", pct(r->count, total));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "functions");
	n = rows_shown(&e->funcs, o);
	for (i = 0; i < n; i++) {
		r = &e->funcs.rows[i];
		json_obj_begin(j, NULL);
		json_where(j, r, false);
		json_u64(j, "count", r->count);
		json_double(j, "percent", pct(r->count, total));
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_call(struct json *j, const struct tf_session *s,
		      const struct trow *r)
{
	char name[32];

	json_u64(j, "nr", r->nr);
	json_str(j, "name", syscall_name(s->head.audit_arch, r->flags, r->nr,
					 name, sizeof(name)));
	json_bool(j, "compat", r->flags & MEAS_TREC_COMPAT);
	json_u64(j, "count", r->count);
}

static void json_svcs(struct json *j, const struct eval *e,
		      const struct task_report_opts *o)
{
	const struct trow *r;
	size_t i, n;

	json_arr_begin(j, "syscalls");
	n = rows_shown(&e->calls, o);
	for (i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_call(j, e->s, &e->calls.rows[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "syscall_sites");
	n = rows_shown(&e->sites, o);
	for (i = 0; i < n; i++) {
		r = &e->sites.rows[i];
		json_obj_begin(j, NULL);
		json_call(j, e->s, r);
		json_where(j, r, true);
		if (!r->object)
			json_u64(j, "address", r->offset);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_object(struct json *j, const struct tf_object *o)
{
	char prot[4];

	prot_text(o->prot, prot);
	json_u64(j, "start", o->start);
	json_u64(j, "end", o->end);
	json_u64(j, "pgoff", o->pgoff);
	json_str(j, "prot", prot);
	json_u64(j, "ino", o->ino);
	json_u64(j, "dev", o->dev);
	json_str(j, "name", o->name);
}

static void json_loads(struct json *j, const struct tf_session *s)
{
	const struct tf_load *l;
	const struct tf_event *ev;
	size_t i, k;

	json_arr_begin(j, "load_info");
	for (i = 0; i < s->nload; i++) {
		l = &s->load[i];
		json_obj_begin(j, NULL);
		json_u64(j, "gen", l->gen);
		json_str(j, "kind", tf_load_kind_name(l->kind));
		json_u64(j, "time_ns", l->time_ns - s->head.h.time_ns);
		json_bool(j, "closed", l->closed);
		json_u64(j, "declared", l->declared);
		json_arr_begin(j, "objects");
		for (k = l->first; k < l->first + l->n; k++) {
			json_obj_begin(j, NULL);
			json_object(j, &s->obj[k]);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "events");
	for (i = 0; i < s->nev; i++) {
		ev = &s->ev[i];
		json_obj_begin(j, NULL);
		json_str(j, "type", ev->type == MEAS_TREC_EXEC ? "exec" :
			 ev->type == MEAS_TREC_MAP ? "map" : "unmap");
		json_u64(j, "gen", ev->gen);
		json_u64(j, "time_ns", ev->time_ns - s->head.h.time_ns);
		json_u64(j, "tid", ev->tid);
		if (ev->type == MEAS_TREC_MAP) {
			json_object(j, &s->obj[ev->obj]);
		} else if (ev->type == MEAS_TREC_UNMAP) {
			json_u64(j, "start", ev->start);
			json_u64(j, "end", ev->end);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

void task_report_json(struct json *j, const struct tf_session *s,
		      const struct task_report_opts *o)
{
	struct eval e;

	eval_run(&e, s);
	json_header(j, s);
	json_samples(j, &e, o);
	json_svcs(j, &e, o);
	json_loads(j, s);
	eval_free(&e);
}

/* ---- the flame graph ------------------------------------------------------ */

/* A frame name: no ';', no spaces. */
static void flame_frame(char *dst, size_t len, const char *src)
{
	size_t i;

	snprintf(dst, len, "%s", src);
	for (i = 0; dst[i]; i++)
		if (dst[i] == ';' || dst[i] == ' ')
			dst[i] = '_';
}

/* object;function of each place sampled; 0 or -errno. */
static int task_flame(struct flame *fl, const struct tf_session *s)
{
	char obj[512], fn[512], stack[1100], off[32];
	const struct trow *r;
	struct eval e;
	size_t i;
	int err = 0;

	eval_run(&e, s);
	for (i = 0; i < e.funcs.n && !err; i++) {
		r = &e.funcs.rows[i];
		flame_frame(obj, sizeof(obj),
			    r->object ? base_name(r->object) : "[unknown]");
		snprintf(off, sizeof(off), "+0x%" PRIx64, r->offset);
		flame_frame(fn, sizeof(fn), r->func ? r->func : off);
		if (r->object)
			snprintf(stack, sizeof(stack), "%s;%s", obj, fn);
		else
			snprintf(stack, sizeof(stack), "%s", obj);
		err = flame_add(fl, stack, r->count);
	}
	eval_free(&e);
	return err;
}

static int task_svg(struct cmd_ctx *ctx, const struct tf_session *s,
		    const char *file, const char *path)
{
	char title[512];
	struct flame fl;
	FILE *f;
	int err, rc = EXIT_OK;

	if (flame_init(&fl))
		return fail(ctx, ENOMEM, "flame graph");
	err = task_flame(&fl, s);
	if (err) {
		flame_free(&fl);
		return fail(ctx, -err, "flame graph");
	}
	snprintf(title, sizeof(title), "measctl task report: %s, session %llu",
		 file, (unsigned long long)s->head.session);
	f = fopen(path, "we");
	if (!f) {
		rc = fail(ctx, errno, "cannot write %s", path);
	} else {
		flame_svg(f, &fl, title,
			  "program counter samples of CPU time: object, function", true);
		if (fclose(f))
			rc = fail(ctx, errno, "cannot write %s", path);
	}
	flame_free(&fl);
	return rc;
}

/* ---- the command ---------------------------------------------------------- */

struct report_args {
	struct task_report_opts o;
	const char *svg;
	bool all;
	bool have_session;
	uint64_t session;
};

static int report_opt(struct cmd_ctx *ctx, int id, const char *arg,
		      void *data)
{
	struct report_args *a = data;
	uint64_t v;

	switch (id) {
	case 'a':
		a->all = true;
		return EXIT_OK;
	case 's':
		if (parse_u64(arg, UINT64_MAX, &a->session))
			return usage_error(ctx, "bad session number '%s' (a decimal number, as the report's header prints it)",
					   arg);
		a->have_session = true;
		return EXIT_OK;
	case 'g':
		a->svg = arg;
		return EXIT_OK;
	default:
		if (parse_u64(arg, SIZE_MAX, &v))
			return usage_error(ctx, "bad --top '%s' (0 or more lines)",
					   arg);
		a->o.top = v;
		return EXIT_OK;
	}
}

/* What is wrong with the file, on stderr; true if it is more than a cut. */
static bool report_problems(struct cmd_ctx *ctx, const char *path,
			    const struct tf_file *f)
{
	if (f->truncated)
		warnx_ctx(ctx, "%s: the last record (offset %" PRIu64
			  ") is incomplete: the file was cut short", path,
			  f->trunc_off);
	if (f->err)
		warnx_ctx(ctx, "%s: offset %" PRIu64 ": %s%s", path,
			  f->err_off, f->msg,
			  f->n ? "; reporting the sessions before it" : "");
	return f->err;
}

static void report_json_doc(const char *path, const struct tf_file *f,
			    const struct report_args *a,
			    const struct tf_session *only)
{
	struct json j;
	size_t i;

	json_doc_ok(&j, stdout, "task", !f->err);
	json_str(&j, "subcommand", "report");
	json_str(&j, "file", path);
	json_u64(&j, "size", f->size);
	json_bool(&j, "truncated", f->truncated);
	if (f->err) {
		json_str(&j, "error", f->msg);
		json_u64(&j, "error_offset", f->err_off);
	}
	json_arr_begin(&j, "sessions");
	for (i = 0; i < f->n; i++) {
		if (only && &f->s[i] != only)
			continue;
		json_obj_begin(&j, NULL);
		task_report_json(&j, &f->s[i], &a->o);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_doc_end(&j);
}

static int report_file(struct cmd_ctx *ctx, const char *path,
		       const struct report_args *a)
{
	const struct tf_session *only = NULL;
	struct tf_file f;
	bool bad;
	size_t i;
	int err;

	err = tf_load(path, &f);
	if (err && !f.n) {
		if (f.err)
			return fail(ctx, 0, "%s: offset %" PRIu64 ": %s", path,
				    f.err_off, f.msg);
		return fail(ctx, -err, "cannot read %s", path);
	}
	if (!f.n) {
		tf_free(&f);
		return fail(ctx, 0, "%s: no measurement in the file", path);
	}
	if (a->have_session) {
		only = tf_find_session(&f, a->session);
		if (!only) {
			tf_free(&f);
			return fail(ctx, 0, "%s: no session %" PRIu64, path,
				    a->session);
		}
	} else if (!a->all) {
		only = &f.s[f.n - 1];	/* the latest measurement */
	}
	bad = report_problems(ctx, path, &f);
	if (a->svg && task_svg(ctx, only, path, a->svg)) {
		tf_free(&f);
		return EXIT_FAIL;
	}
	if (ctx->json) {
		report_json_doc(path, &f, a, only);
	} else {
		for (i = 0; i < f.n; i++) {
			if (only && &f.s[i] != only)
				continue;
			task_report_text(stdout, &f.s[i], &a->o);
			if (i + 1 < f.n && !only)
				fputc('\n', stdout);
		}
	}
	tf_free(&f);
	return bad ? EXIT_FAIL : EXIT_OK;
}

static int task_report(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "all", 'a', OPT_NONE, 'a' },
		{ "session", 's', OPT_ARG, 's' },
		{ "top", 'n', OPT_ARG, 'n' },
		{ "svg", 0, OPT_ARG, 'g' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct report_args a = { .o = { .top = TASK_REPORT_TOP } };
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, report_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.npos != 1)
		return usage_error(ctx, "task report takes one FILE");
	if (a.all && a.have_session)
		return usage_error(ctx, "--all and --session exclude each other");
	if (a.all && a.svg)
		return usage_error(ctx, "--svg draws one session, not --all");
	return report_file(ctx, st.pos[0], &a);
}

const struct command task_report_command = {
	.name = "report",
	.fn = task_report,
	.args = "[--session N|--all] [--top N] [--svg OUT] FILE",
};

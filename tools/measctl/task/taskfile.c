// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: parse task measurement files (taskfile.h).  Records are read
 * by their size, so unknown types are skipped and larger versions of
 * known ones accepted; every field is copied out with memcpy(), so a
 * file of any alignment and content is read without undefined
 * behaviour.  Load blocks out of order (a record lost from the middle of
 * one) are counted, not fatal.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "task/taskfile.h"

#define TF_HEAD		sizeof(struct meas_trec)

/* Room for one more element of *@p (@cap of them, @n used). */
static int tf_grow(void **p, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *np;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

static __attribute__((format(printf, 4, 5)))
int tf_error(struct tf_file *f, int err, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	f->err = err;
	f->err_off = off;
	return err;
}

static struct tf_session *tf_cur(struct tf_file *f)
{
	return f->n ? &f->s[f->n - 1] : NULL;
}

static int tf_session(struct tf_file *f, const void *rec, uint64_t off)
{
	struct meas_trec_session h;
	struct tf_session *s;

	memcpy(&h, rec, sizeof(h));
	if (memcmp(h.magic, MEAS_TASK_MAGIC, sizeof(h.magic)))
		return tf_error(f, -EMEDIUMTYPE, off,
				"bad magic: not a meas task file");
	if (h.version != MEAS_TASK_VERSION)
		return tf_error(f, -EBADMSG, off,
				"session of version %u (this reader knows %u)",
				h.version, MEAS_TASK_VERSION);
	if (tf_grow((void **)&f->s, &f->cap, f->n, sizeof(*f->s)))
		return -ENOMEM;
	s = &f->s[f->n++];
	memset(s, 0, sizeof(*s));
	s->offset = off;
	s->head = h;
	s->head.comm[sizeof(h.comm) - 1] = '\0';
	s->head.release[sizeof(h.release) - 1] = '\0';
	s->open_load = TF_NO_LOAD;
	return 0;
}

static void tf_gen_seen(struct tf_session *s, uint32_t gen)
{
	if (gen > s->max_gen)
		s->max_gen = gen;
}

/* OBJECT and MAP: the fixed part, then a NUL-terminated name inside. */
static int tf_object(struct tf_file *f, struct tf_session *s,
		     const unsigned char *rec, uint16_t size, uint64_t off)
{
	struct meas_trec_object r;
	size_t room = size - sizeof(r);
	struct tf_object *o;

	memcpy(&r, rec, sizeof(r));
	if (!r.name_len || r.name_len > room ||
	    rec[sizeof(r) + r.name_len - 1] != '\0')
		return tf_error(f, -EBADMSG, off,
				"object name of %u bytes in a record of %u",
				r.name_len, size);
	if (tf_grow((void **)&s->obj, &s->cap_obj, s->nobj, sizeof(*s->obj)))
		return -ENOMEM;
	o = &s->obj[s->nobj];
	o->name = strdup((const char *)rec + sizeof(r));
	if (!o->name)
		return -ENOMEM;
	s->nobj++;
	o->start = r.start;
	o->end = r.end;
	o->pgoff = r.pgoff;
	o->ino = r.ino;
	o->dev = r.dev;
	o->prot = r.prot;
	o->gen = r.gen;
	o->seq = s->records;
	o->until = TF_FOREVER;
	o->time_ns = r.h.time_ns;
	o->load = r.h.type == MEAS_TREC_MAP ? TF_NO_LOAD : s->open_load;
	tf_gen_seen(s, r.gen);
	if (r.h.type == MEAS_TREC_OBJECT) {
		if (s->open_load == TF_NO_LOAD)
			s->anomalies++;
		else
			s->load[s->open_load].n++;
	}
	return 0;
}

static int tf_event(struct tf_session *s, uint16_t type, uint32_t gen,
		    const struct meas_trec *h, uint64_t start, uint64_t end)
{
	struct tf_event *e;

	if (tf_grow((void **)&s->ev, &s->cap_ev, s->nev, sizeof(*s->ev)))
		return -ENOMEM;
	e = &s->ev[s->nev++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->gen = gen;
	e->tid = h->tid;
	e->seq = s->records;
	e->time_ns = h->time_ns;
	e->start = start;
	e->end = end;
	e->obj = s->nobj - 1;	/* MAP: the object just added */
	tf_gen_seen(s, gen);
	return 0;
}

static int tf_map(struct tf_file *f, struct tf_session *s,
		  const unsigned char *rec, uint16_t size, uint64_t off)
{
	struct meas_trec_object r;
	int err = tf_object(f, s, rec, size, off);

	if (err)
		return err;
	memcpy(&r, rec, sizeof(r));
	return tf_event(s, MEAS_TREC_MAP, r.gen, &r.h, r.start, r.end);
}

/* Objects of the generation overlapping the range end here. */
static int tf_unmap(struct tf_session *s, const void *rec)
{
	struct meas_trec_unmap r;
	struct tf_object *o;
	size_t i;

	memcpy(&r, rec, sizeof(r));
	for (i = 0; i < s->nobj; i++) {
		o = &s->obj[i];
		if (o->gen == r.gen && o->until == TF_FOREVER &&
		    o->start < r.end && r.start < o->end)
			o->until = s->records;
	}
	return tf_event(s, MEAS_TREC_UNMAP, r.gen, &r.h, r.start, r.end);
}

static int tf_load_begin(struct tf_session *s, const void *rec)
{
	struct meas_trec_load r;
	struct tf_load *l;

	memcpy(&r, rec, sizeof(r));
	if (s->open_load != TF_NO_LOAD)
		s->anomalies++;	/* its LOAD_END is missing */
	if (tf_grow((void **)&s->load, &s->cap_load, s->nload, sizeof(*s->load)))
		return -ENOMEM;
	l = &s->load[s->nload];
	memset(l, 0, sizeof(*l));
	l->kind = r.kind;
	l->gen = r.gen;
	l->seq = s->records;
	l->time_ns = r.h.time_ns;
	l->first = s->nobj;
	s->open_load = s->nload++;
	tf_gen_seen(s, r.gen);
	return 0;
}

static void tf_load_end(struct tf_session *s, const void *rec)
{
	struct meas_trec_load r;
	struct tf_load *l;

	memcpy(&r, rec, sizeof(r));
	if (s->open_load == TF_NO_LOAD) {
		s->anomalies++;
		return;
	}
	l = &s->load[s->open_load];
	l->declared = r.objects;
	l->closed = true;
	if (r.kind != l->kind || r.gen != l->gen)
		s->anomalies++;
	s->open_load = TF_NO_LOAD;
}

static int tf_sample(struct tf_session *s, const void *rec)
{
	struct meas_trec_sample r;
	struct tf_sample *x;

	memcpy(&r, rec, sizeof(r));
	if (tf_grow((void **)&s->sample, &s->cap_sample, s->nsample, sizeof(*s->sample)))
		return -ENOMEM;
	x = &s->sample[s->nsample++];
	x->ip = r.ip;
	x->seq = s->records;
	x->gen = r.gen;
	x->tid = r.h.tid;
	tf_gen_seen(s, r.gen);
	return 0;
}

static int tf_svc(struct tf_session *s, const void *rec)
{
	struct meas_trec_svc r;
	struct tf_svc *x;

	memcpy(&r, rec, sizeof(r));
	if (tf_grow((void **)&s->svc, &s->cap_svc, s->nsvc, sizeof(*s->svc)))
		return -ENOMEM;
	x = &s->svc[s->nsvc++];
	x->ip = r.ip;
	x->seq = s->records;
	x->nr = r.nr;
	x->flags = r.flags;
	x->gen = r.gen;
	x->tid = r.h.tid;
	tf_gen_seen(s, r.gen);
	return 0;
}

/* The smallest size a record of @type may have; 0 for unknown types. */
static size_t tf_min_size(uint16_t type)
{
	switch (type) {
	case MEAS_TREC_SESSION:
		return sizeof(struct meas_trec_session);
	case MEAS_TREC_END:
		return sizeof(struct meas_trec_end);
	case MEAS_TREC_SAMPLE:
		return sizeof(struct meas_trec_sample);
	case MEAS_TREC_SVC:
		return sizeof(struct meas_trec_svc);
	case MEAS_TREC_LOAD_BEGIN:
	case MEAS_TREC_LOAD_END:
	case MEAS_TREC_EXEC:
		return sizeof(struct meas_trec_load);
	case MEAS_TREC_OBJECT:
	case MEAS_TREC_MAP:
		return sizeof(struct meas_trec_object) + 1;
	case MEAS_TREC_UNMAP:
		return sizeof(struct meas_trec_unmap);
	case MEAS_TREC_LOST:
		return sizeof(struct meas_trec_lost);
	default:
		return 0;
	}
}

static int tf_record_in(struct tf_file *f, struct tf_session *s,
			const unsigned char *rec, const struct meas_trec *h,
			uint64_t off)
{
	struct meas_trec_load l;
	struct meas_trec_lost lost;

	switch (h->type) {
	case MEAS_TREC_END:
		memcpy(&s->end, rec, sizeof(s->end));
		s->ended = true;
		return 0;
	case MEAS_TREC_SAMPLE:
		return tf_sample(s, rec);
	case MEAS_TREC_SVC:
		return tf_svc(s, rec);
	case MEAS_TREC_LOAD_BEGIN:
		return tf_load_begin(s, rec);
	case MEAS_TREC_LOAD_END:
		tf_load_end(s, rec);
		return 0;
	case MEAS_TREC_OBJECT:
		return tf_object(f, s, rec, h->size, off);
	case MEAS_TREC_MAP:
		return tf_map(f, s, rec, h->size, off);
	case MEAS_TREC_UNMAP:
		return tf_unmap(s, rec);
	case MEAS_TREC_EXEC:
		memcpy(&l, rec, sizeof(l));
		return tf_event(s, MEAS_TREC_EXEC, l.gen, h, 0, 0);
	case MEAS_TREC_LOST:
		memcpy(&lost, rec, sizeof(lost));
		s->lost += lost.count;
		s->lost_records++;
		return 0;
	default:
		s->unknown++;
		return 0;
	}
}

static int tf_record(struct tf_file *f, const unsigned char *rec,
		     const struct meas_trec *h, uint64_t off)
{
	struct tf_session *s;
	int err;

	if (h->size < tf_min_size(h->type))
		return tf_error(f, -EBADMSG, off,
				"record of type %u too short (%u bytes)",
				h->type, h->size);
	if (h->type == MEAS_TREC_SESSION)
		err = tf_session(f, rec, off);
	else if (!f->n)
		return tf_error(f, -EMEDIUMTYPE, off,
				"no session record: not a meas task file");
	else if (tf_cur(f)->ended)
		return tf_error(f, -EBADMSG, off,
				"record of type %u after the end of session %llu",
				h->type,
				(unsigned long long)tf_cur(f)->head.session);
	else
		err = tf_record_in(f, tf_cur(f), rec, h, off);
	if (err)
		return err;
	s = tf_cur(f);
	s->records++;
	s->last_ns = h->time_ns;
	return 0;
}

int tf_parse(const void *buf, size_t len, struct tf_file *f)
{
	const unsigned char *p = buf;
	struct meas_trec h;
	uint64_t off = 0;
	int err;

	memset(f, 0, sizeof(*f));
	while (off < len) {
		if (len - off < TF_HEAD)
			goto truncated;
		memcpy(&h, p + off, sizeof(h));
		if (!off && (h.size < TF_HEAD || h.size % 8))
			return tf_error(f, -EMEDIUMTYPE, off,
					"not a meas task file");
		if (h.size < TF_HEAD || h.size % 8)
			return tf_error(f, -EBADMSG, off,
					"record size %u is not a multiple of 8 of at least %zu",
					h.size, TF_HEAD);
		if (h.size > len - off)
			goto truncated;
		err = tf_record(f, p + off, &h, off);
		if (err && !f->err)
			tf_error(f, err, off, "%s", strerror(-err));
		if (err)
			return err;
		off += h.size;
		f->size = off;
	}
	return 0;
truncated:
	f->truncated = true;
	f->trunc_off = off;
	return 0;
}

int tf_load(const char *path, struct tf_file *f)
{
	struct stat st;
	void *buf = NULL;
	size_t got = 0;
	ssize_t n;
	int fd, err = 0;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	/* What is there now; a measurement may still be appending. */
	while (got < (size_t)st.st_size) {
		n = read(fd, (char *)buf + got, st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if (!n)
			break;
		got += n;
	}
	err = tf_parse(buf, got, f);
out:
	free(buf);
	close(fd);
	return err;
}

static void tf_session_free(struct tf_session *s)
{
	size_t i;

	for (i = 0; i < s->nobj; i++)
		free(s->obj[i].name);
	free(s->obj);
	free(s->load);
	free(s->ev);
	free(s->sample);
	free(s->svc);
}

void tf_free(struct tf_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		tf_session_free(&f->s[i]);
	free(f->s);
	memset(f, 0, sizeof(*f));
}

const struct tf_session *tf_find_session(const struct tf_file *f,
					 uint64_t session)
{
	size_t i;

	for (i = f->n; i-- > 0;)
		if (f->s[i].head.session == session)
			return &f->s[i];
	return NULL;
}

/* Is @a a better answer than @b for a record at @seq? */
static bool tf_better(const struct tf_object *a, const struct tf_object *b,
		      uint64_t seq)
{
	bool a_before = a->seq < seq, b_before = b->seq < seq;

	if (a_before != b_before)
		return a_before;
	return a_before ? a->seq > b->seq : a->seq < b->seq;
}

const struct tf_object *tf_resolve(const struct tf_session *s, uint32_t gen,
				   uint64_t ip, uint64_t seq)
{
	const struct tf_object *o, *best = NULL;
	size_t i;

	for (i = 0; i < s->nobj; i++) {
		o = &s->obj[i];
		if (o->gen != gen || ip < o->start || ip >= o->end)
			continue;
		if (o->until <= seq)
			continue;	/* unmapped before */
		if (o->load == TF_NO_LOAD && o->seq > seq)
			continue;	/* mapped after */
		if (!best || tf_better(o, best, seq))
			best = o;
	}
	return best;
}

const char *tf_end_reason_name(uint32_t reason)
{
	switch (reason) {
	case MEAS_TASK_END_STOP:
		return "stop";
	case MEAS_TASK_END_EXIT:
		return "exit";
	case MEAS_TASK_END_RELEASE:
		return "release";
	case MEAS_TASK_END_UNLOAD:
		return "unload";
	case MEAS_TASK_END_DENIED:
		return "denied";
	default:
		return "unknown";
	}
}

const char *tf_load_kind_name(uint32_t kind)
{
	switch (kind) {
	case MEAS_TASK_LOAD_START:
		return "start";
	case MEAS_TASK_LOAD_EXEC_END:
		return "exec-end";
	case MEAS_TASK_LOAD_EXEC:
		return "exec";
	case MEAS_TASK_LOAD_END:
		return "end";
	default:
		return "unknown";
	}
}

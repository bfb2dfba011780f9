// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the task file reader (tools/measctl/task/taskfile.c):
 * files built record by record in memory, good and bad, and the
 * resolution of addresses by generation and by the time they were
 * recorded.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "task/taskfile.h"

/* ---- a file under construction ---- */

struct tbuf {
	unsigned char *p;
	size_t len, cap;
	uint64_t t;	/* time_ns of the next record */
};

static void *tb_rec(struct tbuf *b, uint16_t type, size_t size)
{
	struct meas_trec *h;
	void *r;

	if (b->len + size > b->cap) {
		b->cap = (b->len + size) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	r = b->p + b->len;
	memset(r, 0, size);
	h = r;
	h->type = type;
	h->size = size;
	h->tid = 100;
	h->time_ns = b->t += 1000;
	b->len += size;
	return r;
}

static void tb_session(struct tbuf *b, uint64_t session, uint32_t flags,
		       uint32_t load_info)
{
	struct meas_trec_session *s = tb_rec(b, MEAS_TREC_SESSION, sizeof(*s));

	memcpy(s->magic, MEAS_TASK_MAGIC, sizeof(s->magic));
	s->version = MEAS_TASK_VERSION;
	s->flags = flags;
	s->session = session;
	s->pcounter_ms = 1;
	s->load_info = load_info;
	s->page_size = 4096;
	strcpy(s->comm, "prog");
	strcpy(s->release, "6.1.0-test");
}

static void tb_load(struct tbuf *b, uint16_t type, uint32_t kind,
		    uint32_t gen, uint32_t objects)
{
	struct meas_trec_load *l = tb_rec(b, type, sizeof(*l));

	l->kind = type == MEAS_TREC_EXEC ? 0 : kind;
	l->gen = gen;
	l->objects = objects;
}

static void tb_object(struct tbuf *b, uint16_t type, uint64_t start,
		      uint64_t end, uint64_t pgoff, uint32_t gen,
		      const char *name)
{
	size_t nl = strlen(name) + 1;
	size_t size = (sizeof(struct meas_trec_object) + nl + 7) & ~7UL;
	struct meas_trec_object *o = tb_rec(b, type, size);

	o->start = start;
	o->end = end;
	o->pgoff = pgoff;
	o->prot = MEAS_TREC_PROT_READ | MEAS_TREC_PROT_EXEC;
	o->gen = gen;
	o->name_len = nl;
	memcpy(o->name, name, nl);
}

/* A whole load block of one object. */
static void tb_block(struct tbuf *b, uint32_t kind, uint32_t gen,
		     uint64_t start, uint64_t end, uint64_t pgoff,
		     const char *name)
{
	tb_load(b, MEAS_TREC_LOAD_BEGIN, kind, gen, 0);
	tb_object(b, MEAS_TREC_OBJECT, start, end, pgoff, gen, name);
	tb_load(b, MEAS_TREC_LOAD_END, kind, gen, 1);
}

static void tb_sample(struct tbuf *b, uint64_t ip, uint32_t gen)
{
	struct meas_trec_sample *s = tb_rec(b, MEAS_TREC_SAMPLE, sizeof(*s));

	s->ip = ip;
	s->gen = gen;
}

static void tb_svc(struct tbuf *b, uint64_t ip, uint32_t nr, uint32_t gen)
{
	struct meas_trec_svc *s = tb_rec(b, MEAS_TREC_SVC, sizeof(*s));

	s->ip = ip;
	s->nr = nr;
	s->gen = gen;
}

static void tb_unmap(struct tbuf *b, uint64_t start, uint64_t end,
		     uint32_t gen)
{
	struct meas_trec_unmap *u = tb_rec(b, MEAS_TREC_UNMAP, sizeof(*u));

	u->start = start;
	u->end = end;
	u->gen = gen;
}

static void tb_lost(struct tbuf *b, uint64_t count)
{
	struct meas_trec_lost *l = tb_rec(b, MEAS_TREC_LOST, sizeof(*l));

	l->count = count;
}

static void tb_end(struct tbuf *b, uint32_t reason, uint64_t samples)
{
	struct meas_trec_end *e = tb_rec(b, MEAS_TREC_END, sizeof(*e));

	e->reason = reason;
	e->samples = samples;
	e->cpu_ns = 5000000;
}

/* SESSION, a start block with /bin/prog at 0x400000, two samples, END. */
static void tb_simple(struct tbuf *b, uint64_t session)
{
	tb_session(b, session, 0, MEAS_TASK_LOAD_STD);
	tb_block(b, MEAS_TASK_LOAD_START, 0, 0x400000, 0x401000, 0x1000,
		 "/bin/prog");
	tb_sample(b, 0x400010, 0);
	tb_sample(b, 0x400020, 0);
	tb_block(b, MEAS_TASK_LOAD_END, 0, 0x400000, 0x401000, 0x1000,
		 "/bin/prog");
	tb_end(b, MEAS_TASK_END_EXIT, 2);
}

/* The name of the object @ip of @gen at the @i-th sample resolves to. */
static const char *sample_obj(const struct tf_session *s, size_t i,
			      uint64_t *off)
{
	const struct tf_sample *x = &s->sample[i];
	const struct tf_object *o = tf_resolve(s, x->gen, x->ip, x->seq);

	if (!o)
		return NULL;
	*off = tf_file_offset(o, x->ip);
	return o->name;
}

FIXTURE(tf) {
	struct tbuf b;
	struct tf_file f;
};

FIXTURE_SETUP(tf)
{
	memset(&self->b, 0, sizeof(self->b));
	memset(&self->f, 0, sizeof(self->f));
}

FIXTURE_TEARDOWN(tf)
{
	tf_free(&self->f);
	free(self->b.p);
}

TEST_F(tf, one_complete_session)
{
	const struct tf_session *s;
	uint64_t off = 0;

	tb_simple(&self->b, 7);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	ASSERT_EQ(1, self->f.n);
	s = &self->f.s[0];
	EXPECT_EQ(7, s->head.session);
	EXPECT_STREQ("prog", s->head.comm);
	EXPECT_TRUE(s->ended);
	EXPECT_EQ(MEAS_TASK_END_EXIT, s->end.reason);
	EXPECT_EQ(2, s->nsample);
	EXPECT_EQ(2, s->nload);
	EXPECT_EQ(1, s->load[0].n);
	EXPECT_EQ(1, s->load[0].declared);
	EXPECT_TRUE(s->load[0].closed);
	EXPECT_EQ(0, s->anomalies);
	EXPECT_EQ(0, s->unknown);
	EXPECT_FALSE(self->f.truncated);
	EXPECT_EQ(self->b.len, self->f.size);
	EXPECT_STREQ("/bin/prog", sample_obj(s, 0, &off));
	EXPECT_EQ(0x1010, off);
	EXPECT_STREQ("exit", tf_end_reason_name(s->end.reason));
	EXPECT_STREQ("exec-end", tf_load_kind_name(MEAS_TASK_LOAD_EXEC_END));
}

TEST_F(tf, empty_file_has_no_session)
{
	EXPECT_EQ(0, tf_parse("", 0, &self->f));
	EXPECT_EQ(0, self->f.n);
	EXPECT_FALSE(self->f.truncated);
}

TEST_F(tf, unknown_record_type_skipped)
{
	struct meas_trec *u;

	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_STD);
	u = tb_rec(&self->b, 200, 48);	/* a future type, with a body */
	memset(u + 1, 0xff, 48 - sizeof(*u));
	tb_sample(&self->b, 0x1234, 0);
	tb_end(&self->b, MEAS_TASK_END_STOP, 1);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	ASSERT_EQ(1, self->f.n);
	EXPECT_EQ(1, self->f.s[0].unknown);
	EXPECT_EQ(1, self->f.s[0].nsample);
	EXPECT_EQ(0x1234, self->f.s[0].sample[0].ip);
	EXPECT_TRUE(self->f.s[0].ended);
}

TEST_F(tf, larger_known_record_accepted)
{
	struct meas_trec_sample *s;

	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_STD);
	s = tb_rec(&self->b, MEAS_TREC_SAMPLE, sizeof(*s) + 16);
	s->ip = 0x42;
	tb_sample(&self->b, 0x43, 0);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	ASSERT_EQ(2, self->f.s[0].nsample);
	EXPECT_EQ(0x42, self->f.s[0].sample[0].ip);
	EXPECT_EQ(0x43, self->f.s[0].sample[1].ip);
}

TEST_F(tf, truncated_last_record_reported)
{
	size_t whole;

	tb_session(&self->b, 3, 0, MEAS_TASK_LOAD_STD);
	tb_sample(&self->b, 0x10, 0);
	whole = self->b.len;
	tb_sample(&self->b, 0x20, 0);
	/* cut inside the last record's body */
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len - 8, &self->f));
	EXPECT_TRUE(self->f.truncated);
	EXPECT_EQ(whole, self->f.trunc_off);
	EXPECT_EQ(whole, self->f.size);
	ASSERT_EQ(1, self->f.n);
	EXPECT_EQ(1, self->f.s[0].nsample);
	EXPECT_FALSE(self->f.s[0].ended);
	tf_free(&self->f);
	/* and inside its head */
	ASSERT_EQ(0, tf_parse(self->b.p, whole + 5, &self->f));
	EXPECT_TRUE(self->f.truncated);
	EXPECT_EQ(whole, self->f.trunc_off);
	EXPECT_EQ(1, self->f.s[0].nsample);
}

TEST_F(tf, bad_magic_refused)
{
	struct meas_trec_session *s;

	tb_simple(&self->b, 1);
	s = (struct meas_trec_session *)self->b.p;
	s->magic[0] = 'X';
	EXPECT_EQ(-EMEDIUMTYPE, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(0, self->f.n);
	EXPECT_EQ(0, self->f.err_off);
	EXPECT_NE(NULL, strstr(self->f.msg, "magic"));
}

TEST_F(tf, not_starting_with_a_session_refused)
{
	tb_sample(&self->b, 0x10, 0);
	EXPECT_EQ(-EMEDIUMTYPE, tf_parse(self->b.p, self->b.len, &self->f));
	tf_free(&self->f);
	/* nor with garbage of a bad record size */
	memset(self->b.p, 'A', self->b.len);
	EXPECT_EQ(-EMEDIUMTYPE, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(0, self->f.n);
}

TEST_F(tf, other_version_refused)
{
	struct meas_trec_session *s;

	tb_simple(&self->b, 1);
	s = (struct meas_trec_session *)self->b.p;
	s->version = MEAS_TASK_VERSION + 1;
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(0, self->f.n);
}

TEST_F(tf, bad_record_size_keeps_what_came_before)
{
	struct meas_trec *h;
	size_t at;

	tb_simple(&self->b, 1);
	at = self->b.len;
	tb_session(&self->b, 2, 0, MEAS_TASK_LOAD_STD);
	h = tb_rec(&self->b, MEAS_TREC_SAMPLE, sizeof(struct meas_trec_sample));
	h->size = 20;	/* not a multiple of 8 */
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(at + sizeof(struct meas_trec_session), self->f.err_off);
	ASSERT_EQ(2, self->f.n);
	EXPECT_TRUE(self->f.s[0].ended);
	tf_free(&self->f);
	h->size = 8;	/* smaller than the head */
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
}

TEST_F(tf, known_record_too_short_refused)
{
	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_STD);
	tb_rec(&self->b, MEAS_TREC_SVC, 24);
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(sizeof(struct meas_trec_session), self->f.err_off);
}

TEST_F(tf, object_name_must_be_terminated_inside)
{
	struct meas_trec_object *o;
	size_t at;

	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_DETAILED);
	at = self->b.len;
	tb_object(&self->b, MEAS_TREC_MAP, 0x1000, 0x2000, 0, 0, "/lib/x.so");
	o = (struct meas_trec_object *)(self->b.p + at);
	o->name_len = o->h.size;	/* beyond the record */
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
	tf_free(&self->f);
	o->name_len = 3;		/* "/li" has no NUL */
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
	tf_free(&self->f);
	o->name_len = 0;
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(at, self->f.err_off);
}

TEST_F(tf, record_after_end_refused)
{
	tb_simple(&self->b, 1);
	tb_sample(&self->b, 0x10, 0);
	EXPECT_EQ(-EBADMSG, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(1, self->f.n);
}

TEST_F(tf, two_sessions_appended)
{
	tb_simple(&self->b, 11);
	tb_simple(&self->b, 12);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	ASSERT_EQ(2, self->f.n);
	EXPECT_EQ(11, self->f.s[0].head.session);
	EXPECT_EQ(12, self->f.s[1].head.session);
	EXPECT_EQ(0, self->f.s[0].offset);
	EXPECT_EQ(self->b.len / 2, self->f.s[1].offset);
	EXPECT_EQ(&self->f.s[1], tf_find_session(&self->f, 12));
	EXPECT_EQ(NULL, tf_find_session(&self->f, 13));
	EXPECT_EQ(2, self->f.s[1].nsample);
}

TEST_F(tf, session_cut_short_then_another)
{
	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_STD);
	tb_sample(&self->b, 0x10, 0);
	tb_simple(&self->b, 2);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	ASSERT_EQ(2, self->f.n);
	EXPECT_FALSE(self->f.s[0].ended);
	EXPECT_TRUE(self->f.s[1].ended);
}

TEST_F(tf, object_moved_by_exec)
{
	const struct tf_session *s;
	uint64_t off = 0;

	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_STD);
	tb_block(&self->b, MEAS_TASK_LOAD_START, 0, 0x7000, 0x8000, 0x2000,
		 "/lib/libc.so.6");
	tb_sample(&self->b, 0x7010, 0);
	tb_load(&self->b, MEAS_TREC_EXEC, 0, 1, 0);
	tb_block(&self->b, MEAS_TASK_LOAD_EXEC_END, 0, 0x7000, 0x8000, 0x2000,
		 "/lib/libc.so.6");
	tb_block(&self->b, MEAS_TASK_LOAD_EXEC, 1, 0x9000, 0xa000, 0x2000,
		 "/lib/libc.so.6");
	tb_sample(&self->b, 0x9010, 1);
	tb_sample(&self->b, 0x7010, 1);	/* libc is not there any more */
	tb_svc(&self->b, 0x9020, 39, 1);
	tb_end(&self->b, MEAS_TASK_END_EXIT, 3);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	s = &self->f.s[0];
	EXPECT_EQ(1, s->max_gen);
	ASSERT_EQ(1, s->nev);
	EXPECT_EQ(MEAS_TREC_EXEC, s->ev[0].type);
	ASSERT_EQ(3, s->nsample);
	EXPECT_STREQ("/lib/libc.so.6", sample_obj(s, 0, &off));
	EXPECT_EQ(0x2010, off);
	EXPECT_STREQ("/lib/libc.so.6", sample_obj(s, 1, &off));
	EXPECT_EQ(0x2010, off);
	EXPECT_EQ(1, s->obj[2].gen);
	EXPECT_EQ(NULL, sample_obj(s, 2, &off));
	ASSERT_EQ(1, s->nsvc);
	EXPECT_EQ(&s->obj[2], tf_resolve(s, 1, 0x9020, s->svc[0].seq));
}

TEST_F(tf, unmapped_object_still_resolves_older_samples)
{
	const struct tf_session *s;
	uint64_t off = 0;

	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_DETAILED);
	tb_block(&self->b, MEAS_TASK_LOAD_START, 0, 0x400000, 0x401000, 0,
		 "/bin/prog");
	tb_object(&self->b, MEAS_TREC_MAP, 0x5000, 0x6000, 0x1000, 0,
		  "/lib/plugin.so");
	tb_sample(&self->b, 0x5100, 0);		/* in the plugin */
	tb_unmap(&self->b, 0x5000, 0x6000, 0);	/* dlclose */
	tb_sample(&self->b, 0x5100, 0);		/* nothing there */
	tb_object(&self->b, MEAS_TREC_MAP, 0x5000, 0x7000, 0, 0,
		  "/lib/other.so");		/* the range reused */
	tb_sample(&self->b, 0x5100, 0);
	tb_block(&self->b, MEAS_TASK_LOAD_END, 0, 0x400000, 0x401000, 0,
		 "/bin/prog");
	tb_end(&self->b, MEAS_TASK_END_STOP, 3);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	s = &self->f.s[0];
	ASSERT_EQ(3, s->nsample);
	EXPECT_STREQ("/lib/plugin.so", sample_obj(s, 0, &off));
	EXPECT_EQ(0x1100, off);
	EXPECT_EQ(NULL, sample_obj(s, 1, &off));
	EXPECT_STREQ("/lib/other.so", sample_obj(s, 2, &off));
	EXPECT_EQ(0x100, off);
	ASSERT_EQ(3, s->nev);
	EXPECT_EQ(MEAS_TREC_MAP, s->ev[0].type);
	EXPECT_STREQ("/lib/plugin.so", s->obj[s->ev[0].obj].name);
	EXPECT_EQ(MEAS_TREC_UNMAP, s->ev[1].type);
	EXPECT_EQ(s->ev[1].seq, s->obj[1].until);
}

TEST_F(tf, later_load_block_resolves_earlier_samples)
{
	const struct tf_session *s;
	uint64_t off = 0;

	/* standard load information: the library only in the end block */
	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_STD);
	tb_block(&self->b, MEAS_TASK_LOAD_START, 0, 0x400000, 0x401000, 0,
		 "/bin/prog");
	tb_sample(&self->b, 0x5010, 0);
	tb_load(&self->b, MEAS_TREC_LOAD_BEGIN, MEAS_TASK_LOAD_END, 0, 0);
	tb_object(&self->b, MEAS_TREC_OBJECT, 0x400000, 0x401000, 0, 0,
		  "/bin/prog");
	tb_object(&self->b, MEAS_TREC_OBJECT, 0x5000, 0x6000, 0x3000, 0,
		  "/lib/late.so");
	tb_load(&self->b, MEAS_TREC_LOAD_END, MEAS_TASK_LOAD_END, 0, 2);
	tb_end(&self->b, MEAS_TASK_END_STOP, 1);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	s = &self->f.s[0];
	EXPECT_STREQ("/lib/late.so", sample_obj(s, 0, &off));
	EXPECT_EQ(0x3010, off);
	EXPECT_EQ(2, s->load[1].n);
	/* the nearest earlier appearance wins over a later one */
	EXPECT_EQ(&s->obj[0], tf_resolve(s, 0, 0x400000, s->sample[0].seq));
}

TEST_F(tf, lost_records_summed)
{
	tb_session(&self->b, 1, MEAS_TASK_SVC, MEAS_TASK_LOAD_STD);
	tb_lost(&self->b, 3);
	tb_svc(&self->b, 0x10, 1, 0);
	tb_lost(&self->b, 40);
	tb_end(&self->b, MEAS_TASK_END_STOP, 0);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	EXPECT_EQ(43, self->f.s[0].lost);
	EXPECT_EQ(2, self->f.s[0].lost_records);
	EXPECT_EQ(1, self->f.s[0].nsvc);
}

TEST_F(tf, load_blocks_out_of_order_counted)
{
	const struct tf_session *s;
	uint64_t off = 0;

	tb_session(&self->b, 1, 0, MEAS_TASK_LOAD_STD);
	tb_object(&self->b, MEAS_TREC_OBJECT, 0x1000, 0x2000, 0, 0, "/a");
	tb_load(&self->b, MEAS_TREC_LOAD_BEGIN, MEAS_TASK_LOAD_START, 0, 0);
	tb_load(&self->b, MEAS_TREC_LOAD_BEGIN, MEAS_TASK_LOAD_START, 0, 0);
	tb_load(&self->b, MEAS_TREC_LOAD_END, MEAS_TASK_LOAD_START, 0, 0);
	tb_load(&self->b, MEAS_TREC_LOAD_END, MEAS_TASK_LOAD_START, 0, 0);
	tb_sample(&self->b, 0x1800, 0);
	ASSERT_EQ(0, tf_parse(self->b.p, self->b.len, &self->f));
	s = &self->f.s[0];
	EXPECT_EQ(3, s->anomalies);
	EXPECT_STREQ("/a", sample_obj(s, 0, &off));
	EXPECT_EQ(0x800, off);
}

TEST_F(tf, load_reads_a_file)
{
	char path[] = "/tmp/taskfile_test.XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	tb_simple(&self->b, 5);
	ASSERT_EQ((ssize_t)self->b.len, write(fd, self->b.p, self->b.len));
	close(fd);
	EXPECT_EQ(0, tf_load(path, &self->f));
	EXPECT_EQ(1, self->f.n);
	unlink(path);
	tf_free(&self->f);
	EXPECT_EQ(-ENOENT, tf_load(path, &self->f));
	EXPECT_EQ(-EINVAL, tf_load("/tmp", &self->f));
}

TEST_HARNESS_MAIN

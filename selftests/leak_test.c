// SPDX-License-Identifier: GPL-2.0
/*
 * Info leaks: every struct meas copies to user space, every record of the
 * clock buffer, the I/O trace, the process table and the netlink family
 * is fully initialised.  Each test fills the user buffer with a pattern
 * (0xa5) first, then checks that pad and reserved fields and the bytes
 * after a string's NUL come back zero, and that no byte past what the
 * call reports as copied changed.  Run as root in the test VM with
 * meas.ko loaded (selftests/run_tests.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/meas.h>
#include <linux/meas_task.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"

#define PAT	0xa5
#define SLACK	64	/* pattern bytes after each struct */

/* Room for any argument struct and its slack, 8-byte aligned. */
union argbuf {
	unsigned char b[1024];
	uint64_t align;
};

static bool all(const void *p, size_t n, unsigned char v)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i] != v)
			return false;
	return true;
}

#define ZERO(field)	all(&(field), sizeof(field), 0)

/* A string field of @n bytes: NUL-terminated, zeros after the NUL. */
static bool padded(const void *s, size_t n)
{
	const char *c = memchr(s, 0, n);

	return c && all(c, n - (c - (const char *)s), 0);
}

/*
 * @a filled with the pattern, then the input struct @in of @size bytes
 * over its start: what the kernel writes back shows against the pattern.
 */
static void *prep(union argbuf *a, const void *in, size_t size)
{
	memset(a->b, PAT, sizeof(a->b));
	memcpy(a->b, in, size);
	return a->b;
}

/* Nothing past @size bytes of @a changed. */
static bool tail_intact(const union argbuf *a, size_t size)
{
	return all(a->b + size, SLACK, PAT);
}

/* The name items of a class 15 entry are NUL-padded. */
static bool proc_names_padded(const void *entry)
{
	const uint64_t *item = entry;

	return padded(&item[MEAS_P_PROGRAM], MEAS_PROC_NAME_LEN) &&
	       padded(&item[MEAS_P_COMMAND], MEAS_PROC_COMM_LEN);
}

FIXTURE(leak) {
	int fd;
	union argbuf a;
};

FIXTURE_SETUP(leak)
{
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	set_param("fail_start", "0");
	/* the defaults, whatever an earlier test left: every process has an entry */
	try_set_param("proc_slots", "32768");
	try_set_param("proc_threads", "32768");
}

FIXTURE_TEARDOWN(leak)
{
	close(self->fd);
}

/* INFO writes every field but size: reserved too, and nothing after. */
TEST_F(leak, info)
{
	struct meas_info *in;

	memset(self->a.b, PAT, sizeof(self->a.b));
	in = (struct meas_info *)self->a.b;
	in->size = sizeof(*in);
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_INFO, in));
	EXPECT_EQ(MEAS_ABI_VERSION, in->version);
	EXPECT_TRUE(ZERO(in->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(*in)));
}

TEST_F(leak, clockinfo)
{
	struct meas_clockinfo *ci;

	memset(self->a.b, PAT, sizeof(self->a.b));
	ci = (struct meas_clockinfo *)self->a.b;
	ci->size = sizeof(*ci);
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_CLOCKINFO, ci));
	EXPECT_TRUE(ZERO(ci->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(*ci)));
}

/* START and STOP, succeeding and failing (the struct comes back both ways). */
TEST_F(leak, start_stop)
{
	struct meas_start in = { .size = sizeof(in), .classmask = 1 }, *s;
	unsigned int i;
	static const struct { unsigned long cmd; uint32_t mask; int err; } c[] = {
		{ MEAS_IOC_START, 1, 0 },
		{ MEAS_IOC_START, 1U << 7, EINVAL },	/* class 7 not defined */
		{ MEAS_IOC_STOP, 1, 0 },
		{ MEAS_IOC_STOP, 1U << 20, EINVAL },
	};

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		in.classmask = c[i].mask;
		s = prep(&self->a, &in, sizeof(in));
		EXPECT_EQ(c[i].err ? -1 : 0, ioctl(self->fd, c[i].cmd, s));
		if (c[i].err)
			EXPECT_EQ(c[i].err, errno);
		EXPECT_NE(MEAS_RC_NONE, s->result);
		EXPECT_TRUE(ZERO(s->reserved)) TH_LOG("call %u", i);
		EXPECT_TRUE(tail_intact(&self->a, sizeof(in))) TH_LOG("call %u", i);
	}
}

/* GET: the struct, and the items: @words written, the rest untouched. */
TEST_F(leak, get)
{
	uint64_t items[40];
	struct meas_get in = {
		.size = sizeof(in), .wordcount = 10,
		.buf = (uintptr_t)items, .buflen = sizeof(items),
	}, *g;
	int rc;

	ASSERT_EQ(0, meas_start(self->fd, 1, &rc));
	memset(items, PAT, sizeof(items));
	g = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_GET, g));
	EXPECT_EQ(10, g->words);
	EXPECT_TRUE(ZERO(g->pad));
	EXPECT_TRUE(ZERO(g->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(in)));
	EXPECT_TRUE(all(&items[10], sizeof(items) - 10 * 8, PAT));
	/* a failing GET (item out of range) writes no item */
	memset(items, PAT, sizeof(items));
	in.startingitem = 1000000;
	g = prep(&self->a, &in, sizeof(in));
	EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_GET, g));
	EXPECT_EQ(ERANGE, errno);
	EXPECT_TRUE(ZERO(g->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(in)));
	EXPECT_TRUE(all(items, sizeof(items), PAT));
}

/* DESCRIBE returns what DEFINE kept: names NUL-padded, unused zero. */
TEST_F(leak, define_describe_update)
{
	struct meas_item_def idef[3], out[5];
	struct meas_define d = { .size = sizeof(d), .class = 9, .nsub = 1 }, *o;
	struct meas_update u = {
		.size = sizeof(u), .class = 9, .entry = 1, .valuechange = 1,
	}, *up;
	unsigned int i;
	int rc;

	memset(idef, 0, sizeof(idef));
	/* what follows a name's NUL is ignored: garbage there must not return */
	memset(d.name, 'x', sizeof(d.name));
	memcpy(d.name, "leak\0", 5);
	memcpy(d.sub[0].name, "sub\0zzzz", 8);
	d.sub[0].entries = 2;
	d.sub[0].items = 3;
	for (i = 0; i < 3; i++)
		memcpy(idef[i].name, "it\0yyyyyy", 9);
	d.items = (uintptr_t)idef;
	d.nitems = 3;
	meas_undefine(self->fd, 9, &rc);
	ASSERT_EQ(0, meas_define(self->fd, &d, &rc));

	memset(out, PAT, sizeof(out));
	memset(&d, 0, sizeof(d));
	d.size = sizeof(d);
	d.class = 9;
	d.items = (uintptr_t)out;
	d.nitems = 5;
	o = prep(&self->a, &d, sizeof(d));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_DESCRIBE, o));
	EXPECT_EQ(3, o->nitems);
	EXPECT_TRUE(padded(o->name, sizeof(o->name)));
	EXPECT_TRUE(padded(o->sub[0].name, sizeof(o->sub[0].name)));
	EXPECT_TRUE(all(&o->sub[1], sizeof(o->sub) - sizeof(o->sub[0]), 0));
	EXPECT_TRUE(ZERO(o->pad));
	EXPECT_TRUE(ZERO(o->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(d)));
	for (i = 0; i < 3; i++) {
		EXPECT_TRUE(padded(out[i].name, sizeof(out[i].name)));
		EXPECT_TRUE(ZERO(out[i].reserved));
	}
	EXPECT_TRUE(all(&out[3], 2 * sizeof(out[0]), PAT));

	ASSERT_EQ(0, meas_start(self->fd, 1U << 9, &rc));
	up = prep(&self->a, &u, sizeof(u));
	EXPECT_EQ(0, ioctl(self->fd, MEAS_IOC_UPDATE, up));
	EXPECT_TRUE(ZERO(up->pad));
	EXPECT_TRUE(ZERO(up->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(u)));
	ASSERT_EQ(0, meas_stop(self->fd, 1U << 9, &rc));
	EXPECT_EQ(0, meas_undefine(self->fd, 9, &rc));
}

/*
 * The clock buffer: the head, every ring's counters and every record slot
 * the tick has not written read zero; records read() returns are whole.
 */
TEST_F(leak, clock_buffer)
{
	struct meas_getclock in = {
		.size = sizeof(in), .collector = MEAS_COLLECTOR_PC, .records = 64,
	}, *g;
	const struct meas_clockbuf_head *h;
	const struct meas_clockbuf_ring *r;
	struct meas_giveclock gv = { .size = sizeof(gv) }, *gp;
	unsigned char *map, *rd;
	unsigned int cpu, i;
	ssize_t n;
	int bfd;

	g = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_GETCLOCK, g));
	EXPECT_TRUE(ZERO(g->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(in)));
	bfd = g->fd;
	ASSERT_LE(0, bfd);
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, bfd, 0);
	ASSERT_NE(MAP_FAILED, map);
	h = (const void *)map;
	i = h->map_size;
	munmap(map, 4096);
	map = mmap(NULL, i, PROT_READ, MAP_SHARED, bfd, 0);
	ASSERT_NE(MAP_FAILED, map);
	h = (const void *)map;
	EXPECT_TRUE(ZERO(h->pad));
	EXPECT_TRUE(ZERO(h->reserved));
	/* not ticking yet: every byte after the head but the rings is 0 */
	EXPECT_TRUE(all(map + sizeof(*h), h->ring_offset - sizeof(*h), 0));
	for (cpu = 0; cpu < h->nr_rings; cpu++) {
		r = (const void *)(map + h->ring_offset + cpu * sizeof(*r));
		EXPECT_TRUE(ZERO(r->reserved0));
		EXPECT_TRUE(ZERO(r->reserved1));
		EXPECT_TRUE(all(map + h->data_offset + cpu * h->ring_stride,
				h->ring_records * h->record_size, 0))
			TH_LOG("ring %u", cpu);
	}

	/* tick 100 ms, then read() into a patterned buffer */
	in.intrate = 5;
	in.collector = 0;
	in.records = 0;
	g = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_GETCLOCK, g));
	usleep(100000);
	gp = prep(&self->a, &gv, sizeof(gv));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_GIVECLOCK, gp));
	EXPECT_TRUE(ZERO(gp->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(gv)));
	rd = malloc(64 * 1024);
	ASSERT_NE(NULL, rd);
	memset(rd, PAT, 64 * 1024);
	n = read(bfd, rd, 64 * 1024 - SLACK);
	ASSERT_LT(0, n);
	EXPECT_EQ(0, n % sizeof(struct meas_clock_pc));
	for (i = 0; i + sizeof(struct meas_clock_pc) <= (size_t)n;
	     i += sizeof(struct meas_clock_pc)) {
		const struct meas_clock_pc *pc = (const void *)(rd + i);

		EXPECT_TRUE(padded(pc->comm, sizeof(pc->comm))) TH_LOG("record at %u", i);
	}
	EXPECT_TRUE(all(rd + n, 64 * 1024 - n, PAT));
	free(rd);
	munmap(map, h->map_size);
	close(bfd);
	gv.collector = MEAS_COLLECTOR_PC;
	EXPECT_EQ(0, ioctl(self->fd, MEAS_IOC_GIVECLOCK, &gv));
}

/*
 * I/O trace records: pad and comm padding (the record has no reserved
 * word left since ABI 3); nothing past them.
 */
TEST_F(leak, iotrace_records)
{
	struct meas_io_record rec[64];
	struct meas_iotrace_read in = {
		.size = sizeof(in), .buf = (uintptr_t)rec, .buflen = sizeof(rec),
	}, *t;
	uint64_t i;
	int rc;

	if (null_blk_load("queue_mode=2 nr_devices=1"))
		SKIP(return, "no null_blk");
	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, &rc));
	ASSERT_EQ(0, do_io("/dev/nullb0", 4, 4, 0, 0));
	memset(rec, PAT, sizeof(rec));
	t = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_IOTRACE_READ, t));
	EXPECT_LE(8, t->records);
	EXPECT_TRUE(ZERO(t->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(in)));
	for (i = 0; i < t->records && i < 64; i++) {
		EXPECT_TRUE(ZERO(rec[i].pad)) TH_LOG("record %llu", (unsigned long long)i);
		EXPECT_TRUE(padded(rec[i].comm, sizeof(rec[i].comm)));
	}
	if (t->records < 64)
		EXPECT_TRUE(all(&rec[t->records], (64 - t->records) * sizeof(rec[0]),
				PAT));
	meas_stop(self->fd, 1U << MEAS_CLASS_IO, &rc);
	null_blk_unload();
}

/* GETPROCSTATS: one entry, entry 0 and every entry; names padded. */
TEST_F(leak, procstats)
{
	static uint64_t items[MEAS_PROC_ITEMS * 4096];
	struct meas_procstats in = {
		.size = sizeof(in), .pin = getpid(), .wordcount = MEAS_PROC_ITEMS,
		.buf = (uintptr_t)items, .buflen = (MEAS_PROC_ITEMS + 8) * 8,
	}, *p;
	uint64_t e;
	int rc;

	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_PROC, &rc));
	memset(items, PAT, sizeof(items));
	p = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_GETPROCSTATS, p));
	EXPECT_TRUE(ZERO(p->pad));
	EXPECT_TRUE(ZERO(p->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(in)));
	EXPECT_TRUE(proc_names_padded(items));
	EXPECT_TRUE(all(&items[MEAS_PROC_ITEMS], 8 * 8, PAT));

	/* entry 0: the release string is NUL-padded */
	memset(items, PAT, sizeof(items));
	in.pin = 0;
	p = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_GETPROCSTATS, p));
	EXPECT_TRUE(padded(&items[MEAS_P0_RELEASE],
			   (MEAS_PROC_ITEMS - MEAS_P0_RELEASE) * 8));

	memset(items, PAT, sizeof(items));
	in.allpins = 1;
	in.buflen = sizeof(items);
	p = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_GETPROCSTATS, p));
	ASSERT_LT(1, p->entries);
	for (e = 1; e < p->entries; e++)
		EXPECT_TRUE(proc_names_padded(&items[e * MEAS_PROC_ITEMS]))
			TH_LOG("entry %llu", (unsigned long long)e);
	EXPECT_TRUE(all(&items[p->words], 64, PAT));
}

/* READACTIVE records, and nothing past bytesret. */
TEST_F(leak, readactive)
{
	static struct meas_proc_rec recs[512];
	struct meas_entity_desc d;
	struct meas_readactive in = {
		.size = sizeof(in), .descs = (uintptr_t)&d, .ndesc = 1,
		.buf = (uintptr_t)recs, .bufsize = sizeof(recs) - 1024,
		.entity_index = -1, .recsize = sizeof(recs[0]),
	}, *ra;
	uint32_t i;
	int rc;

	meas_entity_init(&d, 1);
	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_PROC, &rc));
	memset(recs, PAT, sizeof(recs));
	ra = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_READACTIVE, ra));
	ASSERT_LT(0, ra->records);
	EXPECT_TRUE(ZERO(ra->pad));
	EXPECT_TRUE(ZERO(ra->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(in)));
	for (i = 0; i < ra->records; i++) {
		EXPECT_EQ(sizeof(recs[0]), recs[i].size);
		EXPECT_TRUE(proc_names_padded(recs[i].item)) TH_LOG("record %u", i);
	}
	EXPECT_TRUE(all((char *)recs + ra->bytesret, 1024, PAT));
}

static int nl_check(const struct meas_proc_rec *r, uint64_t seq, void *arg)
{
	int *bad = arg;

	(void)seq;
	if (r->size != sizeof(*r) || (r->slot && !proc_names_padded(r->item)))
		(*bad)++;
	return 0;
}

/* The netlink GET and dump carry whole records. */
TEST_F(leak, netlink_records)
{
	struct meas_proc_rec rec;
	struct meas_nl *nl;
	int rc, err, bad = 0;

	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_PROC, &rc));
	nl = meas_nl_open(&err);
	ASSERT_NE(NULL, nl);
	memset(&rec, PAT, sizeof(rec));
	ASSERT_EQ(0, meas_nl_get(nl, getpid(), &rec));
	EXPECT_TRUE(proc_names_padded(rec.item));
	memset(&rec, PAT, sizeof(rec));
	ASSERT_EQ(0, meas_nl_get(nl, 0, &rec));
	EXPECT_TRUE(padded(&rec.item[MEAS_P0_RELEASE],
			   (MEAS_PROC_ITEMS - MEAS_P0_RELEASE) * 8));
	ASSERT_LE(0, meas_nl_dump(nl, nl_check, &bad));
	EXPECT_EQ(0, bad);
	meas_nl_close(nl);
}

/* TASK_START and TASK_STOP: the struct, and the file's session record. */
TEST_F(leak, task_start_stop)
{
	const char *path = "/tmp/leak_test.task";
	struct meas_task_start in = {
		.size = sizeof(in), .flags = MEAS_TASK_OWNED,
		.path = (uintptr_t)path,
	}, *ts;
	struct meas_task_stop sin = { .size = sizeof(sin) }, *tp;
	struct meas_trec_session sess;
	int f;

	unlink(path);
	ts = prep(&self->a, &in, sizeof(in));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_TASK_START, ts));
	EXPECT_TRUE(ZERO(ts->pad));
	EXPECT_TRUE(ZERO(ts->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(in)));
	tp = prep(&self->a, &sin, sizeof(sin));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_TASK_STOP, tp));
	EXPECT_TRUE(ZERO(tp->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(sin)));
	/* a failing STOP: not measured */
	tp = prep(&self->a, &sin, sizeof(sin));
	EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_TASK_STOP, tp));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_TRUE(ZERO(tp->reserved));
	EXPECT_TRUE(tail_intact(&self->a, sizeof(sin)));

	f = open(path, O_RDONLY);
	ASSERT_LE(0, f);
	ASSERT_EQ(sizeof(sess), read(f, &sess, sizeof(sess)));
	close(f);
	EXPECT_EQ(MEAS_TREC_SESSION, sess.h.type);
	EXPECT_TRUE(padded(sess.comm, sizeof(sess.comm)));
	EXPECT_TRUE(padded(sess.release, sizeof(sess.release)));
	unlink(path);
}

TEST_HARNESS_MAIN

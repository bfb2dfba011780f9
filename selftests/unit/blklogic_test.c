// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/logic/blklogic.c, the pure logic of the disk
 * counters and of the class 14 ring: the same file the module is built
 * from.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "logic/layout.h"
#include "logic/blklogic.h"
#include "logic/lathist.h"

static const u32 every_flag[] = {
	MEAS_IO_F_SYNC, MEAS_IO_F_META, MEAS_IO_F_PRIO, MEAS_IO_F_FUA,
	MEAS_IO_F_PREFLUSH, MEAS_IO_F_RAHEAD, MEAS_IO_F_BACKGROUND,
	MEAS_IO_F_NOWAIT, MEAS_IO_F_POLLED, MEAS_IO_F_SWAP, MEAS_IO_F_IDLE,
};

#define NFLAGS (sizeof(every_flag) / sizeof(every_flag[0]))

static u32 flags_of(unsigned int bits)
{
	u32 f = 0;
	unsigned int i;

	for (i = 0; i < NFLAGS; i++)
		if (bits & (1U << i))
			f |= every_flag[i];
	return f;
}

TEST(bucket_saturates_at_six)
{
	u64 i;

	for (i = 0; i < 6; i++)
		EXPECT_EQ(i, meas_blk_bucket(i));
	EXPECT_EQ(6, meas_blk_bucket(6));
	EXPECT_EQ(6, meas_blk_bucket(7));
	EXPECT_EQ(6, meas_blk_bucket(UINT64_MAX));
	EXPECT_EQ(MEAS_C0_DISC_QLEN0 + 6, 20);
}

/* Every combination of flags puts a read in exactly one read item. */
TEST(reads_land_in_one_read_item)
{
	unsigned int bits;

	for (bits = 0; bits < 1U << NFLAGS; bits++) {
		u32 f = flags_of(bits);
		unsigned int it = meas_blk_disc_item(MEAS_IO_OP_READ, f);

		unsigned int want;

		ASSERT_TRUE(it == 2 || it == 5 || it == 7 || it == 9);
		if (f & MEAS_IO_F_SWAP)
			want = MEAS_C0_DISC_READ_SWAP;
		else if (f & (MEAS_IO_F_NOWAIT | MEAS_IO_F_POLLED))
			want = MEAS_C0_DISC_READ_NOWAIT;
		else if (f & MEAS_IO_F_RAHEAD)
			want = MEAS_C0_DISC_READ_ASYNC;
		else
			want = MEAS_C0_DISC_READ_SYNC;
		ASSERT_EQ(want, it);
	}
}

TEST(writes_land_in_one_write_item)
{
	static const unsigned int ops[] = { MEAS_IO_OP_WRITE,
					    MEAS_IO_OP_ZONE_APPEND };
	unsigned int bits, o;

	for (o = 0; o < 2; o++)
		for (bits = 0; bits < 1U << NFLAGS; bits++) {
			u32 f = flags_of(bits);
			unsigned int it = meas_blk_disc_item(ops[o], f);

			unsigned int want;

			ASSERT_TRUE(it == 3 || it == 4 || it == 6 || it == 8 ||
				    it == 10);
			if (f & (MEAS_IO_F_FUA | MEAS_IO_F_PREFLUSH))
				want = MEAS_C0_DISC_WRITE_FORCED;
			else if (f & (MEAS_IO_F_SWAP | MEAS_IO_F_BACKGROUND))
				want = MEAS_C0_DISC_WRITE_BACKGROUND;
			else if (f & (MEAS_IO_F_NOWAIT | MEAS_IO_F_POLLED))
				want = MEAS_C0_DISC_WRITE_NOWAIT;
			else if (f & MEAS_IO_F_SYNC)
				want = MEAS_C0_DISC_WRITE_SYNC;
			else
				want = MEAS_C0_DISC_WRITE_ASYNC;
			ASSERT_EQ(want, it);
		}
}

TEST(everything_else_is_control)
{
	static const unsigned int ops[] = {
		MEAS_IO_OP_FLUSH, MEAS_IO_OP_DISCARD, MEAS_IO_OP_SECURE_ERASE,
		MEAS_IO_OP_WRITE_ZEROES, MEAS_IO_OP_ZONE_MGMT,
		MEAS_IO_OP_DRV_IN, MEAS_IO_OP_DRV_OUT, MEAS_IO_OP_OTHER,
	};
	unsigned int i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		EXPECT_EQ(MEAS_C0_DISC_CONTROL,
			  meas_blk_disc_item(ops[i], MEAS_IO_F_FUA));
		EXPECT_EQ(MEAS_C0_UNIT_CONTROL, meas_blk_unit_item(ops[i]));
		EXPECT_FALSE(meas_blk_op_is_read(ops[i]));
		EXPECT_FALSE(meas_blk_op_is_write(ops[i]));
	}
	EXPECT_TRUE(meas_blk_op_is_discard(MEAS_IO_OP_DISCARD));
	EXPECT_TRUE(meas_blk_op_is_discard(MEAS_IO_OP_SECURE_ERASE));
	EXPECT_TRUE(meas_blk_op_is_discard(MEAS_IO_OP_WRITE_ZEROES));
	EXPECT_FALSE(meas_blk_op_is_discard(MEAS_IO_OP_FLUSH));
	EXPECT_EQ(MEAS_C0_UNIT_READS, meas_blk_unit_item(MEAS_IO_OP_READ));
	EXPECT_EQ(MEAS_C0_UNIT_WRITES, meas_blk_unit_item(MEAS_IO_OP_WRITE));
}

/*
 * A completion as blk.c counts it in a row: what the fold makes of it
 * must be what counting every item at the completion made before.
 */
static void count(u64 *row, unsigned int op, unsigned int kind, u32 flags,
		  u64 bytes, int timed_ns)
{
	row[MEAS_ROW_BYTES + meas_blk_bytes_of(op)] += bytes;
	row[MEAS_ROW_DISC + meas_blk_disc_item(op, flags)]++;
	if (kind != MEAS_BLK_K_READ && kind != MEAS_BLK_K_WRITE)
		row[MEAS_ROW_DONE + kind]++;
	if (timed_ns < 0) {
		row[MEAS_ROW_UNTIMED + kind]++;
		return;
	}
	row[MEAS_ROW_NS + kind] += timed_ns;
	if (meas_blk_kind_group(kind) < MEAS_C0_LAT_NR_OPS)
		row[MEAS_ROW_BUCKET +
		    meas_blk_kind_group(kind) * MEAS_C0_LAT_BUCKETS +
		    meas_lat_bucket(timed_ns)]++;
}

TEST(row_fold_makes_the_items)
{
	u64 row[MEAS_ROW_WORDS] = { 0 };
	u64 d[MEAS_C0_DISC_ITEMS] = { 0 }, x[MEAS_C0_XFER_ITEMS] = { 0 };
	u64 l[MEAS_C0_LAT_ITEMS] = { 0 };
	const u64 *r = l + MEAS_C0_LAT_OP(MEAS_C0_LAT_READ);
	const u64 *w = l + MEAS_C0_LAT_OP(MEAS_C0_LAT_WRITE);
	const u64 *f = l + MEAS_C0_LAT_OP(MEAS_C0_LAT_FLUSH);

	count(row, MEAS_IO_OP_READ, MEAS_BLK_K_READ, 0, 4096, 2000);
	count(row, MEAS_IO_OP_READ, MEAS_BLK_K_READ, MEAS_IO_F_RAHEAD, 8192,
	      -1);
	count(row, MEAS_IO_OP_WRITE, MEAS_BLK_K_WRITE, MEAS_IO_F_SYNC, 512,
	      300);
	count(row, MEAS_IO_OP_WRITE_ZEROES, MEAS_BLK_K_CTL_WRITE, 0, 1024,
	      5000);
	count(row, MEAS_IO_OP_ZONE_MGMT, MEAS_BLK_K_CTL_READ, 0, 0, 700);
	count(row, MEAS_IO_OP_FLUSH, MEAS_BLK_K_FLUSH, 0, 0, -1);
	count(row, MEAS_IO_OP_DRV_IN, MEAS_BLK_K_NONE, 0, 64, 100);
	meas_blk_row_fold(row, d, x, l);

	EXPECT_EQ(1, d[MEAS_C0_DISC_READ_SYNC]);
	EXPECT_EQ(1, d[MEAS_C0_DISC_READ_ASYNC]);
	EXPECT_EQ(1, d[MEAS_C0_DISC_WRITE_SYNC]);
	EXPECT_EQ(4, d[MEAS_C0_DISC_CONTROL]);
	EXPECT_EQ(2, x[MEAS_C0_XFER_READS]);
	EXPECT_EQ(1, x[MEAS_C0_XFER_WRITES]);
	EXPECT_EQ(12288, x[MEAS_C0_XFER_READ_BYTES]);
	EXPECT_EQ(512, x[MEAS_C0_XFER_WRITE_BYTES]);
	EXPECT_EQ(1024, x[MEAS_C0_XFER_DISCARD_BYTES]);
	EXPECT_EQ(2000, x[MEAS_C0_XFER_READ_NS]);
	EXPECT_EQ(300, x[MEAS_C0_XFER_WRITE_NS]);
	EXPECT_EQ(1, x[MEAS_C0_XFER_READS_TIMED]);
	EXPECT_EQ(1, x[MEAS_C0_XFER_WRITES_TIMED]);
	EXPECT_EQ(2000 + 300 + 5000 + 700 + 100, x[MEAS_C0_XFER_QUEUE_NS]);
	EXPECT_EQ(2, x[MEAS_C0_XFER_UNTRACKED]);
	/* reads: both reads and the zone open, one untimed */
	EXPECT_EQ(3, r[MEAS_C0_LAT_COUNT]);
	EXPECT_EQ(1, r[MEAS_C0_LAT_UNTIMED]);
	EXPECT_EQ(2700, r[MEAS_C0_LAT_SUM_NS]);
	EXPECT_EQ(1, r[MEAS_C0_LAT_BUCKET0]);
	EXPECT_EQ(1, r[MEAS_C0_LAT_BUCKET0 + meas_lat_bucket(2000)]);
	/* writes: the write and the zeroes */
	EXPECT_EQ(2, w[MEAS_C0_LAT_COUNT]);
	EXPECT_EQ(0, w[MEAS_C0_LAT_UNTIMED]);
	EXPECT_EQ(5300, w[MEAS_C0_LAT_SUM_NS]);
	EXPECT_EQ(1, f[MEAS_C0_LAT_COUNT]);
	EXPECT_EQ(1, f[MEAS_C0_LAT_UNTIMED]);
	EXPECT_EQ(0, f[MEAS_C0_LAT_SUM_NS]);
}

TEST(hash_slots_are_powers_of_two)
{
	EXPECT_EQ(2, meas_hash_slots(0));
	EXPECT_EQ(2, meas_hash_slots(2));
	EXPECT_EQ(4, meas_hash_slots(3));
	EXPECT_EQ(64, meas_hash_slots(64));
	EXPECT_EQ(128, meas_hash_slots(65));
	EXPECT_EQ(1U << 31, meas_hash_slots(UINT64_MAX));
	/* the device table: room for half as many again */
	EXPECT_EQ(128, meas_devtab_slots(64));
	EXPECT_EQ(2, meas_devtab_slots(0));
	EXPECT_EQ(4, meas_devtab_slots(1));
	EXPECT_LE(3ULL * 1000 / 2, meas_devtab_slots(1000));
}

TEST(hash_home_in_range_and_spread)
{
	unsigned int hits[256] = { 0 }, worst = 0, i;
	u32 slots;

	for (slots = 1; slots; slots <<= 1) {
		EXPECT_GT(slots, meas_hash_home(0, slots));
		EXPECT_GT(slots, meas_hash_home(UINT64_MAX, slots));
	}
	/* 128 disks with neighbouring minors, in a table of 256 */
	for (i = 0; i < 128; i++)
		hits[meas_hash_home(MEAS_DEV(259, i), 256)]++;
	/* and pointers 64 bytes apart, as request records are */
	for (i = 0; i < 128; i++)
		hits[meas_hash_home(0xffff888003000000ULL + 64 * i, 256)]++;
	for (i = 0; i < 256; i++)
		worst = hits[i] > worst ? hits[i] : worst;
	EXPECT_GE(4, worst);
}

TEST(ring_start_and_oldest)
{
	EXPECT_EQ(0, meas_ring_oldest(0, 8));
	EXPECT_EQ(0, meas_ring_oldest(8, 8));
	EXPECT_EQ(2, meas_ring_oldest(10, 8));
	/* a reader that kept up, one that fell behind, a fresh one */
	EXPECT_EQ(5, meas_ring_start(5, 10, 8));
	EXPECT_EQ(2, meas_ring_start(1, 10, 8));
	EXPECT_EQ(2, meas_ring_start(0, 10, 8));
	EXPECT_EQ(10, meas_ring_start(12, 10, 8));
	EXPECT_EQ(1, meas_ring_entry(0, 0, 8));
	EXPECT_EQ(8, meas_ring_entry(0, 7, 8));
	EXPECT_EQ(1, meas_ring_entry(0, 8, 8));
	EXPECT_EQ(9 + 3, meas_ring_entry(1, 11, 8));
}

TEST(ring_settle_cases)
{
	struct meas_ring_span s;

	/* nothing written during the copy */
	meas_ring_settle(0, 0, 5, 5, 8, &s);
	EXPECT_EQ(0, s.lost);
	EXPECT_EQ(0, s.first);
	EXPECT_EQ(5, s.end);
	EXPECT_EQ(5, s.cursor);
	/* behind before the copy: 0 and 1 were overwritten */
	meas_ring_settle(0, 2, 8, 10, 8, &s);
	EXPECT_EQ(2, s.lost);
	EXPECT_EQ(2, s.first);
	EXPECT_EQ(10, s.end);
	/* a write began during the copy: position 2 may be torn */
	meas_ring_settle(0, 2, 8, 11, 8, &s);
	EXPECT_EQ(3, s.lost);
	EXPECT_EQ(3, s.first);
	/* the writer lapped the copy: all taken records dropped */
	meas_ring_settle(4, 4, 4, 30, 8, &s);
	EXPECT_EQ(22, s.first);
	EXPECT_EQ(22, s.end);
	EXPECT_EQ(22, s.cursor);
	EXPECT_EQ(18, s.lost);
	/* a partial take: the cursor stops where the take stopped */
	meas_ring_settle(0, 0, 3, 6, 8, &s);
	EXPECT_EQ(0, s.lost);
	EXPECT_EQ(3, s.cursor);
}

/*
 * A writer and a reader interleaved at random: the writer announces a
 * position, scribbles over its slot, then writes it and publishes it;
 * the reader snapshots the head, copies record by record while the
 * writer goes on, then settles with what the writer announced.  Every
 * record returned must be the one written at its position, and
 * returned + lost must equal written.
 */
#define TORN	UINT64_MAX

struct sim {
	u64 ring[16], head, started;
};

static void sim_step(struct sim *w)
{
	if (w->started == w->head) {		/* begin a write */
		w->started++;
		w->ring[w->head % 16] = TORN;
	} else {				/* finish it */
		w->ring[w->head % 16] = w->head;
		w->head++;
	}
}

TEST(ring_reader_never_returns_torn_records)
{
	enum { CAP = 16, ROUNDS = 20000 };
	u64 cursor = 0, returned = 0, lost = 0;
	struct sim w = { .head = 0 };
	unsigned int seed = 1;
	int round;

	for (round = 0; round < ROUNDS; round++) {
		u64 h1, start, taken = 0, want, copy[CAP], i;
		struct meas_ring_span s;
		unsigned int burst = rand_r(&seed) % 80;

		while (burst--)		/* the writer, before the read */
			sim_step(&w);
		h1 = w.head;
		start = meas_ring_start(cursor, h1, CAP);
		want = rand_r(&seed) % (CAP + 1);
		while (taken < want && start + taken < h1) {
			copy[taken] = w.ring[(start + taken) % CAP];
			taken++;
			if (rand_r(&seed) % 3 == 0)	/* during the copy */
				sim_step(&w);
		}
		meas_ring_settle(cursor, start, taken, w.started, CAP, &s);
		for (i = s.first; i < s.end; i++)
			ASSERT_EQ(i, copy[i - start]);
		returned += s.end - s.first;
		lost += s.lost;
		cursor = s.cursor;
	}
	if (w.started != w.head)
		sim_step(&w);
	while (cursor < w.head) {	/* catch up, the writer idle */
		struct meas_ring_span s;
		u64 start = meas_ring_start(cursor, w.head, CAP);

		meas_ring_settle(cursor, start, w.head - start, w.started, CAP,
				 &s);
		EXPECT_EQ(start, s.first);	/* idle: nothing dropped */
		returned += s.end - s.first;
		lost += s.lost;
		cursor = s.cursor;
	}
	EXPECT_EQ(w.head, returned + lost);
	EXPECT_LT(0, lost);
	EXPECT_LT(0, returned);
}

TEST(merge_picks_oldest_then_lowest)
{
	struct meas_merge_head h[3] = {
		{ .key = 5, .left = 1 },
		{ .key = 3, .left = 2 },
		{ .key = 3, .left = 1 },
	};

	EXPECT_EQ(1, meas_merge_pick(h, 3));
	h[1].left = 0;
	EXPECT_EQ(2, meas_merge_pick(h, 3));
	h[2].left = 0;
	EXPECT_EQ(0, meas_merge_pick(h, 3));
	h[0].left = 0;
	EXPECT_EQ(-1, meas_merge_pick(h, 3));
	EXPECT_EQ(-1, meas_merge_pick(h, 0));
}

TEST(io_shape_and_words)
{
	struct meas_class_spec s = { .class = MEAS_CLASS_IO };

	EXPECT_EQ(2048, meas_io_per_part(4096, 2));
	EXPECT_EQ(1, meas_io_per_part(256, 8192));
	EXPECT_EQ(256, meas_io_per_part(256, 0));
	meas_io_shape(&s, 2, 2048);
	EXPECT_EQ(1, s.nsub);
	EXPECT_EQ(0, s.devslots);
	EXPECT_EQ(4097, s.sub[0].entries);
	EXPECT_EQ(16, s.sub[0].entsize);
	EXPECT_EQ(3 + 21 + 16, s.sub[0].ent0size);
	/* header 22, class base 2, entry 0, records */
	EXPECT_EQ(22 + 2 + 40 + 4096 * 16, meas_layout_words(&s));
	/* the records start on a cache line */
	EXPECT_EQ(0, (22 + 2 + s.sub[0].ent0size) % 8);
	meas_io_shape(&s, 1U << 31, UINT64_MAX / 2);
	EXPECT_EQ(0, meas_layout_words(&s));
}

TEST(c0_shape_with_disks_and_tapes)
{
	struct meas_class_spec s = { .class = 0 };
	struct meas_sub_view v;
	u64 words, *r;

	meas_c0_disk_shape(&s, 4, 2);
	EXPECT_EQ(6, s.nsub);
	EXPECT_EQ(6, s.devslots);
	words = meas_layout_words(&s);
	EXPECT_EQ(22 + 12 + 7 + 103 + (24 + 4 * 21) + 3 + (7 + 2 * 4) +
		  (17 + 4 * 14) + (120 + 4 * 117), words);
	r = calloc(words, sizeof(u64));
	ASSERT_NE(NULL, r);
	meas_layout_format(r, words, &s);
	ASSERT_EQ(MEAS_GET_OK, meas_layout_find(r, words, 0, 1, &v));
	EXPECT_EQ(5, v.entries);
	EXPECT_EQ(21, v.entsize);
	EXPECT_EQ(24, v.ent0size);
	/* item n of entry k is k * 21 + n */
	EXPECT_EQ(v.base + 3 + 2 * 21, meas_layout_entry(&v, 2));
	ASSERT_EQ(MEAS_GET_OK, meas_layout_find(r, words, 0, 4, &v));
	EXPECT_EQ(5, v.entries);
	EXPECT_EQ(14, v.entsize);
	EXPECT_EQ(17, v.ent0size);
	ASSERT_EQ(MEAS_GET_OK, meas_layout_find(r, words, 0, 5, &v));
	EXPECT_EQ(5, v.entries);
	EXPECT_EQ(117, v.entsize);
	EXPECT_EQ(120, v.ent0size);
	ASSERT_EQ(MEAS_GET_OK, meas_layout_find(r, words, 0, 2, &v));
	EXPECT_EQ(1, v.entries);
	EXPECT_EQ(0, v.items);
	free(r);
}

TEST_HARNESS_MAIN

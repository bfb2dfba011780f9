// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the pure logic in module/logic/layout.c: the same file
 * the module is built from.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "logic/layout.h"

static struct meas_class_spec class0_spec(u64 devslots)
{
	struct meas_class_spec s = { .class = 0, .nsub = 4,
				     .devslots = devslots };
	static const u64 entsize[4] = { 100, 21, 4, 4 };
	int i;

	for (i = 0; i < 4; i++) {
		s.sub[i].entries = 1;
		s.sub[i].entsize = entsize[i];
		s.sub[i].ent0size = 3;
	}
	s.sub[0].entries = 2;
	return s;
}

static u64 *format(const struct meas_class_spec *s, u64 *words)
{
	u64 *r;

	*words = meas_layout_words(s);
	r = calloc(*words, sizeof(u64));
	if (r)
		meas_layout_format(r, *words, s);
	return r;
}

TEST(words_of_class0)
{
	struct meas_class_spec s = class0_spec(64);

	/* header+directory 22, devtab 128, class base 5, subclasses */
	EXPECT_EQ(22 + 128 + 5 + 103 + 3 + 3 + 3, meas_layout_words(&s));
	s.devslots = 0;
	EXPECT_EQ(22 + 5 + 103 + 9, meas_layout_words(&s));
}

TEST(words_reject_invalid_and_overflow)
{
	struct meas_class_spec s = class0_spec(0);

	s.class = 16;
	EXPECT_EQ(0, meas_layout_words(&s));
	s = class0_spec(0);
	s.nsub = 0;
	EXPECT_EQ(0, meas_layout_words(&s));
	s.nsub = MEAS_MAX_SUBCLASSES + 1;
	EXPECT_EQ(0, meas_layout_words(&s));
	s = class0_spec(0);
	s.sub[1].entries = 0;
	EXPECT_EQ(0, meas_layout_words(&s));
	s = class0_spec(0);
	s.sub[1].ent0size = 2;
	EXPECT_EQ(0, meas_layout_words(&s));
	s = class0_spec(0);
	s.sub[1].entries = UINT64_MAX;
	s.sub[1].entsize = 4;
	EXPECT_EQ(0, meas_layout_words(&s));
	s = class0_spec(UINT64_MAX / 2 + 1);
	EXPECT_EQ(0, meas_layout_words(&s));
	s = class0_spec(UINT64_MAX / 2 - 10);
	EXPECT_EQ(0, meas_layout_words(&s));
}

TEST(format_is_self_describing)
{
	struct meas_class_spec s = class0_spec(8);
	struct meas_sub_view v;
	u64 words, *r = format(&s, &words);
	u64 cbase;

	ASSERT_NE(NULL, r);
	EXPECT_EQ(MEAS_XDS_MAGIC, r[MEAS_XDS_W_MAGIC]);
	EXPECT_EQ(MEAS_XDS_VERSION, r[MEAS_XDS_W_VERSION]);
	EXPECT_EQ(words, r[MEAS_XDS_W_SIZE]);
	EXPECT_EQ(MEAS_XDS_HDR_WORDS, r[MEAS_XDS_W_DEVTAB]);
	EXPECT_EQ(8, r[MEAS_XDS_W_DEVSLOTS]);
	EXPECT_EQ(16, r[MEAS_XDS_W_NCLASSES]);
	cbase = r[MEAS_XDS_W_CLASS0];
	EXPECT_EQ(MEAS_XDS_HDR_WORDS + 16, cbase);
	EXPECT_EQ(4, r[cbase]);
	ASSERT_EQ(MEAS_GET_OK, meas_layout_find(r, words, 0, 0, &v));
	EXPECT_EQ(cbase + 5, v.base);
	EXPECT_EQ(2, v.entries);
	EXPECT_EQ(100, v.entsize);
	EXPECT_EQ(100, v.items);
	EXPECT_EQ(v.base + 3, meas_layout_entry(&v, 1));
	ASSERT_EQ(MEAS_GET_OK, meas_layout_find(r, words, 0, 3, &v));
	EXPECT_EQ(0, v.items);
	EXPECT_EQ(words - 3, v.base);
	EXPECT_EQ(MEAS_GET_BADCLASS, meas_layout_find(r, words, 1, 0, &v));
	EXPECT_EQ(MEAS_GET_BADCLASS, meas_layout_find(r, words, -1, 0, &v));
	EXPECT_EQ(MEAS_GET_BADCLASS, meas_layout_find(r, words, 16, 0, &v));
	EXPECT_EQ(MEAS_GET_BADSUBCLASS, meas_layout_find(r, words, 0, 4, &v));
	EXPECT_EQ(MEAS_GET_BADSUBCLASS, meas_layout_find(r, words, 0, -1, &v));
	free(r);
}

TEST(find_survives_corrupt_headers)
{
	struct meas_class_spec s = class0_spec(0);
	struct meas_sub_view v;
	u64 words, *r = format(&s, &words);
	u64 cbase = r[MEAS_XDS_W_CLASS0];

	r[cbase + 4] = UINT64_MAX - 2;	/* subclass 3 offset */
	EXPECT_EQ(MEAS_GET_BADSUBCLASS, meas_layout_find(r, words, 0, 3, &v));
	r[cbase] = UINT64_MAX;		/* subclass count */
	EXPECT_EQ(MEAS_GET_BADSUBCLASS, meas_layout_find(r, words, 0, 9, &v));
	r[cbase] = 4;
	r[cbase + 5] = UINT64_MAX;	/* entries of subclass 0 */
	EXPECT_EQ(MEAS_GET_BADSUBCLASS, meas_layout_find(r, words, 0, 0, &v));
	r[MEAS_XDS_W_CLASS0] = words;
	EXPECT_EQ(MEAS_GET_BADCLASS, meas_layout_find(r, words, 0, 0, &v));
	EXPECT_EQ(MEAS_GET_BADCLASS, meas_layout_find(r, 4, 0, 0, &v));
	free(r);
}

/*
 * A too-small buffer with a bad item or count: meas reports the item or
 * the count, where MPE IV's bounds code (2) would win
 * (Documentation/mpe-differences.rst).
 */
/* A GET in steps: each ends at an entry boundary when it can. */
TEST(get_steps_end_at_entries)
{
	/* entry 0 of 10 words at 100, then entries of 52 words */
	struct meas_sub_view v = { .base = 100, .entries = 1000, .entsize = 52,
				   .ent0size = 10, .items = 0 };
	u64 word, left, n, total = 0;

	/* all that is left fits: taken whole */
	EXPECT_EQ(30, meas_layout_step(&v, 100, 30, 8192));
	/* the step ends where entry 1 + k begins */
	n = meas_layout_step(&v, 100, 100000, 8192);
	EXPECT_EQ(0, (100 + n - 110) % 52);
	EXPECT_GE(8192, n);
	EXPECT_LT(8192 - 52, n);
	/* from inside an entry, to a boundary */
	n = meas_layout_step(&v, 130, 100000, 8192);
	EXPECT_EQ(0, (130 + n - 110) % 52);
	/* still inside entry 0: no boundary before the end of the step */
	EXPECT_EQ(5, meas_layout_step(&v, 100, 100000, 5));
	/* an entry longer than a step: the step is cut anyway */
	v.entsize = 20000;
	EXPECT_EQ(8192, meas_layout_step(&v, 120, 100000, 8192));
	/* the steps add up to the request */
	v.entsize = 52;
	for (word = 103, left = 100000; left; word += n, left -= n) {
		n = meas_layout_step(&v, word, left, 8192);
		ASSERT_LT(0, n);
		ASSERT_GE(left, n);
		total += n;
	}
	EXPECT_EQ(100000, total);
}

TEST(check_get_order_is_meas_s)
{
	struct meas_sub_view v = { .base = 10, .entries = 2, .entsize = 100,
				   .ent0size = 3, .items = 100 };

	EXPECT_EQ(MEAS_GET_BADITEM, meas_check_get(&v, 100, 1, 0));
	EXPECT_EQ(MEAS_GET_BADCOUNT, meas_check_get(&v, 0, 101, 0));
	EXPECT_EQ(MEAS_GET_BOUNDS, meas_check_get(&v, 0, 100, 0));
}

TEST(check_get_order_and_edges)
{
	struct meas_sub_view v = { .base = 10, .entries = 2, .entsize = 100,
				   .ent0size = 3, .items = 100 };

	EXPECT_EQ(MEAS_GET_OK, meas_check_get(&v, -3, 3, 24));
	EXPECT_EQ(MEAS_GET_OK, meas_check_get(&v, -3, 103, 824));
	EXPECT_EQ(MEAS_GET_OK, meas_check_get(&v, 99, 1, 8));
	EXPECT_EQ(MEAS_GET_OK, meas_check_get(&v, 0, 0, 0));
	EXPECT_EQ(MEAS_GET_BADITEM, meas_check_get(&v, -4, -1, 0));
	EXPECT_EQ(MEAS_GET_BADITEM, meas_check_get(&v, 100, 0, 0));
	EXPECT_EQ(MEAS_GET_BADITEM, meas_check_get(&v, INT64_MIN, 1, 8));
	EXPECT_EQ(MEAS_GET_BADITEM, meas_check_get(&v, INT64_MAX, 1, 8));
	EXPECT_EQ(MEAS_GET_BADCOUNT, meas_check_get(&v, 0, -1, 0));
	EXPECT_EQ(MEAS_GET_BADCOUNT, meas_check_get(&v, 0, 101, 8000));
	EXPECT_EQ(MEAS_GET_BADCOUNT, meas_check_get(&v, -3, 104, 8000));
	EXPECT_EQ(MEAS_GET_BADCOUNT, meas_check_get(&v, 1, INT64_MAX, 8));
	EXPECT_EQ(MEAS_GET_BOUNDS, meas_check_get(&v, 0, 100, 799));
	EXPECT_EQ(MEAS_GET_OK, meas_check_get(&v, 0, 100, UINT64_MAX));
	v.items = 0;
	EXPECT_EQ(MEAS_GET_OK, meas_check_get(&v, -3, 3, 24));
	EXPECT_EQ(MEAS_GET_BADITEM, meas_check_get(&v, 0, 0, 24));
}

TEST(clamp_fget)
{
	struct meas_sub_view v = { .base = 10, .entries = 2, .entsize = 100,
				   .ent0size = 3, .items = 100 };
	u64 word = 0, n = 0;

	EXPECT_TRUE(meas_clamp_fget(&v, -3, 1000, 8000, &word, &n));
	EXPECT_EQ(10, word);
	EXPECT_EQ(103, n);
	EXPECT_TRUE(meas_clamp_fget(&v, 50, 1000, 16, &word, &n));
	EXPECT_EQ(63, word);
	EXPECT_EQ(2, n);
	EXPECT_FALSE(meas_clamp_fget(&v, 0, 10, 7, &word, &n));
	EXPECT_FALSE(meas_clamp_fget(&v, -4, 10, 800, &word, &n));
	EXPECT_FALSE(meas_clamp_fget(&v, 100, 10, 800, &word, &n));
	EXPECT_FALSE(meas_clamp_fget(&v, 0, -5, 800, &word, &n));
	EXPECT_FALSE(meas_clamp_fget(&v, INT64_MIN, INT64_MAX, UINT64_MAX,
				     &word, &n));
	EXPECT_TRUE(meas_clamp_fget(&v, 99, INT64_MAX, UINT64_MAX, &word, &n));
	EXPECT_EQ(1, n);
}

TEST(masks)
{
	EXPECT_EQ(MEAS_START_OK, meas_check_start_mask(0, 1));
	EXPECT_EQ(MEAS_START_OK, meas_check_start_mask(1, 1));
	EXPECT_EQ(MEAS_START_BADCLASS, meas_check_start_mask(2, 1));
	EXPECT_EQ(MEAS_START_BADCLASS, meas_check_start_mask(1ULL << 16, 0xffff));
	EXPECT_EQ(MEAS_START_BADCLASS, meas_check_start_mask(1ULL << 40, 0xffff));
	EXPECT_EQ(MEAS_STOP_OK, meas_check_stop_mask(0xffff));
	EXPECT_EQ(MEAS_STOP_BADPARM, meas_check_stop_mask(0x10000));
}

TEST_HARNESS_MAIN

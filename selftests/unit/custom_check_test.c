// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the pure logic of user-defined classes
 * (module/logic/custom_check.c): the same file the module is built from.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "logic/custom_check.h"

/* 2 subclasses: 3 entries of 4 items, 1 entry of 2 items. */
static struct meas_define two_subs(void)
{
	struct meas_define d;

	memset(&d, 0, sizeof(d));
	d.class = 5;
	d.nsub = 2;
	strcpy(d.name, "c");
	d.sub[0].entries = 3;
	d.sub[0].items = 4;
	d.sub[1].entries = 1;
	d.sub[1].items = 2;
	return d;
}

TEST(names)
{
	char n[MEAS_NAME_MAX];

	memset(n, 0, sizeof(n));
	EXPECT_TRUE(meas_custom_name_ok(n, sizeof(n)));		/* empty */
	strcpy(n, "ok-name_1.x/y:z");
	EXPECT_TRUE(meas_custom_name_ok(n, sizeof(n)));
	memset(n, 'a', sizeof(n) - 1);
	EXPECT_TRUE(meas_custom_name_ok(n, sizeof(n)));		/* 31 */
	memset(n, 'a', sizeof(n));
	EXPECT_FALSE(meas_custom_name_ok(n, sizeof(n)));	/* no NUL */
	memset(n, 0, sizeof(n));
	strcpy(n, "a b");
	EXPECT_FALSE(meas_custom_name_ok(n, sizeof(n)));
	strcpy(n, "a\x7f");
	EXPECT_FALSE(meas_custom_name_ok(n, sizeof(n)));
	strcpy(n, "\xc3\xa9");
	EXPECT_FALSE(meas_custom_name_ok(n, sizeof(n)));
	memset(n, 0, sizeof(n));
	n[0] = 'a';
	n[5] = 1;				/* after the NUL: ignored */
	EXPECT_TRUE(meas_custom_name_ok(n, sizeof(n)));
}

TEST(class_numbers)
{
	int c;

	for (c = 0; c < 16; c++)
		EXPECT_EQ(c == 0 || c == 14 || c == 15 ?
			  MEAS_DEFINE_RESERVED : MEAS_DEFINE_OK,
			  meas_custom_check_class(c));
	EXPECT_EQ(MEAS_DEFINE_BADCLASS, meas_custom_check_class(-1));
	EXPECT_EQ(MEAS_DEFINE_BADCLASS, meas_custom_check_class(16));
	EXPECT_EQ(MEAS_DEFINE_BADCLASS, meas_custom_check_class(INT64_MIN));
	EXPECT_FALSE(meas_custom_update_class_ok(0));
	EXPECT_TRUE(meas_custom_update_class_ok(13));
	EXPECT_FALSE(meas_custom_update_class_ok(1LL << 32 | 5));
}

TEST(shape_of_a_definition)
{
	struct meas_define d = two_subs();
	struct meas_custom_shape s;
	struct meas_class_spec spec;

	ASSERT_EQ(MEAS_DEFINE_OK, meas_custom_check_define(&d, &s));
	EXPECT_EQ(2, s.nsub);
	EXPECT_EQ(14, s.items);
	EXPECT_EQ(6, s.nkinds);
	EXPECT_EQ(0, s.sub[0].first);
	EXPECT_EQ(12, s.sub[0].items);
	EXPECT_EQ(12, s.sub[1].first);
	EXPECT_EQ(4, s.sub[1].kind0);
	meas_custom_spec(&s, 5, &spec);
	EXPECT_EQ(5, spec.class);
	EXPECT_EQ(2, spec.nsub);
	EXPECT_EQ(0, spec.devslots);
	EXPECT_EQ(4, spec.sub[0].entries);
	EXPECT_EQ(4, spec.sub[0].entsize);
	EXPECT_EQ(3, spec.sub[0].ent0size);
	/* the layout agrees: header, class base, two subclasses */
	EXPECT_EQ(MEAS_XDS_HDR_WORDS + 3 + (3 + 12) + (3 + 2),
		  meas_layout_words(&spec));
}

TEST(definition_codes)
{
	struct meas_custom_shape s;
	struct meas_define d;

	d = two_subs();
	d.nsub = 0;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_define(&d, &s));
	d.nsub = MEAS_CUSTOM_MAX_SUBCLASSES + 1;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_define(&d, &s));
	d = two_subs();
	d.sub[5].name[0] = 'x';
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_define(&d, &s));
	d = two_subs();
	d.sub[1].entries = 0;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_define(&d, &s));
	d = two_subs();
	d.sub[1].items = MEAS_CUSTOM_MAX_ITEMS + 1;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_define(&d, &s));
	d = two_subs();
	d.sub[1].items = MEAS_CUSTOM_MAX_ITEMS;
	EXPECT_EQ(MEAS_DEFINE_OK, meas_custom_check_define(&d, &s));
	/* the total: exactly the limit is fine, one more is not */
	d = two_subs();
	d.sub[0].entries = MEAS_CUSTOM_MAX_CLASS_ITEMS / 4 - 1;
	d.sub[1].entries = 2;
	EXPECT_EQ(MEAS_DEFINE_OK, meas_custom_check_define(&d, &s));
	EXPECT_EQ(MEAS_CUSTOM_MAX_CLASS_ITEMS, s.items);
	d.sub[1].entries = 3;
	EXPECT_EQ(MEAS_DEFINE_TOOBIG, meas_custom_check_define(&d, &s));
	d.sub[0].entries = UINT32_MAX;
	d.sub[0].items = MEAS_CUSTOM_MAX_ITEMS;
	EXPECT_EQ(MEAS_DEFINE_TOOBIG, meas_custom_check_define(&d, &s));
	/* item definitions: all or none */
	d = two_subs();
	d.items = 0x1000;
	d.nitems = 6;
	EXPECT_EQ(MEAS_DEFINE_OK, meas_custom_check_define(&d, &s));
	d.nitems = 7;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_define(&d, &s));
	d.items = 0;
	d.nitems = 6;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_define(&d, &s));
	/* names last */
	d = two_subs();
	d.sub[1].name[0] = ' ';
	EXPECT_EQ(MEAS_DEFINE_BADNAME, meas_custom_check_define(&d, &s));
	d.class = 0;
	EXPECT_EQ(MEAS_DEFINE_RESERVED, meas_custom_check_define(&d, &s));
}

TEST(item_definitions)
{
	struct meas_item_def it[3];

	memset(it, 0, sizeof(it));
	strcpy(it[0].name, "a");
	it[1].kind = MEAS_ITEM_GAUGE;
	EXPECT_EQ(MEAS_DEFINE_OK, meas_custom_check_items(it, 3));
	it[2].kind = 2;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_items(it, 3));
	it[2].kind = 0;
	it[2].reserved = 1;
	EXPECT_EQ(MEAS_DEFINE_BADSHAPE, meas_custom_check_items(it, 3));
	it[2].reserved = 0;
	strcpy(it[2].name, "b c");
	EXPECT_EQ(MEAS_DEFINE_BADNAME, meas_custom_check_items(it, 3));
}

TEST(update_checks_in_order)
{
	struct meas_define d = two_subs();
	struct meas_custom_shape s;
	u64 idx = 99, kind = 99;

	ASSERT_EQ(MEAS_DEFINE_OK, meas_custom_check_define(&d, &s));
	/* subclass before entry before item */
	EXPECT_EQ(MEAS_UPDATE_BADSUBCLASS,
		  meas_custom_check_update(&s, 2, 0, -1, false, &idx, &kind));
	EXPECT_EQ(MEAS_UPDATE_BADSUBCLASS,
		  meas_custom_check_update(&s, -1, 1, 0, false, &idx, &kind));
	EXPECT_EQ(MEAS_UPDATE_BADENTRY,
		  meas_custom_check_update(&s, 0, 0, -1, false, &idx, &kind));
	EXPECT_EQ(MEAS_UPDATE_BADENTRY,
		  meas_custom_check_update(&s, 0, 4, 0, false, &idx, &kind));
	EXPECT_EQ(MEAS_UPDATE_BADENTRY,
		  meas_custom_check_update(&s, 0, INT64_MIN, 0, false, &idx,
					   &kind));
	EXPECT_EQ(MEAS_UPDATE_BADITEM,
		  meas_custom_check_update(&s, 0, 1, 4, false, &idx, &kind));
	EXPECT_EQ(MEAS_UPDATE_BADITEM,
		  meas_custom_check_update(&s, 0, 1, -1, false, &idx, &kind));
	EXPECT_EQ(MEAS_UPDATE_BADITEM,
		  meas_custom_check_update(&s, 0, 1, 3, true, &idx, &kind));
	EXPECT_EQ(MEAS_UPDATE_BADITEM,
		  meas_custom_check_update(&s, 0, 1, INT64_MAX, true, &idx,
					   &kind));
	EXPECT_EQ(99, idx);
	EXPECT_EQ(MEAS_UPDATE_OK,
		  meas_custom_check_update(&s, 0, 3, 2, true, &idx, &kind));
	EXPECT_EQ(2 * 4 + 2, idx);
	EXPECT_EQ(2, kind);
	EXPECT_EQ(MEAS_UPDATE_OK,
		  meas_custom_check_update(&s, 1, 1, 1, false, &idx, &kind));
	EXPECT_EQ(13, idx);
	EXPECT_EQ(5, kind);
}

TEST(fupdate_never_leaves_the_subclass)
{
	static const s64 nums[] = {
		INT64_MIN, INT64_MIN + 1, -4, -1, 0, 1, 2, 3, 4, 5, 12, 13,
		1LL << 62, INT64_MAX - 1, INT64_MAX,
	};
	struct meas_define d = two_subs();
	struct meas_custom_shape s;
	unsigned int e, i;
	u64 idx, kind;
	int sub;

	ASSERT_EQ(MEAS_DEFINE_OK, meas_custom_check_define(&d, &s));
	for (sub = -2; sub < 4; sub++)
		for (e = 0; e < ARRAY_SIZE(nums); e++)
			for (i = 0; i < ARRAY_SIZE(nums); i++) {
				if (!meas_custom_clamp_fupdate(&s, sub, nums[e],
							       nums[i], &idx,
							       &kind))
					continue;
				ASSERT_TRUE(sub == 0 || sub == 1);
				ASSERT_LE(s.sub[sub].first, idx);
				ASSERT_GT(s.sub[sub].first + s.sub[sub].items,
					  idx);
				ASSERT_LE(s.sub[sub].kind0, kind);
				ASSERT_GT(s.sub[sub].kind0 +
					  s.sub[sub].entsize, kind);
			}
	/* in range, the same item as the checked path */
	ASSERT_TRUE(meas_custom_clamp_fupdate(&s, 0, 2, 3, &idx, &kind));
	EXPECT_EQ(7, idx);
	EXPECT_EQ(3, kind);
	/* out of range: lands on another item of the subclass */
	ASSERT_TRUE(meas_custom_clamp_fupdate(&s, 0, 1, 5, &idx, &kind));
	EXPECT_EQ(5, idx);
	EXPECT_EQ(1, kind);
	EXPECT_FALSE(meas_custom_clamp_fupdate(&s, 1, 2, 0, &idx, &kind));
	EXPECT_FALSE(meas_custom_clamp_fupdate(&s, 2, 1, 0, &idx, &kind));
}

TEST_HARNESS_MAIN

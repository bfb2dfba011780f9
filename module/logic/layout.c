// SPDX-License-Identifier: GPL-2.0
/*
 * XDS layout arithmetic and argument checks, free of kernel dependencies
 * (see layout.h).  A region is an array of 64-bit words; its format is
 * described in uapi/linux/meas.h and Documentation/xds.rst.
 */
#include <linux/meas.h>
#include "layout.h"

/* Words of a class base: the subclass count and one offset per subclass. */
static u64 class_hdr_words(const struct meas_class_spec *spec)
{
	return 1 + spec->nsub;
}

/* Words of one subclass, or 0 when its shape is invalid or overflows. */
static u64 sub_words(const struct meas_sub_spec *s)
{
	u64 body;

	if (s->entries < 1 || s->ent0size < MEAS_HEADER_WORDS)
		return 0;
	if (__builtin_mul_overflow(s->entries - 1, s->entsize, &body))
		return 0;
	if (__builtin_add_overflow(body, s->ent0size, &body))
		return 0;
	return body;
}

/**
 * meas_layout_words() - size of the region a class spec needs
 * @spec: the class shape
 *
 * Return: the number of 64-bit words, or 0 if the spec is invalid or the
 * size does not fit in 64 bits.
 */
u64 meas_layout_words(const struct meas_class_spec *spec)
{
	u64 words, add;
	u32 i;

	if (spec->class >= MEAS_NR_CLASSES || spec->nsub < 1 ||
	    spec->nsub > MEAS_MAX_SUBCLASSES)
		return 0;
	if (__builtin_mul_overflow(spec->devslots, 2, &words) ||
	    __builtin_add_overflow(words, MEAS_XDS_HDR_WORDS +
				   class_hdr_words(spec), &words))
		return 0;
	for (i = 0; i < spec->nsub; i++) {
		add = sub_words(&spec->sub[i]);
		if (!add || __builtin_add_overflow(words, add, &words))
			return 0;
	}
	return words;
}

/**
 * meas_layout_format() - write the directory and headers of a region
 * @region: zeroed region of @words words
 * @words: meas_layout_words(@spec)
 * @spec: the class shape
 *
 * Entries are left zero; the device table is left empty.
 */
void meas_layout_format(u64 *region, u64 words,
			const struct meas_class_spec *spec)
{
	u64 devtab = MEAS_XDS_HDR_WORDS;
	u64 cbase = devtab + 2 * spec->devslots;
	u64 off = class_hdr_words(spec);
	u32 i;

	region[MEAS_XDS_W_MAGIC] = MEAS_XDS_MAGIC;
	region[MEAS_XDS_W_VERSION] = MEAS_XDS_VERSION;
	region[MEAS_XDS_W_SIZE] = words;
	region[MEAS_XDS_W_DEVTAB] = spec->devslots ? devtab : 0;
	region[MEAS_XDS_W_DEVSLOTS] = spec->devslots;
	region[MEAS_XDS_W_NCLASSES] = MEAS_NR_CLASSES;
	region[MEAS_XDS_W_CLASS0 + spec->class] = cbase;

	region[cbase] = spec->nsub;
	for (i = 0; i < spec->nsub; i++) {
		const struct meas_sub_spec *s = &spec->sub[i];
		u64 *e0 = &region[cbase + off];

		region[cbase + 1 + i] = off;
		e0[0] = s->entries;
		e0[1] = s->entsize;
		e0[2] = s->ent0size;
		off += sub_words(s);
	}
}

/**
 * meas_layout_find() - locate a subclass in a formatted region
 * @region: the region
 * @words: its size in words
 * @class: class number
 * @subclass: subclass number
 * @view: filled in on success
 *
 * The region is the module's own, but every offset is still checked
 * against @words so that a corrupted header can never send a reader
 * outside the region.
 *
 * Return: MEAS_GET_OK, MEAS_GET_BADCLASS or MEAS_GET_BADSUBCLASS.
 */
int meas_layout_find(const u64 *region, u64 words, int class, int subclass,
		     struct meas_sub_view *view)
{
	u64 cbase, base, end;
	const u64 *e0;

	if (class < 0 || class >= MEAS_NR_CLASSES || words < MEAS_XDS_HDR_WORDS)
		return MEAS_GET_BADCLASS;
	cbase = region[MEAS_XDS_W_CLASS0 + class];
	if (!cbase || cbase >= words)
		return MEAS_GET_BADCLASS;
	if (subclass < 0 || (u64)subclass >= region[cbase] ||
	    region[cbase] > words - cbase - 1)
		return MEAS_GET_BADSUBCLASS;
	base = cbase + region[cbase + 1 + subclass];
	if (base < cbase || base > words - MEAS_HEADER_WORDS)
		return MEAS_GET_BADSUBCLASS;
	e0 = &region[base];
	view->base = base;
	view->entries = e0[0];
	view->entsize = e0[1];
	view->ent0size = e0[2];
	if (view->entries < 1 || view->ent0size < MEAS_HEADER_WORDS ||
	    __builtin_mul_overflow(view->entries - 1, view->entsize, &end) ||
	    __builtin_add_overflow(end, view->ent0size, &end) ||
	    end > words - base)
		return MEAS_GET_BADSUBCLASS;
	view->items = end - MEAS_HEADER_WORDS;
	return MEAS_GET_OK;
}

/**
 * meas_layout_entry() - word offset of an entry of a subclass
 * @view: the subclass
 * @entry: entry number, 1..entries-1 (0 gives entry 0)
 */
u64 meas_layout_entry(const struct meas_sub_view *view, u64 entry)
{
	if (!entry)
		return view->base;
	return view->base + view->ent0size + (entry - 1) * view->entsize;
}

/**
 * meas_layout_step() - words of the next step of a GET copied in steps
 * @view: the subclass
 * @word: first region word of the step
 * @left: words left to copy, at least 1
 * @max: most words one step copies, at least 1
 *
 * A step that does not take all that is left ends at the last entry
 * boundary within it, if there is one: no entry is then composed twice,
 * at two different times.
 *
 * Return: the words of the step, 1..min(@left, @max).
 */
u64 meas_layout_step(const struct meas_sub_view *view, u64 word, u64 left,
		     u64 max)
{
	u64 n = left < max ? left : max;
	u64 first = view->base + view->ent0size, end = word + n, cut;

	if (n == left || !view->entsize || end <= first)
		return n;
	cut = end - (end - first) % view->entsize;
	return cut > word ? cut - word : n;
}

/**
 * meas_check_get() - GETSTATISTICS parameter checks after the class
 * @view: the subclass, found by meas_layout_find()
 * @start: startingitem, -3 for the header
 * @count: wordcount
 * @buflen: bytes of the caller's buffer
 *
 * The order is MPE IV's chain: startingitem, then wordcount; the bounds
 * check comes last and only when they passed, where MPE IV's bounds code
 * replaces theirs (Documentation/mpe-differences.rst).
 *
 * Return: MEAS_GET_OK, MEAS_GET_BADITEM, MEAS_GET_BADCOUNT or
 * MEAS_GET_BOUNDS.
 */
int meas_check_get(const struct meas_sub_view *view, s64 start, s64 count,
		   u64 buflen)
{
	s64 items = (s64)view->items;

	if (start < MEAS_ITEM_HEADER || start >= items)
		return MEAS_GET_BADITEM;
	if (count < 0 || count > items - start)
		return MEAS_GET_BADCOUNT;
	if (buflen / sizeof(u64) < (u64)count)
		return MEAS_GET_BOUNDS;
	return MEAS_GET_OK;
}

/**
 * meas_clamp_fget() - the range FGETSTATISTICS may copy
 * @view: the subclass
 * @start: startingitem, unchecked
 * @count: wordcount, unchecked
 * @buflen: bytes of the caller's buffer
 * @word: out: first region word to copy
 * @n: out: words to copy
 *
 * FGETSTATISTICS skips the descriptive checks, but the copy is clamped to
 * the subclass and to min(@count, @buflen / 8) words.
 *
 * Return: true when there is something to copy.
 */
bool meas_clamp_fget(const struct meas_sub_view *view, s64 start, s64 count,
		     u64 buflen, u64 *word, u64 *n)
{
	s64 items = (s64)view->items;
	u64 room;

	if (start < MEAS_ITEM_HEADER || start >= items || count <= 0)
		return false;
	room = (u64)(items - start);
	*n = (u64)count < room ? (u64)count : room;
	if (*n > buflen / sizeof(u64))
		*n = buflen / sizeof(u64);
	*word = view->base + MEAS_HEADER_WORDS + start;
	return *n != 0;
}

/**
 * meas_check_start_mask() - STARTSTATISTICS class mask check
 * @mask: requested classes
 * @defined: classes that exist
 *
 * Return: MEAS_START_OK or MEAS_START_BADCLASS.
 */
int meas_check_start_mask(u64 mask, u32 defined)
{
	if (mask & ~(u64)MEAS_CLASSMASK_ALL || mask & ~(u64)defined)
		return MEAS_START_BADCLASS;
	return MEAS_START_OK;
}

/**
 * meas_check_stop_mask() - STOPSTATISTICS class mask check
 * @mask: classes to stop
 *
 * Return: MEAS_STOP_OK or MEAS_STOP_BADPARM.
 */
int meas_check_stop_mask(u64 mask)
{
	return mask & ~(u64)MEAS_CLASSMASK_ALL ? MEAS_STOP_BADPARM : MEAS_STOP_OK;
}

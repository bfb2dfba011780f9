// SPDX-License-Identifier: GPL-2.0
/*
 * A subclass read whole: one FGETSTATISTICS from item -3, so that the
 * header and every item come in the same call.  Shared by the two front
 * ends of the metric table: meas-exporter's scrape and the PCP agent
 * (tools/pmda).
 */
#include <errno.h>
#include <stdlib.h>

#include "metrics.h"

/**
 * mx_sub_read() - read @subclass of @class, header and items
 * @fd: /dev/meas
 * @class: the class
 * @subclass: the subclass
 * @words: how many words to ask for (at least the header's)
 * @s: where they go; its buffer grows as needed and is kept
 *
 * Return: 0, or a negative errno with @s->ok 0.
 */
int mx_sub_read(int fd, int class, int subclass, size_t words,
		struct mx_sub *s)
{
	uint64_t got = 0;
	int err;

	s->ok = 0;
	if (words < MEAS_HEADER_WORDS)
		words = MEAS_HEADER_WORDS;
	if (s->cap < words) {
		uint64_t *p = realloc(s->buf, words * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->buf = p;
		s->cap = words;
	}
	err = meas_fget(fd, class, subclass, MEAS_ITEM_HEADER, (int64_t)words,
			s->buf, words * sizeof(*s->buf), &got);
	if (err)
		return err;
	if (got < MEAS_HEADER_WORDS)
		return -ERANGE;
	s->entries = s->buf[0];
	s->entsize = s->buf[1];
	s->ent0size = s->buf[2];
	s->items = s->buf + MEAS_HEADER_WORDS;
	s->nitems = got - MEAS_HEADER_WORDS;
	s->ok = 1;
	return 0;
}

/* Item @item of entry @e of a disk subclass (entry 0: the other disks). */
uint64_t mx_sub_item(const struct mx_sub *s, uint64_t e, int item)
{
	uint64_t n = e * s->entsize + (uint64_t)item;

	return n < s->nitems ? s->items[n] : 0;
}

/* Entries whose items were all read. */
uint64_t mx_sub_entries(const struct mx_sub *s)
{
	uint64_t n = s->entsize ? s->nitems / s->entsize : 0;

	return s->entries < n ? s->entries : n;
}

/* The value of series @se in entry @e: its item, less its @minus item. */
uint64_t mx_series_value(const struct mx_sub *s, uint64_t e,
			 const struct mx_series *se)
{
	uint64_t v = mx_sub_item(s, e, se->item);

	if (se->minus != MX_NONE)
		v -= mx_sub_item(s, e, se->minus);
	return v;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The requests in flight, from their insert to their completion: who
 * inserted them, when, and how deep the queue was.  The kernel keeps no
 * such field in struct request that a module may use, so the block unit
 * keeps a table of its own, keyed by the request (or, for a bio-based
 * disk, the bio).
 *
 * A record is one cache line.  A probe claims a free record near the
 * key's home slot with one cmpxchg on the record's own line, fills it,
 * and the completion reads it and frees it with a release store.  The
 * block layer orders a request's insert before its completion, so the
 * completion sees the filled record.  Requests come from preallocated
 * pools and keep hashing to the same records, which stay in the cache of
 * the CPUs that serve them; no line is shared by every CPU.
 *
 * A lookup scans the slots from the key's home up to the table's reach:
 * the farthest from its home any record was ever claimed.  The table is
 * mostly empty, so the reach stays at 0 or 1 and a lookup of a request
 * not in the table (every issue of a request that was not inserted)
 * reads one or two records instead of the whole window.  The reach only
 * grows, a few times in the table's life, and is otherwise only read.
 */
#include <linux/log2.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include "track.h"

/* Records probed from the home slot: the table is mostly empty. */
#define TRACK_PROBES	8

/**
 * meas_track_init() - allocate an empty request table
 * @t: the table
 * @slots: records, a power of two
 *
 * Return: 0 or -ENOMEM.
 */
int meas_track_init(struct meas_track *t, u32 slots)
{
	t->slots = slots;
	t->shift = 64 - ilog2(slots);
	t->reach = 0;
	t->recs = __vmalloc(array_size(slots, sizeof(*t->recs)),
			    GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	return t->recs ? 0 : -ENOMEM;
}

void meas_track_free(struct meas_track *t)
{
	vfree(t->recs);
	t->recs = NULL;
}

/* A record was claimed @n slots from its home: lookups must reach it. */
static void track_reach(struct meas_track *t, u32 n)
{
	u32 old = READ_ONCE(t->reach);

	while (old < n) {
		u32 was = cmpxchg(&t->reach, old, n);

		if (was == old)
			break;
		old = was;
	}
}

/**
 * meas_track_claim_near() - take a free record near a request's home
 * @t: the table
 * @key: the request or bio, not in the table
 *
 * meas_track_claim()'s search past the home slot.
 *
 * Return: the record, to be filled by the caller, or NULL when the
 * window of the key is full (the caller counts it).
 */
struct meas_track_rec *meas_track_claim_near(struct meas_track *t,
					     unsigned long key)
{
	u32 mask = t->slots - 1, i = meas_hash_home_shift(key, t->shift), n;

	for (n = 0; n < TRACK_PROBES; n++, i = (i + 1) & mask)
		if (!READ_ONCE(t->recs[i].key) &&
		    !cmpxchg(&t->recs[i].key, 0, key)) {
			if (unlikely(n > READ_ONCE(t->reach)))
				track_reach(t, n);
			return &t->recs[i];
		}
	return NULL;
}

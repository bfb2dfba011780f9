/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgtab.c: class 15's table of cgroups, the per-cgroup totals
 * (Documentation/cgroup.rst).  Below the process table (proctab.c),
 * which enters, folds and moves threads into its entries under the
 * table lock; readers (cgread.c) compose an entry with its live threads
 * through the entry's sequence count.
 */
#ifndef _MEAS_PROC_CGTAB_H
#define _MEAS_PROC_CGTAB_H

#include <linux/types.h>
#include <linux/seqlock.h>
#include <linux/meas.h>
#include "logic/access.h"
#include "proccnt.h"

struct task_struct;

/* struct cg_ent.flags: the uapi's MEAS_CG_* bits, and the kernel's own */
#define CG_UAPI_FLAGS	0xffff
#define CG_OWNED	0x10000	/* a thread left: @owner holds its IDs */
#define CG_MIXED	0x20000	/* one that left had other IDs than
				 * @owner, or was not dumpable
				 */

/* Where a cgroup is: its ID, its parent's, its depth. */
struct cg_ident {
	u64 id;
	u64 parent;
	u32 level;
};

/**
 * struct cg_ent - a cgroup's entry
 * @id: cgroup v2 ID; 0 in the overflow entry (entry 0)
 * @parent: the parent's ID, 0 for the root
 * @level: depth below the root
 * @flags: MEAS_CG_* and CG_*
 * @hnext: next entry in the hash chain; 0 ends it
 * @qnext: next entry in the FIFO of removed cgroups
 * @threads: first live thread record in it, index + 1
 * @nthr: live thread records in it
 * @seq: guards everything readers compose, the thread list included
 * @folded: threads folded into @cnt as they left
 * @exited: of those, threads that exited
 * @owner: the IDs of the first thread that left (CG_OWNED)
 * @cnt: what threads counted here and took with them when they left,
 *	less what the threads that came in had counted elsewhere before
 *	(modulo 2^64: with their live counters, the exact total)
 * @path: a removed cgroup's path, NUL-terminated
 *
 * Written under the table lock (proc_tab.lock).
 */
struct cg_ent {
	u64 id;
	u64 parent;
	u32 level;
	u32 flags;
	u32 hnext;
	u32 qnext;
	u32 threads;
	u32 nthr;
	seqcount_t seq;
	u64 folded;
	u64 exited;
	struct meas_access_ids owner;
	u64 cnt[PC_NR];
	char path[MEAS_CGROUP_PATH_MAX];
};

/* Header counters, under the table lock. */
struct cg_stats {
	u32 used;
	u32 removed;
	u64 overflow_threads;
	u64 overflow_folds;
	u64 reused;
};

/**
 * struct cg_tab - the cgroups of an enabled class 15
 * @nslots: entries, the overflow entry apart (1..nslots)
 * @bits: log2 of the hash buckets
 * @ent: [nslots + 1]; entry 0 is the overflow entry
 * @hash: buckets of entry numbers, by ID
 * @free: the next entry never used, 0 when none is left
 * @rmq_head: the cgroup removed longest ago
 * @rmq_tail: the one removed last
 * @st: header counters
 * @mem: bytes of @ent and @hash
 */
struct cg_tab {
	u32 nslots;
	u32 bits;
	struct cg_ent *ent;
	u32 *hash;
	u32 free;
	u32 rmq_head;
	u32 rmq_tail;
	struct cg_stats st;
	u64 mem;
};

int meas_cgtab_init(struct cg_tab *cg, u32 nslots);
void meas_cgtab_free(struct cg_tab *cg);
void meas_cgtab_ident(struct task_struct *p, struct cg_ident *who);
bool meas_cgtab_find(const struct cg_tab *cg, u64 id, u32 *n);
u32 meas_cgtab_enter(struct cg_tab *cg, const struct cg_ident *who);
void meas_cgtab_fold(struct cg_tab *cg, u32 n, const u64 *cnt,
		     const struct meas_access_ids *ids, bool dumpable,
		     bool exited);
void meas_cgtab_debt(struct cg_tab *cg, u32 n, const u64 *cnt);
void meas_cgtab_removed(struct cg_tab *cg, u64 id, const char *path);

#endif /* _MEAS_PROC_CGTAB_H */

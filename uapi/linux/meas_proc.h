/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: class 15, the processes: GETPROCSTATS, READACTIVE and the
 * generic netlink family (included by <linux/meas.h>).
 * Documentation/class15.rst.
 */
#ifndef _UAPI_LINUX_MEAS_PROC_H
#define _UAPI_LINUX_MEAS_PROC_H

#include <linux/types.h>
#include <linux/meas_core.h>

/*
 * MEASPROCXDS, the region of class 15, has one subclass.  Its entry 0 is
 * the header; entries 1..slots each hold one process (thread group).
 * An entry has MEAS_PROC_ITEMS items: the 52 items of MPE IV at their
 * MPE numbers (0..51; a double item's second word reads 0) followed by
 * Linux items (52..64) and items reserved for the next ones (65..71,
 * which read 0).  Times are in nanoseconds; the creation and
 * termination times are nanoseconds since the epoch.
 * Documentation/class15.rst maps every item.  The entry had 64 items
 * before ABI 3 (MEAS_PROC_ITEMS_VER0): a reader takes the entry size
 * from entry 0 (MEAS_P0_ENTRY_SIZE), or from a record's size.
 */
#define MEAS_PROC_MPE_ITEMS	52
#define MEAS_PROC_ITEMS		72	/* entry size, entry 0 included */
#define MEAS_PROC_ITEMS_VER0	64	/* the entry size of ABI 1 and 2 */
#define MEAS_PROC_NAME_LEN	32	/* bytes of the program name, items 0-3 */
#define MEAS_PROC_COMM_LEN	16	/* bytes of the command name, items 4-5 */

/* Items 0..51 of a process entry (the MPE numbers). */
#define MEAS_P_PROGRAM		0	/* 0-3: program file name, NUL-padded */
#define MEAS_P_COMMAND		4	/* 4-5: command name (comm), NUL-padded */
#define MEAS_P_GID		6	/* real group ID */
#define MEAS_P_EGID		7	/* effective group ID */
#define MEAS_P_UID		8	/* real user ID */
#define MEAS_P_EUID		9	/* effective user ID */
#define MEAS_P_SUID		10	/* saved user ID */
#define MEAS_P_SGID		11	/* saved group ID */
#define MEAS_P_SESSION		12	/* session ID (job/session number) */
#define MEAS_P_LAST_STOP	13	/* item number of the last stop's reason */
#define MEAS_P_STOP_DISC_BLOCKED	18	/* uninterruptible, iowait */
#define MEAS_P_STOP_DISC_UNBLOCKED	19	/* interruptible, iowait */
#define MEAS_P_STOP_BLOCKED_IO	20	/* uninterruptible, not iowait */
#define MEAS_P_STOP_TERMINAL	21	/* read(2) of a terminal */
#define MEAS_P_STOP_IMPEDED	22	/* other sleeps */
#define MEAS_P_STOP_TIMED_OUT	23	/* sleeps their timer ended */
#define MEAS_P_STOP_PREEMPTED	24	/* switched out while runnable */
#define MEAS_P_LAUNCHES		26	/* switch-ins */
#define MEAS_P_DISC_READS	30	/* read bios submitted */
#define MEAS_P_DISC_WRITES	31	/* write bios submitted */
#define MEAS_P_CREATED		32	/* creation time */
#define MEAS_P_TERMINATED	34	/* termination time, 0 while alive */
#define MEAS_P_CPU_TIME		36	/* ns on a CPU */
#define MEAS_P_PAUSE_DISC	40	/* ns paused, disc */
#define MEAS_P_PAUSE_IO		42	/* ns paused, non-terminal I/O */
#define MEAS_P_PAUSE_TERMINAL	44	/* ns paused, terminal read */
#define MEAS_P_PAUSE_IMPEDED	46	/* ns paused, impeded */
#define MEAS_P_PAUSE_ACTIVE	48	/* ns runnable, waiting for a CPU */
#define MEAS_P_DISC_BYTES	50	/* bytes of read and write bios */

/* Items 52..63: Linux items (a meas extension). */
#define MEAS_P_PID		52	/* process ID (thread group ID) */
#define MEAS_P_PPID		53	/* parent's process ID at creation */
#define MEAS_P_STATE		54	/* MEAS_PSTATE_* */
#define MEAS_P_GENERATION	55	/* uses of the slot, 1 = first */
#define MEAS_P_LAST_CPU		56	/* CPU of the last switch-in */
#define MEAS_P_THREADS		57	/* threads alive */
#define MEAS_P_STOP_JOBCTL	58	/* stopped or traced */
#define MEAS_P_STOP_EXIT	59	/* final switch-outs of threads */
#define MEAS_P_PAUSE_JOBCTL	60	/* ns stopped or traced */
#define MEAS_P_DISC_READ_BYTES	61	/* bytes of read bios */
#define MEAS_P_EXIT_STATUS	62	/* wait(2) status, once terminated */
#define MEAS_P_FLAGS		63	/* MEAS_PF_* */
/*
 * Item 64 (ABI 3): MPE's job, on Linux: the cgroup v2 ID (the inode
 * number of the cgroup's directory in cgroup2fs, as name_to_handle_at(2)
 * and bpf's cgroup IDs give it) of the cgroup the process is in now, or
 * exited in; 0 on a kernel without cgroups.  Item 12 stays the session.
 */
#define MEAS_P_CGROUP		64

/* MEAS_P_STATE */
#define MEAS_PSTATE_EMPTY	0	/* never used */
#define MEAS_PSTATE_LIVE	1
#define MEAS_PSTATE_EXITED	2

/* MEAS_P_FLAGS */
#define MEAS_PF_PREEXISTING	0x1	/* alive when sampling started */
#define MEAS_PF_KTHREAD		0x2	/* a kernel thread */
#define MEAS_PF_DUMPABLE	0x4	/* dumpable: live, now; exited, at exit */
#define MEAS_PF_THREADS_LOST	0x8	/* a thread had no record: counts low */

/*
 * Entry 0 as GETPROCSTATS returns it (PIN 0).  In the region, read with
 * GETSTATISTICS, words 0 and 1 are swapped to the layout's order
 * (entries first, see the XDS comment above); every other word is the
 * same.
 */
#define MEAS_P0_ENTRY_SIZE	0	/* items per entry */
#define MEAS_P0_ENTRIES		1	/* entries, entry 0 included */
#define MEAS_P0_ENT0_SIZE	2	/* words of entry 0 */
#define MEAS_P0_STARTED		3	/* time sampling started, ns since epoch */
#define MEAS_P0_KERNEL_VERSION	4	/* KERNEL_VERSION(a, b, c) */
#define MEAS_P0_MEM_USED	5	/* bytes of RAM in use (not available) */
#define MEAS_P0_MEM_AVAILABLE	6	/* bytes of RAM available */
#define MEAS_P0_MEM_TABLE	7	/* bytes class 15 uses */
#define MEAS_P0_LIVE		8	/* entries of live processes */
#define MEAS_P0_EXITED		9	/* entries of exited processes */
#define MEAS_P0_OVERFLOW	10	/* processes not entered: no free slot */
#define MEAS_P0_THREAD_OVERFLOW	11	/* threads not entered */
#define MEAS_P0_REUSED		12	/* exited entries given to new processes */
#define MEAS_P0_EXIT_SEQ	13	/* exit records numbered so far */
#define MEAS_P0_EXIT_LOST	14	/* of those, lost before they were sent */
#define MEAS_P0_THREAD_SLOTS	15	/* thread records */
#define MEAS_P0_THREADS_LIVE	16	/* thread records in use */
#define MEAS_P0_HIGH_WATER	17	/* highest entry ever used */
/*
 * The kernel's clock (local_clock(), ns) when this read began and ended
 * (ABI 2): each entry's times run up to a moment between the two.  One
 * entry read alone has both equal.
 */
#define MEAS_P0_CLOCK_START	18
#define MEAS_P0_CLOCK_END	19
#define MEAS_P0_RELEASE		24	/* 24-31: kernel release string */

/* flags of struct meas_procstats */
#define MEAS_PROCSTATS_FAST	0x1	/* FGETPROCSTATS */
#define MEAS_PROCSTATS_SLOT	0x2	/* pin is an entry number, not a PID */

/**
 * struct meas_procstats - argument of MEAS_IOC_GETPROCSTATS
 * @size: sizeof(struct meas_procstats), at least MEAS_PROCSTATS_SIZE_VER0
 * @flags: MEAS_PROCSTATS_* bits
 * @allpins: 0: the entry of @pin; 1: every entry up to the high-water
 *	mark, each @wordcount items from @firstitem, in entry order
 * @pin: a process ID in the caller's PID namespace (the live process, or
 *	else the latest that exited), 0 for entry 0; with
 *	MEAS_PROCSTATS_SLOT an entry number.  Ignored with @allpins
 * @firstitem: first item of each entry
 * @wordcount: items per entry
 * @buf: user address of the destination array of __u64
 * @buflen: length of @buf in bytes
 * @result: out: MEAS_PROC_* code
 * @pad: must be 0
 * @words: out: items written; with MEAS_PROC_BOUNDS, items needed
 * @entries: out: entries written (with @allpins, entries 0..entries-1)
 * @reserved: must be 0
 *
 * Entries the caller may not see (Documentation/class15.rst) read as
 * zeros: an entry never used.
 */
struct meas_procstats {
	__u32 size;
	__u32 flags;
	__u32 allpins;
	__s32 pin;
	__s64 firstitem;
	__s64 wordcount;
	__aligned_u64 buf;
	__aligned_u64 buflen;
	__s32 result;
	__u32 pad;
	__aligned_u64 words;
	__aligned_u64 entries;
	__aligned_u64 reserved[2];
};

#define MEAS_PROCSTATS_SIZE_VER0	88

/*
 * GETPROCSTATS result codes, MPE IV's, in the order they are checked.
 * FGETPROCSTATS (MEAS_PROCSTATS_FAST) returns 0 and copies what lies
 * inside the entry and the buffer.
 */
#define MEAS_PROC_OK		0	/* 0 */
#define MEAS_PROC_NOTENABLED	1	/* ENODATA: class 15 not enabled (or
					 * disabled between two steps of an
					 * allpins read: words says how many
					 * were copied)
					 */
#define MEAS_PROC_BOUNDS	2	/* ENOBUFS: buffer too short (words says
					 * how many items); EFAULT: not writable
					 */
#define MEAS_PROC_BADCOUNT	3	/* ERANGE: wordcount < 0 or past the entry */
#define MEAS_PROC_BADITEM	4	/* ERANGE: firstitem outside the entry */
#define MEAS_PROC_BADPIN	5	/* ESRCH: no such entry for the caller */

/**
 * struct meas_proc_rec - one process record, as filtered reads and the
 * generic netlink family return it
 * @size: bytes of the record: sizeof(struct meas_proc_rec), or for
 *	READACTIVE the record size the caller asked for
 * @slot: entry number, 1..slots (0: entry 0)
 * @index: entity index: generation << 32 | slot; stale once the entry
 *	is given to another process
 * @item: the entry's items
 *
 * The record grew with the entry in ABI 3 (MEAS_PROC_REC_SIZE_VER0 bytes
 * before): READACTIVE returns records of the size its caller names
 * (struct meas_readactive.recsize), netlink's MEAS_A_RECORD is as long
 * as the kernel's record and a reader copies what it knows of it
 * (Documentation/uapi.rst, "Old binaries").
 */
struct meas_proc_rec {
	__u32 size;
	__u32 slot;
	__aligned_u64 index;
	__aligned_u64 item[MEAS_PROC_ITEMS];
};

#define MEAS_PROC_REC_SIZE_VER0	528	/* 64 items: ABI 1 and 2 */

/*
 * Filtered reads, after NonStop Measure's MEASREADACTIVE: entity
 * descriptors select processes; a process is returned if it matches an
 * including descriptor (or no descriptor includes) and no excluding one.
 */
#define MEAS_ENT_PROCESS	15	/* type: include; -15: exclude */
#define MEAS_ENT_ANY		(-1)	/* pid, cpu, uid: any */
#define MEAS_ENT_PATTERN_LEN	32	/* bytes of a pattern, NUL included */
#define MEAS_RA_MAX_DESC	64	/* descriptors a call may pass */

/**
 * struct meas_entity_desc - a process entity descriptor
 * @type: MEAS_ENT_PROCESS to include, -MEAS_ENT_PROCESS to exclude
 * @len: sizeof(struct meas_entity_desc)
 * @pid: process ID in the caller's namespace, or MEAS_ENT_ANY
 * @cpu: CPU of the last switch-in, or MEAS_ENT_ANY
 * @uid: real user ID in the caller's namespace, or MEAS_ENT_ANY
 * @name: command-name pattern, NUL-terminated, the bytes after the NUL
 *	zero; '*' matches any run of characters; "" matches every name
 * @reserved: must be 0
 */
struct meas_entity_desc {
	__s32 type;
	__u32 len;
	__s32 pid;
	__s32 cpu;
	__s64 uid;
	char name[MEAS_ENT_PATTERN_LEN];
	__aligned_u64 reserved[2];
};

/**
 * struct meas_readactive - argument of MEAS_IOC_READACTIVE
 * @size: sizeof(struct meas_readactive), at least MEAS_READACTIVE_SIZE_VER0
 * @flags: must be 0
 * @descs: user address of @ndesc descriptors
 * @ndesc: 1..MEAS_RA_MAX_DESC
 * @result: out: MEAS_RA_* code
 * @buf: user address where the records (struct meas_proc_rec) go
 * @bufsize: bytes at @buf
 * @bytesret: out: bytes written; with MEAS_RA_BUFTOOSMALL, bytes needed
 * @entity_index: in: -1, or an index a previous call returned: then only
 *	that entry is read, if the process is still there and matches;
 *	out: the index of the first record, -1 if none
 * @records: out: records written (with MEAS_RA_BUFTOOSMALL: needed)
 * @pad: must be 0
 * @recsize: the size of each record at @buf, a multiple of 8 from
 *	MEAS_PROC_REC_SIZE_VER0 to sizeof(struct meas_proc_rec), or 0 for
 *	MEAS_PROC_REC_SIZE_VER0 (what a caller built before ABI 3 passes:
 *	this was a reserved word); a record holds the items that fit
 * @pad2: must be 0
 * @reserved: must be 0
 */
struct meas_readactive {
	__u32 size;
	__u32 flags;
	__aligned_u64 descs;
	__u32 ndesc;
	__s32 result;
	__aligned_u64 buf;
	__aligned_u64 bufsize;
	__aligned_u64 bytesret;
	__s64 entity_index;
	__u32 records;
	__u32 pad;
	__u32 recsize;
	__u32 pad2;
	__aligned_u64 reserved[1];
};

#define MEAS_READACTIVE_SIZE_VER0	80

/* READACTIVE result codes: NonStop Measure's numbers. */
#define MEAS_RA_OK		0	/* 0 */
#define MEAS_RA_BADDESC		2	/* EINVAL: a descriptor is malformed, or
					 * ndesc is 0 or too large
					 */
#define MEAS_RA_BUFTOOSMALL	3204	/* EOVERFLOW: nothing written (unless
					 * the table was full and reused its
					 * entries during the read: then what
					 * fitted); bytesret is the size needed
					 */
#define MEAS_RA_CANNOTACCESS	3402	/* ESTALE: the entity index is stale or
					 * no longer matches
					 */
#define MEAS_RA_NOTMEASURING	3404	/* ENODATA: class 15 not enabled (or
					 * disabled during the read)
					 */

/*
 * The generic netlink family "meas" (version 1), in the initial network
 * namespace.  Requests carry MEAS_A_PID (a process ID in the sender's
 * PID namespace, 0 for entry 0) or MEAS_A_SLOT; replies and events carry
 * MEAS_A_RECORD, a struct meas_proc_rec.
 *  - MEAS_CMD_GET: the record of one process; with NLM_F_DUMP, every
 *    used entry the sender may see.  ENODATA: class 15 not enabled;
 *    ESRCH: no such process for the sender.
 *  - Requests meas never sees fail in the generic netlink layer:
 *    EINVAL: a message shorter than its headers, the reserved byte of
 *    the genetlink header set, an attribute the command does not take
 *    (an unknown type, one of the other command's, one only the kernel
 *    sends), of the wrong length, or with NLA_F_NESTED or
 *    NLA_F_NET_BYTEORDER set; EOPNOTSUPP: a command the family does not
 *    serve (MEAS_CMD_EXIT is sent by the kernel); EBUSY: a dump is still
 *    running on the socket.  ENOMEM, EMSGSIZE: no memory or room for a
 *    reply.  EINTR: the sender was killed while it waited for another
 *    call.
 *  - MEAS_CMD_EXIT: sent to the multicast group "exits" (binding needs
 *    CAP_SYS_ADMIN) with the final record of each process that exits
 *    and MEAS_A_SEQ, numbered from 1 since class 15 was enabled: a
 *    listener that sees a gap missed that many records.
 *  - Every process record (GET, dump, EXIT) also carries MEAS_A_CGROUP,
 *    the process's item MEAS_P_CGROUP (the attribute came first, in ABI
 *    2; both stay); records of entry 0 carry none.
 *  - MEAS_CMD_CGROUP_GET (ABI 3): the per-cgroup totals of class 15
 *    (Documentation/cgroup.rst).  With MEAS_A_CGROUP (a cgroup v2 ID; 0
 *    names the overflow entry), that cgroup's record in
 *    MEAS_A_CGROUP_REC; without, the table's header in
 *    MEAS_A_CGROUP_HDR.  With NLM_F_DUMP, the header first, then one
 *    message per entry the sender may see, entry order.  A record of a
 *    removed cgroup also carries MEAS_A_CGROUP_PATH.  ENODATA: class 15
 *    not enabled; ENOENT: the cgroup has no entry (no thread counted in
 *    it since class 15 was enabled, or its removed entry was reused);
 *    EACCES: the sender may not see every process that counted in it.
 */
#define MEAS_GENL_NAME		"meas"
#define MEAS_GENL_VERSION	1
#define MEAS_GENL_MCGRP_EXITS	"exits"

enum meas_genl_cmd {
	MEAS_CMD_UNSPEC,
	MEAS_CMD_GET,
	MEAS_CMD_EXIT,
	MEAS_CMD_CGROUP_GET,	/* ABI 3 */
	__MEAS_CMD_MAX,
};

enum meas_genl_attr {
	MEAS_A_UNSPEC,
	MEAS_A_PID,		/* __u32 */
	MEAS_A_SLOT,		/* __u32 */
	MEAS_A_RECORD,		/* struct meas_proc_rec */
	MEAS_A_SEQ,		/* __u64 */
	MEAS_A_PAD,
	MEAS_A_CGROUP,		/* __u64: cgroup v2 ID */
	MEAS_A_CGROUP_HDR,	/* struct meas_cgroup_hdr (ABI 3) */
	MEAS_A_CGROUP_REC,	/* struct meas_cgroup_rec (ABI 3) */
	MEAS_A_CGROUP_PATH,	/* string: a removed cgroup's path (ABI 3) */
	__MEAS_A_MAX,
};

#define MEAS_A_MAX		(__MEAS_A_MAX - 1)

/*
 * Bytes of a removed cgroup's path the table keeps, the NUL included: a
 * longer path keeps its first MEAS_CGROUP_PATH_MAX - 1 bytes and its
 * record has MEAS_CG_PATH_TRUNCATED.
 */
#define MEAS_CGROUP_PATH_MAX	256

/* struct meas_cgroup_rec.flags */
#define MEAS_CG_OVERFLOW	0x1	/* the overflow entry (ID 0) */
#define MEAS_CG_REMOVED		0x2	/* the cgroup was removed */
#define MEAS_CG_PATH_TRUNCATED	0x4	/* MEAS_A_CGROUP_PATH is cut short */
#define MEAS_CG_THREADS_LOST	0x8	/* a thread in it had no thread
					 * record (proc_threads): counts low
					 */

/**
 * struct meas_cgroup_rec - the totals of one cgroup (MEAS_A_CGROUP_REC)
 * @size: sizeof(struct meas_cgroup_rec)
 * @flags: MEAS_CG_*
 * @id: the cgroup v2 ID; 0 for the overflow entry
 * @parent: the parent's ID; 0 for the root cgroup and the overflow entry
 * @level: depth below the root cgroup (the root is 0)
 * @slot: entry number, 1..cgroup_slots; 0 for the overflow entry
 * @threads: live threads counting in it now
 * @folded: threads whose counts were folded into it as they left it,
 *	by exit or by migration
 * @exited: of those, the threads that exited in it
 * @clock: the kernel's clock (local_clock(), ns) at this read: the live
 *	threads' running states are counted up to it
 * @reserved: 0
 * @item: the counters of class 15 at their item numbers (MEAS_P_LAUNCHES,
 *	MEAS_P_STOP_*, MEAS_P_CPU_TIME, MEAS_P_PAUSE_*, MEAS_P_DISC_*):
 *	what threads counted while they were in this cgroup, those gone
 *	and those in it now; every other item reads 0
 */
struct meas_cgroup_rec {
	__u32 size;
	__u32 flags;
	__aligned_u64 id;
	__aligned_u64 parent;
	__u32 level;
	__u32 slot;
	__aligned_u64 threads;
	__aligned_u64 folded;
	__aligned_u64 exited;
	__aligned_u64 clock;
	__aligned_u64 reserved[3];
	__aligned_u64 item[MEAS_PROC_ITEMS];
};

/**
 * struct meas_cgroup_hdr - the per-cgroup table (MEAS_A_CGROUP_HDR)
 * @size: sizeof(struct meas_cgroup_hdr)
 * @flags: 0
 * @slots: entries (the module parameter cgroup_slots), the overflow
 *	entry apart
 * @used: entries that hold a cgroup
 * @removed: of those, cgroups that were removed
 * @hidden: entries a dump leaves out because the sender may not see
 *	every process that counted in them (as judged when the dump
 *	began); 0 in a GET
 * @overflow_threads: threads that entered a cgroup with no free entry
 *	and count in the overflow entry instead
 * @overflow_folds: folds into the overflow entry (exits and migrations
 *	of those threads)
 * @reused: entries of removed cgroups given to other cgroups
 * @started: when class 15 was enabled, ns since the epoch
 *	(MEAS_P0_STARTED): every total counts from then
 * @clock: the kernel's clock (local_clock(), ns) at this read
 * @mem: bytes the table uses
 * @reserved: 0
 */
struct meas_cgroup_hdr {
	__u32 size;
	__u32 flags;
	__u32 slots;
	__u32 used;
	__u32 removed;
	__u32 hidden;
	__aligned_u64 overflow_threads;
	__aligned_u64 overflow_folds;
	__aligned_u64 reused;
	__aligned_u64 started;
	__aligned_u64 clock;
	__aligned_u64 mem;
	__aligned_u64 reserved[4];
};

#endif /* _UAPI_LINUX_MEAS_PROC_H */

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: the shared clock, GETCLOCK and GIVECLOCK, and the format of the
 * clock's buffer (included by <linux/meas.h>).  Documentation/clock.rst.
 */
#ifndef _UAPI_LINUX_MEAS_CLOCK_H
#define _UAPI_LINUX_MEAS_CLOCK_H

#include <linux/types.h>
#include <linux/meas_core.h>

/*
 * One owner at a time: the open file of /dev/meas whose GETCLOCK took the
 * clock.  Its collector, chosen by id where MPE IV took the PLABEL of a
 * data collection procedure, runs on every tick of one pinned timer per
 * online CPU and writes records into the clock's buffer, which the owner
 * reads through a descriptor GETCLOCK returns (read, poll, mmap).
 */
#define MEAS_COLLECTOR_NONE	0	/* GETCLOCK: the owner's own collector */
#define MEAS_COLLECTOR_PC	1	/* program counter of every CPU */
#define MEAS_COLLECTOR_SNAP	2	/* class 0 subclass 0, once a tick */
#define MEAS_COLLECTOR_STACK	3	/* program counter and call stacks */

#define MEAS_CLOCK_MIN_MS	5	/* shortest interval that may be asked */
#define MEAS_CLOCK_MAX_MS	1000	/* longest */

/* Records per CPU ring: rounded up to a power of two. */
#define MEAS_CLOCK_MIN_RECORDS	16
#define MEAS_CLOCK_MAX_RECORDS	0x80000000U
#define MEAS_CLOCK_DEF_RECORDS	4096	/* when 0 is asked */

/*
 * GETCLOCK result codes (ERRORN), with their errno, in the order they are
 * checked.  Codes 1 and 7 do not arise on Linux.
 */
#define MEAS_GETCLOCK_OK		0	/* 0 */
#define MEAS_GETCLOCK_MISSING		1	/* does not arise: a short struct is EINVAL */
#define MEAS_GETCLOCK_INUSE		2	/* EBUSY: the clock has an owner */
#define MEAS_GETCLOCK_BADRATE		3	/* ERANGE: intrate not 0 nor 5..1000 */
#define MEAS_GETCLOCK_BADCOLLECTOR	4	/* EINVAL: unknown collector, or
						 * collector 0 with intrate 0
						 */
#define MEAS_GETCLOCK_NOCODE		5	/* EIO: the collector's source
						 * (class 0) could not be enabled
						 */
#define MEAS_GETCLOCK_NOBUF		6	/* EINVAL: records or wakeup out of
						 * range; E2BIG: buffer above
						 * max_clock_kib; ENOMEM
						 */
#define MEAS_GETCLOCK_NONRESIDENT	7	/* does not arise */
#define MEAS_GETCLOCK_NOENTRY		8	/* EMFILE, ENFILE, ENOMEM: no
						 * descriptor for the buffer
						 */
#define MEAS_GETCLOCK_NOTOWNER		9	/* EACCES: collector 0, not owner */
#define MEAS_GETCLOCK_NORESET		10	/* EALREADY: new interval while
						 * ticking (GIVECLOCK(0) first)
						 */

/* GIVECLOCK results: the condition codes of MPE IV. */
#define MEAS_GIVECLOCK_OK		0	/* CCE: 0 */
#define MEAS_GIVECLOCK_NOTOWNER		1	/* CCG: EACCES, not the owner */
#define MEAS_GIVECLOCK_BADCOLLECTOR	2	/* CCL: EINVAL, not the owner's
						 * collector
						 */

/**
 * struct meas_getclock - argument of MEAS_IOC_GETCLOCK
 * @size: sizeof(struct meas_getclock), at least MEAS_GETCLOCK_SIZE_VER0
 * @flags: must be 0
 * @intrate: in: interval asked, ms, 5..1000, or 0 to initialise only;
 *	out: the interval granted by GETINTRATE (0 after initialising)
 * @collector: MEAS_COLLECTOR_PC or _SNAP to take the clock, 0 for the
 *	owner to start ticking again
 * @records: records per CPU ring, 0 for MEAS_CLOCK_DEF_RECORDS; must be
 *	0 with collector 0
 * @wakeup: wake a waiting reader when a ring holds this many unread
 *	records (0 means 1); at most the ring's records; 0 with collector 0
 * @result: out: MEAS_GETCLOCK_* code
 * @fd: out: descriptor of the buffer made by this call (O_RDONLY,
 *	O_CLOEXEC), or -1
 * @base_ms: out: GETINTRATE's clock interrupt interval (INT), ms
 * @quotient: out: GETINTRATE's QN: @intrate = @base_ms * @quotient
 * @reserved: must be 0
 */
struct meas_getclock {
	__u32 size;
	__u32 flags;
	__s32 intrate;
	__u32 collector;
	__u32 records;
	__u32 wakeup;
	__s32 result;
	__s32 fd;
	__u32 base_ms;
	__u32 quotient;
	__aligned_u64 reserved[2];
};

#define MEAS_GETCLOCK_SIZE_VER0	56

/**
 * struct meas_giveclock - argument of MEAS_IOC_GIVECLOCK
 * @size: sizeof(struct meas_giveclock), at least MEAS_GIVECLOCK_SIZE_VER0
 * @flags: must be 0
 * @collector: 0 to stop ticking and keep the clock, its collector and
 *	buffer; the owner's collector to release all of it
 * @result: out: MEAS_GIVECLOCK_* code
 * @reserved: must be 0
 */
struct meas_giveclock {
	__u32 size;
	__u32 flags;
	__u32 collector;
	__s32 result;
	__aligned_u64 reserved[2];
};

#define MEAS_GIVECLOCK_SIZE_VER0	32

/* state of the clock (struct meas_clockinfo, struct meas_clockbuf_head) */
#define MEAS_CLOCK_FREE		0	/* no owner */
#define MEAS_CLOCK_OWNED	1	/* owner, collector and buffer; no tick */
#define MEAS_CLOCK_TICKING	2	/* ticking at the granted interval */
#define MEAS_CLOCK_RELEASED	3	/* buffer only: its clock was given up */

/**
 * struct meas_clockinfo - argument of MEAS_IOC_CLOCKINFO (no privilege)
 *
 * Every field but @size is output.
 *
 * @size: sizeof(struct meas_clockinfo), at least MEAS_CLOCKINFO_SIZE_VER0
 * @state: MEAS_CLOCK_FREE, _OWNED or _TICKING
 * @mine: 1 if the calling open file owns the clock
 * @collector: the owner's collector, 0 when free
 * @intrate: granted interval in ms while ticking, else 0
 * @owner_pid: thread group that took the clock, in the caller's PID
 *	namespace (0 when free or not visible)
 * @cpus: CPUs whose timer is armed
 * @records: records per CPU ring of the owner's buffer
 * @ticks: timer expiries handled since the clock was taken, all CPUs
 * @missed: expiries missed (a timer late by a period or more)
 * @written: records written
 * @reserved: 0
 */
struct meas_clockinfo {
	__u32 size;
	__u32 state;
	__u32 mine;
	__u32 collector;
	__u32 intrate;
	__s32 owner_pid;
	__u32 cpus;
	__u32 records;
	__aligned_u64 ticks;
	__aligned_u64 missed;
	__aligned_u64 written;
	__aligned_u64 reserved[4];
};

#define MEAS_CLOCKINFO_SIZE_VER0	88

/*
 * The buffer behind the descriptor GETCLOCK returns.  mmap() maps it read
 * only (offset 0 up to @map_size): first struct meas_clockbuf_head, then
 * at @ring_offset one struct meas_clockbuf_ring per possible CPU, then at
 * @data_offset the records of ring 0, ring n at @data_offset + n *
 * @ring_stride.  Record number i of a ring (counting from 0 since the
 * clock was taken) is in slot i % @ring_records; it is complete when its
 * seq reads i + 1 before and after it is copied.  A ring is overwritten
 * when full: read() counts what it could not return in the ring's lost.
 */
#define MEAS_CLOCKBUF_MAGIC	0x314b4c4353414d45ULL	/* "EMASCLK1" LE */
#define MEAS_CLOCKBUF_VERSION	1

/**
 * struct meas_clockbuf_head - first bytes of the buffer
 * @magic: MEAS_CLOCKBUF_MAGIC
 * @version: MEAS_CLOCKBUF_VERSION
 * @collector: the collector writing the records
 * @record_size: bytes of one record
 * @nr_rings: rings, one per possible CPU, numbered by CPU
 * @ring_records: records per ring, a power of two
 * @ring_offset: offset of the first struct meas_clockbuf_ring
 * @data_offset: offset of the first record of ring 0
 * @ring_stride: bytes from one ring's records to the next's
 * @map_size: bytes that may be mapped
 * @state: MEAS_CLOCK_OWNED, _TICKING or _RELEASED
 * @intrate: granted interval while ticking, ms
 * @wakeup: unread records that wake a waiting reader
 * @pad: 0
 * @reserved: 0
 */
struct meas_clockbuf_head {
	__aligned_u64 magic;
	__u32 version;
	__u32 collector;
	__u32 record_size;
	__u32 nr_rings;
	__aligned_u64 ring_records;
	__aligned_u64 ring_offset;
	__aligned_u64 data_offset;
	__aligned_u64 ring_stride;
	__aligned_u64 map_size;
	__u32 state;
	__u32 intrate;
	__u32 wakeup;
	__u32 pad;
	__aligned_u64 reserved[22];
};

/**
 * struct meas_clockbuf_ring - counters of one CPU's ring
 * @head: records written since the clock was taken (by the tick)
 * @ticks: timer expiries handled on this CPU
 * @missed: expiries missed: the timer came a period or more late
 * @reserved0: 0
 * @tail: next record read() returns (by read())
 * @lost: records overwritten before read() could return them
 * @reserved1: 0
 */
struct meas_clockbuf_ring {
	__aligned_u64 head;
	__aligned_u64 ticks;
	__aligned_u64 missed;
	__aligned_u64 reserved0[5];
	__aligned_u64 tail;
	__aligned_u64 lost;
	__aligned_u64 reserved1[6];
};

/* flags of struct meas_clock_rec */
#define MEAS_REC_USER		0x1	/* PC: the CPU was in user mode */
#define MEAS_REC_IDLE		0x2	/* PC: the idle task ran */
#define MEAS_REC_NOREGS		0x4	/* PC: no interrupted registers: ip 0 */
#define MEAS_REC_KTRUNC		0x8	/* STACK: kernel stack cut at its bound */
#define MEAS_REC_UTRUNC		0x10	/* STACK: user stack cut at its bound */

/**
 * struct meas_clock_rec - first bytes of every record
 * @seq: record number in its ring + 1; written last
 * @time: CLOCK_MONOTONIC, ns, when the tick ran
 * @missed: ticks this CPU missed just before this one
 * @cpu: the CPU that ticked
 * @flags: MEAS_REC_*
 */
struct meas_clock_rec {
	__aligned_u64 seq;
	__aligned_u64 time;
	__aligned_u64 missed;
	__u32 cpu;
	__u32 flags;
};

/**
 * struct meas_clock_pc - record of MEAS_COLLECTOR_PC, one per CPU a tick
 * @hdr: the record header
 * @ip: instruction pointer of the interrupted context
 * @pid: thread ID in the initial PID namespace; 0 for the idle task
 * @tgid: process ID in the initial PID namespace
 * @comm: command name, NUL-terminated
 */
struct meas_clock_pc {
	struct meas_clock_rec hdr;
	__aligned_u64 ip;
	__u32 pid;
	__u32 tgid;
	char comm[16];
};

/*
 * Call stacks (MEAS_COLLECTOR_STACK).  The record is version 2 of the PC
 * record: a struct meas_clock_pc, unchanged, then the stacks.  A reader of
 * PC records that steps by the head's record_size reads its first part.
 * Kernel frames come first, innermost (the interrupted instruction) first,
 * at most MEAS_CLOCK_KSTACK_MAX; then the user frames, innermost first,
 * followed by frame pointers and read without faulting, up to the
 * record's MEAS_CLOCK_STACK_FRAMES.  A return address is the instruction
 * after its call.
 */
#define MEAS_CLOCK_STACK_FRAMES	64
#define MEAS_CLOCK_KSTACK_MAX	32

/**
 * struct meas_clock_stack - record of MEAS_COLLECTOR_STACK, one per CPU a
 * tick
 * @pc: the PC record: ip, task and flags as MEAS_COLLECTOR_PC writes them,
 *	with MEAS_REC_KTRUNC or _UTRUNC where a stack was cut at its bound
 * @nr_kernel: kernel frames in @frame, from index 0; 0 when the tick
 *	interrupted user mode
 * @nr_user: user frames in @frame, from index @nr_kernel; 0 for a kernel
 *	thread or where the user registers are not at hand
 * @frame: the addresses, the first @nr_kernel + @nr_user of them; the
 *	rest are 0
 */
struct meas_clock_stack {
	struct meas_clock_pc pc;
	__u32 nr_kernel;
	__u32 nr_user;
	__aligned_u64 frame[MEAS_CLOCK_STACK_FRAMES];
};

/**
 * struct meas_clock_snap - record of MEAS_COLLECTOR_SNAP, one a tick,
 * written by the lowest-numbered ticking CPU
 * @hdr: the record header
 * @item: class 0 subclass 0 items 0..99, as GETSTATISTICS reads them
 */
struct meas_clock_snap {
	struct meas_clock_rec hdr;
	__aligned_u64 item[MEAS_C0_FIXED_ITEMS];
};

#endif /* _UAPI_LINUX_MEAS_CLOCK_H */

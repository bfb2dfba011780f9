/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: disks (class 0, subclasses 1 to 4) and the I/O trace (class 14)
 * (included by <linux/meas.h>).  Documentation/class0.rst and
 * Documentation/io.rst.
 */
#ifndef _UAPI_LINUX_MEAS_IO_H
#define _UAPI_LINUX_MEAS_IO_H

#include <linux/types.h>
#include <linux/meas_core.h>

/* A device number in an item: the major above the minor. */
#define MEAS_DEV(major, minor)	(((__u64)(major) << 32) | (__u32)(minor))
#define MEAS_DEV_MAJOR(dev)	((__u32)((dev) >> 32))
#define MEAS_DEV_MINOR(dev)	((__u32)(dev))

/*
 * A tape's "device number" (subclass 3): its SCSI address, with bit 63
 * set so that it can never equal a block device number.
 */
#define MEAS_TAPE_ADDR(host, channel, id, lun) \
	((1ULL << 63) | ((__u64)((host) & 0xffff) << 40) | \
	 ((__u64)((channel) & 0xff) << 32) | ((__u64)((id) & 0xffff) << 16) | \
	 ((__u64)(lun) & 0xffff))

/*
 * Class 0 subclass 1: one entry per disk, MEAS_C0_DISC_ITEMS items.  Entry
 * 0 is longer than its 3 header words: its items 0..20 profile the disks
 * that found no entry (more than max_disks), so item n of entry k is
 * GETSTATISTICS item k * 21 + n.  Every completed read lands in exactly
 * one of items 1, 2, 5, 7, 9 and every completed write in one of 3, 4,
 * 6, 8, 10, in the order of precedence that Documentation/class0.rst gives.
 */
#define MEAS_C0_DISC_DEV		0	/* MEAS_DEV(), 0 in entry 0 */
#define MEAS_C0_DISC_READ_CODE		1	/* not applicable: 0 */
#define MEAS_C0_DISC_READ_SWAP		2	/* swap-in reads */
#define MEAS_C0_DISC_WRITE_FORCED	3	/* FUA or preflush writes */
#define MEAS_C0_DISC_WRITE_BACKGROUND	4	/* background writeback, swap-out */
#define MEAS_C0_DISC_READ_SYNC		5	/* reads a task waits for */
#define MEAS_C0_DISC_WRITE_SYNC		6	/* synchronous writes */
#define MEAS_C0_DISC_READ_ASYNC		7	/* readahead */
#define MEAS_C0_DISC_WRITE_ASYNC	8	/* other asynchronous writes */
#define MEAS_C0_DISC_READ_NOWAIT	9	/* nowait or polled reads */
#define MEAS_C0_DISC_WRITE_NOWAIT	10	/* nowait or polled writes */
#define MEAS_C0_DISC_BUFFER_TRAPS	11	/* not applicable: 0 */
#define MEAS_C0_DISC_BUSY		12	/* requeues: device or driver busy */
#define MEAS_C0_DISC_CONTROL		13	/* flush, discard, zeroes, zone,
						 * passthrough
						 */
#define MEAS_C0_DISC_QLEN0		14	/* in flight at insert: 0 .. */
#define MEAS_C0_DISC_QLEN_BUCKETS	7	/* .. item 20: 6 or more */

/* Subclasses 2 (line printers) and 3 (tapes): items of an entry. */
#define MEAS_C0_UNIT_DEV		0	/* device number or tape address */
#define MEAS_C0_UNIT_READS		1	/* reads completed */
#define MEAS_C0_UNIT_WRITES		2	/* writes completed */
#define MEAS_C0_UNIT_CONTROL		3	/* control operations completed */

/*
 * Class 0 subclass 4 (a meas extension): per disk, what iostat needs.
 * Entry k is the disk of subclass 1 entry k; entry 0 has 3 header words
 * and MEAS_C0_XFER_ITEMS items for the disks without an entry, as in
 * subclass 1.  Times are in nanoseconds, from insert to completion.
 */
#define MEAS_C0_XFER_DEV		0	/* MEAS_DEV() */
#define MEAS_C0_XFER_READS		1	/* reads completed */
#define MEAS_C0_XFER_WRITES		2	/* writes completed */
#define MEAS_C0_XFER_READ_BYTES		3	/* bytes read */
#define MEAS_C0_XFER_WRITE_BYTES	4	/* bytes written */
#define MEAS_C0_XFER_DISCARD_BYTES	5	/* discarded, erased, zeroed */
#define MEAS_C0_XFER_READ_NS		6	/* ns of the timed reads */
#define MEAS_C0_XFER_WRITE_NS		7	/* ns of the timed writes */
#define MEAS_C0_XFER_READS_TIMED	8	/* reads seen from insert */
#define MEAS_C0_XFER_WRITES_TIMED	9	/* writes seen from insert */
#define MEAS_C0_XFER_QUEUE_NS		10	/* ns of every timed request */
#define MEAS_C0_XFER_SERVICE_NS		11	/* ns from issue to completion */
#define MEAS_C0_XFER_INFLIGHT		12	/* requests in flight now */
#define MEAS_C0_XFER_UNTRACKED		13	/* completions not seen inserted */

/*
 * Class 14 (IOSTATXDS): one subclass, a ring of struct meas_io_record.
 * Entry 0 is the header of FORMATIOSTATSEG, one item per MPE word where
 * MPE had one, then one MEAS_IO_PART_WORDS block per partition: each CPU
 * writes the records it completes into its own partition of the ring.
 * Entries 1.. are the records, partition p holding entries
 * p * MEAS_IO_H_PART_RECORDS + 1 onwards.
 */
#define MEAS_IO_SUB_RING	0
#define MEAS_IO_H_NEXT		0	/* MPE's next slot: per partition, 0 */
#define MEAS_IO_H_CAPACITY	1	/* records the ring holds */
#define MEAS_IO_H_TOTAL		2	/* records written (double: 3 reads 0) */
#define MEAS_IO_H_LOST		4	/* records overwritten: TOTAL - held */
#define MEAS_IO_H_PARTS		5	/* partitions: one per CPU number */
#define MEAS_IO_H_PART_RECORDS	6	/* records per partition */
#define MEAS_IO_H_RECORD_WORDS	7	/* words per record (16) */
#define MEAS_IO_H_IDENT		8	/* MEAS_IO_IDENT (9..11 read 0) */
#define MEAS_IO_H_UNTRACKED	12	/* records of requests not seen inserted */
#define MEAS_IO_H_SESSION	13	/* number of this enabling of class 14 */
#define MEAS_IO_H_START		14	/* CLOCK_MONOTONIC ns (15 reads 0) */
#define MEAS_IO_H_START_REAL	16	/* CLOCK_REALTIME ns at the same time */
#define MEAS_IO_H_TRACK_SLOTS	17	/* slots of the request table */
#define MEAS_IO_H_TRACK_FULL	18	/* requests the full table left out */
#define MEAS_IO_H_STALE		19	/* records of vanished requests reused */
#define MEAS_IO_H_PART0		21	/* item of partition 0's block */
#define MEAS_IO_PART_WORDS	8
#define MEAS_IO_P_CPU		0	/* the CPU number */
#define MEAS_IO_P_NEXT		1	/* entry its next record goes to */
#define MEAS_IO_P_TOTAL		2	/* records it wrote */
#define MEAS_IO_P_FIRST		3	/* its first entry */
#define MEAS_IO_P_RECORDS	4	/* its entries */
#define MEAS_IO_P_UNTRACKED	5	/* its records flagged UNTRACKED */
#define MEAS_IO_P_STARTED	6	/* records whose writing began */
#define MEAS_IO_IDENT		0x54415453204f2f49ULL	/* "I/O STAT" LE */
#define MEAS_IO_RECORDS_MIN	256	/* least io_records */

/* struct meas_io_record.op */
#define MEAS_IO_OP_READ		0
#define MEAS_IO_OP_WRITE	1
#define MEAS_IO_OP_FLUSH	2
#define MEAS_IO_OP_DISCARD	3
#define MEAS_IO_OP_SECURE_ERASE	4
#define MEAS_IO_OP_WRITE_ZEROES	5
#define MEAS_IO_OP_ZONE_APPEND	6	/* a write */
#define MEAS_IO_OP_ZONE_MGMT	7	/* open, close, finish, reset */
#define MEAS_IO_OP_DRV_IN	8	/* passthrough from the device */
#define MEAS_IO_OP_DRV_OUT	9	/* passthrough to the device */
#define MEAS_IO_OP_OTHER	15

/* struct meas_io_record.flags: the request's flags ... */
#define MEAS_IO_F_SYNC		0x00000001
#define MEAS_IO_F_META		0x00000002
#define MEAS_IO_F_PRIO		0x00000004
#define MEAS_IO_F_FUA		0x00000008
#define MEAS_IO_F_PREFLUSH	0x00000010
#define MEAS_IO_F_RAHEAD	0x00000020
#define MEAS_IO_F_BACKGROUND	0x00000040
#define MEAS_IO_F_NOWAIT	0x00000080
#define MEAS_IO_F_POLLED	0x00000100
#define MEAS_IO_F_SWAP		0x00000200
#define MEAS_IO_F_IDLE		0x00000400
/* ... and what meas knows about the record */
#define MEAS_IO_F_PARTIAL	0x00010000	/* not the request's last event */
#define MEAS_IO_F_BIO		0x00020000	/* bio-based device: a bio */
#define MEAS_IO_F_UNTRACKED	0x00040000	/* not seen inserted: pid, comm,
						 * insert, issue, depth are 0
						 */
#define MEAS_IO_F_REQUEUED	0x00080000	/* requeued at least once */
#define MEAS_IO_F_TAPE		0x00100000	/* dev is MEAS_TAPE_ADDR() */

/**
 * struct meas_io_record - one completion, in the class 14 ring
 * @dev: MEAS_DEV() of the whole disk, a tape address, or 0 (no disk)
 * @sector: first sector (512 bytes) of the request on the whole disk
 * @bytes: bytes this completion event ended
 * @op: MEAS_IO_OP_*
 * @pad: 0
 * @flags: MEAS_IO_F_*
 * @status: 0 or a negative errno
 * @pid: thread that inserted the request, in the initial PID namespace
 * @tgid: its process
 * @depth: requests of the same disk in flight when this one was inserted
 * @cpu: CPU that completed it (its partition)
 * @alloc_ns: the kernel's allocation time of the request (start_time_ns),
 *	0 when the kernel does not stamp it (Documentation/io.rst)
 * @insert_ns: when it entered the queue, as meas saw it
 * @issue_ns: when the driver last received it
 * @complete_ns: when it completed
 * @seq: its position in its partition: 0 for the first record
 * @comm: command name of @pid
 * @cgroup: cgroup v2 ID of the block cgroup the I/O is charged to (the
 *	bio's blkcg; for a request, its bios', which share one): for
 *	writeback, the owner of the pages, not the flusher (ABI 3).  0 when
 *	the kernel has no block cgroups or the request has no bio
 * @proc_start_ns: when @tgid's process started: its thread group
 *	leader's start time, CLOCK_BOOTTIME nanoseconds (/proc/PID/stat's
 *	starttime, in ns); with @tgid and @proc_exec_id, which process it
 *	was, not only which number
 * @proc_exec_id: the kernel's execve() count of that process when the
 *	request entered: it changes at each execve(), a set-user-ID one
 *	included
 *
 * Times are CLOCK_MONOTONIC nanoseconds.  The record is 16 region words.
 */
struct meas_io_record {
	__aligned_u64 dev;
	__aligned_u64 sector;
	__u32 bytes;
	__u16 op;
	__u16 pad;
	__u32 flags;
	__s32 status;
	__s32 pid;
	__s32 tgid;
	__u32 depth;
	__u32 cpu;
	__aligned_u64 alloc_ns;
	__aligned_u64 insert_ns;
	__aligned_u64 issue_ns;
	__aligned_u64 complete_ns;
	__aligned_u64 seq;
	char comm[16];
	__aligned_u64 cgroup;
	__aligned_u64 proc_start_ns;
	__aligned_u64 proc_exec_id;
};

#define MEAS_IO_RECORD_WORDS	16

/* flags of struct meas_iotrace_read */
#define MEAS_IOTRACE_FROM_NOW	0x1	/* skip what was written so far */

/* out_flags of struct meas_iotrace_read */
#define MEAS_IOTRACE_NEW_SESSION 0x1	/* class 14 was enabled anew: the
					 * cursor restarted at its beginning
					 */

/**
 * struct meas_iotrace_read - argument of MEAS_IOC_IOTRACE_READ
 * @size: sizeof(struct meas_iotrace_read), at least MEAS_IOTRACE_SIZE_VER0
 * @flags: 0 or MEAS_IOTRACE_FROM_NOW
 * @buf: user address of an array of struct meas_io_record
 * @buflen: its length in bytes
 * @records: out: records copied to @buf, in completion-time order
 * @lost: out: records overwritten before this file could read them,
 *	since its previous read
 * @total: out: records written since class 14 was enabled
 * @pending: out: records written but not yet returned to this file
 * @session: out: MEAS_IO_H_SESSION of the ring read
 * @result: out: MEAS_IOTRACE_* code
 * @out_flags: out: MEAS_IOTRACE_NEW_SESSION
 * @reserved: must be 0
 *
 * Each open file has its own cursor.  Records lost and records returned
 * add up to the records written (Documentation/io.rst).  The caller must
 * have CAP_PERFMON or CAP_SYS_ADMIN (EPERM).
 */
struct meas_iotrace_read {
	__u32 size;
	__u32 flags;
	__aligned_u64 buf;
	__aligned_u64 buflen;
	__aligned_u64 records;
	__aligned_u64 lost;
	__aligned_u64 total;
	__aligned_u64 pending;
	__aligned_u64 session;
	__s32 result;
	__u32 out_flags;
	__aligned_u64 reserved[2];
};

#define MEAS_IOTRACE_SIZE_VER0	88

/* MEAS_IOC_IOTRACE_READ result codes */
#define MEAS_IOTRACE_OK		0	/* 0 */
#define MEAS_IOTRACE_NOTENABLED	1	/* ENODATA: class 14 not enabled */
#define MEAS_IOTRACE_BOUNDS	2	/* ENOBUFS: buflen below one record;
					 * EFAULT: buf not writable (the
					 * records stay unread)
					 */

/* ---- I/O latency histograms (class 0 subclass 5, a meas extension) -------
 * Documentation/io.rst, "Latency histograms".
 *
 * One entry per disk (entry k is the disk of subclass 1 entry k; entry 0
 * has 3 header words and MEAS_C0_LAT_ITEMS items for the disks without
 * an entry).  Item 0 is the device number, then one block of
 * MEAS_C0_LAT_OP_ITEMS items for each operation, in the groups of
 * /proc/diskstats: item MEAS_C0_LAT_OP(op) + MEAS_C0_LAT_COUNT is the
 * number of completed requests of that group.  A request is timed from
 * the moment it entered its queue to its completion; bucket b counts the
 * timed requests of at most MEAS_C0_LAT_BOUND_NS(b) nanoseconds and more
 * than the bound of bucket b - 1, the last bucket the rest.
 */
#define MEAS_C0_SUB_LAT		5	/* disks: latency histograms (Linux) */

#define MEAS_C0_LAT_READ	0	/* reads */
#define MEAS_C0_LAT_WRITE	1	/* writes, write zeroes, zone append */
#define MEAS_C0_LAT_DISCARD	2	/* discards */
#define MEAS_C0_LAT_FLUSH	3	/* cache flushes */
#define MEAS_C0_LAT_NR_OPS	4

#define MEAS_C0_LAT_BUCKETS	26	/* 2^10 ns .. 2^34 ns, then more */
#define MEAS_C0_LAT_SHIFT0	10	/* bound of bucket 0: 2^10 ns */
#define MEAS_C0_LAT_BOUND_NS(b)	(1ULL << (MEAS_C0_LAT_SHIFT0 + (b)))

/* Items of one operation's block */
#define MEAS_C0_LAT_COUNT	0	/* requests completed */
#define MEAS_C0_LAT_UNTIMED	1	/* ... not seen entering: no bucket */
#define MEAS_C0_LAT_SUM_NS	2	/* ns of the timed requests */
#define MEAS_C0_LAT_BUCKET0	3	/* MEAS_C0_LAT_BUCKETS buckets */
#define MEAS_C0_LAT_OP_ITEMS	(MEAS_C0_LAT_BUCKET0 + MEAS_C0_LAT_BUCKETS)

#define MEAS_C0_LAT_DEV		0	/* MEAS_DEV(), 0 in entry 0 */
#define MEAS_C0_LAT_OP(op)	(1 + (op) * MEAS_C0_LAT_OP_ITEMS)
#define MEAS_C0_LAT_ITEMS	MEAS_C0_LAT_OP(MEAS_C0_LAT_NR_OPS)

/* ---- end of the I/O latency histograms ---------------------------------- */

#endif /* _UAPI_LINUX_MEAS_IO_H */

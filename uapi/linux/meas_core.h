/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: the core of the user-space API (included by <linux/meas.h>):
 * the classes, STARTSTATISTICS, STOPSTATISTICS, GETSTATISTICS, the state
 * of the facility, the XDS region and the items of class 0 subclass 0.
 * Documentation/uapi.rst and Documentation/class0.rst.
 */
#ifndef _UAPI_LINUX_MEAS_CORE_H
#define _UAPI_LINUX_MEAS_CORE_H

#include <linux/types.h>

#define MEAS_DEVICE		"/dev/meas"

/* Sixteen classes, one bit each in a class mask, as in MPE IV. */
#define MEAS_NR_CLASSES		16
#define MEAS_CLASS_GLOBAL	0	/* MEASSTATXDS: global counters */
#define MEAS_CLASS_IO		14	/* IOSTATXDS: I/O trace */
#define MEAS_CLASS_PROC		15	/* MEASPROCXDS: per process */
#define MEAS_CLASSMASK_ALL	0xffffU

/* result value when no MPE code applies (malformed or unreadable struct) */
#define MEAS_RC_NONE		(-1)

/*
 * STARTSTATISTICS result codes, with the errno of each.
 */
#define MEAS_START_OK		0	/* 0 */
#define MEAS_START_NOVMEM	1	/* ENOMEM: region (vmalloc) not available */
#define MEAS_START_NODST	2	/* ENOMEM: per-CPU counter area not available */
#define MEAS_START_NOLOCK	3	/* EIO: event sources could not be attached */
#define MEAS_START_TOOBIG	4	/* E2BIG: region larger than max_region_kib */
#define MEAS_START_BADCLASS	5	/* EINVAL: class not defined (meas extension) */

/*
 * STOPSTATISTICS result codes.
 */
#define MEAS_STOP_OK		0	/* 0 */
#define MEAS_STOP_BADPARM	1	/* EINVAL: a bit above class 15 is set */

/*
 * GETSTATISTICS result codes, in the order they are checked after the
 * class number itself (a class outside 0..15 is code 6 at once).
 */
#define MEAS_GET_OK		0	/* 0 */
#define MEAS_GET_NOTENABLED	1	/* ENODATA: class not enabled (or
					 * disabled between two steps of a GET
					 * of more than 8192 words: words says
					 * how many were copied)
					 */
#define MEAS_GET_BOUNDS		2	/* ENOBUFS: buffer shorter than wordcount
					 * items; EFAULT: buffer not writable
					 */
#define MEAS_GET_BADCOUNT	3	/* ERANGE: wordcount out of range */
#define MEAS_GET_BADITEM	4	/* ERANGE: startingitem out of range */
#define MEAS_GET_BADSUBCLASS	5	/* EINVAL: no such subclass */
#define MEAS_GET_BADCLASS	6	/* EINVAL: class outside 0..15 */

/* startingitem of the subclass header (entries, items/entry, entry-0 size) */
#define MEAS_ITEM_HEADER	(-3)
#define MEAS_HEADER_WORDS	3

/**
 * struct meas_start - argument of MEAS_IOC_START and MEAS_IOC_STOP
 * @size: sizeof(struct meas_start), at least MEAS_START_SIZE_VER0
 * @flags: must be 0
 * @classmask: classes to enable or disable, bit N = class N
 * @result: out: the MPE result code (MEAS_START_* or MEAS_STOP_*)
 * @file_mask: out: this open file's enabled mask after the call
 * @global_mask: out: the global enabled mask after the call
 * @reserved: must be 0
 */
struct meas_start {
	__u32 size;
	__u32 flags;
	__u32 classmask;
	__s32 result;
	__u32 file_mask;
	__u32 global_mask;
	__aligned_u64 reserved[2];
};

#define MEAS_START_SIZE_VER0	40

/* flags of struct meas_get */
#define MEAS_GET_FAST		0x1	/* FGETSTATISTICS */

/**
 * struct meas_get - argument of MEAS_IOC_GET (GETSTATISTICS)
 * @size: sizeof(struct meas_get), at least MEAS_GET_SIZE_VER0
 * @flags: 0, or MEAS_GET_FAST for FGETSTATISTICS
 * @class: class number
 * @subclass: subclass number
 * @startingitem: first item; -3 starts at the subclass header
 * @wordcount: number of items (64-bit words) to transfer
 * @buf: user address of the destination array of __u64
 * @buflen: length of @buf in bytes
 * @result: out: MEAS_GET_* code
 * @pad: must be 0
 * @words: out: number of items copied to @buf
 * @reserved: must be 0
 */
struct meas_get {
	__u32 size;
	__u32 flags;
	__s32 class;
	__s32 subclass;
	__s64 startingitem;
	__s64 wordcount;
	__aligned_u64 buf;
	__aligned_u64 buflen;
	__s32 result;
	__u32 pad;
	__aligned_u64 words;
	__aligned_u64 reserved[2];
};

#define MEAS_GET_SIZE_VER0	80

/**
 * struct meas_info - argument of MEAS_IOC_INFO: state of the facility
 *
 * Every field but @size is output; the kernel overwrites them all.
 *
 * @size: sizeof(struct meas_info), at least MEAS_INFO_SIZE_VER0
 * @version: out: MEAS_ABI_VERSION
 * @global_mask: out: classes enabled by anyone (GCLASSENABLEDMASK)
 * @file_mask: out: classes enabled by this open file (PCLASSENABLEDMASK)
 * @defined_mask: out: classes that exist and can be enabled
 * @probes: out: tracepoint probes meas has registered now
 * @enablers: out: number of open files that enable each class
 * @region_bytes: out: bytes of each class's region, 0 while not enabled
 * @reserved: out: 0
 */
struct meas_info {
	__u32 size;
	__u32 version;
	__u32 global_mask;
	__u32 file_mask;
	__u32 defined_mask;
	__u32 probes;
	__u32 enablers[MEAS_NR_CLASSES];
	__aligned_u64 region_bytes[MEAS_NR_CLASSES];
	__aligned_u64 reserved[4];
};

#define MEAS_INFO_SIZE_VER0	248

/*
 * The version of this interface, in meas_info.version: raised whenever
 * an ioctl, a field or an item is added, so that a tool can tell a module
 * older than the header it was built with (Documentation/uapi.rst).
 *   1  the first release
 *   2  the kernel's clock of each read: class 0 items 96 and 97, class 15
 *      entry 0 words 18 and 19
 *   3  cgroups: class 15's item 64 (entries of 72 items), READACTIVE's
 *      recsize, class 14's cgroup, the per-cgroup totals
 *      (MEAS_CMD_CGROUP_GET)
 */
#define MEAS_ABI_VERSION	3

/*
 * The XDS region of a class, as GETSTATISTICS sees it: an array of 64-bit
 * words.  Word offsets below are from the start of the region.
 *
 *   0  MEAS_XDS_MAGIC         5  number of class slots (16)
 *   1  layout version         6..21 word offset of each class, 0 = absent
 *   2  region size in words   then the device table, then the classes
 *   3  device table offset
 *   4  device table slots (two words each: dev_t, offset of its entry)
 *
 * A class: word 0 the number of subclasses S, words 1..S the offset of
 * each subclass from the class base.  A subclass: entry 0, whose first
 * three words are the number of entries (entry 0 included), the items per
 * entry and the size of entry 0, then entries 1..n-1.  GETSTATISTICS item
 * numbers count from the word after those three, so item -3 is the
 * number of entries.
 */
#define MEAS_XDS_MAGIC		0x3153445853414d45ULL	/* "EMASXDS1" LE */
#define MEAS_XDS_VERSION	1
#define MEAS_XDS_W_MAGIC	0
#define MEAS_XDS_W_VERSION	1
#define MEAS_XDS_W_SIZE		2
#define MEAS_XDS_W_DEVTAB	3
#define MEAS_XDS_W_DEVSLOTS	4
#define MEAS_XDS_W_NCLASSES	5
#define MEAS_XDS_W_CLASS0	6
#define MEAS_XDS_HDR_WORDS	(MEAS_XDS_W_CLASS0 + MEAS_NR_CLASSES)

/* Class 0 subclasses */
#define MEAS_C0_SUB_FIXED	0	/* 100 fixed counters */
#define MEAS_C0_SUB_DISC	1	/* one entry per disk */
#define MEAS_C0_SUB_LP		2	/* line printers: none on Linux */
#define MEAS_C0_SUB_TAPE	3	/* tapes */
#define MEAS_C0_SUB_XFER	4	/* disks: bytes and times (Linux) */
#define MEAS_C0_NR_SUBCLASSES	6	/* 5: MEAS_C0_SUB_LAT, meas_io.h */
#define MEAS_C0_FIXED_ITEMS	100
#define MEAS_C0_DISC_ITEMS	21
#define MEAS_C0_LP_ITEMS	4
#define MEAS_C0_TAPE_ITEMS	4
#define MEAS_C0_XFER_ITEMS	14

/*
 * Class 0, subclass 0 item numbers (Documentation/class0.rst).  Items
 * missing here are not applicable on Linux and read 0.  Times are in
 * nanoseconds; a double item's second word reads 0.
 */
#define MEAS_C0_LAUNCHES		0	/* switch-ins of non-idle tasks */
#define MEAS_C0_STOP_DISC_BLOCKED	1	/* uninterruptible sleep, iowait */
#define MEAS_C0_STOP_DISC_UNBLOCKED	2	/* interruptible sleep, iowait */
#define MEAS_C0_STOP_BUSY_SIR		12	/* sleeping lock contended */
#define MEAS_C0_STOP_IMPEDE		13	/* interruptible sleep */
#define MEAS_C0_STOP_TIMED_OUT		22	/* sleep ended by its timeout */
#define MEAS_C0_PREEMPTIONS		23	/* switched out while runnable */
#define MEAS_C0_STOP_MISC_BLOCKED	24	/* uninterruptible, not iowait */
#define MEAS_C0_STOP_JOBCTL		25	/* stopped or traced (Linux) */
#define MEAS_C0_STOP_EXIT		26	/* final switch-out (Linux) */
#define MEAS_C0_FORKS			27	/* tasks created (Linux) */
#define MEAS_C0_EXECS			28	/* programs executed (Linux) */
#define MEAS_C0_EXITS			29	/* tasks exited (Linux) */
#define MEAS_C0_PAUSE_IDLE		30	/* switches to the idle task */
#define MEAS_C0_PAUSE_DISC		31	/* ... right after an iowait stop */
#define MEAS_C0_WAKEUPS			70	/* wakeups (Linux) */
#define MEAS_C0_WAKEUPS_NEW		71	/* first wakeups of new tasks */
#define MEAS_C0_MIGRATIONS		72	/* task migrations (Linux) */
#define MEAS_C0_TIME_IDLE		80	/* ns paused, idle */
#define MEAS_C0_TIME_DISC		84	/* ns paused for disc */
#define MEAS_C0_TIME_CPU		88	/* ns on processes */
/*
 * The kernel's clock (local_clock(), ns) when the sum of this read began
 * and when it ended (Linux; ABI 2): every time item above is the time up
 * to a moment between the two, so rates and shares of an interval are
 * taken against them, not against a clock of the caller's.
 */
#define MEAS_C0_CLOCK_START		96
#define MEAS_C0_CLOCK_END		97

#endif /* _UAPI_LINUX_MEAS_CORE_H */

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: the MPE IV measurement interface on Linux.
 *
 * User-space API of /dev/meas.  Every ioctl takes a pointer to a struct
 * whose first member is its size in bytes; the kernel accepts any size
 * from the first published size of that struct up to the size it knows,
 * and bytes beyond what it knows must be zero (E2BIG otherwise), so the
 * structs can grow.  Fields named reserved must be zero (EINVAL).
 *
 * Each measurement call reports two things:
 *  - the ioctl's return value and errno, the Linux category of the
 *    outcome, and
 *  - the result field, the numeric code the MPE IV intrinsic would have
 *    returned (0 = ok).  The struct is copied back even when the ioctl
 *    fails.  When the struct itself is malformed (EINVAL: size too small,
 *    reserved or pad not zero; E2BIG: unknown trailing bytes not zero;
 *    EOPNOTSUPP: unknown flags), unreadable (EFAULT) or the caller lacks
 *    the privilege (EPERM), nothing is copied back: callers preset
 *    result to MEAS_RC_NONE to tell these cases apart.  EINTR: a fatal
 *    signal came while the call waited for another one to finish.
 *    ENOTTY: an ioctl number /dev/meas does not know.
 *    ENOMEM from GET: no memory for the snapshot of the items.
 *    EFAULT after a START or STOP whose struct could not be written back
 *    does not undo what the call did: MEAS_IOC_INFO tells the state.
 *
 * The code tables (MEAS_START_*, MEAS_GET_*) list the errno of each code.
 * Documentation/uapi.rst describes every call in full.
 */
#ifndef _UAPI_LINUX_MEAS_H
#define _UAPI_LINUX_MEAS_H

#include <linux/types.h>
#include <linux/ioctl.h>

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
#define MEAS_GET_NOTENABLED	1	/* ENODATA: class not enabled */
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

#define MEAS_ABI_VERSION	1

#define MEAS_IOC_TYPE		0xE8
#define MEAS_IOC_START		_IO(MEAS_IOC_TYPE, 0x00)
#define MEAS_IOC_STOP		_IO(MEAS_IOC_TYPE, 0x01)
#define MEAS_IOC_GET		_IO(MEAS_IOC_TYPE, 0x02)
#define MEAS_IOC_INFO		_IO(MEAS_IOC_TYPE, 0x03)

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
#define MEAS_C0_NR_SUBCLASSES	6	/* 5: MEAS_C0_SUB_LAT, below */
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

/* ---- User-defined classes and UPDATESTATISTICS (Documentation/custom.rst) */

/*
 * Classes 1..13 may be defined at run time, by a privileged tool
 * (MEAS_IOC_DEFINE) or a kernel module (module/meas_api.h).  Classes 0,
 * 14 and 15 belong to the module.  A user-defined class has 1..16
 * subclasses; subclass s has entries 1..sub[s].entries, each of
 * sub[s].items items (entry 0 is the subclass header), so GETSTATISTICS
 * item n of subclass s is entry n / items + 1, item n % items.
 */
#define MEAS_CLASSMASK_RESERVED	0xc001U	/* 0, 14, 15: the module's own */
#define MEAS_CLASSMASK_CUSTOM	0x3ffeU	/* 1..13: may be user-defined */
#define MEAS_NAME_MAX		32	/* bytes of a name, the NUL included */
#define MEAS_CUSTOM_MAX_SUBCLASSES	16
#define MEAS_CUSTOM_MAX_ITEMS	256	/* items per entry */
#define MEAS_CUSTOM_MAX_CLASS_ITEMS	65536	/* items of all entries */

/* Kinds of item: how the kernel keeps it (Documentation/custom.rst). */
#define MEAS_ITEM_COUNTER	0	/* per-CPU: adds scale, replace is slow */
#define MEAS_ITEM_GAUGE		1	/* one atomic word: replace is cheap */

/**
 * struct meas_item_def - one item of an entry
 * @name: "" or a name of 1..31 printable ASCII characters other than
 *	space, NUL-terminated (what follows the NUL is ignored)
 * @kind: MEAS_ITEM_COUNTER or MEAS_ITEM_GAUGE
 * @reserved: must be 0
 */
struct meas_item_def {
	char name[MEAS_NAME_MAX];
	__u32 kind;
	__u32 reserved;
};

/**
 * struct meas_subclass_def - shape of one subclass
 * @name: "" or a name, as for items
 * @entries: number of entries after the header, at least 1
 * @items: items per entry, 1..MEAS_CUSTOM_MAX_ITEMS
 */
struct meas_subclass_def {
	char name[MEAS_NAME_MAX];
	__u32 entries;
	__u32 items;
};

/* flags of struct meas_define */
#define MEAS_DEFINE_REPLACE	0x1	/* MEAS_IOC_DEFINE: may redefine */

/**
 * struct meas_define - argument of MEAS_IOC_DEFINE, MEAS_IOC_UNDEFINE and
 * MEAS_IOC_DESCRIBE
 * @size: sizeof(struct meas_define), at least MEAS_DEFINE_SIZE_VER0
 * @flags: DEFINE: 0 or MEAS_DEFINE_REPLACE; UNDEFINE, DESCRIBE: 0
 * @class: class number
 * @result: out: MEAS_DEFINE_* code
 * @nsub: number of subclasses, 1..MEAS_CUSTOM_MAX_SUBCLASSES
 * @pad: must be 0
 * @name: "" or the class name, as for items
 * @sub: the subclasses; sub[nsub..] must be zero
 * @items: user address of the item definitions (struct meas_item_def),
 *	for each subclass in turn its sub[s].items items, or 0: every item
 *	an unnamed counter.  DESCRIBE: where to store them, or 0
 * @nitems: number of elements at @items: the sum of sub[s].items, or 0
 *	with @items 0.  DESCRIBE: in: room at @items; out: the sum
 * @reserved: must be 0
 *
 * UNDEFINE reads only @size, @flags and @class; the other inputs must be
 * 0.  DESCRIBE reads @size, @flags, @class, @items and @nitems and
 * overwrites every other field.
 */
struct meas_define {
	__u32 size;
	__u32 flags;
	__s32 class;
	__s32 result;
	__u32 nsub;
	__u32 pad;
	char name[MEAS_NAME_MAX];
	struct meas_subclass_def sub[MEAS_CUSTOM_MAX_SUBCLASSES];
	__aligned_u64 items;
	__aligned_u64 nitems;
	__aligned_u64 reserved[2];
};

#define MEAS_DEFINE_SIZE_VER0	728

/*
 * DEFINE, UNDEFINE and DESCRIBE result codes (a meas extension: MPE IV
 * defined its classes at system generation).
 */
#define MEAS_DEFINE_OK		0	/* 0 */
#define MEAS_DEFINE_BADCLASS	1	/* EINVAL: class outside 0..15 */
#define MEAS_DEFINE_RESERVED	2	/* EINVAL: a class the module owns */
#define MEAS_DEFINE_EXISTS	3	/* EEXIST: defined, no REPLACE flag */
#define MEAS_DEFINE_BUSY	4	/* EBUSY: enabled: cannot be redefined
					 * or removed
					 */
#define MEAS_DEFINE_NOCLASS	5	/* ENOENT: not a user-defined class */
#define MEAS_DEFINE_BADSHAPE	6	/* EINVAL: nsub, entries, items, kind,
					 * nitems, or a reserved word of an
					 * item definition
					 */
#define MEAS_DEFINE_BADNAME	7	/* EINVAL: a name not NUL-terminated
					 * or not printable
					 */
#define MEAS_DEFINE_TOOBIG	8	/* E2BIG: above MEAS_CUSTOM_MAX_CLASS_ITEMS */
#define MEAS_DEFINE_NOMEM	9	/* ENOMEM: no memory for the definition */

/* flags of struct meas_update */
#define MEAS_UPDATE_FAST	0x1	/* FUPDATESTATISTICS */
#define MEAS_UPDATE_NEWVALUE	0x2	/* newvalueflag: replace, not add */
#define MEAS_UPDATE_DOUBLE	0x4	/* doubleitemflag: a double item */

/**
 * struct meas_update - argument of MEAS_IOC_UPDATE (UPDATESTATISTICS)
 * @size: sizeof(struct meas_update), at least MEAS_UPDATE_SIZE_VER0
 * @flags: MEAS_UPDATE_* bits
 * @class: class number (a user-defined class)
 * @subclass: subclass number
 * @entry: entry number, 1..entries (the seed's subclassentry)
 * @startingitem: item within the entry, 0..items-1
 * @valuechange: added to the item, or with MEAS_UPDATE_NEWVALUE its new
 *	value (two's complement: a negative value subtracts)
 * @result: out: MEAS_UPDATE_* code
 * @pad: must be 0
 * @reserved: must be 0
 */
struct meas_update {
	__u32 size;
	__u32 flags;
	__s32 class;
	__s32 subclass;
	__s64 entry;
	__s64 startingitem;
	__s64 valuechange;
	__s32 result;
	__u32 pad;
	__aligned_u64 reserved[2];
};

#define MEAS_UPDATE_SIZE_VER0	64

/*
 * UPDATESTATISTICS result codes, in the order they are checked.  The
 * fast entry point (MEAS_UPDATE_FAST, FUPDATESTATISTICS) always returns
 * 0 and writes nothing outside the subclass.
 */
#define MEAS_UPDATE_OK		0	/* 0 */
#define MEAS_UPDATE_NOTENABLED	1	/* ENODATA: class defined, not enabled */
#define MEAS_UPDATE_BADITEM	2	/* ERANGE: startingitem (or, double,
					 * startingitem + 1) not in the entry
					 */
#define MEAS_UPDATE_BADENTRY	3	/* ERANGE: entry outside 1..entries */
#define MEAS_UPDATE_BADSUBCLASS	4	/* EINVAL: no such subclass */
#define MEAS_UPDATE_BADCLASS	5	/* EINVAL: not a user-defined class */

/* ioctl numbers 0x30..0x3f: user-defined classes */
#define MEAS_IOC_DEFINE		_IO(MEAS_IOC_TYPE, 0x30)
#define MEAS_IOC_UNDEFINE	_IO(MEAS_IOC_TYPE, 0x31)
#define MEAS_IOC_DESCRIBE	_IO(MEAS_IOC_TYPE, 0x32)
#define MEAS_IOC_UPDATE		_IO(MEAS_IOC_TYPE, 0x33)

/* ---- end of user-defined classes ---------------------------------------- */

/* ---- The shared clock: GETCLOCK and GIVECLOCK (Documentation/clock.rst) -- */

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

/* GIVECLOCK results: the condition codes of the seed. */
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

#define MEAS_IOC_GETCLOCK	_IO(MEAS_IOC_TYPE, 0x20)
#define MEAS_IOC_GIVECLOCK	_IO(MEAS_IOC_TYPE, 0x21)
#define MEAS_IOC_CLOCKINFO	_IO(MEAS_IOC_TYPE, 0x22)

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

/* ---- end of the shared clock -------------------------------------------- */

/* ---- Class 15: processes, GETPROCSTATS, filtered reads (class15.rst) ---- */

/*
 * MEASPROCXDS, the region of class 15, has one subclass.  Its entry 0 is
 * the header; entries 1..slots each hold one process (thread group).
 * An entry has MEAS_PROC_ITEMS items: the 52 items of MPE IV at their
 * MPE numbers (0..51; a double item's second word reads 0) followed by
 * 12 Linux items (52..63).  Times are in nanoseconds; the creation and
 * termination times are nanoseconds since the epoch.
 * Documentation/class15.rst maps every item.
 */
#define MEAS_PROC_MPE_ITEMS	52
#define MEAS_PROC_ITEMS		64	/* entry size, entry 0 included */
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

/* MEAS_P_STATE */
#define MEAS_PSTATE_EMPTY	0	/* never used */
#define MEAS_PSTATE_LIVE	1
#define MEAS_PSTATE_EXITED	2

/* MEAS_P_FLAGS */
#define MEAS_PF_PREEXISTING	0x1	/* alive when sampling started */
#define MEAS_PF_KTHREAD		0x2	/* a kernel thread */
#define MEAS_PF_DUMPABLE	0x4	/* dumpable at its last exec or fork */
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
 * GETPROCSTATS result codes, the seed's, in the order they are checked.
 * FGETPROCSTATS (MEAS_PROCSTATS_FAST) returns 0 and copies what lies
 * inside the entry and the buffer.
 */
#define MEAS_PROC_OK		0	/* 0 */
#define MEAS_PROC_NOTENABLED	1	/* ENODATA: class 15 not enabled */
#define MEAS_PROC_BOUNDS	2	/* ENOBUFS: buffer too short (words says
					 * how many items); EFAULT: not writable
					 */
#define MEAS_PROC_BADCOUNT	3	/* ERANGE: wordcount < 0 or past the entry */
#define MEAS_PROC_BADITEM	4	/* ERANGE: firstitem outside the entry */
#define MEAS_PROC_BADPIN	5	/* ESRCH: no such entry for the caller */

/**
 * struct meas_proc_rec - one process record, as filtered reads and the
 * generic netlink family return it
 * @size: sizeof(struct meas_proc_rec)
 * @slot: entry number, 1..slots (0: entry 0)
 * @index: entity index: generation << 32 | slot; stale once the entry
 *	is given to another process
 * @item: the entry's items
 */
struct meas_proc_rec {
	__u32 size;
	__u32 slot;
	__aligned_u64 index;
	__aligned_u64 item[MEAS_PROC_ITEMS];
};

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
	__aligned_u64 reserved[2];
};

#define MEAS_READACTIVE_SIZE_VER0	80

/* READACTIVE result codes: NonStop Measure's numbers. */
#define MEAS_RA_OK		0	/* 0 */
#define MEAS_RA_BADDESC		2	/* EINVAL: a descriptor is malformed, or
					 * ndesc is 0 or too large
					 */
#define MEAS_RA_BUFTOOSMALL	3204	/* EOVERFLOW: nothing written; bytesret
					 * is the size needed
					 */
#define MEAS_RA_CANNOTACCESS	3402	/* ESTALE: the entity index is stale or
					 * no longer matches
					 */
#define MEAS_RA_NOTMEASURING	3404	/* ENODATA: class 15 not enabled */

/* ioctl numbers 0x40..0x4f: class 15 */
#define MEAS_IOC_GETPROCSTATS	_IO(MEAS_IOC_TYPE, 0x40)
#define MEAS_IOC_READACTIVE	_IO(MEAS_IOC_TYPE, 0x41)

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
 *    the genetlink header set, an attribute of an unknown type, of the
 *    wrong length, or with NLA_F_NESTED or NLA_F_NET_BYTEORDER set;
 *    EOPNOTSUPP: a command the family does not serve (only
 *    MEAS_CMD_GET is; MEAS_CMD_EXIT is sent by the kernel); EBUSY: a
 *    dump is still running on the socket.  ENOMEM, EMSGSIZE:
 *    no memory or room for a reply.  EINTR: the sender was killed while
 *    it waited for another call.
 *  - MEAS_CMD_EXIT: sent to the multicast group "exits" (binding needs
 *    CAP_SYS_ADMIN) with the final record of each process that exits
 *    and MEAS_A_SEQ, numbered from 1 since class 15 was enabled: a
 *    listener that sees a gap missed that many records.
 */
#define MEAS_GENL_NAME		"meas"
#define MEAS_GENL_VERSION	1
#define MEAS_GENL_MCGRP_EXITS	"exits"

enum meas_genl_cmd {
	MEAS_CMD_UNSPEC,
	MEAS_CMD_GET,
	MEAS_CMD_EXIT,
	__MEAS_CMD_MAX,
};

enum meas_genl_attr {
	MEAS_A_UNSPEC,
	MEAS_A_PID,		/* __u32 */
	MEAS_A_SLOT,		/* __u32 */
	MEAS_A_RECORD,		/* struct meas_proc_rec */
	MEAS_A_SEQ,		/* __u64 */
	MEAS_A_PAD,
	__MEAS_A_MAX,
};

#define MEAS_A_MAX		(__MEAS_A_MAX - 1)

/* ---- end of class 15 ------------------------------------------------------ */

/* ---- Disks (class 0, subclasses 1 to 4) and the I/O trace (class 14) ----
 * Documentation/class0.rst and Documentation/io.rst.
 */

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
 * @reserved: 0
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
	__aligned_u64 reserved[3];
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

#define MEAS_IOC_IOTRACE_READ	_IO(MEAS_IOC_TYPE, 0x10)

/* ---- end of disks and the I/O trace ------------------------------------- */

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

#endif /* _UAPI_LINUX_MEAS_H */

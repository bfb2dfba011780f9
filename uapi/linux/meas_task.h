/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: task measurement, after openSM2's START-TASK-MEASUREMENT and
 * STOP-TASK-MEASUREMENT.
 *
 * A measurement follows one process (all its threads) and appends what it
 * records to a file: user-mode instruction pointer samples taken every N
 * milliseconds of the process's CPU time, every system call with the user
 * address it came from, and the executable objects mapped into the
 * process (load information).  The file format is below; it is versioned
 * and every record carries its size, so readers skip what they do not
 * know.  Documentation/task.rst describes the calls and the file in full.
 *
 * The ioctls follow the rules of <linux/meas.h>: size first, reserved and
 * pad must be zero (EINVAL), unknown flags EOPNOTSUPP, trailing unknown
 * bytes E2BIG, unreadable struct EFAULT.  The result field carries the
 * openSM2 return code (NPS00nn as nn) and is written back even when the
 * ioctl fails; callers preset it to MEAS_RC_NONE.
 */
#ifndef _UAPI_LINUX_MEAS_TASK_H
#define _UAPI_LINUX_MEAS_TASK_H

#include <linux/types.h>
#include <linux/meas_core.h>
#include <linux/meas_ioctl.h>

/*
 * Result codes (the number of the NPS message) and the errno of each.
 */
#define MEAS_TASK_OK		0	/* 0 */
#define MEAS_TASK_BUSY		45	/* EBUSY: the process is already measured */
#define MEAS_TASK_NOTMEASURED	46	/* ENOENT: the process is not measured */
#define MEAS_TASK_NOTASK	47	/* ESRCH: no such process, or it is a
					 * kernel thread or already exiting
					 */
#define MEAS_TASK_SYSERR	50	/* ENOMEM: no memory for the measurement;
					 * EIO: its CPU clock event or
					 * probes could not be attached
					 */
#define MEAS_TASK_NOTALLOWED	51	/* EPERM: a process ptrace would not
					 * let the caller read
					 * (PTRACE_MODE_READ_FSCREDS), and no
					 * CAP_PERFMON or CAP_SYS_ADMIN
					 */
#define MEAS_TASK_LIMIT		65	/* ENOSPC: max_tasks measurements run,
					 * or max_tasks_per_user of a caller
					 * without CAP_PERFMON or
					 * CAP_SYS_ADMIN
					 */
#define MEAS_TASK_BADFILE	66	/* EMEDIUMTYPE: the file is not a regular
					 * file, or not empty and not a meas
					 * task file, or (standard name) not
					 * the caller's, or another running
					 * measurement writes to it
					 */
#define MEAS_TASK_FILEIO	67	/* EIO: the file could not be opened or
					 * written (EFBIG: it reached the
					 * starter's RLIMIT_FSIZE); file_errno
					 * says why
					 */

/* flags of struct meas_task_start */
#define MEAS_TASK_SVC		0x1	/* SVC-STATISTICS=*ON */
#define MEAS_TASK_OWNED		0x2	/* end when this open file is released */

/* load_info of struct meas_task_start */
#define MEAS_TASK_LOAD_STD	0	/* at start, exec and end */
#define MEAS_TASK_LOAD_DETAILED	1	/* also at every (un)mapping of code */

#define MEAS_TASK_PCOUNTER_MAX	10000	/* ms of CPU time */
#define MEAS_TASK_PATH_MAX	4096	/* bytes of @path, with its NUL */

/*
 * The standard file (FILE=*STD, @path 0) of user UID measuring process
 * PID, opened with O_NOFOLLOW and refused (MEAS_TASK_BADFILE) if it
 * exists and belongs to another user or has more than one link.
 */
#define MEAS_TASK_STD_DIR	"/var/tmp"
#define MEAS_TASK_STD_FMT	"/var/tmp/meas-task.%u.%d"	/* uid, pid */

/**
 * struct meas_task_start - argument of MEAS_IOC_TASK_START
 * @size: sizeof(struct meas_task_start), at least MEAS_TASK_START_SIZE_VER0
 * @flags: MEAS_TASK_SVC, MEAS_TASK_OWNED
 * @pid: process to measure, in the caller's PID namespace; 0: the caller's
 *	own process (TSN=*OWN).  Out: the process ID measured
 * @pcounter_ms: 0 (PCOUNTER-INTERVAL=*NONE) or 1..MEAS_TASK_PCOUNTER_MAX
 *	milliseconds of the process's CPU time between samples
 * @load_info: MEAS_TASK_LOAD_STD or MEAS_TASK_LOAD_DETAILED
 * @result: out: MEAS_TASK_* code
 * @file_errno: out: with MEAS_TASK_FILEIO, the positive errno of the
 *	failing open or write; otherwise 0
 * @path: user address of the file's NUL-terminated path (absolute, or
 *	relative to the caller's working directory); 0: the standard file
 * @session: out: number of this measurement, unique until reboot; it is
 *	in the file's session record
 * @reserved: must be 0
 *
 * The file is opened for append (O_APPEND) with the caller's credentials,
 * created with mode 0600 if missing.
 */
struct meas_task_start {
	__u32 size;
	__u32 flags;
	__s32 pid;
	__u32 pcounter_ms;
	__u32 load_info;
	__s32 result;
	__s32 file_errno;
	__u32 pad;
	__aligned_u64 path;
	__aligned_u64 session;
	__aligned_u64 reserved[4];
};

#define MEAS_TASK_START_SIZE_VER0	80

/**
 * struct meas_task_stop - argument of MEAS_IOC_TASK_STOP
 * @size: sizeof(struct meas_task_stop), at least MEAS_TASK_STOP_SIZE_VER0
 * @flags: must be 0
 * @pid: the measured process; 0: the caller's own
 * @result: out: MEAS_TASK_* code
 * @pad: must be 0
 * @session: out: the measurement that ended
 * @samples: out: instruction pointer samples written
 * @kernel_samples: out: samples that fell in kernel mode (not written)
 * @svcs: out: system calls written
 * @lost: out: records the kernel could not buffer (the file says so)
 * @reserved: must be 0
 *
 * Returns once the final load information is written and the file is
 * closed, or after MEAS_TASK_END_WAIT_MS with MEAS_TASK_FILEIO if the
 * file does not answer: the measurement has ended (its probes are gone),
 * its file is given up (MEAS_TREC_END_ABORTED) and closed once it
 * answers.  Permission is as for MEAS_IOC_TASK_START.
 */
struct meas_task_stop {
	__u32 size;
	__u32 flags;
	__s32 pid;
	__s32 result;
	__aligned_u64 session;
	__aligned_u64 samples;
	__aligned_u64 kernel_samples;
	__aligned_u64 svcs;
	__aligned_u64 lost;
	__aligned_u64 reserved[2];
};

#define MEAS_TASK_STOP_SIZE_VER0	72

/*
 * The file.  A sequence of records in host byte order, each starting with
 * struct meas_trec and padded to a multiple of 8 bytes; @size tells where
 * the next one starts, so a reader skips types it does not know.  Every
 * measurement appends one session:
 *
 *   SESSION  LOAD_BEGIN(start) OBJECT... LOAD_END
 *            { SAMPLE | SVC | MAP | UNMAP | LOST
 *              | EXEC LOAD_BEGIN(exec_end) OBJECT... LOAD_END
 *                     LOAD_BEGIN(exec_start) OBJECT... LOAD_END }...
 *            LOAD_BEGIN(end) OBJECT... LOAD_END  END
 *
 * Addresses belong to the address space generation @gen: 0 at the start,
 * one more after each execve().  An address of generation g is resolved
 * with the objects of g's load information and MAP/UNMAP records before
 * it.  A session whose END is missing was cut short (crash, power loss).
 */
#define MEAS_TASK_MAGIC		"MEASTASK"
#define MEAS_TASK_VERSION	1

enum meas_trec_type {
	MEAS_TREC_SESSION	= 1,	/* struct meas_trec_session */
	MEAS_TREC_END		= 2,	/* struct meas_trec_end */
	MEAS_TREC_SAMPLE	= 3,	/* struct meas_trec_sample */
	MEAS_TREC_SVC		= 4,	/* struct meas_trec_svc */
	MEAS_TREC_LOAD_BEGIN	= 5,	/* struct meas_trec_load */
	MEAS_TREC_OBJECT	= 6,	/* struct meas_trec_object */
	MEAS_TREC_LOAD_END	= 7,	/* struct meas_trec_load */
	MEAS_TREC_MAP		= 8,	/* struct meas_trec_object */
	MEAS_TREC_UNMAP		= 9,	/* struct meas_trec_unmap */
	MEAS_TREC_EXEC		= 10,	/* struct meas_trec_load */
	MEAS_TREC_LOST		= 11,	/* struct meas_trec_lost */
};

/**
 * struct meas_trec - head of every record
 * @type: enum meas_trec_type
 * @size: bytes of the record, head included, a multiple of 8
 * @tid: thread the record is about (0: the measurement itself)
 * @time_ns: when it was recorded: the kernel's local_clock(), nanoseconds
 *	since boot, the clock perf and ftrace stamp events with (cheap to
 *	read in a probe; monotonic on each CPU, and across CPUs where the
 *	TSC is stable)
 */
struct meas_trec {
	__u16 type;
	__u16 size;
	__u32 tid;
	__aligned_u64 time_ns;
};

/* SVC and SESSION flags */
#define MEAS_TREC_COMPAT	0x1	/* SVC: a 32-bit (ia32) system call */

/* END reasons */
#define MEAS_TASK_END_STOP	1	/* MEAS_IOC_TASK_STOP */
#define MEAS_TASK_END_EXIT	2	/* the process exited */
#define MEAS_TASK_END_RELEASE	3	/* MEAS_TASK_OWNED file released */
#define MEAS_TASK_END_UNLOAD	4	/* the module was unloaded (no longer:
					 * a running measurement holds the
					 * module, so unloading is refused)
					 */
#define MEAS_TASK_END_DENIED	5	/* the process executed a program the
					 * measuring user may not measure
					 * (set-user-ID, not dumpable)
					 */

/* LOAD_BEGIN kinds */
#define MEAS_TASK_LOAD_START	1	/* measurement start */
#define MEAS_TASK_LOAD_EXEC_END	2	/* program before execve() */
#define MEAS_TASK_LOAD_EXEC	3	/* program after execve() */
#define MEAS_TASK_LOAD_END	4	/* measurement end */

/**
 * struct meas_trec_session - first record of a measurement
 * @h: head; @h.tid is the measured process ID
 * @magic: MEAS_TASK_MAGIC, not NUL-terminated
 * @version: MEAS_TASK_VERSION
 * @flags: MEAS_TASK_SVC, MEAS_TASK_OWNED as given
 * @session: the measurement's number (struct meas_task_start)
 * @realtime_ns: CLOCK_REALTIME at the moment of @h.time_ns, to place
 *	the session's times in the calendar
 * @pcounter_ms: sampling interval, 0 for none
 * @load_info: MEAS_TASK_LOAD_*
 * @uid: real user ID of the caller that started it
 * @target_uid: real user ID of the measured process
 * @page_size: the kernel's page size
 * @audit_arch: AUDIT_ARCH_* of the kernel (system call numbering)
 * @comm: the process's command name at the start
 * @release: the kernel release (uname -r)
 */
struct meas_trec_session {
	struct meas_trec h;
	char magic[8];
	__u32 version;
	__u32 flags;
	__aligned_u64 session;
	__aligned_u64 realtime_ns;
	__u32 pcounter_ms;
	__u32 load_info;
	__u32 uid;
	__u32 target_uid;
	__u32 page_size;
	__u32 audit_arch;
	char comm[16];
	char release[72];
};

/**
 * struct meas_trec_end - last record of a measurement
 * @h: head
 * @reason: MEAS_TASK_END_*
 * @pad: 0
 * @samples: SAMPLE records written
 * @kernel_samples: samples that fell in kernel mode, not recorded
 * @svcs: SVC records written
 * @lost: records the kernel could not buffer (sum of the LOST records)
 * @cpu_ns: CPU time the process used during the measurement (all its
 *	threads since the start and threads created later, user and
 *	system, from the kernel's task clock)
 * @objects_dropped: load information objects beyond the kernel's limit
 * @flags: MEAS_TREC_END_ABORTED
 * @dropped: records not written after the file failed (a write error,
 *	RLIMIT_FSIZE, or the end's time limit with the file stalled): made,
 *	counted, not in the file
 */
struct meas_trec_end {
	struct meas_trec h;
	__u32 reason;
	__u32 flags;
	__aligned_u64 samples;
	__aligned_u64 kernel_samples;
	__aligned_u64 svcs;
	__aligned_u64 lost;
	__aligned_u64 cpu_ns;
	__aligned_u64 objects_dropped;
	__aligned_u64 dropped;
};

/*
 * meas_trec_end.flags: the end waited MEAS_TASK_END_WAIT_MS for the file
 * and gave up on it (a file system that does not answer): the records
 * still buffered were dropped and counted in @dropped, and this record
 * was written once the file answered again.
 */
#define MEAS_TREC_END_ABORTED	0x1
#define MEAS_TASK_END_WAIT_MS	5000

/**
 * struct meas_trec_sample - a user-mode instruction pointer sample
 * @h: head; @h.tid the thread sampled
 * @ip: the user instruction pointer
 * @gen: address space generation
 * @pad: 0
 */
struct meas_trec_sample {
	struct meas_trec h;
	__aligned_u64 ip;
	__u32 gen;
	__u32 pad;
};

/**
 * struct meas_trec_svc - a system call
 * @h: head; @h.tid the calling thread
 * @ip: user address the call returns to (just past the instruction)
 * @nr: system call number, in @flags' numbering
 * @flags: MEAS_TREC_COMPAT
 * @gen: address space generation
 * @pad: 0
 */
struct meas_trec_svc {
	struct meas_trec h;
	__aligned_u64 ip;
	__u32 nr;
	__u32 flags;
	__u32 gen;
	__u32 pad;
};

/**
 * struct meas_trec_load - LOAD_BEGIN, LOAD_END and EXEC
 * @h: head
 * @kind: MEAS_TASK_LOAD_* (LOAD_BEGIN, LOAD_END); 0 for EXEC
 * @gen: generation the objects belong to; EXEC: the new generation
 * @objects: LOAD_END: OBJECT records in between
 * @pad: 0
 */
struct meas_trec_load {
	struct meas_trec h;
	__u32 kind;
	__u32 gen;
	__u32 objects;
	__u32 pad;
};

/* prot of struct meas_trec_object */
#define MEAS_TREC_PROT_READ	0x1
#define MEAS_TREC_PROT_WRITE	0x2
#define MEAS_TREC_PROT_EXEC	0x4

/**
 * struct meas_trec_object - an executable mapping (OBJECT, MAP)
 * @h: head
 * @start: first address
 * @end: address past the last
 * @pgoff: file offset of @start in bytes (0 without a file)
 * @ino: inode number of the file (0 without one)
 * @dev: device of the file, as new_encode_dev() (0 without one)
 * @prot: MEAS_TREC_PROT_*
 * @gen: address space generation
 * @name_len: bytes of @name with its NUL
 * @pad: 0
 * @name: the file's path as the measured process sees it (from its root
 *	directory), or "[vdso]" and the like; NUL-terminated, zero-padded
 *	to the record's size
 */
struct meas_trec_object {
	struct meas_trec h;
	__aligned_u64 start;
	__aligned_u64 end;
	__aligned_u64 pgoff;
	__aligned_u64 ino;
	__u32 dev;
	__u32 prot;
	__u32 gen;
	__u16 name_len;
	__u16 pad;
	char name[];
};

/**
 * struct meas_trec_unmap - executable mapping removed (detailed only)
 * @h: head
 * @start: first address
 * @end: address past the last
 * @gen: address space generation
 * @pad: 0
 */
struct meas_trec_unmap {
	struct meas_trec h;
	__aligned_u64 start;
	__aligned_u64 end;
	__u32 gen;
	__u32 pad;
};

/**
 * struct meas_trec_lost - records dropped since the previous LOST record
 * @h: head
 * @count: records dropped (the kernel buffer was full)
 */
struct meas_trec_lost {
	struct meas_trec h;
	__aligned_u64 count;
};

#endif /* _UAPI_LINUX_MEAS_TASK_H */

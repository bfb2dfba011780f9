/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: the MPE IV measurement interface on Linux.
 *
 * User-space API of /dev/meas.  Every ioctl takes a pointer to a struct
 * whose first member is its size in bytes; the kernel accepts any size
 * from the first published size of that struct up to the size it knows,
 * and bytes beyond what it knows must be zero (E2BIG otherwise), so the
 * structs can grow; a size above the page size is E2BIG too.  Fields
 * named reserved must be zero (EINVAL).
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
 * The code tables (MEAS_START_*, MEAS_GET_*, ...) list the errno of each
 * code.  Documentation/uapi.rst describes every call in full.
 *
 * The module creates /dev/meas with mode 0600; udev's rule gives it to
 * the group "meas" (0660).  A caller without CAP_PERFMON or CAP_SYS_ADMIN
 * sees of other processes only what ptrace would let it read
 * (PTRACE_MODE_READ_FSCREDS): Documentation/security.rst.  Module
 * parameters bound what one caller may take: max_tasks_per_user (task
 * measurements of a user without those capabilities), and a GET is
 * copied in steps of 8192 words under MEASSIR.
 *
 * The API is split by area; this header includes them all:
 *   meas_core.h    classes, START, STOP, GET, INFO, the XDS, class 0
 *   meas_custom.h  user-defined classes, UPDATESTATISTICS
 *   meas_clock.h   the shared clock, GETCLOCK, GIVECLOCK
 *   meas_proc.h    class 15: GETPROCSTATS, READACTIVE, generic netlink
 *   meas_io.h      disks (class 0 subclasses 1-4), the I/O trace (class 14)
 *   meas_task.h    task measurement
 *   meas_ioctl.h   every ioctl number, in one table
 */
#ifndef _UAPI_LINUX_MEAS_H
#define _UAPI_LINUX_MEAS_H

#include <linux/meas_core.h>
#include <linux/meas_custom.h>
#include <linux/meas_clock.h>
#include <linux/meas_proc.h>
#include <linux/meas_io.h>
#include <linux/meas_task.h>
#include <linux/meas_ioctl.h>

#endif /* _UAPI_LINUX_MEAS_H */

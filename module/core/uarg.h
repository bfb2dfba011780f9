/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uarg.c: the user arguments of the ioctls.  Every ioctl struct starts
 * with its size; the rules of size, flags and reserved bytes are here,
 * once, for the dispatcher (dev.c) and every area's ioctl handlers.
 */
#ifndef _MEAS_CORE_UARG_H
#define _MEAS_CORE_UARG_H

#include <linux/types.h>
#include <linux/compiler_types.h>

long meas_uarg_copy_in(void *k, size_t ksize, size_t ver0, void __user *u);
long meas_uarg_read(void *k, size_t ksize, size_t ver0, void __user *u,
		    const u32 *flags, u32 known, const void *reserved,
		    size_t rlen);
long meas_uarg_read_outonly(void *k, size_t ksize, size_t ver0,
			    void __user *u);
long meas_uarg_copy_out(void __user *u, const void *k, size_t ksize,
			u32 usize, long ret);

#endif /* _MEAS_CORE_UARG_H */

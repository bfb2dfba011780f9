// SPDX-License-Identifier: GPL-2.0
/*
 * The user arguments of the ioctls: versioned structs whose first u32 is
 * their size.  A caller may pass an older (shorter) struct, down to the
 * struct's first published size, or a newer (longer) one whose bytes past
 * what this kernel knows are zero; what the kernel writes back is cut to
 * the caller's size.  A struct is at most a page, as clone3()'s and
 * openat2()'s are: the zero check of a longer tail would read up to 4 GiB
 * with no point to reschedule.
 */
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include "uarg.h"

/**
 * meas_uarg_copy_in() - read a versioned struct
 * @k: kernel copy of the struct
 * @ksize: sizeof(*@k)
 * @ver0: the struct's first published size
 * @u: the user's struct
 *
 * Return: the size the caller gave; -EFAULT, -EINVAL for a size below
 * @ver0, -E2BIG for a size above PAGE_SIZE or a non-zero byte past @ksize.
 */
long meas_uarg_copy_in(void *k, size_t ksize, size_t ver0, void __user *u)
{
	u32 usize;
	int err;

	if (get_user(usize, (u32 __user *)u))
		return -EFAULT;
	if (usize < ver0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	err = copy_struct_from_user(k, ksize, u, usize);
	if (err)
		return err;
	return usize;
}

/**
 * meas_uarg_read() - the common start of an ioctl handler
 * @k: kernel copy of the struct
 * @ksize: sizeof(*@k)
 * @ver0: the struct's first published size
 * @u: the user's struct
 * @flags: the struct's flags, in @k (read after the copy)
 * @known: the flags this kernel knows
 * @reserved: the struct's reserved area, in @k
 * @rlen: bytes of @reserved
 *
 * Return: the size the caller gave; or -EFAULT, -EINVAL, -E2BIG as
 * meas_uarg_copy_in(), -EOPNOTSUPP for an unknown flag, -EINVAL for a
 * reserved byte that is not zero.  Capabilities and other fields are the
 * caller's.
 */
long meas_uarg_read(void *k, size_t ksize, size_t ver0, void __user *u,
		    const u32 *flags, u32 known, const void *reserved,
		    size_t rlen)
{
	long usize = meas_uarg_copy_in(k, ksize, ver0, u);

	if (usize < 0)
		return usize;
	if (*flags & ~known)
		return -EOPNOTSUPP;
	if (memchr_inv(reserved, 0, rlen))
		return -EINVAL;
	return usize;
}

/**
 * meas_uarg_read_outonly() - the start of an ioctl whose struct is output
 * @k: kernel copy of the struct; its first member is the u32 size
 * @ksize: sizeof(*@k)
 * @ver0: the struct's first published size
 * @u: the user's struct
 *
 * Only the size is input: the size rules are checked as for any struct,
 * then @k is zeroed but for its size, ready to be filled in.
 *
 * Return: the size the caller gave, or an error of meas_uarg_copy_in().
 */
long meas_uarg_read_outonly(void *k, size_t ksize, size_t ver0,
			    void __user *u)
{
	long usize = meas_uarg_copy_in(k, ksize, ver0, u);

	if (usize < 0)
		return usize;
	memset(k, 0, ksize);
	*(u32 *)k = usize;
	return usize;
}

/**
 * meas_uarg_copy_out() - write a versioned struct back
 * @u: the user's struct
 * @k: kernel copy of the struct
 * @ksize: sizeof(*@k)
 * @usize: the size the caller gave (meas_uarg_copy_in())
 * @ret: what to return when the copy succeeds
 *
 * Return: @ret, or -EFAULT.
 */
long meas_uarg_copy_out(void __user *u, const void *k, size_t ksize,
			u32 usize, long ret)
{
	if (copy_to_user(u, k, min_t(size_t, ksize, usize)))
		return -EFAULT;
	return ret;
}

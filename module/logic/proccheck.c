// SPDX-License-Identifier: GPL-2.0
/*
 * GETPROCSTATS argument checks, free of kernel dependencies (see
 * proccheck.h).
 */
#include <linux/meas.h>
#include "proccheck.h"

/**
 * meas_check_procstats() - the checked path of GETPROCSTATS
 * @first: firstitem
 * @count: wordcount
 * @entsize: items per entry
 * @entries: entries to read: 1, or with allpins the entries up to the
 *	high-water mark
 * @buflen: bytes of the caller's buffer
 * @need: out: items the call writes, or needs (MEAS_PROC_BOUNDS)
 *
 * The order is MPE IV's, after the pin: item, word count, bounds.
 *
 * Return: MEAS_PROC_OK, MEAS_PROC_BADITEM, MEAS_PROC_BADCOUNT or
 * MEAS_PROC_BOUNDS.
 */
int meas_check_procstats(s64 first, s64 count, u64 entsize, u64 entries,
			 u64 buflen, u64 *need)
{
	*need = 0;
	if (first < 0 || (u64)first >= entsize)
		return MEAS_PROC_BADITEM;
	if (count < 0 || (u64)count > entsize - (u64)first)
		return MEAS_PROC_BADCOUNT;
	if (__builtin_mul_overflow(entries, (u64)count, need))
		return MEAS_PROC_BOUNDS;
	if (buflen / sizeof(u64) < *need)
		return MEAS_PROC_BOUNDS;
	return MEAS_PROC_OK;
}

/**
 * meas_clamp_fprocstats() - what FGETPROCSTATS may copy
 * @first: firstitem, unchecked
 * @count: wordcount, unchecked
 * @entsize: items per entry
 * @entries: entries there are to read
 * @buflen: bytes of the caller's buffer
 * @items: out: items of each entry to copy
 * @nent: out: entries to copy, as many whole ones as the buffer holds
 *
 * Return: true when there is something to copy.
 */
bool meas_clamp_fprocstats(s64 first, s64 count, u64 entsize, u64 entries,
			   u64 buflen, u64 *items, u64 *nent)
{
	u64 fit;

	*items = 0;
	*nent = 0;
	if (first < 0 || (u64)first >= entsize || count <= 0)
		return false;
	*items = (u64)count < entsize - (u64)first ?
		 (u64)count : entsize - (u64)first;
	fit = buflen / sizeof(u64) / *items;
	*nent = fit < entries ? fit : entries;
	if (!*nent)
		*items = 0;
	return *nent != 0;
}

/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libmeas: a thin C wrapper of the /dev/meas ioctls, used by measctl and
 * the selftests.  Every call returns 0 or a negative errno; the MPE
 * result code, where the call has one, is stored through @result
 * (MEAS_RC_NONE when the kernel did not answer with one).
 */
#ifndef LIBMEAS_H
#define LIBMEAS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/meas.h>

/* The subclass header returned by GETSTATISTICS at item -3. */
struct meas_header {
	uint64_t entries;	/* entries, entry 0 included */
	uint64_t entsize;	/* items per entry */
	uint64_t ent0size;	/* words of entry 0 */
};

int meas_open(void);
int meas_start(int fd, uint32_t classmask, int *result);
int meas_stop(int fd, uint32_t classmask, int *result);
int meas_get(int fd, int class, int subclass, int64_t startingitem,
	     int64_t wordcount, uint64_t *buf, size_t buflen, int *result);
int meas_fget(int fd, int class, int subclass, int64_t startingitem,
	      int64_t wordcount, uint64_t *buf, size_t buflen,
	      uint64_t *words);
int meas_header(int fd, int class, int subclass, struct meas_header *h,
		int *result);
int meas_info(int fd, struct meas_info *info);

/* Class 0 subclass 0: item name, or NULL where the item is not mapped. */
const char *meas_c0_item_name(unsigned int item);
/* Item measures nanoseconds (a time item) rather than events. */
int meas_c0_item_is_time(unsigned int item);

/* Text of a result code of a call ("start", "stop" or "get"). */
const char *meas_result_str(const char *call, int result);

#endif /* LIBMEAS_H */

// SPDX-License-Identifier: LGPL-2.1
/*
 * libmeas: wrappers of the /dev/meas ioctls.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "libmeas.h"

const char *meas_lib_version(void)
{
	return MEAS_VERSION;
}

unsigned int meas_lib_abi(void)
{
	return MEAS_ABI_VERSION;
}

int meas_module_version(char *buf, size_t len)
{
	int fd = open("/sys/module/meas/version", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

int meas_open(void)
{
	int fd = open(MEAS_DEVICE, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int meas_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

static int meas_startstop(int fd, unsigned long cmd, uint32_t mask,
			  int *result)
{
	struct meas_start s = {
		.size = sizeof(s),
		.classmask = mask,
		.result = MEAS_RC_NONE,
	};
	int err = meas_ioctl(fd, cmd, &s);

	if (result)
		*result = s.result;
	return err;
}

int meas_start(int fd, uint32_t classmask, int *result)
{
	return meas_startstop(fd, MEAS_IOC_START, classmask, result);
}

int meas_stop(int fd, uint32_t classmask, int *result)
{
	return meas_startstop(fd, MEAS_IOC_STOP, classmask, result);
}

static int meas_get_flags(int fd, uint32_t flags, int class, int subclass,
			  int64_t start, int64_t count, uint64_t *buf,
			  size_t buflen, int *result, uint64_t *words)
{
	struct meas_get g = {
		.size = sizeof(g),
		.flags = flags,
		.class = class,
		.subclass = subclass,
		.startingitem = start,
		.wordcount = count,
		.buf = (uintptr_t)buf,
		.buflen = buflen,
		.result = MEAS_RC_NONE,
	};
	int err = meas_ioctl(fd, MEAS_IOC_GET, &g);

	if (result)
		*result = g.result;
	if (words)
		*words = g.words;
	return err;
}

int meas_get(int fd, int class, int subclass, int64_t startingitem,
	     int64_t wordcount, uint64_t *buf, size_t buflen, int *result)
{
	return meas_get_flags(fd, 0, class, subclass, startingitem, wordcount,
			      buf, buflen, result, NULL);
}

int meas_fget(int fd, int class, int subclass, int64_t startingitem,
	      int64_t wordcount, uint64_t *buf, size_t buflen,
	      uint64_t *words)
{
	return meas_get_flags(fd, MEAS_GET_FAST, class, subclass, startingitem,
			      wordcount, buf, buflen, NULL, words);
}

int meas_header(int fd, int class, int subclass, struct meas_header *h,
		int *result)
{
	uint64_t w[MEAS_HEADER_WORDS];
	int err = meas_get(fd, class, subclass, MEAS_ITEM_HEADER,
			   MEAS_HEADER_WORDS, w, sizeof(w), result);

	if (!err) {
		h->entries = w[0];
		h->entsize = w[1];
		h->ent0size = w[2];
	}
	return err;
}

int meas_info(int fd, struct meas_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return meas_ioctl(fd, MEAS_IOC_INFO, info);
}

// SPDX-License-Identifier: LGPL-2.1
/*
 * libmeas: task measurement (START-TASK-MEASUREMENT and
 * STOP-TASK-MEASUREMENT of openSM2) over /dev/meas, the standard file's
 * name and the text of the NPS return codes (<linux/meas_task.h>).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include "libmeas.h"

int meas_task_start(int fd, struct meas_task_start *s)
{
	s->size = sizeof(*s);
	s->result = MEAS_RC_NONE;
	s->file_errno = 0;
	s->session = 0;
	return ioctl(fd, MEAS_IOC_TASK_START, s) < 0 ? -errno : 0;
}

int meas_task_stop(int fd, int32_t pid, struct meas_task_stop *s)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->pid = pid;
	s->result = MEAS_RC_NONE;
	return ioctl(fd, MEAS_IOC_TASK_STOP, s) < 0 ? -errno : 0;
}

int meas_task_std_path(uint32_t uid, int32_t pid, char *buf, size_t len)
{
	int n = snprintf(buf, len, MEAS_TASK_STD_FMT, uid, pid);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const char *meas_task_result_str(int result)
{
	return meas_result_str("task", result);
}

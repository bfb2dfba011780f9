// SPDX-License-Identifier: GPL-2.0
/*
 * Task measurement argument checks and record arithmetic.  No kernel
 * dependency: selftests/unit/task_unit_test.c runs this file on the host.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stddef.h>
#include <string.h>
#endif
#include "taskcheck.h"

static bool zero(const void *p, u32 len)
{
	const unsigned char *c = p;
	u32 i;

	for (i = 0; i < len; i++)
		if (c[i])
			return false;
	return true;
}

/**
 * meas_taskcheck_start() - check a START argument before anything is done
 * @k: the argument, size already checked
 *
 * Return: 0, -EOPNOTSUPP for unknown flags, -EINVAL for a field out of
 * range or pad and reserved not zero.
 */
int meas_taskcheck_start(const struct meas_task_start *k)
{
	if (k->flags & ~(MEAS_TASK_SVC | MEAS_TASK_OWNED))
		return -EOPNOTSUPP;
	if (k->pad || !zero(k->reserved, sizeof(k->reserved)))
		return -EINVAL;
	if (k->pid < 0 || k->pcounter_ms > MEAS_TASK_PCOUNTER_MAX)
		return -EINVAL;
	if (k->load_info > MEAS_TASK_LOAD_DETAILED)
		return -EINVAL;
	return 0;
}

/* The same for STOP: no flags are known yet. */
int meas_taskcheck_stop(const struct meas_task_stop *k)
{
	if (k->flags)
		return -EOPNOTSUPP;
	if (!zero(k->reserved, sizeof(k->reserved)))
		return -EINVAL;
	return k->pid < 0 ? -EINVAL : 0;
}

/* Size of an OBJECT or MAP record whose name has @name_len bytes. */
u32 meas_taskcheck_object_size(u32 name_len)
{
	return (sizeof(struct meas_trec_object) + name_len + 7) & ~7U;
}

/*
 * Whether the first @len bytes of a file are those of a meas task file:
 * a SESSION record with the magic.  An empty file is one too.
 */
bool meas_taskcheck_is_taskfile(const void *head, u32 len)
{
	const struct meas_trec_session *s = head;

	if (!len)
		return true;
	if (len < offsetof(struct meas_trec_session, version))
		return false;
	if (s->h.type != MEAS_TREC_SESSION || s->h.size % 8 ||
	    s->h.size < offsetof(struct meas_trec_session, version))
		return false;
	return !memcmp(s->magic, MEAS_TASK_MAGIC, sizeof(s->magic));
}

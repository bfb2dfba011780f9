// SPDX-License-Identifier: GPL-2.0
/* The cgroup tests' netlink helper (cglib.h). */
#include <stdint.h>

#include "libmeas.h"
#include "cglib.h"

int cgroup_get(uint64_t id, struct meas_cgroup_rec *rec, char *path)
{
	struct meas_nl *nl;
	int err;

	nl = meas_nl_open(&err);
	if (!nl)
		return err;
	err = meas_nl_cgroup_get(nl, id, rec, path);
	meas_nl_close(nl);
	return err;
}

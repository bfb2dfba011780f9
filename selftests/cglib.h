/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup tests' helper that reads over generic netlink, apart from
 * common.c so that the tests that do not read cgroups need no libnl
 * (libselftest.a pulls an object only for the symbols a test uses).
 */
#ifndef MEAS_SELFTEST_CGLIB_H
#define MEAS_SELFTEST_CGLIB_H

#include <stdint.h>

#include "libmeas.h"

/* The per-cgroup totals of cgroup @id, through a socket of its own. */
int cgroup_get(uint64_t id, struct meas_cgroup_rec *rec, char *path);

#endif

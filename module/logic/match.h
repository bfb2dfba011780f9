/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entity descriptors of filtered reads (READACTIVE): checks and matching.
 * Pure logic, no kernel dependency, built into the module and into the
 * host unit tests (selftests/unit).
 */
#ifndef _MEAS_MATCH_H
#define _MEAS_MATCH_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#endif
#include <linux/meas.h>

/**
 * struct meas_match_ent - what a descriptor is matched against
 * @pid: process ID in the caller's namespace
 * @cpu: CPU of the last switch-in
 * @uid: real user ID in the caller's namespace
 * @comm: command name, NUL-terminated
 */
struct meas_match_ent {
	s64 pid;
	s64 cpu;
	s64 uid;
	const char *comm;
};

int meas_check_desc(const struct meas_entity_desc *d);
bool meas_match_pattern(const char *pat, const char *s);
bool meas_match_desc(const struct meas_entity_desc *d,
		     const struct meas_match_ent *e);
bool meas_match_select(const struct meas_entity_desc *d, u32 n,
		       const struct meas_match_ent *e);

#endif /* _MEAS_MATCH_H */

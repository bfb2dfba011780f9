// SPDX-License-Identifier: GPL-2.0
/*
 * Entity descriptors of filtered reads, after NonStop Measure's: checks,
 * the '*' wildcard, include and exclude.  Free of kernel dependencies
 * (see match.h).
 */
#include "match.h"

/**
 * meas_check_desc() - is a process entity descriptor well formed?
 * @d: the descriptor, as the caller passed it
 *
 * Type MEAS_ENT_PROCESS or its negation, len its size, PID, CPU and user
 * ID each MEAS_ENT_ANY or a valid value, the pattern NUL-terminated with
 * zeros after the NUL, the reserved words zero.
 *
 * Return: MEAS_RA_OK or MEAS_RA_BADDESC.
 */
int meas_check_desc(const struct meas_entity_desc *d)
{
	u32 i, end = MEAS_ENT_PATTERN_LEN;

	if ((d->type != MEAS_ENT_PROCESS && d->type != -MEAS_ENT_PROCESS) ||
	    d->len != sizeof(*d) || d->pid < MEAS_ENT_ANY ||
	    d->cpu < MEAS_ENT_ANY || d->uid < MEAS_ENT_ANY ||
	    d->uid > 0xffffffffLL || d->reserved[0] || d->reserved[1])
		return MEAS_RA_BADDESC;
	for (i = 0; i < MEAS_ENT_PATTERN_LEN; i++) {
		if (end == MEAS_ENT_PATTERN_LEN && !d->name[i])
			end = i;
		else if (end != MEAS_ENT_PATTERN_LEN && d->name[i])
			return MEAS_RA_BADDESC;
	}
	return end == MEAS_ENT_PATTERN_LEN ? MEAS_RA_BADDESC : MEAS_RA_OK;
}

/**
 * meas_match_pattern() - match a name against a pattern
 * @pat: the pattern, NUL-terminated; '*' matches any run of characters,
 *	the empty run included; every other character matches itself
 * @s: the name, NUL-terminated
 *
 * Greedy with one back-track point (the last '*'): linear in practice,
 * at most strlen(@pat) * strlen(@s) steps.
 *
 * Return: true if the whole name matches.
 */
bool meas_match_pattern(const char *pat, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (*pat == '*') {
			star = pat++;
			resume = s;
		} else if (*pat && *pat == *s) {
			pat++;
			s++;
		} else if (star) {
			pat = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

/**
 * meas_match_desc() - does a process match every field of a descriptor?
 * @d: a checked descriptor
 * @e: the process
 *
 * Return: true if every field is MEAS_ENT_ANY or matches; the empty
 * pattern matches every name.
 */
bool meas_match_desc(const struct meas_entity_desc *d,
		     const struct meas_match_ent *e)
{
	if (d->pid != MEAS_ENT_ANY && d->pid != e->pid)
		return false;
	if (d->cpu != MEAS_ENT_ANY && d->cpu != e->cpu)
		return false;
	if (d->uid != MEAS_ENT_ANY && d->uid != e->uid)
		return false;
	return !d->name[0] || meas_match_pattern(d->name, e->comm);
}

/**
 * meas_match_select() - is a process selected by a list of descriptors?
 * @d: checked descriptors
 * @n: how many
 * @e: the process
 *
 * Selected: it matches an including descriptor, or none includes, and it
 * matches no excluding descriptor.
 *
 * Return: true if selected.
 */
bool meas_match_select(const struct meas_entity_desc *d, u32 n,
		       const struct meas_match_ent *e)
{
	bool any_include = false, included = false;
	u32 i;

	for (i = 0; i < n; i++) {
		if (d[i].type < 0) {
			if (meas_match_desc(&d[i], e))
				return false;
			continue;
		}
		any_include = true;
		if (!included && meas_match_desc(&d[i], e))
			included = true;
	}
	return included || !any_include;
}

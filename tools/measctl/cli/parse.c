// SPDX-License-Identifier: GPL-2.0
/*
 * Strict parsing of the command line: numbers (no garbage, no overflow,
 * no sign where none is allowed) and class lists.  Pure: what a usage
 * error says of the device (the classes defined now) is dev.c's.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* Decimal digits only, within [0, @max]. */
int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* An optional '-' then decimal digits, within [@min, @max]. */
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	const char *d = s[0] == '-' ? s + 1 : s;
	long long v;
	char *end;

	if (!isdigit((unsigned char)d[0]))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* A decimal number of seconds such as 1, 0.2 or .5, within [@min, @max]. */
int parse_seconds(const char *s, double min, double max, double *out)
{
	const char *p;
	double v;
	char *end;

	if (!s[0])
		return -EINVAL;
	for (p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_hexmask(const char *s, uint32_t *mask)
{
	unsigned long v;
	char *end;

	if (!isxdigit((unsigned char)s[2]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s + 2, &end, 16);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > MEAS_CLASSMASK_ALL || !v)
		return -ERANGE;
	*mask = v;
	return 0;
}

/* One element of a list: "N" or "N-M". */
static int parse_class_elem(char *e, uint32_t *mask)
{
	char *dash = strchr(e, '-');
	uint64_t lo, hi;

	if (dash)
		*dash = '\0';
	if (parse_u64(e, MEAS_NR_CLASSES - 1, &lo))
		return -EINVAL;
	hi = lo;
	if (dash && parse_u64(dash + 1, MEAS_NR_CLASSES - 1, &hi))
		return -EINVAL;
	if (hi < lo)
		return -EINVAL;
	for (; lo <= hi; lo++)
		*mask |= 1U << lo;
	return 0;
}

/* "all", "0x4001", or a comma list of classes and ranges: "0,14", "0-3". */
int parse_classes(const char *s, struct classes *c)
{
	char buf[128], *e, *save;
	int err = 0;

	c->all = false;
	c->mask = 0;
	if (!strcmp(s, "all")) {
		c->all = true;
		return 0;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_hexmask(s, &c->mask);
	if (!s[0] || strlen(s) >= sizeof(buf) || s[0] == ',' ||
	    s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return -EINVAL;
	strcpy(buf, s);
	for (e = strtok_r(buf, ",", &save); e && !err;
	     e = strtok_r(NULL, ",", &save))
		err = parse_class_elem(e, &c->mask);
	return err;
}

uint32_t classes_resolve(const struct classes *c, uint32_t all_mask)
{
	return c->all ? all_mask : c->mask;
}

/* "0,14" or "0-3" for a mask; "none" for 0. */
void format_classes(uint32_t mask, char *buf, size_t len)
{
	size_t off = 0;
	int c, end;

	snprintf(buf, len, "none");
	for (c = 0; c < MEAS_NR_CLASSES && off < len; c++) {
		if (!(mask & (1U << c)))
			continue;
		end = c;
		while (end + 1 < MEAS_NR_CLASSES && mask & (1U << (end + 1)))
			end++;
		if (end == c)
			off += snprintf(buf + off, len - off, "%s%d",
					off ? "," : "", c);
		else
			off += snprintf(buf + off, len - off, "%s%d-%d",
					off ? "," : "", c, end);
		c = end;
	}
}

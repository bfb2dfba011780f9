// SPDX-License-Identifier: GPL-2.0
/* The supported kernel series: see kernrange.h. */
#include <stdio.h>

#include "cli/kernrange.h"

int kernel_series(const char *rel)
{
	unsigned int major, minor;
	int end = 0;

	/* "7.3" or "7.3." or "7.3-": a minor number that ends there */
	if (sscanf(rel, "%3u.%3u%n", &major, &minor, &end) != 2 ||
	    (rel[end] && rel[end] != '.' && rel[end] != '-' && rel[end] != '+'))
		return -1;
	return (int)(major * 1000 + minor);
}

bool kernel_in_range(const char *rel, const char *min, const char *max)
{
	int s = kernel_series(rel);

	return s >= 0 && s >= kernel_series(min) && s <= kernel_series(max);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Why /dev/meas is missing, for the message of a failed open: meas
 * loaded without its device node, not loaded, or not built for the
 * running kernel, which may be outside the series meas supports
 * (Documentation/install.rst, "Kernels outside the range").
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/kernrange.h"
#include "cli/cli.h"
#include "cli/dev.h"

/* modules.dep of kernel @rel lists a module named meas (DKMS's or not). */
static bool meas_installed(const char *rel)
{
	char path[320], line[1024];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", rel);
	f = fopen(path, "r");
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *base;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		found = !strcmp(base, "meas.ko") || !strncmp(base, "meas.ko.", 8);
	}
	if (f)
		fclose(f);
	return found;
}

const char *absent_hint(char *buf, size_t len)
{
	struct utsname u;

	if (!access("/sys/module/meas", F_OK))
		return " (meas is loaded, but its device node is missing: is udev running?)";
	if (uname(&u))
		return " (is the meas module loaded?)";
	if (meas_installed(u.release))
		snprintf(buf, len, " (meas is not loaded: modprobe meas)");
	else if (!kernel_in_range(u.release, MEAS_KERNEL_MIN, MEAS_KERNEL_MAX))
		snprintf(buf, len,
			 " (meas is not built for the running kernel %s: this meas supports the kernel series %s to %s)",
			 u.release, MEAS_KERNEL_MIN, MEAS_KERNEL_MAX);
	else
		snprintf(buf, len,
			 " (no meas module for the running kernel %s: see 'dkms status meas', or build and load one: make && insmod module/meas.ko)",
			 u.release);
	return buf;
}

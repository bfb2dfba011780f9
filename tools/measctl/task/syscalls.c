// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: system call names for task report, from the tables the build
 * generates out of the installed kernel headers (gen_syscalls.sh).  The
 * tables serve the architecture they were generated for and its 32-bit
 * compat calls; any other number is shown as syscall_<nr>.
 */
#include <linux/audit.h>
#include <stdio.h>
#include "task/task.h"
#include "task/syscall_names.h"

#define NAMES(t)	(sizeof(t) / sizeof((t)[0]))

const char *syscall_name(uint32_t audit_arch, uint32_t flags, uint32_t nr,
			 char *buf, size_t len)
{
	const char *const *tab = NULL;
	size_t n = 0;

	if (audit_arch == SYSCALL_NATIVE_ARCH &&
	    !(flags & MEAS_TREC_COMPAT)) {
		tab = syscall_names_native;
		n = NAMES(syscall_names_native);
	} else if (audit_arch == SYSCALL_COMPAT_ARCH ||
		   (audit_arch == SYSCALL_NATIVE_ARCH &&
		    flags & MEAS_TREC_COMPAT)) {
		tab = syscall_names_compat;
		n = NAMES(syscall_names_compat);
	}
	if (tab && nr < n && tab[nr])
		return tab[nr];
	snprintf(buf, len, "syscall_%u", nr);
	return buf;
}

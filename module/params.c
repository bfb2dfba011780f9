// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters.  They are read when a class region is formatted, so
 * a change takes effect at the next first enabler of a class.
 */
#include <linux/moduleparam.h>
#include "core.h"

unsigned int meas_param_max_region_kib = 256 * 1024;
module_param_named(max_region_kib, meas_param_max_region_kib, uint, 0644);
MODULE_PARM_DESC(max_region_kib,
		 "Largest class region in KiB; above it STARTSTATISTICS returns 4 (default 262144)");

unsigned int meas_param_max_disks = 64;
module_param_named(max_disks, meas_param_max_disks, uint, 0644);
MODULE_PARM_DESC(max_disks,
		 "Slots of the device table in the class 0 region (default 64)");

/*
 * Fault injection for the error paths of STARTSTATISTICS that a healthy
 * machine never takes: the next attach fails as if the step behind that
 * code had failed, then the parameter resets to 0.
 */
static int fail_start;
module_param(fail_start, int, 0644);
MODULE_PARM_DESC(fail_start,
		 "Make the next STARTSTATISTICS that formats a region fail with this code, 1..3 (testing)");

/**
 * meas_params_fail() - consume an injected failure
 * @code: the STARTSTATISTICS code of the step asking
 *
 * Called with meas_sir held.
 *
 * Return: true if the step must fail.
 */
bool meas_params_fail(int code)
{
	if (READ_ONCE(fail_start) != code)
		return false;
	WRITE_ONCE(fail_start, 0);
	return true;
}

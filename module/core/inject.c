// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (inject.h), built into the test build only
 * (module/Kbuild, MEAS_TEST=1): one module parameter per hook, each
 * consumed by the step it names.  Documentation/build-and-test.rst lists
 * them with the tests that use them.
 */
#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include "inject.h"

static int fail_start;
module_param(fail_start, int, 0644);
MODULE_PARM_DESC(fail_start,
		 "Test build: make the next STARTSTATISTICS that formats a region fail with this code, 1..3");

static int fail_io;
module_param(fail_io, int, 0644);
MODULE_PARM_DESC(fail_io,
		 "Test build: make the next start of the disk or I/O trace unit fail with this code, 2..3");

static int fail_task;
module_param(fail_task, int, 0644);
MODULE_PARM_DESC(fail_task,
		 "Test build: make the next TASK_START fail at this step, 1 clock events, 2 memory");

static int clock_fail;
module_param(clock_fail, int, 0644);
MODULE_PARM_DESC(clock_fail,
		 "Test build: make the next GETCLOCK initialisation fail with this code, 5, 6 or 8");

static uint abi_version;
module_param(abi_version, uint, 0644);
MODULE_PARM_DESC(abi_version,
		 "Test build: report this ABI version in MEAS_IOC_INFO, as an older module would (0: the real one)");

/*
 * Take an injection: true if @param holds @code, which it gives up.  A
 * step may be asked from several CPUs at once (task starts): the exchange
 * lets exactly one of them fail.
 */
static bool inject_take(int *param, int code)
{
	return code && cmpxchg(param, code, 0) == code;
}

bool meas_inject_start(int code)
{
	return inject_take(&fail_start, code);
}

bool meas_inject_io(int code)
{
	return inject_take(&fail_io, code);
}

bool meas_inject_task(int step)
{
	return inject_take(&fail_task, step);
}

bool meas_inject_clock(int code)
{
	return inject_take(&clock_fail, code);
}

u32 meas_inject_abi(u32 abi)
{
	u32 v = READ_ONCE(abi_version);

	return v ? v : abi;
}

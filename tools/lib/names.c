// SPDX-License-Identifier: LGPL-2.1
/*
 * Names of items and result codes, for people.
 */
#include <string.h>
#include "libmeas.h"
#include "rescode.h"

static const char *const c0_names[MEAS_C0_FIXED_ITEMS] = {
	[MEAS_C0_LAUNCHES]		= "launches",
	[MEAS_C0_STOP_DISC_BLOCKED]	= "stops-disc-blocked",
	[MEAS_C0_STOP_DISC_UNBLOCKED]	= "stops-disc-unblocked",
	[MEAS_C0_STOP_BUSY_SIR]		= "stops-busy-lock",
	[MEAS_C0_STOP_IMPEDE]		= "stops-impeded",
	[MEAS_C0_STOP_TIMED_OUT]	= "stops-timed-out",
	[MEAS_C0_PREEMPTIONS]		= "preemptions",
	[MEAS_C0_STOP_MISC_BLOCKED]	= "stops-misc-blocked",
	[MEAS_C0_STOP_JOBCTL]		= "stops-job-control",
	[MEAS_C0_STOP_EXIT]		= "stops-exit",
	[MEAS_C0_FORKS]			= "forks",
	[MEAS_C0_EXECS]			= "execs",
	[MEAS_C0_EXITS]			= "exits",
	[MEAS_C0_PAUSE_IDLE]		= "pauses-idle",
	[MEAS_C0_PAUSE_DISC]		= "pauses-disc",
	[MEAS_C0_WAKEUPS]		= "wakeups",
	[MEAS_C0_WAKEUPS_NEW]		= "wakeups-new",
	[MEAS_C0_MIGRATIONS]		= "migrations",
	[MEAS_C0_TIME_IDLE]		= "time-idle-ns",
	[MEAS_C0_TIME_DISC]		= "time-disc-ns",
	[MEAS_C0_TIME_CPU]		= "time-cpu-ns",
};

const char *meas_c0_item_name(unsigned int item)
{
	return item < MEAS_C0_FIXED_ITEMS ? c0_names[item] : NULL;
}

int meas_c0_item_is_time(unsigned int item)
{
	return item == MEAS_C0_TIME_IDLE || item == MEAS_C0_TIME_DISC ||
	       item == MEAS_C0_TIME_CPU;
}

/*
 * The text of a code comes from the table of its intrinsic, the one the
 * module takes the errno from (module/logic/rescode.c).
 */
const char *meas_result_str(const char *call, int result)
{
	int c = meas_rc_call_of(call);
	const char *s = NULL;

	if (result == MEAS_RC_NONE)
		return "no result";
	if (c >= 0)
		s = meas_rc_text(c, result);
	return s ? s : "unknown code";
}

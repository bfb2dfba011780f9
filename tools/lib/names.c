// SPDX-License-Identifier: LGPL-2.1
/*
 * Names of items and result codes, for people.
 */
#include <string.h>
#include "libmeas.h"

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

static const char *const start_str[] = {
	"ok", "no memory for the region", "no per-CPU counter area",
	"event sources could not be attached", "region too big",
	"class not defined",
};

static const char *const stop_str[] = { "ok", "bad class mask" };

static const char *const get_str[] = {
	"ok", "class not enabled", "buffer out of bounds",
	"wordcount out of range", "startingitem out of range",
	"bad subclass", "bad class",
};

/* user-defined classes: DEFINE, UNDEFINE, DESCRIBE and UPDATESTATISTICS */
static const char *const define_str[] = {
	"ok", "bad class", "class owned by the module", "class already defined",
	"class enabled", "not a user-defined class", "bad shape", "bad name",
	"too many items", "no memory",
};

static const char *const update_str[] = {
	"ok", "class not enabled", "bad startingitem", "bad entry",
	"bad subclass", "bad class",
};

#define PICK(tab, r) \
	((r) >= 0 && (size_t)(r) < sizeof(tab) / sizeof((tab)[0]) ? (tab)[r] : NULL)

const char *meas_result_str(const char *call, int result)
{
	const char *s = NULL;

	if (result == MEAS_RC_NONE)
		return "no result";
	if (!strcmp(call, "start"))
		s = PICK(start_str, result);
	else if (!strcmp(call, "stop"))
		s = PICK(stop_str, result);
	else if (!strcmp(call, "get"))
		s = PICK(get_str, result);
	else if (!strcmp(call, "define") || !strcmp(call, "undefine") ||
		 !strcmp(call, "describe"))
		s = PICK(define_str, result);
	else if (!strcmp(call, "update"))
		s = PICK(update_str, result);
	if (!s)
		s = meas_clock_result_str(call, result);	/* lib/clock.c */
	if (!s)
		s = meas_io_result_str(call, result);	/* lib/io.c */
	if (!s)
		s = meas_proc_result_str(call, result);	/* lib/proc.c */
	return s ? s : "unknown code";
}

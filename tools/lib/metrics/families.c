// SPDX-License-Identifier: GPL-2.0
/*
 * The metric table of meas-exporter: every family it exports, where its
 * values come from and in what unit.  One table, in one place: the
 * exporter's text renderer (tools/exporter/scrape.c) walks it,
 * Documentation/exporter.rst lists it, and the PCP agent and measctl's
 * replay walk it the same way.
 *
 * Names follow Prometheus's conventions: the prefix meas_, base units
 * (seconds, bytes) as a suffix of the name, _total on counters (added
 * by the renderer), and a device label with the kernel's disk name on
 * the per-disk families so that they join node_exporter's node_disk_*.
 */
#include "metrics.h"

#define END { NULL, MX_NONE, MX_NONE }
#define ONE(item) { NULL, (item), MX_NONE }, END

const char *const mx_lat_ops[MEAS_C0_LAT_NR_OPS] = {
	[MEAS_C0_LAT_READ] = "read",
	[MEAS_C0_LAT_WRITE] = "write",
	[MEAS_C0_LAT_DISCARD] = "discard",
	[MEAS_C0_LAT_FLUSH] = "flush",
};

/* ---- class 0 subclass 0 --------------------------------------------- */

static const struct mx_series launches[] = { ONE(MEAS_C0_LAUNCHES) };
static const struct mx_series stops[] = {
	{ "disc_blocked", MEAS_C0_STOP_DISC_BLOCKED, MX_NONE },
	{ "disc_unblocked", MEAS_C0_STOP_DISC_UNBLOCKED, MX_NONE },
	{ "busy_lock", MEAS_C0_STOP_BUSY_SIR, MX_NONE },
	{ "impeded", MEAS_C0_STOP_IMPEDE, MX_NONE },
	{ "timed_out", MEAS_C0_STOP_TIMED_OUT, MX_NONE },
	{ "misc_blocked", MEAS_C0_STOP_MISC_BLOCKED, MX_NONE },
	{ "job_control", MEAS_C0_STOP_JOBCTL, MX_NONE },
	{ "exit", MEAS_C0_STOP_EXIT, MX_NONE },
	END
};

static const struct mx_series preemptions[] = { ONE(MEAS_C0_PREEMPTIONS) };
static const struct mx_series forks[] = { ONE(MEAS_C0_FORKS) };
static const struct mx_series execs[] = { ONE(MEAS_C0_EXECS) };
static const struct mx_series exits[] = { ONE(MEAS_C0_EXITS) };
static const struct mx_series pauses[] = {
	{ "idle", MEAS_C0_PAUSE_IDLE, MEAS_C0_PAUSE_DISC },
	{ "disc", MEAS_C0_PAUSE_DISC, MX_NONE },
	END
};

static const struct mx_series wakeups[] = { ONE(MEAS_C0_WAKEUPS) };
static const struct mx_series wakeups_new[] = { ONE(MEAS_C0_WAKEUPS_NEW) };
static const struct mx_series migrations[] = { ONE(MEAS_C0_MIGRATIONS) };
/* item 84 (idle after an iowait stop) is part of item 80 (all idle) */
static const struct mx_series cpu[] = {
	{ "busy", MEAS_C0_TIME_CPU, MX_NONE },
	{ "idle", MEAS_C0_TIME_IDLE, MEAS_C0_TIME_DISC },
	{ "iowait", MEAS_C0_TIME_DISC, MX_NONE },
	END
};

/* ---- class 0 subclass 1: per disk ------------------------------------ */

static const struct mx_series disc_reads[] = {
	{ "swap", MEAS_C0_DISC_READ_SWAP, MX_NONE },
	{ "sync", MEAS_C0_DISC_READ_SYNC, MX_NONE },
	{ "readahead", MEAS_C0_DISC_READ_ASYNC, MX_NONE },
	{ "nowait", MEAS_C0_DISC_READ_NOWAIT, MX_NONE },
	END
};

static const struct mx_series disc_writes[] = {
	{ "forced", MEAS_C0_DISC_WRITE_FORCED, MX_NONE },
	{ "background", MEAS_C0_DISC_WRITE_BACKGROUND, MX_NONE },
	{ "sync", MEAS_C0_DISC_WRITE_SYNC, MX_NONE },
	{ "async", MEAS_C0_DISC_WRITE_ASYNC, MX_NONE },
	{ "nowait", MEAS_C0_DISC_WRITE_NOWAIT, MX_NONE },
	END
};

static const struct mx_series disc_busy[] = { ONE(MEAS_C0_DISC_BUSY) };
static const struct mx_series disc_control[] = { ONE(MEAS_C0_DISC_CONTROL) };
static const struct mx_series qlen[] = { ONE(MEAS_C0_DISC_QLEN0) };

/* ---- class 0 subclass 4: per disk ------------------------------------ */

static const struct mx_series x_reads[] = { ONE(MEAS_C0_XFER_READS) };
static const struct mx_series x_writes[] = { ONE(MEAS_C0_XFER_WRITES) };
static const struct mx_series x_rbytes[] = { ONE(MEAS_C0_XFER_READ_BYTES) };
static const struct mx_series x_wbytes[] = { ONE(MEAS_C0_XFER_WRITE_BYTES) };
static const struct mx_series x_dbytes[] = { ONE(MEAS_C0_XFER_DISCARD_BYTES) };
static const struct mx_series x_rtime[] = { ONE(MEAS_C0_XFER_READ_NS) };
static const struct mx_series x_wtime[] = { ONE(MEAS_C0_XFER_WRITE_NS) };
static const struct mx_series x_rtimed[] = { ONE(MEAS_C0_XFER_READS_TIMED) };
static const struct mx_series x_wtimed[] = { ONE(MEAS_C0_XFER_WRITES_TIMED) };
static const struct mx_series x_queue[] = { ONE(MEAS_C0_XFER_QUEUE_NS) };
static const struct mx_series x_service[] = { ONE(MEAS_C0_XFER_SERVICE_NS) };
static const struct mx_series x_inflight[] = { ONE(MEAS_C0_XFER_INFLIGHT) };
static const struct mx_series x_untracked[] = { ONE(MEAS_C0_XFER_UNTRACKED) };

/* ---- class 0 subclass 5: per disk and operation group ---------------- */

static const struct mx_series lat_count[] = { ONE(MEAS_C0_LAT_COUNT) };
static const struct mx_series lat_untimed[] = { ONE(MEAS_C0_LAT_UNTIMED) };
static const struct mx_series lat_hist[] = { ONE(MEAS_C0_LAT_BUCKET0) };

/* ---- class 14 --------------------------------------------------------- */

static const struct mx_series io_total[] = { ONE(MEAS_IO_H_TOTAL) };
static const struct mx_series io_lost[] = { ONE(MEAS_IO_H_LOST) };

/* ---- the exporter's own ---------------------------------------------- */

static const struct mx_series self[] = { ONE(0) };

const struct mx_family mx_families[] = {
	{ "meas_launches", MX_COUNTER, "",
	  "Switch-ins of tasks other than the idle task (class 0 item 0).",
	  MX_SRC_FIXED, NULL, 0, launches },
	{ "meas_stops", MX_COUNTER, "",
	  "Tasks switched out to wait, by MPE stop reason (class 0 items 1, 2, 12, 13, 22, 24-26).",
	  MX_SRC_FIXED, "reason", 0, stops },
	{ "meas_preemptions", MX_COUNTER, "",
	  "Tasks switched out while runnable (class 0 item 23).",
	  MX_SRC_FIXED, NULL, 0, preemptions },
	{ "meas_forks", MX_COUNTER, "", "Tasks created (class 0 item 27).",
	  MX_SRC_FIXED, NULL, 0, forks },
	{ "meas_execs", MX_COUNTER, "", "Programs executed (class 0 item 28).",
	  MX_SRC_FIXED, NULL, 0, execs },
	{ "meas_exits", MX_COUNTER, "", "Tasks exited (class 0 item 29).",
	  MX_SRC_FIXED, NULL, 0, exits },
	{ "meas_idle_pauses", MX_COUNTER, "",
	  "Switches to the idle task, after an I/O wait (disc) or not (idle) (class 0 items 30, 31).",
	  MX_SRC_FIXED, "reason", 0, pauses },
	{ "meas_wakeups", MX_COUNTER, "", "Task wakeups (class 0 item 70).",
	  MX_SRC_FIXED, NULL, 0, wakeups },
	{ "meas_wakeups_new", MX_COUNTER, "",
	  "First wakeups of new tasks (class 0 item 71).",
	  MX_SRC_FIXED, NULL, 0, wakeups_new },
	{ "meas_migrations", MX_COUNTER, "",
	  "Task migrations between CPUs (class 0 item 72).",
	  MX_SRC_FIXED, NULL, 0, migrations },
	{ "meas_cpu_seconds", MX_COUNTER, "seconds",
	  "CPU time summed over all CPUs, by mode: busy (item 88), idle (item 80 - item 84), iowait (item 84).",
	  MX_SRC_FIXED, "mode", 1, cpu },

	{ "meas_disk_reads_by_kind", MX_COUNTER, "",
	  "Reads completed, by kind (class 0 subclass 1 items 2, 5, 7, 9).",
	  MX_SRC_DISC, "kind", 0, disc_reads },
	{ "meas_disk_writes_by_kind", MX_COUNTER, "",
	  "Writes completed, by kind (class 0 subclass 1 items 3, 4, 6, 8, 10).",
	  MX_SRC_DISC, "kind", 0, disc_writes },
	{ "meas_disk_requeues", MX_COUNTER, "",
	  "Requests requeued: device or driver busy (class 0 subclass 1 item 12).",
	  MX_SRC_DISC, NULL, 0, disc_busy },
	{ "meas_disk_control_ops", MX_COUNTER, "",
	  "Flushes, discards, zeroes, zone and passthrough operations completed (class 0 subclass 1 item 13).",
	  MX_SRC_DISC, NULL, 0, disc_control },
	{ "meas_disk_queue_length", MX_HISTOGRAM, "",
	  "Requests of the disk in flight when a request entered its queue (class 0 subclass 1 items 14-20).",
	  MX_SRC_QLEN, NULL, 0, qlen },

	{ "meas_disk_reads_completed", MX_COUNTER, "",
	  "Reads completed (class 0 subclass 4 item 1).",
	  MX_SRC_XFER, NULL, 0, x_reads },
	{ "meas_disk_writes_completed", MX_COUNTER, "",
	  "Writes completed (class 0 subclass 4 item 2).",
	  MX_SRC_XFER, NULL, 0, x_writes },
	{ "meas_disk_read_bytes", MX_COUNTER, "bytes",
	  "Bytes read (class 0 subclass 4 item 3).",
	  MX_SRC_XFER, NULL, 0, x_rbytes },
	{ "meas_disk_written_bytes", MX_COUNTER, "bytes",
	  "Bytes written (class 0 subclass 4 item 4).",
	  MX_SRC_XFER, NULL, 0, x_wbytes },
	{ "meas_disk_discarded_bytes", MX_COUNTER, "bytes",
	  "Bytes discarded, securely erased or zeroed (class 0 subclass 4 item 5).",
	  MX_SRC_XFER, NULL, 0, x_dbytes },
	{ "meas_disk_read_time_seconds", MX_COUNTER, "seconds",
	  "Time of the timed reads, insert to completion (class 0 subclass 4 item 6).",
	  MX_SRC_XFER, NULL, 1, x_rtime },
	{ "meas_disk_write_time_seconds", MX_COUNTER, "seconds",
	  "Time of the timed writes, insert to completion (class 0 subclass 4 item 7).",
	  MX_SRC_XFER, NULL, 1, x_wtime },
	{ "meas_disk_reads_timed", MX_COUNTER, "",
	  "Reads seen from their insert (class 0 subclass 4 item 8).",
	  MX_SRC_XFER, NULL, 0, x_rtimed },
	{ "meas_disk_writes_timed", MX_COUNTER, "",
	  "Writes seen from their insert (class 0 subclass 4 item 9).",
	  MX_SRC_XFER, NULL, 0, x_wtimed },
	{ "meas_disk_queue_time_seconds", MX_COUNTER, "seconds",
	  "Time of every timed request, insert to completion; its rate is the average queue size (class 0 subclass 4 item 10).",
	  MX_SRC_XFER, NULL, 1, x_queue },
	{ "meas_disk_service_time_seconds", MX_COUNTER, "seconds",
	  "Time of the timed requests from their last issue to completion (class 0 subclass 4 item 11).",
	  MX_SRC_XFER, NULL, 1, x_service },
	{ "meas_disk_in_flight_requests", MX_GAUGE, "",
	  "Requests in flight now (class 0 subclass 4 item 12).",
	  MX_SRC_XFER, NULL, 0, x_inflight },
	{ "meas_disk_untracked", MX_COUNTER, "",
	  "Completed requests meas did not see enter (class 0 subclass 4 item 13).",
	  MX_SRC_XFER, NULL, 0, x_untracked },

	{ "meas_disk_requests_completed", MX_COUNTER, "",
	  "Requests completed, by /proc/diskstats operation group (class 0 subclass 5, COUNT).",
	  MX_SRC_LAT, "op", 0, lat_count },
	{ "meas_disk_requests_untimed", MX_COUNTER, "",
	  "Requests completed that meas did not see enter, in no latency bucket (class 0 subclass 5, UNTIMED).",
	  MX_SRC_LAT, "op", 0, lat_untimed },
	{ "meas_disk_io_latency_seconds", MX_HISTOGRAM, "seconds",
	  "Request latency from entering the queue to completion, power-of-two buckets (class 0 subclass 5).",
	  MX_SRC_LATHIST, "op", 1, lat_hist },

	{ "meas_io_trace_records", MX_COUNTER, "",
	  "Records written to the class 14 I/O trace ring (header item 2).",
	  MX_SRC_IO, NULL, 0, io_total },
	{ "meas_io_trace_lost_records", MX_COUNTER, "",
	  "Records of the class 14 ring overwritten before anyone could read them (header item 4).",
	  MX_SRC_IO, NULL, 0, io_lost },

	{ "meas_build_info", MX_GAUGE, "",
	  "Always 1: the meas version this exporter was built from.",
	  MX_SRC_BUILD, NULL, 0, self },
	{ "meas_class_start_time_seconds", MX_GAUGE, "seconds",
	  "When this agent enabled each class: its counters cannot reset while it holds them (Unix time).",
	  MX_SRC_START, "class", 0, self },
	{ "meas_scrape_duration_seconds", MX_GAUGE, "seconds",
	  "Time this scrape took to read the regions and render them.",
	  MX_SRC_SCRAPE, NULL, 0, self },
};

const size_t mx_nfamilies = ARRAY_SIZE(mx_families);

/* ---- process groups (groups.c) --------------------------------------- */

/*
 * The families of the groups, in the order the exporter renders them
 * (tools/exporter/scrape.c); the PCP agent serves them as meas.group.* (pcpname.c).
 * Documentation/exporter.rst and Documentation/pcp.rst list them.
 */
const struct mx_grp_family mx_grp_families[MX_GF_NR] = {
	[MX_GF_CPU] = { "meas_process_group_cpu_seconds", MX_COUNTER,
		"seconds",
		"CPU time of the group's processes, the exited included (class 15 item 36).",
		1 },
	[MX_GF_STOPS] = { "meas_process_group_stops", MX_COUNTER, "",
		"Stops of the group's processes, every reason (class 15 items 18-24, 58, 59).",
		0 },
	[MX_GF_BYTES] = { "meas_process_group_disk_bytes", MX_COUNTER, "bytes",
		"Bytes of the read and write bios the group's processes submitted (class 15 item 50).",
		0 },
	[MX_GF_EXITS] = { "meas_process_group_exits", MX_COUNTER, "",
		"Processes of the group that exited (exit records).", 0 },
	[MX_GF_PROCESSES] = { "meas_process_group_processes", MX_GAUGE, "",
		"Processes of the group alive at this scrape.", 0 },
	[MX_GF_CAPPED] = { "meas_process_groups_capped", MX_COUNTER, "",
		"Processes put in group \"other\" because the group cap was reached.",
		0 },
	[MX_GF_LOST] = { "meas_process_exit_records_lost", MX_COUNTER, "",
		"Exit records never received (sequence gaps): those processes' last gains are missing.",
		0 },
	[MX_GF_WALKS] = { "meas_process_group_cgroup_walks", MX_COUNTER, "",
		"Walks of /sys/fs/cgroup to map new cgroup IDs to paths.", 0 },
};

/* The per-cgroup families (cgtotals.c reads them), a row per series. */
#define S(fam, type, unit, help, lname, lval, item, minus, ns) \
	{ fam, type, unit, help, lname, lval, item, minus, ns }

#define STOPS_HELP "Stops of the cgroup's threads, by reason (class 15 items 18-24, 58, 59)."
#define PAUSED_HELP "Time the cgroup's threads were paused, by reason (class 15 items 40-46, 60)."

const struct mx_cg_series mx_cg_series[] = {
	S("meas_cgroup_cpu_seconds", MX_COUNTER, "seconds",
	  "CPU time of the cgroup's threads, those gone included (class 15 item 36).",
	  NULL, NULL, MEAS_P_CPU_TIME, MX_NONE, 1),
	S("meas_cgroup_runnable_wait_seconds", MX_COUNTER, "seconds",
	  "Time the cgroup's threads were runnable, waiting for a CPU (class 15 item 48).",
	  NULL, NULL, MEAS_P_PAUSE_ACTIVE, MX_NONE, 1),
	S("meas_cgroup_launches", MX_COUNTER, "",
	  "Switch-ins of the cgroup's threads (class 15 item 26).",
	  NULL, NULL, MEAS_P_LAUNCHES, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "disc_blocked", MEAS_P_STOP_DISC_BLOCKED, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "disc_unblocked", MEAS_P_STOP_DISC_UNBLOCKED, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "blocked_io", MEAS_P_STOP_BLOCKED_IO, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "terminal", MEAS_P_STOP_TERMINAL, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "impeded", MEAS_P_STOP_IMPEDED, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "timed_out", MEAS_P_STOP_TIMED_OUT, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "preempted", MEAS_P_STOP_PREEMPTED, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "job_control", MEAS_P_STOP_JOBCTL, MX_NONE, 0),
	S("meas_cgroup_stops", MX_COUNTER, "", STOPS_HELP, "reason",
	  "exit", MEAS_P_STOP_EXIT, MX_NONE, 0),
	S("meas_cgroup_paused_seconds", MX_COUNTER, "seconds", PAUSED_HELP,
	  "reason", "disc", MEAS_P_PAUSE_DISC, MX_NONE, 1),
	S("meas_cgroup_paused_seconds", MX_COUNTER, "seconds", PAUSED_HELP,
	  "reason", "io", MEAS_P_PAUSE_IO, MX_NONE, 1),
	S("meas_cgroup_paused_seconds", MX_COUNTER, "seconds", PAUSED_HELP,
	  "reason", "terminal", MEAS_P_PAUSE_TERMINAL, MX_NONE, 1),
	S("meas_cgroup_paused_seconds", MX_COUNTER, "seconds", PAUSED_HELP,
	  "reason", "impeded", MEAS_P_PAUSE_IMPEDED, MX_NONE, 1),
	S("meas_cgroup_paused_seconds", MX_COUNTER, "seconds", PAUSED_HELP,
	  "reason", "job_control", MEAS_P_PAUSE_JOBCTL, MX_NONE, 1),
	S("meas_cgroup_disk_ios", MX_COUNTER, "",
	  "Bios the cgroup's threads submitted (class 15 items 30, 31).",
	  "op", "read", MEAS_P_DISC_READS, MX_NONE, 0),
	S("meas_cgroup_disk_ios", MX_COUNTER, "",
	  "Bios the cgroup's threads submitted (class 15 items 30, 31).",
	  "op", "write", MEAS_P_DISC_WRITES, MX_NONE, 0),
	S("meas_cgroup_disk_bytes", MX_COUNTER, "bytes",
	  "Bytes of the bios the cgroup's threads submitted (class 15 items 50, 61).",
	  "op", "read", MEAS_P_DISC_READ_BYTES, MX_NONE, 0),
	S("meas_cgroup_disk_bytes", MX_COUNTER, "bytes",
	  "Bytes of the bios the cgroup's threads submitted (class 15 items 50, 61).",
	  "op", "write", MEAS_P_DISC_BYTES, MEAS_P_DISC_READ_BYTES, 0),
	S("meas_cgroup_threads", MX_GAUGE, "",
	  "Live threads in the cgroup (and below it, to the exported depth).",
	  NULL, NULL, MX_CG_THREADS, MX_NONE, 0),
};

const size_t mx_cg_nseries = ARRAY_SIZE(mx_cg_series);

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the in-VM selftests (meas_test, clock_test,
 * update_test, proc_test, io_test): module parameters, capabilities,
 * clocks, CPU affinity, and the independent truth counters are checked
 * against (/proc/stat, /proc/diskstats, null_blk).  Built once into
 * libselftest.a.
 */
#ifndef MEAS_SELFTEST_COMMON_H
#define MEAS_SELFTEST_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "libmeas.h"

#define PARAM_DIR	"/sys/module/meas/parameters/"
/*
 * The group that stands for "meas" in the test VM, which runs no udev:
 * meas_udev() gives /dev/meas to it as tools/system/60-meas.rules does,
 * and the tests' unprivileged users are its members (selftests/meas-udev.sh).
 */
#define MEAS_VM_GID	4040
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

/* Write @value to the file @path: 0 or -errno. */
int write_file(const char *path, const char *value);

/*
 * The first line of the file @path that sscanf() reads with @fmt (one
 * conversion, "%lld": "usage_usec %lld", "SUnreclaim: %lld kB") into @v:
 * 0, or -1 when the file or the line is not there (@v unchanged).
 */
int scan_file(const char *path, const char *fmt, long long *v);

/* Write the module parameter @name: 0 or -errno. */
int try_set_param(const char *name, const char *value);

/* Write the module parameter @name; exits the process if that fails. */
void set_param(const char *name, const char *value);

/* MEAS_IOC_INFO, or all ones if the call fails. */
struct meas_info info_of(int fd);

/* Drop every capability: what an unprivileged caller has.  Exits on failure. */
void drop_caps(void);

/* /dev/meas to MEAS_VM_GID, mode 0660, as udev would: 0 or -errno. */
int meas_udev(void);

/* Become @uid and @gid (all three IDs), a member of MEAS_VM_GID only. */
int become_member(uid_t uid, gid_t gid);

uint64_t now_ns(clockid_t clk);
uint64_t mono_ns(void);		/* CLOCK_MONOTONIC in ns */
double now_s(void);		/* CLOCK_MONOTONIC in seconds */
/* The time-items storms' length in seconds: MEAS_STORM_SECONDS, or 2. */
unsigned int storm_seconds(void);

/*
 * Time items of @cur below their value in @prev (a counter gone back),
 * the first few logged as TAP comments; then @prev takes @cur's values.
 * @n words each; @items, @nitems: the indexes to check.
 */
unsigned int items_gone_back(uint64_t *prev, const uint64_t *cur, size_t n,
			     const unsigned int *items, size_t nitems);

/* Sort @n values of @v, smallest first (medians of timings). */
void sort_longs(long *v, size_t n);

/* Sleep @ms milliseconds, resuming after signals. */
void sleep_ms(unsigned int ms);

/* Bind the calling thread to @cpu: sched_setaffinity's result. */
int pin_cpu(int cpu);

/* ---- independent truth: /proc/stat, /proc/diskstats, null_blk ---------- */

#define DIRECT_IO_BS	4096	/* bytes of each do_io() request */

/* The "ctxt" line of /proc/stat: context switches since boot. */
uint64_t proc_stat_ctxt(void);

/* @n round trips of one byte between two processes pinned to CPU 0. */
void pingpong(int n);

/*
 * Class 0's context switches over pingpong(@n), on @fd with class 0
 * enabled, and /proc/stat's ctxt read around them.  Every switch is a
 * launch (to a task) or an idle pause (to the idle task), so launches +
 * idles = ctxt, less the switches between each read of ctxt and its GET.
 */
struct c0_switches {
	uint64_t launches, idles, ctxt;
};

int c0_switches_over_pingpong(int fd, int n, struct c0_switches *s);
/* Its round trips in the tests: MEAS_PINGPONG_TRIPS, or 20000. */
int pingpong_trips(void);

struct dstats {
	uint64_t rd, rd_sect, wr, wr_sect, disc, disc_sect, flush;
};

/* /proc/diskstats: the disk's reads, writes, discards and flushes, settled. */
int diskstats(const char *name, struct dstats *d);

/* MEAS_DEV() of the block device node @path, or 0. */
uint64_t dev_of(const char *path);

/* Wait up to 5 s for a device node of @type (S_IFBLK, S_IFCHR). */
int wait_dev(const char *path, mode_t type);
/* Wait up to 5 s for a block device node (devtmpfs creates it). */
int wait_node(const char *path);

bool null_blk_loaded(void);
void null_blk_unload(void);
/* modprobe null_blk @params and wait for /dev/nullb0: 0 or -1. */
int null_blk_load(const char *params);

/*
 * @reads O_DIRECT reads and @writes writes of DIRECT_IO_BS bytes at block
 * @first onwards of the device @path: 0 or -errno.
 */
int do_io(const char *path, int reads, int writes, int extra_flags,
	  uint64_t first);

#endif

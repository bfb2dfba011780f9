/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the in-VM selftests (meas_test, clock_test,
 * update_test, proc_test, io_test): module parameters, capabilities,
 * clocks and CPU affinity.  Built once into libselftest.a.
 */
#ifndef MEAS_SELFTEST_COMMON_H
#define MEAS_SELFTEST_COMMON_H

#include <stdint.h>
#include <time.h>

#include "libmeas.h"

#define PARAM_DIR	"/sys/module/meas/parameters/"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

/* Write @value to the file @path: 0 or -errno. */
int write_file(const char *path, const char *value);

/* Write the module parameter @name: 0 or -errno. */
int try_set_param(const char *name, const char *value);

/* Write the module parameter @name; exits the process if that fails. */
void set_param(const char *name, const char *value);

/* MEAS_IOC_INFO, or all ones if the call fails. */
struct meas_info info_of(int fd);

/* Drop every capability: what an unprivileged caller has.  Exits on failure. */
void drop_caps(void);

uint64_t now_ns(clockid_t clk);
uint64_t mono_ns(void);		/* CLOCK_MONOTONIC in ns */
double now_s(void);		/* CLOCK_MONOTONIC in seconds */

/* Sleep @ms milliseconds, resuming after signals. */
void sleep_ms(unsigned int ms);

/* Bind the calling thread to @cpu: sched_setaffinity's result. */
int pin_cpu(int cpu);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the security tests (seclib.c): module parameters, users,
 * children that report when ready, a PID taken on purpose, class 14,
 * stallfs and a file closed in flight.
 */
#ifndef MEAS_SELFTEST_SECLIB_H
#define MEAS_SELFTEST_SECLIB_H

#include <stdint.h>
#include <sys/types.h>

#define U1	1000	/* a member of group meas */
#define U2	2000	/* another one */

/* The value of module parameter @name, or -1. */
long param(const char *name);
/* Wait up to 10 s for module parameter @name to read @v: 0 or -1. */
int param_wait(const char *name, long v);
/* Become @uid and @gid (all three IDs), a member of meas, dumpable. */
int become(uid_t uid, gid_t gid);
/* Fork a child; it reports on *@ready once it has taken its credentials. */
pid_t fork_ready(int *ready);
/* Parent: wait for the child's report; the child's PID, or -1. */
pid_t ready_wait(pid_t pid, int ready);
/* A child that sleeps until killed, as @uid if not 0; its PID. */
pid_t sleeper(uid_t uid, gid_t gid);
/* Kill @pid and reap it. */
void reap(pid_t pid);
/*
 * Wait up to @ms (monotonic) for @pid to exit: its status, or -1 if it did
 * not or is not a child left to wait for.
 */
int wait_for(pid_t pid, int ms);
/* A child of ours with PID @want, running @fn; -1 if the PID is taken. */
pid_t fork_as(pid_t want, int (*fn)(void *));
/* @n direct reads of the open block device @fd, on CPU 0: 0 or -1. */
int reads_on_cpu0(int fd, int n);
/* Item @item of class 14's header, read on @fd; all ones on failure. */
uint64_t io_item(int fd, int item);


/*
 * stallfs (selftests/stallfs.c, built beside the program) on @mnt, an
 * existing directory: 0 once it is mounted.  One at a time.
 */
int fuse_start(const char *mnt);
/* Wait up to @ms for stallfs to hold @n writes: 0, or -1. */
int fuse_held(int n, int ms);
/* Write to stallfs's control file @name (".stall", ".resume"): 0 or -1. */
int fuse_ctl(const char *name);
/* End stallfs and its mount. */
void fuse_stop(void);
/*
 * Put @fd in flight in a unix socket that holds itself, and close
 * everything: only the sockets' garbage collector can release @fd now;
 * then close another unix socket, which runs the collector.
 */
void in_flight_close(int fd);
/*
 * Wait up to @ms for EOF on @fd (its writing end released): 0 or -1;
 * meanwhile the collector is asked again every 100 ms, as a request
 * made while it runs is dropped (Linux 6.10 and later).
 */
int eof_within(int fd, int ms);

#endif

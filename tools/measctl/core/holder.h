/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl start and stop: the holders, the processes that keep classes
 * enabled after measctl start returns (holder.c), and the records they
 * leave in the run directory (rundir.c), which stop reads (stop.c).
 */
#ifndef MEASCTL_CORE_HOLDER_H
#define MEASCTL_CORE_HOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MEASCTL_RUNDIR		"/run/meas"
#define HOLDER_COMM		"measctl-holder"	/* comm of a holder */

int rundir_path(char *buf, size_t len);
int rundir_make(const char *dir);
int holder_record_write(const char *dir, pid_t pid, uint32_t mask);
int holder_record_read(const char *dir, pid_t pid, uint32_t *mask);
int holder_record_remove(const char *dir, pid_t pid);
void holder_record_name(const char *dir, pid_t pid, char *buf, size_t len);
bool holder_alive(pid_t pid);

struct holder_ent {
	pid_t pid;
	uint32_t mask;
	bool readable;		/* the record could be read */
};

int holder_scan(const char *dir, struct holder_ent **out, size_t *n);

#endif /* MEASCTL_CORE_HOLDER_H */

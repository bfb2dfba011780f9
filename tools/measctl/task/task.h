/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl task: what task.c (start, stop, run), taskreport.c (report,
 * the SM2-PA evaluation) and syscalls.c share.
 */
#ifndef MEASCTL_TASK_H
#define MEASCTL_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cli/cli.h"
#include "task/taskfile.h"

/* Rows per table of a report unless --top says otherwise. */
#define TASK_REPORT_TOP		20

struct task_report_opts {
	size_t top;		/* rows per table, 0: all */
};

/* The report of one session, as text or into an open JSON object. */
void task_report_text(FILE *f, const struct tf_session *s,
		      const struct task_report_opts *o);
void task_report_json(struct json *j, const struct tf_session *s,
		      const struct task_report_opts *o);
/* "exit", "stop" ... of an ended session, "cut short" otherwise. */
const char *task_end_text(const struct tf_session *s);

/* task report FILE (taskreport.c), a subcommand of task. */
extern const struct command task_report_command;

/* The name of system call @nr (MEAS_TREC_COMPAT in @flags), or "syscall_N" in @buf. */
const char *syscall_name(uint32_t audit_arch, uint32_t flags, uint32_t nr,
			 char *buf, size_t len);

#endif /* MEASCTL_TASK_H */

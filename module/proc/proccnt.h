/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Class 15's counters of a thread (enum proc_cnt), a type below every
 * unit of class 15: the thread records (proctab.h) and the cgroup
 * entries (cgtab.h) both keep them.
 */
#ifndef _MEAS_PROC_PROCCNT_H
#define _MEAS_PROC_PROCCNT_H

/* Per-thread counters: proc_thr.cnt[], folded into MEAS_P_* items. */
enum proc_cnt {
	PC_LAUNCH,
	PC_STOP_DISC_BLK,
	PC_STOP_DISC_UNBLK,
	PC_STOP_BLOCKED,
	PC_STOP_TERM,
	PC_STOP_IMPEDE,
	PC_STOP_TIMEOUT,
	PC_STOP_PREEMPT,
	PC_STOP_JOBCTL,
	PC_STOP_EXIT,
	PC_CPU,
	PC_P_DISC,
	PC_P_BLOCKED,
	PC_P_TERM,
	PC_P_IMPEDE,
	PC_P_ACTIVE,
	PC_P_JOBCTL,
	PC_READS,
	PC_WRITES,
	PC_BYTES,
	PC_RBYTES,
	PC_NR
};

#endif /* _MEAS_PROC_PROCCNT_H */

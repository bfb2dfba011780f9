/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procexit.c: the exit records' worker, which drains the table's exit
 * ring (proctab.c fills it) and multicasts each record (genl.c).
 */
#ifndef _MEAS_PROC_PROCEXIT_H
#define _MEAS_PROC_PROCEXIT_H

struct proc_tab;

void meas_procexit_init(struct proc_tab *tab);
void meas_procexit_stop(struct proc_tab *tab);

#endif /* _MEAS_PROC_PROCEXIT_H */

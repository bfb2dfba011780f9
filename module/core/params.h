/* SPDX-License-Identifier: GPL-2.0 */
/* params.c: module parameters (fault injection: inject.h) */
#ifndef _MEAS_CORE_PARAMS_H
#define _MEAS_CORE_PARAMS_H

#include <linux/types.h>

extern unsigned int meas_param_max_region_kib;
extern unsigned int meas_param_max_disks;
extern unsigned int meas_param_max_tapes;
extern unsigned int meas_param_io_records;
extern unsigned int meas_param_io_track;
extern unsigned int meas_param_max_tasks;
extern unsigned int meas_param_max_tasks_per_user;
extern unsigned int meas_param_task_ring_kib;

#endif /* _MEAS_CORE_PARAMS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* get.c: GETSTATISTICS */
#ifndef _MEAS_CORE_GET_H
#define _MEAS_CORE_GET_H

struct meas_get;

int meas_get_stats(struct meas_get *arg);

#endif /* _MEAS_CORE_GET_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * genl.c: class 15's generic netlink family: its registration (main.c)
 * and the multicast of exit records (procexit.c).
 */
#ifndef _MEAS_PROC_GENL_H
#define _MEAS_PROC_GENL_H

#include <linux/types.h>
#include <linux/meas.h>

int meas_genl_register(void);
void meas_genl_unregister(void);
int meas_genl_send_exit(const struct meas_proc_rec *rec, u64 cgid, u64 seq);

#endif /* _MEAS_PROC_GENL_H */

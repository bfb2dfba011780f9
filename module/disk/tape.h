/* SPDX-License-Identifier: GPL-2.0 */
/* tape.c: SCSI tapes, whose requests have no disk, for the probes (blk.c) */
#ifndef _MEAS_DISK_TAPE_H
#define _MEAS_DISK_TAPE_H

#include <linux/types.h>

struct request;

int meas_tape_attach(void);
void meas_tape_detach(void);
u64 meas_tape_key(struct request *rq, unsigned int *op);

#endif /* _MEAS_DISK_TAPE_H */

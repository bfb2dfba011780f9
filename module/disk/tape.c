// SPDX-License-Identifier: GPL-2.0
/*
 * SCSI tapes for class 0 subclass 3.  The st driver sends every command,
 * reads and writes included, as a passthrough request on the SCSI
 * device's request queue, so tape commands pass the block tracepoints
 * like disk requests, but on a queue without a disk.  A completion
 * without a disk is a tape's when the queue belongs to a SCSI device of
 * type TYPE_TAPE.
 *
 * scsi_device_from_queue() tells; it lives in scsi_mod, which meas does
 * not depend on: it is looked up with symbol_get() when the block unit
 * starts, which pins scsi_mod while class 0 or 14 is enabled.  Without
 * scsi_mod loaded at that moment there are no SCSI tapes to count.
 */
#include <linux/blk-mq.h>
#include <linux/module.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_proto.h>
#include <linux/meas.h>
#include "blk.h"

static struct scsi_device *(*tape_sdev_of)(struct request_queue *q);

/* Called with meas_sir held, when the block unit starts. */
int meas_tape_attach(void)
{
	tape_sdev_of = symbol_get(scsi_device_from_queue);
	return 0;
}

void meas_tape_detach(void)
{
	if (tape_sdev_of)
		symbol_put(scsi_device_from_queue);
	tape_sdev_of = NULL;
}

/* READ and WRITE move data; every other tape command is control. */
static unsigned int tape_op(const struct scsi_cmnd *cmd)
{
	switch (cmd->cmnd[0]) {
	case READ_6:
	case READ_16:
		return MEAS_IO_OP_READ;
	case WRITE_6:
	case WRITE_16:
		return MEAS_IO_OP_WRITE;
	default:
		return MEAS_IO_OP_OTHER;
	}
}

/**
 * meas_tape_key() - the tape a request without a disk went to
 * @rq: a completing request whose queue has no disk
 * @op: out: MEAS_IO_OP_READ, _WRITE or _OTHER when it is a tape's
 *
 * Passthrough requests without a disk are rare (tapes, SCSI generic,
 * device management), so the reference scsi_device_from_queue() takes
 * and drops is not on a hot path.
 *
 * Return: MEAS_TAPE_ADDR() of the tape, or 0.
 */
u64 meas_tape_key(struct request *rq, unsigned int *op)
{
	struct scsi_device *(*sdev_of)(struct request_queue *q);
	struct scsi_device *sdev;
	u64 key = 0;

	sdev_of = READ_ONCE(tape_sdev_of);
	if (!sdev_of || !blk_rq_is_passthrough(rq))
		return 0;
	sdev = sdev_of(rq->q);
	if (!sdev)
		return 0;
	if (sdev->type == TYPE_TAPE) {
		key = MEAS_TAPE_ADDR(sdev->host->host_no, sdev->channel,
				     sdev->id, sdev->lun);
		*op = tape_op(blk_mq_rq_to_pdu(rq));
	}
	put_device(&sdev->sdev_gendev);
	return key;
}

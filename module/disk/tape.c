// SPDX-License-Identifier: GPL-2.0
/*
 * SCSI tapes for class 0 subclass 3.  The st driver sends every command,
 * reads and writes included, as a passthrough request on the SCSI
 * device's request queue, so tape commands pass the block tracepoints
 * like disk requests, but on a queue without a disk.  A completion
 * without a disk is a tape's when its queue is a SCSI device's and the
 * device is of type TYPE_TAPE.
 *
 * The SCSI midlayer's own test, scsi_device_from_queue(), compares the
 * queue's blk_mq_ops with its two tables, but it has not been exported
 * since 5.10 (6.1 still declared it, and symbol_get() found nothing),
 * and neither are the tables.  So meas learns the tables: a queue's ops
 * are SCSI's when their queue_rq is the function named scsi_queue_rq.
 * Each ops table is named once, the first time a diskless request of a
 * queue using it completes, and remembered; later requests compare
 * pointers, as the midlayer does.
 *
 * Learnt addresses must stay scsi_mod's: the unit pins scsi_mod while
 * it runs, with symbol_get() of one of its GPL exports (symbol_get() takes
 * no other kind since 6.6 and its stable backports).  Without scsi_mod
 * loaded when the block unit starts, there are no SCSI tapes to count.
 */
#include <linux/blk-mq.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_proto.h>
#include <linux/meas.h>
#include "tape.h"

/* ops tables told apart: SCSI's are two (with and without commit_rqs) */
#define TAPE_OPS	4

static const struct blk_mq_ops *tape_scsi[TAPE_OPS];
static const struct blk_mq_ops *tape_other[TAPE_OPS];
static bool tape_pinned;

/* Called with meas_sir held, when the block unit starts. */
int meas_tape_attach(void)
{
	tape_pinned = !!symbol_get(scsi_build_sense);
	return 0;
}

/* Called with meas_sir held, once no probe can run any more. */
void meas_tape_detach(void)
{
	memset(tape_scsi, 0, sizeof(tape_scsi));
	memset(tape_other, 0, sizeof(tape_other));
	if (tape_pinned)
		symbol_put(scsi_build_sense);
	tape_pinned = false;
}

/* Whether @set has @ops; if not, and there is room, @ops goes in. */
static bool tape_ops_known(const struct blk_mq_ops **set,
			   const struct blk_mq_ops *ops, bool add)
{
	unsigned int i;

	for (i = 0; i < TAPE_OPS; i++) {
		const struct blk_mq_ops *o = READ_ONCE(set[i]);

		if (o == ops)
			return true;
		if (!o && add && !cmpxchg(&set[i], NULL, ops))
			return false;
	}
	return false;
}

/*
 * The name of @ops's queue_rq (" [scsi_mod]" follows it in a module).
 * A completion may come in any context, as a %pS of printk does.
 */
static bool tape_ops_are_scsi(const struct blk_mq_ops *ops)
{
	static const char name[] = "scsi_queue_rq";
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(sym, (unsigned long)ops->queue_rq);
	return !strncmp(sym, name, sizeof(name) - 1) &&
	       (!sym[sizeof(name) - 1] || sym[sizeof(name) - 1] == ' ');
}

/* The SCSI device of @q, or NULL: scsi_device_from_queue()'s test. */
static struct scsi_device *tape_sdev(struct request_queue *q)
{
	const struct blk_mq_ops *ops = q->mq_ops;

	if (!READ_ONCE(tape_pinned) || !ops)
		return NULL;
	if (tape_ops_known(tape_scsi, ops, false))
		return q->queuedata;
	if (tape_ops_known(tape_other, ops, false))
		return NULL;
	if (!tape_ops_are_scsi(ops)) {
		tape_ops_known(tape_other, ops, true);
		return NULL;
	}
	tape_ops_known(tape_scsi, ops, true);
	return q->queuedata;
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
 * device management).  The device cannot go while its request
 * completes, so it is read without a reference.
 *
 * Return: MEAS_TAPE_ADDR() of the tape, or 0.
 */
u64 meas_tape_key(struct request *rq, unsigned int *op)
{
	struct scsi_device *sdev;

	if (!blk_rq_is_passthrough(rq))
		return 0;
	sdev = tape_sdev(rq->q);
	if (!sdev || sdev->type != TYPE_TAPE)
		return 0;
	*op = tape_op(blk_mq_rq_to_pdu(rq));
	return MEAS_TAPE_ADDR(sdev->host->host_no, sdev->channel, sdev->id,
			      sdev->lun);
}

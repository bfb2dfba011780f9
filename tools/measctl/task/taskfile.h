/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the reader of task measurement files (<linux/meas_task.h>).
 * Pure: no kernel, no device; the host unit tests build files in memory.
 *
 * A file is parsed whole into sessions, one per measurement appended to
 * it.  Each session keeps its samples, system calls, load information
 * and MAP/UNMAP events, numbered by their record's position in the
 * session (seq), so that an address can be resolved against the objects
 * that were mapped when it was recorded.
 */
#ifndef MEASCTL_TASKFILE_H
#define MEASCTL_TASKFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/meas_task.h>

#define TF_NO_LOAD	UINT32_MAX	/* tf_object.load of a MAP */
#define TF_FOREVER	UINT64_MAX	/* tf_object.until: never unmapped */

/* An executable mapping from a load block (OBJECT) or a MAP record. */
struct tf_object {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;		/* file offset of start */
	uint64_t ino;
	uint32_t dev, prot, gen;
	uint32_t load;		/* its load block, TF_NO_LOAD for a MAP */
	uint64_t seq;		/* record where it appears */
	uint64_t until;		/* record of the UNMAP that removed it */
	uint64_t time_ns;
	char *name;
};

/* LOAD_BEGIN ... LOAD_END */
struct tf_load {
	uint32_t kind, gen;	/* MEAS_TASK_LOAD_*, generation */
	uint64_t seq, time_ns;
	uint32_t declared;	/* LOAD_END's count of objects */
	bool closed;		/* its LOAD_END was seen */
	size_t first, n;	/* its objects: obj[first .. first + n) */
};

/* MAP, UNMAP and EXEC, in file order (load information, detailed). */
struct tf_event {
	uint16_t type;		/* MEAS_TREC_MAP, _UNMAP, _EXEC */
	uint32_t gen, tid;
	uint64_t seq, time_ns;
	uint64_t start, end;	/* MAP, UNMAP */
	size_t obj;		/* MAP: its object */
};

struct tf_sample {
	uint64_t ip, seq;
	uint32_t gen, tid;
};

struct tf_svc {
	uint64_t ip, seq;
	uint32_t nr, flags, gen, tid;
};

struct tf_session {
	uint64_t offset;		/* of the SESSION record */
	struct meas_trec_session head;
	bool ended;			/* the END record is there */
	struct meas_trec_end end;
	uint64_t records;		/* records of the session */
	uint64_t last_ns;		/* time of its last record */
	uint64_t unknown;		/* records of unknown type, skipped */
	uint64_t anomalies;		/* load blocks out of order */
	uint64_t lost;			/* sum of the LOST records */
	uint64_t lost_records;		/* LOST records */
	uint32_t max_gen;

	struct tf_object *obj;
	size_t nobj, cap_obj;
	struct tf_load *load;
	size_t nload, cap_load;
	struct tf_event *ev;
	size_t nev, cap_ev;
	struct tf_sample *sample;
	size_t nsample, cap_sample;
	struct tf_svc *svc;
	size_t nsvc, cap_svc;

	uint32_t open_load;		/* load block being read, TF_NO_LOAD */
};

struct tf_file {
	struct tf_session *s;
	size_t n, cap;
	uint64_t size;			/* bytes read */
	bool truncated;			/* the last record is incomplete */
	uint64_t trunc_off;		/* where it starts */
	int err;			/* 0, or -EMEDIUMTYPE, -EBADMSG ... */
	uint64_t err_off;		/* of the record in error */
	char msg[160];			/* what is wrong with it */
};

/*
 * Parse @len bytes of a task file.  Returns 0, or f->err: -EMEDIUMTYPE
 * when it is not a task file, -EBADMSG at a corrupt record (the sessions
 * before it are kept), -ENOMEM.  An incomplete last record is not an
 * error: f->truncated says so.
 */
int tf_parse(const void *buf, size_t len, struct tf_file *f);
/* tf_parse() of the file at @path; -errno if it cannot be read. */
int tf_load(const char *path, struct tf_file *f);
void tf_free(struct tf_file *f);

/* The session numbered @session (struct meas_task_start), or NULL. */
const struct tf_session *tf_find_session(const struct tf_file *f,
					 uint64_t session);

/*
 * The object address @ip of generation @gen, recorded at @seq, lay in:
 * of those of @gen that contain it and were not unmapped before @seq
 * (nor mapped after it, for a MAP), the last to appear before @seq, else
 * the first after (a later load block).  NULL if none.
 */
const struct tf_object *tf_resolve(const struct tf_session *s, uint32_t gen,
				   uint64_t ip, uint64_t seq);

static inline uint64_t tf_file_offset(const struct tf_object *o, uint64_t ip)
{
	return ip - o->start + o->pgoff;
}

const char *tf_end_reason_name(uint32_t reason);	/* "stop", "exit" ... */
const char *tf_load_kind_name(uint32_t kind);	/* "start", "exec" ... */

#endif /* MEASCTL_TASKFILE_H */

/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libmeas: a thin C wrapper of the /dev/meas ioctls, used by measctl and
 * the selftests.  Every call returns 0 or a negative errno; the MPE
 * result code, where the call has one, is stored through @result
 * (MEAS_RC_NONE when the kernel did not answer with one).
 */
#ifndef LIBMEAS_H
#define LIBMEAS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/meas.h>

/* The subclass header returned by GETSTATISTICS at item -3. */
struct meas_header {
	uint64_t entries;	/* entries, entry 0 included */
	uint64_t entsize;	/* items per entry */
	uint64_t ent0size;	/* words of entry 0 */
};

int meas_open(void);

/*
 * The release of libmeas (the file VERSION of its tree) and the ABI
 * (MEAS_ABI_VERSION) it was built for.
 */
const char *meas_lib_version(void);
unsigned int meas_lib_abi(void);
/*
 * The release of the loaded meas.ko (/sys/module/meas/version) into
 * @buf: 0, -ENOENT if meas is not loaded, or another negative errno.
 */
int meas_module_version(char *buf, size_t len);
int meas_start(int fd, uint32_t classmask, int *result);
int meas_stop(int fd, uint32_t classmask, int *result);
int meas_get(int fd, int class, int subclass, int64_t startingitem,
	     int64_t wordcount, uint64_t *buf, size_t buflen, int *result);
int meas_fget(int fd, int class, int subclass, int64_t startingitem,
	      int64_t wordcount, uint64_t *buf, size_t buflen,
	      uint64_t *words);
int meas_header(int fd, int class, int subclass, struct meas_header *h,
		int *result);
int meas_info(int fd, struct meas_info *info);

/* Class 0 subclass 0: item name, or NULL where the item is not mapped. */
const char *meas_c0_item_name(unsigned int item);
/* Item measures nanoseconds (a time item) rather than events. */
int meas_c0_item_is_time(unsigned int item);

/*
 * Text of a result code of a call: "start", "stop", "get", "define",
 * "undefine", "describe", "update", "GETCLOCK", "GIVECLOCK",
 * "GETPROCSTATS", "READACTIVE", "iotrace" or "task"; "no result" for
 * MEAS_RC_NONE, "unknown code" for a code the call does not have.
 */
const char *meas_result_str(const char *call, int result);

/* ---- user-defined classes and UPDATESTATISTICS (lib/custom.c) ---- */

/* DEFINE: @d filled in by the caller; size and result are set here. */
int meas_define(int fd, struct meas_define *d, int *result);
int meas_undefine(int fd, int class, int *result);
/* DESCRIBE: @d receives the definition, @items up to @nitems items. */
int meas_describe(int fd, int class, struct meas_define *d,
		  struct meas_item_def *items, size_t nitems, int *result);
/* UPDATESTATISTICS; @flags MEAS_UPDATE_* (FAST: FUPDATESTATISTICS). */
int meas_update(int fd, int class, int subclass, int64_t entry,
		int64_t startingitem, uint32_t flags, int64_t valuechange,
		int *result);

/* The names and kinds of a user-defined class's items. */
struct meas_class_names {
	struct meas_define d;		/* the definition */
	struct meas_item_def *items;	/* d.nitems of them */
};

int meas_class_names_load(int fd, int class, struct meas_class_names *n);
void meas_class_names_free(struct meas_class_names *n);
/*
 * Name of GETSTATISTICS item @item of @subclass: "name", or "name[E]"
 * (E the entry) when the subclass has several entries; NULL if unnamed.
 */
const char *meas_class_item_name(const struct meas_class_names *n,
				 int subclass, int64_t item, char *buf,
				 size_t len);
/* MEAS_ITEM_COUNTER, MEAS_ITEM_GAUGE, or -1 if there is no such item. */
int meas_class_item_kind(const struct meas_class_names *n, int subclass,
			 int64_t item);

/* ---- the shared clock: GETCLOCK, GIVECLOCK (lib/clock.c) ---- */

#include <sys/types.h>

/*
 * GETCLOCK: the caller fills intrate, collector, records and wakeup; size,
 * result (MEAS_RC_NONE) and fd (-1) are set here.
 */
int meas_getclock(int fd, struct meas_getclock *g);
int meas_giveclock(int fd, uint32_t collector, int *result);
int meas_clockinfo(int fd, struct meas_clockinfo *ci);

/* The clock buffer mapped read-only. */
struct meas_clockmap {
	void *base;
	size_t size;
	const struct meas_clockbuf_head *head;
};

int meas_clockbuf_map(int bfd, struct meas_clockmap *m);
void meas_clockbuf_unmap(struct meas_clockmap *m);
const struct meas_clockbuf_ring *
meas_clockbuf_ring(const struct meas_clockmap *m, unsigned int cpu);
/* Records written to ring @cpu so far. */
uint64_t meas_clockbuf_head_of(const struct meas_clockmap *m, unsigned int cpu);
/* Copy record @idx of ring @cpu: 0, or -ESTALE if not there (overwritten). */
int meas_clockbuf_fetch(const struct meas_clockmap *m, unsigned int cpu,
			uint64_t idx, void *rec);
/* read() of the buffer descriptor: bytes, or -errno. */
ssize_t meas_clockbuf_read(int bfd, void *buf, size_t len);
const char *meas_collector_name(uint32_t id);

/* ---- class 15: GETPROCSTATS, READACTIVE (proc.c) ----------------------- */

/* GETPROCSTATS: the caller fills the request; size and result are set. */
int meas_getprocstats(int fd, struct meas_procstats *p);
/* One entry: @pin a PID (0: entry 0), or with MEAS_PROCSTATS_SLOT a slot. */
int meas_proc_get(int fd, uint32_t flags, int32_t pin, int64_t first,
		  int64_t count, uint64_t *buf, size_t buflen, int *result);
/* Entry 0 (MEAS_PROC_ITEMS words). */
int meas_proc_header(int fd, uint64_t *h, int *result);
/* Every entry up to the high-water mark (allpins), malloc'd; *nent set. */
int meas_proc_all(int fd, uint64_t **items, size_t *nent, int *result);
/*
 * READACTIVE: the caller fills the request; size and result are set, and
 * recsize if the caller left it 0: records of sizeof(struct
 * meas_proc_rec), which a module before ABI 3 refuses (-EINVAL).
 */
int meas_readactive(int fd, struct meas_readactive *ra);
/* A descriptor that matches every process (include != 0) or excludes. */
void meas_entity_init(struct meas_entity_desc *d, int include);
const char *meas_proc_item_name(unsigned int item);
/* Counts and sums of time (a view shows their change), not states. */
int meas_proc_item_is_counter(unsigned int item);
int meas_proc_item_is_time(unsigned int item);
/* Name of a MEAS_P_LAST_STOP value. */
const char *meas_proc_stop_name(uint64_t item);
/* Copy the string of @len bytes at @item of an entry, NUL-terminated. */
void meas_proc_string(const void *e, unsigned int item, size_t len,
		      char *buf);

/* ---- class 15: the generic netlink family (procnl.c, libnl-genl-3) ---- */

struct meas_nl;
/* Called for each record; seq is 0 except for exit records. */
typedef int (*meas_nl_rec_fn)(const struct meas_proc_rec *rec, uint64_t seq,
			      void *arg);
struct meas_nl *meas_nl_open(int *err);
void meas_nl_close(struct meas_nl *nl);
int meas_nl_fd(struct meas_nl *nl);
/* The record of process @pid (0: entry 0). */
int meas_nl_get(struct meas_nl *nl, int32_t pid, struct meas_proc_rec *rec);
/* Every process the caller may see. */
int meas_nl_dump(struct meas_nl *nl, meas_nl_rec_fn fn, void *arg);
/* Join the exits group, with a receive buffer of @rcvbuf bytes (0: keep). */
int meas_nl_exits_join(struct meas_nl *nl, int rcvbuf);
/* Receive what is pending (blocks if nothing); -ENOBUFS: records lost. */
int meas_nl_exits_recv(struct meas_nl *nl, meas_nl_rec_fn fn, void *arg);
/*
 * Inside a meas_nl_rec_fn: the cgroup v2 ID (MEAS_A_CGROUP) of the record
 * it was given; 0 from a kernel that does not send it.
 */
uint64_t meas_nl_cgroup(const struct meas_nl *nl);

/*
 * The per-cgroup totals of class 15 (MEAS_CMD_CGROUP_GET, ABI 3;
 * Documentation/cgroup.rst).  Errors: -ENODATA class 15 not enabled,
 * -ENOENT no such cgroup in the table, -EACCES the caller may not see
 * every process that counted in it, -EOPNOTSUPP a module before ABI 3.
 * Records are copied as far as this build knows them: a longer one of a
 * newer module is cut, a shorter one zero-filled (its size field says).
 *
 * A callback of a dump gets the header first (@hdr set, @rec NULL), then
 * each cgroup the caller may see (@rec set; @path the path of a removed
 * cgroup, NULL for a live one).  Returning non-zero stops the dump; the
 * dump call returns that value.
 */
typedef int (*meas_nl_cg_fn)(const struct meas_cgroup_hdr *hdr,
			     const struct meas_cgroup_rec *rec,
			     const char *path, void *arg);
/*
 * The record of cgroup @id (its cgroup v2 ID; 0: the overflow entry);
 * @path, MEAS_CGROUP_PATH_MAX bytes or NULL, gets a removed cgroup's path
 * or "".
 */
int meas_nl_cgroup_get(struct meas_nl *nl, uint64_t id,
		       struct meas_cgroup_rec *rec, char *path);
/* The table's header alone (its hidden is 0). */
int meas_nl_cgroup_header(struct meas_nl *nl, struct meas_cgroup_hdr *hdr);
/* The header, then every cgroup the caller may see, in entry order. */
int meas_nl_cgroup_dump(struct meas_nl *nl, meas_nl_cg_fn fn, void *arg);

/* ---- disks (class 0 subclasses 1 to 4) and class 14 (io.c) ---- */

/* MEAS_IOC_IOTRACE_READ into @buf (@n records); @r gets the reply. */
int meas_iotrace_read(int fd, uint32_t flags, struct meas_io_record *buf,
		      size_t n, struct meas_iotrace_read *r);
/* Every item of a subclass (from item 0), malloc'd; *n words. */
int meas_get_subclass(int fd, int class, int subclass, struct meas_header *h,
		      uint64_t **items, size_t *n, int *result);
/* Item names of subclasses 1 and 4, NULL where not applicable. */
const char *meas_c0_disc_item_name(unsigned int item);
const char *meas_c0_xfer_item_name(unsigned int item);
/* MEAS_IO_OP_* as a word, and as one letter (R, W, F, D, ...). */
const char *meas_io_op_name(unsigned int op);
char meas_io_op_letter(unsigned int op);
/* "sda", "stH:C:T:L" for a tape, or "major:minor"; 0 or -ENOENT. */
int meas_dev_name(uint64_t dev, char *buf, size_t len);

/* ---- task measurement: START/STOP-TASK-MEASUREMENT (task.c) ------------ */

#include <linux/meas_task.h>

/*
 * START: the caller fills flags, pid, pcounter_ms, load_info and path;
 * size, result (MEAS_RC_NONE), file_errno and session are set here.
 */
int meas_task_start(int fd, struct meas_task_start *s);
/* STOP of process @pid (0: the caller's own); @s receives the reply. */
int meas_task_stop(int fd, int32_t pid, struct meas_task_stop *s);
/* The standard file of user @uid measuring @pid (MEAS_TASK_STD_FMT). */
int meas_task_std_path(uint32_t uid, int32_t pid, char *buf, size_t len);
/* What a MEAS_TASK_* code says of the process ("is already measured"). */
const char *meas_task_result_str(int result);

#endif /* LIBMEAS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The ABI of <linux/meas.h>: the size of every uapi struct and the
 * offset of every member, as they were published.  The checks are made
 * at compile time, so a header change that moves a field does not
 * build; the tests below check the ioctl number table.
 *
 * When a struct grows (a new member at its end, its size and _SIZE_VER*
 * updated), add its new member and size here; never change a line.
 */
#include <stddef.h>
#include <linux/ioctl.h>

#include "kselftest_harness.h"
#include <linux/meas.h>

#define MEAS_SIZE(s, n) \
	_Static_assert(sizeof(struct s) == (n), "size of struct " #s)
#define MEAS_OFFSET(s, m, n) \
	_Static_assert(offsetof(struct s, m) == (n), "offset of " #s "." #m)

/* struct meas_start */
MEAS_SIZE(meas_start, 40);
MEAS_OFFSET(meas_start, size, 0);
MEAS_OFFSET(meas_start, flags, 4);
MEAS_OFFSET(meas_start, classmask, 8);
MEAS_OFFSET(meas_start, result, 12);
MEAS_OFFSET(meas_start, file_mask, 16);
MEAS_OFFSET(meas_start, global_mask, 20);
MEAS_OFFSET(meas_start, reserved, 24);
/* struct meas_get */
MEAS_SIZE(meas_get, 80);
MEAS_OFFSET(meas_get, size, 0);
MEAS_OFFSET(meas_get, flags, 4);
MEAS_OFFSET(meas_get, class, 8);
MEAS_OFFSET(meas_get, subclass, 12);
MEAS_OFFSET(meas_get, startingitem, 16);
MEAS_OFFSET(meas_get, wordcount, 24);
MEAS_OFFSET(meas_get, buf, 32);
MEAS_OFFSET(meas_get, buflen, 40);
MEAS_OFFSET(meas_get, result, 48);
MEAS_OFFSET(meas_get, pad, 52);
MEAS_OFFSET(meas_get, words, 56);
MEAS_OFFSET(meas_get, reserved, 64);
/* struct meas_info */
MEAS_SIZE(meas_info, 248);
MEAS_OFFSET(meas_info, size, 0);
MEAS_OFFSET(meas_info, version, 4);
MEAS_OFFSET(meas_info, global_mask, 8);
MEAS_OFFSET(meas_info, file_mask, 12);
MEAS_OFFSET(meas_info, defined_mask, 16);
MEAS_OFFSET(meas_info, probes, 20);
MEAS_OFFSET(meas_info, enablers, 24);
MEAS_OFFSET(meas_info, region_bytes, 88);
MEAS_OFFSET(meas_info, reserved, 216);
/* struct meas_item_def */
MEAS_SIZE(meas_item_def, 40);
MEAS_OFFSET(meas_item_def, name, 0);
MEAS_OFFSET(meas_item_def, kind, 32);
MEAS_OFFSET(meas_item_def, reserved, 36);
/* struct meas_subclass_def */
MEAS_SIZE(meas_subclass_def, 40);
MEAS_OFFSET(meas_subclass_def, name, 0);
MEAS_OFFSET(meas_subclass_def, entries, 32);
MEAS_OFFSET(meas_subclass_def, items, 36);
/* struct meas_define */
MEAS_SIZE(meas_define, 728);
MEAS_OFFSET(meas_define, size, 0);
MEAS_OFFSET(meas_define, flags, 4);
MEAS_OFFSET(meas_define, class, 8);
MEAS_OFFSET(meas_define, result, 12);
MEAS_OFFSET(meas_define, nsub, 16);
MEAS_OFFSET(meas_define, pad, 20);
MEAS_OFFSET(meas_define, name, 24);
MEAS_OFFSET(meas_define, sub, 56);
MEAS_OFFSET(meas_define, items, 696);
MEAS_OFFSET(meas_define, nitems, 704);
MEAS_OFFSET(meas_define, reserved, 712);
/* struct meas_update */
MEAS_SIZE(meas_update, 64);
MEAS_OFFSET(meas_update, size, 0);
MEAS_OFFSET(meas_update, flags, 4);
MEAS_OFFSET(meas_update, class, 8);
MEAS_OFFSET(meas_update, subclass, 12);
MEAS_OFFSET(meas_update, entry, 16);
MEAS_OFFSET(meas_update, startingitem, 24);
MEAS_OFFSET(meas_update, valuechange, 32);
MEAS_OFFSET(meas_update, result, 40);
MEAS_OFFSET(meas_update, pad, 44);
MEAS_OFFSET(meas_update, reserved, 48);
/* struct meas_getclock */
MEAS_SIZE(meas_getclock, 56);
MEAS_OFFSET(meas_getclock, size, 0);
MEAS_OFFSET(meas_getclock, flags, 4);
MEAS_OFFSET(meas_getclock, intrate, 8);
MEAS_OFFSET(meas_getclock, collector, 12);
MEAS_OFFSET(meas_getclock, records, 16);
MEAS_OFFSET(meas_getclock, wakeup, 20);
MEAS_OFFSET(meas_getclock, result, 24);
MEAS_OFFSET(meas_getclock, fd, 28);
MEAS_OFFSET(meas_getclock, base_ms, 32);
MEAS_OFFSET(meas_getclock, quotient, 36);
MEAS_OFFSET(meas_getclock, reserved, 40);
/* struct meas_giveclock */
MEAS_SIZE(meas_giveclock, 32);
MEAS_OFFSET(meas_giveclock, size, 0);
MEAS_OFFSET(meas_giveclock, flags, 4);
MEAS_OFFSET(meas_giveclock, collector, 8);
MEAS_OFFSET(meas_giveclock, result, 12);
MEAS_OFFSET(meas_giveclock, reserved, 16);
/* struct meas_clockinfo */
MEAS_SIZE(meas_clockinfo, 88);
MEAS_OFFSET(meas_clockinfo, size, 0);
MEAS_OFFSET(meas_clockinfo, state, 4);
MEAS_OFFSET(meas_clockinfo, mine, 8);
MEAS_OFFSET(meas_clockinfo, collector, 12);
MEAS_OFFSET(meas_clockinfo, intrate, 16);
MEAS_OFFSET(meas_clockinfo, owner_pid, 20);
MEAS_OFFSET(meas_clockinfo, cpus, 24);
MEAS_OFFSET(meas_clockinfo, records, 28);
MEAS_OFFSET(meas_clockinfo, ticks, 32);
MEAS_OFFSET(meas_clockinfo, missed, 40);
MEAS_OFFSET(meas_clockinfo, written, 48);
MEAS_OFFSET(meas_clockinfo, reserved, 56);
/* struct meas_clockbuf_head */
MEAS_SIZE(meas_clockbuf_head, 256);
MEAS_OFFSET(meas_clockbuf_head, magic, 0);
MEAS_OFFSET(meas_clockbuf_head, version, 8);
MEAS_OFFSET(meas_clockbuf_head, collector, 12);
MEAS_OFFSET(meas_clockbuf_head, record_size, 16);
MEAS_OFFSET(meas_clockbuf_head, nr_rings, 20);
MEAS_OFFSET(meas_clockbuf_head, ring_records, 24);
MEAS_OFFSET(meas_clockbuf_head, ring_offset, 32);
MEAS_OFFSET(meas_clockbuf_head, data_offset, 40);
MEAS_OFFSET(meas_clockbuf_head, ring_stride, 48);
MEAS_OFFSET(meas_clockbuf_head, map_size, 56);
MEAS_OFFSET(meas_clockbuf_head, state, 64);
MEAS_OFFSET(meas_clockbuf_head, intrate, 68);
MEAS_OFFSET(meas_clockbuf_head, wakeup, 72);
MEAS_OFFSET(meas_clockbuf_head, pad, 76);
MEAS_OFFSET(meas_clockbuf_head, reserved, 80);
/* struct meas_clockbuf_ring */
MEAS_SIZE(meas_clockbuf_ring, 128);
MEAS_OFFSET(meas_clockbuf_ring, head, 0);
MEAS_OFFSET(meas_clockbuf_ring, ticks, 8);
MEAS_OFFSET(meas_clockbuf_ring, missed, 16);
MEAS_OFFSET(meas_clockbuf_ring, reserved0, 24);
MEAS_OFFSET(meas_clockbuf_ring, tail, 64);
MEAS_OFFSET(meas_clockbuf_ring, lost, 72);
MEAS_OFFSET(meas_clockbuf_ring, reserved1, 80);
/* struct meas_clock_rec */
MEAS_SIZE(meas_clock_rec, 32);
MEAS_OFFSET(meas_clock_rec, seq, 0);
MEAS_OFFSET(meas_clock_rec, time, 8);
MEAS_OFFSET(meas_clock_rec, missed, 16);
MEAS_OFFSET(meas_clock_rec, cpu, 24);
MEAS_OFFSET(meas_clock_rec, flags, 28);
/* struct meas_clock_pc */
MEAS_SIZE(meas_clock_pc, 64);
MEAS_OFFSET(meas_clock_pc, hdr, 0);
MEAS_OFFSET(meas_clock_pc, ip, 32);
MEAS_OFFSET(meas_clock_pc, pid, 40);
MEAS_OFFSET(meas_clock_pc, tgid, 44);
MEAS_OFFSET(meas_clock_pc, comm, 48);
/* struct meas_clock_stack: the PC record, then the stacks */
MEAS_SIZE(meas_clock_stack, 584);
MEAS_OFFSET(meas_clock_stack, pc, 0);
MEAS_OFFSET(meas_clock_stack, nr_kernel, 64);
MEAS_OFFSET(meas_clock_stack, nr_user, 68);
MEAS_OFFSET(meas_clock_stack, frame, 72);
/* struct meas_clock_snap */
MEAS_SIZE(meas_clock_snap, 832);
MEAS_OFFSET(meas_clock_snap, hdr, 0);
MEAS_OFFSET(meas_clock_snap, item, 32);
/* struct meas_procstats */
MEAS_SIZE(meas_procstats, 88);
MEAS_OFFSET(meas_procstats, size, 0);
MEAS_OFFSET(meas_procstats, flags, 4);
MEAS_OFFSET(meas_procstats, allpins, 8);
MEAS_OFFSET(meas_procstats, pin, 12);
MEAS_OFFSET(meas_procstats, firstitem, 16);
MEAS_OFFSET(meas_procstats, wordcount, 24);
MEAS_OFFSET(meas_procstats, buf, 32);
MEAS_OFFSET(meas_procstats, buflen, 40);
MEAS_OFFSET(meas_procstats, result, 48);
MEAS_OFFSET(meas_procstats, pad, 52);
MEAS_OFFSET(meas_procstats, words, 56);
MEAS_OFFSET(meas_procstats, entries, 64);
MEAS_OFFSET(meas_procstats, reserved, 72);
/* struct meas_proc_rec: 528 bytes (64 items) until ABI 3, then 72 items */
MEAS_SIZE(meas_proc_rec, 592);
_Static_assert(MEAS_PROC_REC_SIZE_VER0 ==
	       offsetof(struct meas_proc_rec, item) + MEAS_PROC_ITEMS_VER0 * 8,
	       "the record of ABI 1 and 2");
MEAS_OFFSET(meas_proc_rec, size, 0);
MEAS_OFFSET(meas_proc_rec, slot, 4);
MEAS_OFFSET(meas_proc_rec, index, 8);
MEAS_OFFSET(meas_proc_rec, item, 16);
/* struct meas_cgroup_rec (ABI 3) */
MEAS_SIZE(meas_cgroup_rec, 664);
MEAS_OFFSET(meas_cgroup_rec, size, 0);
MEAS_OFFSET(meas_cgroup_rec, flags, 4);
MEAS_OFFSET(meas_cgroup_rec, id, 8);
MEAS_OFFSET(meas_cgroup_rec, parent, 16);
MEAS_OFFSET(meas_cgroup_rec, level, 24);
MEAS_OFFSET(meas_cgroup_rec, slot, 28);
MEAS_OFFSET(meas_cgroup_rec, threads, 32);
MEAS_OFFSET(meas_cgroup_rec, folded, 40);
MEAS_OFFSET(meas_cgroup_rec, exited, 48);
MEAS_OFFSET(meas_cgroup_rec, clock, 56);
MEAS_OFFSET(meas_cgroup_rec, reserved, 64);
MEAS_OFFSET(meas_cgroup_rec, item, 88);
/* struct meas_cgroup_hdr (ABI 3) */
MEAS_SIZE(meas_cgroup_hdr, 104);
MEAS_OFFSET(meas_cgroup_hdr, size, 0);
MEAS_OFFSET(meas_cgroup_hdr, flags, 4);
MEAS_OFFSET(meas_cgroup_hdr, slots, 8);
MEAS_OFFSET(meas_cgroup_hdr, used, 12);
MEAS_OFFSET(meas_cgroup_hdr, removed, 16);
MEAS_OFFSET(meas_cgroup_hdr, hidden, 20);
MEAS_OFFSET(meas_cgroup_hdr, overflow_threads, 24);
MEAS_OFFSET(meas_cgroup_hdr, overflow_folds, 32);
MEAS_OFFSET(meas_cgroup_hdr, reused, 40);
MEAS_OFFSET(meas_cgroup_hdr, started, 48);
MEAS_OFFSET(meas_cgroup_hdr, clock, 56);
MEAS_OFFSET(meas_cgroup_hdr, mem, 64);
MEAS_OFFSET(meas_cgroup_hdr, reserved, 72);
/* struct meas_entity_desc */
MEAS_SIZE(meas_entity_desc, 72);
MEAS_OFFSET(meas_entity_desc, type, 0);
MEAS_OFFSET(meas_entity_desc, len, 4);
MEAS_OFFSET(meas_entity_desc, pid, 8);
MEAS_OFFSET(meas_entity_desc, cpu, 12);
MEAS_OFFSET(meas_entity_desc, uid, 16);
MEAS_OFFSET(meas_entity_desc, name, 24);
MEAS_OFFSET(meas_entity_desc, reserved, 56);
/* struct meas_readactive */
MEAS_SIZE(meas_readactive, 80);
MEAS_OFFSET(meas_readactive, size, 0);
MEAS_OFFSET(meas_readactive, flags, 4);
MEAS_OFFSET(meas_readactive, descs, 8);
MEAS_OFFSET(meas_readactive, ndesc, 16);
MEAS_OFFSET(meas_readactive, result, 20);
MEAS_OFFSET(meas_readactive, buf, 24);
MEAS_OFFSET(meas_readactive, bufsize, 32);
MEAS_OFFSET(meas_readactive, bytesret, 40);
MEAS_OFFSET(meas_readactive, entity_index, 48);
MEAS_OFFSET(meas_readactive, records, 56);
MEAS_OFFSET(meas_readactive, pad, 60);
/* ABI 3: reserved[0] became recsize and pad2, 0 in older callers */
MEAS_OFFSET(meas_readactive, recsize, 64);
MEAS_OFFSET(meas_readactive, pad2, 68);
MEAS_OFFSET(meas_readactive, reserved, 72);
/* struct meas_io_record */
MEAS_SIZE(meas_io_record, 128);
MEAS_OFFSET(meas_io_record, dev, 0);
MEAS_OFFSET(meas_io_record, sector, 8);
MEAS_OFFSET(meas_io_record, bytes, 16);
MEAS_OFFSET(meas_io_record, op, 20);
MEAS_OFFSET(meas_io_record, pad, 22);
MEAS_OFFSET(meas_io_record, flags, 24);
MEAS_OFFSET(meas_io_record, status, 28);
MEAS_OFFSET(meas_io_record, pid, 32);
MEAS_OFFSET(meas_io_record, tgid, 36);
MEAS_OFFSET(meas_io_record, depth, 40);
MEAS_OFFSET(meas_io_record, cpu, 44);
MEAS_OFFSET(meas_io_record, alloc_ns, 48);
MEAS_OFFSET(meas_io_record, insert_ns, 56);
MEAS_OFFSET(meas_io_record, issue_ns, 64);
MEAS_OFFSET(meas_io_record, complete_ns, 72);
MEAS_OFFSET(meas_io_record, seq, 80);
MEAS_OFFSET(meas_io_record, comm, 88);
/* ABI 3: the reserved words became cgroup, proc_start_ns, proc_exec_id */
MEAS_OFFSET(meas_io_record, cgroup, 104);
MEAS_OFFSET(meas_io_record, proc_start_ns, 112);
MEAS_OFFSET(meas_io_record, proc_exec_id, 120);
/* struct meas_iotrace_read */
MEAS_SIZE(meas_iotrace_read, 88);
MEAS_OFFSET(meas_iotrace_read, size, 0);
MEAS_OFFSET(meas_iotrace_read, flags, 4);
MEAS_OFFSET(meas_iotrace_read, buf, 8);
MEAS_OFFSET(meas_iotrace_read, buflen, 16);
MEAS_OFFSET(meas_iotrace_read, records, 24);
MEAS_OFFSET(meas_iotrace_read, lost, 32);
MEAS_OFFSET(meas_iotrace_read, total, 40);
MEAS_OFFSET(meas_iotrace_read, pending, 48);
MEAS_OFFSET(meas_iotrace_read, session, 56);
MEAS_OFFSET(meas_iotrace_read, result, 64);
MEAS_OFFSET(meas_iotrace_read, out_flags, 68);
MEAS_OFFSET(meas_iotrace_read, reserved, 72);
/* struct meas_task_start */
MEAS_SIZE(meas_task_start, 80);
MEAS_OFFSET(meas_task_start, size, 0);
MEAS_OFFSET(meas_task_start, flags, 4);
MEAS_OFFSET(meas_task_start, pid, 8);
MEAS_OFFSET(meas_task_start, pcounter_ms, 12);
MEAS_OFFSET(meas_task_start, load_info, 16);
MEAS_OFFSET(meas_task_start, result, 20);
MEAS_OFFSET(meas_task_start, file_errno, 24);
MEAS_OFFSET(meas_task_start, pad, 28);
MEAS_OFFSET(meas_task_start, path, 32);
MEAS_OFFSET(meas_task_start, session, 40);
MEAS_OFFSET(meas_task_start, reserved, 48);
/* struct meas_task_stop */
MEAS_SIZE(meas_task_stop, 72);
MEAS_OFFSET(meas_task_stop, size, 0);
MEAS_OFFSET(meas_task_stop, flags, 4);
MEAS_OFFSET(meas_task_stop, pid, 8);
MEAS_OFFSET(meas_task_stop, result, 12);
MEAS_OFFSET(meas_task_stop, session, 16);
MEAS_OFFSET(meas_task_stop, samples, 24);
MEAS_OFFSET(meas_task_stop, kernel_samples, 32);
MEAS_OFFSET(meas_task_stop, svcs, 40);
MEAS_OFFSET(meas_task_stop, lost, 48);
MEAS_OFFSET(meas_task_stop, reserved, 56);
/* struct meas_trec */
MEAS_SIZE(meas_trec, 16);
MEAS_OFFSET(meas_trec, type, 0);
MEAS_OFFSET(meas_trec, size, 2);
MEAS_OFFSET(meas_trec, tid, 4);
MEAS_OFFSET(meas_trec, time_ns, 8);
/* struct meas_trec_session */
MEAS_SIZE(meas_trec_session, 160);
MEAS_OFFSET(meas_trec_session, h, 0);
MEAS_OFFSET(meas_trec_session, magic, 16);
MEAS_OFFSET(meas_trec_session, version, 24);
MEAS_OFFSET(meas_trec_session, flags, 28);
MEAS_OFFSET(meas_trec_session, session, 32);
MEAS_OFFSET(meas_trec_session, realtime_ns, 40);
MEAS_OFFSET(meas_trec_session, pcounter_ms, 48);
MEAS_OFFSET(meas_trec_session, load_info, 52);
MEAS_OFFSET(meas_trec_session, uid, 56);
MEAS_OFFSET(meas_trec_session, target_uid, 60);
MEAS_OFFSET(meas_trec_session, page_size, 64);
MEAS_OFFSET(meas_trec_session, audit_arch, 68);
MEAS_OFFSET(meas_trec_session, comm, 72);
MEAS_OFFSET(meas_trec_session, release, 88);
/* struct meas_trec_end */
MEAS_SIZE(meas_trec_end, 80);
MEAS_OFFSET(meas_trec_end, h, 0);
MEAS_OFFSET(meas_trec_end, reason, 16);
MEAS_OFFSET(meas_trec_end, flags, 20);
MEAS_OFFSET(meas_trec_end, samples, 24);
MEAS_OFFSET(meas_trec_end, kernel_samples, 32);
MEAS_OFFSET(meas_trec_end, svcs, 40);
MEAS_OFFSET(meas_trec_end, lost, 48);
MEAS_OFFSET(meas_trec_end, cpu_ns, 56);
MEAS_OFFSET(meas_trec_end, objects_dropped, 64);
MEAS_OFFSET(meas_trec_end, dropped, 72);
/* struct meas_trec_sample */
MEAS_SIZE(meas_trec_sample, 32);
MEAS_OFFSET(meas_trec_sample, h, 0);
MEAS_OFFSET(meas_trec_sample, ip, 16);
MEAS_OFFSET(meas_trec_sample, gen, 24);
MEAS_OFFSET(meas_trec_sample, pad, 28);
/* struct meas_trec_svc */
MEAS_SIZE(meas_trec_svc, 40);
MEAS_OFFSET(meas_trec_svc, h, 0);
MEAS_OFFSET(meas_trec_svc, ip, 16);
MEAS_OFFSET(meas_trec_svc, nr, 24);
MEAS_OFFSET(meas_trec_svc, flags, 28);
MEAS_OFFSET(meas_trec_svc, gen, 32);
MEAS_OFFSET(meas_trec_svc, pad, 36);
/* struct meas_trec_load */
MEAS_SIZE(meas_trec_load, 32);
MEAS_OFFSET(meas_trec_load, h, 0);
MEAS_OFFSET(meas_trec_load, kind, 16);
MEAS_OFFSET(meas_trec_load, gen, 20);
MEAS_OFFSET(meas_trec_load, objects, 24);
MEAS_OFFSET(meas_trec_load, pad, 28);
/* struct meas_trec_object */
MEAS_SIZE(meas_trec_object, 64);
MEAS_OFFSET(meas_trec_object, h, 0);
MEAS_OFFSET(meas_trec_object, start, 16);
MEAS_OFFSET(meas_trec_object, end, 24);
MEAS_OFFSET(meas_trec_object, pgoff, 32);
MEAS_OFFSET(meas_trec_object, ino, 40);
MEAS_OFFSET(meas_trec_object, dev, 48);
MEAS_OFFSET(meas_trec_object, prot, 52);
MEAS_OFFSET(meas_trec_object, gen, 56);
MEAS_OFFSET(meas_trec_object, name_len, 60);
MEAS_OFFSET(meas_trec_object, pad, 62);
MEAS_OFFSET(meas_trec_object, name, 64);
/* struct meas_trec_unmap */
MEAS_SIZE(meas_trec_unmap, 40);
MEAS_OFFSET(meas_trec_unmap, h, 0);
MEAS_OFFSET(meas_trec_unmap, start, 16);
MEAS_OFFSET(meas_trec_unmap, end, 24);
MEAS_OFFSET(meas_trec_unmap, gen, 32);
MEAS_OFFSET(meas_trec_unmap, pad, 36);
/* struct meas_trec_lost */
MEAS_SIZE(meas_trec_lost, 24);
MEAS_OFFSET(meas_trec_lost, h, 0);
MEAS_OFFSET(meas_trec_lost, count, 16);

/*
 * Header words whose places differ from MPE IV's on purpose
 * (Documentation/mpe-differences.rst): moving one is an ABI change.
 */
_Static_assert(MEAS_P0_ENTRY_SIZE == 0 && MEAS_P0_ENTRIES == 1 &&
	       MEAS_P0_ENT0_SIZE == 2 && MEAS_P0_STARTED == 3 &&
	       MEAS_P0_KERNEL_VERSION == 4 && MEAS_P0_MEM_USED == 5 &&
	       MEAS_P0_MEM_AVAILABLE == 6, "class 15 entry 0");
_Static_assert(MEAS_IO_H_NEXT == 0 && MEAS_IO_H_CAPACITY == 1 &&
	       MEAS_IO_H_TOTAL == 2, "class 14 entry 0");
/* and meas's own words of those entries 0, where they were published */
_Static_assert(MEAS_P0_MEM_TABLE == 7 && MEAS_P0_LIVE == 8 &&
	       MEAS_P0_EXITED == 9 && MEAS_P0_OVERFLOW == 10 &&
	       MEAS_P0_THREAD_OVERFLOW == 11 && MEAS_P0_REUSED == 12 &&
	       MEAS_P0_EXIT_SEQ == 13 && MEAS_P0_EXIT_LOST == 14 &&
	       MEAS_P0_THREAD_SLOTS == 15 && MEAS_P0_THREADS_LIVE == 16 &&
	       MEAS_P0_HIGH_WATER == 17 && MEAS_P0_CLOCK_START == 18 &&
	       MEAS_P0_CLOCK_END == 19 && MEAS_P0_RELEASE == 24,
	       "class 15 entry 0, Linux words");
_Static_assert(MEAS_IO_H_LOST == 4 && MEAS_IO_H_PARTS == 5 &&
	       MEAS_IO_H_PART_RECORDS == 6 && MEAS_IO_H_RECORD_WORDS == 7 &&
	       MEAS_IO_H_UNTRACKED == 12 && MEAS_IO_H_SESSION == 13 &&
	       MEAS_IO_H_START_REAL == 16 && MEAS_IO_H_TRACK_SLOTS == 17 &&
	       MEAS_IO_H_TRACK_FULL == 18 && MEAS_IO_H_STALE == 19 &&
	       MEAS_IO_H_PART0 == 21, "class 14 entry 0, Linux words");

/*
 * The numbers meas keeps from MPE IV (Documentation/mpe-differences.rst,
 * "What is the same"): classes, header words, entry sizes, the item
 * numbers of the MPE items meas maps, and the numeric value of every
 * result code.  Changing one breaks programs written to MPE IV's tables.
 */
#define MPE_SAME(a, b) _Static_assert((a) == (b), #a " is MPE IV's " #b)
/* classes, masks, the subclass header */
MPE_SAME(MEAS_NR_CLASSES, 16);
MPE_SAME(MEAS_CLASSMASK_ALL, 0xffff);
MPE_SAME(MEAS_CLASS_GLOBAL, 0);
MPE_SAME(MEAS_CLASS_IO, 14);
MPE_SAME(MEAS_CLASS_PROC, 15);
MPE_SAME(MEAS_ITEM_HEADER, -3);
MPE_SAME(MEAS_HEADER_WORDS, 3);
/* class 0: subclasses 0 to 3 and their entry lengths */
MPE_SAME(MEAS_C0_SUB_FIXED, 0);
MPE_SAME(MEAS_C0_SUB_DISC, 1);
MPE_SAME(MEAS_C0_SUB_LP, 2);
MPE_SAME(MEAS_C0_SUB_TAPE, 3);
MPE_SAME(MEAS_C0_FIXED_ITEMS, 100);
MPE_SAME(MEAS_C0_DISC_ITEMS, 21);
MPE_SAME(MEAS_C0_LP_ITEMS, 4);
MPE_SAME(MEAS_C0_TAPE_ITEMS, 4);
/* class 0 subclass 0: the MPE items meas maps */
MPE_SAME(MEAS_C0_LAUNCHES, 0);
MPE_SAME(MEAS_C0_STOP_DISC_BLOCKED, 1);
MPE_SAME(MEAS_C0_STOP_DISC_UNBLOCKED, 2);
MPE_SAME(MEAS_C0_STOP_BUSY_SIR, 12);
MPE_SAME(MEAS_C0_STOP_IMPEDE, 13);
MPE_SAME(MEAS_C0_STOP_TIMED_OUT, 22);
MPE_SAME(MEAS_C0_PREEMPTIONS, 23);
MPE_SAME(MEAS_C0_STOP_MISC_BLOCKED, 24);
MPE_SAME(MEAS_C0_PAUSE_IDLE, 30);
MPE_SAME(MEAS_C0_PAUSE_DISC, 31);
MPE_SAME(MEAS_C0_TIME_IDLE, 80);
MPE_SAME(MEAS_C0_TIME_DISC, 84);
MPE_SAME(MEAS_C0_TIME_CPU, 88);
/* class 0 subclass 1: the 21 disc items */
MPE_SAME(MEAS_C0_DISC_DEV, 0);
MPE_SAME(MEAS_C0_DISC_READ_CODE, 1);
MPE_SAME(MEAS_C0_DISC_READ_SWAP, 2);
MPE_SAME(MEAS_C0_DISC_WRITE_FORCED, 3);
MPE_SAME(MEAS_C0_DISC_WRITE_BACKGROUND, 4);
MPE_SAME(MEAS_C0_DISC_READ_SYNC, 5);
MPE_SAME(MEAS_C0_DISC_WRITE_SYNC, 6);
MPE_SAME(MEAS_C0_DISC_READ_ASYNC, 7);
MPE_SAME(MEAS_C0_DISC_WRITE_ASYNC, 8);
MPE_SAME(MEAS_C0_DISC_READ_NOWAIT, 9);
MPE_SAME(MEAS_C0_DISC_WRITE_NOWAIT, 10);
MPE_SAME(MEAS_C0_DISC_BUFFER_TRAPS, 11);
MPE_SAME(MEAS_C0_DISC_BUSY, 12);
MPE_SAME(MEAS_C0_DISC_CONTROL, 13);
MPE_SAME(MEAS_C0_DISC_QLEN0, 14);
MPE_SAME(MEAS_C0_DISC_QLEN0 + MEAS_C0_DISC_QLEN_BUCKETS, 21);
/* class 0 subclasses 2 and 3: line printers and tapes */
MPE_SAME(MEAS_C0_UNIT_DEV, 0);
MPE_SAME(MEAS_C0_UNIT_READS, 1);
MPE_SAME(MEAS_C0_UNIT_WRITES, 2);
MPE_SAME(MEAS_C0_UNIT_CONTROL, 3);
/* class 14 entry 0: the words MPE IV defined that meas keeps */
MPE_SAME(MEAS_IO_H_IDENT, 8);
MPE_SAME(MEAS_IO_H_START, 14);
MPE_SAME(MEAS_IO_IDENT, 0x54415453204f2f49ULL);	/* "I/O STAT" */
/* class 15: MPE's 52 items, the ones meas maps */
MPE_SAME(MEAS_PROC_MPE_ITEMS, 52);
MPE_SAME(MEAS_P_PROGRAM, 0);
MPE_SAME(MEAS_P_SESSION, 12);
MPE_SAME(MEAS_P_LAST_STOP, 13);
MPE_SAME(MEAS_P_STOP_DISC_BLOCKED, 18);
MPE_SAME(MEAS_P_STOP_DISC_UNBLOCKED, 19);
MPE_SAME(MEAS_P_STOP_BLOCKED_IO, 20);
MPE_SAME(MEAS_P_STOP_TERMINAL, 21);
MPE_SAME(MEAS_P_STOP_IMPEDED, 22);
MPE_SAME(MEAS_P_STOP_TIMED_OUT, 23);
MPE_SAME(MEAS_P_STOP_PREEMPTED, 24);
MPE_SAME(MEAS_P_LAUNCHES, 26);
MPE_SAME(MEAS_P_DISC_READS, 30);
MPE_SAME(MEAS_P_DISC_WRITES, 31);
MPE_SAME(MEAS_P_CREATED, 32);
MPE_SAME(MEAS_P_TERMINATED, 34);
MPE_SAME(MEAS_P_CPU_TIME, 36);
MPE_SAME(MEAS_P_PAUSE_DISC, 40);
MPE_SAME(MEAS_P_PAUSE_IO, 42);
MPE_SAME(MEAS_P_PAUSE_TERMINAL, 44);
MPE_SAME(MEAS_P_PAUSE_IMPEDED, 46);
MPE_SAME(MEAS_P_PAUSE_ACTIVE, 48);
MPE_SAME(MEAS_P_DISC_BYTES, 50);
/* STARTSTATISTICS 0..4 (5 is meas's) */
MPE_SAME(MEAS_START_OK, 0);
MPE_SAME(MEAS_START_NOVMEM, 1);
MPE_SAME(MEAS_START_NODST, 2);
MPE_SAME(MEAS_START_NOLOCK, 3);
MPE_SAME(MEAS_START_TOOBIG, 4);
/* GETSTATISTICS 0..6 */
MPE_SAME(MEAS_GET_OK, 0);
MPE_SAME(MEAS_GET_NOTENABLED, 1);
MPE_SAME(MEAS_GET_BOUNDS, 2);
MPE_SAME(MEAS_GET_BADCOUNT, 3);
MPE_SAME(MEAS_GET_BADITEM, 4);
MPE_SAME(MEAS_GET_BADSUBCLASS, 5);
MPE_SAME(MEAS_GET_BADCLASS, 6);
/* UPDATESTATISTICS 0..5 */
MPE_SAME(MEAS_UPDATE_OK, 0);
MPE_SAME(MEAS_UPDATE_NOTENABLED, 1);
MPE_SAME(MEAS_UPDATE_BADITEM, 2);
MPE_SAME(MEAS_UPDATE_BADENTRY, 3);
MPE_SAME(MEAS_UPDATE_BADSUBCLASS, 4);
MPE_SAME(MEAS_UPDATE_BADCLASS, 5);
/* GETPROCSTATS 0..5 */
MPE_SAME(MEAS_PROC_OK, 0);
MPE_SAME(MEAS_PROC_NOTENABLED, 1);
MPE_SAME(MEAS_PROC_BOUNDS, 2);
MPE_SAME(MEAS_PROC_BADCOUNT, 3);
MPE_SAME(MEAS_PROC_BADITEM, 4);
MPE_SAME(MEAS_PROC_BADPIN, 5);
/* GETCLOCK 0..10, GIVECLOCK's condition codes, the interval range */
MPE_SAME(MEAS_GETCLOCK_OK, 0);
MPE_SAME(MEAS_GETCLOCK_MISSING, 1);
MPE_SAME(MEAS_GETCLOCK_INUSE, 2);
MPE_SAME(MEAS_GETCLOCK_BADRATE, 3);
MPE_SAME(MEAS_GETCLOCK_BADCOLLECTOR, 4);
MPE_SAME(MEAS_GETCLOCK_NOCODE, 5);
MPE_SAME(MEAS_GETCLOCK_NOBUF, 6);
MPE_SAME(MEAS_GETCLOCK_NONRESIDENT, 7);
MPE_SAME(MEAS_GETCLOCK_NOENTRY, 8);
MPE_SAME(MEAS_GETCLOCK_NOTOWNER, 9);
MPE_SAME(MEAS_GETCLOCK_NORESET, 10);
MPE_SAME(MEAS_CLOCK_MIN_MS, 5);
MPE_SAME(MEAS_CLOCK_MAX_MS, 1000);

static const unsigned int ioctls[] = {
	MEAS_IOC_START, MEAS_IOC_STOP, MEAS_IOC_GET, MEAS_IOC_INFO,
	MEAS_IOC_IOTRACE_READ,
	MEAS_IOC_GETCLOCK, MEAS_IOC_GIVECLOCK, MEAS_IOC_CLOCKINFO,
	MEAS_IOC_DEFINE, MEAS_IOC_UNDEFINE, MEAS_IOC_DESCRIBE, MEAS_IOC_UPDATE,
	MEAS_IOC_GETPROCSTATS, MEAS_IOC_READACTIVE,
	MEAS_IOC_TASK_START, MEAS_IOC_TASK_STOP,
};

/* Every ioctl of the table is of type MEAS_IOC_TYPE, without size or
 * direction bits (the size is in the struct), and no two share a number.
 */
TEST(ioctl_numbers_distinct)
{
	size_t i, j, n = sizeof(ioctls) / sizeof(ioctls[0]);

	for (i = 0; i < n; i++) {
		EXPECT_EQ(MEAS_IOC_TYPE, _IOC_TYPE(ioctls[i]));
		EXPECT_EQ(0, _IOC_SIZE(ioctls[i]));
		EXPECT_EQ(_IOC_NONE, _IOC_DIR(ioctls[i]));
		for (j = i + 1; j < n; j++)
			EXPECT_NE(_IOC_NR(ioctls[i]), _IOC_NR(ioctls[j]));
	}
}

/* The published numbers, which no change may move. */
TEST(ioctl_numbers_published)
{
	EXPECT_EQ(0xE8, MEAS_IOC_TYPE);
	EXPECT_EQ(0x00, _IOC_NR(MEAS_IOC_START));
	EXPECT_EQ(0x01, _IOC_NR(MEAS_IOC_STOP));
	EXPECT_EQ(0x02, _IOC_NR(MEAS_IOC_GET));
	EXPECT_EQ(0x03, _IOC_NR(MEAS_IOC_INFO));
	EXPECT_EQ(0x10, _IOC_NR(MEAS_IOC_IOTRACE_READ));
	EXPECT_EQ(0x20, _IOC_NR(MEAS_IOC_GETCLOCK));
	EXPECT_EQ(0x21, _IOC_NR(MEAS_IOC_GIVECLOCK));
	EXPECT_EQ(0x22, _IOC_NR(MEAS_IOC_CLOCKINFO));
	EXPECT_EQ(0x30, _IOC_NR(MEAS_IOC_DEFINE));
	EXPECT_EQ(0x31, _IOC_NR(MEAS_IOC_UNDEFINE));
	EXPECT_EQ(0x32, _IOC_NR(MEAS_IOC_DESCRIBE));
	EXPECT_EQ(0x33, _IOC_NR(MEAS_IOC_UPDATE));
	EXPECT_EQ(0x40, _IOC_NR(MEAS_IOC_GETPROCSTATS));
	EXPECT_EQ(0x41, _IOC_NR(MEAS_IOC_READACTIVE));
	EXPECT_EQ(0x50, _IOC_NR(MEAS_IOC_TASK_START));
	EXPECT_EQ(0x51, _IOC_NR(MEAS_IOC_TASK_STOP));
}

TEST_HARNESS_MAIN

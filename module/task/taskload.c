// SPDX-License-Identifier: GPL-2.0
/*
 * Load information of a task measurement: the executable mappings of the
 * measured address space, at the start, around each execve() and at the
 * end, and with LOAD-INFO=*DETAILED the changes in between as MAP and
 * UNMAP records.  The measurement holds a reference on the address space
 * (mmget) so that the end's load information can be read after the last
 * thread has exited.
 */
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/timekeeping.h>
#include <linux/sched/clock.h>
#include "taskdef.h"
#include "taskring.h"
#include "taskfile.h"
#include "tasktab.h"
#include "taskload.h"
#include "core/compat.h"

/* More executable mappings than this are counted, not recorded. */
#define TASK_MAX_OBJECTS	4096

static u16 obj_prot(unsigned long vm_flags)
{
	return (vm_flags & VM_READ ? MEAS_TREC_PROT_READ : 0) |
	       (vm_flags & VM_WRITE ? MEAS_TREC_PROT_WRITE : 0) |
	       (vm_flags & VM_EXEC ? MEAS_TREC_PROT_EXEC : 0);
}

static void obj_fill(struct meas_task_obj *o, struct vm_area_struct *vma)
{
	o->start = vma->vm_start;
	o->end = vma->vm_end;
	o->prot = obj_prot(vma->vm_flags);
	o->file = vma->vm_file ? get_file(vma->vm_file) : NULL;
	o->pgoff = o->file ? vma->vm_pgoff << PAGE_SHIFT : 0;
	o->name = NULL;
	if (!o->file)
		o->name = vma->vm_start == meas_mm_vdso(vma->vm_mm) ?
			  "[vdso]" : "[anon]";
}

static void objs_free(struct meas_task_obj *objs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (objs[i].file)
			fput(objs[i].file);
	kvfree(objs);
}

/* The executable mappings of @mm by address, each file referenced. */
static struct meas_task_obj *objs_collect(struct meas_task *m,
					  struct mm_struct *mm,
					  unsigned int *n)
{
	struct vm_area_struct *vma;
	struct meas_task_obj *objs;
	struct vma_iterator vmi;
	unsigned int cap = 64;

	vma_iter_init(&vmi, mm, 0);
	mmap_read_lock(mm);
	for_each_vma(vmi, vma)
		if (vma->vm_flags & VM_EXEC)
			cap++;
	cap = min(cap, TASK_MAX_OBJECTS);
	objs = kvcalloc(cap, sizeof(*objs), GFP_KERNEL | __GFP_NOWARN);
	*n = 0;
	vma_iter_init(&vmi, mm, 0);
	for_each_vma(vmi, vma) {
		if (!(vma->vm_flags & VM_EXEC))
			continue;
		if (!objs || *n == cap)
			atomic64_inc(&m->objects_dropped);
		else
			obj_fill(&objs[(*n)++], vma);
	}
	mmap_read_unlock(mm);
	return objs;
}

static void obj_ev(struct meas_task_ev *e, u16 type,
		   const struct meas_task_obj *o, u32 gen)
{
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->time = local_clock();
	e->a = o->start;
	e->b = o->end;
	e->c = o->pgoff;
	e->prot = o->prot;
	e->gen = gen;
	e->name = o->name;
	e->file = o->file;
}

/* Hand an event to the writer: directly (under wlock) or through the ring. */
static void load_push(struct meas_task *m, struct meas_task_ev *e, bool direct)
{
	if (direct) {
		meas_taskfile_emit(m, e);
		return;
	}
	if (e->file)
		get_file(e->file);
	meas_tasktab_put_wait(m, e);
}

static void load_mark(struct meas_task *m, u16 type, u32 kind, u32 gen,
		      u32 objects, bool direct)
{
	struct meas_task_ev e = {
		.type = type, .time = local_clock(), .a = kind, .b = objects,
		.gen = gen,
	};

	load_push(m, &e, direct);
}

/*
 * Keep @objs as the known mappings of detailed load information, or
 * drop them.  Under m->vmlock.
 */
static void load_keep(struct meas_task *m, struct meas_task_obj *objs,
		      unsigned int n)
{
	if (m->load_info != MEAS_TASK_LOAD_DETAILED) {
		objs_free(objs, n);
		return;
	}
	objs_free(m->known, m->nknown);
	m->known = objs;
	m->nknown = n;
}

/**
 * meas_taskload_snapshot() - record the executable mappings of @mm
 * @m: the measurement, m->vmlock held
 * @mm: the address space
 * @kind: MEAS_TASK_LOAD_*
 * @gen: its generation
 * @direct: write them now (m->wlock held) instead of through the ring
 */
void meas_taskload_snapshot(struct meas_task *m, struct mm_struct *mm,
			    u32 kind, u32 gen, bool direct)
{
	struct meas_task_obj *objs;
	struct meas_task_ev e;
	unsigned int i, n;

	lockdep_assert_held(&m->vmlock);
	objs = objs_collect(m, mm, &n);
	load_mark(m, MEAS_TREC_LOAD_BEGIN, kind, gen, 0, direct);
	for (i = 0; i < n; i++) {
		obj_ev(&e, MEAS_TREC_OBJECT, &objs[i], gen);
		load_push(m, &e, direct);
	}
	load_mark(m, MEAS_TREC_LOAD_END, kind, gen, n, direct);
	load_keep(m, objs, n);
}

static bool obj_same(const struct meas_task_obj *a,
		     const struct meas_task_obj *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->pgoff == b->pgoff && a->file == b->file &&
	       a->prot == b->prot;
}

static void load_unmap(struct meas_task *m, const struct meas_task_obj *o)
{
	struct meas_task_ev e = {
		.type = MEAS_TREC_UNMAP, .tid = task_pid_nr(current),
		.time = local_clock(), .a = o->start, .b = o->end,
		.gen = READ_ONCE(m->gen),
	};

	meas_tasktab_put_wait(m, &e);
}

static void load_map(struct meas_task *m, const struct meas_task_obj *o)
{
	struct meas_task_ev e;

	obj_ev(&e, MEAS_TREC_MAP, o, READ_ONCE(m->gen));
	e.tid = task_pid_nr(current);
	load_push(m, &e, false);
}

/**
 * meas_taskload_changed() - MAP and UNMAP records for what changed
 * @m: the measurement (detailed), m->vmlock held
 * @mm: its current address space
 *
 * Both lists are sorted by address, so one merge pass finds what went
 * (UNMAP first, as the kernel removes before it maps over) and what came.
 */
void meas_taskload_changed(struct meas_task *m, struct mm_struct *mm)
{
	struct meas_task_obj *objs;
	unsigned int i = 0, j = 0, n;

	lockdep_assert_held(&m->vmlock);
	objs = objs_collect(m, mm, &n);
	while (i < m->nknown || j < n) {
		if (i < m->nknown && j < n && obj_same(&m->known[i], &objs[j])) {
			i++;
			j++;
		} else if (j == n || (i < m->nknown &&
				      m->known[i].start <= objs[j].start)) {
			load_unmap(m, &m->known[i++]);
		} else {
			load_map(m, &objs[j++]);
		}
	}
	load_keep(m, objs, n);
}

/* Drop the known mappings and the address space; the measurement ended. */
void meas_taskload_free(struct meas_task *m)
{
	objs_free(m->known, m->nknown);
	m->known = NULL;
	m->nknown = 0;
	if (m->mm)
		mmput(m->mm);
	m->mm = NULL;
}

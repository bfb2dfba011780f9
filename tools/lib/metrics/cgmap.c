// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v2 IDs to paths, without walking /proc.  A cgroup's ID is the
 * inode number of its directory in the cgroup2 file system, so one walk
 * of /sys/fs/cgroup (directories only) maps every ID.  The map is
 * walked again only when an ID is unknown and newer than every ID of the
 * last walk (the kernel hands out IDs in increasing order): a cgroup
 * made since.  An older unknown ID is a cgroup removed before a walk
 * could see it, and stays unknown; so does a newer one that the walk
 * it caused does not find (removed already), so that it causes no
 * other.  Each cgroup thus costs at most one walk, and one walk maps
 * every cgroup made before it: no limit in time is needed, and none
 * would be right (a cgroup made within it would go unseen).
 */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#define CGMAP_ROOT	"/sys/fs/cgroup"

struct cg_ent {
	uint64_t id;
	char *path;
};

static struct {
	struct cg_ent *ent;
	size_t cap;		/* a power of two */
	size_t n;
	uint64_t max_id;
	unsigned long walks;
} cgm;

static size_t cg_hash(uint64_t id)
{
	return (size_t)(id * 0x9e3779b97f4a7c15ULL >> 20);
}

static struct cg_ent *cg_slot(struct cg_ent *t, size_t cap, uint64_t id)
{
	size_t i = cg_hash(id) & (cap - 1);

	while (t[i].path && t[i].id != id)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int cg_grow(void)
{
	size_t cap = cgm.cap ? cgm.cap * 2 : 1024, i;
	struct cg_ent *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < cgm.cap; i++)
		if (cgm.ent[i].path)
			*cg_slot(t, cap, cgm.ent[i].id) = cgm.ent[i];
	free(cgm.ent);
	cgm.ent = t;
	cgm.cap = cap;
	return 0;
}

static int cg_put(uint64_t id, const char *path)
{
	struct cg_ent *e;

	if ((cgm.n + 1) * 2 > cgm.cap && cg_grow())
		return -ENOMEM;
	e = cg_slot(cgm.ent, cgm.cap, id);
	if (e->path)
		return 0;
	e->path = strdup(path);
	if (!e->path)
		return -ENOMEM;
	e->id = id;
	cgm.n++;
	return 0;
}

static int cg_visit(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	const char *rel = path + strlen(CGMAP_ROOT);

	(void)ftw;
	if (type != FTW_D)
		return 0;
	if (st->st_ino > cgm.max_id)
		cgm.max_id = st->st_ino;
	return cg_put(st->st_ino, *rel ? rel : "/") ? -1 : 0;
}

static void cg_walk(void)
{
	cgm.walks++;
	/* Directories only; FTW_MOUNT: not into other file systems. */
	nftw(CGMAP_ROOT, cg_visit, 32, FTW_PHYS | FTW_MOUNT);
}

/**
 * mx_cgmap_path() - the path of a cgroup v2 ID
 * @id: the ID, from MEAS_A_CGROUP
 *
 * Return: the path below /sys/fs/cgroup ("/" for the root, else
 * starting with "/"), or NULL if the cgroup is unknown (removed before
 * it was seen, no cgroup2 mount, or 0).
 */
const char *mx_cgmap_path(uint64_t id)
{
	struct cg_ent *e;

	if (!id)
		return NULL;
	if (cgm.cap) {
		e = cg_slot(cgm.ent, cgm.cap, id);
		if (e->path)
			return e->path;
	}
	if (cgm.walks && id <= cgm.max_id)
		return NULL;
	cg_walk();
	e = cgm.cap ? cg_slot(cgm.ent, cgm.cap, id) : NULL;
	if (e && e->path)
		return e->path;
	/* made and removed before this walk: never walk for it again */
	if (id > cgm.max_id)
		cgm.max_id = id;
	return NULL;
}

/* How many times /sys/fs/cgroup was walked. */
unsigned long mx_cgmap_walks(void)
{
	return cgm.walks;
}

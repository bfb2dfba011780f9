// SPDX-License-Identifier: GPL-2.0
/*
 * stallfs: a FUSE file system that can stop answering writes, for the
 * security tests of a task file's end (sec2_test.c, adversary.c).
 *
 *   stallfs MOUNTPOINT
 *
 * One flat directory of regular files held in memory, mounted with
 * allow_other so that the tests' users can create files in it.  Writing
 * to the file ".stall" makes it take every later WRITE of another file
 * and not answer it; writing to ".resume" answers those it holds and
 * answers again.  It prints "held N" on standard output each time it
 * holds a write, so a test knows that a writer is stuck in the kernel
 * (a WRITE the daemon has read waits without end, even for a fatal
 * signal).  SIGTERM ends it: the kernel then fails what it held
 * (ENOTCONN) and the mount goes.  libfuse3's low-level API does the
 * protocol: it is Debian's, and a hand-written one would be more code
 * than the file system.
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fuse_lowlevel.h>

#define FILES		32
#define FILE_MAX	(64 << 20)	/* bytes a file may hold */
#define HELD_MAX	64
#define UNUSED		__attribute__((unused))

struct sfile {
	char name[64];
	char *data;
	size_t size;
	uid_t uid;
	gid_t gid;
	mode_t mode;
};

struct held {
	fuse_req_t req;
	fuse_ino_t ino;
	char *buf;
	size_t size;
	off_t off;
};

static struct sfile files[FILES];
static struct held held[HELD_MAX];
static int nheld, stalled;

/* Inode 1 is the directory, inode i + 2 is files[i]. */
static struct sfile *file_of(fuse_ino_t ino)
{
	if (ino < 2 || ino >= FILES + 2 || !files[ino - 2].name[0])
		return NULL;
	return &files[ino - 2];
}

static void attr_of(fuse_ino_t ino, struct stat *st)
{
	struct sfile *f = file_of(ino);

	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 01777;
		st->st_nlink = 2;
		return;
	}
	st->st_mode = S_IFREG | (f->mode & 07777);
	st->st_nlink = 1;
	st->st_size = f->size;
	st->st_uid = f->uid;
	st->st_gid = f->gid;
}

static void reply_entry(fuse_req_t req, fuse_ino_t ino)
{
	struct fuse_entry_param e = { .ino = ino };

	attr_of(ino, &e.attr);
	fuse_reply_entry(req, &e);
}

static void sfs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	int i;

	for (i = 0; parent == FUSE_ROOT_ID && i < FILES; i++)
		if (!strcmp(files[i].name, name)) {
			reply_entry(req, i + 2);
			return;
		}
	fuse_reply_err(req, ENOENT);
}

static void sfs_getattr(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi UNUSED)
{
	struct stat st;

	if (ino != FUSE_ROOT_ID && !file_of(ino)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	attr_of(ino, &st);
	fuse_reply_attr(req, &st, 0);
}

static void sfs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			int to_set, struct fuse_file_info *fi)
{
	struct sfile *f = file_of(ino);

	if (!f) {
		fuse_reply_err(req, ino == FUSE_ROOT_ID ? EPERM : ENOENT);
		return;
	}
	if ((to_set & FUSE_SET_ATTR_SIZE) && (size_t)attr->st_size < f->size)
		f->size = attr->st_size;
	if (to_set & FUSE_SET_ATTR_MODE)
		f->mode = attr->st_mode;
	sfs_getattr(req, ino, fi);
}

static void sfs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		       mode_t mode, struct fuse_file_info *fi)
{
	const struct fuse_ctx *c = fuse_req_ctx(req);
	struct fuse_entry_param e = { 0 };
	int i;

	for (i = 0; i < FILES && files[i].name[0]; i++)
		;
	if (parent != FUSE_ROOT_ID || i == FILES ||
	    strlen(name) >= sizeof(files[i].name)) {
		fuse_reply_err(req, ENOSPC);
		return;
	}
	snprintf(files[i].name, sizeof(files[i].name), "%s", name);
	files[i].size = 0;
	files[i].uid = c->uid;
	files[i].gid = c->gid;
	files[i].mode = mode;
	e.ino = i + 2;
	attr_of(e.ino, &e.attr);
	fuse_reply_create(req, &e, fi);
}

static void sfs_unlink(fuse_req_t req, fuse_ino_t parent UNUSED,
		       const char *name)
{
	int i;

	for (i = 0; i < FILES; i++)
		if (!strcmp(files[i].name, name)) {
			free(files[i].data);
			memset(&files[i], 0, sizeof(files[i]));
			fuse_reply_err(req, 0);
			return;
		}
	fuse_reply_err(req, ENOENT);
}

static void sfs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (!file_of(ino))
		fuse_reply_err(req, ENOENT);
	else
		fuse_reply_open(req, fi);
}

static void sfs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi UNUSED)
{
	struct sfile *f = file_of(ino);

	if (!f) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if ((size_t)off >= f->size)
		size = 0;
	else if (off + size > f->size)
		size = f->size - off;
	fuse_reply_buf(req, f->data ? f->data + off : NULL, size);
}

/* Store a write: its size, or -errno. */
static long store(fuse_ino_t ino, const char *buf, size_t size, off_t off)
{
	struct sfile *f = file_of(ino);
	char *p;

	if (!f)
		return -ENOENT;
	if (off + size > FILE_MAX)
		return -EFBIG;
	if (off + size > f->size) {
		p = realloc(f->data, off + size);
		if (!p)
			return -ENOMEM;
		if ((size_t)off > f->size)
			memset(p + f->size, 0, off - f->size);
		f->data = p;
		f->size = off + size;
	}
	memcpy(f->data + off, buf, size);
	return size;
}

static void answer(fuse_req_t req, fuse_ino_t ino, const char *buf,
		   size_t size, off_t off)
{
	long n = store(ino, buf, size, off);

	if (n < 0)
		fuse_reply_err(req, -n);
	else
		fuse_reply_write(req, n);
}

/* ".resume": answer every write held, in order, and answer from now on. */
static void resume(void)
{
	int i;

	for (i = 0; i < nheld; i++) {
		answer(held[i].req, held[i].ino, held[i].buf, held[i].size,
		       held[i].off);
		free(held[i].buf);
	}
	nheld = 0;
	stalled = 0;
}

static void sfs_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		      size_t size, off_t off, struct fuse_file_info *fi UNUSED)
{
	struct sfile *f = file_of(ino);
	struct held *h;

	if (f && !strcmp(f->name, ".stall")) {
		stalled = 1;
	} else if (f && !strcmp(f->name, ".resume")) {
		resume();
	} else if (stalled && nheld < HELD_MAX) {
		h = &held[nheld];
		h->buf = malloc(size);
		if (h->buf) {
			memcpy(h->buf, buf, size);
			h->req = req;
			h->ino = ino;
			h->size = size;
			h->off = off;
			printf("held %d\n", ++nheld);
			fflush(stdout);
			return;		/* no answer */
		}
	}
	answer(req, ino, buf, size, off);
}

static void sfs_ok(fuse_req_t req, fuse_ino_t ino UNUSED,
		   struct fuse_file_info *fi UNUSED)
{
	fuse_reply_err(req, 0);
}

static void sfs_fsync(fuse_req_t req, fuse_ino_t ino UNUSED,
		      int datasync UNUSED, struct fuse_file_info *fi UNUSED)
{
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops sfs_ops = {
	.lookup		= sfs_lookup,
	.getattr	= sfs_getattr,
	.setattr	= sfs_setattr,
	.create		= sfs_create,
	.unlink		= sfs_unlink,
	.open		= sfs_open,
	.read		= sfs_read,
	.write		= sfs_write,
	.flush		= sfs_ok,
	.release	= sfs_ok,
	.fsync		= sfs_fsync,
};

int main(int argc, char **argv)
{
	char *fargs[] = { argv[0], "-o", "allow_other", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, fargs);
	struct fuse_session *se;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: stallfs MOUNTPOINT\n");
		return 2;
	}
	se = fuse_session_new(&args, &sfs_ops, sizeof(sfs_ops), NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) == 0 &&
	    fuse_session_mount(se, argv[1]) == 0) {
		printf("mounted\n");
		fflush(stdout);
		rc = fuse_session_loop(se) ? 1 : 0;
		fuse_session_unmount(se);
	}
	fuse_remove_signal_handlers(se);
	fuse_session_destroy(se);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Selftests of the cgroups in meas (Documentation/cgroup.rst): class 15's
 * item 64 and READACTIVE's record sizes, the per-cgroup totals over
 * generic netlink (exact sums over storms of short-lived processes,
 * processes moving between cgroups, cgroups removed while read, the
 * table full with its overflow counted, who may read which cgroup,
 * every error path) and class 14's cgroup of an I/O, writeback
 * included.  Run as root inside the test VM with meas.ko loaded and
 * cgroup2 mounted at /sys/fs/cgroup (selftests/run_tests.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"
#include "genlraw.h"

#define CLASS15		(1U << MEAS_CLASS_PROC)
#define CLASS14		(1U << MEAS_CLASS_IO)
#define NOBODY		65534
#define CGROOT		"/sys/fs/cgroup"
#define CGPFX		CGROOT "/meas-cgt-"

/* The counters of class 15 a cgroup's record sums: their item numbers. */
static const unsigned int cnt_items[] = {
	MEAS_P_LAUNCHES, MEAS_P_STOP_DISC_BLOCKED, MEAS_P_STOP_DISC_UNBLOCKED,
	MEAS_P_STOP_BLOCKED_IO, MEAS_P_STOP_TERMINAL, MEAS_P_STOP_IMPEDED,
	MEAS_P_STOP_TIMED_OUT, MEAS_P_STOP_PREEMPTED, MEAS_P_STOP_JOBCTL,
	MEAS_P_STOP_EXIT, MEAS_P_CPU_TIME, MEAS_P_PAUSE_DISC, MEAS_P_PAUSE_IO,
	MEAS_P_PAUSE_TERMINAL, MEAS_P_PAUSE_IMPEDED, MEAS_P_PAUSE_ACTIVE,
	MEAS_P_PAUSE_JOBCTL, MEAS_P_DISC_READS, MEAS_P_DISC_WRITES,
	MEAS_P_DISC_BYTES, MEAS_P_DISC_READ_BYTES,
};
#define NCNT	(sizeof(cnt_items) / sizeof(cnt_items[0]))

/* ---- cgroups ------------------------------------------------------------ */

struct cg {
	char path[128];
	int dfd;
	uint64_t id;
};

/* A new cgroup below the root, named @name: 0 or -errno. */
static int cg_make(struct cg *c, const char *name)
{
	struct stat st;

	snprintf(c->path, sizeof(c->path), CGPFX "%s", name);
	rmdir(c->path);
	if (mkdir(c->path, 0755) && errno != EEXIST)
		return -errno;
	c->dfd = open(c->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dfd < 0 || fstat(c->dfd, &st))
		return -errno;
	c->id = st.st_ino;
	return 0;
}

static void cg_drop(struct cg *c)
{
	if (c->dfd > 0)
		close(c->dfd);
	c->dfd = -1;
	rmdir(c->path);
}

/* The cgroup v2 ID of @path: its directory's inode number. */
static uint64_t cg_id_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/* Move process (or thread, with @file "cgroup.threads") @pid into @c. */
static int cg_move(const struct cg *c, pid_t pid)
{
	char file[160], v[24];

	snprintf(file, sizeof(file), "%s/cgroup.procs", c->path);
	snprintf(v, sizeof(v), "%d", pid);
	return write_file(file, v);
}

/* usage_usec of @c's cpu.stat, or -1. */
static long long cg_usage_usec(const struct cg *c)
{
	char file[160], line[128];
	long long v = -1;
	FILE *f;

	snprintf(file, sizeof(file), "%s/cpu.stat", c->path);
	f = fopen(file, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "usage_usec %lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* fork() into @c (clone3 with CLONE_INTO_CGROUP): as fork(). */
static pid_t fork_into(const struct cg *c)
{
	struct clone_args a = {
		.flags = CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
		.cgroup = (uint64_t)c->dfd,
	};

	return syscall(__NR_clone3, &a, sizeof(a));
}

/* ---- what children do --------------------------------------------------- */

static void spin_ms(unsigned int ms)
{
	double end = now_s() + ms / 1000.0;

	while (now_s() < end)
		;
}

static void *thread_work(void *arg)
{
	(void)arg;
	spin_ms(2);
	sleep_ms(1);
	return NULL;
}

/* A short life: some CPU, some sleeps, a file read, maybe threads. */
static void short_life(int threads)
{
	pthread_t t[4];
	char buf[256];
	int i, fd;

	spin_ms(1);
	sleep_ms(1);
	fd = open("/proc/self/stat", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf)) < 0)
			_exit(3);
		close(fd);
	}
	for (i = 0; i < threads && i < 4; i++)
		pthread_create(&t[i], NULL, thread_work, NULL);
	for (i = 0; i < threads && i < 4; i++)
		pthread_join(t[i], NULL);
	sched_yield();
	_exit(0);
}

/* Wait until @pid sleeps (its state in /proc is S or D). */
static int wait_asleep(pid_t pid)
{
	char path[64], buf[256], *p;
	int i, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 5000; i++) {
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return -1;
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (p && (p[2] == 'S' || p[2] == 'D'))
			return 0;
		usleep(1000);
	}
	return -1;
}

/* ---- class 15 and the family -------------------------------------------- */

/* The entry of process @pid (the final one once it exited). */
static int proc_entry(int fd, pid_t pid, uint64_t *e)
{
	int rc;

	return meas_proc_get(fd, 0, pid, 0, MEAS_PROC_ITEMS, e,
			     MEAS_PROC_ITEMS * sizeof(*e), &rc);
}

/* @sum += @items' counters; either a uint64_t or a __u64 array. */
static void add_counts(void *sum, const void *items)
{
	const uint64_t *e = items;
	uint64_t *to = sum;
	unsigned int i;

	for (i = 0; i < NCNT; i++)
		to[cnt_items[i]] += e[cnt_items[i]];
}

/* Items of @a and @b that differ in the counters, logged; their number. */
static int counts_differ(struct __test_metadata *_metadata, const char *what,
			 const void *items_a, const void *items_b)
{
	const uint64_t *a = items_a, *b = items_b;
	unsigned int i, k;
	int bad = 0;

	for (i = 0; i < NCNT; i++) {
		k = cnt_items[i];
		if (a[k] == b[k])
			continue;
		if (bad++ < 6)
			TH_LOG("%s: item %u %llu != %llu", what, k,
			       (unsigned long long)a[k],
			       (unsigned long long)b[k]);
	}
	return bad;
}

static struct meas_nl *nl_open_or_die(struct __test_metadata *_metadata)
{
	struct meas_nl *nl;
	int err;

	nl = meas_nl_open(&err);
	if (!nl)
		TH_LOG("meas_nl_open: %d", err);
	return nl;
}

/* One cgroup's record through a socket of its own: 0 or -errno. */
static int cg_get(uint64_t id, struct meas_cgroup_rec *rec, char *path)
{
	struct meas_nl *nl;
	int err;

	nl = meas_nl_open(&err);
	if (!nl)
		return err;
	err = meas_nl_cgroup_get(nl, id, rec, path);
	meas_nl_close(nl);
	return err;
}

/* What a dump found: its header, and the cgroups asked about. */
struct dump_seen {
	struct meas_cgroup_hdr hdr;
	int headers, records, out_of_order;
	uint32_t last_slot;
	const uint64_t *want;	/* IDs looked for */
	unsigned int nwant;
	unsigned int *times;	/* how often each came */
	uint32_t *flags;	/* and its flags */
	char (*paths)[MEAS_CGROUP_PATH_MAX];
	uint64_t sum[MEAS_PROC_ITEMS];	/* every record's counters */
	int root_seen;
};

static int dump_cb(const struct meas_cgroup_hdr *hdr,
		   const struct meas_cgroup_rec *rec, const char *path,
		   void *arg)
{
	struct dump_seen *d = arg;
	unsigned int i;

	if (hdr) {
		d->hdr = *hdr;
		d->headers++;
		return 0;
	}
	if (d->records++ && rec->slot <= d->last_slot)
		d->out_of_order++;
	d->last_slot = rec->slot;
	add_counts(d->sum, rec->item);
	if (rec->id == 1)
		d->root_seen = 1;
	for (i = 0; i < d->nwant; i++) {
		if (rec->id != d->want[i])
			continue;
		d->times[i]++;
		if (d->flags)
			d->flags[i] = rec->flags;
		if (d->paths && path)
			snprintf(d->paths[i], MEAS_CGROUP_PATH_MAX, "%s", path);
	}
	return 0;
}

/* ---- raw generic netlink: requests libnl would not send ----------------- */

/* Send MEAS_CMD_* @cmd with @flags and the attributes at @attrs (@alen). */
static int raw_send(int s, uint16_t family, uint8_t cmd, uint16_t flags,
		    const char *attrs, size_t alen)
{
	char msg[512] = { 0 };
	struct nlmsghdr *nh = (struct nlmsghdr *)msg;
	struct genlmsghdr *gh = NLMSG_DATA(nh);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;

	gh->cmd = cmd;
	gh->version = MEAS_GENL_VERSION;
	if (alen)
		memcpy(msg + len, attrs, alen);
	len += alen;
	nh->nlmsg_len = len;
	nh->nlmsg_type = family;
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	nh->nlmsg_seq = ++genl_seq;
	return send(s, msg, len, 0) < 0 ? -1 : 0;
}

/*
 * A request as raw_send() sends it, acked: the errno of the ack or of
 * NLMSG_DONE (0), or -1 if none came.
 */
static int raw_req(int s, uint16_t family, uint8_t cmd, uint16_t flags,
		   const char *attrs, size_t alen)
{
	char buf[16384];
	struct nlmsghdr *nh;
	ssize_t n;
	int i;

	if (raw_send(s, family, cmd, flags | NLM_F_ACK, attrs, alen))
		return -1;
	for (i = 0; i < 1000; i++) {
		n = recv(s, buf, sizeof(buf), 0);
		if (n <= 0)
			return -1;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_ERROR)
				return -((struct nlmsgerr *)NLMSG_DATA(nh))->error;
			if (nh->nlmsg_type == NLMSG_DONE)
				return -*(int *)NLMSG_DATA(nh);
		}
	}
	return -1;
}

/* ---- the fixture: class 15 enabled, cgroups made and removed ------------ */

FIXTURE(cgt) {
	int fd;
	struct cg a, b, c;
};

FIXTURE_SETUP(cgt)
{
	int rc = -9;

	if (access(CGROOT "/cgroup.procs", F_OK))
		SKIP(return, "no cgroup2 at " CGROOT);
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, meas_start(self->fd, CLASS15, &rc));
	ASSERT_EQ(MEAS_START_OK, rc);
	ASSERT_EQ(0, cg_make(&self->a, "a"));
	ASSERT_EQ(0, cg_make(&self->b, "b"));
	ASSERT_EQ(0, cg_make(&self->c, "c"));
}

FIXTURE_TEARDOWN(cgt)
{
	cg_drop(&self->a);
	cg_drop(&self->b);
	cg_drop(&self->c);
	if (self->fd > 0) {
		meas_stop(self->fd, CLASS15, NULL);
		close(self->fd);
	}
}

/* ---- class 15's item 64 and READACTIVE ---------------------------------- */

/* Item 64 is the cgroup a process is in now, or exited in. */
TEST_F(cgt, proc_item)
{
	uint64_t e[MEAS_PROC_ITEMS];
	int p[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, proc_entry(self->fd, getpid(), e));
	EXPECT_EQ(cg_id_of(CGROOT), e[MEAS_P_CGROUP]);
	EXPECT_EQ(1, e[MEAS_P_CGROUP]);	/* the root's inode */
	EXPECT_EQ(0, e[MEAS_P_CGROUP + 1]);
	EXPECT_EQ(0, e[MEAS_PROC_ITEMS - 1]);
	ASSERT_EQ(0, pipe(p));
	pid = fork_into(&self->a);
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	ASSERT_EQ(0, proc_entry(self->fd, pid, e));
	EXPECT_EQ(self->a.id, e[MEAS_P_CGROUP]);
	ASSERT_EQ(0, cg_move(&self->b, pid));
	ASSERT_EQ(0, proc_entry(self->fd, pid, e));
	EXPECT_EQ(self->b.id, e[MEAS_P_CGROUP]);
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, proc_entry(self->fd, pid, e));
	EXPECT_EQ(MEAS_PSTATE_EXITED, e[MEAS_P_STATE]);
	EXPECT_EQ(self->b.id, e[MEAS_P_CGROUP]);
}

/* READACTIVE's recsize: 0 is the 528-byte record of ABI 1 and 2. */
TEST_F(cgt, readactive_record_sizes)
{
	static const uint32_t bad[] = {
		MEAS_PROC_REC_SIZE_VER0 - 8, MEAS_PROC_REC_SIZE_VER0 + 4,
		sizeof(struct meas_proc_rec) + 8, 1, 0xfffffff8,
	};
	unsigned char buf[2 * sizeof(struct meas_proc_rec)];
	struct meas_entity_desc d;
	struct meas_readactive ra;
	const struct meas_proc_rec *r = (const void *)buf;
	uint64_t item64;
	unsigned int i;

	meas_entity_init(&d, 1);
	d.pid = getpid();
	memset(&ra, 0, sizeof(ra));
	ra.size = sizeof(ra);
	ra.descs = (uintptr_t)&d;
	ra.ndesc = 1;
	ra.buf = (uintptr_t)buf;
	ra.bufsize = sizeof(buf);
	ra.entity_index = -1;
	/* what a caller built before ABI 3 passes: the old stride */
	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_READACTIVE, &ra));
	EXPECT_EQ(1, ra.records);
	EXPECT_EQ(MEAS_PROC_REC_SIZE_VER0, ra.bytesret);
	EXPECT_EQ(MEAS_PROC_REC_SIZE_VER0, r->size);
	EXPECT_EQ((uint64_t)getpid(), r->item[MEAS_P_PID]);
	EXPECT_EQ(0xa5, buf[MEAS_PROC_REC_SIZE_VER0]);
	/* one item more: the cgroup */
	ra.recsize = MEAS_PROC_REC_SIZE_VER0 + 8;
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_READACTIVE, &ra));
	EXPECT_EQ(MEAS_PROC_REC_SIZE_VER0 + 8, ra.bytesret);
	memcpy(&item64, buf + MEAS_PROC_REC_SIZE_VER0, sizeof(item64));
	EXPECT_EQ(1, item64);
	/* the whole record */
	ra.recsize = sizeof(struct meas_proc_rec);
	ASSERT_EQ(0, ioctl(self->fd, MEAS_IOC_READACTIVE, &ra));
	EXPECT_EQ(sizeof(struct meas_proc_rec), ra.bytesret);
	EXPECT_EQ(sizeof(struct meas_proc_rec), r->size);
	EXPECT_EQ(1, r->item[MEAS_P_CGROUP]);
	/* a buffer of one old record is too small for one new one */
	ra.bufsize = MEAS_PROC_REC_SIZE_VER0;
	EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_READACTIVE, &ra));
	EXPECT_EQ(EOVERFLOW, errno);
	EXPECT_EQ(sizeof(struct meas_proc_rec), ra.bytesret);
	ra.bufsize = sizeof(buf);
	/* sizes that are not a record's: EINVAL, nothing copied back */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ra.recsize = bad[i];
		ra.result = MEAS_RC_NONE;
		EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_READACTIVE, &ra));
		EXPECT_EQ(EINVAL, errno) TH_LOG("recsize %u", bad[i]);
		EXPECT_EQ(MEAS_RC_NONE, ra.result);
	}
	ra.recsize = 0;
	ra.pad2 = 1;
	ra.result = MEAS_RC_NONE;
	EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_READACTIVE, &ra));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MEAS_RC_NONE, ra.result);
}

/* ---- the totals ---------------------------------------------------------- */

/* The header: the table's size, counters, memory, the class's start. */
TEST_F(cgt, header)
{
	struct meas_cgroup_hdr h;
	uint64_t p0[MEAS_PROC_ITEMS];
	struct meas_nl *nl = nl_open_or_die(_metadata);
	char v[32];
	int fd, rc;

	ASSERT_NE(NULL, nl);
	ASSERT_EQ(0, meas_nl_cgroup_header(nl, &h));
	EXPECT_EQ(sizeof(h), h.size);
	EXPECT_EQ(0, h.flags);
	fd = open(PARAM_DIR "cgroup_slots", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, v, sizeof(v) - 1));
	close(fd);
	EXPECT_EQ(strtoul(v, NULL, 10), h.slots);
	/* the walk at the enable entered the root cgroup at least */
	EXPECT_LE(1, h.used);
	EXPECT_EQ(0, h.hidden);
	EXPECT_LT(500000, h.mem);
	ASSERT_EQ(0, meas_proc_header(self->fd, p0, &rc));
	EXPECT_EQ(p0[MEAS_P0_STARTED], h.started);
	EXPECT_LE(h.mem, p0[MEAS_P0_MEM_TABLE]);
	EXPECT_LT(0, h.clock);
	meas_nl_close(nl);
}

/*
 * Storms of short-lived processes in a cgroup (some with threads): its
 * totals are exactly the sum of their final class 15 records, every
 * counter and every time, and agree with the kernel's cpu.stat.
 */
TEST_F_TIMEOUT(cgt, storm_sums_exactly, 300)
{
	enum { WAVES = 3, PER_WAVE = 100 };
	uint64_t sum[MEAS_PROC_ITEMS] = { 0 }, e[MEAS_PROC_ITEMS], threads = 0;
	struct meas_cgroup_rec rec;
	pid_t pids[PER_WAVE];
	long long usage0, usage;
	int w, i, status;

	EXPECT_EQ(-ENOENT, cg_get(self->a.id, &rec, NULL));
	usage0 = cg_usage_usec(&self->a);
	for (w = 0; w < WAVES; w++) {
		for (i = 0; i < PER_WAVE; i++) {
			pids[i] = fork_into(&self->a);
			ASSERT_LE(0, pids[i]);
			if (!pids[i])
				short_life(i % 4 == 0 ? 2 : 0);
			threads += i % 4 == 0 ? 3 : 1;
		}
		for (i = 0; i < PER_WAVE; i++) {
			ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
			EXPECT_EQ(0, status);
			ASSERT_EQ(0, proc_entry(self->fd, pids[i], e));
			ASSERT_EQ(MEAS_PSTATE_EXITED, e[MEAS_P_STATE]);
			EXPECT_EQ(self->a.id, e[MEAS_P_CGROUP]);
			add_counts(sum, e);
		}
	}
	ASSERT_EQ(0, cg_get(self->a.id, &rec, NULL));
	EXPECT_EQ(sizeof(rec), rec.size);
	EXPECT_EQ(self->a.id, rec.id);
	EXPECT_EQ(1, rec.parent);
	EXPECT_EQ(1, rec.level);
	EXPECT_EQ(0, rec.flags);
	EXPECT_EQ(0, rec.threads);
	EXPECT_EQ(threads, rec.folded);
	EXPECT_EQ(threads, rec.exited);
	EXPECT_EQ(0, counts_differ(_metadata, "cgroup vs its processes",
				   rec.item, sum));
	EXPECT_EQ(threads, rec.item[MEAS_P_STOP_EXIT]);
	EXPECT_EQ(0, rec.item[MEAS_P_PID]);
	/*
	 * The kernel's CPU time of the cgroup: sum_exec_runtime on the task
	 * clock, which leaves out time in interrupts where the kernel
	 * accounts it apart; meas counts switch-in to switch-out on
	 * local_clock(), interrupts included.  So meas's is not below the
	 * kernel's, and above it by the interrupts of 300 processes' slices
	 * (under TCG a timer tick's handling is some 0.1 ms): 10% and 20 ms.
	 */
	usage = cg_usage_usec(&self->a) - usage0;
	TH_LOG("CPU: meas %llu us, cpu.stat %lld us",
	       (unsigned long long)rec.item[MEAS_P_CPU_TIME] / 1000, usage);
	EXPECT_LE((long long)(rec.item[MEAS_P_CPU_TIME] / 1000), usage * 11 / 10 + 20000);
	EXPECT_GE((long long)(rec.item[MEAS_P_CPU_TIME] / 1000) + 1000, usage * 9 / 10);
}

/*
 * A child in @c with @nthreads threads, which end; then it says so on
 * a pipe and blocks until told on @p; then spins and exits.  Returns
 * once it is blocked there.
 */
static pid_t blocked_child(const struct cg *c, int p[2], int nthreads)
{
	pthread_t t[4];
	int i, ready[2];
	pid_t pid;
	char ch = 0;

	if (pipe(ready))
		return -1;
	pid = fork_into(c);
	if (pid) {
		close(ready[1]);
		if (pid < 0 || read(ready[0], &ch, 1) != 1 || wait_asleep(pid))
			pid = -1;
		close(ready[0]);
		return pid;
	}
	close(p[1]);
	close(ready[0]);
	for (i = 0; i < nthreads && i < 4; i++)
		pthread_create(&t[i], NULL, thread_work, NULL);
	for (i = 0; i < nthreads && i < 4; i++)
		pthread_join(t[i], NULL);
	spin_ms(5);
	/* nothing blocks between this write and the read */
	if (write(ready[1], &ch, 1) != 1 || read(p[0], &ch, 1) < 0)
		_exit(1);
	spin_ms(5);
	sleep_ms(2);
	_exit(0);
}

/*
 * A process moved from a to b while it sleeps: a keeps what it counted
 * up to the move, to the launch and the nanosecond of CPU; b gets the
 * rest; a and b add up to the process, exactly.
 */
TEST_F(cgt, migration_splits_exactly)
{
	uint64_t at_move[MEAS_PROC_ITEMS], fin[MEAS_PROC_ITEMS];
	uint64_t both[MEAS_PROC_ITEMS] = { 0 };
	struct meas_cgroup_rec ra, ra2, rb;
	int p[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = blocked_child(&self->a, p, 2);
	ASSERT_LE(0, pid);
	close(p[0]);
	ASSERT_EQ(0, proc_entry(self->fd, pid, at_move));
	ASSERT_EQ(0, cg_move(&self->b, pid));
	ASSERT_EQ(0, cg_get(self->a.id, &ra, NULL));
	ASSERT_EQ(0, cg_get(self->b.id, &rb, NULL));
	EXPECT_EQ(0, ra.threads);
	EXPECT_EQ(1, rb.threads);
	/* 3 threads entered a, 2 exited there, 1 moved */
	EXPECT_EQ(3, ra.folded);
	EXPECT_EQ(2, ra.exited);
	EXPECT_EQ(at_move[MEAS_P_LAUNCHES], ra.item[MEAS_P_LAUNCHES]);
	EXPECT_EQ(at_move[MEAS_P_CPU_TIME], ra.item[MEAS_P_CPU_TIME]);
	EXPECT_EQ(at_move[MEAS_P_STOP_IMPEDED], ra.item[MEAS_P_STOP_IMPEDED]);
	/* the sleep it moved in counts in b, from its start */
	EXPECT_GE(at_move[MEAS_P_PAUSE_IMPEDED], ra.item[MEAS_P_PAUSE_IMPEDED]);
	EXPECT_EQ(0, rb.item[MEAS_P_LAUNCHES]);
	EXPECT_EQ(0, rb.item[MEAS_P_CPU_TIME]);
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, proc_entry(self->fd, pid, fin));
	ASSERT_EQ(0, cg_get(self->a.id, &ra2, NULL));
	ASSERT_EQ(0, cg_get(self->b.id, &rb, NULL));
	/* a has no thread: nothing more went there */
	EXPECT_EQ(0, counts_differ(_metadata, "a after the move", ra.item,
				   ra2.item));
	EXPECT_EQ(1, rb.folded);
	EXPECT_EQ(1, rb.exited);
	EXPECT_LT(0, rb.item[MEAS_P_LAUNCHES]);
	add_counts(both, ra2.item);
	add_counts(both, rb.item);
	EXPECT_EQ(0, counts_differ(_metadata, "a + b vs the process", both,
				   fin));
}

/* A child with threads that moves itself, running, a then b then c. */
static pid_t mover_child(struct cg *to1, struct cg *to2, const struct cg *c)
{
	pthread_t t[3];
	pid_t pid = fork_into(c);
	int i;

	if (pid)
		return pid;
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, thread_work, NULL);
	spin_ms(3);
	if (cg_move(to1, getpid()))
		_exit(2);
	spin_ms(3);
	sleep_ms(1);
	if (cg_move(to2, getpid()))
		_exit(3);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	spin_ms(3);
	_exit(0);
}

/*
 * A running process with threads moves itself twice: whatever interval
 * each move cuts, the three cgroups add up to the process exactly.
 */
TEST_F_TIMEOUT(cgt, running_threads_move_and_add_up, 120)
{
	uint64_t fin[MEAS_PROC_ITEMS], all[MEAS_PROC_ITEMS] = { 0 };
	struct meas_cgroup_rec r;
	struct cg *cgs[3] = { &self->a, &self->b, &self->c };
	int i, status, round;
	pid_t pid;

	for (round = 0; round < 5; round++) {
		pid = mover_child(&self->b, &self->c, &self->a);
		ASSERT_LE(0, pid);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, status);
		ASSERT_EQ(0, proc_entry(self->fd, pid, fin));
		add_counts(all, fin);
	}
	memset(fin, 0, sizeof(fin));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, cg_get(cgs[i]->id, &r, NULL));
		EXPECT_EQ(0, r.threads);
		add_counts(fin, r.item);
	}
	EXPECT_EQ(0, counts_differ(_metadata, "a + b + c vs the processes",
				   fin, all));
}

/*
 * Cgroups removed while a dump reads them: each comes once, the removed
 * ones flagged with their path; a removed cgroup is still read by its ID.
 */
TEST_F_TIMEOUT(cgt, removed_while_read, 120)
{
	enum { N = 40 };
	static struct cg cgs[N];
	uint64_t ids[N];
	unsigned int times[N] = { 0 };
	uint32_t flags[N] = { 0 };
	static char paths[N][MEAS_CGROUP_PATH_MAX];
	struct dump_seen d = {
		.want = ids, .nwant = N, .times = times, .flags = flags,
		.paths = paths,
	};
	struct meas_cgroup_rec before, after;
	char name[32], path[MEAS_CGROUP_PATH_MAX], buf[32768];
	uint16_t family;
	uint32_t exits;
	struct nlmsghdr *nh;
	int i, s, status, done = 0, removed = 0;
	ssize_t n;
	pid_t pid;

	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "rm%d", i);
		ASSERT_EQ(0, cg_make(&cgs[i], name));
		ids[i] = cgs[i].id;
		pid = fork_into(&cgs[i]);
		ASSERT_LE(0, pid);
		if (!pid)
			short_life(0);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
	}
	ASSERT_EQ(0, cg_get(ids[0], &before, path));
	EXPECT_EQ(0, before.flags);
	EXPECT_STREQ("", path);
	/*
	 * A dump read in small pieces (the socket's buffer holds one), the
	 * cgroups removed between them.
	 */
	s = nl_socket(4096);
	ASSERT_LE(0, s);
	ASSERT_EQ(0, genl_resolve(s, &family, &exits));
	ASSERT_EQ(0, raw_send(s, family, MEAS_CMD_CGROUP_GET, NLM_F_DUMP,
			      NULL, 0));
	while (!done) {
		n = recv(s, buf, sizeof(buf), 0);
		ASSERT_LT(0, n);
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			struct nlattr *a = (void *)((char *)NLMSG_DATA(nh) +
						    GENL_HDRLEN);
			int rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
			const struct meas_cgroup_rec *rec = NULL;
			const char *p = NULL;

			if (nh->nlmsg_type == NLMSG_DONE) {
				EXPECT_EQ(0, *(int *)NLMSG_DATA(nh));
				done = 1;
				break;
			}
			ASSERT_NE(NLMSG_ERROR, nh->nlmsg_type);
			for (; rem >= NLA_HDRLEN && a->nla_len <= rem;
			     rem -= NLA_ALIGN(a->nla_len),
			     a = (void *)((char *)a + NLA_ALIGN(a->nla_len))) {
				if (a->nla_type == MEAS_A_CGROUP_REC)
					rec = (const void *)(a + 1);
				if (a->nla_type == MEAS_A_CGROUP_PATH)
					p = (const char *)(a + 1);
				if (a->nla_type == MEAS_A_CGROUP_HDR)
					d.headers++;
			}
			if (rec)
				dump_cb(NULL, rec, p, &d);
		}
		/* between two pieces, the next ten go */
		for (i = 0; i < 10 && removed < N; i++)
			cg_drop(&cgs[removed++]);
	}
	close(s);
	while (removed < N)
		cg_drop(&cgs[removed++]);
	EXPECT_EQ(1, d.headers);
	EXPECT_EQ(0, d.out_of_order);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(1, times[i]) TH_LOG("cgroup %d", i);
		if (flags[i] & MEAS_CG_REMOVED)
			EXPECT_STREQ(cgs[i].path + strlen(CGROOT), paths[i]);
	}
	/* removed: still there by its ID, its totals kept, its path given */
	ASSERT_EQ(0, cg_get(ids[0], &after, path));
	EXPECT_EQ(MEAS_CG_REMOVED, after.flags);
	EXPECT_STREQ("/meas-cgt-rm0", path);
	EXPECT_EQ(0, counts_differ(_metadata, "removed", before.item,
				   after.item));
}

/* A removed cgroup's path longer than the table keeps: cut, flagged. */
TEST_F(cgt, long_path_truncated)
{
	char path[MEAS_CGROUP_PATH_MAX], dir[600], name[300];
	struct meas_cgroup_rec r;
	struct cg c = { .dfd = -1 };
	struct stat st;
	int status;
	pid_t pid;

	memset(name, 'x', 200);
	name[200] = '\0';
	snprintf(dir, sizeof(dir), "%s/%s", self->a.path, name);
	ASSERT_EQ(0, mkdir(dir, 0755));
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s", name);
	ASSERT_EQ(0, mkdir(dir, 0755));
	snprintf(c.path, sizeof(c.path), "%s", "unused");
	c.dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, c.dfd);
	ASSERT_EQ(0, fstat(c.dfd, &st));
	pid = fork_into(&c);
	ASSERT_LE(0, pid);
	if (!pid)
		short_life(0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(c.dfd);
	ASSERT_EQ(0, rmdir(dir));
	ASSERT_EQ(0, cg_get(st.st_ino, &r, path));
	EXPECT_EQ(MEAS_CG_REMOVED | MEAS_CG_PATH_TRUNCATED, r.flags);
	EXPECT_EQ(MEAS_CGROUP_PATH_MAX - 1, strlen(path));
	EXPECT_EQ(0, strncmp(path, dir + strlen(CGROOT),
			     MEAS_CGROUP_PATH_MAX - 1));
	EXPECT_EQ(3, r.level);
	*strrchr(dir, '/') = '\0';
	EXPECT_EQ(cg_id_of(dir), r.parent);
	rmdir(dir);
}

/* ---- a small table: the overflow entry and reuse ------------------------ */

/* class 15 enabled anew with @slots cgroup entries */
static void restart_with_slots(struct __test_metadata *_metadata, int fd,
			       const char *slots)
{
	int rc = -9;

	ASSERT_EQ(0, meas_stop(fd, CLASS15, &rc));
	ASSERT_EQ(0, info_of(fd).enablers[MEAS_CLASS_PROC]);
	set_param("cgroup_slots", slots);
	ASSERT_EQ(0, meas_start(fd, CLASS15, &rc));
	set_param("cgroup_slots", "4096");
}

/*
 * With 3 entries (the root's and two), the third and later cgroups count
 * in the overflow entry, counted in the header; their sums are still
 * exact there; a removed cgroup's entry goes to the next new cgroup.
 */
TEST_F_TIMEOUT(cgt, table_full_overflow_counted, 120)
{
	enum { N = 5 };
	struct cg cgs[N];
	uint64_t fin[MEAS_PROC_ITEMS], over[MEAS_PROC_ITEMS] = { 0 };
	struct meas_cgroup_hdr h;
	struct meas_cgroup_rec r, r0;
	struct meas_nl *nl;
	int p[N][2], i, status, err;
	pid_t pids[N];
	char name[16];

	restart_with_slots(_metadata, self->fd, "3");
	nl = nl_open_or_die(_metadata);
	ASSERT_NE(NULL, nl);
	ASSERT_EQ(0, meas_nl_cgroup_get(nl, 0, &r0, NULL));
	EXPECT_EQ(MEAS_CG_OVERFLOW, r0.flags);
	EXPECT_EQ(0, r0.id);
	EXPECT_EQ(0, r0.slot);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "full%d", i);
		ASSERT_EQ(0, cg_make(&cgs[i], name));
		ASSERT_EQ(0, pipe(p[i]));
		pids[i] = blocked_child(&cgs[i], p[i], 0);
		ASSERT_LE(0, pids[i]);
		close(p[i][0]);
	}
	ASSERT_EQ(0, meas_nl_cgroup_header(nl, &h));
	EXPECT_EQ(3, h.slots);
	EXPECT_EQ(3, h.used);
	/* the scan put the root in one: two of the five have entries */
	EXPECT_EQ(N - 2, h.overflow_threads - r0.threads);
	for (i = 0; i < N; i++) {
		err = meas_nl_cgroup_get(nl, cgs[i].id, &r, NULL);
		EXPECT_EQ(i < 2 ? 0 : -ENOENT, err) TH_LOG("cgroup %d", i);
	}
	ASSERT_EQ(0, meas_nl_cgroup_get(nl, 0, &r, NULL));
	EXPECT_EQ(r0.threads + N - 2, r.threads);
	for (i = 0; i < N; i++) {
		/* a byte, not a close: the later children hold the pipe too */
		ASSERT_EQ(1, write(p[i][1], "x", 1));
		close(p[i][1]);
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		ASSERT_EQ(0, proc_entry(self->fd, pids[i], fin));
		if (i >= 2)
			add_counts(over, fin);
	}
	ASSERT_EQ(0, meas_nl_cgroup_header(nl, &h));
	EXPECT_EQ(N - 2, h.overflow_folds);
	ASSERT_EQ(0, meas_nl_cgroup_get(nl, 0, &r, NULL));
	EXPECT_EQ(N - 2 + r0.folded, r.folded);
	if (!r0.folded && !r0.threads)
		EXPECT_EQ(0, counts_differ(_metadata, "overflow", r.item,
					   over));
	/* the removed cgroup's entry goes to the next new one */
	cg_drop(&cgs[0]);
	cg_drop(&cgs[2]);
	ASSERT_EQ(0, meas_nl_cgroup_header(nl, &h));
	EXPECT_EQ(1, h.removed);
	EXPECT_EQ(0, h.reused);
	ASSERT_EQ(0, cg_make(&cgs[2], "full2b"));
	pids[0] = fork_into(&cgs[2]);
	ASSERT_LE(0, pids[0]);
	if (!pids[0])
		short_life(0);
	ASSERT_EQ(pids[0], waitpid(pids[0], &status, 0));
	ASSERT_EQ(0, meas_nl_cgroup_header(nl, &h));
	EXPECT_EQ(0, h.removed);
	EXPECT_EQ(1, h.reused);
	EXPECT_EQ(-ENOENT, meas_nl_cgroup_get(nl, cgs[0].id, &r, NULL));
	ASSERT_EQ(0, meas_nl_cgroup_get(nl, cgs[2].id, &r, NULL));
	EXPECT_EQ(1, r.folded);
	for (i = 1; i < N; i++)
		cg_drop(&cgs[i]);
	meas_nl_close(nl);
}

/* ---- who may read which cgroup ------------------------------------------ */

/* When nobody was refused: what root sees of the cgroup and the process. */
static void log_denied(struct __test_metadata *_metadata, int fd, uint64_t id,
		       pid_t pid)
{
	struct meas_cgroup_rec r = { 0 };
	uint64_t e[MEAS_PROC_ITEMS] = { 0 };

	cg_get(id, &r, NULL);
	proc_entry(fd, pid, e);
	TH_LOG("root sees: threads %llu folded %llu exited %llu flags %#x; the process: flags %#llx uid %llu euid %llu gid %llu",
	       (unsigned long long)r.threads, (unsigned long long)r.folded,
	       (unsigned long long)r.exited, r.flags,
	       (unsigned long long)e[MEAS_P_FLAGS],
	       (unsigned long long)e[MEAS_P_UID],
	       (unsigned long long)e[MEAS_P_EUID],
	       (unsigned long long)e[MEAS_P_GID]);
}

/* Become nobody, outside group meas, no capability; exits on failure. */
static void become_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(90);
}

/* In a child as nobody: GET of @id, the dump; the results by exit code. */
static int nobody_reads(uint64_t id, int *get, int *dump_hidden,
			int *dump_has_id, int *dump_has_root)
{
	int status, q[2];
	pid_t pid;

	if (pipe(q))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		struct meas_cgroup_rec r;
		struct dump_seen d = { 0 };
		unsigned int times = 0;
		struct meas_nl *nl;
		int res[4], err;

		close(q[0]);
		become_nobody();
		nl = meas_nl_open(&err);
		if (!nl)
			_exit(91);
		res[0] = meas_nl_cgroup_get(nl, id, &r, NULL);
		d.want = &id;
		d.nwant = 1;
		d.times = &times;
		err = meas_nl_cgroup_dump(nl, dump_cb, &d);
		res[1] = err ? err : (int)d.hdr.hidden;
		res[2] = times;
		res[3] = d.root_seen;
		if (write(q[1], res, sizeof(res)) != sizeof(res))
			_exit(92);
		_exit(0);
	}
	close(q[1]);
	{
		int res[4];

		if (read(q[0], res, sizeof(res)) != sizeof(res))
			res[0] = res[1] = res[2] = res[3] = -999;
		*get = res[0];
		*dump_hidden = res[1];
		*dump_has_id = res[2];
		*dump_has_root = res[3];
	}
	close(q[0]);
	waitpid(pid, &status, 0);
	return status;
}

/*
 * A user outside group meas reads the cgroup where only its processes
 * ran, live and exited; not the root cgroup, nor one where root's process
 * ran too (hidden in a dump, EACCES in a GET) (Documentation/security.rst).
 */
TEST_F_TIMEOUT(cgt, access_for_a_user_outside_meas, 120)
{
	int get, hidden, has, root, status, p[2], ready[2];
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(ready));
	pid = fork_into(&self->a);
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[1]);
		close(ready[0]);
		become_nobody();
		/*
		 * Dumpable again after the change of IDs: a new program,
		 * which says when it runs (until then, it is not).
		 */
		dup2(p[0], 0);
		dup2(ready[1], 1);
		execl("/bin/sh", "sh", "-c", "echo; read x", (char *)NULL);
		_exit(93);
	}
	close(p[0]);
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	ASSERT_EQ(0, wait_asleep(pid));
	/* live: its one process is nobody's */
	ASSERT_EQ(0, nobody_reads(self->a.id, &get, &hidden, &has, &root));
	EXPECT_EQ(0, get);
	EXPECT_EQ(1, has);
	EXPECT_EQ(0, root);
	EXPECT_LE(1, hidden);
	/* the root cgroup: never */
	ASSERT_EQ(0, nobody_reads(1, &get, &hidden, &has, &root));
	EXPECT_EQ(-EACCES, get);
	/* exited: judged by the IDs it left */
	c = '\n';
	ASSERT_EQ(1, write(p[1], &c, 1));
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, nobody_reads(self->a.id, &get, &hidden, &has, &root));
	EXPECT_EQ(0, get);
	EXPECT_EQ(1, has);
	if (get)
		log_denied(_metadata, self->fd, self->a.id, pid);
	/* root's process passed through: mixed, hidden */
	pid = fork_into(&self->a);
	ASSERT_LE(0, pid);
	if (!pid)
		short_life(0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, nobody_reads(self->a.id, &get, &hidden, &has, &root));
	EXPECT_EQ(-EACCES, get);
	EXPECT_EQ(0, has);
	/* and root (CAP_PERFMON) sees it */
	{
		struct meas_cgroup_rec r;

		EXPECT_EQ(0, cg_get(self->a.id, &r, NULL));
		EXPECT_EQ(2, r.exited);
	}
}

/* ---- every error path --------------------------------------------------- */

/* A request of @cmd with @flags and the one attribute @type: its errno. */
static int req1(int s, uint16_t family, uint8_t cmd, uint16_t flags,
		uint16_t type, const void *data, uint16_t dlen)
{
	char attrs[128];
	size_t len = 0;

	put_attr(attrs, &len, type, data, dlen);
	return raw_req(s, family, cmd, flags, attrs, len);
}

TEST_F(cgt, bad_requests)
{
	const uint8_t get = MEAS_CMD_CGROUP_GET;
	uint64_t id = self->a.id, big = ~0ULL;
	uint32_t small = 1;
	uint16_t family;
	uint32_t exits;
	struct meas_cgroup_rec rec = { 0 };
	int s, rc = -9;

	s = nl_socket(0);
	ASSERT_LE(0, s);
	ASSERT_EQ(0, genl_resolve(s, &family, &exits));
	/* a cgroup without an entry */
	EXPECT_EQ(ENOENT, req1(s, family, get, 0, MEAS_A_CGROUP, &id, 8));
	EXPECT_EQ(ENOENT, req1(s, family, get, 0, MEAS_A_CGROUP, &big, 8));
	/* the ID of the wrong length */
	EXPECT_EQ(EINVAL, req1(s, family, get, 0, MEAS_A_CGROUP, &small, 4));
	/* the other command's attribute, and those only the kernel sends */
	EXPECT_EQ(EINVAL, req1(s, family, get, 0, MEAS_A_PID, &small, 4));
	EXPECT_EQ(EINVAL, req1(s, family, get, 0, MEAS_A_CGROUP_REC, &rec, 8));
	EXPECT_EQ(EINVAL, req1(s, family, get, 0, MEAS_A_CGROUP_PATH, "/x", 3));
	/* a process GET with a cgroup */
	EXPECT_EQ(EINVAL, req1(s, family, MEAS_CMD_GET, 0, MEAS_A_CGROUP, &id,
			       8));
	/* a dump takes no attribute */
	EXPECT_EQ(EINVAL, req1(s, family, get, NLM_F_DUMP, MEAS_A_CGROUP, &id,
			       8));
	/* well-formed ones */
	id = 1;
	EXPECT_EQ(0, raw_req(s, family, get, 0, NULL, 0));
	EXPECT_EQ(0, raw_req(s, family, get, NLM_F_DUMP, NULL, 0));
	EXPECT_EQ(0, req1(s, family, get, 0, MEAS_A_CGROUP, &id, 8));
	/* class 15 not enabled: the header, a cgroup, the dump */
	ASSERT_EQ(0, meas_stop(self->fd, CLASS15, &rc));
	if (info_of(self->fd).global_mask & CLASS15)
		SKIP(goto out, "class 15 is enabled by someone else");
	EXPECT_EQ(ENODATA, raw_req(s, family, get, 0, NULL, 0));
	EXPECT_EQ(ENODATA, req1(s, family, get, 0, MEAS_A_CGROUP, &id, 8));
	EXPECT_EQ(ENODATA, raw_req(s, family, get, NLM_F_DUMP, NULL, 0));
	EXPECT_EQ(-ENODATA, cg_get(1, &rec, NULL));
out:
	close(s);
}

/* ---- class 14: the cgroup an I/O is charged to --------------------------- */

/* The records of class 14 since the last read, into @recs (at most @n). */
static size_t io_records(int fd, struct meas_io_record *recs, size_t n)
{
	struct meas_iotrace_read r;
	size_t got = 0;

	while (got < n && !meas_iotrace_read(fd, 0, recs + got, n - got, &r) &&
	       r.records)
		got += r.records;
	return got;
}

/* "+io" (and @more) in the root's subtree_control: 0 or -errno. */
static int enable_controllers(const char *more)
{
	int err = write_file(CGROOT "/cgroup.subtree_control", "+io");

	if (!err && more)
		err = write_file(CGROOT "/cgroup.subtree_control", more);
	return err;
}

/*
 * Direct reads of a process in a cgroup with the io controller carry the
 * cgroup; a buffered write there, written back by the flusher, carries
 * the cgroup too, not the flusher's.
 */
TEST_F_TIMEOUT(cgt, class14_cgroup_of_direct_io_and_writeback, 300)
{
	static struct meas_io_record recs[8192];
	uint64_t wb_bytes = 0, mine = 0, others = 0, loopdev;
	int fd14, rc, status, i;
	size_t n;
	char cmd[256], dev[64] = "";
	FILE *f;
	pid_t pid;

	if (enable_controllers(NULL))
		SKIP(return, "no io controller");
	if (!null_blk_loaded())
		ASSERT_EQ(0, null_blk_load("nr_devices=1 gb=1"));
	fd14 = meas_open();
	ASSERT_LE(0, fd14);
	ASSERT_EQ(0, meas_start(fd14, CLASS14, &rc));
	io_records(fd14, recs, 8192);
	pid = fork_into(&self->a);
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(do_io("/dev/nullb0", 16, 0, 0, 0) ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	n = io_records(fd14, recs, 8192);
	for (i = 0; i < (int)n; i++) {
		if (recs[i].tgid != pid)
			continue;
		if (recs[i].cgroup == self->a.id)
			mine++;
		else
			others++;
	}
	EXPECT_EQ(16, mine);
	EXPECT_EQ(0, others);
	null_blk_unload();

	/* writeback: ext4 on a loop device, memory and io controllers on */
	if (enable_controllers("+memory") ||
	    system("modprobe loop 2>/dev/null; modprobe ext4 2>/dev/null; "
		   "truncate -s 64M /tmp/meas-cgt.img && "
		   "mkfs.ext4 -q -F /tmp/meas-cgt.img >/dev/null 2>&1"))
		SKIP(goto stop, "no memory controller or no mkfs.ext4");
	f = popen("losetup -f --show /tmp/meas-cgt.img", "r");
	ASSERT_NE(NULL, f);
	if (!fgets(dev, sizeof(dev), f))
		dev[0] = '\0';
	pclose(f);
	dev[strcspn(dev, "\n")] = '\0';
	if (!dev[0])
		SKIP(goto stop, "no loop device");
	loopdev = dev_of(dev);
	snprintf(cmd, sizeof(cmd), "mkdir -p /tmp/meas-cgt && mount %s /tmp/meas-cgt", dev);
	ASSERT_EQ(0, system(cmd));
	io_records(fd14, recs, 8192);
	pid = fork_into(&self->a);
	ASSERT_LE(0, pid);
	if (!pid) {
		static char buf[1 << 20];
		int out = open("/tmp/meas-cgt/f", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		memset(buf, 'w', sizeof(buf));
		for (i = 0; i < 4; i++)
			if (out < 0 || write(out, buf, sizeof(buf)) != sizeof(buf))
				_exit(1);
		_exit(0);	/* no fsync: the flusher writes it back */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	sync();
	n = io_records(fd14, recs, 8192);
	for (i = 0; i < (int)n; i++)
		if (recs[i].dev == loopdev && recs[i].op == MEAS_IO_OP_WRITE &&
		    recs[i].cgroup == self->a.id && recs[i].tgid != pid)
			wb_bytes += recs[i].bytes;
	TH_LOG("written back for the cgroup: %llu bytes",
	       (unsigned long long)wb_bytes);
	EXPECT_LE(4 << 20, wb_bytes);
	snprintf(cmd, sizeof(cmd), "umount /tmp/meas-cgt; losetup -d %s", dev);
	EXPECT_EQ(0, system(cmd));
stop:
	unlink("/tmp/meas-cgt.img");
	meas_stop(fd14, CLASS14, NULL);
	close(fd14);
}

TEST_HARNESS_MAIN

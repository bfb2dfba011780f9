// SPDX-License-Identifier: GPL-2.0
/*
 * Stress of /dev/meas, bounded in time.  For MEAS_STRESS_SECONDS (default
 * 10) MEAS_STRESS_WORKERS processes (default 32) loop open, START with a
 * random class mask, GET, GETPROCSTATS or IOTRACE_READ, STOP (or not),
 * close; holders keep classes 0, 14 and 15 enabled until they are killed;
 * a fork workload and O_DIRECT I/O on a null_blk disk run alongside; the
 * supervisor kills a random worker or holder with SIGKILL every few
 * milliseconds and starts another, and tries to unload meas, which must
 * be refused while it keeps a file open.  Afterwards nothing is enabled
 * or allocated, the module holds only the references of open files, and
 * the class 0 counters still agree with /proc/stat and /proc/diskstats.
 * Run as root in the test VM with meas.ko loaded (selftests/stress/stress.sh).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"

#define MAX_WORKERS	256
#define HOLDERS		4
#define IO_PROCS	2
#define DISK		"/dev/nullb0"
#define DISK_BLOCKS	((64 << 20) / DIRECT_IO_BS)	/* the first 64 MiB */

enum op { OP_OPEN, OP_START, OP_GET, OP_PROCSTATS, OP_IOTRACE, OP_STOP,
	  OP_INFO, NR_OPS };

static const char *const op_name[NR_OPS] = {
	"open", "START", "GET", "GETPROCSTATS", "IOTRACE_READ", "STOP", "INFO",
};

/*
 * The errnos each call may return here (uapi/linux/meas.h): the calls are
 * well formed, so only the outcomes of the state and of memory remain.
 * EINTR: the caller was killed while it waited for meas_sir.
 */
static const int allowed[NR_OPS][8] = {
	[OP_OPEN]	= { ENOMEM },
	[OP_START]	= { ENOMEM, EIO, E2BIG, EINVAL, EINTR },
	[OP_GET]	= { ENODATA, ERANGE, EINVAL, ENOMEM, EINTR },
	[OP_PROCSTATS]	= { ENODATA, ERANGE, ESRCH, EINTR },
	[OP_IOTRACE]	= { ENODATA, EINTR },
	[OP_STOP]	= { EINVAL, EINTR },
	[OP_INFO]	= { EINTR },
};

/* Shared by every process of the storm (an anonymous shared mapping). */
struct tally {
	long calls[NR_OPS];
	long errors[NR_OPS];
	long undocumented;
	int bad_op, bad_errno;
	long cycles, forks, ios, io_errors;
	long kills, rmmod_refused, rmmod_done, rmmod_bad;
	int rmmod_errno;
	long odd_deaths;
	int odd_status;
	long measctl_starts, measctl_kills;
	int stop;
};

static struct tally *tally;

static void add(long *v, long n)
{
	__atomic_fetch_add(v, n, __ATOMIC_RELAXED);
}

static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static void check(enum op op, int r)
{
	int e = errno, i;

	add(&tally->calls[op], 1);
	if (r >= 0)
		return;
	add(&tally->errors[op], 1);
	for (i = 0; i < 8 && allowed[op][i]; i++)
		if (allowed[op][i] == e)
			return;
	if (__atomic_fetch_add(&tally->undocumented, 1, __ATOMIC_RELAXED) == 0) {
		tally->bad_op = op;
		tally->bad_errno = e;
	}
}

/* Classes 0, 14 and 15, sometimes a class nobody defined (code 5). */
static uint32_t random_mask(void)
{
	uint32_t m = rnd() & (1U | 1U << MEAS_CLASS_IO | 1U << MEAS_CLASS_PROC);

	if (rnd() % 8 == 0)
		m |= 1U << (1 + rnd() % 13);
	return m ? m : 1;
}

static void worker_cycle(void)
{
	uint64_t buf[64];
	struct meas_start s = { .size = sizeof(s) };
	struct meas_get g = { .size = sizeof(g) };
	struct meas_procstats p = { .size = sizeof(p) };
	struct meas_io_record rec[4];
	struct meas_iotrace_read t = { .size = sizeof(t) };
	struct meas_info info = { .size = sizeof(info) };
	int fd = open(MEAS_DEVICE, O_RDWR | O_CLOEXEC);

	check(OP_OPEN, fd);
	if (fd < 0)
		return;
	s.classmask = random_mask();
	check(OP_START, ioctl(fd, MEAS_IOC_START, &s));
	g.class = rnd() % 3 ? 0 : rnd() % MEAS_NR_CLASSES;
	g.subclass = rnd() % 5;
	g.startingitem = (int64_t)(rnd() % 8) - 3;
	g.wordcount = rnd() % 64;
	g.buf = (uintptr_t)buf;
	g.buflen = sizeof(buf);
	g.flags = rnd() % 4 ? 0 : MEAS_GET_FAST;
	check(OP_GET, ioctl(fd, MEAS_IOC_GET, &g));
	if (s.classmask & 1U << MEAS_CLASS_PROC) {
		p.wordcount = 16;
		p.buf = (uintptr_t)buf;
		p.buflen = sizeof(buf);
		p.pin = rnd() % 2 ? 0 : getpid();
		check(OP_PROCSTATS, ioctl(fd, MEAS_IOC_GETPROCSTATS, &p));
	}
	if (s.classmask & 1U << MEAS_CLASS_IO) {
		t.buf = (uintptr_t)rec;
		t.buflen = sizeof(rec);
		check(OP_IOTRACE, ioctl(fd, MEAS_IOC_IOTRACE_READ, &t));
	}
	check(OP_INFO, ioctl(fd, MEAS_IOC_INFO, &info));
	/* half the time the release does the stopping */
	if (rnd() % 2)
		check(OP_STOP, ioctl(fd, MEAS_IOC_STOP, &s));
	close(fd);
	add(&tally->cycles, 1);
}

static void __attribute__((noreturn)) worker(void)
{
	for (;;)
		worker_cycle();
}

/* Keeps classes 0, 14 and 15 enabled until it is killed. */
static void __attribute__((noreturn)) holder(void)
{
	struct meas_start s = {
		.size = sizeof(s),
		.classmask = 1U | 1U << MEAS_CLASS_IO | 1U << MEAS_CLASS_PROC,
	};
	int fd = open(MEAS_DEVICE, O_RDWR | O_CLOEXEC);

	check(OP_OPEN, fd);
	check(OP_START, ioctl(fd, MEAS_IOC_START, &s));
	for (;;)
		pause();
}

static void __attribute__((noreturn)) forker(void)
{
	pid_t pid;

	for (;;) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		add(&tally->forks, 1);
	}
}

static void __attribute__((noreturn)) io_worker(const char *disk)
{
	int fd = open(disk, O_RDWR | O_DIRECT);
	void *buf;

	if (fd < 0 || posix_memalign(&buf, DIRECT_IO_BS, DIRECT_IO_BS))
		_exit(1);
	memset(buf, 0x3c, DIRECT_IO_BS);
	for (;;) {
		off_t off = (off_t)(rnd() % (DISK_BLOCKS)) * DIRECT_IO_BS;
		ssize_t n = rnd() % 2 ? pread(fd, buf, DIRECT_IO_BS, off) :
					pwrite(fd, buf, DIRECT_IO_BS, off);

		add(n == DIRECT_IO_BS ? &tally->ios : &tally->io_errors, 1);
	}
}

/* Kill -9 the holders of measctl start recorded in @dir. */
static void kill_holders(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int pid;

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "holder.", 7))
			continue;
		pid = atoi(de->d_name + 7);
		if (pid > 0 && !kill(pid, SIGKILL))
			add(&tally->measctl_kills, 1);
		unlinkat(dirfd(d), de->d_name, 0);
	}
	if (d)
		closedir(d);
}

/*
 * measctl start 0,15 and kill -9 of its holder, until told to stop.  The
 * holders detach; the supervisor, a child subreaper, reaps them.
 */
static void __attribute__((noreturn)) measctl_stormer(void)
{
	const char *measctl = getenv("MEAS_MEASCTL");
	char dir[64], cmd[PATH_MAX + 64];

	if (!measctl || !*measctl)
		measctl = "tools/measctl/measctl";
	if (access(measctl, X_OK))
		_exit(0);
	snprintf(dir, sizeof(dir), "/tmp/meas-stress.%d", getpid());
	setenv("MEAS_RUNDIR", dir, 1);
	snprintf(cmd, sizeof(cmd), "%s start 0,15 >/dev/null 2>&1", measctl);
	while (!__atomic_load_n(&tally->stop, __ATOMIC_RELAXED)) {
		if (system(cmd) == 0)
			add(&tally->measctl_starts, 1);
		kill_holders(dir);
	}
	kill_holders(dir);
	rmdir(dir);
	_exit(0);
}

static pid_t spawn(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		rng ^= (uint64_t)getpid() << 32 | (uint32_t)mono_ns();
		fn();
	}
	return pid;
}

/* Reap @pid, killed by the storm or at the end: anything else is odd. */
static void reap(pid_t pid)
{
	int status;

	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return;
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
		add(&tally->odd_deaths, 1);
		tally->odd_status = status;
	}
}

/* delete_module as rmmod calls it: refused while a file is open. */
static void try_rmmod(void)
{
	if (syscall(SYS_delete_module, "meas", O_NONBLOCK) == 0) {
		tally->rmmod_done++;
		return;
	}
	if (errno == EAGAIN || errno == EBUSY) {
		tally->rmmod_refused++;
		return;
	}
	tally->rmmod_bad++;
	tally->rmmod_errno = errno;
}

static long env_long(const char *name, long def, long min, long max)
{
	const char *s = getenv(name);
	long v = s && *s ? strtol(s, NULL, 0) : def;

	return v < min ? min : v > max ? max : v;
}

static bool have_disk(void)
{
	struct stat st;

	return !stat(DISK, &st) && S_ISBLK(st.st_mode);
}

FIXTURE(stress) {
	int fd;
};

FIXTURE_SETUP(stress)
{
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	set_param("fail_start", "0");
	try_set_param("fail_io", "0");
}

FIXTURE_TEARDOWN(stress)
{
	close(self->fd);
}

/*
 * The storm.  The supervisor (this process) keeps self->fd open, so every
 * unload attempt must be refused.
 */
TEST_F_TIMEOUT(stress, storm, 1800)
{
	long secs = env_long("MEAS_STRESS_SECONDS", 10, 1, 1200);
	long nworkers = env_long("MEAS_STRESS_WORKERS", 32, 1, MAX_WORKERS);
	pid_t kids[MAX_WORKERS + HOLDERS], forkpid, stormer;
	pid_t io[IO_PROCS] = { 0 };
	long nkids = nworkers + HOLDERS, i, op;
	bool disk = have_disk();
	double end;

	tally = mmap(NULL, sizeof(*tally), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, tally);
	rng = mono_ns() | 1;
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	stormer = spawn(measctl_stormer);
	for (i = 0; i < nkids; i++)
		kids[i] = spawn(i < nworkers ? worker : holder);
	forkpid = spawn(forker);
	for (i = 0; disk && i < IO_PROCS; i++) {
		io[i] = fork();
		if (io[i] == 0) {
			rng ^= (uint64_t)getpid() << 32;
			io_worker(DISK);
		}
	}
	if (!disk)
		TH_LOG("no %s: no I/O workload", DISK);

	end = now_s() + secs;
	while (now_s() < end) {
		i = rnd() % nkids;
		usleep(5000 + rnd() % 20000);
		if (kids[i] > 0 && !kill(kids[i], SIGKILL)) {
			tally->kills++;
			reap(kids[i]);
		}
		kids[i] = spawn(i < nworkers ? worker : holder);
		if (rnd() % 8 == 0)
			try_rmmod();
	}
	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	kill(forkpid, SIGKILL);
	for (i = 0; i < IO_PROCS; i++)
		if (io[i] > 0)
			kill(io[i], SIGKILL);
	for (i = 0; i < nkids; i++)
		reap(kids[i]);
	reap(forkpid);
	for (i = 0; i < IO_PROCS; i++)
		reap(io[i]);
	tally->stop = 1;
	EXPECT_EQ(stormer, waitpid(stormer, NULL, 0));
	/* the holders of measctl, orphaned to us */
	while (waitpid(-1, NULL, 0) > 0)
		;

	TH_LOG("%ld s, %ld workers: %ld cycles, %ld kills, %ld forks, %ld I/Os (%ld failed), rmmod refused %ld",
	       secs, nworkers, tally->cycles, tally->kills, tally->forks,
	       tally->ios, tally->io_errors, tally->rmmod_refused);
	TH_LOG("measctl start: %ld, its holders killed: %ld",
	       tally->measctl_starts, tally->measctl_kills);
	for (op = 0; op < NR_OPS; op++)
		TH_LOG("%-13s %9ld calls %9ld failed", op_name[op],
		       tally->calls[op], tally->errors[op]);
	EXPECT_EQ(0, tally->undocumented)
		TH_LOG("%s: errno %d (%s)", op_name[tally->bad_op],
		       tally->bad_errno, strerror(tally->bad_errno));
	EXPECT_EQ(0, tally->rmmod_done);
	EXPECT_EQ(0, tally->rmmod_bad) TH_LOG("rmmod: errno %d", tally->rmmod_errno);
	EXPECT_EQ(0, tally->odd_deaths) TH_LOG("wait status 0x%x", tally->odd_status);
	EXPECT_LT(0, tally->cycles);
	EXPECT_LT(0, tally->kills);
	EXPECT_LT(0, tally->forks);
	if (disk) {
		EXPECT_LT(0, tally->ios);
		EXPECT_EQ(0, tally->io_errors);
	}
	/* one sure attempt, with every worker gone but our file open */
	try_rmmod();
	EXPECT_EQ(0, tally->rmmod_done);
	EXPECT_LT(0, tally->rmmod_refused);
	munmap(tally, sizeof(*tally));
}

/* Every enabler is gone: nothing enabled, no region, no probe. */
TEST_F(stress, nothing_left)
{
	struct meas_info in = info_of(self->fd);
	char line[64] = "";
	FILE *f;
	int c;

	EXPECT_EQ(0, in.global_mask);
	EXPECT_EQ(0, in.file_mask);
	EXPECT_EQ(0, in.probes);
	for (c = 0; c < MEAS_NR_CLASSES; c++) {
		EXPECT_EQ(0, in.enablers[c]) TH_LOG("class %d", c);
		EXPECT_EQ(0, in.region_bytes[c]) TH_LOG("class %d", c);
	}
	/* the module references of the files closed by the kills are back */
	f = fopen("/sys/module/meas/refcnt", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	fclose(f);
	EXPECT_EQ(1, atoi(line)) TH_LOG("refcnt %s with one file open", line);
}

/* Class 0's switches still add up to /proc/stat's context switches. */
/* the KCSAN kernel took more than the harness's 30 s for 20000 trips */
TEST_F_TIMEOUT(stress, launches_agree_with_ctxt, 180)
{
	struct c0_switches s;
	const int n = pingpong_trips();
	int rc;

	ASSERT_EQ(0, meas_start(self->fd, 1, &rc));
	ASSERT_EQ(0, c0_switches_over_pingpong(self->fd, n, &s));
	TH_LOG("launches %llu idle pauses %llu ctxt %llu",
	       (unsigned long long)s.launches, (unsigned long long)s.idles,
	       (unsigned long long)s.ctxt);
	EXPECT_LE(2ULL * n, s.launches);
	/* as meas_test's launches_follow_pingpong_and_ctxt */
	EXPECT_LE(s.launches + s.idles, s.ctxt);
	EXPECT_GE(s.ctxt / 100, s.ctxt - (s.launches + s.idles));
}

/* Subclass 4 item @item of the entry of @dev, or ~0 when it has none. */
static uint64_t xfer_item(int fd, uint64_t dev, int item)
{
	struct meas_header h;
	uint64_t *v, r = ~0ULL;
	size_t n, e, base;
	int rc;

	if (meas_get_subclass(fd, 0, MEAS_C0_SUB_XFER, &h, &v, &n, &rc))
		return r;
	for (e = 1; e < h.entries; e++) {
		base = h.ent0size - MEAS_HEADER_WORDS + (e - 1) * h.entsize;
		if (base + h.entsize <= n && v[base + MEAS_C0_XFER_DEV] == dev)
			r = v[base + item];
	}
	free(v);
	return r;
}

/* Reads and writes on the disk agree exactly with /proc/diskstats. */
TEST_F(stress, disk_counts_agree_with_diskstats)
{
	const int N = 48, M = 24;
	struct dstats a, b;
	uint64_t r0, w0, rb0, wb0, dev;
	struct stat st;
	int rc;

	if (!have_disk())
		SKIP(return, "no %s", DISK);
	ASSERT_EQ(0, stat(DISK, &st));
	dev = MEAS_DEV(major(st.st_rdev), minor(st.st_rdev));
	ASSERT_EQ(0, meas_start(self->fd, 1, &rc));
	/* a disk meas has not seen since the start gets its entry now */
	ASSERT_EQ(0, do_io(DISK, 1, 0, 0, 0));
	ASSERT_EQ(0, diskstats("nullb0", &a));
	r0 = xfer_item(self->fd, dev, MEAS_C0_XFER_READS);
	w0 = xfer_item(self->fd, dev, MEAS_C0_XFER_WRITES);
	rb0 = xfer_item(self->fd, dev, MEAS_C0_XFER_READ_BYTES);
	wb0 = xfer_item(self->fd, dev, MEAS_C0_XFER_WRITE_BYTES);
	ASSERT_NE(~0ULL, r0);
	ASSERT_EQ(0, do_io(DISK, N, M, 0, 64));
	ASSERT_EQ(0, diskstats("nullb0", &b));
	EXPECT_EQ(N, b.rd - a.rd);
	EXPECT_EQ(M, b.wr - a.wr);
	EXPECT_EQ(b.rd - a.rd, xfer_item(self->fd, dev, MEAS_C0_XFER_READS) - r0);
	EXPECT_EQ(b.wr - a.wr, xfer_item(self->fd, dev, MEAS_C0_XFER_WRITES) - w0);
	EXPECT_EQ((b.rd_sect - a.rd_sect) * 512,
		  xfer_item(self->fd, dev, MEAS_C0_XFER_READ_BYTES) - rb0);
	EXPECT_EQ((b.wr_sect - a.wr_sect) * 512,
		  xfer_item(self->fd, dev, MEAS_C0_XFER_WRITE_BYTES) - wb0);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * The adversary (Documentation/security.rst): one unprivileged member of
 * group meas, U1, tries everything at once, in parallel, for a bounded
 * number of attempts, while another user, U2, does I/O and forks:
 *
 *  - exec: it measures a child of its own that executes a set-user-ID
 *    program at once, racing the START;
 *  - dump: it dumps class 15 over netlink;
 *  - ring: it reads class 14's ring while U2's I/O overwrites it, and
 *    its own I/O adds records of its own;
 *  - pids: it measures short-lived children of its own while PIDs are
 *    recycled fast (pid_max made small), U2's forks taking them too;
 *  - reuse: short-lived children of its own, each taking a PID U2's
 *    short-lived readers had, read class 14's ring: they may see their
 *    own reads only, none of the PID's earlier owner;
 *  - flood: it floods GETs by PID of a process of its own that each
 *    lookup finds in its exit window (the test build's
 *    proc_settle_race) while it times requests to nlctrl, another
 *    generic netlink family: those must not wait for meas;
 *  - stall: it measures a process of its own into a file on a FUSE
 *    mount (stallfs) that then stops answering writes, and lets the
 *    /dev/meas file that owns the measurement go in flight on a unix
 *    socket, for the garbage collector to release; a pipe end released
 *    the same way after it must still be released within the bound.
 *
 * Nothing of another user's process may reach it.  Each worker counts
 * its attempts and what leaked; the test prints them and fails on any
 * leak.  Bounded by ADV_SECONDS (30 s) whatever the machine's speed;
 * MEAS_ADVERSARY_SECONDS (1 to 30) makes it shorter, as the matrix's
 * full lanes do (the same attempts, fewer of them).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/meas.h>

#include "kselftest_harness.h"
#include "common.h"
#include "genlraw.h"
#include "seclib.h"
#include "tasklib.h"

#define ADV_SECONDS	30	/* each worker stops after this, at most */
#define SETTLE_PARAM	"/sys/module/meas/parameters/proc_settle_race"

/* What a worker did and saw, in shared memory. */
struct tally {
	long attempts;
	long seen;	/* records, objects or entries it was given */
	long leaks;	/* of them, another process's */
	long errors;	/* calls that failed in a way they may not */
	long timed;	/* flood: requests to nlctrl timed */
	long slow;	/* flood: of them, FLOOD_SLOW_MS or slower */
	long max_ms;	/* flood: the slowest */
	long median_ms;	/* flood: their median */
	long get_ms;	/* flood: the GETs' time, all together */
};

enum { W_EXEC, W_DUMP, W_RING, W_PIDS, W_REUSE, W_FLOOD, W_STALL, W_N };
static const char *const w_name[W_N] = {
	"exec", "dump", "ring", "pids", "reuse", "flood", "stall",
};

static struct tally *tally;
static char dir[] = "/tmp/meas-adv-XXXXXX";
static char suid_dir[64], suid_prog[96], stall_mnt[64];
static double deadline;

/* MEAS_ADVERSARY_SECONDS (1 to ADV_SECONDS), else ADV_SECONDS; -1 if
 * it is set to anything else, which fails the test rather than run
 * another length than asked
 */
static int adv_seconds(void)
{
	const char *v = getenv("MEAS_ADVERSARY_SECONDS");
	char *end;
	long s;

	if (!v || !*v)
		return ADV_SECONDS;
	s = strtol(v, &end, 10);
	return *end || s < 1 || s > ADV_SECONDS ? -1 : s;
}

static int time_left(void)
{
	return now_s() < deadline;
}

/* ---- exec: START racing a set-user-ID exec ------------------------------ */

static int exec_suid(void *arg __attribute__((unused)))
{
	execl(suid_prog, "sleep", "0", (char *)NULL);
	return 93;
}

static void w_exec(int fd, struct tally *t)
{
	struct meas_task_start k;
	char path[128];
	struct tfile f;
	int go, st, rc;
	pid_t pid;

	while (t->attempts < 60 && time_left()) {
		snprintf(path, sizeof(path), "%s/exec.%ld", dir, t->attempts);
		pid = spawn(exec_suid, NULL, &go);
		/* the child execs as soon as it is told; START races it */
		if (write(go, "g", 1) != 1)
			t->errors++;
		close(go);
		rc = tstart(fd, pid, 1, MEAS_TASK_SVC, MEAS_TASK_LOAD_DETAILED,
			    path, &k);
		waitpid(pid, &st, 0);
		t->attempts++;
		if (rc && rc != -EPERM && rc != -ESRCH)
			t->errors++;
		if (rc)
			continue;
		f = twait_end(path, 0);
		t->seen += tcount(&f, 0, MEAS_TREC_OBJECT) +
			   tcount(&f, 0, MEAS_TREC_SVC);
		/* nothing of the set-user-ID program: not its file, no exec */
		t->leaks += tobject(&f, 0, MEAS_TREC_OBJECT, "suid/sleep") != NULL;
		t->leaks += tobject(&f, 0, MEAS_TREC_MAP, "suid/sleep") != NULL;
		t->leaks += tcount(&f, 0, MEAS_TREC_EXEC);
		free(f.buf);
		unlink(path);
	}
}

/* ---- dump: class 15 over netlink ---------------------------------------- */

static void w_dump(struct tally *t)
{
	static char buf[32768];
	const struct meas_proc_rec *rec;
	const struct nlmsghdr *nh;
	const struct nlattr *a;
	char msg[64] = { 0 };
	struct nlmsghdr *req = (struct nlmsghdr *)msg;
	struct genlmsghdr *g = NLMSG_DATA(req);
	uint16_t family;
	uint32_t exits;
	int s = nl_socket(0), done, rem;
	ssize_t n;

	if (s < 0 || genl_resolve(s, &family, &exits)) {
		t->errors++;
		return;
	}
	while (t->attempts < 400 && time_left()) {
		g->cmd = MEAS_CMD_GET;
		g->version = MEAS_GENL_VERSION;
		req->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
		req->nlmsg_type = family;
		req->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req->nlmsg_seq = ++genl_seq;
		if (send(s, msg, req->nlmsg_len, 0) < 0) {
			t->errors++;
			break;
		}
		t->attempts++;
		for (done = 0; !done && (n = recv(s, buf, sizeof(buf), 0)) > 0;) {
			for (nh = (const void *)buf; NLMSG_OK(nh, n);
			     nh = NLMSG_NEXT(nh, n)) {
				if (nh->nlmsg_type == NLMSG_DONE ||
				    nh->nlmsg_type == NLMSG_ERROR) {
					done = 1;
					continue;
				}
				rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
				a = (const void *)((const char *)NLMSG_DATA(nh) +
						   GENL_HDRLEN);
				for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
				       a->nla_len <= rem;
				     rem -= NLA_ALIGN(a->nla_len),
				     a = (const void *)((const char *)a +
							NLA_ALIGN(a->nla_len))) {
					if (a->nla_type != MEAS_A_RECORD)
						continue;
					rec = (const void *)((const char *)a +
							     NLA_HDRLEN);
					t->seen++;
					t->leaks += rec->item[MEAS_P_UID] != U1 ||
						    rec->item[MEAS_P_EUID] != U1 ||
						    rec->item[MEAS_P_SUID] != U1;
				}
			}
		}
	}
	close(s);
}

/* ---- ring: class 14 while another user overwrites it -------------------- */

static void w_ring(int fd, int blk, struct tally *t)
{
	uint64_t parts, cap, first, *v;
	const struct meas_io_record *r;
	void *io;
	int rc;
	uint64_t i;

	if (meas_get(fd, MEAS_CLASS_IO, 0, MEAS_IO_H_PARTS, 1, &parts,
		     sizeof(parts), &rc) ||
	    meas_get(fd, MEAS_CLASS_IO, 0, MEAS_IO_H_CAPACITY, 1, &cap,
		     sizeof(cap), &rc) ||
	    posix_memalign(&io, DIRECT_IO_BS, DIRECT_IO_BS)) {
		t->errors++;
		return;
	}
	first = MEAS_IO_H_PART0 + parts * MEAS_IO_PART_WORDS;
	v = calloc(cap * MEAS_IO_RECORD_WORDS, sizeof(*v));
	while (v && t->attempts < 400 && time_left()) {
		/* some records of its own too */
		if (pread(blk, io, DIRECT_IO_BS, 0) != DIRECT_IO_BS)
			t->errors++;
		if (meas_get(fd, MEAS_CLASS_IO, 0, first,
			     cap * MEAS_IO_RECORD_WORDS, v,
			     cap * MEAS_IO_RECORD_WORDS * sizeof(*v), &rc)) {
			t->errors++;
			break;
		}
		t->attempts++;
		for (i = 0; i < cap; i++) {
			r = (const void *)&v[i * MEAS_IO_RECORD_WORDS];
			if (!r->tgid)
				continue;
			t->seen++;
			t->leaks += r->tgid != getpid();
		}
	}
	free(v);
	free(io);
}

/* ---- pids: measurements of short-lived children, PIDs recycled ----------- */

static int getppid_loop(void *arg __attribute__((unused)))
{
	int i;

	for (i = 0; i < 50; i++)
		syscall(SYS_getppid);
	return 0;
}

static int no_getppid(void *arg __attribute__((unused)))
{
	return 0;
}

static void w_pids(int fd, struct tally *t)
{
	struct meas_task_start k;
	char path[128];
	struct tfile f;
	int go, st, i;
	pid_t pid, c;

	while (t->attempts < 60 && time_left()) {
		snprintf(path, sizeof(path), "%s/pids.%ld", dir, t->attempts);
		pid = spawn(no_getppid, NULL, &go);
		if (tstart(fd, pid, 0, MEAS_TASK_SVC, 0, path, &k)) {
			t->errors++;
			close(go);
			waitpid(pid, &st, 0);
			continue;
		}
		release_and_wait(pid, go);
		/* forks that may get its PID before its measurement ends */
		for (i = 0; i < 20; i++) {
			c = fork();
			if (!c)
				_exit(getppid_loop(NULL));
			waitpid(c, &st, 0);
		}
		t->attempts++;
		f = twait_end(path, 0);
		t->seen += tcount(&f, 0, MEAS_TREC_SVC);
		/* it made no getppid: any in its file are another process's */
		t->leaks += tsvc(&f, 0, SYS_getppid);
		free(f.buf);
		unlink(path);
	}
}

/* ---- reuse: PIDs of U2's exited readers, then class 14 ------------------ */

#define REUSE_BLOCK	64	/* U1's children read from here; U2 at 0 */
#define REUSE_SPREAD	256	/* each child its own block of these */

/*
 * A child of U1's: one read of block @b, then the whole ring.  Every
 * record it is given is counted; one of another TGID, or of its TGID
 * but another block (the PID's earlier owner, U2's or U1's), leaks.
 */
static void reuse_child(int fd, int blk, uint64_t b, struct tally *t)
{
	uint64_t parts, cap, first, i, *v;
	const struct meas_io_record *r;
	void *io;
	int rc;

	if (meas_get(fd, MEAS_CLASS_IO, 0, MEAS_IO_H_PARTS, 1, &parts,
		     sizeof(parts), &rc) ||
	    meas_get(fd, MEAS_CLASS_IO, 0, MEAS_IO_H_CAPACITY, 1, &cap,
		     sizeof(cap), &rc) ||
	    posix_memalign(&io, DIRECT_IO_BS, DIRECT_IO_BS))
		_exit(1);
	first = MEAS_IO_H_PART0 + parts * MEAS_IO_PART_WORDS;
	v = calloc(cap * MEAS_IO_RECORD_WORDS, sizeof(*v));
	if (!v || pread(blk, io, DIRECT_IO_BS, b * DIRECT_IO_BS) !=
		  DIRECT_IO_BS ||
	    meas_get(fd, MEAS_CLASS_IO, 0, first, cap * MEAS_IO_RECORD_WORDS,
		     v, cap * MEAS_IO_RECORD_WORDS * sizeof(*v), &rc))
		_exit(2);
	for (i = 0; i < cap; i++) {
		r = (const void *)&v[i * MEAS_IO_RECORD_WORDS];
		if (!r->tgid)
			continue;
		t->seen++;
		t->leaks += r->tgid != getpid() ||
			    r->sector / (DIRECT_IO_BS / 512) != b;
	}
	_exit(0);
}

static void w_reuse(int fd, int blk, struct tally *t)
{
	pid_t c;
	int st;

	while (t->attempts < 300 && time_left()) {
		c = fork();
		if (!c)
			reuse_child(fd, blk, REUSE_BLOCK +
				    t->attempts % REUSE_SPREAD, t);
		waitpid(c, &st, 0);
		t->attempts++;
		t->errors += !WIFEXITED(st) || WEXITSTATUS(st);
	}
}

/* ---- flood: GETs of a settling process, another family timed ----------- */

#define FLOOD_SLOW_MS	50	/* a request of nlctrl takes a few ms */
#define FLOOD_TIMED	200	/* requests to nlctrl timed at most */

/* GETs of @pid, each awaited, until @stop's end closes or time is up. */
static void flood_gets(pid_t pid, int stop, struct tally *t)
{
	struct pollfd pf = { .fd = stop, .events = POLLIN };
	uint16_t family;
	uint32_t exits;
	char buf[4096];
	int s = nl_socket(0);

	if (s < 0 || genl_resolve(s, &family, &exits))
		_exit(1);
	while (!poll(&pf, 1, 0) && time_left() && t->attempts < 100000) {
		double t0 = now_s();

		if (genl_get(s, family, pid) || recv(s, buf, sizeof(buf), 0) < 0)
			_exit(2);
		t->get_ms += (long)((now_s() - t0) * 1000);
		t->attempts++;
	}
	_exit(0);
}

static void w_flood(struct tally *t)
{
	long all[FLOOD_TIMED];
	int stop[2], s, st, i;
	uint16_t family;
	uint32_t exits;
	pid_t p, f;
	double t0;

	p = fork();
	if (!p)
		for (;;)
			pause();
	if (pipe(stop))
		t->errors++;
	f = fork();
	if (!f) {
		close(stop[1]);
		flood_gets(p, stop[0], t);
	}
	close(stop[0]);
	s = nl_socket(0);
	while (s >= 0 && t->timed < FLOOD_TIMED && time_left()) {
		t0 = now_s();
		if (genl_resolve(s, &family, &exits))
			t->errors++;
		all[t->timed++] = (long)((now_s() - t0) * 1000);
		usleep(50000);
	}
	close(s);
	close(stop[1]);
	waitpid(f, &st, 0);
	t->errors += !WIFEXITED(st) || WEXITSTATUS(st);
	kill(p, SIGKILL);
	waitpid(p, &st, 0);
	if (!t->timed)
		return;
	/* the figures the test prints and judges, from the sorted times */
	sort_longs(all, t->timed);
	t->median_ms = all[t->timed / 2];
	t->max_ms = all[t->timed - 1];
	for (i = 0; i < t->timed; i++)
		t->slow += all[i] >= FLOOD_SLOW_MS;
}

/* ---- stall: a task file on a stalled mount, its owner closed in flight --- */

#define STALL_BOUND_MS	15000	/* a deferred close, at worst, under TCG */

static int stall_svc(void *arg __attribute__((unused)))
{
	double end = now_s() + 10;

	while (now_s() < end)
		syscall(SYS_getppid);
	return 0;
}

/* One measurement into a file on stallfs, stalled, released in flight. */
static void stall_once(struct tally *t)
{
	struct meas_task_start k;
	int fd, go = -1, st, pp[2];
	char path[128];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/stall.%ld", stall_mnt, t->attempts);
	fd = open(MEAS_DEVICE, O_RDWR);
	pid = spawn(stall_svc, NULL, &go);
	if (fd < 0 || pid < 0 || pipe(pp) ||
	    tstart(fd, pid, 0, MEAS_TASK_SVC | MEAS_TASK_OWNED,
		   MEAS_TASK_LOAD_STD, path, &k) ||
	    write(go, "g", 1) != 1) {
		t->errors++;
		return;
	}
	usleep(300000);
	t->errors += !!fuse_ctl(".stall");
	usleep(500000);		/* the writer is in a write never answered */
	in_flight_close(fd);
	in_flight_close(pp[1]);
	t->attempts++;
	t->seen++;
	t->leaks += !!eof_within(pp[0], STALL_BOUND_MS);
	close(pp[0]);
	t->errors += !!fuse_ctl(".resume");
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(go);
}

static void w_stall(struct tally *t)
{
	while (t->attempts < 2 && !t->errors && time_left())
		stall_once(t);
}

/* ---- another user: I/O and forks ---------------------------------------- */

static pid_t victim(int blk)
{
	pid_t pid = fork();
	void *io;
	int st;

	if (pid)
		return pid;
	if (become_member(U2, U2) || posix_memalign(&io, DIRECT_IO_BS,
						      DIRECT_IO_BS))
		_exit(1);
	prctl(PR_SET_DUMPABLE, 1);
	while (time_left()) {
		if (pread(blk, io, DIRECT_IO_BS, 0) != DIRECT_IO_BS)
			_exit(2);
		/* a short-lived reader: its PID comes round to U1 */
		if (!fork()) {
			if (pread(blk, io, DIRECT_IO_BS, 0) != DIRECT_IO_BS)
				_exit(2);
			_exit(getppid_loop(NULL));
		}
		wait(&st);
	}
	_exit(0);
}

/* ---- the test -------------------------------------------------------------- */

static pid_t worker(int w, int fd, int blk)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (become_member(U1, U1))
		_exit(1);
	prctl(PR_SET_DUMPABLE, 1);
	switch (w) {
	case W_EXEC:
		w_exec(fd, &tally[w]);
		break;
	case W_DUMP:
		w_dump(&tally[w]);
		break;
	case W_RING:
		w_ring(fd, blk, &tally[w]);
		break;
	case W_PIDS:
		w_pids(fd, &tally[w]);
		break;
	case W_REUSE:
		w_reuse(fd, blk, &tally[w]);
		break;
	case W_FLOOD:
		w_flood(&tally[w]);
		break;
	case W_STALL:
		w_stall(&tally[w]);
		break;
	}
	_exit(0);
}

FIXTURE(adversary) {
	int unused;
};

FIXTURE_SETUP(adversary)
{
}

FIXTURE_TEARDOWN(adversary)
{
}

/* ADV_SECONDS of attempts, then the END records they wait for */
TEST_F_TIMEOUT(adversary, one_user_tries_everything, ADV_SECONDS + 60)
{
	char pid_max[32] = "", cmd[96];
	pid_t pids[W_N], v;
	int fd, blk, w, st, leaks = 0, f, secs;

	secs = adv_seconds();
	ASSERT_LT(0, secs) TH_LOG("MEAS_ADVERSARY_SECONDS: 1 to %d", ADV_SECONDS);
	printf("# adversary: %d s of attempts\n", secs);
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	tally = mmap(NULL, sizeof(*tally) * W_N, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, tally);
	ASSERT_NE(NULL, mkdtemp(dir));
	chmod(dir, 0777);
	snprintf(suid_dir, sizeof(suid_dir), "%s/suid", dir);
	ASSERT_EQ(0, mkdir(suid_dir, 0755));
	ASSERT_EQ(0, mount("none", suid_dir, "tmpfs", 0, "mode=0755"));
	snprintf(suid_prog, sizeof(suid_prog), "%s/sleep", suid_dir);
	ASSERT_EQ(0, copy_file("/bin/sleep", suid_prog, 04755));
	snprintf(stall_mnt, sizeof(stall_mnt), "%s/fuse", dir);
	ASSERT_EQ(0, mkdir(stall_mnt, 0755));
	ASSERT_EQ(0, fuse_start(stall_mnt));
	fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_PROC |
				    1U << MEAS_CLASS_IO, NULL));
	blk = open("/dev/nullb0", O_RDONLY | O_DIRECT);
	ASSERT_LE(0, blk);
	/* PIDs come round fast: every few hundred forks */
	f = open("/proc/sys/kernel/pid_max", O_RDONLY);
	ASSERT_LT(0, read(f, pid_max, sizeof(pid_max) - 1));
	close(f);
	ASSERT_EQ(0, write_file("/proc/sys/kernel/pid_max", "1024"));
	/* every GET by PID finds its process in the exit window */
	ASSERT_EQ(0, write_file(SETTLE_PARAM, "1"));
	deadline = now_s() + secs;
	v = victim(blk);
	for (w = 0; w < W_N; w++)
		pids[w] = worker(w, fd, blk);
	for (w = 0; w < W_N; w++) {
		waitpid(pids[w], &st, 0);
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	}
	waitpid(v, &st, 0);
	write_file(SETTLE_PARAM, "0");
	write_file("/proc/sys/kernel/pid_max", pid_max);
	for (w = 0; w < W_N; w++) {
		printf("# adversary %s: %ld attempts, %ld things seen, %ld of another user, %ld errors\n",
		       w_name[w], tally[w].attempts, tally[w].seen,
		       tally[w].leaks, tally[w].errors);
		EXPECT_LT(0, tally[w].attempts);
		EXPECT_EQ(0, tally[w].errors);
		leaks += tally[w].leaks;
	}
	printf("# adversary flood: nlctrl %ld requests during %ld GETs of %ld ms on average, median %ld ms, %ld of them %d ms or slower, the slowest %ld ms\n",
	       tally[W_FLOOD].timed, tally[W_FLOOD].attempts,
	       tally[W_FLOOD].attempts ?
	       tally[W_FLOOD].get_ms / tally[W_FLOOD].attempts : 0,
	       tally[W_FLOOD].median_ms, tally[W_FLOOD].slow, FLOOD_SLOW_MS,
	       tally[W_FLOOD].max_ms);
	EXPECT_EQ(0, leaks);
	/*
	 * Measured against the GETs themselves, not a fixed time: the six
	 * other workers load the guest, a debug kernel is slower still
	 * (half the requests took 50 ms or more there, the slowest 294 ms),
	 * while each GET settles for seconds under TCG.  A request that
	 * waited for meas would wait for the rest of a GET in progress,
	 * half of one in the median; load alone leaves the median far
	 * below a quarter of one.
	 */
	EXPECT_LT(0, tally[W_FLOOD].timed);
	EXPECT_LT(0, tally[W_FLOOD].attempts);
	if (tally[W_FLOOD].attempts) {
		EXPECT_LT(tally[W_FLOOD].median_ms * 4,
			  tally[W_FLOOD].get_ms / tally[W_FLOOD].attempts);
	}
	printf("# adversary stall: %ld owners released in flight with their writer stuck, %ld deferred closes not done within %d ms\n",
	       tally[W_STALL].seen, tally[W_STALL].leaks, STALL_BOUND_MS);
	close(blk);
	meas_stop(fd, 1U << MEAS_CLASS_PROC | 1U << MEAS_CLASS_IO, NULL);
	close(fd);
	umount(suid_dir);
	fuse_stop();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
	null_blk_unload();
}

TEST_HARNESS_MAIN

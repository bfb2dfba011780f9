// SPDX-License-Identifier: GPL-2.0
/*
 * The security model in the VM (Documentation/security.rst): one test for
 * each rule an independent review found broken (issue 27), each showing
 * that a user learns nothing ptrace would refuse it, under the race that
 * broke the rule.  Races are forced with the test build's windows
 * (module/core/inject.c), never hoped for.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <grp.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/userfaultfd.h>
#include <linux/meas.h>

#include "kselftest_harness.h"
#include "common.h"
#include "genlraw.h"
#include "seclib.h"
#include "tasklib.h"

/* ---- 1: a set-user-ID exec between TASK_START's check and its publication */

static char suid_dir[96], suid_sleep[128];

static int exec_suid(void *arg __attribute__((unused)))
{
	execl(suid_sleep, "sleep", "1", (char *)NULL);
	return 93;
}

struct race_arg {
	int fd;
	pid_t pid;
	const char *path;
	struct meas_task_start k;
	int rc;
};

static void *race_start_thread(void *p)
{
	struct race_arg *a = p;

	a->rc = tstart(a->fd, a->pid, 1, MEAS_TASK_SVC,
		       MEAS_TASK_LOAD_DETAILED, a->path, &a->k);
	return NULL;
}

/*
 * As user U1: START of its own child, which executes a set-user-ID
 * program while the start waits in its window; 0 when both are over.
 */
static int race_start(void *p)
{
	struct race_arg a = { .path = p };
	pthread_t th;
	int go = -1, st;

	a.fd = open(MEAS_DEVICE, O_RDWR);
	a.pid = spawn(exec_suid, NULL, &go);
	if (a.fd < 0 || a.pid < 0 ||
	    pthread_create(&th, NULL, race_start_thread, &a))
		return 1;
	/* the start passed its check: now the exec */
	if (param_wait("task_race", 2))
		return 2;
	if (write(go, "g", 1) != 1)
		return 3;
	pthread_join(th, NULL);
	waitpid(a.pid, &st, 0);
	/* refused (it saw the new program), or measured until the exec */
	if (a.rc && a.k.result != MEAS_TASK_NOTALLOWED)
		return 4;
	return a.rc ? 10 : 0;
}

TEST(task_start_races_setuid_exec)
{
	char dir[] = "/tmp/meas-sec-XXXXXX", path[96];
	const struct meas_trec_end *e;
	struct tfile f;
	int rc;

	ASSERT_NE(NULL, mkdtemp(dir));
	chmod(dir, 0777);
	snprintf(path, sizeof(path), "%s/out", dir);
	snprintf(suid_dir, sizeof(suid_dir), "%s/suid", dir);
	ASSERT_EQ(0, mkdir(suid_dir, 0755));
	ASSERT_EQ(0, mount("none", suid_dir, "tmpfs", 0, "mode=0755"));
	snprintf(suid_sleep, sizeof(suid_sleep), "%s/sleep", suid_dir);
	ASSERT_EQ(0, copy_file("/bin/sleep", suid_sleep, 04755));
	set_param("task_race", "1");
	rc = as_user(U1, race_start, path);
	set_param("task_race", "0");
	ASSERT_TRUE(rc == 0 || rc == 10);
	if (!rc) {
		f = twait_end(path, 0);
		e = tend(&f, tsession(&f, 0));
		ASSERT_NE(NULL, e);
		EXPECT_EQ(MEAS_TASK_END_DENIED, e->reason);
	} else {
		f = tread(path);
	}
	/* nothing of the set-user-ID program: not its file, not its exec */
	EXPECT_EQ(NULL, tobject(&f, 0, MEAS_TREC_OBJECT, "suid/sleep"));
	EXPECT_EQ(NULL, tobject(&f, 0, MEAS_TREC_MAP, "suid/sleep"));
	EXPECT_EQ(0, tcount(&f, 0, MEAS_TREC_EXEC));
	free(f.buf);
	umount(suid_dir);
	rmdir(suid_dir);
	unlink(path);
	rmdir(dir);
}


/* ---- 2: no lock of the module held across I/O the caller controls ------- */

struct fault_arg {
	int fd;
	char *path;		/* in a page nobody has filled yet */
	struct meas_task_start k;
	int rc;
};

static void *fault_start_thread(void *p)
{
	struct fault_arg *a = p;

	a->rc = tstart(a->fd, 0, 0, 0, 0, a->path, &a->k);
	return NULL;
}

/*
 * A START whose path is on a page userfaultfd leaves unfilled waits in
 * the fault for as long as its caller likes, as a file on a FUSE mount
 * that never answers would.  Meanwhile another process's STOP must get
 * its answer, and so must another START.
 */
TEST(task_start_caller_io_blocks_no_one)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_copy cp = { 0 };
	struct fault_arg a = { 0 };
	struct pollfd pfd;
	struct uffd_msg msg;
	char dir[] = "/tmp/meas-sec-XXXXXX", *page, *src;
	long psz = sysconf(_SC_PAGESIZE);
	pthread_t th;
	int uffd, st;
	pid_t pid;

	ASSERT_NE(NULL, mkdtemp(dir));
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	ASSERT_LE(0, uffd);
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	page = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	reg.range.start = (uintptr_t)page;
	reg.range.len = psz;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
	a.fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, a.fd);
	a.path = page;
	ASSERT_EQ(0, pthread_create(&th, NULL, fault_start_thread, &a));
	/* the START is in the fault: userfaultfd reports it */
	pfd.fd = uffd;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ(sizeof(msg), read(uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
	/* another process: a STOP, a START and its STOP, each answered */
	pid = fork();
	if (!pid) {
		struct meas_task_stop s;
		struct meas_task_start k;
		char out[128];
		int fd = open(MEAS_DEVICE, O_RDWR);

		snprintf(out, sizeof(out), "%s/other", dir);
		if (tstop(fd, 0, &s) != -ENOENT)
			_exit(1);
		if (tstart(fd, 0, 0, 0, 0, out, &k) || tstop(fd, 0, &s))
			_exit(2);
		_exit(0);
	}
	st = wait_for(pid, 10000);
	EXPECT_NE(-1, st);
	/* the fault answered: the first START goes on, and succeeds */
	src = calloc(1, psz);
	snprintf(src, psz, "%s/slow", dir);
	cp.dst = (uintptr_t)page;
	cp.src = (uintptr_t)src;
	cp.len = psz;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_COPY, &cp));
	pthread_join(th, NULL);
	if (st == -1)
		st = wait_for(pid, 10000);
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	EXPECT_EQ(0, a.rc);
	if (!a.rc) {
		struct meas_task_stop s;

		EXPECT_EQ(0, tstop(a.fd, 0, &s));
	}
	close(a.fd);
	close(uffd);
	free(src);
	snprintf(src = calloc(1, 256), 256, "rm -rf %s", dir);
	EXPECT_EQ(0, system(src));
	free(src);
}

/* ---- 3: a reused PID does not inherit a dead process's measurement ------ */

static int getppid_100(void *arg __attribute__((unused)))
{
	int i;

	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	return 0;
}

static int wait_go(void *arg __attribute__((unused)))
{
	return 0;
}

TEST(task_reused_pid_not_measured)
{
	char path[] = "/tmp/meas-sec-reuse.out";
	const struct meas_trec_end *e;
	struct meas_task_start k;
	int fd, go = -1, st;
	struct tfile f;
	pid_t a, b;
	long at;

	unlink(path);
	fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, fd);
	a = spawn(wait_go, NULL, &go);
	ASSERT_EQ(0, tstart(fd, a, 0, MEAS_TASK_SVC, 0, path, &k));
	/* A exits; the end of its measurement waits; A is reaped */
	set_param("task_end_hold", "1");
	st = release_and_wait(a, go);
	ASSERT_TRUE(WIFEXITED(st));
	/* B, a fork that never executes anything, gets A's PID */
	b = fork_as(a, getppid_100);
	if (b < 0)
		set_param("task_end_hold", "0");
	ASSERT_EQ(a, b);
	waitpid(b, &st, 0);
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	set_param("task_end_hold", "0");
	f = twait_end(path, 0);
	at = tsession(&f, 0);
	e = tend(&f, at);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(MEAS_TASK_END_EXIT, e->reason);
	/* none of B's system calls is in A's file */
	EXPECT_EQ(0, tsvc(&f, at, SYS_getppid));
	TH_LOG("A's file has %ld system calls of getppid", tsvc(&f, at, SYS_getppid));
	free(f.buf);
	close(fd);
	unlink(path);
}

/* ---- 4: netlink answers as far as the socket's opener may see ----------- */

struct nl_seen {
	int records;
	int others;		/* records of processes whose uid is not @uid */
	int error;		/* the errno of an NLMSG_ERROR */
	int done;
};

/* Walk the messages of one recv(): records and the end. */
static void nl_parse(const char *buf, ssize_t n, uint16_t family, uid_t uid,
		     struct nl_seen *seen)
{
	const struct nlmsghdr *nh;
	const struct nlattr *a;
	const struct meas_proc_rec *rec;
	int rem;

	for (nh = (const void *)buf; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
		if (nh->nlmsg_type == NLMSG_DONE) {
			seen->done = 1;
			continue;
		}
		if (nh->nlmsg_type == NLMSG_ERROR) {
			seen->error = -((const struct nlmsgerr *)NLMSG_DATA(nh))->error;
			seen->done = 1;
			continue;
		}
		if (nh->nlmsg_type != family)
			continue;
		rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
		for (a = (const void *)((const char *)NLMSG_DATA(nh) + GENL_HDRLEN);
		     rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
		     a->nla_len <= rem;
		     rem -= NLA_ALIGN(a->nla_len),
		     a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len))) {
			if (a->nla_type != MEAS_A_RECORD)
				continue;
			rec = (const void *)((const char *)a + NLA_HDRLEN);
			if (!rec->slot)
				continue;
			seen->records++;
			seen->others += rec->item[MEAS_P_UID] != uid ||
					rec->item[MEAS_P_EUID] != uid;
		}
	}
}

/* Receive until the reply is complete (10 s at most). */
static void nl_drain(int s, uint16_t family, uid_t uid, struct nl_seen *seen)
{
	static char buf[32768];
	struct pollfd pfd = { .fd = s, .events = POLLIN };
	ssize_t n;

	while (!seen->done && poll(&pfd, 1, 10000) == 1) {
		n = recv(s, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		nl_parse(buf, n, family, uid, seen);
	}
}

/* Send @fd over the unix socket @u. */
static int send_fd(int u, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &c, 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(u, &mh, 0) == 1 ? 0 : -1;
}

static int recv_fd(int u)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm;
	int fd = -1;

	if (recvmsg(u, &mh, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&mh);
	if (cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * A generic netlink socket opened by user U1 (who may also have sent a
 * dump request on it), handed to root, who sends or reads on it: what
 * the kernel answers must be what U1 may see, as netlink_capable()
 * judges the opener (CVE-2014-0181).  @dump: U1 starts a dump and root
 * reads it; else root asks for init's record.
 */
static int opener_socket(uint16_t family, int dump)
{
	int u[2], s = -1, st;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, u))
		return -1;
	pid = fork();
	if (!pid) {
		if (become(U1, U1))
			_exit(1);
		s = nl_socket(dump ? 4096 : 0);
		if (s < 0 || (dump && genl_get(s, family, -1)))
			_exit(2);
		_exit(send_fd(u[1], s) ? 3 : 0);
	}
	s = recv_fd(u[0]);
	waitpid(pid, &st, 0);
	close(u[0]);
	close(u[1]);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? s : -1;
}

TEST(genl_get_judges_the_opener)
{
	struct nl_seen seen = { 0 };
	uint16_t family;
	uint32_t exits;
	int s, fd = open(MEAS_DEVICE, O_RDWR);

	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_PROC, NULL));
	s = nl_socket(0);
	ASSERT_EQ(0, genl_resolve(s, &family, &exits));
	/* root's own socket: init is there */
	ASSERT_EQ(0, genl_get(s, family, 1));
	nl_drain(s, family, 0, &seen);
	EXPECT_EQ(1, seen.records);
	close(s);
	/* U1's socket, root's request: init is not U1's to see */
	s = opener_socket(family, 0);
	ASSERT_LE(0, s);
	memset(&seen, 0, sizeof(seen));
	ASSERT_EQ(0, genl_get(s, family, 1));
	nl_drain(s, family, U1, &seen);
	EXPECT_EQ(0, seen.records);
	EXPECT_EQ(ESRCH, seen.error);
	close(s);
	meas_stop(fd, 1U << MEAS_CLASS_PROC, NULL);
	close(fd);
}

TEST(genl_dump_read_by_root_judges_the_opener)
{
	struct nl_seen seen = { 0 };
	pid_t mine[40], roots[5];
	uint16_t family;
	uint32_t exits;
	int s, i, fd = open(MEAS_DEVICE, O_RDWR);

	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_PROC, NULL));
	s = nl_socket(0);
	ASSERT_EQ(0, genl_resolve(s, &family, &exits));
	close(s);
	/*
	 * U1's processes fill more than the first part of the dump, which
	 * U1's request computes; root's come after them in the table, in
	 * the parts root's reads compute
	 */
	for (i = 0; i < 40; i++)
		mine[i] = sleeper(U1, U1);
	for (i = 0; i < 5; i++)
		roots[i] = sleeper(0, 0);
	s = opener_socket(family, 1);
	ASSERT_LE(0, s);
	nl_drain(s, family, U1, &seen);
	TH_LOG("%d records, %d of other users", seen.records, seen.others);
	EXPECT_LE(40, seen.records);
	EXPECT_EQ(0, seen.others);
	EXPECT_EQ(0, seen.error);
	close(s);
	for (i = 0; i < 40; i++)
		reap(mine[i]);
	for (i = 0; i < 5; i++)
		reap(roots[i]);
	meas_stop(fd, 1U << MEAS_CLASS_PROC, NULL);
	close(fd);
}

/* ---- 5: class 14's GET filters the records it copied -------------------- */

struct snap_arg {
	int fd;
	uint64_t first, words, *out;
	int rc;
};

static void *snap_thread(void *p)
{
	struct snap_arg *a = p;
	int result;

	a->rc = meas_get(a->fd, MEAS_CLASS_IO, 0, a->first, a->words, a->out,
			 a->words * sizeof(uint64_t), &result);
	return NULL;
}

/*
 * As U1, with the block device opened before: GET every record of the
 * ring, which holds another process's records, while its own reads go
 * round the ring between the copy and the filter.  Exit status: 0, or
 * 10 + the records of another process it was given.
 */
static int io_snoop(int meas, int blk, uint64_t capacity, uint64_t parts)
{
	struct snap_arg a = { .fd = meas };
	const struct meas_io_record *r;
	pthread_t th;
	int others = 0;
	uint64_t i;

	if (become(U1, U1))
		return 1;
	drop_caps();
	a.first = MEAS_IO_H_PART0 + parts * MEAS_IO_PART_WORDS;
	a.words = capacity * MEAS_IO_RECORD_WORDS;
	a.out = calloc(a.words, sizeof(uint64_t));
	if (!a.out || pthread_create(&th, NULL, snap_thread, &a))
		return 2;
	if (param_wait("io_snap_race", 2))
		return 3;
	if (reads_on_cpu0(blk, 2 * capacity))
		return 4;
	pthread_join(th, NULL);
	if (a.rc)
		return 5;
	for (i = 0; i < capacity; i++) {
		r = (const void *)&a.out[i * MEAS_IO_RECORD_WORDS];
		if (r->tgid && r->tgid != getpid())
			others++;
	}
	printf("# %d records of another process in a GET of %llu\n", others,
	       (unsigned long long)capacity);
	return others ? 10 + (others > 100 ? 100 : others) : 0;
}

TEST(io_get_filters_what_it_copied)
{
	uint64_t capacity, parts;
	int fd, blk, st;
	pid_t victim, pid;

	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	set_param("io_records", "256");
	fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_IO, NULL));
	capacity = io_item(fd, MEAS_IO_H_CAPACITY);
	parts = io_item(fd, MEAS_IO_H_PARTS);
	blk = open("/dev/nullb0", O_RDONLY | O_DIRECT);
	ASSERT_LE(0, blk);
	/* root's process fills the ring with its records (the window armed
	 * after the last GET before the one it is for)
	 */
	victim = fork();
	if (!victim)
		_exit(reads_on_cpu0(blk, capacity) ? 1 : 0);
	waitpid(victim, &st, 0);
	ASSERT_EQ(0, st);
	set_param("io_snap_race", "1");
	pid = fork();
	if (!pid)
		_exit(io_snoop(fd, blk, capacity, parts));
	waitpid(pid, &st, 0);
	set_param("io_snap_race", "0");
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	close(blk);
	meas_stop(fd, 1U << MEAS_CLASS_IO, NULL);
	close(fd);
	set_param("io_records", "4096");
	null_blk_unload();
}

/* ---- 6: an exited process is judged by its dumpability when it went ----- */

/* GETPROCSTATS of @pid as U1 with the open file @fd: 0 or -errno. */
static int u1_sees(int fd, pid_t pid)
{
	pid_t c = fork();
	int st;

	if (!c) {
		uint64_t e[MEAS_PROC_ITEMS];
		int rc;

		if (become(U1, U1))
			_exit(100);
		_exit(-meas_proc_get(fd, 0, pid, 0, MEAS_PROC_ITEMS, e,
				     sizeof(e), &rc));
	}
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? -WEXITSTATUS(st) : -100;
}

/* How a child of U1's leaves its dumpability (u1_child()). */
enum { SETUID_UNDUMPABLE, EXEC_DUMPABLE, EXEC_UNDUMPABLE };

/*
 * sec_test run again as a child of U1's (u1_child()): it reports on fd 4
 * that it is ready, waits on fd 3, exits; before, it makes itself
 * non-dumpable if told to.
 */
__attribute__((constructor)) static void sec_child(void)
{
	const char *mode = getenv("MEAS_SEC_CHILD");
	char c;

	if (!mode)
		return;
	if (!strcmp(mode, "undumpable"))
		prctl(PR_SET_DUMPABLE, 0);
	if (write(4, "r", 1) != 1 || read(3, &c, 1) != 1)
		_exit(98);
	_exit(0);
}

/*
 * A process of U1's, dumpable or not (@mode); it exits when *@go is
 * written to.  SETUID_UNDUMPABLE: it became U1 by setresuid(), which
 * makes a process non-dumpable; the others executed a program as U1,
 * one of them then calling prctl(PR_SET_DUMPABLE, 0).
 */
static pid_t u1_child(int mode, int *go)
{
	int p[2], q[2];
	pid_t pid;
	char c;

	if (pipe(p) || pipe(q))
		return -1;
	pid = fork();
	if (!pid) {
		if (setresgid(U1, U1, U1) || setresuid(U1, U1, U1))
			_exit(97);
		if (mode == SETUID_UNDUMPABLE) {
			if (prctl(PR_GET_DUMPABLE) || write(q[1], "r", 1) != 1 ||
			    read(p[0], &c, 1) != 1)
				_exit(98);
			_exit(0);
		}
		if (dup2(p[0], 3) != 3 || dup2(q[1], 4) != 4)
			_exit(99);
		setenv("MEAS_SEC_CHILD", mode == EXEC_UNDUMPABLE ?
		       "undumpable" : "dumpable", 1);
		execl("/proc/self/exe", "sec_child", (char *)NULL);
		_exit(96);
	}
	close(p[0]);
	close(q[1]);
	if (read(q[0], &c, 1) != 1)
		return -1;
	close(q[0]);
	*go = p[1];
	return pid;
}

static void exited_hidden(struct __test_metadata *_metadata, int mode)
{
	int fd = open(MEAS_DEVICE, O_RDWR), go, st;
	pid_t pid;

	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_PROC, NULL));
	pid = u1_child(mode, &go);
	ASSERT_LT(0, pid);
	/* alive, every ID U1's, not dumpable: hidden from U1, as from ptrace */
	EXPECT_EQ(-ESRCH, u1_sees(fd, pid));
	st = release_and_wait(pid, go);
	ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	/* gone: still hidden */
	EXPECT_EQ(-ESRCH, u1_sees(fd, pid));
	/* a dumpable process of U1's, gone the same way, is shown to U1 */
	pid = u1_child(EXEC_DUMPABLE, &go);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, u1_sees(fd, pid));
	st = release_and_wait(pid, go);
	ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	EXPECT_EQ(0, u1_sees(fd, pid));
	meas_stop(fd, 1U << MEAS_CLASS_PROC, NULL);
	close(fd);
}

TEST(exited_after_setuid_stays_hidden)
{
	exited_hidden(_metadata, SETUID_UNDUMPABLE);
}

/* Whether this kernel keeps dumpability with the task (7.0's exec_state). */
static int kernel_has_exec_state(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, " task_exec_state_rcu\n") != NULL;
	if (f)
		fclose(f);
	return found;
}

TEST(exited_after_prctl_stays_hidden)
{
	if (!kernel_has_exec_state())
		SKIP(return, "dumpability lives in the mm here, gone before the exit is seen: see Documentation/security.rst");
	exited_hidden(_metadata, EXEC_UNDUMPABLE);
}

/* ---- 7: TASK_START applies ptrace's rules, each of them ------------------ */

enum looker { L_U1, L_FSUID_U2, L_FSUID_U1_EUID_U2, L_U1_PTRACE_CAP };
enum target { T_U1, T_U1_GID_U2, T_U1_UNDUMPABLE, T_ROOT, T_SELF_UNDUMPABLE };

/* Keep only CAP_SYS_PTRACE (effective and permitted): 0 or -1. */
static int only_ptrace_cap(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { 0 };

	d[0].effective = d[0].permitted = 1U << CAP_SYS_PTRACE;
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static int take_looker(enum looker l)
{
	switch (l) {
	case L_U1:
		return become(U1, U1);
	case L_FSUID_U2:	/* euid U1, fsuid U2 (its saved uid) */
		if (setgroups(0, NULL) || setresgid(U1, U1, U1) ||
		    setresuid(U1, U1, U2))
			return -1;
		setfsuid(U2);
		return setfsuid(-1) == U2 ? 0 : -1;
	case L_FSUID_U1_EUID_U2:	/* euid U2, fsuid U1 */
		if (setgroups(0, NULL) || setresgid(U1, U1, U1) ||
		    setresuid(U2, U2, U1))
			return -1;
		setfsuid(U1);
		return setfsuid(-1) == U1 ? 0 : -1;
	case L_U1_PTRACE_CAP:
		if (prctl(PR_SET_KEEPCAPS, 1) || become(U1, U1))
			return -1;
		return only_ptrace_cap();
	}
	return -1;
}

static pid_t take_target(enum target t)
{
	int ready;
	pid_t pid;

	switch (t) {
	case T_U1:
		return sleeper(U1, U1);
	case T_ROOT:
		return sleeper(0, 0);
	case T_SELF_UNDUMPABLE:
		return 0;
	default:
		break;
	}
	pid = fork_ready(&ready);
	if (!pid) {
		gid_t g = t == T_U1_GID_U2 ? U2 : U1;

		if (setgroups(0, NULL) || setresgid(g, g, g) ||
		    setresuid(U1, U1, U1))
			_exit(97);
		prctl(PR_SET_DUMPABLE, t != T_U1_UNDUMPABLE);
		if (write(ready, "r", 1) != 1)
			_exit(98);
		for (;;)
			pause();
	}
	return ready_wait(pid, ready);
}

static const struct rule_row {
	const char *what;
	enum looker l;
	enum target t;
	int want;	/* -errno of the START */
} rule_rows[] = {
	{ "U1, its own dumpable process", L_U1, T_U1, 0 },
	{ "U1, a process of U1 whose groups are U2's", L_U1, T_U1_GID_U2,
	  -EPERM },
	{ "euid U1 but fsuid U2, a process of U1", L_FSUID_U2, T_U1, -EPERM },
	{ "euid U2 but fsuid U1, a process of U1", L_FSUID_U1_EUID_U2, T_U1,
	  0 },
	{ "U1, its own non-dumpable process", L_U1, T_U1_UNDUMPABLE, -EPERM },
	{ "U1, root's process", L_U1, T_ROOT, -EPERM },
	{ "U1 with CAP_SYS_PTRACE, root's process", L_U1_PTRACE_CAP, T_ROOT,
	  0 },
	{ "U1 with CAP_SYS_PTRACE, a non-dumpable process", L_U1_PTRACE_CAP,
	  T_U1_UNDUMPABLE, 0 },
	{ "U1, itself while non-dumpable", L_U1, T_SELF_UNDUMPABLE, 0 },
};

/* As looker @l, START of @pid (0: itself, made non-dumpable): -errno. */
static int start_as(int fd, enum looker l, pid_t pid, const char *path)
{
	pid_t c = fork();
	int st;

	if (!c) {
		struct meas_task_start k;
		struct meas_task_stop s;
		int rc;

		if (take_looker(l))
			_exit(100);
		if (!pid)
			prctl(PR_SET_DUMPABLE, 0);
		rc = tstart(fd, pid, 0, 0, 0, path, &k);
		if (rc == -EPERM && k.result != MEAS_TASK_NOTALLOWED)
			_exit(101);
		if (!rc && tstop(fd, pid, &s))
			_exit(102);
		_exit(-rc);
	}
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? -WEXITSTATUS(st) : -103;
}

TEST(task_start_ptrace_rules)
{
	char dir[] = "/tmp/meas-sec-XXXXXX", path[96];
	unsigned int i;
	int fd, got;
	pid_t t;

	ASSERT_NE(NULL, mkdtemp(dir));
	chmod(dir, 0777);
	fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(rule_rows) / sizeof(rule_rows[0]); i++) {
		const struct rule_row *r = &rule_rows[i];

		snprintf(path, sizeof(path), "%s/out%u", dir, i);
		t = take_target(r->t);
		ASSERT_LE(0, t);
		got = start_as(fd, r->l, t, path);
		TH_LOG("%s: %d (want %d)", r->what, got, r->want);
		EXPECT_EQ(r->want, got);
		/* a refused start makes no file */
		if (r->want)
			EXPECT_EQ(-1, access(path, F_OK));
		if (t)
			reap(t);
		unlink(path);
	}
	close(fd);
	rmdir(dir);
}

/* ---- 9: two first IOTRACE_READs of one file share one cursor ----------- */

struct cursor_arg {
	int fd;
	struct meas_io_record rec[256];
	struct meas_iotrace_read r;
	int rc;
};

static void *cursor_thread(void *p)
{
	struct cursor_arg *a = p;

	a->rc = meas_iotrace_read(a->fd, 0, a->rec, 256, &a->r);
	return NULL;
}

TEST(iotrace_first_reads_share_a_cursor)
{
	struct cursor_arg *a = calloc(2, sizeof(*a));
	pthread_t th[2];
	int fd, reader, i;

	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, do_io("/dev/nullb0", 10, 0, 0, 0));
	/* a file that has read nothing yet; both its first reads meet */
	reader = open(MEAS_DEVICE, O_RDWR);
	set_param("io_cursor_race", "2");
	for (i = 0; i < 2; i++) {
		a[i].fd = reader;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, cursor_thread, &a[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	set_param("io_cursor_race", "0");
	EXPECT_EQ(0, a[0].rc);
	EXPECT_EQ(0, a[1].rc);
	TH_LOG("first reads: %llu and %llu records of %llu written",
	       (unsigned long long)a[0].r.records,
	       (unsigned long long)a[1].r.records,
	       (unsigned long long)a[1].r.total);
	/* one cursor: the second read goes on where the first ended */
	EXPECT_LE(10, a[0].r.records + a[1].r.records);
	EXPECT_GE(a[0].r.total > a[1].r.total ? a[0].r.total : a[1].r.total,
		  a[0].r.records + a[1].r.records);
	close(reader);
	meas_stop(fd, 1U << MEAS_CLASS_IO, NULL);
	close(fd);
	free(a);
	null_blk_unload();
}

/* ---- 10: limits a member of group meas cannot exceed --------------------- */

/* As user @uid: START of @n own sleeping children; how many started. */
static int starts_as(int fd, uid_t uid, int n, const char *dir, int *last)
{
	pid_t c = fork();
	int st;

	if (!c) {
		struct meas_task_start k;
		struct meas_task_stop s;
		pid_t kids[16];
		char path[128];
		int i, ok = 0;

		if (become(uid, uid))
			_exit(100);
		for (i = 0; i < n && i < 16; i++) {
			kids[i] = sleeper(0, 0);
			snprintf(path, sizeof(path), "%s/u%u.%d", dir, uid, i);
			*last = tstart(fd, kids[i], 0, 0, 0, path, &k);
			if (!*last)
				ok++;
			else if (k.result != MEAS_TASK_LIMIT ||
				 !access(path, F_OK))
				_exit(101);
		}
		for (i = 0; i < n && i < 16; i++) {
			tstop(fd, kids[i], &s);
			reap(kids[i]);
		}
		_exit(ok);
	}
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(task_limit_per_user)
{
	char dir[] = "/tmp/meas-sec-XXXXXX", cmd[64];
	int fd = open(MEAS_DEVICE, O_RDWR), last;

	ASSERT_NE(NULL, mkdtemp(dir));
	chmod(dir, 0777);
	ASSERT_LE(0, fd);
	set_param("max_tasks_per_user", "2");
	/* two each for U1 and U2, refused beyond (NPS0065, ENOSPC) */
	EXPECT_EQ(2, starts_as(fd, U1, 3, dir, &last));
	EXPECT_EQ(2, starts_as(fd, U2, 4, dir, &last));
	/* not a limit of root's, who has CAP_PERFMON: max_tasks is */
	EXPECT_EQ(0, try_set_param("max_tasks_per_user", "1"));
	EXPECT_EQ(3, starts_as(fd, 0, 3, dir, &last));
	EXPECT_EQ(-EINVAL, try_set_param("max_tasks_per_user", "0"));
	set_param("max_tasks_per_user", "4");
	close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST(task_file_honours_rlimit_fsize)
{
	char path[] = "/tmp/meas-sec-fsize.out";
	pid_t c;
	int st;
	struct stat sb;

	unlink(path);
	c = fork();
	if (!c) {
		struct rlimit rl = { 65536, 65536 };
		struct meas_task_start k;
		struct meas_task_stop s;
		int fd = open(MEAS_DEVICE, O_RDWR), i, rc;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) ||
		    tstart(fd, 0, 0, MEAS_TASK_SVC, 0, path, &k))
			_exit(100);
		for (i = 0; i < 50000; i++)
			syscall(SYS_getpid);
		rc = tstop(fd, 0, &s);
		/* the file could not take it all: NPS0067 */
		_exit(rc == -EIO && s.result == MEAS_TASK_FILEIO ? 0 : 101);
	}
	waitpid(c, &st, 0);
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	ASSERT_EQ(0, stat(path, &sb));
	TH_LOG("file of %lld bytes under RLIMIT_FSIZE 65536",
	       (long long)sb.st_size);
	EXPECT_GE(65536, sb.st_size);
	/* whole records, the session first */
	{
		struct tfile f = tread(path);
		const struct meas_trec *h;
		size_t off = 0, end = 0;

		EXPECT_EQ(0, tsession(&f, 0));
		while ((h = tnext(&f, &off)))
			end = off;
		EXPECT_EQ(f.len, end);
		free(f.buf);
	}
	unlink(path);
}

/* @what of /proc/meminfo ("SUnreclaim", "VmallocUsed"), in KiB. */
static long meminfo_kib(const char *what)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128], fmt[64];
	long v = -1;

	snprintf(fmt, sizeof(fmt), "%s: %%ld kB", what);
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, fmt, &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

enum { BIG_GET, BIG_PROCSTATS, BIG_READACTIVE, BIG_KINDS };
static const char *const big_name[BIG_KINDS] = {
	"GETs", "GETPROCSTATS allpins", "READACTIVEs"
};

struct bigget_arg {
	int fd, kind;
	uint64_t *buf, words;
};

static void *bigget_thread(void *p)
{
	struct bigget_arg *a = p;
	struct meas_entity_desc d;
	struct meas_readactive ra;
	struct meas_procstats ps;
	int rc;

	switch (a->kind) {
	case BIG_GET:
		meas_get(a->fd, MEAS_CLASS_PROC, 0, 0, a->words, a->buf,
			 a->words * sizeof(uint64_t), &rc);
		break;
	case BIG_PROCSTATS:
		memset(&ps, 0, sizeof(ps));
		ps.allpins = 1;
		ps.wordcount = MEAS_PROC_ITEMS;
		ps.buf = (uintptr_t)a->buf;
		ps.buflen = a->words * sizeof(uint64_t);
		meas_getprocstats(a->fd, &ps);
		break;
	case BIG_READACTIVE:
		meas_entity_init(&d, 1);
		memset(&ra, 0, sizeof(ra));
		ra.descs = (uintptr_t)&d;
		ra.ndesc = 1;
		ra.buf = (uintptr_t)a->buf;
		ra.bufsize = a->words * sizeof(uint64_t);
		ra.entity_index = -1;
		meas_readactive(a->fd, &ra);
		break;
	}
	return NULL;
}

#define BIG_READERS	16

/*
 * BIG_READERS reads of class 15 (@kind) whose destination faults without
 * end (userfaultfd), class 15 enabled on @fd: the kernel memory they
 * hold while they wait must stay under @max_kib, whatever the size of
 * the table and of their buffers.
 */
static void big_reads(struct __test_metadata *_metadata, int fd, int kind,
		      long max_kib)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct bigget_arg a[BIG_READERS];
	pthread_t th[BIG_READERS];
	struct meas_header h;
	struct uffd_msg msg;
	struct pollfd pfd;
	size_t span, words;
	long before, held;
	char *region;
	int uffd, i, rc, faults = 0;

	ASSERT_EQ(0, meas_header(fd, MEAS_CLASS_PROC, 0, &h, &rc));
	words = h.ent0size - MEAS_HEADER_WORDS + (h.entries - 1) * h.entsize;
	span = ((words * 8) | 0xfffff) + 1;
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	ASSERT_LE(0, uffd);
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	region = mmap(NULL, BIG_READERS * span, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, region);
	reg.range.start = (uintptr_t)region;
	reg.range.len = BIG_READERS * span;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
	/*
	 * kvmalloc() takes from the slab (large kmalloc()s count there) or
	 * from vmalloc: free memory, moved to and from per-CPU lists, is
	 * too noisy a measure
	 */
	before = meminfo_kib("SUnreclaim") + meminfo_kib("VmallocUsed");
	for (i = 0; i < BIG_READERS; i++) {
		a[i].fd = fd;
		a[i].kind = kind;
		a[i].buf = (uint64_t *)(region + i * span);
		a[i].words = words;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, bigget_thread, &a[i]));
	}
	/* each read is in its copy to user space */
	pfd.fd = uffd;
	pfd.events = POLLIN;
	while (faults < BIG_READERS && poll(&pfd, 1, 20000) == 1)
		while (read(uffd, &msg, sizeof(msg)) == sizeof(msg))
			faults += msg.event == UFFD_EVENT_PAGEFAULT;
	held = meminfo_kib("SUnreclaim") + meminfo_kib("VmallocUsed") - before;
	TH_LOG("%d %s of %llu words waiting: %d faults, %ld KiB more slab and vmalloc",
	       BIG_READERS, big_name[kind], (unsigned long long)words, faults,
	       held);
	EXPECT_EQ(BIG_READERS, faults);
	EXPECT_GT(max_kib, held);
	close(uffd);	/* the faults are served as ordinary ones */
	for (i = 0; i < BIG_READERS; i++)
		pthread_join(th[i], NULL);
	munmap(region, BIG_READERS * span);
}

TEST(get_memory_bounded)
{
	int fd = open(MEAS_DEVICE, O_RDWR);

	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_PROC, NULL));
	/* a GET reads the whole region: 13 MB with 32768 entries */
	big_reads(_metadata, fd, BIG_GET, 16 * 1024);
	meas_stop(fd, 1U << MEAS_CLASS_PROC, NULL);
	close(fd);
}

/*
 * The harness's 30 s are too few for 2000 forks in a debug kernel (KASAN
 * and lockdep under TCG: about 0.1 s each); a fixture of nothing gives
 * the test a limit of its own.
 */
FIXTURE(forks)
{
	int unused;
};

FIXTURE_SETUP(forks)
{
}

FIXTURE_TEARDOWN(forks)
{
}

/*
 * GETPROCSTATS of every pin and READACTIVE read the table up to its
 * high-water mark, which anyone raises by starting processes: 2000 of
 * them, gone, make each read 0.8 MB.
 */
TEST_F_TIMEOUT(forks, procstats_and_readactive_memory_bounded, 600)
{
	int fd = open(MEAS_DEVICE, O_RDWR), i, st;
	pid_t c;

	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_PROC, NULL));
	for (i = 0; i < 2000; i++) {
		c = fork();
		if (!c)
			_exit(0);
		ASSERT_EQ(c, waitpid(c, &st, 0));
	}
	big_reads(_metadata, fd, BIG_PROCSTATS, 6 * 1024);
	big_reads(_metadata, fd, BIG_READACTIVE, 6 * 1024);
	meas_stop(fd, 1U << MEAS_CLASS_PROC, NULL);
	close(fd);
}

/* ---- 8: /dev/meas is 0600 until udev gives it to group meas ------------- */

/* As @uid, a member of meas if @member: whether /dev/meas opens. */
static int open_as(uid_t uid, int member)
{
	pid_t c = fork();
	int st;

	if (!c) {
		if (member ? become_member(uid, uid) :
		    (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		     setresuid(uid, uid, uid)))
			_exit(100);
		_exit(open(MEAS_DEVICE, O_RDWR) >= 0);
	}
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs last: reloads the module. */
TEST(dev_node_0600_from_the_module)
{
	const char *ko = getenv("MEAS_KO") ?: "module/meas.ko";
	char cmd[256];
	struct stat st;

	EXPECT_EQ(0, system("rmmod meas"));
	snprintf(cmd, sizeof(cmd), "insmod %s", ko);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, wait_dev(MEAS_DEVICE, S_IFCHR));
	ASSERT_EQ(0, stat(MEAS_DEVICE, &st));
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(0, st.st_gid);
	/* a user outside group meas cannot open it, a member can */
	EXPECT_EQ(0, meas_udev());
	EXPECT_EQ(0, open_as(U2, 0));
	EXPECT_EQ(1, open_as(U2, 1));
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Task measurement (MEAS_IOC_TASK_START/STOP, uapi/linux/meas_task.h) in
 * the VM: exact system call counts, PC samples in proportion to the work
 * of two hot functions, load information around dlopen/dlclose and exec,
 * the end at exit, every return code and every file error.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/meas_task.h>

#include "kselftest_harness.h"
#include "common.h"
#include "tasklib.h"

/* Two hot functions, each in a section of its own so that its range is known. */
#define HOT(name) __attribute__((noinline, section("meas_" #name)))

static volatile unsigned long sink;

HOT(hot_a) void hot_a(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

HOT(hot_b) void hot_b(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

extern char __start_meas_hot_a[], __stop_meas_hot_a[];
extern char __start_meas_hot_b[], __stop_meas_hot_b[];

static unsigned long hot_n;

/* CPU time of each hot function, as the child measured it */
static volatile uint64_t *hot_cpu;

/*
 * hot_a and hot_b in 64 alternating rounds, not one after the other: a
 * busy host that stalls the guest for a while then lands on both
 * functions alike, instead of on whichever ran during the stall.
 */
static int run_hot(void *arg __attribute__((unused)))
{
	uint64_t t0, t1;
	int i;

	for (i = 0; i < 64; i++) {
		t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		hot_a(hot_n / 64);
		t1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		hot_b(2 * (hot_n / 64));
		hot_cpu[0] += t1 - t0;
		hot_cpu[1] += now_ns(CLOCK_THREAD_CPUTIME_ID) - t1;
	}
	return 0;
}

/* CPU time of hot_a(@n) in ns. */
static uint64_t hot_a_ns(unsigned long n)
{
	uint64_t t = now_ns(CLOCK_PROCESS_CPUTIME_ID);

	hot_a(n);
	return now_ns(CLOCK_PROCESS_CPUTIME_ID) - t;
}

/*
 * Iterations for about 0.5 s of CPU time in hot_a.  Both functions run
 * here first, so that neither pays for QEMU translating it in the child.
 * The shortest of three timings: a guest whose vCPU the host stops is
 * charged the stop as CPU time, which only ever lengthens one.
 */
static unsigned long calibrate(void)
{
	unsigned long n = 1000000;
	uint64_t t, t2;
	int i;

	for (;;) {
		hot_b(n / 16);
		t = hot_a_ns(n);
		if (t > 50000000)
			break;
		n *= 4;
	}
	for (i = 0; i < 2; i++) {
		t2 = hot_a_ns(n);
		if (t2 < t)
			t = t2;
	}
	/* not n * (500000000 / t): a timing above 0.5 s made that 0 */
	return (uint64_t)n * 500000000 / t;
}

static int run_exit(void *arg __attribute__((unused)))
{
	int i;

	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	hot_a(hot_n / 4);
	return 7;
}

static const char *dso_path(void)
{
	static char p[PATH_MAX];
	char *slash;
	ssize_t n = readlink("/proc/self/exe", p, sizeof(p) - 32);

	if (n < 0)
		return NULL;
	p[n] = 0;
	slash = strrchr(p, '/');
	strcpy(slash + 1, "libmeas_task_dso.so");
	return p;
}

static int run_dlopen(void *arg __attribute__((unused)))
{
	void *h = dlopen(dso_path(), RTLD_NOW | RTLD_LOCAL);
	unsigned long (*work)(unsigned long);

	if (!h)
		return 90;
	work = (unsigned long (*)(unsigned long))dlsym(h, "meas_dso_work");
	if (!work)
		return 91;
	sink = work(hot_n / 8);
	return dlclose(h) ? 92 : 0;
}

static int run_exec(void *arg __attribute__((unused)))
{
	execl("/bin/true", "true", (char *)NULL);
	return 93;
}

static int run_sleep(void *arg __attribute__((unused)))
{
	pause();
	return 0;
}

static int run_kernel(void *arg __attribute__((unused)))
{
	static char buf[1 << 20];
	uint64_t t = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	int fd = open("/dev/zero", O_RDONLY);

	while (now_ns(CLOCK_PROCESS_CPUTIME_ID) - t < 300000000)
		if (read(fd, buf, sizeof(buf)) < 0)
			return 94;
	return 0;
}

static void *spin_thread(void *arg __attribute__((unused)))
{
	hot_b(hot_n / 2);
	return NULL;
}

static int run_threads(void *arg __attribute__((unused)))
{
	pthread_t t;

	if (pthread_create(&t, NULL, spin_thread, NULL))
		return 95;
	hot_a(hot_n / 2);
	pthread_join(t, NULL);
	return 0;
}

/* ---- the tests ----------------------------------------------------------- */

FIXTURE(task) {
	int fd;
	char dir[64];
	char path[96];
};

FIXTURE_SETUP(task)
{
	self->fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, self->fd);
	strcpy(self->dir, "/tmp/meas-task-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	chmod(self->dir, 0777);
	snprintf(self->path, sizeof(self->path), "%s/out", self->dir);
	if (!hot_n)
		hot_n = calibrate();
}

FIXTURE_TEARDOWN(task)
{
	char cmd[128];

	close(self->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

TEST_F(task, svc_counts_exact)
{
	struct meas_task_start k;
	struct meas_task_stop s;
	const struct meas_trec_end *e;
	int i, null = open("/dev/null", O_WRONLY);
	struct tfile f;
	long at;

	ASSERT_EQ(0, tstart(self->fd, 0, 0, MEAS_TASK_SVC, MEAS_TASK_LOAD_STD,
			    self->path, &k));
	for (i = 0; i < 1000; i++)
		syscall(SYS_getpid);
	for (i = 0; i < 300; i++)
		ASSERT_EQ(1, write(null, "x", 1));
	ASSERT_EQ(0, tstop(self->fd, 0, &s));
	EXPECT_EQ(MEAS_TASK_OK, k.result);
	EXPECT_EQ(getpid(), k.pid);
	EXPECT_NE(0, k.session);
	EXPECT_EQ(MEAS_TASK_OK, s.result);
	EXPECT_EQ(k.session, s.session);
	f = tread(self->path);
	at = tsession(&f, 0);
	ASSERT_LE(0, at);
	EXPECT_EQ(1000, tsvc(&f, at, SYS_getpid));
	EXPECT_EQ(300, tsvc(&f, at, SYS_write));
	EXPECT_EQ(1, tsvc(&f, at, SYS_ioctl));	/* the STOP */
	e = tend(&f, at);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(MEAS_TASK_END_STOP, e->reason);
	EXPECT_EQ(0, e->lost);
	EXPECT_EQ(s.svcs, e->svcs);
	EXPECT_EQ(tcount(&f, at, MEAS_TREC_SVC), (long)e->svcs);
	EXPECT_EQ(0, tcount(&f, at, MEAS_TREC_SAMPLE));
	EXPECT_EQ(2, tcount(&f, at, MEAS_TREC_LOAD_BEGIN));	/* start, end */
	close(null);
	free(f.buf);
}

TEST_F(task, hot_functions_in_proportion)
{
	const struct meas_trec_sample *sm;
	const struct meas_trec *h;
	long a = 0, b = 0, other = 0, at;
	struct tfile f;
	size_t off;
	double n;

	hot_cpu = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, hot_cpu);
	f = measure_run(self->fd, self->path, run_hot, 1, 0,
			MEAS_TASK_LOAD_STD, NULL, &at);
	ASSERT_LE(0, at);
	off = at;
	tnext(&f, &off);
	while ((h = tnext(&f, &off))) {
		if (h->type != MEAS_TREC_SAMPLE)
			continue;
		sm = (const void *)h;
		if (sm->ip >= (uintptr_t)__start_meas_hot_a &&
		    sm->ip < (uintptr_t)__stop_meas_hot_a)
			a++;
		else if (sm->ip >= (uintptr_t)__start_meas_hot_b &&
			 sm->ip < (uintptr_t)__stop_meas_hot_b)
			b++;
		else
			other++;
	}
	TH_LOG("samples: hot_a %ld, hot_b %ld (twice the iterations), elsewhere %ld; CPU time hot_a %.3f s, hot_b %.3f s",
	       a, b, other, hot_cpu[0] / 1e9, hot_cpu[1] / 1e9);
	EXPECT_LE(100, a);
	/*
	 * hot_b is hot_a's code run twice as often, interleaved with it, so
	 * a sample lands in hot_a with probability 1/3.  Under TCG the
	 * samples are not evenly spaced, so the count in hot_a is binomial,
	 * not exact: over n samples its deviation is sqrt(n * 2/9), about 5%
	 * of a at n = 1000, and a 10% band failed one run in ten.  Four
	 * deviations keep a false alarm below one run in 10,000 while
	 * still refusing a 1:1 or 1:3 split (over 8 deviations away).  The
	 * CPU time the child reads is logged, not compared: when the host
	 * stalls the guest, the stall is charged to the task's CPU time but
	 * the task clock's timer fires once for it (perf skips the periods
	 * it missed), so that reading drifts from the samples by whichever
	 * function the stalls happened to hit.
	 */
	n = a + b;
	EXPECT_GE(4 * sqrt(n * 2.0 / 9), fabs(a - n / 3.0));
	EXPECT_EQ(a + b + other, (long)tend(&f, 0)->samples);
	free(f.buf);
}

TEST_F(task, exit_ends_measurement_file_complete)
{
	const struct meas_trec_end *e;
	const struct meas_trec *h;
	struct meas_task_start k;
	struct meas_task_stop s;
	char exe[PATH_MAX];
	int go = -1, st = -1, objects = 0;
	struct tfile f;
	size_t off;
	long at;
	pid_t pid;

	pid = spawn(run_exit, NULL, &go);
	ASSERT_EQ(0, tstart(self->fd, pid, 1, MEAS_TASK_SVC,
			    MEAS_TASK_LOAD_STD, self->path, &k));
	ASSERT_EQ(1, write(go, "g", 1));
	close(go);
	/* a zombie: the process is there, its measurement ended */
	ASSERT_EQ(pid, waitid(P_PID, pid, NULL, WEXITED | WNOWAIT) ? -1 : pid);
	f = twait_end(self->path, 0);
	at = tsession(&f, 0);
	e = tend(&f, at);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(MEAS_TASK_END_EXIT, e->reason);
	EXPECT_EQ(100, tsvc(&f, at, SYS_getppid));
	EXPECT_EQ(1, tsvc(&f, at, SYS_exit_group));
	EXPECT_EQ(tcount(&f, at, MEAS_TREC_SAMPLE), (long)e->samples);
	EXPECT_EQ(tcount(&f, at, MEAS_TREC_SVC), (long)e->svcs);
	EXPECT_EQ(0, e->lost);
	EXPECT_LT(0, e->cpu_ns);
	EXPECT_EQ(2, tcount(&f, at, MEAS_TREC_LOAD_END));
	/* paths as the process sees them, in the end's load information too */
	exe[readlink("/proc/self/exe", exe, sizeof(exe) - 1)] = 0;
	off = at;
	while ((h = tnext(&f, &off)))
		if (h->type == MEAS_TREC_OBJECT &&
		    strstr(((const struct meas_trec_object *)h)->name, "task_test")) {
			EXPECT_STREQ(exe, ((const struct meas_trec_object *)h)->name);
			objects++;
		}
	EXPECT_EQ(2, objects);	/* its code at the start and at the end */
	EXPECT_EQ(-ENOENT, tstop(self->fd, pid, &s));
	EXPECT_EQ(MEAS_TASK_NOTMEASURED, s.result);
	waitpid(pid, &st, 0);
	EXPECT_EQ(7, WEXITSTATUS(st));
	free(f.buf);
}

TEST_F(task, detailed_load_info_dlopen_dlclose)
{
	const struct meas_trec_object *map, *end_obj = NULL;
	const struct meas_trec_unmap *um = NULL;
	const struct meas_trec *h;
	struct tfile f;
	size_t off;
	long at;

	f = measure_run(self->fd, self->path, run_dlopen, 1, 0,
			MEAS_TASK_LOAD_DETAILED, NULL, &at);
	ASSERT_LE(0, at);
	map = tobject(&f, at, MEAS_TREC_MAP, "libmeas_task_dso.so");
	ASSERT_NE(NULL, map);
	EXPECT_EQ(MEAS_TREC_PROT_EXEC, map->prot & MEAS_TREC_PROT_EXEC);
	/* an UNMAP of that range after the MAP, and no trace of it at the end */
	off = (const char *)map - f.buf;
	while ((h = tnext(&f, &off)))
		if (h->type == MEAS_TREC_UNMAP &&
		    ((const struct meas_trec_unmap *)h)->start <= map->start &&
		    ((const struct meas_trec_unmap *)h)->end >= map->end)
			um = (const void *)h;
		else if (h->type == MEAS_TREC_OBJECT &&
			 strstr(((const struct meas_trec_object *)h)->name,
				"libmeas_task_dso"))
			end_obj = (const void *)h;
	EXPECT_NE(NULL, um);
	EXPECT_EQ(NULL, end_obj);
	free(f.buf);
}

TEST_F(task, standard_load_info_has_no_map_records)
{
	struct tfile f;
	long at;

	f = measure_run(self->fd, self->path, run_dlopen, 0, 0,
			MEAS_TASK_LOAD_STD, NULL, &at);
	ASSERT_LE(0, at);
	EXPECT_EQ(0, tcount(&f, at, MEAS_TREC_MAP));
	EXPECT_EQ(0, tcount(&f, at, MEAS_TREC_UNMAP));
	EXPECT_EQ(2, tcount(&f, at, MEAS_TREC_LOAD_BEGIN));
	free(f.buf);
}

TEST_F(task, exec_starts_a_new_generation)
{
	const struct meas_trec_object *o;
	struct tfile f;
	long at;

	f = measure_run(self->fd, self->path, run_exec, 1, MEAS_TASK_SVC,
			MEAS_TASK_LOAD_STD, NULL, &at);
	ASSERT_LE(0, at);
	EXPECT_EQ(1, tcount(&f, at, MEAS_TREC_EXEC));
	/* start, before exec, after exec, end */
	EXPECT_EQ(4, tcount(&f, at, MEAS_TREC_LOAD_BEGIN));
	o = tobject(&f, at, MEAS_TREC_OBJECT, "/true");
	ASSERT_NE(NULL, o);
	EXPECT_EQ(1, o->gen);
	EXPECT_EQ(1, tsvc(&f, at, SYS_execve));
	free(f.buf);
}

TEST_F(task, kernel_mode_samples_counted_not_recorded)
{
	const struct meas_trec_end *e;
	struct tfile f;
	long at;

	f = measure_run(self->fd, self->path, run_kernel, 1, 0,
			MEAS_TASK_LOAD_STD, NULL, &at);
	ASSERT_LE(0, at);
	e = tend(&f, at);
	TH_LOG("user samples %llu, kernel-mode samples %llu",
	       (unsigned long long)e->samples,
	       (unsigned long long)e->kernel_samples);
	EXPECT_LT(e->samples, e->kernel_samples);
	free(f.buf);
}

TEST_F(task, threads_sampled)
{
	const struct meas_trec *h;
	long main_n = 0, other_n = 0, at;
	pid_t pid, tid2 = 0;
	struct tfile f;
	size_t off;

	f = measure_run(self->fd, self->path, run_threads, 1, 0,
			MEAS_TASK_LOAD_STD, &pid, &at);
	ASSERT_LE(0, at);
	off = at;
	tnext(&f, &off);
	while ((h = tnext(&f, &off)))
		if (h->type == MEAS_TREC_SAMPLE) {
			if (h->tid == (uint32_t)pid)
				main_n++;
			else if (!tid2 || h->tid == (uint32_t)tid2)
				tid2 = h->tid, other_n++;
		}
	/* the second thread was created during the measurement */
	EXPECT_LT(20, main_n);
	EXPECT_LT(20, other_n);
	free(f.buf);
}

TEST_F(task, sessions_append)
{
	struct meas_task_start k;
	struct meas_task_stop s;
	struct tfile f;

	ASSERT_EQ(0, tstart(self->fd, 0, 0, 0, 0, self->path, &k));
	ASSERT_EQ(0, tstop(self->fd, 0, &s));
	ASSERT_EQ(0, tstart(self->fd, 0, 0, 0, 0, self->path, &k));
	ASSERT_EQ(0, tstop(self->fd, 0, &s));
	f = tread(self->path);
	ASSERT_LE(0, tsession(&f, 1));
	EXPECT_GT(0, tsession(&f, 2));
	EXPECT_NE(NULL, tend(&f, tsession(&f, 0)));
	EXPECT_EQ(k.session, ((const struct meas_trec_session *)
			      (f.buf + tsession(&f, 1)))->session);
	EXPECT_EQ(0, memcmp(f.buf + sizeof(struct meas_trec), MEAS_TASK_MAGIC, 8));
	free(f.buf);
}

TEST_F(task, one_file_one_measurement)
{
	struct meas_task_start k;
	struct meas_task_stop s;
	int go = -1, st;
	pid_t pid = spawn(run_sleep, NULL, &go);

	ASSERT_EQ(0, tstart(self->fd, pid, 0, 0, 0, self->path, &k));
	EXPECT_EQ(-EMEDIUMTYPE, tstart(self->fd, 0, 0, 0, 0, self->path, &k));
	EXPECT_EQ(MEAS_TASK_BADFILE, k.result);
	EXPECT_EQ(0, tstop(self->fd, pid, &s));
	EXPECT_EQ(-ENOENT, tstop(self->fd, 0, &s));
	kill(pid, SIGKILL);
	close(go);
	waitpid(pid, &st, 0);
}

TEST_F(task, standard_file)
{
	struct meas_task_start k;
	struct meas_task_stop s;
	char std[96];
	struct tfile f;

	snprintf(std, sizeof(std), MEAS_TASK_STD_FMT, getuid(), getpid());
	unlink(std);
	ASSERT_EQ(0, tstart(self->fd, 0, 0, 0, 0, NULL, &k));
	ASSERT_EQ(0, tstop(self->fd, 0, &s));
	f = tread(std);
	ASSERT_NE(NULL, f.buf);
	EXPECT_EQ(0, tsession(&f, 0));
	free(f.buf);
	/* a symbolic link planted there is refused */
	unlink(std);
	ASSERT_EQ(0, symlink(self->path, std));
	EXPECT_EQ(-EMEDIUMTYPE, tstart(self->fd, 0, 0, 0, 0, NULL, &k));
	EXPECT_EQ(MEAS_TASK_BADFILE, k.result);
	unlink(std);
	/* so is one made by another user */
	ASSERT_LE(0, open(std, O_CREAT | O_WRONLY, 0666));
	ASSERT_EQ(0, chown(std, 4321, 4321));
	EXPECT_EQ(-EMEDIUMTYPE, tstart(self->fd, 0, 0, 0, 0, NULL, &k));
	unlink(std);
}

TEST_F(task, twice_busy_stop_unmeasured_no_task)
{
	struct meas_task_start k;
	struct meas_task_stop s;
	int go = -1, st;
	pid_t pid;

	pid = spawn(run_sleep, NULL, &go);
	ASSERT_EQ(0, tstart(self->fd, pid, 0, 0, 0, self->path, &k));
	EXPECT_EQ(-EBUSY, tstart(self->fd, pid, 0, 0, 0, self->path, &k));
	EXPECT_EQ(MEAS_TASK_BUSY, k.result);
	EXPECT_EQ(0, tstop(self->fd, pid, &s));
	EXPECT_EQ(-ENOENT, tstop(self->fd, pid, &s));
	EXPECT_EQ(MEAS_TASK_NOTMEASURED, s.result);
	kill(pid, SIGKILL);
	close(go);
	waitpid(pid, &st, 0);
	/* a reaped process */
	EXPECT_EQ(-ESRCH, tstart(self->fd, pid, 0, 0, 0, self->path, &k));
	EXPECT_EQ(MEAS_TASK_NOTASK, k.result);
	EXPECT_EQ(-ESRCH, tstop(self->fd, pid, &s));
	/* a kernel thread (kthreadd) */
	EXPECT_EQ(-ESRCH, tstart(self->fd, 2, 0, 0, 0, self->path, &k));
	EXPECT_EQ(MEAS_TASK_NOTASK, k.result);
}

struct perm_arg {
	pid_t pid;
	const char *path;
	int want_errno, want_result, stop;
};

static int try_measure(void *p)
{
	struct perm_arg *a = p;
	struct meas_task_start k;
	struct meas_task_stop s;
	int fd = open(MEAS_DEVICE, O_RDWR), rc;

	if (a->stop) {
		rc = tstop(fd, a->pid, &s);
		return rc == a->want_errno && s.result == a->want_result ? 0 : 1;
	}
	rc = tstart(fd, a->pid, 1, MEAS_TASK_SVC, 0, a->path, &k);
	if (rc != a->want_errno || k.result != a->want_result)
		return 1;
	return rc ? 0 : (tstop(fd, a->pid, &s) ? 2 : 0);
}

TEST_F(task, other_users_process_not_allowed)
{
	struct perm_arg a = { .path = self->path };
	struct meas_task_start k;
	struct meas_task_stop s;
	int go = -1, st;
	pid_t pid;

	pid = spawn(run_sleep, NULL, &go);
	/* root's process, an unprivileged user: NPS0051 */
	a.pid = pid;
	a.want_errno = -EPERM;
	a.want_result = MEAS_TASK_NOTALLOWED;
	EXPECT_EQ(0, as_user(1000, try_measure, &a));
	/* nor may it stop root's measurement */
	ASSERT_EQ(0, tstart(self->fd, pid, 0, 0, 0, self->path, &k));
	a.stop = 1;
	EXPECT_EQ(0, as_user(1000, try_measure, &a));
	/* ended here, not by the exit, so that no later test finds it running */
	EXPECT_EQ(0, tstop(self->fd, pid, &s));
	kill(pid, SIGKILL);
	close(go);
	waitpid(pid, &st, 0);
}

static int own_process(void *p)
{
	struct perm_arg *a = p;
	int go = -1, st, rc;
	pid_t pid = spawn(run_sleep, NULL, &go);

	a->pid = pid;
	rc = try_measure(a);
	kill(pid, SIGKILL);
	close(go);
	waitpid(pid, &st, 0);
	return rc;
}

TEST_F(task, own_users_process_allowed)
{
	struct perm_arg a = { .path = self->path };

	EXPECT_EQ(0, as_user(1000, own_process, &a));
}

/* Each malformed struct: its errno, nothing copied back, nothing started. */
static int bad_start(int fd, struct meas_task_start *k)
{
	k->result = MEAS_RC_NONE;
	if (!ioctl(fd, MEAS_IOC_TASK_START, k))
		return 0;
	return k->result == MEAS_RC_NONE ? errno : -1;
}

/*
 * Fields out of range.  The rules every struct follows (size, flags, pad,
 * reserved, trailing bytes, an unreadable struct) are tested once for
 * all ioctls, in struct_rules_test.c.
 */
TEST_F(task, bad_arguments)
{
	struct meas_task_start k;
	struct meas_task_stop s;

	tfill(&k, 0, MEAS_TASK_PCOUNTER_MAX + 1, 0, 0, self->path);
	EXPECT_EQ(EINVAL, bad_start(self->fd, &k));
	tfill(&k, 0, 0, 0, MEAS_TASK_LOAD_DETAILED + 1, self->path);
	EXPECT_EQ(EINVAL, bad_start(self->fd, &k));
	tfill(&k, -1, 0, 0, 0, self->path);
	EXPECT_EQ(EINVAL, bad_start(self->fd, &k));
	tfill(&k, 0, 0, 0, 0, (char *)8);
	EXPECT_EQ(EFAULT, bad_start(self->fd, &k));
	tstop(self->fd, 0, &s);
	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	s.pid = -1;
	EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_TASK_STOP, &s));
	EXPECT_EQ(EINVAL, errno);
	/* nothing was started, no file made */
	EXPECT_EQ(-ENOENT, tstop(self->fd, 0, &s));
	EXPECT_EQ(-1, access(self->path, F_OK));
}

TEST_F(task, bad_files)
{
	char p[160], longp[MEAS_TASK_PATH_MAX + 16];
	struct meas_task_start k;
	struct meas_task_stop s;
	int fd;

	/* a directory, a FIFO (must not block), a file not of ours */
	EXPECT_EQ(-EMEDIUMTYPE, tstart(self->fd, 0, 0, 0, 0, self->dir, &k));
	EXPECT_EQ(MEAS_TASK_BADFILE, k.result);
	snprintf(p, sizeof(p), "%s/fifo", self->dir);
	ASSERT_EQ(0, mkfifo(p, 0600));
	EXPECT_EQ(-EMEDIUMTYPE, tstart(self->fd, 0, 0, 0, 0, p, &k));
	snprintf(p, sizeof(p), "%s/text", self->dir);
	fd = open(p, O_CREAT | O_WRONLY, 0600);
	ASSERT_EQ(5, write(fd, "hello", 5));
	close(fd);
	EXPECT_EQ(-EMEDIUMTYPE, tstart(self->fd, 0, 0, 0, 0, p, &k));
	/* the file cannot be opened: NPS0067 with the errno */
	snprintf(p, sizeof(p), "%s/no/such/dir", self->dir);
	EXPECT_EQ(-EIO, tstart(self->fd, 0, 0, 0, 0, p, &k));
	EXPECT_EQ(MEAS_TASK_FILEIO, k.result);
	EXPECT_EQ(ENOENT, k.file_errno);
	EXPECT_EQ(-EIO, tstart(self->fd, 0, 0, 0, 0, "/usr/meas-task-ro", &k));
	EXPECT_EQ(EROFS, k.file_errno);
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = 0;
	EXPECT_EQ(-EIO, tstart(self->fd, 0, 0, 0, 0, longp, &k));
	EXPECT_EQ(ENAMETOOLONG, k.file_errno);
	EXPECT_EQ(-ENOENT, tstop(self->fd, 0, &s));
}

TEST_F(task, limit_of_measurements)
{
	struct meas_task_start k;
	struct meas_task_stop s;
	char p2[128];
	int go = -1, st;
	pid_t pid;

	pid = spawn(run_sleep, NULL, &go);
	set_param("max_tasks", "1");
	EXPECT_EQ(0, tstart(self->fd, pid, 0, 0, 0, self->path, &k));
	snprintf(p2, sizeof(p2), "%s/second", self->dir);
	EXPECT_EQ(-ENOSPC, tstart(self->fd, 0, 0, 0, 0, p2, &k));
	EXPECT_EQ(MEAS_TASK_LIMIT, k.result);
	EXPECT_EQ(-1, access(p2, F_OK));	/* no file made */
	set_param("max_tasks", "16");
	EXPECT_EQ(0, tstop(self->fd, pid, &s));
	kill(pid, SIGKILL);
	close(go);
	waitpid(pid, &st, 0);
}

TEST_F(task, owned_ends_when_file_released)
{
	const struct meas_trec_end *e;
	struct meas_task_start k;
	struct meas_task_stop s;
	int fd2 = open(MEAS_DEVICE, O_RDWR);
	struct tfile f;

	ASSERT_EQ(0, tstart(fd2, 0, 0, MEAS_TASK_OWNED, 0, self->path, &k));
	close(fd2);
	f = tread(self->path);
	e = tend(&f, 0);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(MEAS_TASK_END_RELEASE, e->reason);
	EXPECT_EQ(-ENOENT, tstop(self->fd, 0, &s));
	free(f.buf);
}

/* 200000 measured calls passed the harness's 30 s in the KCSAN kernel */
TEST_F_TIMEOUT(task, ring_overflow_counted, 240)
{
	const struct meas_trec *h;
	const struct meas_trec_end *e;
	struct meas_task_start k;
	struct meas_task_stop s;
	long svc = 0, lost = 0;
	struct tfile f;
	size_t off;
	int i;

	set_param("task_ring_kib", "64");
	ASSERT_EQ(0, tstart(self->fd, 0, 0, MEAS_TASK_SVC, 0, self->path, &k));
	for (i = 0; i < 200000; i++)
		syscall(SYS_getpid);
	ASSERT_EQ(0, tstop(self->fd, 0, &s));
	set_param("task_ring_kib", "1024");
	f = tread(self->path);
	off = 0;
	e = tend(&f, 0);
	ASSERT_NE(NULL, e);
	tnext(&f, &off);
	while ((h = tnext(&f, &off))) {
		svc += h->type == MEAS_TREC_SVC;
		if (h->type == MEAS_TREC_LOST)
			lost += ((const struct meas_trec_lost *)h)->count;
	}
	TH_LOG("200001 calls: %ld recorded, %ld lost", svc, lost);
	EXPECT_EQ(200001, svc + lost);	/* the getpids and the STOP */
	EXPECT_EQ(lost, (long)e->lost);
	EXPECT_EQ(lost, (long)s.lost);
	EXPECT_EQ(svc, (long)s.svcs);
	free(f.buf);
}

TEST_F(task, system_errors_change_nothing)
{
	struct meas_task_start k;
	struct meas_task_stop s;

	/* NPS0050: the CPU clocks cannot be made, then no memory */
	set_param("fail_task", "1");
	EXPECT_EQ(-EIO, tstart(self->fd, 0, 1, MEAS_TASK_SVC,
			       MEAS_TASK_LOAD_DETAILED, self->path, &k));
	EXPECT_EQ(MEAS_TASK_SYSERR, k.result);
	set_param("fail_task", "2");
	EXPECT_EQ(-ENOMEM, tstart(self->fd, 0, 1, 0, 0, self->path, &k));
	EXPECT_EQ(MEAS_TASK_SYSERR, k.result);
	EXPECT_EQ(-ENOENT, tstop(self->fd, 0, &s));
	EXPECT_EQ(-1, access(self->path, F_OK));
	EXPECT_EQ(0, info_of(self->fd).probes);
	/* and the next start works */
	EXPECT_EQ(0, tstart(self->fd, 0, 1, MEAS_TASK_SVC, 0, self->path, &k));
	EXPECT_EQ(0, tstop(self->fd, 0, &s));
}

static char suid_true[64];

static int run_exec_suid(void *arg __attribute__((unused)))
{
	execl(suid_true, "true", (char *)NULL);
	return 93;
}

/* As user 1000: measure a child of its own that executes a set-user-ID program. */
static int measure_suid(void *p)
{
	const char *path = p;
	struct meas_task_start k;
	int fd = open(MEAS_DEVICE, O_RDWR), go = -1;
	pid_t pid = spawn(run_exec_suid, NULL, &go);

	if (tstart(fd, pid, 1, MEAS_TASK_SVC, MEAS_TASK_LOAD_DETAILED, path,
		   &k))
		return 1;
	return release_and_wait(pid, go) ? 2 : 0;
}

TEST_F(task, setuid_exec_ends_unprivileged_measurement)
{
	const struct meas_trec_end *e;
	struct tfile f;
	long at;

	snprintf(suid_true, sizeof(suid_true), "%.40s/suid", self->dir);
	ASSERT_EQ(0, mkdir(suid_true, 0755));
	ASSERT_EQ(0, mount("none", suid_true, "tmpfs", 0, "mode=0755"));
	strcat(suid_true, "/true");
	ASSERT_EQ(0, copy_file("/bin/true", suid_true, 04755));
	ASSERT_EQ(0, as_user(1000, measure_suid, self->path));
	f = twait_end(self->path, 0);
	at = tsession(&f, 0);
	e = tend(&f, at);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(MEAS_TASK_END_DENIED, e->reason);
	/* nothing of the set-user-ID program: no objects of generation 1 */
	EXPECT_EQ(NULL, tobject(&f, at, MEAS_TREC_OBJECT, "suid/true"));
	*strrchr(suid_true, '/') = 0;
	umount(suid_true);
	free(f.buf);
}

static int run_busy(void *arg __attribute__((unused)))
{
	for (;;) {
		hot_a(hot_n / 100);
		syscall(SYS_getppid);
	}
	return 0;
}

/*
 * A running measurement holds the module: rmmod is refused at once, not
 * left to wait for the measurement's file (issue 37); after STOP the
 * module goes, and nothing is left behind.  Runs last: the module is
 * loaded again at the end.
 */
TEST(unload_refused_while_measuring)
{
	const char *ko = getenv("MEAS_KO") ?: "module/meas.ko";
	const struct meas_trec_end *e;
	char path[] = "/tmp/meas-unload.out", cmd[256];
	struct meas_task_start k;
	struct meas_task_stop ks;
	int fd, go = -1, st;
	struct tfile f;
	pid_t pid;

	if (!hot_n)
		hot_n = calibrate();
	unlink(path);
	pid = spawn(run_busy, NULL, &go);
	fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tstart(fd, pid, 1, MEAS_TASK_SVC,
			    MEAS_TASK_LOAD_DETAILED, path, &k));
	close(fd);
	ASSERT_EQ(1, write(go, "g", 1));
	sleep_ms(300);
	EXPECT_EQ(-1, syscall(SYS_delete_module, "meas", O_NONBLOCK));
	EXPECT_TRUE(errno == EAGAIN || errno == EBUSY);
	fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, tstop(fd, pid, &ks));
	close(fd);
	EXPECT_EQ(0, system("rmmod meas"));
	f = tread(path);
	e = tend(&f, 0);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(MEAS_TASK_END_STOP, e->reason);
	EXPECT_LT(0, e->samples);
	EXPECT_LT(0, e->svcs);
	/* the process runs on, unmeasured */
	sleep_ms(100);
	EXPECT_EQ(0, kill(pid, 0));
	kill(pid, SIGKILL);
	close(go);
	waitpid(pid, &st, 0);
	snprintf(cmd, sizeof(cmd), "insmod %s", ko);
	EXPECT_EQ(0, system(cmd));
	EXPECT_EQ(0, meas_udev());
	free(f.buf);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the in-VM selftests: see common.h. */
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "common.h"

int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		err = -errno;
	close(fd);
	return err;
}

int try_set_param(const char *name, const char *value)
{
	char path[128];
	int err;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	err = write_file(path, value);
	/* The fault-injection hooks exist in the test build only. */
	if (err == -ENOENT && access(PARAM_DIR, F_OK) == 0)
		fprintf(stderr, "# meas.ko has no parameter %s (the fault-injection ones need the test build, make MEAS_TEST=1)\n",
			name);
	else if (err == -ENOENT)
		fprintf(stderr, "# meas.ko is not loaded: no " PARAM_DIR "\n");
	return err;
}

void set_param(const char *name, const char *value)
{
	int err = try_set_param(name, value);

	if (err) {
		fprintf(stderr, PARAM_DIR "%s: %s\n", name, strerror(-err));
		exit(1);
	}
}

struct meas_info info_of(int fd)
{
	struct meas_info info;

	if (meas_info(fd, &info))
		memset(&info, 0xff, sizeof(info));
	return info;
}

void drop_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { 0 };

	if (syscall(SYS_capset, &h, d)) {
		perror("capset");
		exit(99);
	}
}

int meas_udev(void)
{
	if (wait_dev(MEAS_DEVICE, S_IFCHR))
		return -ENOENT;
	if (chown(MEAS_DEVICE, 0, MEAS_VM_GID) || chmod(MEAS_DEVICE, 0660))
		return -errno;
	return 0;
}

int become_member(uid_t uid, gid_t gid)
{
	gid_t meas = MEAS_VM_GID;

	if (setgroups(1, &meas) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		return -1;
	return 0;
}

uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t mono_ns(void)
{
	return now_ns(CLOCK_MONOTONIC);
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

void sort_longs(long *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_long);
}

void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

uint64_t proc_stat_ctxt(void)
{
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "ctxt %llu", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

void pingpong(int n)
{
	int a[2], b[2], i;
	pid_t pid;
	char c = 0;

	pin_cpu(0);
	if (pipe(a) || pipe(b))
		exit(1);
	pid = fork();
	if (!pid) {
		for (i = 0; i < n; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			break;
	waitpid(pid, NULL, 0);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
}

static int c0_switch_items(int fd, uint64_t *launches, uint64_t *idles)
{
	uint64_t v[MEAS_C0_FIXED_ITEMS];
	int rc;

	if (meas_get(fd, 0, 0, 0, MEAS_C0_FIXED_ITEMS, v, sizeof(v), &rc))
		return -1;
	*launches = v[MEAS_C0_LAUNCHES];
	*idles = v[MEAS_C0_PAUSE_IDLE];
	return 0;
}

int c0_switches_over_pingpong(int fd, int n, struct c0_switches *s)
{
	uint64_t l0, i0, l1, i1, c0;

	c0 = proc_stat_ctxt();
	if (c0_switch_items(fd, &l0, &i0))
		return -1;
	pingpong(n);
	if (c0_switch_items(fd, &l1, &i1))
		return -1;
	s->ctxt = proc_stat_ctxt() - c0;
	s->launches = l1 - l0;
	s->idles = i1 - i0;
	return 0;
}

static int diskstats_once(const char *name, struct dstats *d)
{
	unsigned long long v[17];
	char line[512], n[64];
	FILE *f = fopen("/proc/diskstats", "r");
	int found = -1;

	memset(d, 0, sizeof(*d));
	while (f && fgets(line, sizeof(line), f)) {
		memset(v, 0, sizeof(v));
		if (sscanf(line, "%*u %*u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   n, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13],
			   &v[14], &v[15], &v[16]) < 12 || strcmp(n, name))
			continue;
		d->rd = v[0];
		d->rd_sect = v[2];
		d->wr = v[4];
		d->wr_sect = v[6];
		d->disc = v[11];
		d->disc_sect = v[13];
		d->flush = v[15];
		found = 0;
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * The block layer wakes a waiter on its I/O (bio_endio(), inside
 * blk_update_request()) before it accounts the request in
 * /proc/diskstats (blk_account_io_done(), after): a test woken by its
 * last I/O may read the kernel's counts one request short.  It was seen
 * on 7.3 rt, where the completion runs in a thread the woken test
 * preempts.  meas counts at block_rq_complete, before the wakeup, so it
 * is the kernel's figure that must settle: read until two reads 10 ms
 * apart agree, for at most a second.
 */
int diskstats(const char *name, struct dstats *d)
{
	struct dstats next;
	int i, rc = diskstats_once(name, d);

	for (i = 0; rc == 0 && i < 100; i++) {
		usleep(10000);
		rc = diskstats_once(name, &next);
		if (rc == 0 && !memcmp(&next, d, sizeof(next)))
			break;
		*d = next;
	}
	return rc;
}

/*
 * How long the time-items storms read (meas_test's and proc_test's
 * time_items_never_go_back): MEAS_STORM_SECONDS, 1 to 600, 2 when unset
 * or out of range; the KCSAN lane reads for longer.
 */
unsigned int storm_seconds(void)
{
	const char *v = getenv("MEAS_STORM_SECONDS");
	long n = v ? strtol(v, NULL, 10) : 0;

	return n >= 1 && n <= 600 ? (unsigned int)n : 2;
}

/*
 * The round trips of the ping-pong the switch counts are checked over
 * (meas_test's launches_follow_pingpong_and_ctxt, stress's
 * launches_agree_with_ctxt): MEAS_PINGPONG_TRIPS, 1000 to 20000, 20000
 * when unset or out of range.  In the KCSAN kernel a switch costs ten
 * times as much and the lane asks for fewer.
 */
int pingpong_trips(void)
{
	const char *v = getenv("MEAS_PINGPONG_TRIPS");
	long n = v ? strtol(v, NULL, 10) : 0;

	return n >= 1000 && n <= 20000 ? (int)n : 20000;
}

uint64_t dev_of(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	return MEAS_DEV(major(st.st_rdev), minor(st.st_rdev));
}

int wait_dev(const char *path, mode_t type)
{
	struct stat st;
	int i;

	for (i = 0; i < 500; i++) {
		if (!stat(path, &st) && (st.st_mode & S_IFMT) == type)
			return 0;
		usleep(10000);
	}
	return -1;
}

int wait_node(const char *path)
{
	return wait_dev(path, S_IFBLK);
}

bool null_blk_loaded(void)
{
	return !access("/sys/module/null_blk", F_OK);
}

/* Every exec is slow in the VM: only when there is something to do. */
void null_blk_unload(void)
{
	int i;

	for (i = 0; i < 50 && null_blk_loaded(); i++)
		if (system("rmmod null_blk 2>/dev/null"))
			usleep(50000);
}

int null_blk_load(const char *params)
{
	char cmd[256];

	null_blk_unload();
	snprintf(cmd, sizeof(cmd), "modprobe null_blk %s", params);
	if (system(cmd))
		return -1;
	return wait_node("/dev/nullb0");
}

int do_io(const char *path, int reads, int writes, int extra_flags,
	  uint64_t first)
{
	int fd = open(path, O_RDWR | O_DIRECT | extra_flags);
	const int bs = DIRECT_IO_BS;
	void *buf;
	int i, err = 0;

	if (fd < 0)
		return -errno;
	if (posix_memalign(&buf, bs, bs)) {
		close(fd);
		return -ENOMEM;
	}
	memset(buf, 0x5a, bs);
	for (i = 0; i < reads && !err; i++)
		if (pread(fd, buf, bs, (first + i) * bs) != bs)
			err = -EIO;
	for (i = 0; i < writes && !err; i++)
		if (pwrite(fd, buf, bs, (first + reads + i) * bs) != bs)
			err = -EIO;
	free(buf);
	close(fd);
	return err;
}

unsigned int items_gone_back(uint64_t *prev, const uint64_t *cur, size_t n,
			     const unsigned int *items, size_t nitems)
{
	static unsigned int logged;
	unsigned int back = 0;
	size_t i;

	for (i = 0; i < nitems; i++) {
		if (cur[items[i]] >= prev[items[i]])
			continue;
		if (logged++ < 5)
			fprintf(stderr, "# item %u went back by %llu ns\n",
				items[i], (unsigned long long)(prev[items[i]] -
							       cur[items[i]]));
		back++;
	}
	memcpy(prev, cur, n * sizeof(*cur));
	return back;
}

int scan_file(const char *path, const char *fmt, long long *v)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, fmt, v) == 1;
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

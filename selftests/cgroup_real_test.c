// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup_real_test - the per-cgroup totals and class 14's cgroup against
 * the kernel's own accounting, with real parts: systemd services made by
 * systemd-run and a podman container (Documentation/cgroup.rst, "Tested
 * with real parts").  Run by cgroup_real.sh in the test VM booted with
 * systemd as PID 1 (run-vm.sh --systemd), with a scratch disk whose first
 * 32 MiB hold an ext4 file system mounted at $MEAS_CGR_MNT and whose
 * space from 48 MiB on is read and written raw; the podman image
 * $MEAS_CGR_IMAGE is made by cgroup_real.sh from busybox-static.
 *
 * Each service and the container are made after class 15 is enabled, so
 * meas counts them from their creation, as cpu.stat and io.stat do: the
 * figures are compared whole, not as differences.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"
#include "cglib.h"

#define CLASS15		(1U << MEAS_CLASS_PROC)
#define CLASS14		(1U << MEAS_CLASS_IO)
#define CGROOT		"/sys/fs/cgroup"
#define RUNDIR		"/run/meas-cgr"
#define RAW_BLOCK	12288	/* 4 KiB blocks: 48 MiB, past the ext4 */
#define NREADS		200
#define NWRITES		100
#define STORM		200
#define CT_BYTES	(8 << 20)
#define NRECS		16384

/* ---- the host's tools ----------------------------------------------------- */

/* Run a shell command made from @fmt: its exit status, or -1. */
static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* The first line a shell command prints, into @out: 0 or -1. */
static int run_line(char *out, size_t size, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	FILE *f;
	int ok;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	ok = fgets(out, size, f) != NULL;
	if (pclose(f) || !ok)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return out[0] ? 0 : -1;
}

/* Wait up to @s seconds for @path to exist: 0 or -1. */
static int wait_file(const char *path, unsigned int s)
{
	unsigned int i;

	for (i = 0; i < s * 10; i++) {
		if (!access(path, F_OK))
			return 0;
		sleep_ms(100);
	}
	return -1;
}

/*
 * Wait up to @s seconds for @pid to have exited: gone, or a zombie (its
 * parent, a shell that became sleep(1), does not reap it): 0 or -1.
 */
static int wait_gone(pid_t pid, unsigned int s)
{
	char file[64], st[512], *p;
	unsigned int i;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/stat", pid);
	for (i = 0; i < s * 10; i++) {
		f = fopen(file, "r");
		if (!f)
			return 0;
		p = fgets(st, sizeof(st), f) ? strrchr(st, ')') : NULL;
		fclose(f);
		if (p && p[1] == ' ' && p[2] == 'Z')
			return 0;
		sleep_ms(100);
	}
	return -1;
}

/* ---- a cgroup as the kernel accounts it ----------------------------------- */

struct cgi {
	char path[320];		/* below CGROOT, with its leading '/' */
	uint64_t id;
};

/* The cgroup of @pid (cgroup v2): 0 or -1. */
static int cgi_of_pid(struct cgi *c, pid_t pid)
{
	char file[64], line[320], dir[352];
	struct stat st;
	FILE *f;
	int found = 0;

	snprintf(file, sizeof(file), "/proc/%d/cgroup", pid);
	f = fopen(file, "r");
	while (f && !found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(c->path, sizeof(c->path), "%s", line + 3);
			found = 1;
		}
	if (f)
		fclose(f);
	snprintf(dir, sizeof(dir), CGROOT "%s", c->path);
	if (!found || stat(dir, &st))
		return -1;
	c->id = st.st_ino;
	return 0;
}

/* The cgroup of systemd unit @unit (its ControlGroup): 0 or -1. */
static int cgi_of_unit(struct cgi *c, const char *unit)
{
	char dir[352];
	struct stat st;

	if (run_line(c->path, sizeof(c->path),
		     "systemctl show -P ControlGroup %s", unit))
		return -1;
	snprintf(dir, sizeof(dir), CGROOT "%s", c->path);
	if (stat(dir, &st))
		return -1;
	c->id = st.st_ino;
	return 0;
}

/* The value of @key in @c's flat-keyed file @file (cpu.stat): or -1. */
static long long cgi_stat(const struct cgi *c, const char *file,
			  const char *key)
{
	char path[384], fmt[64];
	long long v = -1;

	snprintf(path, sizeof(path), CGROOT "%s/%s", c->path, file);
	snprintf(fmt, sizeof(fmt), "%s %%lld", key);
	scan_file(path, fmt, &v);
	return v;
}

/* io.stat's line for @dev in @c: rbytes, wbytes, rios, wios. */
struct iostat {
	unsigned long long rbytes, wbytes, rios, wios;
};

static int cgi_io(const struct cgi *c, dev_t dev, struct iostat *s)
{
	char path[384], line[512], want[32];
	int found = 0;
	FILE *f;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), CGROOT "%s/io.stat", c->path);
	snprintf(want, sizeof(want), "%u:%u ", major(dev), minor(dev));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)))
			found = sscanf(line + strlen(want),
				       "rbytes=%llu wbytes=%llu rios=%llu wios=%llu",
				       &s->rbytes, &s->wbytes, &s->rios,
				       &s->wios) == 4;
	fclose(f);
	return 0;	/* no line: no I/O there yet */
}

/* ---- meas's view ---------------------------------------------------------- */

/*
 * Class 14's records of @cg on @dev: summed by direction; the bytes
 * written by requests another process than @owner submitted apart.
 */
struct iosum {
	unsigned long long reads, writes, rbytes, wbytes, wby_others;
};

static void io_sum(int fd, uint64_t cg, uint64_t dev, pid_t owner,
		   struct iosum *s)
{
	static struct meas_io_record recs[NRECS];
	struct meas_iotrace_read r;
	uint32_t i;

	while (!meas_iotrace_read(fd, 0, recs, NRECS, &r) && r.records)
		for (i = 0; i < r.records; i++) {
			if (recs[i].cgroup != cg || recs[i].dev != dev)
				continue;
			if (recs[i].op == MEAS_IO_OP_READ) {
				s->reads++;
				s->rbytes += recs[i].bytes;
			} else if (recs[i].op == MEAS_IO_OP_WRITE) {
				s->writes++;
				s->wbytes += recs[i].bytes;
				if (owner && recs[i].tgid != owner)
					s->wby_others += recs[i].bytes;
			}
		}
}

/*
 * meas's CPU time of a cgroup against cpu.stat's usage_usec.  The kernel
 * counts sum_exec_runtime, without the interrupts it accounts apart;
 * meas counts switch-in to switch-out, interrupts included, and a thread
 * that moves takes the slice it is in to the new cgroup
 * (Documentation/cgroup.rst, "What is exact, and what is not").  So the
 * two agree within 10% and 20 ms (a few slices under TCG).
 */
static int cpu_agrees(struct __test_metadata *_metadata, const char *what,
		      const struct meas_cgroup_rec *rec, long long usage_us)
{
	long long meas_us = rec->item[MEAS_P_CPU_TIME] / 1000;

	TH_LOG("%s: CPU meas %lld us, cpu.stat %lld us", what, meas_us,
	       usage_us);
	return usage_us >= 0 && meas_us <= usage_us * 11 / 10 + 20000 &&
	       meas_us + 20000 >= usage_us * 9 / 10;
}

/* ---- the fixture ---------------------------------------------------------- */

FIXTURE(real) {
	int fd;		/* class 15 */
	int fd14;	/* class 14 */
	uint64_t disk;	/* MEAS_DEV() of the scratch disk */
	dev_t rdev;
	const char *dev, *mnt, *image;
};

FIXTURE_SETUP(real)
{
	struct stat st;
	int rc = -9;

	self->dev = getenv("MEAS_CGR_DISK");
	self->mnt = getenv("MEAS_CGR_MNT");
	self->image = getenv("MEAS_CGR_IMAGE");
	ASSERT_NE(NULL, self->dev);
	ASSERT_NE(NULL, self->mnt);
	ASSERT_NE(NULL, self->image);
	ASSERT_EQ(0, stat(self->dev, &st));
	self->rdev = st.st_rdev;
	self->disk = dev_of(self->dev);
	ASSERT_EQ(0, run("grep -qx systemd /proc/1/comm"));
	ASSERT_EQ(0, run("mkdir -p " RUNDIR " && rm -f " RUNDIR "/*"));
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, meas_start(self->fd, CLASS15, &rc));
	ASSERT_EQ(MEAS_START_OK, rc);
	self->fd14 = meas_open();
	ASSERT_LE(0, self->fd14);
	ASSERT_EQ(0, meas_start(self->fd14, CLASS14, &rc));
	ASSERT_EQ(MEAS_START_OK, rc);
}

FIXTURE_TEARDOWN(real)
{
	run("systemctl stop 'meas-cgr-*' >/dev/null 2>&1; "
	    "podman rm -f -t 0 meas-cgr-ct >/dev/null 2>&1");
	if (self->fd14 > 0) {
		meas_stop(self->fd14, CLASS14, NULL);
		close(self->fd14);
	}
	if (self->fd > 0) {
		meas_stop(self->fd, CLASS15, NULL);
		close(self->fd);
	}
}

/* ---- systemd services ----------------------------------------------------- */

/*
 * Service a: a storm of short-lived processes, then a spinner that the
 * test moves into service b while it runs; then a is stopped, so its
 * cgroup goes, and meas still gives its totals by ID, with its path.
 */
TEST_F_TIMEOUT(real, services_storm_move_and_removal, 300)
{
	struct meas_cgroup_rec a, b, gone;
	char path[MEAS_CGROUP_PATH_MAX], line[32];
	struct cgi ca, cb;
	long long ua, ub;
	pid_t spin;

	ASSERT_EQ(0, run("systemd-run --quiet --unit=meas-cgr-b -p CPUAccounting=yes sleep 600"));
	ASSERT_EQ(0, run("systemd-run --quiet --unit=meas-cgr-a -p CPUAccounting=yes "
			 "/bin/sh -c 'i=0; while [ $i -lt %d ]; do /bin/true; i=$((i+1)); done; "
			 "(while [ ! -e " RUNDIR "/stop ]; do :; done) & echo $! >" RUNDIR "/spin.new; "
			 "mv " RUNDIR "/spin.new " RUNDIR "/spin; exec sleep 600'", STORM));
	ASSERT_EQ(0, cgi_of_unit(&ca, "meas-cgr-a.service"));
	ASSERT_EQ(0, cgi_of_unit(&cb, "meas-cgr-b.service"));
	ASSERT_EQ(0, wait_file(RUNDIR "/spin", 120));
	ASSERT_EQ(0, run_line(line, sizeof(line), "cat " RUNDIR "/spin"));
	spin = atoi(line);
	ASSERT_LT(1, spin);
	sleep(1);	/* it spins in a */
	ASSERT_EQ(0, run("echo %d >" CGROOT "%s/cgroup.procs", spin, cb.path));
	sleep(1);	/* and in b */
	ASSERT_EQ(0, run("touch " RUNDIR "/stop"));
	ASSERT_EQ(0, wait_gone(spin, 30));

	ASSERT_EQ(0, cgroup_get(ca.id, &a, NULL));
	ua = cgi_stat(&ca, "cpu.stat", "usage_usec");
	ASSERT_EQ(0, cgroup_get(cb.id, &b, NULL));
	ub = cgi_stat(&cb, "cpu.stat", "usage_usec");
	EXPECT_TRUE(cpu_agrees(_metadata, ca.path, &a, ua));
	EXPECT_TRUE(cpu_agrees(_metadata, cb.path, &b, ub));
	/* the spinner's second in b is b's: its sleep alone is nothing */
	EXPECT_LE(500000000ULL, b.item[MEAS_P_CPU_TIME]);
	TH_LOG("a: %llu launches, %llu exits, %llu folded; b: %llu launches",
	       (unsigned long long)a.item[MEAS_P_LAUNCHES],
	       (unsigned long long)a.item[MEAS_P_STOP_EXIT],
	       (unsigned long long)a.folded,
	       (unsigned long long)b.item[MEAS_P_LAUNCHES]);
	/* the storm's processes exited in a, each once */
	EXPECT_LE(STORM, a.item[MEAS_P_STOP_EXIT]);
	EXPECT_LE(STORM, a.exited);
	EXPECT_EQ(0, a.flags);

	/* a goes: its record stays, by ID, with its path */
	ASSERT_EQ(0, run("systemctl stop meas-cgr-a.service"));
	ASSERT_EQ(0, run("for i in $(seq 50); do [ -d " CGROOT "%s ] || exit 0; sleep 0.1; done; exit 1",
			 ca.path));
	ASSERT_EQ(0, cgroup_get(ca.id, &gone, path));
	EXPECT_TRUE(gone.flags & MEAS_CG_REMOVED);
	EXPECT_STREQ(ca.path, path);
	EXPECT_EQ(0, gone.threads);
	/* what it had, and the sleep that the stop ended */
	EXPECT_LE(a.item[MEAS_P_CPU_TIME], gone.item[MEAS_P_CPU_TIME]);
	EXPECT_EQ(a.item[MEAS_P_STOP_EXIT] + 1, gone.item[MEAS_P_STOP_EXIT]);
}

/*
 * Service io: direct reads and writes of the raw part of the disk, one
 * at a time, so that each bio is one request.  Class 14's records of
 * the service's cgroup are io.stat's counts, exactly; class 15's disc
 * counts of the cgroup too; and the service waited on the disk.
 */
TEST_F_TIMEOUT(real, service_direct_io_against_io_stat, 300)
{
	struct iosum io = { 0 };
	struct meas_cgroup_rec r;
	struct iostat st;
	struct cgi c;

	ASSERT_EQ(0, run("systemd-run --quiet --unit=meas-cgr-io -p IOAccounting=yes "
			 "/bin/sh -c 'dd if=%s of=/dev/null bs=4k count=%d skip=%d iflag=direct status=none && "
			 "dd if=/dev/zero of=%s bs=4k count=%d seek=%d oflag=direct conv=notrunc status=none && "
			 "touch " RUNDIR "/io; exec sleep 600'",
			 self->dev, NREADS, RAW_BLOCK, self->dev, NWRITES, RAW_BLOCK));
	ASSERT_EQ(0, cgi_of_unit(&c, "meas-cgr-io.service"));
	ASSERT_EQ(0, wait_file(RUNDIR "/io", 120));
	ASSERT_EQ(0, cgi_io(&c, self->rdev, &st));
	io_sum(self->fd14, c.id, self->disk, 0, &io);
	ASSERT_EQ(0, cgroup_get(c.id, &r, NULL));
	TH_LOG("%s: io.stat rios %llu wios %llu rbytes %llu wbytes %llu; class 14 %llu %llu %llu %llu",
	       c.path, st.rios, st.wios, st.rbytes, st.wbytes,
	       io.reads, io.writes, io.rbytes, io.wbytes);
	EXPECT_EQ(NREADS, st.rios);
	EXPECT_EQ(NWRITES, st.wios);
	EXPECT_EQ(st.rios, io.reads);
	EXPECT_EQ(st.wios, io.writes);
	EXPECT_EQ(st.rbytes, io.rbytes);
	EXPECT_EQ(st.wbytes, io.wbytes);
	/* class 15's counts: the bios its threads submitted, every disk */
	EXPECT_LE(st.rios, r.item[MEAS_P_DISC_READS]);
	EXPECT_LE(st.wios, r.item[MEAS_P_DISC_WRITES]);
	TH_LOG("waits: disc stops %llu, paused on the disc %llu us",
	       (unsigned long long)(r.item[MEAS_P_STOP_DISC_BLOCKED] +
				    r.item[MEAS_P_STOP_DISC_UNBLOCKED]),
	       (unsigned long long)r.item[MEAS_P_PAUSE_DISC] / 1000);
	EXPECT_LT(0, r.item[MEAS_P_STOP_DISC_BLOCKED] +
		  r.item[MEAS_P_STOP_DISC_UNBLOCKED]);
	EXPECT_LT(0, r.item[MEAS_P_PAUSE_DISC]);
}

/* ---- a podman container --------------------------------------------------- */

/*
 * A container writes 8 MiB to a file of the ext4 without syncing; the
 * test's sync writes it back, from outside the container.  Class 14 gives
 * those writes to the container's cgroup, the owner of the pages, as
 * io.stat does, to the byte; and its CPU time agrees with cpu.stat.
 */
TEST_F_TIMEOUT(real, container_writeback_and_cpu, 300)
{
	struct meas_cgroup_rec r;
	struct iosum io = { 0 };
	struct iostat st;
	char line[64];
	struct cgi c;
	pid_t pid;

	ASSERT_EQ(0, run("podman run -d --quiet --name meas-cgr-ct --network none "
			 "-v %s:/data %s /bin/sh -c 'dd if=/dev/zero of=/data/f bs=64k count=%d 2>/dev/null; "
			 "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; "
			 "touch /data/done; exec sleep 600' >/dev/null",
			 self->mnt, self->image, CT_BYTES >> 16));
	ASSERT_EQ(0, run_line(line, sizeof(line),
			      "podman inspect -f '{{.State.Pid}}' meas-cgr-ct"));
	pid = atoi(line);
	ASSERT_LT(1, pid);
	ASSERT_EQ(0, cgi_of_pid(&c, pid));
	TH_LOG("the container's cgroup: %s (%llu)", c.path,
	       (unsigned long long)c.id);
	ASSERT_EQ(0, run("test -e %s/done || for i in $(seq 1200); do sleep 0.1; test -e %s/done && exit 0; done",
			 self->mnt, self->mnt));
	ASSERT_EQ(0, cgi_io(&c, self->rdev, &st));
	EXPECT_EQ(0, st.wbytes);	/* not written back yet */
	sync();
	ASSERT_EQ(0, cgi_io(&c, self->rdev, &st));
	io_sum(self->fd14, c.id, self->disk, pid, &io);
	TH_LOG("io.stat wbytes %llu wios %llu; class 14 %llu bytes in %llu requests, %llu submitted by others than the container's",
	       st.wbytes, st.wios, io.wbytes, io.writes, io.wby_others);
	EXPECT_LE(CT_BYTES, st.wbytes);
	EXPECT_EQ(st.wbytes, io.wbytes);
	EXPECT_EQ(io.wbytes, io.wby_others);	/* the flusher's, or sync's */

	ASSERT_EQ(0, cgroup_get(c.id, &r, NULL));
	EXPECT_TRUE(cpu_agrees(_metadata, c.path, &r,
			       cgi_stat(&c, "cpu.stat", "usage_usec")));
	EXPECT_LT(0, r.item[MEAS_P_LAUNCHES]);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Holder records: ${MEAS_RUNDIR:-/run/meas}/holder.<pid>, one per holder
 * process, holding the class mask it keeps enabled as "0x0001\n".  A
 * record is replaced atomically (written to .holder.<pid>.tmp, then
 * renamed) so a reader never sees half of one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "core/holder.h"

#define RECORD_PREFIX	"holder."

/* The run directory, made absolute (holders chdir to /). */
int rundir_path(char *buf, size_t len)
{
	const char *dir = getenv("MEAS_RUNDIR");
	char cwd[PATH_MAX];
	int n;

	if (!dir || !dir[0])
		dir = MEASCTL_RUNDIR;
	if (dir[0] == '/') {
		n = snprintf(buf, len, "%s", dir);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		n = snprintf(buf, len, "%s/%s", cwd, dir);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p, mode 0755. */
int rundir_make(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	char *p, c;

	if (strlen(dir) >= sizeof(path))
		return -ENAMETOOLONG;
	strcpy(path, dir);
	for (p = path + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = c;
		if (!c)
			break;
	}
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

void holder_record_name(const char *dir, pid_t pid, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" RECORD_PREFIX "%d", dir, (int)pid);
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

int holder_record_write(const char *dir, pid_t pid, uint32_t mask)
{
	char tmp[PATH_MAX], name[PATH_MAX], text[16];
	int fd, err;

	snprintf(tmp, sizeof(tmp), "%s/." RECORD_PREFIX "%d.tmp", dir,
		 (int)pid);
	holder_record_name(dir, pid, name, sizeof(name));
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	snprintf(text, sizeof(text), "0x%04x\n", mask);
	err = write_all(fd, text, strlen(text));
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, name))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

int holder_record_read(const char *dir, pid_t pid, uint32_t *mask)
{
	char name[PATH_MAX], text[32];
	struct classes c;
	ssize_t n;
	int fd;

	holder_record_name(dir, pid, name, sizeof(name));
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	text[n] = '\0';
	if (n > 0 && text[n - 1] == '\n')
		text[n - 1] = '\0';
	if (strncmp(text, "0x", 2) || parse_classes(text, &c))
		return -EINVAL;
	*mask = c.mask;
	return 0;
}

int holder_record_remove(const char *dir, pid_t pid)
{
	char name[PATH_MAX];

	holder_record_name(dir, pid, name, sizeof(name));
	return unlink(name) ? -errno : 0;
}

/*
 * Is @pid a live holder?  A zombie (its fd already closed) or a process
 * that reused the pid is not.  Without /proc, fall back to kill(pid, 0).
 */
bool holder_alive(pid_t pid)
{
	char path[64], stat[512], *lp, *rp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ESRCH)
			return false;
		return !kill(pid, 0) || errno == EPERM;
	}
	n = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (n <= 0)
		return false;
	stat[n] = '\0';
	lp = strchr(stat, '(');
	rp = strrchr(stat, ')');
	if (!lp || !rp || rp < lp || !rp[1] || !rp[2])
		return false;
	*rp = '\0';
	if (strcmp(lp + 1, HOLDER_COMM))
		return false;
	return rp[2] != 'Z' && rp[2] != 'X';
}

static int pid_of_name(const char *name, pid_t *pid)
{
	uint64_t v;

	if (strncmp(name, RECORD_PREFIX, strlen(RECORD_PREFIX)))
		return -EINVAL;
	if (parse_u64(name + strlen(RECORD_PREFIX), INT_MAX, &v) || !v)
		return -EINVAL;
	*pid = (pid_t)v;
	return 0;
}

static int cmp_holder(const void *a, const void *b)
{
	const struct holder_ent *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Every record in @dir; a missing directory is an empty list. */
int holder_scan(const char *dir, struct holder_ent **out, size_t *n)
{
	struct holder_ent *v = NULL, *nv;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	pid_t pid;

	*out = NULL;
	*n = 0;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (pid_of_name(de->d_name, &pid))
			continue;
		if (cnt == cap) {
			cap = cap ? 2 * cap : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[cnt].pid = pid;
		v[cnt].mask = 0;
		v[cnt].readable = !holder_record_read(dir, pid, &v[cnt].mask);
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_holder);
	*out = v;
	*n = cnt;
	return 0;
}

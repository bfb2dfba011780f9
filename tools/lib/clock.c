// SPDX-License-Identifier: LGPL-2.1
/*
 * libmeas: the shared clock.  GETCLOCK, GIVECLOCK and CLOCKINFO on
 * /dev/meas, and the buffer behind the descriptor GETCLOCK returns:
 * read() and a read-only mapping whose records are checked by their
 * stamp (Documentation/clock.rst).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "libmeas.h"

int meas_getclock(int fd, struct meas_getclock *g)
{
	g->size = sizeof(*g);
	g->result = MEAS_RC_NONE;
	g->fd = -1;
	return ioctl(fd, MEAS_IOC_GETCLOCK, g) < 0 ? -errno : 0;
}

int meas_giveclock(int fd, uint32_t collector, int *result)
{
	struct meas_giveclock g = {
		.size = sizeof(g),
		.collector = collector,
		.result = MEAS_RC_NONE,
	};
	int err = ioctl(fd, MEAS_IOC_GIVECLOCK, &g) < 0 ? -errno : 0;

	if (result)
		*result = g.result;
	return err;
}

int meas_clockinfo(int fd, struct meas_clockinfo *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->size = sizeof(*ci);
	return ioctl(fd, MEAS_IOC_CLOCKINFO, ci) < 0 ? -errno : 0;
}

int meas_clockbuf_map(int bfd, struct meas_clockmap *m)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	size_t size;

	memset(m, 0, sizeof(*m));
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, bfd, 0);
	if (p == MAP_FAILED)
		return -errno;
	size = ((const struct meas_clockbuf_head *)p)->map_size;
	munmap(p, page);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, bfd, 0);
	if (p == MAP_FAILED)
		return -errno;
	m->base = p;
	m->size = size;
	m->head = p;
	return 0;
}

void meas_clockbuf_unmap(struct meas_clockmap *m)
{
	if (m->base)
		munmap(m->base, m->size);
	memset(m, 0, sizeof(*m));
}

const struct meas_clockbuf_ring *
meas_clockbuf_ring(const struct meas_clockmap *m, unsigned int cpu)
{
	if (cpu >= m->head->nr_rings)
		return NULL;
	return (const struct meas_clockbuf_ring *)((const char *)m->base +
		m->head->ring_offset) + cpu;
}

uint64_t meas_clockbuf_head_of(const struct meas_clockmap *m, unsigned int cpu)
{
	const struct meas_clockbuf_ring *r = meas_clockbuf_ring(m, cpu);

	return r ? __atomic_load_n(&r->head, __ATOMIC_ACQUIRE) : 0;
}

int meas_clockbuf_fetch(const struct meas_clockmap *m, unsigned int cpu,
			uint64_t idx, void *rec)
{
	const struct meas_clockbuf_head *h = m->head;
	const struct meas_clock_rec *r;
	uint64_t s1, s2;

	if (cpu >= h->nr_rings)
		return -EINVAL;
	r = (const void *)((const char *)m->base + h->data_offset +
			   cpu * h->ring_stride +
			   (idx & (h->ring_records - 1)) * h->record_size);
	s1 = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);
	if (s1 != idx + 1)
		return -ESTALE;
	memcpy(rec, r, h->record_size);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	s2 = __atomic_load_n(&r->seq, __ATOMIC_RELAXED);
	return s2 == s1 ? 0 : -ESTALE;
}

ssize_t meas_clockbuf_read(int bfd, void *buf, size_t len)
{
	ssize_t n = read(bfd, buf, len);

	return n < 0 ? -errno : n;
}

const char *meas_collector_name(uint32_t id)
{
	switch (id) {
	case MEAS_COLLECTOR_PC:
		return "pc";
	case MEAS_COLLECTOR_SNAP:
		return "snapshot";
	case MEAS_COLLECTOR_STACK:
		return "stack";
	default:
		return NULL;
	}
}


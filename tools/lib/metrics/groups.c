// SPDX-License-Identifier: GPL-2.0
/*
 * Process groups: class 15's records summed per group, so that a group's
 * counters never go backwards and never miss a process.
 *
 * A scrape reads every live process with one netlink dump (never /proc)
 * and adds to its group what the process gained since the last scrape; a
 * process seen for the first time adds all it has.  A thread of the
 * exporter listens to the exits group all the time and adds, for each
 * final record, what the process gained since it was last seen, or all
 * of it for a process that lived and ended between two scrapes.  So
 * every process counts once, whole.  An exit record the kernel could not
 * send, or that the socket dropped, shows as a gap in the sequence
 * numbers and is counted, not guessed.
 *
 * Which group: the first name rule of the configuration that matches,
 * else the cgroup v2 path cut to the configured depth, else "other".
 * Groups are created as processes need them, up to the cap; a process
 * that would need one more goes to "other" and is counted.  Groups are
 * never removed (their counters must not reset).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#define GRP_OTHER	0

/* The counters a group sums. */
enum { GV_CPU, GV_STOPS, GV_BYTES, GV_NR };

struct grp {
	char *name;
	uint64_t v[GV_NR];
	uint64_t exits;
	uint64_t live;		/* processes in the last dump */
};

/* What was last added for the process in a slot. */
struct pstate {
	uint32_t gen;
	uint8_t live;		/* seen alive, its exit not yet folded */
	uint64_t v[GV_NR];
};

/* A process whose slot went to another before its exit record came. */
struct pending {
	uint32_t slot;
	uint32_t gen;
	uint64_t v[GV_NR];
};

#define GRP_PENDING_MAX	65536

static struct {
	pthread_mutex_t lock;
	struct mx_grpconf conf;
	struct grp *g;
	unsigned int ng;
	unsigned int *hash;	/* group index + 1, open addressing */
	unsigned int hcap;
	struct pstate *st;
	uint32_t nst;
	struct pending *pend;
	unsigned int npend;
	uint64_t capped;	/* processes the cap put in "other" */
	uint64_t lost;		/* exit records never received */
	uint64_t last_seq;
	uint64_t pend_dropped;
	struct meas_nl *dump;
	struct meas_nl *exits;
	pthread_t thread;
	int running;
} gs = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The items a group sums, from a record. */
static void grp_values(const __u64 *e, uint64_t *v)
{
	static const unsigned char stops[] = {
		MEAS_P_STOP_DISC_BLOCKED, MEAS_P_STOP_DISC_UNBLOCKED,
		MEAS_P_STOP_BLOCKED_IO, MEAS_P_STOP_TERMINAL,
		MEAS_P_STOP_IMPEDED, MEAS_P_STOP_TIMED_OUT,
		MEAS_P_STOP_PREEMPTED, MEAS_P_STOP_JOBCTL, MEAS_P_STOP_EXIT,
	};
	size_t i;

	v[GV_CPU] = e[MEAS_P_CPU_TIME];
	v[GV_BYTES] = e[MEAS_P_DISC_BYTES];
	v[GV_STOPS] = 0;
	for (i = 0; i < sizeof(stops); i++)
		v[GV_STOPS] += e[stops[i]];
}

static unsigned int grp_hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static unsigned int *grp_hslot(const char *name)
{
	unsigned int i = grp_hash(name) & (gs.hcap - 1);

	while (gs.hash[i] && strcmp(gs.g[gs.hash[i] - 1].name, name))
		i = (i + 1) & (gs.hcap - 1);
	return &gs.hash[i];
}

/* A new group, or -1 (no memory). */
static int grp_add(const char *name)
{
	struct grp *g = &gs.g[gs.ng];

	memset(g, 0, sizeof(*g));
	g->name = strdup(name);
	if (!g->name)
		return -1;
	*grp_hslot(name) = ++gs.ng;
	return (int)gs.ng - 1;
}

/*
 * The cgroup group of a path: its first @depth components, "/" for the
 * root.  @out has MX_GRP_NAME_LEN * 4 bytes.
 */
static void grp_cut(const char *path, unsigned int depth, char *out,
		    size_t len)
{
	const char *p = path;
	unsigned int n = 0;

	while (*p && n < depth) {
		p++;
		p += strcspn(p, "/");
		n++;
	}
	snprintf(out, len, "%.*s", (int)(p - path), path);
	if (!out[0])
		snprintf(out, len, "/");
}

/* The group of a record; *capped set when the cap sent it to "other". */
static unsigned int grp_of(const __u64 *e, uint64_t cgid, int *capped)
{
	char comm[MEAS_PROC_COMM_LEN + 1], prog[MEAS_PROC_NAME_LEN + 1];
	char key[4 * MX_GRP_NAME_LEN];
	const char *path;
	unsigned int *h;
	int r;

	*capped = 0;
	meas_proc_string(e, MEAS_P_COMMAND, MEAS_PROC_COMM_LEN, comm);
	meas_proc_string(e, MEAS_P_PROGRAM, MEAS_PROC_NAME_LEN, prog);
	r = mx_grpconf_match(&gs.conf, comm, prog);
	if (r >= 0) {
		snprintf(key, sizeof(key), "%s", gs.conf.rules[r].name);
	} else {
		if (!gs.conf.depth)
			return GRP_OTHER;
		path = mx_cgmap_path(cgid);
		if (!path)
			return GRP_OTHER;
		grp_cut(path, gs.conf.depth, key, sizeof(key));
	}
	h = grp_hslot(key);
	if (*h)
		return *h - 1;
	if (gs.ng > gs.conf.max_groups) {
		*capped = 1;
		return GRP_OTHER;
	}
	r = grp_add(key);
	return r < 0 ? GRP_OTHER : (unsigned int)r;
}

/* Add @v - @base to group @gi, field by field, never below 0. */
static void grp_add_delta(unsigned int gi, const uint64_t *v,
			  const uint64_t *base)
{
	unsigned int i;

	for (i = 0; i < GV_NR; i++)
		if (!base || v[i] > base[i])
			gs.g[gi].v[i] += v[i] - (base ? base[i] : 0);
}

static struct pstate *grp_state(uint32_t slot)
{
	uint32_t n = gs.nst ? gs.nst : 4096;
	struct pstate *t;

	if (slot < gs.nst)
		return &gs.st[slot];
	while (n <= slot)
		n *= 2;
	t = realloc(gs.st, n * sizeof(*t));
	if (!t)
		return NULL;
	memset(t + gs.nst, 0, (n - gs.nst) * sizeof(*t));
	gs.st = t;
	gs.nst = n;
	return &gs.st[slot];
}

/* The slot goes to a newer process: keep the old one's until its exit. */
static void grp_park(uint32_t slot, const struct pstate *s)
{
	struct pending *p;

	if (gs.npend >= GRP_PENDING_MAX) {
		gs.pend_dropped++;
		return;
	}
	p = &gs.pend[gs.npend++];
	p->slot = slot;
	p->gen = s->gen;
	memcpy(p->v, s->v, sizeof(p->v));
}

/* A live record of a dump. */
static void grp_fold_live(const struct meas_proc_rec *rec, uint64_t cgid)
{
	uint32_t gen = (uint32_t)(rec->index >> 32);
	struct pstate *s = grp_state(rec->slot);
	uint64_t v[GV_NR];
	unsigned int gi;
	int capped;

	if (!s)
		return;
	if (s->gen == gen && !s->live)
		return;		/* its exit record is already in */
	grp_values(rec->item, v);
	gi = grp_of(rec->item, cgid, &capped);
	gs.g[gi].live++;
	if (s->gen == gen) {
		grp_add_delta(gi, v, s->v);
	} else {
		if (s->live)
			grp_park(rec->slot, s);
		gs.capped += capped;
		grp_add_delta(gi, v, NULL);
		s->gen = gen;
		s->live = 1;
	}
	memcpy(s->v, v, sizeof(v));
}

/* The parked process of (slot, gen), or -1. */
static int grp_pending(uint32_t slot, uint32_t gen)
{
	unsigned int i;

	for (i = 0; i < gs.npend; i++)
		if (gs.pend[i].slot == slot && gs.pend[i].gen == gen)
			return (int)i;
	return -1;
}

/* A final record. */
static void grp_fold_exit(const struct meas_proc_rec *rec, uint64_t cgid)
{
	uint32_t gen = (uint32_t)(rec->index >> 32);
	struct pstate *s = grp_state(rec->slot);
	const uint64_t *base = NULL;
	uint64_t v[GV_NR];
	unsigned int gi;
	int capped, pi = -1;

	if (!s || (s->gen == gen && !s->live))
		return;		/* no memory, or the same record twice */
	if (s->gen == gen)
		base = s->v;
	else
		pi = grp_pending(rec->slot, gen);
	if (pi >= 0)
		base = gs.pend[pi].v;
	grp_values(rec->item, v);
	gi = grp_of(rec->item, cgid, &capped);
	if (!base)
		gs.capped += capped;
	grp_add_delta(gi, v, base);
	gs.g[gi].exits++;
	if (pi >= 0) {
		gs.pend[pi] = gs.pend[--gs.npend];
	} else if (s->gen == gen || !s->live) {
		s->gen = gen;
		s->live = 0;
		memcpy(s->v, v, sizeof(v));
	}
}

static int grp_on_dump(const struct meas_proc_rec *rec, uint64_t seq,
		       void *arg)
{
	(void)seq;
	if (rec->slot && rec->item[MEAS_P_STATE] == MEAS_PSTATE_LIVE)
		grp_fold_live(rec, meas_nl_cgroup(arg));
	return 0;
}

static int grp_on_exit(const struct meas_proc_rec *rec, uint64_t seq,
		       void *arg)
{
	pthread_mutex_lock(&gs.lock);
	if (seq > gs.last_seq + 1)
		gs.lost += seq - gs.last_seq - 1;
	if (seq > gs.last_seq)
		gs.last_seq = seq;
	if (rec->slot)
		grp_fold_exit(rec, meas_nl_cgroup(arg));
	pthread_mutex_unlock(&gs.lock);
	return 0;
}

static void *grp_exits_thread(void *arg)
{
	(void)arg;
	for (;;) {
		/* -ENOBUFS: records dropped; the sequence gap counts them. */
		if (meas_nl_exits_recv(gs.exits, grp_on_exit, gs.exits) ==
		    -EBADF)
			break;
	}
	return NULL;
}

/* One dump: every live process's gain, and the live count per group. */
static int grp_dump(void)
{
	unsigned int i;

	for (i = 0; i < gs.ng; i++)
		gs.g[i].live = 0;
	return meas_nl_dump(gs.dump, grp_on_dump, gs.dump);
}

/**
 * mx_groups_start() - join the exits group and take the first dump
 * @c: the configuration
 *
 * Class 15 must be held enabled.  Joining needs CAP_SYS_ADMIN.
 *
 * Return: 0 or a negative errno, said on stderr.
 */
int mx_groups_start(const struct mx_grpconf *c)
{
	struct meas_proc_rec hdr;
	int err;

	gs.conf = *c;
	gs.g = calloc(c->max_groups + 1, sizeof(*gs.g));
	for (gs.hcap = 1; gs.hcap < 2 * (c->max_groups + 1); gs.hcap *= 2)
		;
	gs.hash = calloc(gs.hcap, sizeof(*gs.hash));
	gs.pend = calloc(GRP_PENDING_MAX, sizeof(*gs.pend));
	if (!gs.g || !gs.hash || !gs.pend || grp_add("other") != GRP_OTHER)
		return -ENOMEM;
	gs.dump = meas_nl_open(&err);
	if (!gs.dump)
		goto fail;
	gs.exits = meas_nl_open(&err);
	if (!gs.exits)
		goto fail;
	err = meas_nl_exits_join(gs.exits, 16 << 20);
	if (err) {
		fprintf(stderr,
			"%s: process groups: joining the exits group: %s (CAP_SYS_ADMIN is needed)\n",
			program_invocation_short_name, strerror(-err));
		return err;
	}
	/* Records numbered up to here ended before the first dump. */
	err = meas_nl_get(gs.dump, 0, &hdr);
	if (err)
		goto fail;
	gs.last_seq = hdr.item[MEAS_P0_EXIT_SEQ];
	pthread_mutex_lock(&gs.lock);
	err = grp_dump();
	pthread_mutex_unlock(&gs.lock);
	if (err)
		goto fail;
	err = -pthread_create(&gs.thread, NULL, grp_exits_thread, NULL);
	if (err)
		goto fail;
	gs.running = 1;
	return 0;
fail:
	fprintf(stderr, "%s: process groups: %s\n", program_invocation_short_name,
		strerror(-err));
	return err;
}

/**
 * mx_groups_read() - one dump, then every group's counters
 * @r: where they go (zeroed the first time); its buffer is kept
 *
 * The groups are copied under the lock, so that the exits thread does
 * not change them half-way through a reader's walk.
 *
 * Return: 0, -ENODEV when process groups are off, or the dump's error.
 */
int mx_groups_read(struct mx_grp_read *r)
{
	struct mx_grp_stat *s;
	unsigned int i;
	int err = -ENODEV;

	if (!gs.running)
		return err;
	pthread_mutex_lock(&gs.lock);
	err = grp_dump();
	if (!err && r->cap < gs.ng) {
		s = realloc(r->g, (gs.conf.max_groups + 1) * sizeof(*s));
		if (s) {
			r->g = s;
			r->cap = gs.conf.max_groups + 1;
		} else {
			err = -ENOMEM;
		}
	}
	if (err)
		goto unlock;
	for (i = 0; i < gs.ng; i++) {
		s = &r->g[i];
		s->name = gs.g[i].name;
		s->v[MX_GF_CPU] = gs.g[i].v[GV_CPU];
		s->v[MX_GF_STOPS] = gs.g[i].v[GV_STOPS];
		s->v[MX_GF_BYTES] = gs.g[i].v[GV_BYTES];
		s->v[MX_GF_EXITS] = gs.g[i].exits;
		s->v[MX_GF_PROCESSES] = gs.g[i].live;
	}
	r->ng = gs.ng;
	r->total[MX_GF_CAPPED - MX_GF_PER_GROUP] = gs.capped;
	r->total[MX_GF_LOST - MX_GF_PER_GROUP] = gs.lost + gs.pend_dropped;
	r->total[MX_GF_WALKS - MX_GF_PER_GROUP] = mx_cgmap_walks();
unlock:
	pthread_mutex_unlock(&gs.lock);
	return err;
}

void mx_groups_stop(void)
{
	if (gs.running) {
		pthread_cancel(gs.thread);
		pthread_join(gs.thread, NULL);
		gs.running = 0;
	}
	meas_nl_close(gs.exits);
	meas_nl_close(gs.dump);
	gs.exits = NULL;
	gs.dump = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * measctl exits: stream the final record of every process that exits,
 * from the "exits" multicast group of the generic netlink family, one
 * line (or JSON object) each, with its sequence number; a gap in the
 * numbers is reported as records missed.  Holds class 15 enabled on its
 * own open file while it listens (not with --listen-only: then it holds
 * no /dev/meas file at all).  Joining the group needs
 * CAP_SYS_ADMIN.  Ends after -n COUNT records, -t SECONDS, or on SIGINT,
 * SIGTERM or SIGHUP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"
#include "cli/interval.h"
#include "proc/proc.h"

#define EXITS_RCVBUF	(16 << 20)

struct exits_args {
	uint64_t count;		/* 0: until a signal */
	double seconds;		/* 0: no limit */
	bool listen_only;	/* do not hold class 15 */
	struct proc_opts p;	/* --cgroup PATH */
};

struct exits_state {
	struct cmd_ctx *ctx;
	const struct exits_args *a;
	uint64_t seen;		/* records printed */
	uint64_t last_seq;
	uint64_t missed;
};

static void exits_missed(struct exits_state *x, uint64_t n)
{
	struct json j;

	x->missed += n;
	if (!x->ctx->json) {
		printf("# missed %llu records\n", (unsigned long long)n);
		return;
	}
	json_doc_begin(&j, stdout, "exits");
	json_u64(&j, "missed", n);
	json_doc_end(&j);
}

static void exits_text(uint64_t seq, const __u64 *e)
{
	char user[16], cpu[24], wait[24], life[24], cg[PROC_CGROUP_COL + 1];
	char comm[MEAS_PROC_COMM_LEN + 1];
	int status = (int)e[MEAS_P_EXIT_STATUS];
	char how[16];

	if ((status & 0x7f) == 0)
		snprintf(how, sizeof(how), "exit %d", (status >> 8) & 0xff);
	else
		snprintf(how, sizeof(how), "signal %d", status & 0x7f);
	proc_comm(e, comm);
	printf("%8llu %7llu %7llu %-8s %-10s %10s %10s %10s %8llu %8llu %-10s %-*s %s\n",
	       (unsigned long long)seq, (unsigned long long)e[MEAS_P_PID],
	       (unsigned long long)e[MEAS_P_PPID],
	       proc_user(e[MEAS_P_UID], user, sizeof(user)), how,
	       proc_secs(e[MEAS_P_TERMINATED] - e[MEAS_P_CREATED], life,
			 sizeof(life)),
	       proc_secs(e[MEAS_P_CPU_TIME], cpu, sizeof(cpu)),
	       proc_secs(e[MEAS_P_PAUSE_ACTIVE], wait, sizeof(wait)),
	       (unsigned long long)e[MEAS_P_LAUNCHES],
	       (unsigned long long)proc_stops(e),
	       meas_proc_stop_name(e[MEAS_P_LAST_STOP]),
	       PROC_CGROUP_COL, proc_cgroup_name(e, cg, sizeof(cg)), comm);
	fflush(stdout);
}

static int exits_rec(const struct meas_proc_rec *r, uint64_t seq, void *arg)
{
	struct exits_state *x = arg;
	struct json j;

	if (x->last_seq && seq > x->last_seq + 1)
		exits_missed(x, seq - x->last_seq - 1);
	x->last_seq = seq;
	if (x->a->count && x->seen >= x->a->count)
		return 0;
	if (!proc_in_cgroup(&x->a->p, r->item))
		return 0;
	x->seen++;
	if (!x->ctx->json) {
		exits_text(seq, r->item);
		return 0;
	}
	json_doc_begin(&j, stdout, "exits");
	json_u64(&j, "seq", seq);
	json_u64(&j, "slot", r->slot);
	proc_json_cgroup(&j, r->item);
	proc_json_items(&j, "items", r->item);
	json_doc_end(&j);
	return 0;
}

static int exits_loop(struct cmd_ctx *ctx, struct meas_nl *nl, int sfd,
		      struct exits_state *x)
{
	uint64_t end = x->a->seconds > 0 ?
		       mono_ns() + (uint64_t)(x->a->seconds * 1e9) : 0;
	struct pollfd pfd[2] = {
		{ .fd = meas_nl_fd(nl), .events = POLLIN },
		{ .fd = sfd, .events = POLLIN },
	};
	int timeout, err;
	uint64_t now;

	if (!ctx->json)
		printf("%8s %7s %7s %-8s %-10s %10s %10s %10s %8s %8s %-10s %-*s %s\n",
		       "SEQ", "PID", "PPID", "USER", "STATUS", "LIFE-S",
		       "CPU-S", "WAIT-S", "LAUNCHES", "STOPS", "LAST-STOP",
		       PROC_CGROUP_COL, "CGROUP", "COMMAND");
	fflush(stdout);
	while (!x->a->count || x->seen < x->a->count) {
		timeout = -1;
		if (end) {
			now = mono_ns();
			if (now >= end)
				break;
			timeout = (int)((end - now) / 1000000ULL) + 1;
		}
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
			return fail(ctx, errno, "poll");
		if (pfd[1].revents)
			break;
		if (!(pfd[0].revents & POLLIN))
			continue;
		err = meas_nl_exits_recv(nl, exits_rec, x);
		if (err == -ENOBUFS)	/* the gap shows at the next record */
			continue;
		if (err && err != -EAGAIN && err != -EINTR)
			return fail(ctx, -err, "receiving exit records");
	}
	return EXIT_OK;
}

static int exits_do(struct cmd_ctx *ctx, const struct exits_args *a)
{
	struct exits_state x = { .ctx = ctx, .a = a };
	struct meas_nl *nl;
	int fd, sfd, err, rc;
	sigset_t set;

	meas_block_stop_signals(&set);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0)
		return fail(ctx, errno, "signalfd");
	fd = a->listen_only ? -1 : meas_open();
	/* outside group meas: listen only, and the join says what it needs */
	if (!a->listen_only && fd < 0 && fd != -EACCES && fd != -EPERM) {
		close(sfd);
		return fail_open(ctx, -fd);
	}
	rc = fd < 0 ? 0 : proc_hold(ctx, fd, "exit records");
	if (rc)
		goto close_fd;
	nl = meas_nl_open(&err);
	if (!nl) {
		rc = fail(ctx, -err, "generic netlink family '%s'",
			  MEAS_GENL_NAME);
		goto close_fd;
	}
	err = meas_nl_exits_join(nl, EXITS_RCVBUF);
	if (err)
		rc = fail(ctx, -err, "joining the '%s' group%s",
			  MEAS_GENL_MCGRP_EXITS,
			  err == -EPERM ? " (CAP_SYS_ADMIN is needed)" : "");
	else
		rc = exits_loop(ctx, nl, sfd, &x);
	meas_nl_close(nl);
close_fd:
	if (fd >= 0)
		close(fd);
	close(sfd);
	return rc;
}

static int exits_opt(struct cmd_ctx *ctx, int id, const char *arg,
		     void *data)
{
	struct exits_args *a = data;

	if (id == 'l') {
		a->listen_only = true;
		return EXIT_OK;
	}
	if (id == 'n')
		return count_arg(ctx, arg, UINT32_MAX, &a->count);
	if (id == PROC_OPT_CGROUP)
		return proc_opt(ctx, id, arg, &a->p);
	if (parse_seconds(arg, 0.001, 86400.0, &a->seconds))
		return usage_error(ctx, "bad time '%s' (0.001..86400 s)", arg);
	return EXIT_OK;
}

static int cmd_exits(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "count", 'n', OPT_ARG, 'n' },
		{ "time", 't', OPT_ARG, 't' },
		{ "listen-only", 'l', OPT_NONE, 'l' },
		{ "cgroup", 'c', OPT_ARG, PROC_OPT_CGROUP },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct exits_args a = { 0 };
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, exits_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.npos)
		return usage_error(ctx, "unexpected argument '%s' (%s takes options only)",
				   st.pos[0], ctx->name);
	return exits_do(ctx, &a);
}

const struct command exits_command = {
	.name = "exits",
	.fn = cmd_exits,
	.args = "[-n COUNT] [-t SECONDS] [-l] [-c PATH]",
	.help = "stream the final record of each process that exits (generic\n"
		"    netlink group 'exits', CAP_SYS_ADMIN); reports missed ones;\n"
		"    -l: listen only, class 15 held by someone else; -c: only\n"
		"    those that exit in the cgroup PATH or below",
};

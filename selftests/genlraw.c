// SPDX-License-Identifier: GPL-2.0
/* Raw generic netlink helpers: see genlraw.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/meas.h>

#include "genlraw.h"

uint32_t genl_seq;

int nl_socket(int rcvbuf)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				NETLINK_GENERIC);

	if (s < 0)
		return -1;
	if (rcvbuf)
		setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	setsockopt(s, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa))) {
		close(s);
		return -1;
	}
	return s;
}

struct nlattr *put_attr(char *msg, size_t *len, uint16_t type,
			       const void *data, uint16_t dlen)
{
	struct nlattr *a = (struct nlattr *)(msg + *len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + dlen;
	memcpy((char *)a + NLA_HDRLEN, data, dlen);
	*len += NLA_ALIGN(a->nla_len);
	return a;
}

int genl_resolve(int s, uint16_t *family, uint32_t *exits)
{
	char msg[256] = { 0 }, buf[8192];
	struct nlmsghdr *nh = (struct nlmsghdr *)msg;
	struct genlmsghdr *gh = NLMSG_DATA(nh);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
	struct nlattr *a, *g, *m;
	ssize_t n;
	int rem, grem, mrem;

	*family = 0;
	*exits = 0;
	gh->cmd = CTRL_CMD_GETFAMILY;
	gh->version = 1;
	put_attr(msg, &len, CTRL_ATTR_FAMILY_NAME, MEAS_GENL_NAME,
		 sizeof(MEAS_GENL_NAME));
	nh->nlmsg_len = len;
	nh->nlmsg_type = GENL_ID_CTRL;
	nh->nlmsg_flags = NLM_F_REQUEST;
	nh->nlmsg_seq = ++genl_seq;
	if (send(s, msg, len, 0) < 0)
		return -errno;
	n = recv(s, buf, sizeof(buf), 0);
	nh = (struct nlmsghdr *)buf;
	if (n < (ssize_t)NLMSG_HDRLEN || nh->nlmsg_type == NLMSG_ERROR)
		return -ENOENT;
	rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	for (a = (struct nlattr *)((char *)NLMSG_DATA(nh) + GENL_HDRLEN);
	     rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len))) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			*family = *(uint16_t *)((char *)a + NLA_HDRLEN);
		if ((a->nla_type & NLA_TYPE_MASK) != CTRL_ATTR_MCAST_GROUPS)
			continue;
		grem = a->nla_len - NLA_HDRLEN;
		for (g = (struct nlattr *)((char *)a + NLA_HDRLEN);
		     grem >= NLA_HDRLEN && g->nla_len >= NLA_HDRLEN &&
		     g->nla_len <= grem;
		     grem -= NLA_ALIGN(g->nla_len),
		     g = (struct nlattr *)((char *)g + NLA_ALIGN(g->nla_len))) {
			uint32_t id = 0;
			int named = 0;

			mrem = g->nla_len - NLA_HDRLEN;
			for (m = (struct nlattr *)((char *)g + NLA_HDRLEN);
			     mrem >= NLA_HDRLEN && m->nla_len >= NLA_HDRLEN &&
			     m->nla_len <= mrem;
			     mrem -= NLA_ALIGN(m->nla_len),
			     m = (struct nlattr *)((char *)m + NLA_ALIGN(m->nla_len))) {
				if (m->nla_type == CTRL_ATTR_MCAST_GRP_ID)
					id = *(uint32_t *)((char *)m + NLA_HDRLEN);
				if (m->nla_type == CTRL_ATTR_MCAST_GRP_NAME &&
				    !strcmp((char *)m + NLA_HDRLEN,
					    MEAS_GENL_MCGRP_EXITS))
					named = 1;
			}
			if (named)
				*exits = id;
		}
	}
	return *family ? 0 : -ENOENT;
}

/* Send MEAS_CMD_GET (@pid, or a dump if @pid < 0) on @s: 0 or -errno. */
int genl_get(int s, uint16_t family, int32_t pid)
{
	char msg[128] = { 0 };
	struct nlmsghdr *nh = (struct nlmsghdr *)msg;
	struct genlmsghdr *g = NLMSG_DATA(nh);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
	uint32_t p = pid;

	g->cmd = MEAS_CMD_GET;
	g->version = MEAS_GENL_VERSION;
	if (pid >= 0)
		put_attr(msg, &len, MEAS_A_PID, &p, sizeof(p));
	nh->nlmsg_len = len;
	nh->nlmsg_type = family;
	nh->nlmsg_flags = NLM_F_REQUEST | (pid < 0 ? NLM_F_DUMP : 0);
	nh->nlmsg_seq = ++genl_seq;
	return send(s, msg, len, 0) < 0 ? -errno : 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw generic netlink for the tests that must send what libnl would not
 * (malformed messages) or watch the family come and go: a socket, an
 * attribute, the family's id and the id of its "exits" group.
 */
#ifndef MEAS_GENLRAW_H
#define MEAS_GENLRAW_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

/* Sequence number of the last request made with these helpers. */
extern uint32_t genl_seq;

/* A bound NETLINK_GENERIC socket with extended acks; @rcvbuf 0: default. */
int nl_socket(int rcvbuf);

/* Append attribute @type with @dlen bytes of @data at @len; returns it. */
struct nlattr *put_attr(char *msg, size_t *len, uint16_t type,
			const void *data, uint16_t dlen);

/*
 * CTRL_CMD_GETFAMILY "meas": its id in @family and the id of its "exits"
 * group in @exits (0 if not offered).  0, or -errno (-ENOENT: not loaded).
 */
int genl_resolve(int s, uint16_t *family, uint32_t *exits);

/* Send MEAS_CMD_GET (@pid, or a dump if @pid < 0) on @s: 0 or -errno. */
int genl_get(int s, uint16_t family, int32_t pid);

#endif

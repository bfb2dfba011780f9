// SPDX-License-Identifier: GPL-2.0
/*
 * Who may see meas.proc.* (-P).  pmdameas runs as root and holds class
 * 15, whose every entry it reads; pmcd's clients are anyone pmcd lets
 * connect, over the network too.  So, as PCP's proc agent does, each
 * client is judged by the user pmcd says it is: a client on pmcd's local
 * socket, whose credentials pmcd passes on (PMDA_ATTR_USERID and
 * _GROUPID), sees the processes ptrace would let it see (the metrics
 * library's mx_access_sees(): the rules of module/logic/access.c on the
 * entry's IDs and dumpable flag; root sees every one).  pmcd names a
 * client over the network too once it has authenticated with SASL: the
 * local account of its user name (libpcp's secureserver.c), judged the
 * same way.  A client pmcd cannot name sees no process.  -A
 * (--all-clients) lets every client see every process: the
 * administrator's choice, for a pmcd only trusted hosts reach.
 * Documentation/pcp.rst and security.rst.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmdameas.h"

int pm_proc_all_clients;

/* the users pmcd named, by client context */
struct pm_client {
	int ctx;
	bool have_uid, have_gid;
	uint32_t uid, gid;
};

static struct pm_client *clients;
static size_t nclients;

static struct pm_client *client(int ctx, bool add)
{
	struct pm_client *c;
	size_t i;

	for (i = 0; i < nclients; i++)
		if (clients[i].ctx == ctx)
			return &clients[i];
	if (!add)
		return NULL;
	c = realloc(clients, (nclients + 1) * sizeof(*c));
	if (!c)
		return NULL;
	clients = c;
	c = &clients[nclients++];
	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	return c;
}

/* pmcd tells what it knows of a client (interface 6 and later). */
int pm_client_attribute(int ctx, int attr, const char *value, int len,
			pmdaExt *pmda)
{
	struct pm_client *c;
	char num[24], *end;
	unsigned long v;

	if ((attr == PMDA_ATTR_USERID || attr == PMDA_ATTR_GROUPID) &&
	    value && len > 0 && (size_t)len < sizeof(num)) {
		/* a number of @len bytes, not necessarily terminated */
		memcpy(num, value, (size_t)len);
		num[len] = '\0';
		errno = 0;
		v = strtoul(num, &end, 10);
		c = client(ctx, true);
		if (c && !errno && end != num && v <= UINT32_MAX) {
			if (attr == PMDA_ATTR_USERID) {
				c->uid = (uint32_t)v;
				c->have_uid = true;
			} else {
				c->gid = (uint32_t)v;
				c->have_gid = true;
			}
		}
	}
	return pmdaAttribute(ctx, attr, value, len, pmda);
}

/* A client went: forget it (its context number will be reused). */
void pm_client_end(int ctx)
{
	struct pm_client *c = client(ctx, false);

	if (c)
		*c = clients[--nclients];
}

/* Whether the client being served sees every process. */
bool pm_client_sees_all(void)
{
	const struct pm_client *c = client(pmdaGetContext(), false);

	return pm_proc_all_clients || (c && c->have_uid && c->uid == 0);
}

/**
 * pm_client_sees() - may the client being served see a process
 * @e: the process's class 15 entry
 *
 * Return: true if pmcd named the client and ptrace's rules would let
 * that user look into the process (or the client is root, or -A).
 */
bool pm_client_sees(const uint64_t *e)
{
	const struct pm_client *c = client(pmdaGetContext(), false);

	if (pm_client_sees_all())
		return true;
	if (!c || !c->have_uid || !c->have_gid)
		return false;
	return mx_access_sees(c->uid, c->gid, e);
}

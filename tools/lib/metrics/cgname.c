// SPDX-License-Identifier: GPL-2.0
/*
 * Names, not numbers: what a cgroup path says of its owner.  systemd
 * names its units in the path (nginx.service, session-3.scope), and the
 * container runtimes name their containers' cgroups after the container
 * ID, each in its own way, with or without systemd.  Kubernetes' kubelet
 * puts each pod in a cgroup named after the pod's UID, below one of its
 * QoS class (guaranteed pods directly below kubepods).
 *
 * The path is read one component at a time, from the root, against the
 * table below: the first rule that matches a component says what that
 * component names.  What a component names holds for its descendants
 * (a container's sub-cgroups are the container's), and a deeper
 * component of the same kind overrides it (a service inside a user's
 * manager names the service, not user@UID.service).  Some rules apply
 * only below another (a bare 64-hex-digit ID is a container only below
 * docker's or kubepods' cgroups): the context bits say where the walk
 * is.  Documentation/cgroup.rst, "Names", lists the rules.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"

/* What the walk knows of where it is. */
enum {
	CTX_KUBE = 1,		/* below kubepods (cgroupfs driver) */
	CTX_DOCKER = 2,		/* below docker (cgroupfs driver) */
	CTX_LIBPOD = 4,		/* below libpod_parent (podman, cgroupfs) */
	CTX_POD = 8,		/* below a pod */
};

/* What lies between a rule's prefix and suffix. */
enum body {
	B_NONE,		/* nothing: the component is prefix and suffix */
	B_ANY,		/* anything not empty */
	B_HEX64,	/* a container ID: 64 lowercase hex digits */
	B_UUID,		/* a pod UID: 8-4-4-4-12 hex digits, '-' */
	B_UUID_,	/* the same, '_' for '-' (systemd escapes '-') */
};

/* What a matching component sets. */
enum what {
	W_CTX,		/* only the context bits */
	W_UNIT,		/* a systemd unit: the component */
	W_CONTAINER,	/* a container: the body is its ID */
	W_CONMON,	/* a container's monitor (conmon): the body is its ID */
	W_POD,		/* a pod: the body is its UID */
	W_QOS,		/* a QoS class of kubepods */
};

/**
 * struct cgrule - one rule of the table
 * @pre: the component's prefix
 * @suf: its suffix
 * @body: what lies between
 * @need: context bits that must all be set, or 0
 * @what: what the component names
 * @runtime: the container runtime it says, or NULL
 * @qos: the QoS class it says, or NULL
 * @ctx: context bits it sets for its descendants
 * @unit: the component is also a systemd unit
 */
struct cgrule {
	const char *pre;
	const char *suf;
	enum body body;
	unsigned int need;
	enum what what;
	const char *runtime;
	const char *qos;
	unsigned int ctx;
	bool unit;
};

#define RT_PODMAN	"podman"
#define RT_DOCKER	"docker"
#define RT_CONTAINERD	"containerd"
#define RT_CRIO		"cri-o"
#define QOS_G		"guaranteed"
#define QOS_B		"burstable"
#define QOS_BE		"besteffort"

/* First match wins: the specific before the general. */
static const struct cgrule cgrules[] = {
	/* podman, systemd manager; its conmon first (same prefix) */
	{ "libpod-conmon-", ".scope", B_HEX64, 0, W_CONMON, RT_PODMAN,
	  NULL, 0, true },
	{ "libpod-", ".scope", B_HEX64, 0, W_CONTAINER, RT_PODMAN,
	  NULL, 0, true },
	/* podman pods: machine-libpod_pod_<pod ID>.slice */
	{ "machine-libpod_pod_", ".slice", B_HEX64, 0, W_POD, RT_PODMAN,
	  NULL, 0, true },
	/* podman, cgroupfs manager: /libpod_parent/libpod-<ID> */
	{ "libpod_parent", "", B_NONE, 0, W_CTX, NULL, NULL, CTX_LIBPOD,
	  false },
	{ "libpod-", "", B_HEX64, CTX_LIBPOD, W_CONTAINER, RT_PODMAN, NULL,
	  0, false },
	/* docker: systemd driver, then cgroupfs driver (/docker/<ID>) */
	{ "docker-", ".scope", B_HEX64, 0, W_CONTAINER, RT_DOCKER, NULL, 0,
	  true },
	{ "docker", "", B_NONE, 0, W_CTX, NULL, NULL, CTX_DOCKER, false },
	{ "", "", B_HEX64, CTX_DOCKER, W_CONTAINER, RT_DOCKER, NULL, 0,
	  false },
	/* containerd's CRI plugin, systemd driver */
	{ "cri-containerd-", ".scope", B_HEX64, 0, W_CONTAINER, RT_CONTAINERD,
	  NULL, 0, true },
	/* cri-o: systemd driver, then cgroupfs driver (crio-<ID>) */
	{ "crio-conmon-", ".scope", B_HEX64, 0, W_CONMON, RT_CRIO, NULL, 0,
	  true },
	{ "crio-", ".scope", B_HEX64, 0, W_CONTAINER, RT_CRIO, NULL, 0, true },
	{ "crio-conmon-", "", B_HEX64, CTX_POD, W_CONMON, RT_CRIO, NULL, 0,
	  false },
	{ "crio-", "", B_HEX64, CTX_POD, W_CONTAINER, RT_CRIO, NULL, 0,
	  false },
	/*
	 * kubelet, systemd driver: kubepods[-QOS]-pod<UID>.slice (the UID's
	 * '-' escaped as '_'); guaranteed pods have no QoS slice.  Some
	 * distributions put kubepods.slice below kubelet.slice, and so
	 * prefix every name with "kubelet-".
	 */
	{ "kubepods-burstable", ".slice", B_NONE, 0, W_QOS, NULL, QOS_B, 0,
	  true },
	{ "kubepods-besteffort", ".slice", B_NONE, 0, W_QOS, NULL, QOS_BE, 0,
	  true },
	{ "kubelet-kubepods-burstable", ".slice", B_NONE, 0, W_QOS, NULL,
	  QOS_B, 0, true },
	{ "kubelet-kubepods-besteffort", ".slice", B_NONE, 0, W_QOS, NULL,
	  QOS_BE, 0, true },
	{ "kubepods-burstable-pod", ".slice", B_UUID_, 0, W_POD, NULL, QOS_B,
	  CTX_POD, true },
	{ "kubepods-besteffort-pod", ".slice", B_UUID_, 0, W_POD, NULL,
	  QOS_BE, CTX_POD, true },
	{ "kubepods-pod", ".slice", B_UUID_, 0, W_POD, NULL, QOS_G, CTX_POD,
	  true },
	{ "kubelet-kubepods-burstable-pod", ".slice", B_UUID_, 0, W_POD, NULL,
	  QOS_B, CTX_POD, true },
	{ "kubelet-kubepods-besteffort-pod", ".slice", B_UUID_, 0, W_POD,
	  NULL, QOS_BE, CTX_POD, true },
	{ "kubelet-kubepods-pod", ".slice", B_UUID_, 0, W_POD, NULL, QOS_G,
	  CTX_POD, true },
	/* kubelet, cgroupfs driver: /kubepods[/QOS]/pod<UID>/<ID> */
	{ "kubepods", "", B_NONE, 0, W_CTX, NULL, NULL, CTX_KUBE, false },
	{ "burstable", "", B_NONE, CTX_KUBE, W_QOS, NULL, QOS_B, 0, false },
	{ "besteffort", "", B_NONE, CTX_KUBE, W_QOS, NULL, QOS_BE, 0, false },
	{ "pod", "", B_UUID, CTX_KUBE, W_POD, NULL, QOS_G, CTX_POD, false },
	/* a pod's containers, cgroupfs: the runtime does not say itself */
	{ "", "", B_HEX64, CTX_POD, W_CONTAINER, NULL, NULL, 0, false },
	/* any other systemd unit that has a cgroup */
	{ "", ".service", B_ANY, 0, W_UNIT, NULL, NULL, 0, true },
	{ "", ".scope", B_ANY, 0, W_UNIT, NULL, NULL, 0, true },
	{ "", ".slice", B_ANY, 0, W_UNIT, NULL, NULL, 0, true },
	{ "", ".socket", B_ANY, 0, W_UNIT, NULL, NULL, 0, true },
	{ "", ".mount", B_ANY, 0, W_UNIT, NULL, NULL, 0, true },
	{ "", ".swap", B_ANY, 0, W_UNIT, NULL, NULL, 0, true },
};

static bool hex_run(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]) && (s[i] < 'a' || s[i] > 'f'))
			return false;
	return true;
}

/* A UUID of @n characters, its groups separated by @sep. */
static bool is_uuid(const char *s, size_t n, char sep)
{
	static const unsigned char group[] = { 8, 4, 4, 4, 12 };
	size_t i;

	if (n != 36)
		return false;
	for (i = 0; i < sizeof(group); i++) {
		if (!hex_run(s, group[i]))
			return false;
		s += group[i];
		if (i + 1 < sizeof(group) && *s++ != sep)
			return false;
	}
	return true;
}

static bool body_ok(enum body b, const char *s, size_t n)
{
	switch (b) {
	case B_NONE:
		return n == 0;
	case B_ANY:
		return n > 0;
	case B_HEX64:
		return n == 64 && hex_run(s, n);
	case B_UUID:
		return is_uuid(s, n, '-');
	case B_UUID_:
		return is_uuid(s, n, '_');
	}
	return false;
}

/* Whether @r matches the component @c of @n bytes; its body in @b, @bn. */
static bool rule_match(const struct cgrule *r, const char *c, size_t n,
		       unsigned int ctx, const char **b, size_t *bn)
{
	size_t p = strlen(r->pre), s = strlen(r->suf);

	if ((ctx & r->need) != r->need || n < p + s)
		return false;
	if (strncmp(c, r->pre, p) || strncmp(c + n - s, r->suf, s))
		return false;
	*b = c + p;
	*bn = n - p - s;
	return body_ok(r->body, *b, *bn);
}

static void copy(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A pod UID as Kubernetes writes it: '-', whatever the path had. */
static void copy_uid(char *dst, const char *src, size_t n)
{
	size_t i;

	copy(dst, MX_CGN_ID_LEN, src, n);
	for (i = 0; dst[i]; i++)
		if (dst[i] == '_')
			dst[i] = '-';
}

static void apply(const struct cgrule *r, const char *c, size_t n,
		  const char *b, size_t bn, struct mx_cgname *out)
{
	if (r->unit)
		copy(out->unit, sizeof(out->unit), c, n);
	if (r->runtime)
		out->runtime = r->runtime;
	if (r->qos && !(r->what == W_POD && out->qos))
		out->qos = r->qos;
	switch (r->what) {
	case W_CONTAINER:
	case W_CONMON:
		copy(out->container_id, sizeof(out->container_id), b, bn);
		out->conmon = r->what == W_CONMON;
		break;
	case W_POD:
		copy_uid(out->pod_uid, b, bn);
		break;
	default:
		break;
	}
}

/**
 * mx_cgname_classify() - what a cgroup path names
 * @path: the path below the cgroup2 mount ("/system.slice/x.service")
 * @out: filled in; each field empty (or NULL) when the path does not say
 *
 * The rules are the table of this file; unknown components leave what
 * the components above them named.
 */
void mx_cgname_classify(const char *path, struct mx_cgname *out)
{
	unsigned int ctx = 0;
	const char *c = path;

	memset(out, 0, sizeof(*out));
	while (c && *c) {
		const char *end = strchr(c, '/');
		size_t n = end ? (size_t)(end - c) : strlen(c);
		const char *b;
		size_t i, bn;

		for (i = 0; n && i < ARRAY_SIZE(cgrules); i++) {
			if (!rule_match(&cgrules[i], c, n, ctx, &b, &bn))
				continue;
			apply(&cgrules[i], c, n, b, bn, out);
			ctx |= cgrules[i].ctx;
			break;
		}
		/* a context holds for the component just below it only */
		if (i == ARRAY_SIZE(cgrules) || !cgrules[i].ctx)
			ctx &= CTX_POD | CTX_KUBE;
		c = end ? end + 1 : NULL;
	}
}

/**
 * mx_cgname_label() - a short name of what a path names, for a column
 * @n: the path's classification (mx_cgname_classify())
 * @path: the path itself
 * @buf: where the name goes
 * @len: its size
 *
 * The container ("podman:0123456789ab", its ID cut to 12 digits as the
 * runtimes show it; "conmon" after it for its monitor), else the pod
 * ("pod:UID"; a podman pod's ID cut to 12 digits), else the systemd
 * unit, else the path's last component.
 *
 * Return: @buf.
 */
const char *mx_cgname_label(const struct mx_cgname *n, const char *path,
			    char *buf, size_t len)
{
	const char *last = strrchr(path, '/');

	if (n->container_id[0])
		snprintf(buf, len, "%s:%.12s%s",
			 n->runtime ? n->runtime : "container",
			 n->container_id, n->conmon ? " conmon" : "");
	else if (n->pod_uid[0] && n->runtime)	/* podman's, cut as it does */
		snprintf(buf, len, "pod:%.12s", n->pod_uid);
	else if (n->pod_uid[0])
		snprintf(buf, len, "pod:%s", n->pod_uid);
	else if (n->unit[0])
		snprintf(buf, len, "%s", n->unit);
	else
		snprintf(buf, len, "%s", last && last[1] ? last + 1 : path);
	return buf;
}

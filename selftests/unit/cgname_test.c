// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the cgroup path classifier
 * (tools/lib/metrics/cgname.c), on paths as each manager and runtime
 * makes them: systemd's units and user managers, podman (systemd and
 * cgroupfs managers, rootless, pods, conmon, crun's "container"
 * subgroup), docker (both drivers), containerd's and cri-o's CRI
 * (kubelet's systemd and cgroupfs drivers, each QoS class), kind's
 * nesting, and paths that look close but name nothing.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "metrics.h"

#define ID1 "3f2b1c0d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c"
#define ID2 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UID "8d3e2a1f-6b7c-4d5e-9f0a-1b2c3d4e5f60"
#define UID_ "8d3e2a1f_6b7c_4d5e_9f0a_1b2c3d4e5f60"

/* One path and what it must name ("" or NULL: nothing). */
struct want {
	const char *path;
	const char *unit;
	const char *id;
	const char *runtime;
	const char *pod;
	const char *qos;
	bool conmon;
	const char *label;
};

static const struct want wants[] = {
	/* systemd */
	{ "/", "", "", NULL, "", NULL, false, "/" },
	{ "/init.scope", "init.scope", "", NULL, "", NULL, false,
	  "init.scope" },
	{ "/system.slice", "system.slice", "", NULL, "", NULL, false,
	  "system.slice" },
	{ "/system.slice/nginx.service", "nginx.service", "", NULL, "", NULL,
	  false, "nginx.service" },
	{ "/system.slice/system-getty.slice/getty@tty1.service",
	  "getty@tty1.service", "", NULL, "", NULL, false,
	  "getty@tty1.service" },
	{ "/system.slice/system-systemd\\x2dfsck.slice/systemd-fsck@dev-vda1.service",
	  "systemd-fsck@dev-vda1.service", "", NULL, "", NULL, false,
	  "systemd-fsck@dev-vda1.service" },
	{ "/system.slice/run-u12.service", "run-u12.service", "", NULL, "",
	  NULL, false, "run-u12.service" },
	{ "/user.slice/user-1000.slice/session-3.scope", "session-3.scope", "",
	  NULL, "", NULL, false, "session-3.scope" },
	{ "/user.slice/user-1000.slice/user@1000.service/init.scope",
	  "init.scope", "", NULL, "", NULL, false, "init.scope" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-3472.scope",
	  "app-gnome-firefox-3472.scope", "", NULL, "", NULL, false,
	  "app-gnome-firefox-3472.scope" },
	/* a service's own sub-cgroups are the service's */
	{ "/machine.slice/systemd-nspawn@debian.service/payload",
	  "systemd-nspawn@debian.service", "", NULL, "", NULL, false,
	  "systemd-nspawn@debian.service" },
	{ "/system.slice/docker.service", "docker.service", "", NULL, "",
	  NULL, false, "docker.service" },
	/* podman, systemd manager, crun's subgroup */
	{ "/machine.slice/libpod-" ID1 ".scope/container",
	  "libpod-" ID1 ".scope", ID1, "podman", "", NULL, false,
	  "podman:3f2b1c0d9e8a" },
	{ "/machine.slice/libpod-" ID1 ".scope", "libpod-" ID1 ".scope", ID1,
	  "podman", "", NULL, false, "podman:3f2b1c0d9e8a" },
	{ "/machine.slice/libpod-conmon-" ID1 ".scope",
	  "libpod-conmon-" ID1 ".scope", ID1, "podman", "", NULL, true,
	  "podman:3f2b1c0d9e8a conmon" },
	/* podman rootless, under the user's manager */
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID2 ".scope/container",
	  "libpod-" ID2 ".scope", ID2, "podman", "", NULL, false,
	  "podman:0123456789ab" },
	/* podman pod */
	{ "/machine.slice/machine-libpod_pod_" ID2 ".slice/libpod-" ID1 ".scope/container",
	  "libpod-" ID1 ".scope", ID1, "podman", ID2, NULL, false,
	  "podman:3f2b1c0d9e8a" },
	{ "/machine.slice/machine-libpod_pod_" ID2 ".slice",
	  "machine-libpod_pod_" ID2 ".slice", "", "podman", ID2, NULL, false,
	  "pod:0123456789ab" },
	/* podman, cgroupfs manager */
	{ "/libpod_parent/libpod-" ID1, "", ID1, "podman", "", NULL, false,
	  "podman:3f2b1c0d9e8a" },
	/* docker, both drivers */
	{ "/system.slice/docker-" ID1 ".scope", "docker-" ID1 ".scope", ID1,
	  "docker", "", NULL, false, "docker:3f2b1c0d9e8a" },
	{ "/docker/" ID2, "", ID2, "docker", "", NULL, false,
	  "docker:0123456789ab" },
	/* kubelet, systemd driver: containerd, each QoS class */
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID1 ".scope",
	  "cri-containerd-" ID1 ".scope", ID1, "containerd", UID, "burstable",
	  false, "containerd:3f2b1c0d9e8a" },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice",
	  "kubepods-besteffort-pod" UID_ ".slice", "", NULL, UID, "besteffort",
	  false, "pod:" UID },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID2 ".scope",
	  "cri-containerd-" ID2 ".scope", ID2, "containerd", UID, "guaranteed",
	  false, "containerd:0123456789ab" },
	{ "/kubepods.slice/kubepods-burstable.slice", "kubepods-burstable.slice",
	  "", NULL, "", "burstable", false, "kubepods-burstable.slice" },
	/* cri-o, systemd driver, its conmon */
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/crio-" ID2 ".scope",
	  "crio-" ID2 ".scope", ID2, "cri-o", UID, "besteffort", false,
	  "cri-o:0123456789ab" },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice/crio-conmon-" ID2 ".scope",
	  "crio-conmon-" ID2 ".scope", ID2, "cri-o", UID, "burstable", true,
	  "cri-o:0123456789ab conmon" },
	/* kubelet, cgroupfs driver */
	{ "/kubepods/burstable/pod" UID "/" ID1, "", ID1, NULL, UID,
	  "burstable", false, "container:3f2b1c0d9e8a" },
	{ "/kubepods/besteffort/pod" UID "/crio-" ID2, "", ID2, "cri-o", UID,
	  "besteffort", false, "cri-o:0123456789ab" },
	{ "/kubepods/pod" UID "/" ID2, "", ID2, NULL, UID, "guaranteed", false,
	  "container:0123456789ab" },
	{ "/kubepods/pod" UID, "", "", NULL, UID, "guaranteed", false,
	  "pod:" UID },
	/* kind: kubelet inside a docker container, names prefixed */
	{ "/system.slice/docker-" ID2 ".scope/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/kubelet-kubepods-besteffort-pod" UID_ ".slice/cri-containerd-" ID1 ".scope",
	  "cri-containerd-" ID1 ".scope", ID1, "containerd", UID, "besteffort",
	  false, "containerd:3f2b1c0d9e8a" },
	/* close, but nothing: short IDs, IDs out of place, bad UIDs */
	{ "/docker", "", "", NULL, "", NULL, false, "docker" },
	{ "/user.slice/libpod-3f2b1c0d.scope", "libpod-3f2b1c0d.scope", "",
	  NULL, "", NULL, false, "libpod-3f2b1c0d.scope" },
	{ "/" ID1, "", "", NULL, "", NULL, false, ID1 },
	{ "/docker/x/" ID1, "", "", NULL, "", NULL, false, ID1 },
	{ "/libpod-" ID1, "", "", NULL, "", NULL, false, "libpod-" ID1 },
	{ "/kubepods/burstable/podnot-a-uid", "", "", NULL, "", "burstable",
	  false, "podnot-a-uid" },
	{ "/kubepods.slice/kubepods-pod" UID ".slice", "kubepods-pod" UID ".slice",
	  "", NULL, "", NULL, false, "kubepods-pod" UID ".slice" },
	{ "/system.slice/docker-" ID1 "0.scope", "docker-" ID1 "0.scope", "",
	  NULL, "", NULL, false, "docker-" ID1 "0.scope" },
	{ "/system.slice/docker-3F2B1C0D9E8A7B6C5D4E3F2A1B0C9D8E7F6A5B4C3D2E1F0A9B8C7D6E5F4A3B2C.scope",
	  "docker-3F2B1C0D9E8A7B6C5D4E3F2A1B0C9D8E7F6A5B4C3D2E1F0A9B8C7D6E5F4A3B2C.scope",
	  "", NULL, "", NULL, false,
	  "docker-3F2B1C0D9E8A7B6C5D4E3F2A1B0C9D8E7F6A5B4C3D2E1F0A9B8C7D6E5F4A3B2C.scope" },
	{ "//system.slice//x.service/", "x.service", "", NULL, "", NULL,
	  false, "x.service" },
	{ "", "", "", NULL, "", NULL, false, "" },
};

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

TEST(real_world_paths)
{
	char label[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wants); i++) {
		const struct want *w = &wants[i];
		struct mx_cgname n;

		mx_cgname_classify(w->path, &n);
		EXPECT_STREQ(w->unit, n.unit) TH_LOG("%s", w->path);
		EXPECT_STREQ(w->id, n.container_id) TH_LOG("%s", w->path);
		EXPECT_TRUE(same(w->runtime, n.runtime)) {
			TH_LOG("%s: runtime %s", w->path, n.runtime);
		}
		EXPECT_STREQ(w->pod, n.pod_uid) TH_LOG("%s", w->path);
		EXPECT_TRUE(same(w->qos, n.qos)) {
			TH_LOG("%s: qos %s", w->path, n.qos);
		}
		EXPECT_EQ(w->conmon, n.conmon) TH_LOG("%s", w->path);
		mx_cgname_label(&n, w->path, label, sizeof(label));
		EXPECT_STREQ(w->label, label) TH_LOG("%s", w->path);
	}
}

/* A unit name longer than systemd allows is cut, never overrun. */
TEST(long_component_is_cut)
{
	char path[1024], label[8];
	struct mx_cgname n;

	memset(path, 'a', sizeof(path));
	path[0] = '/';
	strcpy(path + sizeof(path) - 9, ".service");
	mx_cgname_classify(path, &n);
	EXPECT_EQ(MX_CGN_UNIT_LEN - 1, strlen(n.unit));
	EXPECT_STREQ("aaaaaaa", mx_cgname_label(&n, path, label,
						sizeof(label)));
}

TEST_HARNESS_MAIN

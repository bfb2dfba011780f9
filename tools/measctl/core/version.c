// SPDX-License-Identifier: GPL-2.0
/*
 * measctl --version (and "measctl version"): the release of measctl, of
 * libmeas and of the loaded meas.ko, all from the file VERSION of their
 * trees, and the ABI (MEAS_ABI_VERSION) measctl was built for next to the
 * one the module speaks (MEAS_IOC_INFO); an older one is also said at
 * every open of /dev/meas (cli/dev.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"

/* The module's release and ABI; *abi 0 if unknown, with *why. */
static void module_versions(char *rel, size_t len, unsigned int *abi,
			    const char **why)
{
	struct meas_info in;
	int fd, err;

	*abi = 0;
	*why = NULL;
	err = meas_module_version(rel, len);
	if (err) {
		snprintf(rel, len, "%s", err == -ENOENT ? "" : "unknown");
		*why = err == -ENOENT ? "not loaded" : strerror(-err);
		if (err == -ENOENT)
			return;
	}
	fd = meas_open();
	if (fd < 0) {
		*why = strerror(-fd);
		return;
	}
	err = meas_info(fd, &in);
	close(fd);
	if (err)
		*why = strerror(-err);
	else
		*abi = in.version;
}

static int cmd_version(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct opt_state st;
	const char *why;
	unsigned int abi;
	char rel[64];
	struct json j;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, NULL, false, NULL, NULL);
	if (rc != OPT_END)
		return rc;
	if (st.npos)
		return usage_error(ctx, "unexpected argument '%s' (none taken)",
				   st.pos[0]);
	module_versions(rel, sizeof(rel), &abi, &why);
	if (ctx->json) {
		json_doc_ok(&j, stdout, "version", true);
		json_str(&j, "measctl", MEAS_VERSION);
		json_str(&j, "libmeas", meas_lib_version());
		if (*rel)
			json_str(&j, "module", rel);
		else
			json_null(&j, "module");
		json_u64(&j, "abi", MEAS_ABI_VERSION);
		json_u64(&j, "libmeas_abi", meas_lib_abi());
		if (abi)
			json_u64(&j, "module_abi", abi);
		else
			json_null(&j, "module_abi");
		json_bool(&j, "module_abi_older", abi && abi < MEAS_ABI_VERSION);
		json_doc_end(&j);
	} else {
		printf("measctl %s\n", MEAS_VERSION);
		printf("libmeas %s (ABI %u)\n", meas_lib_version(),
		       meas_lib_abi());
		if (abi)
			printf("meas.ko %s (ABI %u%s)\n", rel, abi,
			       abi < MEAS_ABI_VERSION ? ", older" : "");
		else
			printf("meas.ko %s%s(%s)\n", rel, *rel ? " " : "", why);
		printf("ABI %u\n", MEAS_ABI_VERSION);
	}
	if (abi && abi < MEAS_ABI_VERSION)
		abi_warn(ctx, abi);
	return EXIT_OK;
}

const struct command version_command = {
	.name = "version",
	.fn = cmd_version,
	.args = "",
	.help = "print the releases of measctl, libmeas and the loaded meas.ko,\n"
		"    and their ABI versions (also measctl --version)",
};

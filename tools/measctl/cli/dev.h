/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: opening /dev/meas, and what messages say of it (dev.c): why
 * an open failed (absent.c: why the device is missing), a module older
 * than measctl, the classes defined now.  Parsing never opens the
 * device; a usage error that names the classes defined now does, here.
 */
#ifndef MEASCTL_CLI_DEV_H
#define MEASCTL_CLI_DEV_H

#include <stddef.h>
#include "cli/cli.h"

/* Open /dev/meas or report why not; returns the fd or -1. */
int open_dev(const struct cmd_ctx *ctx);
/* The open of /dev/meas failed with @err (positive): the message. */
int fail_open(const struct cmd_ctx *ctx, int err);
/* absent.c: why /dev/meas is missing, as " (...)" */
const char *absent_hint(char *buf, size_t len);

/* Warn when the module behind @fd speaks an older ABI than measctl. */
void abi_check(const struct cmd_ctx *ctx, int fd);
/* The module speaks ABI @abi, older than measctl's: say what to do. */
void abi_warn(const struct cmd_ctx *ctx, unsigned int abi);

/* The classes defined now, for usage errors: "0,14-15" or why unknown. */
const char *classes_defined_now(char *buf, size_t len);
/* parse_classes() of a command-line word: a usage error if it is bad. */
int classes_arg(struct cmd_ctx *ctx, const char *s, struct classes *c);

#endif /* MEASCTL_CLI_DEV_H */

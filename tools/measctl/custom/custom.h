/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: user-defined classes (custom.c): the names of their items,
 * for get, and their items in watch.  define, undefine, describe
 * (define.c) and update (update.c) are commands of their own.
 */
#ifndef MEASCTL_CUSTOM_H
#define MEASCTL_CUSTOM_H

#include <stdint.h>
#include <stdio.h>
#include "cli/cli.h"

/* get: the name of an item of a user-defined class, or NULL */
const char *custom_item_name(int class, int subclass, int64_t item);

/* watch: the items of the user-defined classes it enables */
struct custom_watch;
struct custom_watch *custom_watch_new(int fd, uint32_t mask);
void custom_watch_free(struct custom_watch *w);
void custom_watch_snap(int fd, struct custom_watch *w);
void custom_watch_text(FILE *f, const struct custom_watch *w, double secs);
void custom_watch_json(struct json *j, const char *key,
		       const struct custom_watch *w, double secs);

#endif /* MEASCTL_CUSTOM_H */

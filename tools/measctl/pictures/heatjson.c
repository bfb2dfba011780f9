// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: the requests of saved iotrace --json output, for the heat map
 * (iotrace --heatmap --from).  Parsed with json-c, Debian's JSON library,
 * rather than by hand; in a file of its own because json-c's names
 * (json_bool, json_object) meet measctl's JSON writer's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "pictures/heatmap.h"

/* One line: a record, a count of lost records, the summary, or bad. */
static int hm_json_line(struct heatmap *h, struct json_object *o)
{
	struct json_object *v, *disk, *issue, *done;

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	/* the summary repeats the lost count of the lines before it */
	if (json_object_object_get_ex(o, "ok", &v))
		return 0;
	if (json_object_object_get_ex(o, "lost", &v)) {
		if (!json_object_is_type(v, json_type_int))
			return -EINVAL;
		h->lost += json_object_get_uint64(v);
		return 0;
	}
	if (!json_object_object_get_ex(o, "disk", &disk) ||
	    !json_object_object_get_ex(o, "issue_ns", &issue) ||
	    !json_object_object_get_ex(o, "complete_ns", &done) ||
	    !json_object_is_type(disk, json_type_string) ||
	    !json_object_is_type(issue, json_type_int) ||
	    !json_object_is_type(done, json_type_int))
		return -EINVAL;
	return hm_add_request(h, json_object_get_string(disk),
			      json_object_get_uint64(issue),
			      json_object_get_uint64(done));
}

int hm_load_json(FILE *f, struct heatmap *h, size_t *lineno)
{
	struct json_object *o;
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	*lineno = 0;
	while (!err && getline(&line, &cap, f) > 0) {
		++*lineno;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		o = json_tokener_parse(line);
		err = o ? hm_json_line(h, o) : -EINVAL;
		json_object_put(o);
	}
	free(line);
	if (!err && ferror(f))
		err = -EIO;
	return err;
}

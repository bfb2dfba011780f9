// SPDX-License-Identifier: GPL-2.0
/*
 * The process-group configuration file (Documentation/exporter.rst):
 *
 *   # a comment; blank lines are ignored
 *   cgroup-depth 2            # components of the cgroup v2 path, 0..16
 *   max-groups 64             # groups besides "other", 1..4096
 *   group NAME PATTERN...     # processes whose command or program name
 *                             # matches a glob PATTERN (fnmatch(3))
 *
 * A process goes to the first "group" line with a matching pattern,
 * else to its cgroup path cut to cgroup-depth components (when that is
 * not 0), else to "other".  A bad file is refused as a whole, with its
 * line number: nothing of it is used.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* Also main.c's, for the options: one parser of numbers. */
int mx_parse_uint(const char *s, unsigned int lo, unsigned int hi,
		  unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

void mx_grpconf_default(struct mx_grpconf *c)
{
	memset(c, 0, sizeof(*c));
	c->depth = MX_GRP_DEPTH_DEFAULT;
	c->max_groups = MX_GRP_MAX_DEFAULT;
}

static int conf_err(const char *file, unsigned int line, const char *what,
		    const char *tok)
{
	/* the program's own name: meas-exporter or pmdameas */
	fprintf(stderr, "%s: %s:%u: %s%s%s%s\n", program_invocation_short_name,
		file, line, what,
		tok ? " '" : "", tok ? tok : "", tok ? "'" : "");
	return -EINVAL;
}

/*
 * A group name: letters, digits and _ . : / @ - only, not "other", and
 * not starting with "/", which only cgroup groups do.
 */
static int conf_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= MX_GRP_NAME_LEN || !strcmp(s, "other") || *s == '/')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.:/@-", *s))
			return 0;
	return 1;
}

static int conf_group(struct mx_grpconf *c, const char *file,
		      unsigned int line, char *save)
{
	struct mx_grprule *r;
	char *tok = strtok_r(NULL, " \t", &save);

	if (!tok)
		return conf_err(file, line, "group: a name is needed", NULL);
	if (!conf_name_ok(tok))
		return conf_err(file, line,
				"group: a name of 1..63 of [A-Za-z0-9_.:/@-], not \"other\", not starting with /",
				tok);
	if (c->nrules >= MX_GRP_MAX_RULES)
		return conf_err(file, line, "too many group lines (64 at most)",
				NULL);
	r = &c->rules[c->nrules];
	memset(r, 0, sizeof(*r));
	strcpy(r->name, tok);
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (r->npat >= MX_GRP_MAX_PATS)
			return conf_err(file, line,
					"too many patterns (16 a group at most)",
					NULL);
		if (strlen(tok) >= MX_GRP_PAT_LEN)
			return conf_err(file, line,
					"pattern too long (63 bytes at most)",
					tok);
		strcpy(r->pat[r->npat++], tok);
	}
	if (!r->npat)
		return conf_err(file, line, "group: a pattern is needed", NULL);
	c->nrules++;
	return 0;
}

static int conf_line(struct mx_grpconf *c, const char *file,
		     unsigned int line, char *s)
{
	char *hash = strchr(s, '#'), *save = NULL, *kw, *val;

	if (hash)
		*hash = '\0';
	s[strcspn(s, "\r\n")] = '\0';
	kw = strtok_r(s, " \t", &save);
	if (!kw)
		return 0;
	if (!strcmp(kw, "group"))
		return conf_group(c, file, line, save);
	val = strtok_r(NULL, " \t", &save);
	if (strcmp(kw, "cgroup-depth") && strcmp(kw, "max-groups"))
		return conf_err(file, line, "unknown keyword", kw);
	if (!val || strtok_r(NULL, " \t", &save))
		return conf_err(file, line, "one number expected after", kw);
	if (!strcmp(kw, "cgroup-depth")) {
		if (mx_parse_uint(val, 0, MX_GRP_DEPTH_MAX, &c->depth))
			return conf_err(file, line,
					"cgroup-depth: 0..16 expected", val);
	} else if (mx_parse_uint(val, 1, MX_GRP_MAX_LIMIT, &c->max_groups)) {
		return conf_err(file, line, "max-groups: 1..4096 expected",
				val);
	}
	return 0;
}

/**
 * mx_grpconf_load() - read a group configuration file
 * @c: filled in; left as it was if the file is refused
 * @file: its path
 *
 * Return: 0, or a negative errno (the reason printed on stderr).
 */
int mx_grpconf_load(struct mx_grpconf *c, const char *file)
{
	struct mx_grpconf *n = malloc(sizeof(*n));
	char buf[1024];
	unsigned int line = 0;
	int err = 0;
	FILE *f;

	if (!n)
		return -ENOMEM;
	f = fopen(file, "re");
	if (!f) {
		err = -errno;
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name,
			file, strerror(errno));
		free(n);
		return err;
	}
	mx_grpconf_default(n);
	while (!err && fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f))
			err = conf_err(file, line, "line too long", NULL);
		else
			err = conf_line(n, file, line, buf);
	}
	if (!err && ferror(f))
		err = conf_err(file, line, "read error", NULL);
	fclose(f);
	if (!err)
		*c = *n;
	free(n);
	return err;
}

/**
 * mx_grpconf_match() - the group rule a process's names match
 * @c: the configuration
 * @comm: its command name
 * @program: its program name
 *
 * Return: the rule's index, or -1.
 */
int mx_grpconf_match(const struct mx_grpconf *c, const char *comm,
		     const char *program)
{
	unsigned int i, p;

	for (i = 0; i < c->nrules; i++)
		for (p = 0; p < c->rules[i].npat; p++)
			if (!fnmatch(c->rules[i].pat[p], comm, 0) ||
			    !fnmatch(c->rules[i].pat[p], program, 0))
				return (int)i;
	return -1;
}

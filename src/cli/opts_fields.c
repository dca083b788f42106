/*
 * The parsers of clyde run's compound options (opts_internal.h): -s, -n
 * and their sub-fields, -m, -u, -f and -p, as bonnie++ reads them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_args.h"
#include "cli/opts_internal.h"
#include "core/size.h"

/* The sub-fields of -s and -n: numbers with the model's messages, which
 * are not options of their own. */
static const struct clyde_opt sub_io_chunk = {
	.type = CLYDE_OPT_UINT,
	.suffixes = "k",
	.shift = 10,
	.min = CLYDE_MIN_CHUNK,
	.max = CLYDE_MAX_CHUNK,
	.pow2 = true,
	.kind = "a number of bytes",
	.form = "use bytes with an optional k suffix, e.g. 8192 or 64k",
};

static const struct clyde_opt sub_seeks = {
	.type = CLYDE_OPT_UINT,
	.suffixes = "k",
	.shift = 10,
	.min = 1,
	.max = UINT32_MAX,
	.kind = "a number",
	.form = "use a count with an optional k suffix, e.g. 8192 or 8k",
};

static const struct clyde_opt sub_seekers = {
	.type = CLYDE_OPT_UINT,
	.suffixes = "",
	.min = 1,
	.max = MAX_SEEKERS,
	.form = "use a plain count, e.g. 5",
};

static const struct clyde_opt sub_max = {
	.type = CLYDE_OPT_UINT,
	.suffixes = "kmg",
	.shift = 10,
	.max = INT64_MAX,
	.kind = "a size in bytes",
	.form = "use bytes with an optional k, m or g suffix, "
		"-1 for hard links or -2 for symlinks",
	.note = "or -1 for hard links, -2 for symlinks",
};

static const struct clyde_opt sub_min = {
	.type = CLYDE_OPT_UINT,
	.suffixes = "kmg",
	.shift = 10,
	.max = INT64_MAX,
	.kind = "a size in bytes",
	.form = "use bytes with an optional k, m or g suffix, e.g. 4k",
};

static const struct clyde_opt sub_dirs = {
	.type = CLYDE_OPT_UINT,
	.suffixes = "k",
	.shift = 10,
	.min = 1,
	.max = CLYDE_MAX_DIRS,
	.kind = "a number",
	.form = "use a count with an optional k suffix, e.g. 10",
};

static const struct clyde_opt sub_file_chunk = {
	.type = CLYDE_OPT_UINT,
	.suffixes = "k",
	.shift = 10,
	.min = CLYDE_MIN_CHUNK,
	.max = CLYDE_MAX_CHUNK,
	.pow2 = true,
	.kind = "a number of bytes",
	.form = "use bytes with an optional k suffix, e.g. 4096 or 64k",
};

/*
 * Split a colon-separated argument (-s, -n) into at most maxf non-empty
 * fields, in buf (FIELDS_MAX_LEN bytes).  `form` is the accepted shape for
 * the messages.
 */
static int split_fields(const char *name, const char *arg, const char *form,
			char *buf, char **fields, int maxf, int *nf, char *err,
			size_t len)
{
	size_t alen = strlen(arg);
	char *s = buf, *colon;
	int n = 0, i;

	if (alen >= FIELDS_MAX_LEN)
		return clyde_cli_bad(
			err, len,
			"%s: an argument of %zu characters is too long; "
			"use %s",
			name, alen, form);
	memcpy(buf, arg, alen + 1);
	for (;;) {
		if (n == maxf)
			return clyde_cli_bad(
				err, len,
				"%s: \"%s\" has too many fields; use %s", name,
				arg, form);
		fields[n++] = s;
		colon = strchr(s, ':');
		if (!colon)
			break;
		*colon = '\0';
		s = colon + 1;
	}
	for (i = 0; i < n; i++)
		if (!*fields[i])
			return clyde_cli_bad(
				err, len,
				"%s: \"%s\" has an empty field; use %s", name,
				arg, form);
	*nf = n;
	return 0;
}

/* -s size[:chunk[:seeks[:seekers]]]: a later -s replaces all four.  The
 * size's bounds and messages are the entry's own. */
int clyde_opts_size_opt(void *base, const struct clyde_opt *o, const char *name,
			const char *arg, char *err, size_t len)
{
	static const char form[] = "size[:chunk[:seeks[:seekers]]]";
	struct clyde_bonnie_config *cfg = &((struct run_opts *)base)->cfg;
	char buf[FIELDS_MAX_LEN];
	char *f[4];
	uint64_t v;
	int n;

	if (split_fields(name, arg, form, buf, f, 4, &n, err, len) ||
	    clyde_opt_number(o, name, NULL, f[0], &v, err, len))
		return -1;
	cfg->file_size_mib = v;
	cfg->size_given = true;
	cfg->io_chunk = 8192;
	cfg->seeks = 8192;
	cfg->seekers = 5;
	if (n > 1) {
		if (clyde_opt_number(&sub_io_chunk, name, "chunk", f[1], &v,
				     err, len))
			return -1;
		cfg->io_chunk = (uint32_t)v;
	}
	if (n > 2) {
		if (clyde_opt_number(&sub_seeks, name, "seeks", f[2], &v, err,
				     len))
			return -1;
		cfg->seeks = (uint32_t)v;
	}
	if (n > 3) {
		if (clyde_opt_number(&sub_seekers, name, "seekers", f[3], &v,
				     err, len))
			return -1;
		cfg->seekers = (uint32_t)v;
	}
	return 0;
}

/* -n num[:max[:min[:dirs[:chunk]]]]: a later -n replaces all five. */
int clyde_opts_files_opt(void *base, const struct clyde_opt *o,
			 const char *name, const char *arg, char *err,
			 size_t len)
{
	static const char form[] = "num[:max[:min[:dirs[:chunk]]]]";
	struct clyde_bonnie_config *cfg = &((struct run_opts *)base)->cfg;
	char buf[FIELDS_MAX_LEN];
	char *f[5];
	uint64_t v;
	int n;

	if (split_fields(name, arg, form, buf, f, 5, &n, err, len) ||
	    clyde_opt_number(o, name, NULL, f[0], &v, err, len))
		return -1;
	cfg->num_files = v * 1024u;
	cfg->max_size = 0;
	cfg->min_size = 0;
	cfg->num_dirs = 1;
	cfg->file_chunk = 8192;
	if (n > 1) {
		if (!strcmp(f[1], "-1") || !strcmp(f[1], "-2"))
			cfg->max_size = f[1][1] == '1' ? -1 : -2;
		else if (clyde_opt_number(&sub_max, name, "max", f[1], &v, err,
					  len))
			return -1;
		else
			cfg->max_size = (int64_t)v;
	}
	if (n > 2) {
		if (clyde_opt_number(&sub_min, name, "min", f[2], &v, err, len))
			return -1;
		cfg->min_size = (int64_t)v;
	}
	if (n > 3) {
		if (clyde_opt_number(&sub_dirs, name, "dirs", f[3], &v, err,
				     len))
			return -1;
		cfg->num_dirs = (uint32_t)v;
	}
	if (n > 4) {
		if (clyde_opt_number(&sub_file_chunk, name, "chunk", f[4], &v,
				     err, len))
			return -1;
		cfg->file_chunk = (uint32_t)v;
	}
	if (cfg->max_size >= 0 && cfg->max_size < cfg->min_size)
		return clyde_cli_bad(err, len,
				     "%s: max %s is less than min %s; use "
				     "num:max:min with max >= min",
				     name, f[1], f[2]);
	/* Links have no size: a min would silently mean nothing. */
	if (cfg->max_size < 0 && cfg->min_size > 0)
		return clyde_cli_bad(
			err, len,
			"%s: min %s makes no sense with max %s (%s have "
			"no size); leave min out or make it 0",
			name, f[2], f[1],
			cfg->max_size == -1 ? "hard links" : "symlinks");
	return 0;
}

/* The machine name becomes a CSV field and the start of a table row. */
int clyde_opts_machine_opt(void *base, const struct clyde_opt *o,
			   const char *name, const char *arg, char *err,
			   size_t len)
{
	const char *c;

	(void)o;
	if (!*arg)
		return clyde_cli_bad(
			err, len,
			"%s: the machine name is empty; give a machine "
			"name",
			name);
	if (strlen(arg) > MAX_MACHINE_LEN)
		return clyde_cli_bad(
			err, len,
			"%s: the machine name is longer than %u bytes; "
			"use a shorter name",
			name, MAX_MACHINE_LEN);
	for (c = arg; *c; c++) {
		if (*c == ',')
			return clyde_cli_bad(
				err, len,
				"%s: \"%s\" contains a comma, which "
				"would break the CSV line; use a name "
				"without commas",
				name, arg);
		if (iscntrl((unsigned char)*c))
			return clyde_cli_bad(err, len,
					     "%s: the machine name contains a "
					     "control character; use printable "
					     "characters",
					     name);
	}
	((struct run_opts *)base)->cfg.machine = arg;
	return 0;
}

/* -u user[:group]: kept verbatim; the caller looks the names up. */
int clyde_opts_user_opt(void *base, const struct clyde_opt *o, const char *name,
			const char *arg, char *err, size_t len)
{
	const char *colon = strchr(arg, ':');

	(void)o;
	if (!*arg || colon == arg)
		return clyde_cli_bad(
			err, len,
			"%s: \"%s\" has no user name; use user[:group]", name,
			arg);
	if (colon && (!colon[1] || strchr(colon + 1, ':')))
		return clyde_cli_bad(
			err, len,
			"%s: \"%s\" is not user[:group]; use a user "
			"name or id, optionally followed by :group",
			name, arg);
	((struct run_opts *)base)->cfg.user = arg;
	return 0;
}

/* -f skips the per-char tests; -fN runs them over N MiB. */
int clyde_opts_fast_opt(void *base, const struct clyde_opt *o, const char *name,
			const char *arg, char *err, size_t len)
{
	struct clyde_bonnie_config *cfg = &((struct run_opts *)base)->cfg;
	uint64_t v;

	if (!arg) {
		cfg->skip_perchar = true;
		return 0;
	}
	if (clyde_opt_number(o, name, NULL, arg, &v, err, len))
		return -1;
	cfg->skip_perchar = false;
	cfg->perchar_mib = v;
	cfg->perchar_given = true;
	return 0;
}

/* -p N, or bonnie++'s -1 (remove the semaphores). */
int clyde_opts_processes_opt(void *base, const struct clyde_opt *o,
			     const char *name, const char *arg, char *err,
			     size_t len)
{
	struct clyde_bonnie_config *cfg = &((struct run_opts *)base)->cfg;
	uint64_t v;

	if (!strcmp(arg, "-1")) {
		cfg->sync_procs = -1;
		return 0;
	}
	if (clyde_opt_number(o, name, NULL, arg, &v, err, len))
		return -1;
	cfg->sync_procs = (int)v;
	return 0;
}

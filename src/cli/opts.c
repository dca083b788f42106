/*
 * clyde's bonnie++ command line.  One table (opt_table) lists every option:
 * its short and long name, whether it takes an argument, the help line and
 * the function that applies it.  The parser and --help both read the table,
 * so what --help shows is exactly what the parser accepts.
 *
 * A small hand-written parser instead of getopt_long(): getopt keeps its
 * position in globals (optind, and glibc's hidden __nextchar), which makes
 * a second parse in the same process depend on the first.  This one keeps
 * everything in a struct on the stack.  It follows getopt's conventions:
 * short options may be grouped (-qb), an argument may be attached (-s64m)
 * or the next word (-s 64m), an optional argument (-f) must be attached,
 * and "--" ends the options.  Long options take "--size 64m" or
 * "--size=64m"; an optional argument only in the "=" form.
 */
#include "cli/opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_args.h"
#include "core/series.h"
#include "core/size.h"

/* The largest MiB count whose size in bytes still fits an off_t. */
#define MAX_MIB ((uint64_t)INT64_MAX >> 20)
/* Seekers are threads, each with its own file descriptor. */
#define MAX_SEEKERS 1024u
/* -p N is the value of a SysV semaphore, which cannot exceed SEMVMX. */
#define MAX_SYNC_PROCS 32767u
/* -n counts in units of 1024 files; keep the total below 2^32 files. */
#define MAX_NUM_UNITS ((uint64_t)UINT32_MAX / 1024u)
/* Longest -s/-n argument: every valid one is far shorter. */
#define FIELDS_MAX_LEN 256
/* The result model keeps the machine name in a char[256]. */
#define MAX_MACHINE_LEN 255u

enum arg_kind {
	ARG_NONE,
	ARG_REQUIRED, /* attached (-s64m, --size=64m) or the next word */
	ARG_OPTIONAL, /* attached only (-f8, --fast=8) */
};

enum opt_group {
	GROUP_BONNIE,
	GROUP_CLYDE,
};

struct parser {
	struct clyde_bonnie_config *cfg;
	struct clyde_cli_extra *extra;
	char *err;
	size_t errlen;
	bool sync_mode_given; /* -y */
};

struct opt_def {
	char short_name;       /* 0 when there is none */
	const char *long_name; /* NULL when there is none */
	enum arg_kind arg;
	const char *metavar;
	enum opt_group group;
	const char *help;
	/* Apply the option.  `name` is the option as the user typed it ("-s"
	 * or "--size"), for messages; arg is NULL when none was given.
	 * Returns 0, CLYDE_OPTS_HELP/VERSION to stop, or CLYDE_OPTS_ERROR. */
	int (*apply)(struct parser *p, const char *name, const char *arg);
};

static int fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record the one-line message and return CLYDE_OPTS_ERROR. */
static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return CLYDE_OPTS_ERROR;
}

/*
 * What a numeric field accepts, and what the messages say when it does not:
 * "<opt>[ <field>]: "<text>" is not <kind>; <form>" for malformed text and
 * "<opt>[ <field>] <text>: must be [a power of two ]from <min> to <max>"
 * for a well-formed value out of range.  The range in that message is made
 * from min and max (range_text), in a form the field accepts, so that it
 * can never disagree with the check.
 */
struct num_spec {
	const char *field;    /* sub-field name ("chunk"), or NULL */
	const char *suffixes; /* see core/size.h */
	unsigned shift;
	uint64_t min, max;
	bool pow2;
	const char *kind;
	const char *form;
	const char *note; /* after the range, or NULL */
};

static const struct num_spec spec_size = {
	.suffixes = "mgt",
	.max = MAX_MIB,
	.kind = "a size",
	.form = "use MiB with an optional m, g or t suffix, "
		"e.g. 512m or 4g[:chunk[:seeks[:seekers]]]",
};

static const struct num_spec spec_io_chunk = {
	.field = "chunk",
	.suffixes = "k",
	.shift = 10,
	.min = CLYDE_MIN_CHUNK,
	.max = CLYDE_MAX_CHUNK,
	.pow2 = true,
	.kind = "a number of bytes",
	.form = "use bytes with an optional k suffix, e.g. 8192 or 64k",
};

static const struct num_spec spec_seeks = {
	.field = "seeks",
	.suffixes = "k",
	.shift = 10,
	.min = 1,
	.max = UINT32_MAX,
	.kind = "a number",
	.form = "use a count with an optional k suffix, e.g. 8192 or 8k",
};

static const struct num_spec spec_seekers = {
	.field = "seekers",
	.suffixes = "",
	.min = 1,
	.max = MAX_SEEKERS,
	.kind = "a number",
	.form = "use a plain count, e.g. 5",
};

static const struct num_spec spec_num = {
	.suffixes = "m",
	.shift = 10,
	.max = MAX_NUM_UNITS,
	.kind = "a number",
	.form = "use a count of 1024 files with an optional m suffix, "
		"e.g. 16 or 1m[:max[:min[:dirs[:chunk]]]]",
	.note = "(units of 1024 files)",
};

static const struct num_spec spec_max = {
	.field = "max",
	.suffixes = "kmg",
	.shift = 10,
	.max = INT64_MAX,
	.kind = "a size in bytes",
	.form = "use bytes with an optional k, m or g suffix, "
		"-1 for hard links or -2 for symlinks",
	.note = "or -1 for hard links, -2 for symlinks",
};

static const struct num_spec spec_min = {
	.field = "min",
	.suffixes = "kmg",
	.shift = 10,
	.max = INT64_MAX,
	.kind = "a size in bytes",
	.form = "use bytes with an optional k, m or g suffix, e.g. 4k",
};

static const struct num_spec spec_dirs = {
	.field = "dirs",
	.suffixes = "k",
	.shift = 10,
	.min = 1,
	.max = CLYDE_MAX_DIRS,
	.kind = "a number",
	.form = "use a count with an optional k suffix, e.g. 10",
};

static const struct num_spec spec_file_chunk = {
	.field = "chunk",
	.suffixes = "k",
	.shift = 10,
	.min = CLYDE_MIN_CHUNK,
	.max = CLYDE_MAX_CHUNK,
	.pow2 = true,
	.kind = "a number of bytes",
	.form = "use bytes with an optional k suffix, e.g. 4096 or 64k",
};

static const struct num_spec spec_concurrency = {
	.suffixes = "",
	.min = 1,
	.max = CLYDE_MAX_CONCURRENCY,
	.kind = "a number",
	.form = "use a count from 1 to 200",
};

static const struct num_spec spec_runs = {
	.suffixes = "",
	.min = 1,
	.max = UINT32_MAX,
	.kind = "a number",
	.form = "use a count of at least 1, e.g. 3",
};

static const struct num_spec spec_procs = {
	.suffixes = "",
	.min = 1,
	.max = MAX_SYNC_PROCS,
	.kind = "a number",
	.form = "use the number of processes, e.g. 4, or -1 to remove the "
		"semaphores",
	.note = "or -1 to remove the semaphores",
};

static const struct num_spec spec_ram = {
	.suffixes = "mgt",
	.max = MAX_MIB,
	.kind = "a size",
	.form = "use MiB with an optional m, g or t suffix, e.g. 4096 or 4g "
		"(0 disables the RAM checks)",
	.note = "(0 disables the RAM checks)",
};

static const struct num_spec spec_perchar = {
	.suffixes = "mgt",
	.min = 1,
	.max = MAX_MIB,
	.kind = "a size",
	.form = "attach MiB with an optional m, g or t suffix, as in -f8 or "
		"--fast=8; a bare -f skips the per-char tests",
	.note = "a bare -f skips the per-char tests",
};

static const struct num_spec spec_seed = {
	.suffixes = "",
	.max = UINT64_MAX,
	.kind = "a number",
	.form = "use a decimal number, e.g. 12345",
};

/* v as the field would accept it: with the largest suffix that divides it
 * exactly, else as plain digits. */
static void num_text(const struct num_spec *s, uint64_t v, char *buf,
		     size_t len)
{
	size_t ns = strlen(s->suffixes);

	for (size_t i = ns; i-- > 0;) {
		unsigned sh = s->shift + 10u * (unsigned)i;

		if (sh > 0 && sh < 64 && v && !(v & ((1ull << sh) - 1))) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(v >> sh), s->suffixes[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* "must be [a power of two ]from MIN to MAX[ NOTE]" or "must be at most
 * MAX[ NOTE]", from the spec's own bounds. */
static void range_text(const struct num_spec *s, char *buf, size_t len)
{
	char lo[32], hi[32];
	const char *sep = !s->note		      ? "" :
			  s->note[0] == '('	      ? " " :
			  !strncmp(s->note, "or ", 3) ? ", " :
							"; ";

	num_text(s, s->min, lo, sizeof(lo));
	num_text(s, s->max, hi, sizeof(hi));
	if (s->min == 0 && !s->pow2)
		snprintf(buf, len, "must be at most %s%s%s", hi, sep,
			 s->note ? s->note : "");
	else
		snprintf(buf, len, "must be %sfrom %s to %s%s%s",
			 s->pow2 ? "a power of two " : "", lo, hi, sep,
			 s->note ? s->note : "");
}

static int parse_num(struct parser *p, const char *name,
		     const struct num_spec *s, const char *text, uint64_t *out)
{
	const char *sp = s->field ? " " : "", *field = s->field ? s->field : "";
	uint64_t v;
	int rc;

	rc = clyde_size_parse(text, s->suffixes, s->shift, &v);
	if (rc == -EINVAL)
		return fail(p, "%s%s%s: \"%s\" is not %s; %s", name, sp, field,
			    text, s->kind, s->form);
	if (rc || v < s->min || v > s->max || (s->pow2 && !clyde_is_pow2(v))) {
		char range[160];

		range_text(s, range, sizeof(range));
		return fail(p, "%s%s%s %s: %s", name, sp, field, text, range);
	}
	*out = v;
	return 0;
}

/*
 * Split a colon-separated argument (-s, -n) into at most maxf non-empty
 * fields, in buf (FIELDS_MAX_LEN bytes).  `form` is the accepted shape for
 * the messages.
 */
static int split_fields(struct parser *p, const char *name, const char *arg,
			const char *form, char *buf, char **fields, int maxf,
			int *nf)
{
	size_t len = strlen(arg);
	char *s = buf, *colon;
	int n = 0, i;

	if (len >= FIELDS_MAX_LEN)
		return fail(p,
			    "%s: an argument of %zu characters is too long; "
			    "use %s",
			    name, len, form);
	memcpy(buf, arg, len + 1);
	for (;;) {
		if (n == maxf)
			return fail(p, "%s: \"%s\" has too many fields; use %s",
				    name, arg, form);
		fields[n++] = s;
		colon = strchr(s, ':');
		if (!colon)
			break;
		*colon = '\0';
		s = colon + 1;
	}
	for (i = 0; i < n; i++)
		if (!*fields[i])
			return fail(p, "%s: \"%s\" has an empty field; use %s",
				    name, arg, form);
	*nf = n;
	return 0;
}

/* -s size[:chunk[:seeks[:seekers]]]: a later -s replaces all four. */
static int opt_size(struct parser *p, const char *name, const char *arg)
{
	static const char form[] = "size[:chunk[:seeks[:seekers]]]";
	struct clyde_bonnie_config *cfg = p->cfg;
	char buf[FIELDS_MAX_LEN];
	char *f[4];
	uint64_t v;
	int n;

	if (split_fields(p, name, arg, form, buf, f, 4, &n))
		return CLYDE_OPTS_ERROR;
	if (parse_num(p, name, &spec_size, f[0], &v))
		return CLYDE_OPTS_ERROR;
	cfg->file_size_mib = v;
	cfg->size_given = true;
	cfg->io_chunk = 8192;
	cfg->seeks = 8192;
	cfg->seekers = 5;
	if (n > 1) {
		if (parse_num(p, name, &spec_io_chunk, f[1], &v))
			return CLYDE_OPTS_ERROR;
		cfg->io_chunk = (uint32_t)v;
	}
	if (n > 2) {
		if (parse_num(p, name, &spec_seeks, f[2], &v))
			return CLYDE_OPTS_ERROR;
		cfg->seeks = (uint32_t)v;
	}
	if (n > 3) {
		if (parse_num(p, name, &spec_seekers, f[3], &v))
			return CLYDE_OPTS_ERROR;
		cfg->seekers = (uint32_t)v;
	}
	return 0;
}

/* -n num[:max[:min[:dirs[:chunk]]]]: a later -n replaces all five. */
static int opt_files(struct parser *p, const char *name, const char *arg)
{
	static const char form[] = "num[:max[:min[:dirs[:chunk]]]]";
	struct clyde_bonnie_config *cfg = p->cfg;
	char buf[FIELDS_MAX_LEN];
	char *f[5];
	uint64_t v;
	int n;

	if (split_fields(p, name, arg, form, buf, f, 5, &n))
		return CLYDE_OPTS_ERROR;
	if (parse_num(p, name, &spec_num, f[0], &v))
		return CLYDE_OPTS_ERROR;
	cfg->num_files = v * 1024u;
	cfg->max_size = 0;
	cfg->min_size = 0;
	cfg->num_dirs = 1;
	cfg->file_chunk = 8192;
	if (n > 1) {
		if (!strcmp(f[1], "-1") || !strcmp(f[1], "-2"))
			cfg->max_size = f[1][1] == '1' ? -1 : -2;
		else if (parse_num(p, name, &spec_max, f[1], &v))
			return CLYDE_OPTS_ERROR;
		else
			cfg->max_size = (int64_t)v;
	}
	if (n > 2) {
		if (parse_num(p, name, &spec_min, f[2], &v))
			return CLYDE_OPTS_ERROR;
		cfg->min_size = (int64_t)v;
	}
	if (n > 3) {
		if (parse_num(p, name, &spec_dirs, f[3], &v))
			return CLYDE_OPTS_ERROR;
		cfg->num_dirs = (uint32_t)v;
	}
	if (n > 4) {
		if (parse_num(p, name, &spec_file_chunk, f[4], &v))
			return CLYDE_OPTS_ERROR;
		cfg->file_chunk = (uint32_t)v;
	}
	if (cfg->max_size >= 0 && cfg->max_size < cfg->min_size)
		return fail(p,
			    "%s: max %s is less than min %s; use "
			    "num:max:min with max >= min",
			    name, f[1], f[2]);
	/* Links have no size: a min would silently mean nothing. */
	if (cfg->max_size < 0 && cfg->min_size > 0)
		return fail(p,
			    "%s: min %s makes no sense with max %s (%s have "
			    "no size); leave min out or make it 0",
			    name, f[2], f[1],
			    cfg->max_size == -1 ? "hard links" : "symlinks");
	return 0;
}

/* A name that ends up in a path, a user database or an output line. */
static int check_name(struct parser *p, const char *name, const char *arg,
		      const char *what)
{
	if (!*arg)
		return fail(p, "%s: the %s is empty; give a %s", name, what,
			    what);
	return 0;
}

static int opt_dir(struct parser *p, const char *name, const char *arg)
{
	if (check_name(p, name, arg, "directory name"))
		return CLYDE_OPTS_ERROR;
	p->cfg->dir = arg;
	return 0;
}

/* The machine name becomes a CSV field and the start of a table row. */
static int opt_machine(struct parser *p, const char *name, const char *arg)
{
	const char *c;

	if (check_name(p, name, arg, "machine name"))
		return CLYDE_OPTS_ERROR;
	if (strlen(arg) > MAX_MACHINE_LEN)
		return fail(p,
			    "%s: the machine name is longer than %u bytes; "
			    "use a shorter name",
			    name, MAX_MACHINE_LEN);
	for (c = arg; *c; c++) {
		if (*c == ',')
			return fail(p,
				    "%s: \"%s\" contains a comma, which "
				    "would break the CSV line; use a name "
				    "without commas",
				    name, arg);
		if (iscntrl((unsigned char)*c))
			return fail(p,
				    "%s: the machine name contains a "
				    "control character; use printable "
				    "characters",
				    name);
	}
	p->cfg->machine = arg;
	return 0;
}

static int opt_ram(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (parse_num(p, name, &spec_ram, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->ram_mib = (int64_t)v;
	return 0;
}

static int opt_runs(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (parse_num(p, name, &spec_runs, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->runs = (unsigned)v;
	return 0;
}

/* -u user[:group]: kept verbatim; the caller looks the names up. */
static int opt_user(struct parser *p, const char *name, const char *arg)
{
	const char *colon = strchr(arg, ':');

	if (!*arg || colon == arg)
		return fail(p, "%s: \"%s\" has no user name; use user[:group]",
			    name, arg);
	if (colon && (!colon[1] || strchr(colon + 1, ':')))
		return fail(p,
			    "%s: \"%s\" is not user[:group]; use a user "
			    "name or id, optionally followed by :group",
			    name, arg);
	p->cfg->user = arg;
	return 0;
}

static int opt_group(struct parser *p, const char *name, const char *arg)
{
	if (check_name(p, name, arg, "group name"))
		return CLYDE_OPTS_ERROR;
	p->cfg->group = arg;
	return 0;
}

static int opt_quiet(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->cfg->quiet = true;
	return 0;
}

/* -f skips the per-char tests; -fN runs them over N MiB. */
static int opt_fast(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (!arg) {
		p->cfg->skip_perchar = true;
		return 0;
	}
	if (parse_num(p, name, &spec_perchar, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->skip_perchar = false;
	p->cfg->perchar_mib = v;
	p->cfg->perchar_given = true;
	return 0;
}

static int opt_fsync(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->cfg->fsync_each = true;
	return 0;
}

static int opt_direct(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->cfg->direct = true;
	return 0;
}

static int opt_concurrency(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (parse_num(p, name, &spec_concurrency, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->concurrency = (unsigned)v;
	return 0;
}

static int opt_processes(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (!strcmp(arg, "-1")) {
		p->cfg->sync_procs = -1;
		return 0;
	}
	if (parse_num(p, name, &spec_procs, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->sync_procs = (int)v;
	return 0;
}

static int opt_sync(struct parser *p, const char *name, const char *arg)
{
	if (!strcmp(arg, "s"))
		p->cfg->sync_mode = CLYDE_SYNC_SEM;
	else if (!strcmp(arg, "p"))
		p->cfg->sync_mode = CLYDE_SYNC_PROMPT;
	else
		return fail(p,
			    "%s: \"%s\" is not a sync mode; use s (wait for "
			    "all -p processes) or p (wait for a line on stdin)",
			    name, arg);
	p->sync_mode_given = true;
	return 0;
}

static int opt_seed(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (parse_num(p, name, &spec_seed, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->seed = v;
	p->cfg->seed_given = true;
	return 0;
}

static int opt_random_file(struct parser *p, const char *name, const char *arg)
{
	if (check_name(p, name, arg, "file name"))
		return CLYDE_OPTS_ERROR;
	p->cfg->random_file = arg;
	return 0;
}

/*
 * -l: bonnie++ 2.00a's getopt string has "l:", but its option switch has no
 * case for it, so "-l ARG" is consumed and does nothing (checked: a run
 * with -l PATH creates nothing and prints the same).  clyde does the same
 * so that bonnie++ command lines keep working.
 */
static int opt_ignored(struct parser *p, const char *name, const char *arg)
{
	(void)p;
	(void)name;
	(void)arg;
	return 0;
}

static int opt_pattern(struct parser *p, const char *name, const char *arg)
{
	if (!strcmp(arg, "random"))
		p->cfg->pattern = CLYDE_PATTERN_RANDOM;
	else if (!strcmp(arg, "zeros"))
		p->cfg->pattern = CLYDE_PATTERN_ZEROS;
	else
		return fail(p,
			    "%s: \"%s\" is not a pattern; use random "
			    "(incompressible) or zeros (bonnie++'s data)",
			    name, arg);
	return 0;
}

static int opt_json(struct parser *p, const char *name, const char *arg)
{
	if (check_name(p, name, arg, "file name"))
		return CLYDE_OPTS_ERROR;
	p->extra->json_path = arg;
	return 0;
}

static int opt_no_evict(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->cfg->no_evict = true;
	return 0;
}

static int opt_drop_caches(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->cfg->drop_caches = true;
	return 0;
}

static const struct num_spec spec_max_runs = {
	.suffixes = "",
	.min = 1,
	.max = 1000,
	.kind = "a number of runs",
	.form = "use a whole number from 1 to 1000",
};

static int opt_until_stable(struct parser *p, const char *name, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !(v > 0.0) || v > 100.0)
		return fail(p,
			    "%s: \"%s\" is not a percentage; use a number "
			    "above 0 and up to 100, e.g. 2 or 0.5",
			    name, arg);
	p->cfg->until_stable_pct = v;
	return 0;
}

static int opt_settle(struct parser *p, const char *name, const char *arg)
{
	if (clyde_cli_parse_settle(name, arg, &p->cfg->settle_ns, p->err,
				   p->errlen))
		return CLYDE_OPTS_ERROR;
	p->cfg->settle_given = true;
	return 0;
}

static int opt_max_runs(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (parse_num(p, name, &spec_max_runs, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->max_runs = (unsigned)v;
	return 0;
}

static int opt_db(struct parser *p, const char *name, const char *arg)
{
	if (check_name(p, name, arg, "file name"))
		return CLYDE_OPTS_ERROR;
	p->extra->db_path = arg;
	return 0;
}

static int opt_no_save(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->extra->no_save = true;
	return 0;
}

static int opt_verbose(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->extra->verbose = true;
	return 0;
}

static int opt_no_advice(struct parser *p, const char *name, const char *arg)
{
	(void)name;
	(void)arg;
	p->extra->no_advice = true;
	return 0;
}

static int opt_engine(struct parser *p, const char *name, const char *arg)
{
	const struct clyde_engine_ops *e = clyde_engine_find(arg);

	if (!e)
		return fail(p, "%s: \"%s\" is not an engine; use one of %s",
			    name, arg, clyde_engine_names());
	p->cfg->engine = e;
	return 0;
}

static const struct num_spec spec_iodepth = {
	.suffixes = "",
	.min = 1,
	.max = CLYDE_ENGINE_MAX_DEPTH,
	.kind = "a queue depth",
	.form = "use a whole number from 1 to 1024, e.g. 32",
};

static int opt_iodepth(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (parse_num(p, name, &spec_iodepth, arg, &v))
		return CLYDE_OPTS_ERROR;
	p->cfg->iodepth = (unsigned)v;
	return 0;
}

static const struct num_spec spec_log_interval = {
	.suffixes = "",
	.min = 0,
	.max = CLYDE_SERIES_MAX_MS,
	.kind = "an interval in milliseconds",
	.form = "use a whole number of ms from 10 to 3600000 (0: no time "
		"series), e.g. 1000",
};

static int opt_log_interval(struct parser *p, const char *name, const char *arg)
{
	uint64_t v;

	if (parse_num(p, name, &spec_log_interval, arg, &v))
		return CLYDE_OPTS_ERROR;
	if (v && v < CLYDE_SERIES_MIN_MS)
		return fail(p,
			    "%s: %s ms is too short; use a whole number of ms "
			    "from 10 to 3600000 (0: no time series)",
			    name, arg);
	p->cfg->log_interval_ns = v * 1000000u;
	return 0;
}

/* Seconds, a decimal number above 0 up to a million, into ns. */
static int opt_seconds(struct parser *p, const char *name, const char *arg,
		       uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !(v > 0.0) || v > 1e6)
		return fail(p,
			    "%s: \"%s\" is not a time; use a number of "
			    "seconds above 0 and up to 1000000, e.g. 30 or 2.5",
			    name, arg);
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

static int opt_runtime(struct parser *p, const char *name, const char *arg)
{
	return opt_seconds(p, name, arg, &p->cfg->runtime_ns);
}

static int opt_stonewall(struct parser *p, const char *name, const char *arg)
{
	return opt_seconds(p, name, arg, &p->cfg->stonewall_ns);
}

static int opt_help(struct parser *p, const char *name, const char *arg)
{
	(void)p;
	(void)name;
	(void)arg;
	return CLYDE_OPTS_HELP;
}

static int opt_version(struct parser *p, const char *name, const char *arg)
{
	(void)p;
	(void)name;
	(void)arg;
	return CLYDE_OPTS_VERSION;
}

/*
 * Every option, in the order --help shows them: bonnie++'s in the order of
 * its usage message, then clyde's own.  Help lines are kept to 54
 * characters so that --help fits 80 columns.
 */
static const struct opt_def opt_table[] = {
	{ 'd', "dir", ARG_REQUIRED, "DIR", GROUP_BONNIE,
	  "scratch directory clyde.<pid> goes in DIR (default .)", opt_dir },
	{ 's', "size", ARG_REQUIRED, "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]",
	  GROUP_BONNIE,
	  "IO tests: size in MiB (0 skips), chunk, seeks, seekers", opt_size },
	{ 'n', "files", ARG_REQUIRED, "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]",
	  GROUP_BONNIE,
	  "file tests: NUM*1024 files (0 skips) of MIN..MAX bytes", opt_files },
	{ 'm', "machine", ARG_REQUIRED, "NAME", GROUP_BONNIE,
	  "machine name in the output (default: the host name)", opt_machine },
	{ 'r', "ram", ARG_REQUIRED, "MiB", GROUP_BONNIE,
	  "RAM to assume; 0 disables the RAM checks", opt_ram },
	{ 'x', "runs", ARG_REQUIRED, "N", GROUP_BONNIE,
	  "run N times, CSV output only (header line once)", opt_runs },
	{ 'u', "user", ARG_REQUIRED, "USER[:GROUP]", GROUP_BONNIE,
	  "run the tests as USER (and GROUP)", opt_user },
	{ 'g', "group", ARG_REQUIRED, "GROUP", GROUP_BONNIE,
	  "run the tests as GROUP", opt_group },
	{ 'q', "quiet", ARG_NONE, NULL, GROUP_BONNIE,
	  "only CSV on stdout, table on stderr, no progress", opt_quiet },
	{ 'f', "fast", ARG_OPTIONAL, "MiB", GROUP_BONNIE,
	  "per-char test size (default 3); bare: skip those tests", opt_fast },
	{ 'b', "fsync", ARG_NONE, NULL, GROUP_BONNIE,
	  "fsync after each write in the seek and file tests", opt_fsync },
	{ 'D', "direct", ARG_NONE, NULL, GROUP_BONNIE,
	  "O_DIRECT on all IO tests (per-char tests skipped)", opt_direct },
	{ 'c', "concurrency", ARG_REQUIRED, "N", GROUP_BONNIE,
	  "run N copies of each test at once (1..200, default 1)",
	  opt_concurrency },
	{ 'p', "processes", ARG_REQUIRED, "N", GROUP_BONNIE,
	  "make semaphores for N processes and exit; -1 removes",
	  opt_processes },
	{ 'y', "sync", ARG_REQUIRED, "s|p", GROUP_BONNIE,
	  "wait at each test for -p processes (s) or stdin (p)", opt_sync },
	{ 'z', "seed", ARG_REQUIRED, "SEED", GROUP_BONNIE,
	  "seed of the random number generator", opt_seed },
	{ 'Z', "random-file", ARG_REQUIRED, "FILE", GROUP_BONNIE,
	  "read the random numbers from FILE instead", opt_random_file },
	{ 'l', NULL, ARG_REQUIRED, "ARG", GROUP_BONNIE,
	  "accepted and ignored, as bonnie++ 2.00a does", opt_ignored },
	{ 0, "pattern", ARG_REQUIRED, "random|zeros", GROUP_CLYDE,
	  "data written: random (default) or bonnie++'s zeros", opt_pattern },
	{ 0, "json", ARG_REQUIRED, "FILE", GROUP_CLYDE,
	  "also write the results as JSON to FILE (- = stdout)", opt_json },
	{ 0, "no-evict", ARG_NONE, NULL, GROUP_CLYDE,
	  "leave cached data in the page cache (not honest)", opt_no_evict },
	{ 0, "drop-caches", ARG_NONE, NULL, GROUP_CLYDE,
	  "root: drop all caches before the metadata tests", opt_drop_caches },
	{ 0, "settle", ARG_REQUIRED, "SECONDS", GROUP_CLYDE,
	  "before each test wait up to SECONDS (5) for idle disks",
	  opt_settle },
	{ 0, "until-stable", ARG_REQUIRED, "PCT", GROUP_CLYDE,
	  "repeat until each 95% CI is within PCT% of the mean",
	  opt_until_stable },
	{ 0, "max-runs", ARG_REQUIRED, "N", GROUP_CLYDE,
	  "at most N runs for --until-stable (default 10)", opt_max_runs },
	{ 0, "db", ARG_REQUIRED, "PATH", GROUP_CLYDE,
	  "results history database (default under XDG_DATA_HOME)", opt_db },
	{ 0, "no-save", ARG_NONE, NULL, GROUP_CLYDE,
	  "do not save this run in the results history", opt_no_save },
	{ 'v', "verbose", ARG_NONE, NULL, GROUP_CLYDE,
	  "also a table of each member disk's I/O per test", opt_verbose },
	{ 0, "no-advice", ARG_NONE, NULL, GROUP_CLYDE,
	  "no advice on the storage stack after the table", opt_no_advice },
	{ 0, "engine", ARG_REQUIRED, "psync|io_uring", GROUP_CLYDE,
	  "I/O engine of the block and seek tests (psync)", opt_engine },
	{ 0, "iodepth", ARG_REQUIRED, "N", GROUP_CLYDE,
	  "requests in flight per worker/seeker (1..1024, 1)", opt_iodepth },
	{ 0, "runtime", ARG_REQUIRED, "SECONDS", GROUP_CLYDE,
	  "IO tests by time: each runs SECONDS (round -s's file)",
	  opt_runtime },
	{ 0, "stonewall", ARG_REQUIRED, "SECONDS", GROUP_CLYDE,
	  "end every test SECONDS after it starts (IOR's -D)", opt_stonewall },
	{ 0, "log-interval", ARG_REQUIRED, "MS", GROUP_CLYDE,
	  "time series interval in the JSON (1000; 0: none)",
	  opt_log_interval },
	{ 'h', "help", ARG_NONE, NULL, GROUP_CLYDE, "print this help and exit",
	  opt_help },
	{ 'V', "version", ARG_NONE, NULL, GROUP_CLYDE,
	  "print the version and exit", opt_version },
};

#define OPT_COUNT (sizeof(opt_table) / sizeof(opt_table[0]))

static const struct opt_def *find_short(char c)
{
	size_t i;

	for (i = 0; i < OPT_COUNT; i++)
		if (opt_table[i].short_name && opt_table[i].short_name == c)
			return &opt_table[i];
	return NULL;
}

/* Exact match only: no abbreviations, so adding an option never breaks a
 * command line that used a prefix of another. */
static const struct opt_def *find_long(const char *name, size_t len)
{
	size_t i;
	const char *l;

	for (i = 0; i < OPT_COUNT; i++) {
		l = opt_table[i].long_name;
		if (l && strlen(l) == len && !strncmp(l, name, len))
			return &opt_table[i];
	}
	return NULL;
}

static int needs_arg(struct parser *p, const char *name,
		     const struct opt_def *d)
{
	return fail(p, "%s needs an argument: %s %s", name, name, d->metavar);
}

/*
 * A bare -f followed by a number is bonnie++'s classic trap (-f 8 is -f and
 * a stray "8"); say so instead of only rejecting the stray word.
 */
static int stray_error(struct parser *p, const char *word,
		       const char *after_bare_fast)
{
	if (after_bare_fast && isdigit((unsigned char)word[0]))
		return fail(p,
			    "unexpected argument \"%s\": %s takes its MiB "
			    "attached, as in -f%s or --fast=%s",
			    word, after_bare_fast, word, word);
	return fail(p,
		    "unexpected argument \"%s\"; clyde takes options only "
		    "(see clyde --help)",
		    word);
}

/* Checks that need the whole command line, in bonnie++'s order. */
static int final_checks(struct parser *p)
{
	const struct clyde_bonnie_config *cfg = p->cfg;

	/* bonnie++ rejects -p with -y: -p only creates the semaphores. */
	if (cfg->sync_procs && p->sync_mode_given)
		return fail(p,
			    "-p and -y cannot be combined: -p N only "
			    "creates the semaphores and exits; then run each "
			    "clyde with -y s");
	if (cfg->seed_given && cfg->random_file)
		return fail(p, "-z and -Z cannot be combined: use -z to seed "
			       "the generator or -Z to read the numbers from a "
			       "file");
	if (cfg->runtime_ns && cfg->stonewall_ns)
		return fail(p, "--runtime and --stonewall cannot be combined: "
			       "--runtime runs the IO tests by time, "
			       "--stonewall cuts every test at a deadline");
	if (cfg->sync_procs)
		return CLYDE_OPTS_RUN;
	if (cfg->size_given && cfg->file_size_mib == 0 && cfg->num_files == 0)
		return fail(p, "-s 0 and -n 0 leave no test to run; give a "
			       "size, a number of files, or both");
	return CLYDE_OPTS_RUN;
}

int clyde_opts_parse(int argc, char **argv, struct clyde_bonnie_config *cfg,
		     struct clyde_cli_extra *extra, char *err, size_t errlen)
{
	struct parser p = { cfg, extra, err, errlen, false };
	const char *stray = NULL, *stray_after_fast = NULL;
	const char *bare_fast = NULL; /* the last word was a bare -f/--fast */
	const struct opt_def *d;
	const char *a, *arg, *eq;
	char name[48];
	bool operands_only = false;
	int i, j, rc;

	clyde_bonnie_config_init(cfg);
	memset(extra, 0, sizeof(*extra));
	if (errlen)
		err[0] = '\0';

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (operands_only || a[0] != '-' || a[1] == '\0') {
			/* Like glibc's getopt, options may follow a stray
			 * word; report the first one once all are read. */
			if (!stray) {
				stray = a;
				stray_after_fast = bare_fast;
			}
			bare_fast = NULL;
			continue;
		}
		bare_fast = NULL;
		if (!strcmp(a, "--")) {
			operands_only = true;
			continue;
		}
		if (a[1] == '-') {
			eq = strchr(a + 2, '=');
			d = find_long(a + 2, eq ? (size_t)(eq - a - 2) :
						  strlen(a + 2));
			if (!d)
				return fail(&p,
					    "unknown option \"%s\"; see "
					    "clyde --help",
					    a);
			snprintf(name, sizeof(name), "--%s", d->long_name);
			arg = NULL;
			if (d->arg == ARG_NONE && eq)
				return fail(&p, "%s takes no argument", name);
			if (eq)
				arg = eq + 1;
			else if (d->arg == ARG_REQUIRED && i + 1 < argc)
				arg = argv[++i];
			else if (d->arg == ARG_REQUIRED)
				return needs_arg(&p, name, d);
			rc = d->apply(&p, name, arg);
			if (rc)
				return rc;
			if (d->arg == ARG_OPTIONAL && !arg)
				bare_fast = a;
			continue;
		}
		for (j = 1; a[j]; j++) {
			d = find_short(a[j]);
			if (!d)
				return fail(&p,
					    "unknown option \"-%c\"; see "
					    "clyde --help",
					    a[j]);
			snprintf(name, sizeof(name), "-%c", a[j]);
			arg = NULL;
			if (d->arg != ARG_NONE && a[j + 1])
				arg = a + j + 1;
			else if (d->arg == ARG_REQUIRED && i + 1 < argc)
				arg = argv[++i];
			else if (d->arg == ARG_REQUIRED)
				return needs_arg(&p, name, d);
			rc = d->apply(&p, name, arg);
			if (rc)
				return rc;
			if (d->arg == ARG_OPTIONAL && !arg)
				bare_fast = "-f";
			if (d->arg != ARG_NONE)
				break;
		}
	}
	if (stray)
		return stray_error(&p, stray, stray_after_fast);
	return final_checks(&p);
}

/* "-s, --size SIZE", "-f[MiB], --fast[=MiB]", "-l ARG", "    --json FILE". */
static void format_spec(const struct opt_def *d, char *buf, size_t len)
{
	const char *meta = d->metavar ? d->metavar : "";
	char s[32] = "    ", l[64] = "";

	if (d->short_name && d->arg == ARG_OPTIONAL)
		snprintf(s, sizeof(s), "-%c[%s]", d->short_name, meta);
	else if (d->short_name)
		snprintf(s, sizeof(s), "-%c", d->short_name);
	if (d->long_name && d->arg == ARG_OPTIONAL)
		snprintf(l, sizeof(l), "--%s[=%s]", d->long_name, meta);
	else if (d->long_name)
		snprintf(l, sizeof(l), "--%s", d->long_name);
	snprintf(buf, len, "%s%s%s%s%s", s,
		 d->short_name && d->long_name ? ", " : "", l,
		 d->arg == ARG_REQUIRED ? " " : "",
		 d->arg == ARG_REQUIRED ? meta : "");
}

int clyde_opts_help(FILE *f)
{
	static const char *const heading[] = {
		[GROUP_BONNIE] = "bonnie++ options:",
		[GROUP_CLYDE] = "clyde options:",
	};
	const size_t spec_width = 22;
	enum opt_group g;
	char spec[96];
	size_t i;

	fputs("Usage: clyde [run] [OPTION]...\n"
	      "Run the bonnie++ 2.00a suite (sequential output and input, "
	      "random seeks,\n"
	      "file creation, stat and deletion) with bonnie++'s options and "
	      "output, and\n"
	      "its measurement bugs fixed.\n",
	      f);
	for (g = GROUP_BONNIE; g <= GROUP_CLYDE; g++) {
		fprintf(f, "\n%s\n", heading[g]);
		for (i = 0; i < OPT_COUNT; i++) {
			if (opt_table[i].group != g)
				continue;
			format_spec(&opt_table[i], spec, sizeof(spec));
			if (strlen(spec) <= spec_width)
				fprintf(f, "  %-*s  %s\n", (int)spec_width,
					spec, opt_table[i].help);
			else
				fprintf(f, "  %s\n  %-*s  %s\n", spec,
					(int)spec_width, "", opt_table[i].help);
		}
	}
	fputs("\nSizes are a number whose last character may be a suffix, "
	      "each 1024 times\n"
	      "the one before: -s, -r and -f take MiB (m, g, t), chunks and "
	      "seeks k, -n m,\n"
	      "max and min k, m, g.  Without -s clyde sizes the file from a "
	      "short\n"
	      "calibration write (with -r: twice that RAM, at least 300m).\n"
	      "Exit status: 0 success, 1 invalid option or directory, 3 a "
	      "test failed,\n"
	      "5 interrupted.  See clyde(1).\n"
	      "\n"
	      "Other commands (each has --help):\n"
	      "  clyde tree ...               file-tree workloads: extract, "
	      "stat and read walks\n"
	      "  clyde compare RESULT...      runs side by side (clyde JSON, "
	      "bonnie++ CSV)\n"
	      "  clyde report RESULT... -o F  an HTML report with charts\n"
	      "  clyde history ...            the saved results "
	      "(list, show, compare, ...)\n"
	      "  clyde sweep FILE             an experiment: settings swept, "
	      "repeats, resume\n"
	      "  clyde stack PATH|DEVICE      the storage stack below, "
	      "--advise on it\n"
	      "  clyde dev DEVICE             raw device tests at a queue "
	      "depth, guarded\n"
	      "  clyde zcav DEVICE            zcav(8): throughput by "
	      "position\n",
	      f);
	return ferror(f) ? -EIO : 0;
}

uint64_t clyde_opts_auto_size_mib(int64_t ram_mib)
{
	if (ram_mib > 150 && (uint64_t)ram_mib <= MAX_MIB / 2)
		return (uint64_t)ram_mib * 2;
	if (ram_mib > 150)
		return MAX_MIB;
	return 300;
}

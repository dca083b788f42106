/*
 * Loading results for comparison (see loaded.h): clyde JSON files, bonnie++
 * CSV lines of every format, and runs in memory, all into one form.
 *
 * A JSON file is read whole (bounded by the JSON reader's size limit) and
 * checked member by member: a member of the wrong type is reported with
 * its line and the test it belongs to is left out, so one bad number never
 * hides the rest of the file.
 */
#include "results/loaded.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/slurp.h"
#include "results/loaded_internal.h"
#include "results/result_check.h"
#include "results/fio_read.h"
#include "results/kinds.h"
#include "results/format.h"
#include "results/stack_out.h"

/* Files bigger than this are not read (a CSV this size would be about
 * three million runs; a JSON result is refused well before). */

const char *clyde_loaded_state_name(enum clyde_loaded_state s)
{
	switch (s) {
	case CLYDE_LOADED_NOT_RUN:
		return "not run";
	case CLYDE_LOADED_SKIPPED:
		return "skipped";
	case CLYDE_LOADED_TOO_FAST:
		return "too fast";
	case CLYDE_LOADED_VALUE:
		return "value";
	}
	return "?";
}

const char *clyde_loaded_group_name(enum clyde_loaded_group g)
{
	static const char *const names[] = {
		[CLYDE_GROUP_SEQ_OUTPUT] = "Sequential output",
		[CLYDE_GROUP_SEQ_INPUT] = "Sequential input",
		[CLYDE_GROUP_SEEKS] = "Random seeks",
		[CLYDE_GROUP_SEQ_FILES] = "Sequential create",
		[CLYDE_GROUP_RAN_FILES] = "Random create",
		[CLYDE_GROUP_TREE] = "Tree walk",
		[CLYDE_GROUP_DEV] = "Device",
	};

	if ((unsigned)g < CLYDE_GROUP_COUNT)
		return names[g];
	return "?";
}

static enum clyde_loaded_group test_group(enum clyde_test t)
{
	switch (t) {
	case CLYDE_PUTC:
	case CLYDE_PUT_BLOCK:
	case CLYDE_REWRITE:
		return CLYDE_GROUP_SEQ_OUTPUT;
	case CLYDE_GETC:
	case CLYDE_GET_BLOCK:
		return CLYDE_GROUP_SEQ_INPUT;
	case CLYDE_SEEKS:
		return CLYDE_GROUP_SEEKS;
	case CLYDE_SEQ_CREATE:
	case CLYDE_SEQ_STAT:
	case CLYDE_SEQ_DEL:
		return CLYDE_GROUP_SEQ_FILES;
	default:
		return CLYDE_GROUP_RAN_FILES;
	}
}

static const char *test_unit(enum clyde_test t)
{
	if (clyde_test_is_io(t))
		return "B/s";
	return t == CLYDE_SEEKS ? "seeks/s" : "files/s";
}

/* ---- the set -------------------------------------------------------- */

void clyde_loaded_set_init(struct clyde_loaded_set *set)
{
	memset(set, 0, sizeof(*set));
}

static void run_release(struct clyde_loaded_run *r)
{
	size_t i;

	free(r->label);
	free(r->path);
	free(r->source);
	for (i = 0; i < r->nkv; i++) {
		free(r->kv[i].key);
		free(r->kv[i].value);
	}
	free(r->kv);
	for (i = 0; i < r->ntests; i++) {
		free(r->tests[i].samples);
		clyde_loaded_series_free(&r->tests[i].series);
	}
	free(r->tests);
	free(r->zcav.offset_bytes);
	free(r->zcav.mib_per_s);
	free(r->zcav.flags);
	for (i = 0; i < r->ncurves; i++) {
		free(r->curves[i].iops);
		free(r->curves[i].p99_ns);
		free(r->curves[i].reached);
	}
	free(r->curves);
	clyde_loaded_members_release(r);
	memset(r, 0, sizeof(*r));
}

void clyde_loaded_set_release(struct clyde_loaded_set *set)
{
	size_t i;

	for (i = 0; i < set->nruns; i++)
		run_release(&set->runs[i]);
	free(set->runs);
	for (i = 0; i < set->nerrors; i++)
		free(set->errors[i]);
	free(set->errors);
	memset(set, 0, sizeof(*set));
}

__attribute__((format(printf, 2, 0))) static int
add_error_v(struct clyde_loaded_set *set, const char *fmt, va_list ap)
{
	char *msg;

	set->nmalformed++;
	if (set->nerrors >= CLYDE_LOADED_MAX_ERRORS)
		return 0;
	if (set->nerrors == set->errors_cap) {
		size_t cap = set->errors_cap ? set->errors_cap * 2 : 8;
		char **ne = realloc(set->errors, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		set->errors = ne;
		set->errors_cap = cap;
	}
	if (vasprintf(&msg, fmt, ap) < 0)
		return -ENOMEM;
	set->errors[set->nerrors++] = msg;
	return 0;
}

int clyde_loaded_add_error(struct clyde_loaded_set *set, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = add_error_v(set, fmt, ap);
	va_end(ap);
	return rc;
}

const char *clyde_loaded_kv_get(const struct clyde_loaded_run *run,
				const char *key)
{
	size_t i;

	for (i = 0; i < run->nkv; i++)
		if (!strcmp(run->kv[i].key, key))
			return run->kv[i].value;
	return NULL;
}

/* Set (or replace) key = value in a run.  Returns 0 or -ENOMEM. */
static int kv_set(struct clyde_loaded_run *r, const char *key,
		  const char *value)
{
	struct clyde_loaded_kv *nkv;
	char *k, *v;
	size_t i;

	v = strdup(value);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < r->nkv; i++) {
		if (!strcmp(r->kv[i].key, key)) {
			free(r->kv[i].value);
			r->kv[i].value = v;
			return 0;
		}
	}
	k = strdup(key);
	nkv = realloc(r->kv, (r->nkv + 1) * sizeof(*nkv));
	if (!k || !nkv) {
		free(k);
		free(v);
		if (nkv)
			r->kv = nkv;
		return -ENOMEM;
	}
	r->kv = nkv;
	r->kv[r->nkv].key = k;
	r->kv[r->nkv].value = v;
	r->nkv++;
	return 0;
}

__attribute__((format(printf, 3, 4))) static int
kv_setf(struct clyde_loaded_run *r, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return kv_set(r, key, buf);
}

/* A size in bytes the way bonnie++ writes sizes: "4G", "512M", "64k",
 * "1000" (binary units, only when exact). */
static void size_text(char *buf, size_t len, uint64_t b)
{
	if (b && b % (1ull << 30) == 0)
		snprintf(buf, len, "%" PRIu64 "G", b >> 30);
	else if (b && b % (1ull << 20) == 0)
		snprintf(buf, len, "%" PRIu64 "M", b >> 20);
	else if (b && b % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "k", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

/*
 * A new run at the end of the set, zeroed, with its path, line and source
 * set and `ntests` zeroed tests.  NULL when out of memory (the set is
 * unchanged).
 */
static struct clyde_loaded_run *new_run(struct clyde_loaded_set *set,
					const char *path, unsigned long line,
					size_t ntests)
{
	struct clyde_loaded_run *r;

	if (set->nruns == set->runs_cap) {
		size_t cap = set->runs_cap ? set->runs_cap * 2 : 8;
		struct clyde_loaded_run *nr =
			realloc(set->runs, cap * sizeof(*nr));

		if (!nr)
			return NULL;
		set->runs = nr;
		set->runs_cap = cap;
	}
	r = &set->runs[set->nruns];
	memset(r, 0, sizeof(*r));
	r->path = strdup(path);
	r->line = line;
	if (asprintf(&r->source, "%s:%lu", path, line) < 0)
		r->source = NULL;
	r->label = strdup("");
	r->nrepeats = 1;
	r->tests = calloc(ntests ? ntests : 1, sizeof(*r->tests));
	r->ntests = ntests;
	if (!r->path || !r->source || !r->label || !r->tests) {
		run_release(r);
		return NULL;
	}
	set->nruns++;
	return r;
}

static void drop_last_run(struct clyde_loaded_set *set)
{
	run_release(&set->runs[--set->nruns]);
}

static void init_bonnie_tests(struct clyde_loaded_run *r)
{
	size_t i;

	r->kind = CLYDE_LOADED_BONNIE;
	for (i = 0; i < CLYDE_TEST_COUNT; i++) {
		struct clyde_loaded_test *t = &r->tests[i];

		snprintf(t->name, sizeof(t->name), "%s",
			 clyde_test_name((enum clyde_test)i));
		snprintf(t->unit, sizeof(t->unit), "%s",
			 test_unit((enum clyde_test)i));
		t->group = test_group((enum clyde_test)i);
	}
}

static int set_label(struct clyde_loaded_run *r, const char *label)
{
	char *l = strdup(label);

	if (!l)
		return -ENOMEM;
	free(r->label);
	r->label = l;
	return 0;
}

static int add_sample(struct clyde_loaded_test *t, double v)
{
	double *ns = realloc(t->samples, (t->nsamples + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	t->samples = ns;
	t->samples[t->nsamples++] = v;
	return 0;
}

/* ---- CSV ------------------------------------------------------------ */

static enum clyde_loaded_state csv_state(enum clyde_csv_cell c)
{
	if (c == CLYDE_CSV_TOO_FAST)
		return CLYDE_LOADED_TOO_FAST;
	if (c == CLYDE_CSV_VALUE)
		return CLYDE_LOADED_VALUE;
	return CLYDE_LOADED_NOT_RUN;
}

/* The configuration a CSV line records, under the keys JSON results use
 * too, so that a CSV and a JSON run can be compared key by key. */
static int csv_kv(struct clyde_loaded_run *r, const struct clyde_csv_line *l)
{
	const struct clyde_run_params *p = &l->params;
	char b[64];
	int rc = 0;

	rc |= kv_setf(r, "source format", "%s", r->format);
	if (l->writer_version[0])
		rc |= kv_setf(r, "written by", "%s %s",
			      l->writer == CLYDE_CSV_BY_BONNIE ? "bonnie++" :
								 "clyde",
			      l->writer_version);
	else
		rc |= kv_setf(r, "written by", "bonnie++ 1.03");
	if (p->concurrency)
		rc |= kv_setf(r, "concurrency", "%u", p->concurrency);
	if (p->file_size_mib) {
		size_text(b, sizeof(b), p->file_size_mib << 20);
		rc |= kv_setf(r, "file size", "%s", b);
	}
	if (p->io_chunk) {
		size_text(b, sizeof(b), p->io_chunk);
		rc |= kv_setf(r, "IO chunk", "%s", b);
	}
	if (p->seeks)
		rc |= kv_setf(r, "seeks", "%" PRIu32, p->seeks);
	if (p->seekers)
		rc |= kv_setf(r, "seekers", "%" PRIu32, p->seekers);
	if (p->num_files) {
		rc |= kv_setf(r, "files", "%" PRIu64, p->num_files);
		if (p->max_size == -1)
			rc |= kv_setf(r, "max size", "link");
		else if (p->max_size == -2)
			rc |= kv_setf(r, "max size", "symlink");
		else {
			/* 0 (empty files) too: runs that differ in it are
			 * not comparable. */
			size_text(b, sizeof(b),
				  (uint64_t)(p->max_size > 0 ? p->max_size :
							       0));
			rc |= kv_setf(r, "max size", "%s", b);
		}
		if (p->max_size >= 0) {
			size_text(b, sizeof(b),
				  (uint64_t)(p->min_size > 0 ? p->min_size :
							       0));
			rc |= kv_setf(r, "min size", "%s", b);
		}
		if (p->num_dirs)
			rc |= kv_setf(r, "directories", "%" PRIu32,
				      p->num_dirs);
		if (p->file_chunk) {
			size_text(b, sizeof(b), p->file_chunk);
			rc |= kv_setf(r, "file chunk", "%s", b);
		}
	}
	return rc ? -ENOMEM : 0;
}

int clyde_loaded_add_csv(struct clyde_ctx *ctx, const struct clyde_csv_line *l,
			 const char *name, struct clyde_loaded_set *set)
{
	struct clyde_loaded_run *r;
	size_t i;

	r = new_run(set, name, l->lineno, CLYDE_TEST_COUNT);
	if (!r)
		return clyde_err(ctx, ENOMEM, "loading %s:%lu", name,
				 l->lineno);
	init_bonnie_tests(r);
	snprintf(r->format, sizeof(r->format), "bonnie++ CSV %s",
		 clyde_csv_format_name(l->format));
	if (set_label(r, l->params.name) || csv_kv(r, l))
		goto nomem;
	for (i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_csv_test *c = &l->tests[i];
		struct clyde_loaded_test *t = &r->tests[i];

		t->state = csv_state(c->state);
		if (t->state == CLYDE_LOADED_VALUE) {
			t->has_rate = true;
			t->rate = c->rate_per_s;
			if (add_sample(t, t->rate))
				goto nomem;
		}
		if (c->cpu_state == CLYDE_CSV_VALUE) {
			t->has_cpu = true;
			t->cpu_pct = c->cpu_pct;
		}
		if (c->has_latency) {
			t->has_latency_max = true;
			t->latency_max_ns = c->latency_ns;
		}
	}
	return 0;
nomem:
	drop_last_run(set);
	return clyde_err(ctx, ENOMEM, "loading %s:%lu", name, l->lineno);
}

/* ---- clyde JSON ----------------------------------------------------- */

/* Reading one JSON document: where messages go and what they name. */
struct jload {
	struct clyde_loaded_set *set;
	const char *name;
	int rc; /* -ENOMEM once memory ran out */
};

__attribute__((format(printf, 3, 4))) static void
jbad(struct jload *jl, const struct clyde_json *at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (clyde_loaded_add_error(jl->set, "%s:%lu: %s", jl->name,
				   at ? at->line : 1ul, msg))
		jl->rc = -ENOMEM;
}

/* A number member that may be absent or null (then false, silently) but
 * must otherwise be a number (else false and a message). */
static bool jnum(struct jload *jl, const struct clyde_json *obj,
		 const char *key, const char *where, double *out)
{
	const struct clyde_json *v = clyde_json_get(obj, key);

	if (!v || v->type == CLYDE_JSON_NULL)
		return false;
	if (v->type != CLYDE_JSON_NUMBER) {
		jbad(jl, v, "%s: \"%s\" is %s, not a number", where, key,
		     clyde_json_type_name(v->type));
		return false;
	}
	if (v->num < 0) {
		jbad(jl, v, "%s: \"%s\" is negative", where, key);
		return false;
	}
	*out = v->num;
	return true;
}

static bool ju64(struct jload *jl, const struct clyde_json *obj,
		 const char *key, const char *where, uint64_t *out)
{
	const struct clyde_json *v = clyde_json_get(obj, key);

	if (!v || v->type == CLYDE_JSON_NULL)
		return false;
	if (!clyde_json_u64(v, out)) {
		jbad(jl, v, "%s: \"%s\" is not a non-negative integer", where,
		     key);
		return false;
	}
	return true;
}

/* A count or a time in ns: a non-negative number, rounded (a mean may
 * have a fraction).  Absent or null is false without a message. */
static bool jns(struct jload *jl, const struct clyde_json *obj, const char *key,
		const char *where, uint64_t *out)
{
	double d;

	if (!jnum(jl, obj, key, where, &d))
		return false;
	if (d >= 18446744073709551616.0) {
		jbad(jl, clyde_json_get(obj, key), "%s: \"%s\" is too large",
		     where, key);
		return false;
	}
	*out = (uint64_t)(d + 0.5);
	return true;
}

/* A scalar as the "what differs" table shows it; false for null, objects
 * and arrays. */
static bool scalar_text(const struct clyde_json *v, char *buf, size_t len)
{
	switch (v->type) {
	case CLYDE_JSON_TRUE:
		snprintf(buf, len, "yes");
		return true;
	case CLYDE_JSON_FALSE:
		snprintf(buf, len, "no");
		return true;
	case CLYDE_JSON_NUMBER:
		if (v->is_int)
			snprintf(buf, len, "%" PRId64, v->inum);
		else
			snprintf(buf, len, "%.6g", v->num);
		return true;
	case CLYDE_JSON_STRING:
		/* A NUL from "\u0000" ends the value here; the rest of such
		 * a string is of no use in a table. */
		snprintf(buf, len, "%s", v->str);
		return true;
	default:
		return false;
	}
}

/* Keys of the JSON envelope and the names they get in the table, in the
 * order the table shows them.  A key not listed here is shown under its
 * own name, so that no recorded setting is left out. */
struct keymap {
	const char *json;
	const char *key;
	int kind; /* 0 as is, 1 bytes as a size, 2 MiB as a size, 3 bytes
		   * rounded for a person ("23.5 GiB") */
};

static const struct keymap target_keys[] = {
	{ "fstype", "filesystem", 0 },
	{ "mount_opts", "mount options", 0 },
	{ "source", "mount source", 0 },
	{ "mount_point", "mount point", 0 },
	{ "path", "target path", 0 },
	{ "block_dev", "block device", 0 },
	{ "disk", "disk", 0 },
	{ "rotational", "rotational", 0 },
	{ "logical_block_size", "logical block size", 0 },
	{ "physical_block_size", "physical block size", 0 },
	{ "has_block_device", "has block device", 0 },
	{ "no_device_reason", "no device because", 0 },
	{ NULL, NULL, 0 },
};

static const struct keymap machine_keys[] = {
	{ "host", "host", 0 },	   { "kernel", "kernel", 0 },
	{ "cpu_model", "CPU", 0 }, { "ncpu", "CPUs", 0 },
	{ "ram_bytes", "RAM", 3 }, { NULL, NULL, 0 },
};

/* The kernel's writeback tunables (machine.vm), under their sysctl
 * names, in the order of enum clyde_vm_tunable (env/env.h). */
static const struct keymap vm_keys[] = {
	{ "dirty_ratio", "vm.dirty_ratio", 0 },
	{ "dirty_background_ratio", "vm.dirty_background_ratio", 0 },
	{ "dirty_bytes", "vm.dirty_bytes", 0 },
	{ "dirty_background_bytes", "vm.dirty_background_bytes", 0 },
	{ "dirty_expire_centisecs", "vm.dirty_expire_centisecs", 0 },
	{ "dirty_writeback_centisecs", "vm.dirty_writeback_centisecs", 0 },
	{ NULL, NULL, 0 },
};

static const struct keymap config_keys[] = {
	{ "file_size_mib", "file size", 2 },
	{ "io_chunk", "IO chunk", 1 },
	{ "concurrency", "concurrency", 0 },
	{ "seeks", "seeks", 0 },
	{ "seekers", "seekers", 0 },
	{ "num_files", "files", 0 },
	{ "max_size", "max size", 1 },
	{ "min_size", "min size", 1 },
	{ "num_dirs", "directories", 0 },
	{ "file_chunk", "file chunk", 1 },
	{ "direct", "O_DIRECT", 0 },
	{ "fsync_each", "fsync each", 0 },
	{ "pattern", "pattern", 0 },
	{ "compress_percentage", "compressible", 0 },
	{ "perchar_bytes", "putc bytes", 1 },
	{ "size_auto", "file size chosen by clyde", 0 },
	{ "evict", "evict the page cache", 0 },
	{ "drop_caches", "drop caches", 0 },
	{ "verify", "verify", 0 },
	{ "engine", "I/O engine", 0 },
	{ "iodepth", "queue depth", 0 },
	{ "iodepth_batch", "submit batch", 0 },
	/* Always different between runs: not configuration; and the run's
	 * name, which is its label. */
	{ "seed", NULL, 0 },
	{ "name", NULL, 0 },
	{ NULL, NULL, 0 },
};

static void json_kv_section(struct jload *jl, struct clyde_loaded_run *r,
			    const struct clyde_json *obj,
			    const struct keymap *map, const char *prefix)
{
	char val[512], key[320];
	size_t i;
	const struct keymap *m;

	if (!obj || obj->type == CLYDE_JSON_NULL)
		return;
	if (obj->type != CLYDE_JSON_OBJECT) {
		jbad(jl, obj, "\"%s\" is %s, not an object", prefix,
		     clyde_json_type_name(obj->type));
		return;
	}
	/* Mapped keys first, in the table's order. */
	for (m = map; m->json; m++) {
		const struct clyde_json *v = clyde_json_get(obj, m->json);
		uint64_t u;

		if (!m->key || !v || !scalar_text(v, val, sizeof(val)))
			continue;
		if (v->type == CLYDE_JSON_STRING && !v->str[0])
			continue;
		if (m->kind == 3 && clyde_json_u64(v, &u))
			clyde_fmt_human_bytes(val, sizeof(val), (double)u);
		else if (m->kind && clyde_json_u64(v, &u))
			size_text(val, sizeof(val), m->kind == 2 ? u << 20 : u);
		if (kv_set(r, m->key, val))
			jl->rc = -ENOMEM;
	}
	for (i = 0; i < obj->n; i++) {
		const struct clyde_json *v = &obj->items[i];
		bool mapped = false;

		for (m = map; m->json; m++)
			if (!strcmp(m->json, v->key))
				mapped = true;
		if (mapped || !scalar_text(v, val, sizeof(val)))
			continue;
		if (v->type == CLYDE_JSON_STRING && !v->str[0])
			continue;
		snprintf(key, sizeof(key), "%s", v->key);
		if (kv_set(r, key, val))
			jl->rc = -ENOMEM;
	}
}

/* The settings of a storage stack (clyde_stack_facts) into a run's;
 * one the envelope already set (filesystem, mount options) is kept. */
static int stack_kv(struct clyde_loaded_run *r, const struct clyde_stack *s)
{
	struct clyde_stack_fact *f = calloc(64, sizeof(*f));
	size_t n = f ? clyde_stack_facts(s, f, 64) : 0;
	int rc = f ? 0 : -ENOMEM;

	for (size_t i = 0; i < n && i < 64 && !rc; i++)
		if (!clyde_loaded_kv_get(r, f[i].key))
			rc = kv_set(r, f[i].key, f[i].value);
	free(f);
	return rc;
}

/* The "stack" object of a result (env/stack.h), read into settings.  A
 * stack that does not read is left out: it is extra information, never
 * a reason to refuse the result. */
static void json_stack_kv(struct jload *jl, struct clyde_loaded_run *r,
			  const struct clyde_json *obj)
{
	struct clyde_json_error err;
	struct clyde_stack s;

	if (!obj || obj->type != CLYDE_JSON_OBJECT)
		return;
	memset(&err, 0, sizeof(err));
	if (clyde_stack_from_json(obj, &s, &err) == 0 && stack_kv(r, &s) < 0)
		jl->rc = -ENOMEM;
	clyde_stack_free(&s);
}

static void json_latency(struct jload *jl, const struct clyde_json *lat,
			 const char *where, struct clyde_loaded_test *t)
{
	struct clyde_loaded_latency l = { 0 };
	bool ok = true;

	if (!lat || lat->type == CLYDE_JSON_NULL)
		return;
	if (lat->type != CLYDE_JSON_OBJECT) {
		jbad(jl, lat, "%s: \"latency\" is %s, not an object", where,
		     clyde_json_type_name(lat->type));
		return;
	}
	ok &= jns(jl, lat, "count", where, &l.count);
	ok &= jns(jl, lat, "min_ns", where, &l.min_ns);
	ok &= jns(jl, lat, "mean_ns", where, &l.mean_ns);
	ok &= jns(jl, lat, "p50_ns", where, &l.p50_ns);
	ok &= jns(jl, lat, "p90_ns", where, &l.p90_ns);
	ok &= jns(jl, lat, "p99_ns", where, &l.p99_ns);
	ok &= jns(jl, lat, "p999_ns", where, &l.p999_ns);
	ok &= jns(jl, lat, "max_ns", where, &l.max_ns);
	if (!ok || !l.count)
		return;
	if (!t->has_latency_max || l.max_ns > t->latency_max_ns) {
		t->has_latency_max = true;
		t->latency_max_ns = l.max_ns;
	}
	if (!t->has_latency) {
		t->has_latency = true;
		t->latency = l;
	}
}

void clyde_loaded_series_free(struct clyde_loaded_series *s)
{
	free(s->t_s);
	free(s->rate);
	free(s->p99_ns);
	free(s->dirty);
	free(s->writeback);
	memset(s, 0, sizeof(*s));
}

/* A member that is a number, or -1 when absent, null or not a number. */
static double num_or(const struct clyde_json *obj, const char *key)
{
	double v;

	return clyde_json_double(clyde_json_get(obj, key), &v) ? v : -1.0;
}

/* A test's "series" (docs/json-schema.md, "Time series"), when t has none
 * yet; the rate is bytes per second when `bytes`, else operations. */
static void json_series(struct jload *jl, const struct clyde_json *tj,
			const char *where, struct clyde_loaded_test *t,
			bool bytes)
{
	const struct clyde_json *sj = clyde_json_get(tj, "series");
	const struct clyde_json *iv = clyde_json_get(sj, "intervals");
	const struct clyde_json *st = clyde_json_get(tj, "steadiness");
	struct clyde_loaded_series *s = &t->series;
	uint64_t interval = 0;
	size_t n;

	if (s->n || !sj || sj->type == CLYDE_JSON_NULL)
		return;
	if (!ju64(jl, sj, "interval_ns", where, &interval) || !interval ||
	    !iv || iv->type != CLYDE_JSON_ARRAY) {
		jbad(jl, sj, "%s: \"series\" has no interval_ns or intervals",
		     where);
		return;
	}
	n = iv->n;
	if (!n)
		return;
	s->t_s = calloc(n, sizeof(double));
	s->rate = calloc(n, sizeof(double));
	s->p99_ns = calloc(n, sizeof(double));
	s->dirty = calloc(n, sizeof(double));
	s->writeback = calloc(n, sizeof(double));
	if (!s->t_s || !s->rate || !s->p99_ns || !s->dirty || !s->writeback) {
		clyde_loaded_series_free(s);
		jl->rc = -ENOMEM;
		return;
	}
	s->interval_s = (double)interval / 1e9;
	for (size_t i = 0; i < n; i++) {
		const struct clyde_json *p = &iv->items[i];
		double dur = num_or(p, "dur_ns"),
		       v = num_or(p, bytes ? "bytes" : "ops"),
		       t0 = num_or(p, "t_ns");

		s->t_s[i] = t0 >= 0 ? t0 / 1e9 : (double)i * s->interval_s;
		s->rate[i] = dur > 0 && v >= 0 ? v * 1e9 / dur : 0;
		s->p99_ns[i] = num_or(p, "lat_p99_ns");
		s->dirty[i] = num_or(p, "dirty_bytes");
		s->writeback[i] = num_or(p, "writeback_bytes");
	}
	s->n = n;
	if (st && st->type == CLYDE_JSON_OBJECT &&
	    clyde_json_double(clyde_json_get(st, "cv"), &s->cv) &&
	    clyde_json_double(clyde_json_get(st, "slope_rel_per_s"),
			      &s->slope_rel))
		s->has_steady = true;
}

/* What the repeats of one test added up to while reading. */
struct acc {
	size_t done, fast, skipped;
	double cpu_sum;
	size_t ncpu;
	double fast_sum;
	size_t nfast_rate;
};

/* A test or phase measured while an md array lost members: counted on
 * t (clyde JSON's "degraded_during", a string or null). */
static void json_degraded(struct jload *jl, const struct clyde_json *tj,
			  const char *where, struct clyde_loaded_test *t)
{
	const struct clyde_json *d = clyde_json_get(tj, "degraded_during");
	const char *s = clyde_json_str(d);

	if (!d || d->type == CLYDE_JSON_NULL)
		return;
	if (!s) {
		jbad(jl, d, "%s: \"degraded_during\" is not a string", where);
		return;
	}
	if (!t->ndegraded++)
		snprintf(t->degraded_note, sizeof(t->degraded_note), "%s", s);
}

/* A test whose figure a mount or export setting inflates: counted on t
 * (clyde JSON's nfs "inflated_by", a list of what does it). */
static void json_inflated(const struct clyde_json *tj,
			  struct clyde_loaded_test *t)
{
	const struct clyde_json *by =
		clyde_json_get(clyde_json_get(tj, "nfs"), "inflated_by");

	if (clyde_json_at(by, 0))
		t->ninflated++;
}

/* Is `key` of obj true? */
static bool jtrue(const struct clyde_json *obj, const char *key)
{
	const struct clyde_json *v = obj ? clyde_json_get(obj, key) : NULL;

	return v && v->type == CLYDE_JSON_TRUE;
}

/* The flags one repeat of a test or phase carries (loaded.h): served
 * from memory (a dev test's "from_memory"; a bonnie test whose data, or
 * a loop device's backing file, was in the page cache when it started,
 * or whose -D was not honoured), started on a busy device (its settle
 * object's "busy"). */
static unsigned json_flags(const struct clyde_json *tj)
{
	const struct clyde_json *c = clyde_json_get(tj, "cache");
	unsigned f = 0;

	if (jtrue(tj, "from_memory") || jtrue(c, "warning") ||
	    jtrue(clyde_json_get(c, "loop_backing"), "warning") ||
	    (jtrue(c, "direct_checked") && !jtrue(c, "direct_honoured") &&
	     clyde_json_get(c, "direct_honoured")))
		f |= CLYDE_LOADED_FLAG_MEMORY;
	if (jtrue(clyde_json_get(tj, "settle"), "busy"))
		f |= CLYDE_LOADED_FLAG_BUSY;
	return f;
}

/* One test object of one run. */
static void json_test(struct jload *jl, const struct clyde_json *tj,
		      const char *where, struct clyde_loaded_test *t,
		      struct acc *a)
{
	const struct clyde_json *st = clyde_json_get(tj, "state");
	const char *s = clyde_json_str(st);
	bool too_fast = false;
	double rate, cpu;

	if (!s) {
		jbad(jl, st ? st : tj, "%s: no \"state\" string", where);
		return;
	}
	if (!strcmp(s, "skipped")) {
		const char *note = clyde_json_str(clyde_json_get(tj, "note"));

		a->skipped++;
		if (note && !t->note[0])
			snprintf(t->note, sizeof(t->note), "%s", note);
		return;
	}
	if (!strcmp(s, "not_run"))
		return;
	if (strcmp(s, "done")) {
		jbad(jl, st, "%s: unknown state \"%.40s\"", where, s);
		return;
	}
	{
		const struct clyde_json *tf = clyde_json_get(tj, "too_fast");

		if (tf && tf->type != CLYDE_JSON_NULL &&
		    !clyde_json_bool(tf, &too_fast))
			jbad(jl, tf, "%s: \"too_fast\" is not a boolean",
			     where);
	}
	{
		const struct clyde_json *rv = clyde_json_get(tj, "rate_per_s");

		if (!rv || rv->type == CLYDE_JSON_NULL) {
			/* Done but no rate (null for a test timed at 0 ns):
			 * the honest reading is "too fast to measure". */
			a->fast++;
			return;
		}
		/* A rate of the wrong type or sign is reported by jnum()
		 * and the test left out of this repeat. */
		if (!jnum(jl, tj, "rate_per_s", where, &rate))
			return;
	}
	if (jnum(jl, tj, "cpu_pct", where, &cpu)) {
		a->cpu_sum += cpu;
		a->ncpu++;
	}
	json_latency(jl, clyde_json_get(tj, "latency"), where, t);
	json_series(jl, tj, where, t, !strcmp(t->unit, "B/s"));
	json_degraded(jl, tj, where, t);
	json_inflated(tj, t);
	t->flags |= json_flags(tj);
	if (too_fast) {
		a->fast++;
		a->fast_sum += rate;
		a->nfast_rate++;
	} else {
		a->done++;
	}
	if (add_sample(t, rate))
		jl->rc = -ENOMEM;
}

/* Turn the counts over the repeats into the test's state and value. */
static void finish_test(struct clyde_loaded_test *t, const struct acc *a)
{
	if (a->done) {
		t->state = CLYDE_LOADED_VALUE;
	} else if (a->fast) {
		t->state = CLYDE_LOADED_TOO_FAST;
	} else if (a->skipped) {
		t->state = CLYDE_LOADED_SKIPPED;
	} else {
		t->state = CLYDE_LOADED_NOT_RUN;
	}
	if (t->nsamples) {
		double sum = 0;
		size_t i;

		for (i = 0; i < t->nsamples; i++)
			sum += t->samples[i];
		t->has_rate = true;
		t->rate = sum / (double)t->nsamples;
	}
	if (a->ncpu) {
		t->has_cpu = true;
		t->cpu_pct = a->cpu_sum / (double)a->ncpu;
	}
	if (t->ndegraded)
		t->flags |= CLYDE_LOADED_FLAG_DEGRADED;
}

/* A bonnie run made with --no-evict and without -D: its tests that read
 * back were served by whatever the page cache held (NOCACHE). */
static void flag_uncontrolled(struct clyde_loaded_run *r)
{
	const char *ev = clyde_loaded_kv_get(r, "evict the page cache");
	const char *dio = clyde_loaded_kv_get(r, "O_DIRECT");

	if (!ev || strcmp(ev, "no") || (dio && strcmp(dio, "no")))
		return;
	for (size_t k = 0; k < r->ntests && k < CLYDE_TEST_COUNT; k++)
		if (clyde_test_reads_back((enum clyde_test)k) &&
		    r->tests[k].state != CLYDE_LOADED_NOT_RUN &&
		    r->tests[k].state != CLYDE_LOADED_SKIPPED)
			r->tests[k].flags |= CLYDE_LOADED_FLAG_NOCACHE;
}

static void json_bonnie_runs(struct jload *jl, struct clyde_loaded_run *r,
			     const struct clyde_json *runs)
{
	struct acc acc[CLYDE_TEST_COUNT];
	char where[96];
	size_t i, j, k, nrep = 0;

	memset(acc, 0, sizeof(acc));
	for (i = 0; i < runs->n; i++) {
		const struct clyde_json *run = &runs->items[i];
		const struct clyde_json *tests = clyde_json_get(run, "tests");

		if (!tests || tests->type != CLYDE_JSON_ARRAY) {
			jbad(jl, tests ? tests : run,
			     "runs[%zu]: no \"tests\" array", i);
			continue;
		}
		nrep++;
		for (j = 0; j < tests->n; j++) {
			const struct clyde_json *tj = &tests->items[j];
			const char *name =
				clyde_json_str(clyde_json_get(tj, "name"));

			snprintf(where, sizeof(where), "runs[%zu].tests[%zu]",
				 i, j);
			if (!name) {
				jbad(jl, tj, "%s: no \"name\" string", where);
				continue;
			}
			for (k = 0; k < CLYDE_TEST_COUNT; k++)
				if (!strcmp(name, r->tests[k].name))
					break;
			if (k == CLYDE_TEST_COUNT) {
				jbad(jl, tj, "%s: unknown test \"%.40s\"",
				     where, name);
				continue;
			}
			json_test(jl, tj, where, &r->tests[k], &acc[k]);
		}
	}
	for (k = 0; k < CLYDE_TEST_COUNT; k++)
		finish_test(&r->tests[k], &acc[k]);
	flag_uncontrolled(r);
	r->nrepeats = nrep ? nrep : 1;
}

/* The row named `name` of r, added (zeroed, with its unit and group)
 * when it is new; *acc grows along.  The index, or -1 when out of
 * memory. */
static long row_index(struct clyde_loaded_run *r, struct acc **acc,
		      const char *name, const char *unit,
		      enum clyde_loaded_group group)
{
	struct clyde_loaded_test *nt;
	struct acc *na;
	size_t k;

	for (k = 0; k < r->ntests; k++)
		if (!strcmp(name, r->tests[k].name))
			return (long)k;
	nt = realloc(r->tests, (k + 1) * sizeof(*r->tests));
	if (nt)
		r->tests = nt;
	na = realloc(*acc, (k + 1) * sizeof(**acc));
	if (na)
		*acc = na;
	if (!nt || !na)
		return -1;
	memset(&r->tests[k], 0, sizeof(r->tests[k]));
	memset(&(*acc)[k], 0, sizeof((*acc)[k]));
	snprintf(r->tests[k].name, sizeof(r->tests[k].name), "%s", name);
	snprintf(r->tests[k].unit, sizeof(r->tests[k].unit), "%s", unit);
	r->tests[k].group = group;
	r->ntests++;
	return (long)k;
}

/*
 * A dev test's --latency-target (clyde dev --latency-target p99=5ms): a
 * row "NAME rate at p99 5 ms" (IO/s, higher is better) with the highest
 * rate that kept the target; a target no rate met is "skipped" with the
 * note "not met at any rate tried".
 */
static void json_target_row(struct jload *jl, struct clyde_loaded_run *r,
			    struct acc **acc, const struct clyde_json *pj,
			    const char *name, const char *where)
{
	const struct clyde_json *lt = clyde_json_get(pj, "latency_target");
	const char *tn = clyde_json_str(clyde_json_get(lt, "name"));
	char row[sizeof(r->tests[0].name)];
	double iops;
	long k;

	if (!lt || lt->type != CLYDE_JSON_OBJECT || !tn)
		return;
	snprintf(row, sizeof(row), "%s rate at %s", name, tn);
	k = row_index(r, acc, row, "IO/s", CLYDE_GROUP_DEV);
	if (k < 0) {
		jl->rc = -ENOMEM;
		return;
	}
	r->tests[k].flags |= json_flags(pj);
	if (!jnum(jl, lt, "iops", where, &iops)) {
		(*acc)[k].skipped++;
		snprintf(r->tests[k].note, sizeof(r->tests[k].note),
			 "not met at any rate tried");
		return;
	}
	(*acc)[k].done++;
	if (add_sample(&r->tests[k], iops))
		jl->rc = -ENOMEM;
}

/* Tree and dev results: one row per phase or test, in the order first
 * seen; a dev test also has a row "NAME IOPS" (IO/s, its "iops"), as a
 * fio job has (loaded_fio.c), so that the two share their rows. */
static void json_row_runs(struct jload *jl, struct clyde_loaded_run *r,
			  const struct clyde_json *runs,
			  const struct clyde_result_rows *rk)
{
	struct acc *acc = NULL;
	char where[96];
	size_t i, j, nrep = 0;

	for (i = 0; i < runs->n && !jl->rc; i++) {
		const struct clyde_json *phases =
			clyde_json_get(&runs->items[i], rk->array);

		if (!phases || phases->type != CLYDE_JSON_ARRAY) {
			jbad(jl, phases ? phases : &runs->items[i],
			     "runs[%zu]: no \"%s\" array", i, rk->array);
			continue;
		}
		nrep++;
		for (j = 0; j < phases->n; j++) {
			const struct clyde_json *pj = &phases->items[j];
			const char *name =
				clyde_json_str(clyde_json_get(pj, "name"));
			uint64_t el = 0, us = 0, sy = 0;
			double rate, iops;
			char iname[48];
			long k, ki;

			snprintf(where, sizeof(where), "runs[%zu].%s[%zu]", i,
				 rk->array, j);
			if (!name || !name[0]) {
				jbad(jl, pj, "%s: no \"name\" string", where);
				continue;
			}
			k = row_index(r, &acc, name, rk->unit, rk->group);
			if (k < 0) {
				jl->rc = -ENOMEM;
				break;
			}
			json_latency(jl, clyde_json_get(pj, "latency"), where,
				     &r->tests[k]);
			json_series(jl, pj, where, &r->tests[k],
				    !strcmp(r->tests[k].unit, "B/s"));
			if (!jnum(jl, pj, rk->rate, where, &rate)) {
				/* null (nothing timed): too fast to say. */
				acc[k].fast++;
				continue;
			}
			json_degraded(jl, pj, where, &r->tests[k]);
			r->tests[k].flags |= json_flags(pj);
			ju64(jl, pj, "elapsed_ns", where, &el);
			ju64(jl, pj, "cpu_user_ns", where, &us);
			ju64(jl, pj, "cpu_sys_ns", where, &sy);
			if (el) {
				acc[k].cpu_sum +=
					(double)(us + sy) / (double)el * 100.0;
				acc[k].ncpu++;
			}
			acc[k].done++;
			if (add_sample(&r->tests[k], rate))
				jl->rc = -ENOMEM;
			if (rk->load)
				json_target_row(jl, r, &acc, pj, name, where);
			if (!rk->iops || !jnum(jl, pj, "iops", where, &iops))
				continue;
			snprintf(iname, sizeof(iname), "%s IOPS", name);
			ki = row_index(r, &acc, iname, "IO/s", rk->group);
			if (ki < 0) {
				jl->rc = -ENOMEM;
				break;
			}
			json_degraded(jl, pj, where, &r->tests[ki]);
			r->tests[ki].flags |= json_flags(pj);
			if (el) {
				acc[ki].cpu_sum +=
					(double)(us + sy) / (double)el * 100.0;
				acc[ki].ncpu++;
			}
			acc[ki].done++;
			if (add_sample(&r->tests[ki], iops))
				jl->rc = -ENOMEM;
		}
	}
	for (i = 0; i < r->ntests; i++)
		finish_test(&r->tests[i], &acc[i]);
	free(acc);
	r->nrepeats = nrep ? nrep : 1;
}

/* The zcav curve of a dev run's first repeat, when it has one. */
static void json_zcav(struct jload *jl, struct clyde_loaded_run *r,
		      const struct clyde_json *z)
{
	const struct clyde_json *pts = clyde_json_get(z, "points");
	struct clyde_loaded_zcav *c = &r->zcav;

	if (!pts || pts->type != CLYDE_JSON_ARRAY || !pts->n)
		return;
	c->offset_bytes = calloc(pts->n, sizeof(*c->offset_bytes));
	c->mib_per_s = calloc(pts->n, sizeof(*c->mib_per_s));
	c->flags = calloc(pts->n, sizeof(*c->flags));
	if (!c->offset_bytes || !c->mib_per_s || !c->flags) {
		jl->rc = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < pts->n; i++) {
		const struct clyde_json *p = &pts->items[i];
		const struct clyde_json *imp = clyde_json_get(p, "imprecise");
		char where[64];
		uint64_t off, ns, holes = 0;
		double mib;

		snprintf(where, sizeof(where), "zcav.points[%zu]", i);
		if (!ju64(jl, p, "offset_bytes", where, &off) ||
		    !jnum(jl, p, "mib_per_s", where, &mib))
			continue;
		c->flags[c->n] = 0;
		if (imp ? imp->type == CLYDE_JSON_TRUE :
			  jns(jl, p, "elapsed_ns", where, &ns) &&
				    ns < 500000000ull)
			c->flags[c->n] |= CLYDE_LOADED_ZCAV_IMPRECISE;
		if (ju64(jl, p, "hole_bytes", where, &holes) && holes)
			c->flags[c->n] |= CLYDE_LOADED_ZCAV_HOLES;
		c->offset_bytes[c->n] = (double)off;
		c->mib_per_s[c->n++] = mib;
	}
}

/* The --curve of each dev test of the first repeat that has one. */
static void json_curves(struct jload *jl, struct clyde_loaded_run *r,
			const struct clyde_json *tests)
{
	if (!tests || tests->type != CLYDE_JSON_ARRAY)
		return;
	r->curves = calloc(tests->n ? tests->n : 1, sizeof(*r->curves));
	if (!r->curves) {
		jl->rc = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < tests->n; i++) {
		const struct clyde_json *t = &tests->items[i];
		const struct clyde_json *pts = clyde_json_get(t, "curve");
		const char *name = clyde_json_str(clyde_json_get(t, "name"));
		struct clyde_loaded_curve *c = &r->curves[r->ncurves];

		if (!name || !pts || pts->type != CLYDE_JSON_ARRAY || !pts->n)
			continue;
		snprintf(c->test, sizeof(c->test), "%s", name);
		c->iops = calloc(pts->n, sizeof(*c->iops));
		c->p99_ns = calloc(pts->n, sizeof(*c->p99_ns));
		c->reached = calloc(pts->n, sizeof(*c->reached));
		r->ncurves++;
		if (!c->iops || !c->p99_ns || !c->reached) {
			jl->rc = -ENOMEM;
			return;
		}
		for (size_t j = 0; j < pts->n; j++) {
			const struct clyde_json *p = &pts->items[j];
			char where[96];

			snprintf(where, sizeof(where), "tests[%zu].curve[%zu]",
				 i, j);
			if (!jnum(jl, p, "iops", where, &c->iops[c->n]) ||
			    !jnum(jl, p, "p99_ns", where, &c->p99_ns[c->n]))
				continue;
			c->reached[c->n++] =
				clyde_json_get(p, "reached") &&
				clyde_json_get(p, "reached")->type ==
					CLYDE_JSON_TRUE;
		}
	}
}

/* The "kind" values of a clyde JSON result, for a message:
 * "\"bonnie\", \"tree\" or \"dev\"" in buf. */
static const char *json_kind_names(char *buf, size_t len)
{
	const struct clyde_result_kind *k;
	size_t n = 0, at = 0, o = 0;

	for (size_t i = 0; (k = clyde_result_kind_at(i)); i++)
		n += k->clyde_json;
	buf[0] = '\0';
	for (size_t i = 0; (k = clyde_result_kind_at(i)) && o < len; i++) {
		if (!k->clyde_json)
			continue;
		at++;
		o += (size_t)snprintf(buf + o, len - o, "%s\"%s\"",
				      at == 1 ? "" :
				      at == n ? " or " :
						", ",
				      k->name);
	}
	return buf;
}

int clyde_loaded_add_json(struct clyde_ctx *ctx, const struct clyde_json *root,
			  const char *name, struct clyde_loaded_set *set)
{
	struct jload jl = { set, name, 0 };
	struct clyde_json_error err;
	struct clyde_loaded_run *r;
	const struct clyde_json *runs, *v;
	const char *kind, *s;
	const struct clyde_result_kind *rk;
	const struct clyde_result_rows *rows;

	if (clyde_json_result_check(root, &err)) {
		if (clyde_loaded_add_error(set, "%s:%lu: %s", name,
					   err.line ? err.line : 1, err.why))
			return clyde_err(ctx, ENOMEM, "loading %s", name);
		return 0;
	}
	runs = clyde_json_get(root, "runs");
	v = clyde_json_get(root, "kind");
	kind = v ? clyde_json_str(v) : "bonnie";
	rk = clyde_result_kind_find(kind);
	if (!rk || !rk->clyde_json) {
		char names[160];

		jbad(&jl, v, "unknown kind %s%.40s%s (not %s)",
		     kind ? "\"" : "", kind ? kind : "(not a string)",
		     kind ? "\"" : "", json_kind_names(names, sizeof(names)));
		goto out;
	}
	rows = rk->rows;
	if (!runs->n) {
		jbad(&jl, runs, "\"runs\" is empty: nothing to compare");
		goto out;
	}
	r = new_run(set, name, 1, rows ? 0 : CLYDE_TEST_COUNT);
	if (!r)
		return clyde_err(ctx, ENOMEM, "loading %s", name);
	r->kind = rk->loaded;
	if (!rows)
		init_bonnie_tests(r);
	snprintf(r->format, sizeof(r->format), "clyde JSON v%lld",
		 (long long)clyde_json_get(root, "schema_version")->inum);
	s = clyde_json_str(clyde_json_get(root, "label"));
	if (s && set_label(r, s))
		jl.rc = -ENOMEM;
	ju64(&jl, root, "started_unix", "envelope", &r->started_unix);
	if (kv_set(r, "source format", r->format))
		jl.rc = -ENOMEM;
	s = clyde_json_str(clyde_json_get(root, "clyde_version"));
	if (s && kv_setf(r, "written by", "clyde %s", s))
		jl.rc = -ENOMEM;
	json_kv_section(&jl, r, clyde_json_get(root, "target"), target_keys,
			"target");
	json_kv_section(&jl, r, clyde_json_get(root, "machine"), machine_keys,
			"machine");
	json_kv_section(&jl, r,
			clyde_json_get(clyde_json_get(root, "machine"), "vm"),
			vm_keys, "machine.vm");
	json_kv_section(&jl, r, clyde_json_get(root, "config"), config_keys,
			"config");
	/* A bonnie result from before --engine ran psync at depth 1
	 * (docs/json-schema.md): say so, so that it is not compared with an
	 * io_uring run as if they ran alike. */
	if (!rows && clyde_json_get(root, "config") &&
	    !clyde_loaded_kv_get(r, "I/O engine") &&
	    (kv_set(r, "I/O engine", "psync") || kv_set(r, "queue depth", "1")))
		jl.rc = -ENOMEM;
	json_stack_kv(&jl, r, clyde_json_get(root, "stack"));
	if (rows)
		json_row_runs(&jl, r, runs, rows);
	else
		json_bonnie_runs(&jl, r, runs);
	if (rows && rows->zcav)
		json_zcav(&jl, r, clyde_json_get(&runs->items[0], "zcav"));
	if (rows && rows->load)
		json_curves(&jl, r, clyde_json_get(&runs->items[0], "tests"));
	if ((!rows || rows->members) &&
	    clyde_loaded_json_members(r, runs, rows ? rows->array : "tests"))
		jl.rc = -ENOMEM;
	if (jl.rc) {
		drop_last_run(set);
		return clyde_err(ctx, ENOMEM, "loading %s", name);
	}
out:
	if (jl.rc)
		return clyde_err(ctx, ENOMEM, "loading %s", name);
	return 0;
}

/* ---- a run in memory ------------------------------------------------ */

int clyde_loaded_add_run(struct clyde_ctx *ctx, const struct clyde_run *run,
			 const char *name, struct clyde_loaded_set *set)
{
	const struct clyde_run_params *p = &run->params;
	const struct clyde_target *tg = &run->env.target;
	const struct clyde_machine *m = &run->env.machine;
	struct clyde_loaded_run *r;
	char b[64];
	int rc = 0;
	size_t i;

	r = new_run(set, name, 1, CLYDE_TEST_COUNT);
	if (!r)
		return clyde_err(ctx, ENOMEM, "loading %s", name);
	init_bonnie_tests(r);
	snprintf(r->format, sizeof(r->format), "clyde run");
	r->started_unix = run->started_unix;
	rc |= set_label(r, p->name);
	rc |= kv_set(r, "source format", r->format);
	if (tg->fstype[0])
		rc |= kv_set(r, "filesystem", tg->fstype);
	if (tg->mount_opts[0])
		rc |= kv_set(r, "mount options", tg->mount_opts);
	if (tg->source[0])
		rc |= kv_set(r, "mount source", tg->source);
	if (tg->mount_point[0])
		rc |= kv_set(r, "mount point", tg->mount_point);
	if (tg->path[0])
		rc |= kv_set(r, "target path", tg->path);
	if (tg->block_dev[0])
		rc |= kv_set(r, "block device", tg->block_dev);
	if (tg->disk[0])
		rc |= kv_set(r, "disk", tg->disk);
	if (tg->has_block_device)
		rc |= kv_set(r, "rotational", tg->rotational ? "yes" : "no");
	if (m->host[0])
		rc |= kv_set(r, "host", m->host);
	if (m->kernel[0])
		rc |= kv_set(r, "kernel", m->kernel);
	if (m->cpu_model[0])
		rc |= kv_set(r, "CPU", m->cpu_model);
	if (m->ncpu)
		rc |= kv_setf(r, "CPUs", "%u", m->ncpu);
	if (m->ram_bytes) {
		size_text(b, sizeof(b), m->ram_bytes);
		rc |= kv_set(r, "RAM", b);
	}
	for (i = 0; i < CLYDE_VM_COUNT; i++)
		if (m->vm[i] >= 0)
			rc |= kv_setf(r, vm_keys[i].key, "%" PRId64, m->vm[i]);
	if (p->file_size_mib) {
		size_text(b, sizeof(b), p->file_size_mib << 20);
		rc |= kv_set(r, "file size", b);
	}
	size_text(b, sizeof(b), p->io_chunk);
	rc |= kv_set(r, "IO chunk", b);
	rc |= kv_setf(r, "concurrency", "%u", p->concurrency);
	rc |= kv_setf(r, "seeks", "%" PRIu32, p->seeks);
	rc |= kv_setf(r, "seekers", "%" PRIu32, p->seekers);
	if (p->num_files) {
		rc |= kv_setf(r, "files", "%" PRIu64, p->num_files);
		rc |= kv_setf(r, "max size", "%" PRId64, p->max_size);
		rc |= kv_setf(r, "min size", "%" PRId64, p->min_size);
		rc |= kv_setf(r, "directories", "%" PRIu32, p->num_dirs);
		size_text(b, sizeof(b), p->file_chunk);
		rc |= kv_set(r, "file chunk", b);
	}
	rc |= kv_set(r, "O_DIRECT", p->direct ? "yes" : "no");
	rc |= kv_set(r, "fsync each", p->fsync_each ? "yes" : "no");
	if (p->pattern[0])
		rc |= kv_set(r, "pattern", p->pattern);
	if (p->compress_pct)
		rc |= kv_setf(r, "compressible", "%u", p->compress_pct);
	if (p->engine[0]) {
		/* The names the JSON loader gives them (config_keys). */
		rc |= kv_set(r, "I/O engine", p->engine);
		rc |= kv_setf(r, "queue depth", "%u", p->iodepth);
		rc |= kv_setf(r, "submit batch", "%u", p->iodepth_batch);
	}
	for (i = 0; i < CLYDE_TEST_COUNT && !rc; i++) {
		const struct clyde_test_result *tr = &run->tests[i];
		struct clyde_loaded_test *t = &r->tests[i];

		if (tr->state == CLYDE_SKIPPED) {
			t->state = CLYDE_LOADED_SKIPPED;
			if (tr->note)
				snprintf(t->note, sizeof(t->note), "%s",
					 tr->note);
			continue;
		}
		if (tr->state != CLYDE_DONE)
			continue;
		if (!tr->elapsed_ns) {
			t->state = CLYDE_LOADED_TOO_FAST;
			continue;
		}
		t->state = tr->elapsed_ns < CLYDE_TOO_FAST_NS ?
				   CLYDE_LOADED_TOO_FAST :
				   CLYDE_LOADED_VALUE;
		t->has_rate = true;
		t->rate = clyde_test_rate(tr, (enum clyde_test)i);
		rc |= add_sample(t, t->rate);
		t->has_cpu = true;
		t->cpu_pct = clyde_test_cpu_pct(tr);
		t->has_latency_max = true;
		t->latency_max_ns = tr->latency_max_ns;
		if (tr->latency && clyde_hist_count(tr->latency)) {
			const struct clyde_hist *h = tr->latency;

			t->has_latency = true;
			t->latency.count = clyde_hist_count(h);
			t->latency.min_ns = clyde_hist_min(h);
			t->latency.mean_ns = (uint64_t)clyde_hist_mean(h);
			t->latency.p50_ns = clyde_hist_quantile(h, 0.50);
			t->latency.p90_ns = clyde_hist_quantile(h, 0.90);
			t->latency.p99_ns = clyde_hist_quantile(h, 0.99);
			t->latency.p999_ns = clyde_hist_quantile(h, 0.999);
			t->latency.max_ns = clyde_hist_max(h);
		}
	}
	if (stack_kv(r, &run->env.stack) < 0)
		rc = -ENOMEM;
	if (rc) {
		drop_last_run(set);
		return clyde_err(ctx, ENOMEM, "loading %s", name);
	}
	return 0;
}

/* ---- files ---------------------------------------------------------- */

static int read_csv_buffer(struct clyde_ctx *ctx, const char *data, size_t len,
			   const char *name, struct clyde_loaded_set *set)
{
	struct clyde_csv_set cs;
	size_t i, skipped;
	FILE *f;
	int rc;

	clyde_csv_set_init(&cs);
	/* fmemopen() refuses a zero-sized buffer in some C libraries. */
	f = fmemopen((void *)(len ? data : " "), len ? len : 1, "r");
	if (!f)
		return clyde_err(ctx, errno, "reading %s", name);
	rc = clyde_csv_read_stream(ctx, f, name, &cs);
	fclose(f);
	for (i = 0; i < cs.nlines && !rc; i++)
		rc = clyde_loaded_add_csv(ctx, &cs.lines[i], name, set);
	for (i = 0; i < cs.nerrors && !rc; i++)
		if (clyde_loaded_add_error(set, "%s", cs.errors[i]))
			rc = clyde_err(ctx, ENOMEM, "reading %s", name);
	/* Lines the CSV reader counted but kept no message for. */
	skipped = cs.nmalformed > cs.nerrors ? cs.nmalformed - cs.nerrors : 0;
	set->nmalformed += skipped;
	clyde_csv_set_release(&cs);
	return rc;
}

int clyde_loaded_read_buffer(struct clyde_ctx *ctx, const char *data,
			     size_t len, const char *name,
			     struct clyde_loaded_set *set)
{
	size_t i = 0, before = set->nruns, errs = set->nmalformed, fio_off = 0;
	int rc;

	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (data[i] == ' ' || data[i] == '\t' ||
			   data[i] == '\r' || data[i] == '\n'))
		i++;
	switch (clyde_fio_sniff(data, len, &fio_off)) {
	case CLYDE_FIO_JSON:
		rc = clyde_loaded_add_fio(ctx, data, len, fio_off, name, set);
		goto done;
	case CLYDE_FIO_TEXT:
		if (clyde_loaded_add_error(
			    set,
			    "%s: fio's normal (text) output, which clyde does "
			    "not read: run fio with --output-format=json (or "
			    "json+)",
			    name))
			return clyde_err(ctx, ENOMEM, "reading %s", name);
		return 0;
	case CLYDE_FIO_NOT:
		break;
	}
	if (i < len && data[i] == '{') {
		struct clyde_json root;
		struct clyde_json_error err;

		rc = clyde_json_parse(data, len, NULL, &root, &err);
		if (rc == -ENOMEM)
			return clyde_err(ctx, ENOMEM, "reading %s", name);
		if (rc) {
			if (clyde_loaded_add_error(set, "%s:%lu: %s", name,
						   err.line ? err.line : 1,
						   err.why))
				return clyde_err(ctx, ENOMEM, "reading %s",
						 name);
			return 0;
		}
		rc = clyde_loaded_add_json(ctx, &root, name, set);
		clyde_json_free(&root);
	} else {
		rc = read_csv_buffer(ctx, data, len, name, set);
	}
done:
	if (!rc && set->nruns == before && set->nmalformed == errs &&
	    clyde_loaded_add_error(set, "%s: no results in the file%s", name,
				   len ? "" : " (it is empty)"))
		rc = clyde_err(ctx, ENOMEM, "reading %s", name);
	return rc;
}

int clyde_loaded_read_file(struct clyde_ctx *ctx, const char *path,
			   struct clyde_loaded_set *set)
{
	bool is_stdin = !strcmp(path, "-");
	size_t n = 0;
	char *buf = NULL;
	struct stat st;
	FILE *f;
	int rc;

	f = is_stdin ? stdin : fopen(path, "rb");
	if (!f)
		return clyde_err(ctx, errno, "cannot open %s", path);
	/* Refuse a file too big to be a result before reading any of it;
	 * a pipe has no size and is stopped by the same bound below. */
	if (fstat(fileno(f), &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			rc = clyde_err(ctx, EISDIR, "cannot read %s", path);
			goto out;
		}
		if (S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_size > CLYDE_LOADED_MAX_FILE) {
			clyde_err(ctx, 0,
				  "%s: %llu MiB, larger than the %u MiB a "
				  "result file may be; not read",
				  path, (unsigned long long)(st.st_size >> 20),
				  CLYDE_LOADED_MAX_FILE >> 20);
			rc = -EFBIG;
			goto out;
		}
	}
	rc = clyde_slurp_stream(f, CLYDE_LOADED_MAX_FILE, &buf, &n);
	if (rc == -EFBIG) {
		rc = clyde_err(ctx, EFBIG, "%s is larger than %u MiB", path,
			       CLYDE_LOADED_MAX_FILE >> 20);
		goto out;
	}
	if (rc == -ENOMEM) {
		rc = clyde_err(ctx, ENOMEM, "reading %s", path);
		goto out;
	}
	if (rc < 0) { /* EISDIR is the usual case */
		rc = clyde_err(ctx, -rc, "cannot read %s", path);
		goto out;
	}
	rc = clyde_loaded_read_buffer(ctx, buf ? buf : "", n,
				      is_stdin ? "-" : path, set);
out:
	if (!is_stdin)
		fclose(f);
	free(buf);
	return rc;
}

/* ---- for the other loaders (loaded_internal.h) ---------------------- */

struct clyde_loaded_run *clyde_loaded_new_run(struct clyde_loaded_set *set,
					      const char *path,
					      unsigned long line, size_t ntests)
{
	return new_run(set, path, line, ntests);
}

void clyde_loaded_drop_last(struct clyde_loaded_set *set)
{
	drop_last_run(set);
}

int clyde_loaded_kv_set(struct clyde_loaded_run *r, const char *key,
			const char *value)
{
	return kv_set(r, key, value);
}

int clyde_loaded_set_label(struct clyde_loaded_run *r, const char *label)
{
	return set_label(r, label);
}

int clyde_loaded_add_sample(struct clyde_loaded_test *t, double v)
{
	return add_sample(t, v);
}

/* ---- repeats in CSV files ------------------------------------------- */

static bool same_config(const struct clyde_loaded_run *a,
			const struct clyde_loaded_run *b)
{
	size_t i;

	if (a->kind != b->kind || a->ntests != b->ntests ||
	    strcmp(a->label, b->label) || strcmp(a->path, b->path) ||
	    a->nkv != b->nkv || strncmp(a->format, "bonnie++ CSV", 12) ||
	    strcmp(a->format, b->format))
		return false;
	for (i = 0; i < a->nkv; i++)
		if (strcmp(a->kv[i].key, b->kv[i].key) ||
		    strcmp(a->kv[i].value, b->kv[i].value))
			return false;
	return true;
}

/* Fold run b into run a (both CSV: one sample per test). */
static int fold(struct clyde_loaded_run *a, const struct clyde_loaded_run *b)
{
	size_t i;

	for (i = 0; i < a->ntests; i++) {
		struct clyde_loaded_test *ta = &a->tests[i];
		const struct clyde_loaded_test *tb = &b->tests[i];
		/* Counts before folding, for the running means. */
		double n = (double)ta->nsamples;

		if (tb->has_rate) {
			if (add_sample(ta, tb->rate))
				return -ENOMEM;
			ta->rate = ta->has_rate ?
					   (ta->rate * n + tb->rate) / (n + 1) :
					   tb->rate;
			ta->has_rate = true;
		}
		if (tb->state > ta->state)
			ta->state = tb->state;
		if (tb->has_cpu) {
			/* CPU of the lines that have one, averaged by the
			 * lines with a rate (the ones with a CPU value). */
			ta->cpu_pct = ta->has_cpu ?
					      (ta->cpu_pct * n + tb->cpu_pct) /
						      (n + 1) :
					      tb->cpu_pct;
			ta->has_cpu = true;
		}
		if (tb->has_latency_max &&
		    (!ta->has_latency_max ||
		     tb->latency_max_ns > ta->latency_max_ns)) {
			ta->has_latency_max = true;
			ta->latency_max_ns = tb->latency_max_ns;
		}
	}
	a->nrepeats++;
	return 0;
}

int clyde_loaded_merge_repeats(struct clyde_ctx *ctx,
			       struct clyde_loaded_set *set)
{
	size_t i, out = 0;
	int rc = 0;

	/* After a failure the rest is only compacted, never half-folded, so
	 * that every run left in the set is whole. */
	for (i = 0; i < set->nruns; i++) {
		if (!rc && out &&
		    same_config(&set->runs[out - 1], &set->runs[i])) {
			rc = fold(&set->runs[out - 1], &set->runs[i]);
			if (!rc) {
				run_release(&set->runs[i]);
				continue;
			}
		}
		if (out != i)
			set->runs[out] = set->runs[i];
		out++;
	}
	set->nruns = out;
	if (rc)
		return clyde_err(ctx, ENOMEM, "merging repeats");
	return 0;
}

bool clyde_loaded_test_disagree(const struct clyde_loaded_test *t, double *lo,
				double *hi)
{
	double mn, mx;
	size_t i;

	if (t->nsamples < 2)
		return false;
	mn = mx = t->samples[0];
	for (i = 1; i < t->nsamples; i++) {
		if (t->samples[i] < mn)
			mn = t->samples[i];
		if (t->samples[i] > mx)
			mx = t->samples[i];
	}
	if (lo)
		*lo = mn;
	if (hi)
		*hi = mx;
	return mn <= 0 ? mx > 0 : mx >= CLYDE_LOADED_DISAGREE * mn;
}

/* The flags in the order of their bits (loaded.h). */
static const struct {
	const char *name, *text;
} flag_names[CLYDE_LOADED_FLAG_COUNT] = {
	{ "memory", "served from a page cache, not the storage" },
	{ "busy", "the device was busy with other I/O when the test started "
		  "or during it" },
	{ "degraded", "measured while an md array lost members" },
	{ "cache", "the page cache was not controlled (--no-evict, no -D): "
		   "it may have served the reads" },
};

static int flag_index(unsigned bit)
{
	for (int i = 0; i < CLYDE_LOADED_FLAG_COUNT; i++)
		if (bit == 1u << i)
			return i;
	return -1;
}

const char *clyde_loaded_flag_name(unsigned bit)
{
	int i = flag_index(bit);

	return i < 0 ? NULL : flag_names[i].name;
}

const char *clyde_loaded_flag_text(unsigned bit)
{
	int i = flag_index(bit);

	return i < 0 ? NULL : flag_names[i].text;
}

char *clyde_loaded_flags_text(char *buf, size_t len, unsigned flags,
			      const char *sep)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < CLYDE_LOADED_FLAG_COUNT && n < len; i++) {
		int w;

		if (!(flags & (1u << i)))
			continue;
		w = snprintf(buf + n, len - n, "%s%s", n ? sep : "",
			     flag_names[i].name);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

/*
 * Entries and documents, no database needed: what a stored result says
 * (clyde_history_describe) and the entry's lifecycle.  See history.h.
 */
#include "store/history.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "store/history_internal.h"
#include "results/kinds.h"
#include "results/loaded.h"
#include "results/csv_read.h"
#include "results/fio_read.h"
#include "results/format.h"
#include "core/json_read.h"
#include "results/result_check.h"

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

void clyde_history_entry_release(struct clyde_history_entry *e)
{
	if (!e)
		return;
	free(e->kind);
	free(e->label);
	free(e->host);
	free(e->target_path);
	free(e->fstype);
	free(e->mount_opts);
	free(e->source);
	free(e->note);
	free(e->file_size);
	free(e->files);
	free(e->io_chunk);
	free(e->direct);
	free(e->engine);
	free(e->iodepth);
	free(e->experiment);
	free(e->point);
	free(e->workload);
	memset(e, 0, sizeof(*e));
}

void clyde_history_entries_free(struct clyde_history_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		clyde_history_entry_release(&e[i]);
	free(e);
}

/* Make every string of e non-NULL ("" where unset).  Returns 0 or -1. */
int clyde_history_entry_fill_strings(struct clyde_history_entry *e)
{
	char **f[] = { &e->kind,	&e->label,    &e->host,
		       &e->target_path, &e->fstype,   &e->mount_opts,
		       &e->source,	&e->note,     &e->file_size,
		       &e->files,	&e->io_chunk, &e->direct,
		       &e->engine,	&e->iodepth,  &e->experiment,
		       &e->point,	&e->workload };

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!*f[i] && !(*f[i] = strdup("")))
			return -1;
	return 0;
}

/* Is row `name` test `test`, or a fio group's total of it ("randread
 * (2 jobs)", loaded_fio.c)? */
static bool row_is(const char *name, const char *test)
{
	size_t n = strlen(test);

	return !strncmp(name, test, n) &&
	       (!name[n] ||
		(!strncmp(name + n, " (", 2) && !strstr(name + n, "IOPS")));
}

/* The row of a dev run (or fio job) shown in the list's write or read
 * column: the sequential test, else the random one (a randread-only run
 * shows its randread), else NULL. */
static const struct clyde_loaded_test *
dev_row(const struct clyde_loaded_run *run, const char *dir)
{
	const struct clyde_loaded_test *rnd = NULL;
	char seq[16], rand[16];

	snprintf(seq, sizeof(seq), "seq%s", dir);
	snprintf(rand, sizeof(rand), "rand%s", dir);
	for (size_t i = 0; i < run->ntests; i++) {
		const struct clyde_loaded_test *t = &run->tests[i];

		if (t->state == CLYDE_LOADED_NOT_RUN)
			continue;
		if (row_is(t->name, seq))
			return t;
		if (row_is(t->name, rand))
			rnd = t;
	}
	return rnd;
}

/* Does the list show a random test of dev run `run` (no sequential one
 * in either column)?  Its chunk is then the random request size. */
static bool dev_shows_random(const struct clyde_loaded_run *run)
{
	const struct clyde_loaded_test *w = dev_row(run, "write");
	const struct clyde_loaded_test *r = dev_row(run, "read");

	return (w || r) && (!w || !strncmp(w->name, "rand", 4)) &&
	       (!r || !strncmp(r->name, "rand", 4));
}

/* One figure from a loaded test. */
static void figure_of(const struct clyde_loaded_test *t,
		      struct clyde_history_figure *f)
{
	switch (t->state) {
	case CLYDE_LOADED_VALUE:
		f->state = CLYDE_HIST_FIG_VALUE;
		f->value = t->rate;
		break;
	case CLYDE_LOADED_TOO_FAST:
		if (t->has_rate) {
			f->state = CLYDE_HIST_FIG_VALUE;
			f->value = t->rate;
			f->too_fast = true;
		} else {
			f->state = CLYDE_HIST_FIG_TOO_FAST;
		}
		break;
	default:
		return;
	}
	f->has_cpu = t->has_cpu;
	f->cpu_pct = t->has_cpu ? t->cpu_pct : 0;
	f->flags = t->flags;
}

/* The figures of a loaded bonnie run.  A too-fast test whose rate clyde
 * measured anyway keeps the number (flagged); only a CSV's "+++++" has
 * none.  A dev run's (or fio job's) write and read (dev_row()) are the
 * list's write and read columns (bytes/s, as put_block's). */
static void figures_from_loaded(const struct clyde_loaded_run *run,
				struct clyde_history_figure *fig)
{
	const struct clyde_result_kind *k = clyde_result_kind_loaded(run->kind);

	if (k && k->columns == CLYDE_COLUMNS_SEQ_RAND) {
		const struct clyde_loaded_test *w = dev_row(run, "write");
		const struct clyde_loaded_test *r = dev_row(run, "read");

		if (w)
			figure_of(w, &fig[CLYDE_PUT_BLOCK]);
		if (r)
			figure_of(r, &fig[CLYDE_GET_BLOCK]);
		return;
	}
	if (!k || k->columns != CLYDE_COLUMNS_TESTS)
		return;
	for (size_t i = 0; i < run->ntests && i < CLYDE_TEST_COUNT; i++)
		figure_of(&run->tests[i], &fig[i]);
}

/* A number of bytes ("1048576") as a size ("1.00 MiB") in buf; anything
 * else as it is. */
static const char *bytes_text(const char *v, char *buf, size_t len)
{
	unsigned long long u;
	char *end;

	errno = 0;
	u = strtoull(v, &end, 10);
	if (errno || end == v || *end)
		return v;
	clyde_fmt_human_bytes(buf, len, (double)u);
	return buf;
}

/* The settings that tell runs of one name apart, as the compare table's
 * "what differs" shows them (so list and compare say the same). */
static int settings_from_loaded(const struct clyde_loaded_run *run,
				struct clyde_history_entry *e)
{
	const struct clyde_result_kind *k = clyde_result_kind_loaded(run->kind);
	/* A kind that lists sequential or random rows (a dev run, a fio
	 * job) gives the range used and the request size of the tests the
	 * list shows (sequential, else random), in bytes, shown as sizes. */
	bool dev = k && k->columns == CLYDE_COLUMNS_SEQ_RAND;
	char **dst[] = { &e->file_size, &e->files, &e->io_chunk };

	for (size_t i = 0; i < sizeof(dst) / sizeof(dst[0]); i++) {
		const char *key = k ? k->settings[i] : NULL;
		const char *v;
		char buf[64];

		if (dev && i == 2 && k->rand_chunk && dev_shows_random(run))
			key = k->rand_chunk;
		v = key ? clyde_loaded_kv_get(run, key) : NULL;
		if (dev && v)
			v = bytes_text(v, buf, sizeof(buf));
		free(*dst[i]);
		*dst[i] = strdup(v ? v : "");
		if (!*dst[i])
			return -ENOMEM;
	}
	return 0;
}

/* Load doc as one run with the compare loader (so that the history and
 * `clyde compare` read a document the same way).  A document that gives
 * no run is refused with the loader's first message.  One whose run came
 * with complaints about single members is kept: the document is stored
 * whole, and `show` and `compare` repeat the loader's messages. */
static int load_one(struct clyde_ctx *ctx, const char *what, const char *doc,
		    size_t len, struct clyde_loaded_set *set)
{
	int rc;

	clyde_loaded_set_init(set);
	rc = clyde_loaded_read_buffer(ctx, doc, len, what, set);
	if (rc < 0)
		return rc;
	if (set->nruns == 1)
		return 0;
	if (set->nerrors > 0)
		return clyde_err(ctx, 0, "%s", set->errors[0]), -EINVAL;
	return clyde_err(ctx, 0, "%s: holds %zu results, not one", what,
			 set->nruns),
	       -EINVAL;
}

/* The 5th field of a 1.96/1.98 CSV line is the run's start time, which
 * the CSV reader does not keep; -1 when absent or not a number. */
static int64_t csv_started(const char *line, size_t len)
{
	size_t i = 0, field = 1;
	int64_t v = 0;
	bool any = false;

	while (i < len && field < 5)
		if (line[i++] == ',')
			field++;
	if (field < 5)
		return -1;
	for (; i < len && line[i] != ',' && line[i] != '\r' && line[i] != '\n';
	     i++) {
		if (line[i] < '0' || line[i] > '9' || v > INT64_MAX / 10 - 9)
			return -1;
		v = v * 10 + (line[i] - '0');
		any = true;
	}
	return any ? v : -1;
}

bool clyde_history_starts_json(const char *doc, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(doc, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' ||
			   doc[i] == '\r'))
		i++;
	return i < len && doc[i] == '{';
}

/* Fill e from a clyde JSON result. */
static int describe_json(struct clyde_ctx *ctx, const char *what,
			 const char *doc, size_t len,
			 struct clyde_history_entry *e)
{
	struct clyde_json root;
	struct clyde_json_error jerr;
	struct clyde_loaded_set set;
	const struct clyde_json *target, *machine;
	uint64_t started;
	int rc;

	rc = clyde_json_parse(doc, len, NULL, &root, &jerr);
	if (rc == -ENOMEM)
		return clyde_err(ctx, ENOMEM, "%s", what);
	if (rc < 0)
		return clyde_err(ctx, 0, "%s:%lu: %s", what, jerr.line,
				 jerr.why),
		       -EINVAL;
	if (clyde_json_result_check(&root, &jerr) < 0) {
		clyde_json_free(&root);
		return clyde_err(ctx, 0, "%s:%lu: %s", what, jerr.line,
				 jerr.why),
		       -EINVAL;
	}
	target = clyde_json_get(&root, "target");
	machine = clyde_json_get(&root, "machine");
	e->kind = dup_or_empty(clyde_json_str(clyde_json_get(&root, "kind")));
	e->label = dup_or_empty(clyde_json_str(clyde_json_get(&root, "label")));
	e->host = dup_or_empty(clyde_json_str(clyde_json_get(machine, "host")));
	e->target_path =
		dup_or_empty(clyde_json_str(clyde_json_get(target, "path")));
	e->fstype =
		dup_or_empty(clyde_json_str(clyde_json_get(target, "fstype")));
	e->mount_opts = dup_or_empty(
		clyde_json_str(clyde_json_get(target, "mount_opts")));
	e->started_unix = -1;
	if (clyde_json_u64(clyde_json_get(&root, "started_unix"), &started) &&
	    started <= INT64_MAX)
		e->started_unix = (int64_t)started;
	clyde_json_free(&root);
	if (clyde_history_entry_fill_strings(e) < 0)
		return clyde_err(ctx, ENOMEM, "%s", what);

	rc = load_one(ctx, what, doc, len, &set);
	if (rc == 0) {
		figures_from_loaded(&set.runs[0], e->fig);
		if (settings_from_loaded(&set.runs[0], e) < 0)
			rc = clyde_err(ctx, ENOMEM, "%s", what);
	}
	clyde_loaded_set_release(&set);
	return rc;
}

/* Fill e from one CSV line. */
static int describe_csv(struct clyde_ctx *ctx, const char *what,
			const char *doc, size_t len,
			struct clyde_history_entry *e)
{
	struct clyde_csv_line *line;
	struct clyde_loaded_set set;
	char why[CLYDE_CSV_WHY_LEN];
	int rc;

	line = calloc(1, sizeof(*line));
	if (!line)
		return clyde_err(ctx, ENOMEM, "%s", what);
	rc = clyde_csv_parse_line(doc, len, line, why, sizeof(why));
	if (rc <= 0) {
		free(line);
		if (rc == 0)
			return clyde_err(ctx, 0,
					 "%s: not a result (a header or "
					 "blank line)",
					 what),
			       -EINVAL;
		return clyde_err(ctx, 0, "%s: %s", what, why), -EINVAL;
	}
	e->kind = strdup("bonnie-csv");
	e->label = strdup(line->params.name);
	e->started_unix = -1;
	if (line->format != CLYDE_CSV_1_03)
		e->started_unix = csv_started(doc, len);
	free(line);
	if (clyde_history_entry_fill_strings(e) < 0)
		return clyde_err(ctx, ENOMEM, "%s", what);

	rc = load_one(ctx, what, doc, len, &set);
	if (rc == 0) {
		figures_from_loaded(&set.runs[0], e->fig);
		if (settings_from_loaded(&set.runs[0], e) < 0)
			rc = clyde_err(ctx, ENOMEM, "%s", what);
		if (e->started_unix < 0 && set.runs[0].started_unix > 0 &&
		    set.runs[0].started_unix <= INT64_MAX)
			e->started_unix = (int64_t)set.runs[0].started_unix;
	}
	clyde_loaded_set_release(&set);
	return rc;
}

/* Fill e from fio's JSON output of one job (history import stores one
 * document per job: clyde_fio_job_doc()). */
static int describe_fio(struct clyde_ctx *ctx, const char *what,
			const char *doc, size_t len,
			struct clyde_history_entry *e)
{
	struct clyde_loaded_set set;
	const struct clyde_loaded_run *r;
	int rc;

	rc = load_one(ctx, what, doc, len, &set);
	if (rc < 0) {
		clyde_loaded_set_release(&set);
		return rc;
	}
	r = &set.runs[0];
	e->kind = strdup("fio");
	e->label = strdup(r->label);
	e->started_unix = r->started_unix && r->started_unix <= INT64_MAX ?
				  (int64_t)r->started_unix :
				  -1;
	/* Where fio did its I/O: its file (or device), else its directory. */
	e->target_path =
		dup_or_empty(clyde_loaded_kv_get(r, "target path") ?
				     clyde_loaded_kv_get(r, "target path") :
			     clyde_loaded_kv_get(r, "fio filename") ?
				     clyde_loaded_kv_get(r, "fio filename") :
				     clyde_loaded_kv_get(r, "fio directory"));
	if (clyde_history_entry_fill_strings(e) < 0)
		rc = clyde_err(ctx, ENOMEM, "%s", what);
	if (rc == 0) {
		figures_from_loaded(r, e->fig);
		if (settings_from_loaded(r, e) < 0)
			rc = clyde_err(ctx, ENOMEM, "%s", what);
	}
	clyde_loaded_set_release(&set);
	return rc;
}

int clyde_history_describe(struct clyde_ctx *ctx, const char *what,
			   const char *doc, size_t len,
			   struct clyde_history_entry *e)
{
	size_t off;
	int rc;

	memset(e, 0, sizeof(*e));
	if (clyde_fio_sniff(doc, len, &off) == CLYDE_FIO_JSON)
		rc = describe_fio(ctx, what, doc, len, e);
	else if (clyde_history_starts_json(doc, len))
		rc = describe_json(ctx, what, doc, len, e);
	else
		rc = describe_csv(ctx, what, doc, len, e);
	if (rc < 0)
		clyde_history_entry_release(e);
	return rc;
}

/* The normalised bytes of doc (see history.h): *start and *n. */
void clyde_history_normalise(const char *doc, size_t len, size_t *start,
			     size_t *n)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(doc, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\r' ||
			   doc[i] == '\n'))
		i++;
	while (len > i && (doc[len - 1] == ' ' || doc[len - 1] == '\t' ||
			   doc[len - 1] == '\r' || doc[len - 1] == '\n'))
		len--;
	*start = i;
	*n = len - i;
}

uint64_t clyde_history_doc_hash(const char *doc, size_t len)
{
	uint64_t hash = 14695981039346656037ull; /* FNV-1a, 64 bits */
	size_t start, n;

	clyde_history_normalise(doc, len, &start, &n);
	for (size_t i = 0; i < n; i++) {
		hash ^= (unsigned char)doc[start + i];
		hash *= 1099511628211ull;
	}
	return hash;
}

/*
 * clyde's result document, schema "clyde-result" version 1, kind "bonnie"
 * (docs/json-schema.md is the contract): the envelope with what was
 * measured and how, every run of a series with every test and worker as
 * raw integers, so nothing the run measured is lost to rounding, and the
 * run-to-run summary.  Derived numbers (rate_per_s, cpu_pct, too_fast,
 * the latency percentiles, the device averages) are there for
 * convenience; readers can recompute them from the raw fields.
 *
 * The writer below is a tiny streaming emitter: each value is one call
 * with its key, and objects/arrays are opened and closed explicitly, so a
 * new field is one line where it belongs.
 */
#include "results/format.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/summary.h"

#define SCHEMA_VERSION 1

#define JSON_MAX_DEPTH 16

struct jw {
	FILE *f;
	int depth;
	/* Per level: has a member been written yet (comma and layout). */
	bool nonempty[JSON_MAX_DEPTH];
};

/* Write s as a JSON string.  Quotes, backslashes and control characters
 * are escaped; so are U+2028/U+2029 (harmless in JSON, but not in a
 * JavaScript string once the result is embedded in an HTML report); a
 * byte that does not start a valid UTF-8 sequence becomes U+FFFD. */
static void jw_string(struct jw *w, const char *s, size_t n)
{
	size_t i = 0;

	fputc('"', w->f);
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t sl = clyde_utf8_seq_len(s + i, n - i);

		if (sl == 0) {
			fputs("\\ufffd", w->f);
			i++;
			continue;
		}
		if (sl == 3 && c == 0xe2 && (unsigned char)s[i + 1] == 0x80 &&
		    ((unsigned char)s[i + 2] == 0xa8 ||
		     (unsigned char)s[i + 2] == 0xa9)) {
			fprintf(w->f, "\\u%04x",
				0x2000u + ((unsigned char)s[i + 2] - 0x80u));
			i += 3;
			continue;
		}
		if (sl > 1) {
			fwrite(s + i, 1, sl, w->f);
			i += sl;
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", w->f);
			break;
		case '\\':
			fputs("\\\\", w->f);
			break;
		case '\n':
			fputs("\\n", w->f);
			break;
		case '\r':
			fputs("\\r", w->f);
			break;
		case '\t':
			fputs("\\t", w->f);
			break;
		case '\b':
			fputs("\\b", w->f);
			break;
		case '\f':
			fputs("\\f", w->f);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(w->f, "\\u%04x", c);
			else
				fputc(c, w->f);
		}
		i++;
	}
	fputc('"', w->f);
}

/* Start a member (key may be NULL inside an array): comma, newline and
 * indentation as needed. */
static void jw_member(struct jw *w, const char *key)
{
	if (w->nonempty[w->depth])
		fputc(',', w->f);
	w->nonempty[w->depth] = true;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
	if (key) {
		jw_string(w, key, strlen(key));
		fputs(": ", w->f);
	}
}

static void jw_open(struct jw *w, const char *key, char bracket)
{
	if (w->depth > 0 || key)
		jw_member(w, key);
	fputc(bracket, w->f);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->nonempty[w->depth] = false;
}

static void jw_close(struct jw *w, char bracket)
{
	bool had = w->nonempty[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had) {
		fputc('\n', w->f);
		for (int i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	fputc(bracket, w->f);
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_member(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

static void jw_i64(struct jw *w, const char *key, int64_t v)
{
	jw_member(w, key);
	fprintf(w->f, "%" PRId64, v);
}

static void jw_null(struct jw *w, const char *key)
{
	jw_member(w, key);
	fputs("null", w->f);
}

/*
 * A number with `decimals` decimals, or null when it is NaN or infinite
 * (JSON has no such numbers).  Huge values switch to the exponent form so
 * that no digit is lost to a buffer; both forms are valid JSON numbers.
 * snprintf follows LC_NUMERIC, so a ',' point is turned back into '.'.
 */
static void jw_num(struct jw *w, const char *key, double v, int decimals)
{
	char buf[64];

	if (!isfinite(v)) {
		jw_null(w, key);
		return;
	}
	if (fabs(v) >= 1e15)
		snprintf(buf, sizeof(buf), "%.17g", v);
	else
		snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	/* "-0.000" is valid but reads oddly; a tiny negative is a zero. */
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	jw_member(w, key);
	fputs(buf, w->f);
}

static void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_member(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* A string, or null when s is NULL. */
static void jw_str(struct jw *w, const char *key, const char *s, size_t max)
{
	jw_member(w, key);
	if (s)
		jw_string(w, s, strnlen(s, max));
	else
		fputs("null", w->f);
}

/* A fixed char array member (read up to its first NUL or its end). */
#define JW_ARR(w, key, arr) jw_str(w, key, arr, sizeof(arr))

static void json_machine(struct jw *w, const struct clyde_machine *m)
{
	jw_open(w, "machine", '{');
	JW_ARR(w, "host", m->host);
	JW_ARR(w, "kernel", m->kernel);
	JW_ARR(w, "cpu_model", m->cpu_model);
	jw_u64(w, "ncpu", m->ncpu);
	jw_u64(w, "ram_bytes", m->ram_bytes);
	jw_close(w, '}');
}

static void json_target(struct jw *w, const struct clyde_target *t)
{
	jw_open(w, "target", '{');
	JW_ARR(w, "path", t->path);
	JW_ARR(w, "fstype", t->fstype);
	JW_ARR(w, "mount_point", t->mount_point);
	JW_ARR(w, "mount_opts", t->mount_opts);
	JW_ARR(w, "source", t->source);
	jw_bool(w, "has_block_device", t->has_block_device);
	JW_ARR(w, "no_device_reason", t->no_device_reason);
	JW_ARR(w, "block_dev", t->block_dev);
	JW_ARR(w, "disk", t->disk);
	jw_u64(w, "logical_block_size", t->logical_block_size);
	jw_u64(w, "physical_block_size", t->physical_block_size);
	jw_bool(w, "rotational", t->rotational);
	jw_close(w, '}');
}

static void json_config(struct jw *w, const struct clyde_run_params *p)
{
	jw_open(w, "config", '{');
	JW_ARR(w, "name", p->name);
	jw_u64(w, "concurrency", p->concurrency);
	jw_u64(w, "seed", p->seed);
	jw_u64(w, "file_size_mib", p->file_size_mib);
	jw_u64(w, "io_chunk", p->io_chunk);
	jw_u64(w, "seeks", p->seeks);
	jw_u64(w, "seekers", p->seekers);
	jw_u64(w, "num_files", p->num_files);
	jw_i64(w, "max_size", p->max_size);
	jw_i64(w, "min_size", p->min_size);
	jw_u64(w, "num_dirs", p->num_dirs);
	jw_u64(w, "file_chunk", p->file_chunk);
	jw_bool(w, "direct", p->direct);
	jw_bool(w, "fsync_each", p->fsync_each);
	jw_u64(w, "perchar_bytes", p->perchar_bytes);
	jw_bool(w, "size_auto", p->size_auto);
	jw_bool(w, "evict", p->evict);
	jw_bool(w, "drop_caches", p->drop_caches);
	JW_ARR(w, "pattern", p->pattern);
	jw_close(w, '}');
}

/* The latency summary and the non-empty buckets, or null when nothing
 * was recorded. */
static void json_latency(struct jw *w, const struct clyde_hist *h,
			 uint32_t sample_every)
{
	struct clyde_hist_iter it;
	struct clyde_hist_bucket b;

	if (!h || !clyde_hist_count(h)) {
		jw_null(w, "latency");
		return;
	}
	jw_open(w, "latency", '{');
	jw_u64(w, "count", clyde_hist_count(h));
	jw_u64(w, "min_ns", clyde_hist_min(h));
	jw_num(w, "mean_ns", clyde_hist_mean(h), 1);
	jw_u64(w, "p50_ns", clyde_hist_quantile(h, 0.50));
	jw_u64(w, "p90_ns", clyde_hist_quantile(h, 0.90));
	jw_u64(w, "p99_ns", clyde_hist_quantile(h, 0.99));
	jw_u64(w, "p999_ns", clyde_hist_quantile(h, 0.999));
	jw_u64(w, "max_ns", clyde_hist_max(h));
	jw_u64(w, "sample_every", sample_every > 1 ? sample_every : 1);
	/* One compact line per bucket: a histogram may have hundreds. */
	jw_open(w, "buckets", '[');
	clyde_hist_iter_init(&it, h);
	while (clyde_hist_iter_next(&it, &b)) {
		jw_member(w, NULL);
		fprintf(w->f, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", b.lo,
			b.hi, b.count);
	}
	jw_close(w, ']');
	jw_close(w, '}');
}

static void json_cache(struct jw *w, const struct clyde_test_result *t)
{
	double res = clyde_test_residency(t);

	jw_open(w, "cache", '{');
	jw_bool(w, "evicted", t->cache.evicted);
	jw_bool(w, "dropped", t->cache.dropped);
	if (res < 0.0)
		jw_null(w, "residency");
	else
		jw_num(w, "residency", res, 6);
	jw_u64(w, "resident_bytes", t->cache.resident_bytes);
	jw_u64(w, "total_bytes", t->cache.total_bytes);
	jw_bool(w, "warning", res >= CLYDE_CACHE_WARN_FRACTION);
	jw_bool(w, "direct_checked", t->cache.direct_checked);
	jw_bool(w, "direct_honoured", t->cache.direct_honoured);
	jw_close(w, '}');
}

/* Tests whose data is all written: the device's writes over the test's
 * bytes is their write amplification.  seeks writes only a part of its
 * operations (unknown bytes), the create tests write metadata only. */
static bool writes_its_bytes(enum clyde_test id)
{
	return id == CLYDE_PUTC || id == CLYDE_PUT_BLOCK || id == CLYDE_REWRITE;
}

static void json_device(struct jw *w, enum clyde_test id,
			const struct clyde_test_result *t)
{
	const struct clyde_devio *d = &t->dev;

	jw_open(w, "device", '{');
	jw_bool(w, "present", d->have_device);
	jw_u64(w, "read_bytes", d->read_bytes);
	jw_u64(w, "write_bytes", d->write_bytes);
	jw_u64(w, "read_ios", d->read_ios);
	jw_u64(w, "write_ios", d->write_ios);
	jw_u64(w, "read_merges", d->read_merges);
	jw_u64(w, "write_merges", d->write_merges);
	jw_num(w, "avg_read_request_bytes",
	       d->read_ios ? (double)d->read_bytes / (double)d->read_ios : 0.0,
	       3);
	jw_num(w, "avg_write_request_bytes",
	       d->write_ios ? (double)d->write_bytes / (double)d->write_ios :
			      0.0,
	       3);
	if (d->have_device && writes_its_bytes(id) && t->bytes)
		jw_num(w, "write_amplification",
		       (double)d->write_bytes / (double)t->bytes, 4);
	else
		jw_null(w, "write_amplification");
	jw_close(w, '}');
}

static void json_span(struct jw *w, unsigned index, const struct clyde_span *s)
{
	jw_open(w, NULL, '{');
	jw_u64(w, "index", index);
	jw_u64(w, "start_ns", s->start_ns);
	jw_u64(w, "end_ns", s->end_ns);
	jw_u64(w, "bytes", s->bytes);
	jw_u64(w, "ops", s->ops);
	jw_u64(w, "cpu_user_ns", s->cpu_user_ns);
	jw_u64(w, "cpu_sys_ns", s->cpu_sys_ns);
	jw_u64(w, "latency_max_ns", s->latency_max_ns);
	jw_close(w, '}');
}

static const char *state_name(enum clyde_test_state s)
{
	switch (s) {
	case CLYDE_DONE:
		return "done";
	case CLYDE_SKIPPED:
		return "skipped";
	case CLYDE_NOT_RUN:
		break;
	}
	return "not_run";
}

static void json_test(struct jw *w, enum clyde_test id,
		      const struct clyde_test_result *t)
{
	jw_open(w, NULL, '{');
	jw_str(w, "name", clyde_test_name(id), 64);
	jw_str(w, "state", state_name(t->state), 64);
	jw_str(w, "note", t->note, 4096);
	jw_u64(w, "bytes", t->bytes);
	jw_u64(w, "ops", t->ops);
	jw_u64(w, "elapsed_ns", t->elapsed_ns);
	jw_u64(w, "cpu_user_ns", t->cpu_user_ns);
	jw_u64(w, "cpu_sys_ns", t->cpu_sys_ns);
	jw_num(w, "rate_per_s", clyde_test_rate(t, id), 3);
	jw_str(w, "rate_unit", clyde_summary_unit(id), 16);
	jw_num(w, "cpu_pct", clyde_test_cpu_pct(t), 2);
	jw_bool(w, "too_fast", clyde_fmt_show(t) == CLYDE_SHOW_TOO_FAST);
	json_latency(w, t->latency, t->latency_sample_every);
	json_cache(w, t);
	json_device(w, id, t);
	jw_open(w, "workers", '[');
	for (unsigned i = 0; t->spans && i < t->nworkers; i++)
		json_span(w, i, &t->spans[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

static void json_run(struct jw *w, unsigned index, const struct clyde_run *r)
{
	jw_open(w, NULL, '{');
	jw_u64(w, "index", index);
	jw_u64(w, "seed", r->params.seed);
	jw_open(w, "tests", '[');
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		json_test(w, (enum clyde_test)i, &r->tests[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

static void json_summary(struct jw *w,
			 const struct clyde_summary s[CLYDE_TEST_COUNT])
{
	jw_open(w, "summary", '[');
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		if (!s[i].n)
			continue;
		jw_open(w, NULL, '{');
		jw_str(w, "name", clyde_test_name(s[i].test), 64);
		jw_str(w, "unit", s[i].unit, 16);
		jw_u64(w, "n", s[i].n);
		jw_num(w, "mean", s[i].mean, 3);
		jw_num(w, "stddev", s[i].stddev, 3);
		jw_num(w, "ci95_halfwidth", s[i].ci95, 3);
		jw_num(w, "ci95_low", s[i].low, 3);
		jw_num(w, "ci95_high", s[i].high, 3);
		if (s[i].settled == CLYDE_SETTLED_NA)
			jw_null(w, "settled");
		else
			jw_bool(w, "settled",
				s[i].settled == CLYDE_SETTLED_YES);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void json_until_stable(struct jw *w, const struct clyde_json_extra *x)
{
	if (!x || !(x->target_pct > 0.0) || !isfinite(x->target_pct)) {
		jw_null(w, "until_stable");
		return;
	}
	jw_open(w, "until_stable", '{');
	jw_num(w, "target_pct", x->target_pct, 3);
	jw_u64(w, "max_runs", x->max_runs);
	jw_u64(w, "runs_done", x->runs_done);
	jw_open(w, "unsettled", '[');
	for (unsigned i = 0; i < x->n_unsettled && i < CLYDE_TEST_COUNT; i++)
		jw_str(w, NULL, clyde_test_name(x->unsettled[i]), 64);
	jw_close(w, ']');
	jw_close(w, '}');
}

int clyde_json_write(FILE *f, const struct clyde_run *runs, unsigned nruns,
		     const struct clyde_json_extra *extra, const char *version)
{
	struct clyde_summary sum[CLYDE_TEST_COUNT];
	struct jw w = { .f = f };
	const struct clyde_run *r0 = runs;
	double target = extra ? extra->target_pct : 0.0;
	int ret;

	if (!nruns || !runs)
		return -EINVAL;
	ret = clyde_summary_compute(runs, nruns, target, sum);
	if (ret < 0)
		return ret;

	errno = 0;
	jw_open(&w, NULL, '{');
	jw_str(&w, "schema", "clyde-result", 64);
	jw_u64(&w, "schema_version", SCHEMA_VERSION);
	jw_str(&w, "clyde_version", version, 256);
	jw_str(&w, "kind", "bonnie", 64);
	JW_ARR(&w, "label", r0->params.name);
	jw_u64(&w, "started_unix", r0->started_unix);
	json_machine(&w, &r0->env.machine);
	json_target(&w, &r0->env.target);
	json_config(&w, &r0->params);
	jw_open(&w, "runs", '[');
	for (unsigned i = 0; i < nruns; i++)
		json_run(&w, i, &runs[i]);
	jw_close(&w, ']');
	json_summary(&w, sum);
	json_until_stable(&w, extra);
	jw_close(&w, '}');
	fputc('\n', f);
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

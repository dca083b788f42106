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

#include "core/json_out.h"
#include "env/advise.h"
#include "results/json_parts.h"
#include "results/members_json.h"
#include "results/figures.h"
#include "results/testio.h"
#include "results/series_out.h"
#include "results/stack_out.h"
#include "results/summary.h"

#define SCHEMA_VERSION 1

static void json_config(struct clyde_jw *w, const struct clyde_run_params *p)
{
	clyde_jw_open(w, "config", '{');
	CLYDE_JW_ARR(w, "name", p->name);
	clyde_jw_u64(w, "concurrency", p->concurrency);
	clyde_jw_u64(w, "seed", p->seed);
	clyde_jw_u64(w, "file_size_mib", p->file_size_mib);
	clyde_jw_u64(w, "io_chunk", p->io_chunk);
	clyde_jw_u64(w, "seeks", p->seeks);
	clyde_jw_u64(w, "seekers", p->seekers);
	clyde_jw_u64(w, "num_files", p->num_files);
	clyde_jw_i64(w, "max_size", p->max_size);
	clyde_jw_i64(w, "min_size", p->min_size);
	clyde_jw_u64(w, "num_dirs", p->num_dirs);
	clyde_jw_u64(w, "file_chunk", p->file_chunk);
	clyde_jw_bool(w, "direct", p->direct);
	clyde_jw_bool(w, "fsync_each", p->fsync_each);
	clyde_jw_u64(w, "perchar_bytes", p->perchar_bytes);
	clyde_jw_bool(w, "size_auto", p->size_auto);
	clyde_jw_bool(w, "evict", p->evict);
	clyde_jw_bool(w, "drop_caches", p->drop_caches);
	clyde_jw_bool(w, "verify", p->verify);
	CLYDE_JW_ARR(w, "pattern", p->pattern);
	/* Only when asked for: results before it had none. */
	if (p->compress_pct)
		clyde_jw_u64(w, "compress_percentage", p->compress_pct);
	CLYDE_JW_ARR(w, "engine", p->engine);
	clyde_jw_u64(w, "iodepth", p->iodepth);
	clyde_jw_u64(w, "iodepth_batch", p->iodepth_batch);
	clyde_jw_u64(w, "runtime_ns", p->runtime_ns);
	clyde_jw_u64(w, "stonewall_ns", p->stonewall_ns);
	clyde_jw_u64(w, "log_interval_ns", p->log_interval_ns);
	clyde_jw_close(w, '}');
}

static void json_cache(struct clyde_jw *w, const struct clyde_test_result *t)
{
	double res = clyde_test_residency(t);
	const char *source, *text;

	clyde_jw_open(w, "cache", '{');
	clyde_jw_bool(w, "evicted", t->cache.evicted);
	/* What the residency is of: the page cache at the test's start, or
	 * a kind's own cache (on ZFS what the ARC served during it). */
	clyde_figs_cache(t, &source, &text);
	clyde_jw_str(w, "source", source, 16);
	clyde_jw_bool(w, "dropped", t->cache.dropped);
	if (res < 0.0)
		clyde_jw_null(w, "residency");
	else
		clyde_jw_num(w, "residency", res, 6);
	clyde_jw_u64(w, "resident_bytes", t->cache.resident_bytes);
	clyde_jw_u64(w, "total_bytes", t->cache.total_bytes);
	clyde_jw_bool(w, "warning", res >= CLYDE_CACHE_WARN_FRACTION);
	clyde_jw_bool(w, "direct_checked", t->cache.direct_checked);
	clyde_jw_bool(w, "direct_honoured", t->cache.direct_honoured);
	clyde_jw_loop(w, &t->cache.loop, t->cache.total_bytes);
	clyde_jw_close(w, '}');
}

/* "hugetlb", "thp", "small", or null for a test without I/O buffers. */
static void buffer_pages(struct clyde_jw *w, enum clyde_iobuf_pages pages)
{
	const char *name = clyde_iobuf_pages_name(pages);

	if (name)
		clyde_jw_str(w, "buffer_pages", name, 16);
	else
		clyde_jw_null(w, "buffer_pages");
}

/* The depth that ran, or null for a test without a depth of its own. */
static void inflight_max(struct clyde_jw *w, uint32_t n)
{
	if (n)
		clyde_jw_u64(w, "inflight_max", n);
	else
		clyde_jw_null(w, "inflight_max");
}

/* How full the queue was kept, or null when not measured. */
static void inflight_mean(struct clyde_jw *w, double v)
{
	if (v > 0)
		clyde_jw_num(w, "inflight_mean", v, 2);
	else
		clyde_jw_null(w, "inflight_mean");
}

static void json_span(struct clyde_jw *w, unsigned index,
		      const struct clyde_span *s)
{
	clyde_jw_open(w, NULL, '{');
	clyde_jw_u64(w, "index", index);
	clyde_jw_u64(w, "start_ns", s->start_ns);
	clyde_jw_u64(w, "end_ns", s->end_ns);
	clyde_jw_u64(w, "bytes", s->bytes);
	clyde_jw_u64(w, "ops", s->ops);
	clyde_jw_u64(w, "cpu_user_ns", s->cpu_user_ns);
	clyde_jw_u64(w, "cpu_sys_ns", s->cpu_sys_ns);
	clyde_jw_u64(w, "latency_max_ns", s->latency_max_ns);
	buffer_pages(w, s->buffer_pages);
	inflight_max(w, s->inflight_max);
	inflight_mean(w, s->inflight_mean);
	clyde_jw_bool(w, "stonewalled", s->stonewalled);
	clyde_jw_series(w, "series", &s->series);
	clyde_jw_close(w, '}');
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

static void json_test(struct clyde_jw *w, enum clyde_test id,
		      const struct clyde_run *r)
{
	const struct clyde_test_result *t = &r->tests[id];
	struct clyde_test_io io;

	clyde_jw_open(w, NULL, '{');
	clyde_jw_str(w, "name", clyde_test_name(id), 64);
	clyde_jw_str(w, "state", state_name(t->state), 64);
	clyde_jw_str(w, "note", t->note, 4096);
	clyde_jw_u64(w, "bytes", t->bytes);
	clyde_jw_u64(w, "ops", t->ops);
	clyde_jw_u64(w, "elapsed_ns", t->elapsed_ns);
	clyde_jw_u64(w, "cpu_user_ns", t->cpu_user_ns);
	clyde_jw_u64(w, "cpu_sys_ns", t->cpu_sys_ns);
	clyde_jw_num(w, "rate_per_s", clyde_test_rate(t, id), 3);
	clyde_jw_str(w, "rate_unit", clyde_summary_unit(id), 16);
	clyde_jw_num(w, "cpu_pct", clyde_test_cpu_pct(t), 2);
	clyde_jw_bool(w, "too_fast", clyde_fmt_show(t) == CLYDE_SHOW_TOO_FAST);
	clyde_jw_latency(w, "latency", t->latency, t->latency_sample_every);
	buffer_pages(w, t->buffer_pages);
	inflight_max(w, t->inflight_max);
	inflight_mean(w, t->inflight_mean);
	if (t->refill_gaps)
		clyde_jw_num(w, "refill_gap_mean_ns",
			     (double)t->refill_gap_ns / (double)t->refill_gaps,
			     1);
	else
		clyde_jw_null(w, "refill_gap_mean_ns");
	json_cache(w, t);
	clyde_figs_json(w, r, id, CLYDE_FIGS_AT_CACHE);
	clyde_test_io_of_run(r, id, &io);
	/* The test's write amplification: its own writes on the leaves
	 * (results/testio.h), not the top device's total. */
	clyde_jw_device_wa(w, &t->dev, io.wa);
	clyde_jw_io(w, &io, &t->own);
	clyde_jw_settle(w, &t->settle);
	clyde_jw_u64(w, "verified_blocks", t->verified_blocks);
	clyde_jw_degraded(w, &t->members);
	clyde_jw_members(w, r, id);
	clyde_figs_json(w, r, id, CLYDE_FIGS_AT_MEMBERS);
	clyde_jw_series(w, "series", &t->series);
	clyde_jw_steadiness(w, "steadiness", &t->series, clyde_test_is_io(id));
	clyde_jw_open(w, "workers", '[');
	for (unsigned i = 0; t->spans && i < t->nworkers; i++)
		json_span(w, i, &t->spans[i]);
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

static void json_run(struct clyde_jw *w, unsigned index,
		     const struct clyde_run *r)
{
	clyde_jw_open(w, NULL, '{');
	clyde_jw_u64(w, "index", index);
	clyde_jw_u64(w, "seed", r->params.seed);
	clyde_jw_u64(w, "wall_ns", r->wall_ns);
	clyde_jw_u64(w, "overhead_ns", r->overhead_ns);
	clyde_jw_open(w, "tests", '[');
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		json_test(w, (enum clyde_test)i, r);
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

static void json_summary(struct clyde_jw *w,
			 const struct clyde_summary s[CLYDE_TEST_COUNT])
{
	clyde_jw_open(w, "summary", '[');
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		if (!s[i].n)
			continue;
		clyde_jw_open(w, NULL, '{');
		clyde_jw_str(w, "name", clyde_test_name(s[i].test), 64);
		clyde_jw_str(w, "unit", s[i].unit, 16);
		clyde_jw_u64(w, "n", s[i].n);
		clyde_jw_num(w, "mean", s[i].mean, 3);
		clyde_jw_num(w, "stddev", s[i].stddev, 3);
		clyde_jw_num(w, "ci95_halfwidth", s[i].ci95, 3);
		clyde_jw_num(w, "ci95_low", s[i].low, 3);
		clyde_jw_num(w, "ci95_high", s[i].high, 3);
		if (s[i].settled == CLYDE_SETTLED_NA)
			clyde_jw_null(w, "settled");
		else
			clyde_jw_bool(w, "settled",
				      s[i].settled == CLYDE_SETTLED_YES);
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
}

static void json_until_stable(struct clyde_jw *w,
			      const struct clyde_json_extra *x)
{
	if (!x || !(x->target_pct > 0.0) || !isfinite(x->target_pct)) {
		clyde_jw_null(w, "until_stable");
		return;
	}
	clyde_jw_open(w, "until_stable", '{');
	clyde_jw_num(w, "target_pct", x->target_pct, 3);
	clyde_jw_u64(w, "max_runs", x->max_runs);
	clyde_jw_u64(w, "runs_done", x->runs_done);
	clyde_jw_open(w, "unsettled", '[');
	for (unsigned i = 0; i < x->n_unsettled && i < CLYDE_TEST_COUNT; i++)
		clyde_jw_str(w, NULL, clyde_test_name(x->unsettled[i]), 64);
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

int clyde_json_write(FILE *f, const struct clyde_run *runs, unsigned nruns,
		     const struct clyde_json_extra *extra, const char *version)
{
	struct clyde_summary sum[CLYDE_TEST_COUNT];
	struct clyde_jw w = { .f = f };
	const struct clyde_run *r0 = runs;
	double target = extra ? extra->target_pct : 0.0;
	int ret;

	if (!nruns || !runs)
		return -EINVAL;
	ret = clyde_summary_compute(runs, nruns, target, sum);
	if (ret < 0)
		return ret;

	errno = 0;
	clyde_jw_open(&w, NULL, '{');
	clyde_jw_str(&w, "schema", "clyde-result", 64);
	clyde_jw_u64(&w, "schema_version", SCHEMA_VERSION);
	clyde_jw_str(&w, "clyde_version", version, 256);
	clyde_jw_str(&w, "kind", "bonnie", 64);
	CLYDE_JW_ARR(&w, "label", r0->params.name);
	clyde_jw_u64(&w, "started_unix", r0->started_unix);
	clyde_jw_machine(&w, &r0->env.machine);
	clyde_jw_target(&w, &r0->env.target);
	clyde_jw_virt(&w, &r0->env.virt);
	ret = clyde_jw_stack_advice(&w, &r0->env.stack,
				    clyde_run_advise(&r0->params));
	if (ret < 0)
		return ret;
	json_config(&w, &r0->params);
	clyde_jw_open(&w, "runs", '[');
	for (unsigned i = 0; i < nruns; i++)
		json_run(&w, i, &runs[i]);
	clyde_jw_close(&w, ']');
	json_summary(&w, sum);
	json_until_stable(&w, extra);
	if (extra && extra->more)
		extra->more(&w, extra->more_arg);
	clyde_jw_close(&w, '}');
	fputc('\n', f);
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

#include "results/result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "env/advise.h"
#include "io/engine.h"
#include "io/target.h"

/*
 * The one table of the bonnie++ tests' names: the machine name (CSV
 * columns, JSON, experiment metric keys) and the label people read (the
 * progress line, messages, experiment tables).  Every place that names a
 * test takes it from here.
 */
static const struct {
	const char *name, *label;
} tests[CLYDE_TEST_COUNT] = {
	[CLYDE_PUTC] = { "putc", "per-char write" },
	[CLYDE_PUT_BLOCK] = { "put_block", "block write" },
	[CLYDE_REWRITE] = { "rewrite", "rewrite" },
	[CLYDE_GETC] = { "getc", "per-char read" },
	[CLYDE_GET_BLOCK] = { "get_block", "block read" },
	[CLYDE_SEEKS] = { "seeks", "random seeks" },
	[CLYDE_SEQ_CREATE] = { "seq_create", "sequential create" },
	[CLYDE_SEQ_STAT] = { "seq_stat", "sequential stat" },
	[CLYDE_SEQ_DEL] = { "seq_del", "sequential delete" },
	[CLYDE_RAN_CREATE] = { "ran_create", "random create" },
	[CLYDE_RAN_STAT] = { "ran_stat", "random stat" },
	[CLYDE_RAN_DEL] = { "ran_del", "random delete" },
};

const char *clyde_test_name(enum clyde_test t)
{
	return (unsigned)t < CLYDE_TEST_COUNT ? tests[t].name : "?";
}

const char *clyde_test_label(enum clyde_test id)
{
	return (unsigned)id < CLYDE_TEST_COUNT ? tests[id].label : "?";
}

int clyde_test_from_name(const char *name)
{
	for (int t = 0; name && t < CLYDE_TEST_COUNT; t++)
		if (!strcmp(tests[t].name, name))
			return t;
	return -1;
}

void clyde_run_init(struct clyde_run *run)
{
	memset(run, 0, sizeof(*run));
}

void clyde_run_release(struct clyde_run *run)
{
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		for (unsigned k = 0; k < run->tests[i].nworkers; k++) {
			free(run->tests[i].spans[k].hist);
			clyde_series_release(&run->tests[i].spans[k].series);
		}
		clyde_series_release(&run->tests[i].series);
		free(run->tests[i].latency);
		run->tests[i].latency = NULL;
		free(run->tests[i].spans);
		run->tests[i].spans = NULL;
		run->tests[i].nworkers = 0;
		clyde_test_figs_free(&run->tests[i]);
	}
	clyde_stack_free(&run->env.stack);
}

int clyde_test_alloc_spans(struct clyde_test_result *t, unsigned n)
{
	for (unsigned k = 0; k < t->nworkers; k++) {
		free(t->spans[k].hist);
		clyde_series_release(&t->spans[k].series);
	}
	free(t->spans);
	t->nworkers = 0;
	t->spans = calloc(n ? n : 1, sizeof(*t->spans));
	if (!t->spans)
		return -ENOMEM;
	t->nworkers = n;
	for (unsigned k = 0; k < n; k++) {
		t->spans[k].hist = malloc(sizeof(*t->spans[k].hist));
		if (!t->spans[k].hist)
			return -ENOMEM;
		clyde_hist_init(t->spans[k].hist);
	}
	return 0;
}

void clyde_test_sum_spans(struct clyde_test_result *t)
{
	uint64_t first = UINT64_MAX, last = 0;
	unsigned nmean = 0;

	t->bytes = t->ops = t->latency_max_ns = 0;
	t->buffer_pages = CLYDE_IOBUF_NONE;
	t->inflight_max = 0;
	t->inflight_mean = 0;
	t->refill_gap_ns = t->refill_gaps = 0;
	clyde_series_release(&t->series);
	t->series.interval_ns = 0;
	if (!t->latency) {
		t->latency = malloc(sizeof(*t->latency));
		if (t->latency)
			clyde_hist_init(t->latency);
	}
	for (unsigned i = 0; i < t->nworkers; i++) {
		struct clyde_span *s = &t->spans[i];

		if (s->hist) {
			if (t->latency)
				clyde_hist_merge(t->latency, s->hist);
			free(s->hist);
			s->hist = NULL;
		}

		/* Out of memory leaves the series marked failed. */
		(void)clyde_series_merge(&t->series, &s->series);
		t->bytes += s->bytes;
		t->ops += s->ops;
		if (s->cached_total_bytes) {
			t->cache.measured = true;
			t->cache.resident_bytes += s->resident_bytes;
			t->cache.total_bytes += s->cached_total_bytes;
		}
		if (s->latency_max_ns > t->latency_max_ns)
			t->latency_max_ns = s->latency_max_ns;
		t->buffer_pages = clyde_iobuf_pages_least(t->buffer_pages,
							  s->buffer_pages);
		if (s->inflight_max > t->inflight_max)
			t->inflight_max = s->inflight_max;
		if (s->inflight_mean > 0) {
			t->inflight_mean += s->inflight_mean;
			nmean++;
		}
		t->refill_gap_ns += s->refill_gap_ns;
		t->refill_gaps += s->refill_gaps;
		if (s->start_ns < first)
			first = s->start_ns;
		if (s->end_ns > last)
			last = s->end_ns;
	}
	if (nmean)
		t->inflight_mean /= nmean;
	t->elapsed_ns = (t->nworkers && last > first) ? last - first : 0;
}

double clyde_test_residency(const struct clyde_test_result *t)
{
	if (!t->cache.measured || !t->cache.total_bytes)
		return -1.0;
	return (double)t->cache.resident_bytes / (double)t->cache.total_bytes;
}

void *clyde_test_figs_alloc(struct clyde_test_result *t,
			    const struct clyde_target_ops *kind)
{
	if (!kind || !kind->figs_size) {
		clyde_test_figs_free(t);
		return NULL;
	}
	if (t->figs.kind != kind) {
		clyde_test_figs_free(t);
		t->figs.data = calloc(1, kind->figs_size);
		if (!t->figs.data)
			return NULL;
		t->figs.kind = kind;
	}
	memset(t->figs.data, 0, kind->figs_size);
	return t->figs.data;
}

const void *clyde_test_figs(const struct clyde_test_result *t,
			    const struct clyde_target_ops *kind)
{
	return kind && t->figs.kind == kind ? t->figs.data : NULL;
}

void clyde_test_figs_free(struct clyde_test_result *t)
{
	free(t->figs.data);
	t->figs.data = NULL;
	t->figs.kind = NULL;
}

bool clyde_test_is_io(enum clyde_test t)
{
	return t <= CLYDE_GET_BLOCK;
}

bool clyde_test_reads_back(enum clyde_test t)
{
	switch (t) {
	case CLYDE_REWRITE:
	case CLYDE_GETC:
	case CLYDE_GET_BLOCK:
	case CLYDE_SEEKS:
	case CLYDE_SEQ_STAT:
	case CLYDE_SEQ_DEL:
	case CLYDE_RAN_STAT:
	case CLYDE_RAN_DEL:
		return true;
	default:
		return false;
	}
}

double clyde_test_rate(const struct clyde_test_result *t, enum clyde_test id)
{
	if (!t->elapsed_ns)
		return 0.0;
	return (double)(clyde_test_is_io(id) ? t->bytes : t->ops) * 1e9 /
	       (double)t->elapsed_ns;
}

double clyde_test_cpu_pct(const struct clyde_test_result *t)
{
	if (!t->elapsed_ns)
		return 0.0;
	return (double)(t->cpu_user_ns + t->cpu_sys_ns) * 100.0 /
	       (double)t->elapsed_ns;
}

bool clyde_result_engine_sync(const char *name)
{
	return clyde_engine_name_sync(name);
}

unsigned clyde_run_advise(const struct clyde_run_params *p)
{
	unsigned m = !strcmp(p->pattern, "zeros") ? CLYDE_ADVISE_ZEROS : 0;

	/* The seeks read (and one in ten writes back) a random chunk each. */
	if (p->file_size_mib && p->seeks)
		m |= clyde_advise_rand(p->io_chunk);
	return m;
}

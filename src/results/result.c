#include "results/result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const test_names[CLYDE_TEST_COUNT] = {
	[CLYDE_PUTC] = "putc",
	[CLYDE_PUT_BLOCK] = "put_block",
	[CLYDE_REWRITE] = "rewrite",
	[CLYDE_GETC] = "getc",
	[CLYDE_GET_BLOCK] = "get_block",
	[CLYDE_SEEKS] = "seeks",
	[CLYDE_SEQ_CREATE] = "seq_create",
	[CLYDE_SEQ_STAT] = "seq_stat",
	[CLYDE_SEQ_DEL] = "seq_del",
	[CLYDE_RAN_CREATE] = "ran_create",
	[CLYDE_RAN_STAT] = "ran_stat",
	[CLYDE_RAN_DEL] = "ran_del",
};

const char *clyde_test_name(enum clyde_test t)
{
	return (unsigned)t < CLYDE_TEST_COUNT ? test_names[t] : "?";
}

const char *clyde_test_label(enum clyde_test id)
{
	static const char *const labels[CLYDE_TEST_COUNT] = {
		[CLYDE_PUTC] = "per-char write",
		[CLYDE_PUT_BLOCK] = "block write",
		[CLYDE_REWRITE] = "rewrite",
		[CLYDE_GETC] = "per-char read",
		[CLYDE_GET_BLOCK] = "block read",
		[CLYDE_SEEKS] = "random seeks",
		[CLYDE_SEQ_CREATE] = "sequential create",
		[CLYDE_SEQ_STAT] = "sequential stat",
		[CLYDE_SEQ_DEL] = "sequential delete",
		[CLYDE_RAN_CREATE] = "random create",
		[CLYDE_RAN_STAT] = "random stat",
		[CLYDE_RAN_DEL] = "random delete",
	};

	return (unsigned)id < CLYDE_TEST_COUNT ? labels[id] : "?";
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

	t->bytes = t->ops = t->latency_max_ns = 0;
	t->buffer_pages = CLYDE_IOBUF_NONE;
	t->inflight_max = 0;
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
		if (s->start_ns < first)
			first = s->start_ns;
		if (s->end_ns > last)
			last = s->end_ns;
	}
	t->elapsed_ns = (t->nworkers && last > first) ? last - first : 0;
}

double clyde_test_residency(const struct clyde_test_result *t)
{
	if (!t->cache.measured || !t->cache.total_bytes)
		return -1.0;
	return (double)t->cache.resident_bytes / (double)t->cache.total_bytes;
}

bool clyde_test_is_io(enum clyde_test t)
{
	return t <= CLYDE_GET_BLOCK;
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

#include "results/series_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A figure that may not be known (-1): null then. */
static void i64_or_null(struct clyde_jw *w, const char *key, int64_t v)
{
	if (v >= 0)
		clyde_jw_i64(w, key, v);
	else
		clyde_jw_null(w, key);
}

void clyde_jw_series(struct clyde_jw *w, const char *key,
		     const struct clyde_series *s)
{
	struct clyde_hist *h;

	if (!s->interval_ns) {
		clyde_jw_null(w, key);
		return;
	}
	h = malloc(sizeof(*h));
	clyde_jw_open(w, key, '{');
	clyde_jw_u64(w, "interval_ns", s->interval_ns);
	clyde_jw_u64(w, "log_interval_ns",
		     s->base_ns ? s->base_ns : s->interval_ns);
	clyde_jw_u64(w, "merged", s->base_ns ? s->interval_ns / s->base_ns : 1);
	clyde_jw_bool(w, "complete", !s->failed && h);
	if (s->has_flush)
		clyde_jw_u64(w, "flush_start_ns", s->flush_at_ns);
	else
		clyde_jw_null(w, "flush_start_ns");
	clyde_jw_open(w, "intervals", '[');
	for (size_t i = 0; i < s->n; i++) {
		const struct clyde_series_iv *iv = &s->iv[i];
		uint64_t count = h ? clyde_series_lat(s, i, h) : 0;

		clyde_jw_open(w, NULL, '{');
		clyde_jw_u64(w, "t_ns", (uint64_t)i * s->interval_ns);
		clyde_jw_u64(w, "dur_ns", clyde_series_dur(s, i));
		clyde_jw_u64(w, "bytes", iv->bytes);
		clyde_jw_u64(w, "ops", iv->ops);
		if (count) {
			clyde_jw_u64(w, "lat_count", count);
			clyde_jw_u64(w, "lat_p50_ns",
				     clyde_hist_quantile(h, 0.50));
			clyde_jw_u64(w, "lat_p99_ns",
				     clyde_hist_quantile(h, 0.99));
			clyde_jw_u64(w, "lat_max_ns", clyde_hist_max(h));
		} else if (iv->have_q && iv->q_count) {
			clyde_jw_u64(w, "lat_count", iv->q_count);
			clyde_jw_u64(w, "lat_p50_ns", iv->q_p50);
			clyde_jw_u64(w, "lat_p99_ns", iv->q_p99);
			clyde_jw_u64(w, "lat_max_ns", iv->q_max);
		} else {
			clyde_jw_u64(w, "lat_count", 0);
			clyde_jw_null(w, "lat_p50_ns");
			clyde_jw_null(w, "lat_p99_ns");
			clyde_jw_null(w, "lat_max_ns");
		}
		if (iv->dirty_bytes >= 0)
			clyde_jw_i64(w, "dirty_bytes", iv->dirty_bytes);
		else
			clyde_jw_null(w, "dirty_bytes");
		if (iv->writeback_bytes >= 0)
			clyde_jw_i64(w, "writeback_bytes", iv->writeback_bytes);
		else
			clyde_jw_null(w, "writeback_bytes");
		i64_or_null(w, "wire_sent_bytes", iv->wire_sent);
		i64_or_null(w, "wire_recv_bytes", iv->wire_recv);
		i64_or_null(w, "wire_rpcs", iv->wire_rpcs);
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
	free(h);
}

void clyde_jw_steadiness(struct clyde_jw *w, const char *key,
			 const struct clyde_series *s, bool bytes)
{
	struct clyde_series_steady st;

	if (clyde_series_steadiness(s, bytes, 0, clyde_series_write_phase(s),
				    &st) < 2) {
		clyde_jw_null(w, key);
		return;
	}
	clyde_jw_open(w, key, '{');
	/* "write" when a timed flush followed: its intervals, which hold
	 * no request, are left out (series.flush_start_ns). */
	clyde_jw_str(w, "phase", s->has_flush ? "write" : "all", 8);
	clyde_jw_u64(w, "intervals", st.n);
	clyde_jw_str(w, "unit", bytes ? "bytes" : "ops", 8);
	clyde_jw_num(w, "mean_per_s", st.mean, 3);
	clyde_jw_num(w, "cv", st.cv, 6);
	clyde_jw_num(w, "slope_per_s2", st.slope, 3);
	clyde_jw_num(w, "slope_rel_per_s", st.slope_rel, 6);
	clyde_jw_close(w, '}');
}

char *clyde_series_steady_cell(char *buf, size_t len,
			       const struct clyde_series *s, bool bytes)
{
	struct clyde_series_steady st;

	size_t wp = clyde_series_write_phase(s);
	int n;

	buf[0] = '\0';
	if (clyde_series_steadiness(s, bytes, 0, wp, &st) < 2)
		return buf;
	n = snprintf(buf, len, "cv %5.1f%%  slope %+6.2f%%/s  over %zu x %g s",
		     st.cv * 100.0, st.slope_rel * 100.0, st.n,
		     (double)s->interval_ns / 1e9);
	/* The flush apart: how long it took after the writing. */
	if (s->has_flush && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n,
			 " of writing; then flush %.3g s",
			 s->end_ns > s->origin_ns + s->flush_at_ns ?
				 (double)(s->end_ns - s->origin_ns -
					  s->flush_at_ns) /
					 1e9 :
				 0.0);
	return buf;
}

int clyde_series_text_write(FILE *f, const struct clyde_run *run)
{
	char cell[128];
	bool head = false;

	errno = 0;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_test_result *t = &run->tests[i];

		if (t->state != CLYDE_DONE ||
		    !clyde_series_steady_cell(
			    cell, sizeof(cell), &t->series,
			    clyde_test_is_io((enum clyde_test)i))[0])
			continue;
		if (!head)
			fputs("clyde: steadiness of the rate per test (full "
			      "intervals)\n",
			      f);
		head = true;
		fprintf(f, "%-10s %s\n", clyde_test_name((enum clyde_test)i),
			cell);
	}
	if (ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

/* The load options' text and JSON (dev_load_out.h). */
#include "results/dev_load_out.h"

#include <inttypes.h>

#include "results/format.h"
#include "results/json_parts.h"

static const char *name(int t)
{
	return clyde_dev_test_name((enum clyde_dev_test)t);
}

static void rate_line(FILE *f, int t, const struct clyde_dev_test_result *r)
{
	double got = clyde_dev_rate(r->ops, r->elapsed_ns);
	char mean[32], max[32];

	clyde_fmt_human_ns(mean, sizeof(mean),
			   r->ops ? (double)r->lag_sum_ns / (double)r->ops : 0);
	clyde_fmt_human_ns(max, sizeof(max), (double)r->lag_max_ns);
	fprintf(f,
		"%s: --rate %.0f requests/s asked, %.0f achieved (%.1f%%)%s; "
		"sent after their due times by %s mean, %s at most; "
		"latency from each request's due time\n",
		name(t), r->rate_asked, got, got * 100.0 / r->rate_asked,
		got < CLYDE_RATE_REACHED * r->rate_asked ?
			": the rate asked was NOT reached" :
			"",
		mean, max);
}

static void point_row(FILE *f, const char *step,
		      const struct clyde_dev_load_point *p, const char *extra)
{
	double got = clyde_dev_point_rate(p);
	char a[32], b[32], c[32], d[32], e[32], g[32];

	fprintf(f, "  %-7s %10.0f %10.0f %10s %10s %10s %10s %11s %11s%s%s%s\n",
		step, p->asked, got,
		clyde_fmt_human_ns(a, sizeof(a), (double)p->p50_ns),
		clyde_fmt_human_ns(b, sizeof(b), (double)p->p99_ns),
		clyde_fmt_human_ns(c, sizeof(c), (double)p->p999_ns),
		clyde_fmt_human_ns(e, sizeof(e), (double)p->lag_mean_ns),
		p->dev.have_device ?
			clyde_fmt_human_bytes(d, sizeof(d),
					      (double)p->dev.read_bytes) :
			"-",
		p->dev.have_device ?
			clyde_fmt_human_bytes(g, sizeof(g),
					      (double)p->dev.write_bytes) :
			"-",
		extra, clyde_dev_point_reached(p) ? "" : "  short",
		p->from_memory ? "  memory" : "");
}

static void head(FILE *f, const char *first)
{
	fprintf(f, "  %-7s %10s %10s %10s %10s %10s %10s %11s %11s\n", first,
		"asked/s", "achieved/s", "lat p50", "lat p99", "lat p99.9",
		"late mean", "dev read", "dev write");
}

static void curve_text(FILE *f, int t, const struct clyde_dev_test_result *r)
{
	char step[16];
	bool any_short = false;

	fprintf(f,
		"%s: curve below the maximum of %.0f requests/s (latency from "
		"each request's due time):\n",
		name(t), clyde_dev_rate(r->ops, r->elapsed_ns));
	head(f, "step");
	for (size_t i = 0; i < r->ncurve; i++) {
		snprintf(step, sizeof(step), "%g%%", r->curve[i].pct);
		point_row(f, step, &r->curve[i], "");
		any_short |= !clyde_dev_point_reached(&r->curve[i]);
	}
	if (any_short)
		fprintf(f,
			"  short: the step achieved under %.0f%% of the rate "
			"asked\n",
			CLYDE_RATE_REACHED * 100);
}

static void search_text(FILE *f, const struct clyde_dev_run *run, int t,
			const struct clyde_dev_search *s)
{
	char tn[48], a[32], b[32];

	clyde_lat_target_name(&run->cfg.target, tn, sizeof(tn));
	if (s->nprobes) {
		fprintf(f,
			"%s: --latency-target %s, probes (bisection below "
			"the maximum):\n",
			name(t), tn);
		head(f, "probe");
		for (size_t i = 0; i < s->nprobes; i++) {
			const struct clyde_dev_load_point *p = &s->probes[i];
			bool ok = clyde_dev_point_reached(p) &&
				  p->target_ns <= run->cfg.target.ns;

			char extra[64];

			snprintf(extra, sizeof(extra), "  p%g %s %s",
				 run->cfg.target.pctile,
				 clyde_fmt_human_ns(a, sizeof(a),
						    (double)p->target_ns),
				 ok ? "met" : "not met");
			snprintf(b, sizeof(b), "%zu", i + 1);
			point_row(f, b, p, extra);
		}
	}
	clyde_fmt_human_ns(a, sizeof(a), (double)s->max_target_ns);
	if (s->met)
		fprintf(f,
			"%s: rate at %s: %.0f requests/s (p%g %s); searched "
			"0 to %.0f (p%g %s at full speed, timed from sending) "
			"down to the bracket "
			"%.0f to %.0f in %zu runs\n",
			name(t), tn, s->rate, run->cfg.target.pctile,
			clyde_fmt_human_ns(b, sizeof(b),
					   (double)s->rate_target_ns),
			s->max, run->cfg.target.pctile, a, s->lo, s->hi,
			s->nprobes);
	else
		fprintf(f,
			"%s: rate at %s: NOT MET at any rate tried; searched "
			"0 to %.0f (p%g %s at full speed, timed from sending) "
			"down to %.0f "
			"requests/s in %zu runs, which did not keep it "
			"either\n",
			name(t), tn, s->max, run->cfg.target.pctile, a, s->hi,
			s->nprobes);
}

void clyde_dev_load_text(FILE *f, const struct clyde_dev_run *run)
{
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];

		if (!r->ran)
			continue;
		if (r->rate_asked > 0)
			rate_line(f, t, r);
		if (r->ncurve)
			curve_text(f, t, r);
		if (r->search.ran)
			search_text(f, run, t, &r->search);
	}
}

static void point_json(struct clyde_jw *w, const struct clyde_dev_load_point *p,
		       bool target)
{
	clyde_jw_open(w, NULL, '{');
	clyde_jw_num(w, "pct", p->pct, 3);
	clyde_jw_num(w, "asked_iops", p->asked, 3);
	clyde_jw_num(w, "iops", clyde_dev_point_rate(p), 3);
	clyde_jw_num(w, "bytes_per_s", clyde_dev_rate(p->bytes, p->elapsed_ns),
		     3);
	clyde_jw_bool(w, "reached", clyde_dev_point_reached(p));
	clyde_jw_u64(w, "ops", p->ops);
	clyde_jw_u64(w, "bytes", p->bytes);
	clyde_jw_u64(w, "elapsed_ns", p->elapsed_ns);
	clyde_jw_u64(w, "p50_ns", p->p50_ns);
	clyde_jw_u64(w, "p99_ns", p->p99_ns);
	clyde_jw_u64(w, "p999_ns", p->p999_ns);
	if (target)
		clyde_jw_u64(w, "target_pctile_ns", p->target_ns);
	clyde_jw_u64(w, "late_mean_ns", p->lag_mean_ns);
	clyde_jw_u64(w, "late_max_ns", p->lag_max_ns);
	clyde_jw_u64(w, "window_ns", p->window_ns);
	clyde_jw_bool(w, "from_memory", p->from_memory);
	clyde_jw_device(w, &p->dev, 0);
	clyde_jw_close(w, '}');
}

static void search_json(struct clyde_jw *w, const struct clyde_dev_run *run,
			const struct clyde_dev_search *s)
{
	char tn[48];

	clyde_lat_target_name(&run->cfg.target, tn, sizeof(tn));
	clyde_jw_open(w, "latency_target", '{');
	clyde_jw_str(w, "name", tn, sizeof(tn));
	clyde_jw_num(w, "pctile", run->cfg.target.pctile, 4);
	clyde_jw_u64(w, "target_ns", run->cfg.target.ns);
	clyde_jw_bool(w, "met", s->met);
	if (s->met) {
		clyde_jw_num(w, "iops", s->rate, 3);
		clyde_jw_u64(w, "at_iops_pctile_ns", s->rate_target_ns);
	} else {
		clyde_jw_null(w, "iops");
		clyde_jw_null(w, "at_iops_pctile_ns");
	}
	clyde_jw_num(w, "max_iops", s->max, 3);
	clyde_jw_u64(w, "max_pctile_ns", s->max_target_ns);
	clyde_jw_num(w, "bracket_lo", s->lo, 3);
	clyde_jw_num(w, "bracket_hi", s->hi, 3);
	clyde_jw_open(w, "probes", '[');
	for (size_t i = 0; i < s->nprobes; i++)
		point_json(w, &s->probes[i], true);
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

void clyde_dev_load_json(struct clyde_jw *w, const struct clyde_dev_run *run,
			 int t)
{
	const struct clyde_dev_test_result *r = &run->tests[t];

	if (r->rate_asked > 0) {
		clyde_jw_open(w, "rate", '{');
		clyde_jw_num(w, "asked_iops", r->rate_asked, 3);
		clyde_jw_num(w, "iops", clyde_dev_rate(r->ops, r->elapsed_ns),
			     3);
		clyde_jw_bool(w, "reached",
			      clyde_dev_rate(r->ops, r->elapsed_ns) >=
				      CLYDE_RATE_REACHED * r->rate_asked);
		clyde_jw_u64(w, "late_mean_ns",
			     r->ops ? r->lag_sum_ns / r->ops : 0);
		clyde_jw_u64(w, "late_max_ns", r->lag_max_ns);
		clyde_jw_str(w, "latency_from", "due", 8);
		clyde_jw_close(w, '}');
	} else {
		clyde_jw_null(w, "rate");
	}
	if (r->ncurve) {
		clyde_jw_open(w, "curve", '[');
		for (size_t i = 0; i < r->ncurve; i++)
			point_json(w, &r->curve[i], false);
		clyde_jw_close(w, ']');
	} else {
		clyde_jw_null(w, "curve");
	}
	if (r->search.ran)
		search_json(w, run, &r->search);
	else
		clyde_jw_null(w, "latency_target");
}

void clyde_dev_load_json_config(struct clyde_jw *w,
				const struct clyde_dev_config *c)
{
	if (c->rate.value > 0) {
		clyde_jw_open(w, "rate", '{');
		clyde_jw_num(w, "value", c->rate.value, 3);
		clyde_jw_str(w, "unit",
			     c->rate.bytes ? "bytes/s" : "requests/s", 16);
		clyde_jw_close(w, '}');
	} else {
		clyde_jw_null(w, "rate");
	}
	if (c->ncurve) {
		clyde_jw_open(w, "curve_pct", '[');
		for (unsigned i = 0; i < c->ncurve; i++) {
			clyde_jw_member(w, NULL);
			fprintf(w->f, "%g", c->curve_pct[i]);
		}
		clyde_jw_close(w, ']');
	} else {
		clyde_jw_null(w, "curve_pct");
	}
	if (c->target.ns) {
		char tn[48];

		clyde_lat_target_name(&c->target, tn, sizeof(tn));
		clyde_jw_open(w, "latency_target", '{');
		clyde_jw_num(w, "pctile", c->target.pctile, 4);
		clyde_jw_u64(w, "target_ns", c->target.ns);
		clyde_jw_str(w, "name", tn, sizeof(tn));
		clyde_jw_u64(w, "probes", c->target_steps);
		clyde_jw_close(w, '}');
	} else {
		clyde_jw_null(w, "latency_target");
	}
}

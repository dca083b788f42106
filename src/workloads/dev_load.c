/* --curve and --latency-target (dev_load.h). */
#include "workloads/dev_load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void clyde_dev_test_result_free(struct clyde_dev_test_result *r)
{
	free(r->latency);
	r->latency = NULL;
	clyde_series_release(&r->series);
	free(r->curve);
	r->curve = NULL;
	free(r->search.probes);
	r->search.probes = NULL;
}

void clyde_dev_point_of(const struct clyde_dev_test_result *r,
			const struct clyde_lat_target *target,
			struct clyde_dev_load_point *p)
{
	p->ops = r->ops;
	p->bytes = r->bytes;
	p->elapsed_ns = r->elapsed_ns;
	p->p50_ns = clyde_hist_quantile(r->latency, 0.50);
	p->p99_ns = clyde_hist_quantile(r->latency, 0.99);
	p->p999_ns = clyde_hist_quantile(r->latency, 0.999);
	p->target_ns = target->ns ?
			       clyde_hist_quantile(r->latency,
						   target->pctile / 100.0) :
			       0;
	p->lag_mean_ns = r->ops ? r->lag_sum_ns / r->ops : 0;
	p->lag_max_ns = r->lag_max_ns;
	p->dev = r->dev;
	p->window_ns = r->window_ns;
	p->from_memory = r->from_memory;
}

/* One rate-limited run into *p. */
static int point(struct clyde_dev_run *run, clyde_dev_step_fn step, void *arg,
		 double max, double rate, struct clyde_dev_load_point *p)
{
	struct clyde_dev_test_result r;
	int rc;

	memset(&r, 0, sizeof(r));
	memset(p, 0, sizeof(*p));
	rc = step(arg, rate, &r);
	if (rc == 0) {
		clyde_dev_point_of(&r, &run->cfg.target, p);
		p->asked = rate;
		p->pct = max > 0 ? rate * 100.0 / max : 0;
	}
	clyde_dev_test_result_free(&r);
	return rc;
}

static int curve(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		 struct clyde_dev_test_result *r, clyde_dev_step_fn step,
		 void *arg)
{
	const struct clyde_dev_config *c = &run->cfg;
	double max = clyde_dev_rate(r->ops, r->elapsed_ns);

	r->curve = calloc(c->ncurve, sizeof(*r->curve));
	if (!r->curve)
		return clyde_err(ctx, ENOMEM, "--curve");
	for (unsigned i = 0; i < c->ncurve; i++) {
		int rc = point(run, step, arg, max, max * c->curve_pct[i] / 100,
			       &r->curve[i]);

		if (rc < 0)
			return rc;
		r->curve[i].pct = c->curve_pct[i];
		r->ncurve++;
	}
	return 0;
}

/* A probe met the target: the rate reached and the percentile under. */
static bool met(const struct clyde_dev_config *c,
		const struct clyde_dev_load_point *p)
{
	return clyde_dev_point_reached(p) && p->target_ns <= c->target.ns;
}

static int search(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		  struct clyde_dev_test_result *r, clyde_dev_step_fn step,
		  void *arg)
{
	const struct clyde_dev_config *c = &run->cfg;
	struct clyde_dev_search *s = &r->search;
	struct clyde_bisect b;
	double rate;

	s->ran = true;
	s->max = clyde_dev_rate(r->ops, r->elapsed_ns);
	s->max_target_ns =
		clyde_hist_quantile(r->latency, c->target.pctile / 100.0);
	/* No short cut when the test at full speed kept the target: its
	 * latencies are a closed loop's (from each request's sending, the
	 * next sent when one completes); the probes are on a schedule, and
	 * at the maximum a schedule has no slack left. */
	s->probes = calloc(c->target_steps, sizeof(*s->probes));
	if (!s->probes)
		return clyde_err(ctx, ENOMEM, "--latency-target");
	clyde_bisect_init(&b, s->max, c->target_steps);
	while (clyde_bisect_next(&b, &rate)) {
		struct clyde_dev_load_point *p = &s->probes[s->nprobes];
		int rc = point(run, step, arg, s->max, rate, p);

		if (rc < 0)
			return rc;
		s->nprobes++;
		clyde_bisect_report(&b, met(c, p));
		if (met(c, p)) {
			s->met = true;
			s->rate = rate;
			s->rate_target_ns = p->target_ns;
		}
	}
	s->lo = b.lo;
	s->hi = b.hi;
	return 0;
}

int clyde_dev_load_run(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		       enum clyde_dev_test t, clyde_dev_step_fn step, void *arg)
{
	struct clyde_dev_test_result *r = &run->tests[t];
	int rc = 0;

	if (!r->ran || !r->ops || !r->elapsed_ns)
		return 0;
	if (run->cfg.ncurve)
		rc = curve(ctx, run, r, step, arg);
	if (rc == 0 && run->cfg.target.ns)
		rc = search(ctx, run, r, step, arg);
	return rc;
}

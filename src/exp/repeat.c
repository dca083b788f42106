/*
 * The repeats of one configuration (repeat.h).
 */
#include "exp/repeat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dist/dist.h"
#include "analysis/exp_decide.h"
#include "analysis/experiment.h"
#include "results/summary.h"
#include "store/history.h"

/* ---- the baseline --------------------------------------------------------- */

void clyde_repeat_baseline_release(struct clyde_repeat_baseline *b)
{
	for (int t = 0; t < CLYDE_TEST_COUNT; t++) {
		free(b->samples[t]);
		b->samples[t] = NULL;
		b->n[t] = 0;
	}
}

int clyde_repeat_baseline_from(struct clyde_ctx *ctx,
			       const struct clyde_loaded_run *r,
			       const char *name,
			       struct clyde_repeat_baseline *out)
{
	size_t most = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", name);
	if (r->kind != CLYDE_LOADED_BONNIE || r->ntests != CLYDE_TEST_COUNT)
		return clyde_err(ctx, EINVAL,
				 "--baseline %s: not a result of clyde run "
				 "(the bonnie++ suite)",
				 name);
	for (int t = 0; t < CLYDE_TEST_COUNT; t++) {
		const struct clyde_loaded_test *lt = &r->tests[t];

		if (!lt->nsamples)
			continue;
		out->samples[t] = malloc(lt->nsamples * sizeof(double));
		if (!out->samples[t]) {
			clyde_repeat_baseline_release(out);
			return clyde_err(ctx, ENOMEM, "--baseline %s", name);
		}
		memcpy(out->samples[t], lt->samples,
		       lt->nsamples * sizeof(double));
		out->n[t] = lt->nsamples;
		if (lt->nsamples > most)
			most = lt->nsamples;
	}
	if (most < 2) {
		clyde_repeat_baseline_release(out);
		return clyde_err(ctx, EINVAL,
				 "--baseline %s: %s; deciding needs two runs "
				 "or more on each side (a result of clyde run "
				 "-x N)",
				 name,
				 most ? "it holds one run" :
					"it holds no test with a rate");
	}
	return 0;
}

/* "12", "#12", "history:12": a history id, else 0. */
static int64_t history_id(const char *spec)
{
	const char *s = spec;
	char *end;
	long long v;

	if (*s == '#')
		s++;
	else if (!strncmp(s, "history:", 8))
		s += 8;
	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	return errno || *end || v <= 0 ? 0 : (int64_t)v;
}

/* Read a history entry's document into set. */
static int load_history(struct clyde_ctx *ctx, const char *spec, int64_t id,
			const char *db_path, struct clyde_loaded_set *set,
			char *name, size_t cap)
{
	struct clyde_history *h = NULL;
	char *doc = NULL;
	size_t len = 0;
	int rc;

	if (!clyde_history_available())
		return clyde_err(ctx, ENOTSUP,
				 "--baseline %s: no such file, and this clyde "
				 "has no results history (built without "
				 "SQLite)",
				 spec);
	if (clyde_history_open_readonly(ctx, db_path, &h) < 0)
		return -1;
	rc = clyde_history_get(ctx, h, id, NULL, &doc, &len);
	clyde_history_close(h);
	if (rc < 0)
		return -1;
	snprintf(name, cap, "history:%" PRId64, id);
	rc = clyde_loaded_read_buffer(ctx, doc, len, name, set);
	free(doc);
	return rc < 0 ? -1 : 0;
}

int clyde_repeat_baseline_load(struct clyde_ctx *ctx, const char *spec,
			       const char *db_path,
			       struct clyde_repeat_baseline *out)
{
	struct clyde_loaded_set set;
	char name[512];
	struct stat st;
	int64_t id;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	clyde_loaded_set_init(&set);
	snprintf(name, sizeof(name), "%s", spec);
	if (stat(spec, &st) == 0 || !(id = history_id(spec))) {
		if (clyde_loaded_read_file(ctx, spec, &set) < 0)
			goto out;
	} else if (load_history(ctx, spec, id, db_path, &set, name,
				sizeof(name)) < 0) {
		goto out;
	}
	if (set.nerrors) {
		clyde_err(ctx, EINVAL, "--baseline %s", set.errors[0]);
		goto out;
	}
	if (clyde_loaded_merge_repeats(ctx, &set) < 0)
		goto out;
	if (set.nruns != 1) {
		clyde_err(ctx, EINVAL,
			  "--baseline %s: %s; give one result of clyde run",
			  spec,
			  set.nruns ? "it holds more than one result" :
				      "it holds no result");
		goto out;
	}
	rc = clyde_repeat_baseline_from(ctx, &set.runs[0], name, out);
out:
	clyde_loaded_set_release(&set);
	return rc;
}

/* ---- until-decided -------------------------------------------------------- */

/*
 * Decide test t against the baseline with the sweep's rule: a two-point
 * experiment (the baseline, the runs so far) with the one metric.  Fills
 * d[0] (the baseline) and d[1] (the runs).  Returns the number of samples
 * of the runs, 0 when the test has none, or -ENOMEM.
 */
static int decide_test(const struct clyde_repeat *s, double alpha,
		       const struct clyde_run *runs, unsigned n,
		       enum clyde_test t, struct clyde_exp_decision d[2])
{
	char axis[] = "result", v0[] = "baseline", v1[] = "this run";
	char key[64], unit[16], label[64];
	char *axes[1] = { axis }, *vals0[1] = { v0 }, *vals1[1] = { v1 };
	struct clyde_exp_metric m = { key, label, unit, true, false };
	struct clyde_exp_cell c[2] = { { 0 }, { 0 } };
	struct clyde_exp_point p[2] = { { vals0, &c[0], NULL, false },
					{ vals1, &c[1], NULL, false } };
	struct clyde_exp e = { 0 };
	double *x = malloc((n ? n : 1) * sizeof(*x));
	unsigned k;

	if (!x)
		return -ENOMEM;
	k = clyde_summary_samples(runs, n, t, x);
	if (!k) {
		free(x);
		return 0;
	}
	snprintf(key, sizeof(key), "run.%s", clyde_test_name(t));
	snprintf(label, sizeof(label), "%s", clyde_test_label(t));
	snprintf(unit, sizeof(unit), "%s", clyde_summary_unit(t));
	c[0].samples = s->baseline->samples[t];
	c[0].n = s->baseline->n[t];
	c[1].samples = x;
	c[1].n = k;
	e.naxes = 1;
	e.axis_names = axes;
	e.nmetrics = 1;
	e.metrics = &m;
	e.npoints = 2;
	e.points = p;
	clyde_exp_decide(&e, s->until_decided_pct, s->cap, alpha, NULL, d);
	free(x);
	return (int)k;
}

static void say(const struct clyde_repeat *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct clyde_repeat *s, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!s->hooks.say)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->hooks.say(s->hooks.arg, msg);
}

static const char *pvalue(double p, char *buf, size_t len)
{
	if (p < 0.001)
		snprintf(buf, len, "p < 0.001");
	else
		snprintf(buf, len, "p = %.3f", p);
	return buf;
}

/*
 * Why test t stopped (or is still open), from the two decisions: the
 * figures are those of the rule, the difference of the point that is not
 * the best to the best in percent of the best's mean.  Returns true when
 * the test is decided.
 */
static bool describe(const struct clyde_repeat *s,
		     const struct clyde_exp_decision d[2], char *buf,
		     size_t len)
{
	double pct = s->until_decided_pct;
	char pv[32];

	if (d[1].stop == CLYDE_EXP_STOP_WORSE) {
		snprintf(buf, len,
			 "significantly worse than the baseline (%+.0f%% .. "
			 "%+.0f%% of its mean, %s)",
			 d[1].lo_pct, d[1].hi_pct,
			 pvalue(d[1].p, pv, sizeof(pv)));
		return true;
	}
	if (d[0].stop == CLYDE_EXP_STOP_WORSE) {
		snprintf(buf, len,
			 "significantly better than the baseline (the "
			 "baseline %+.0f%% .. %+.0f%% of this run's mean, %s)",
			 d[0].lo_pct, d[0].hi_pct,
			 pvalue(d[0].p, pv, sizeof(pv)));
		return true;
	}
	if (d[1].stop == CLYDE_EXP_STOP_EQUIV) {
		snprintf(buf, len,
			 "equivalent to the baseline within \xc2\xb1%g%% "
			 "(%+.1f%% .. %+.1f%% of its mean)",
			 pct, d[1].lo_pct, d[1].hi_pct);
		return true;
	}
	if (d[0].stop == CLYDE_EXP_STOP_EQUIV) {
		snprintf(buf, len,
			 "equivalent to the baseline within \xc2\xb1%g%% (the "
			 "baseline %+.1f%% .. %+.1f%% of this run's mean)",
			 pct, d[0].lo_pct, d[0].hi_pct);
		return true;
	}
	{
		/* Open: the point that is not the best carries the figures. */
		const struct clyde_exp_decision *o =
			d[0].stop == CLYDE_EXP_STOP_BEST ? &d[1] :
			d[1].stop == CLYDE_EXP_STOP_BEST ? &d[0] :
			d[1].lo_pct || d[1].hi_pct	 ? &d[1] :
							   &d[0];

		if (o->lo_pct == 0 && o->hi_pct == 0)
			snprintf(buf, len, "open (too few samples)");
		else
			snprintf(buf, len,
				 "open: the difference is %+.0f%% .. %+.0f%% "
				 "of %s, neither significant nor within "
				 "\xc2\xb1%g%%",
				 o->lo_pct, o->hi_pct,
				 o == &d[1] ? "the baseline's mean" :
					      "this run's mean",
				 pct);
	}
	return false;
}

/*
 * After n runs: decide every test not yet decided, saying each that is
 * (and, with `last`, each still open).  Returns the number of tests still
 * open, or -ENOMEM; *compared counts the tests with values on both sides.
 */
static int decide_tests(const struct clyde_repeat *s, double alpha,
			const struct clyde_run *runs, unsigned n,
			bool decided[CLYDE_TEST_COUNT], bool last,
			unsigned *compared)
{
	int open = 0;

	*compared = 0;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		enum clyde_test t = (enum clyde_test)i;
		struct clyde_exp_decision d[2];
		char why[512];
		int k;

		if (!s->baseline->n[t])
			continue;
		k = decide_test(s, alpha, runs, n, t, d);
		if (k < 0)
			return k;
		if (k == 0)
			continue;
		(*compared)++;
		if (decided[t])
			continue;
		if (describe(s, d, why, sizeof(why))) {
			decided[t] = true;
			say(s, "until-decided: %s decided after %u run%s: %s",
			    clyde_test_label(t), n, n == 1 ? "" : "s", why);
			continue;
		}
		open++;
		if (last)
			say(s,
			    "until-decided: %s still open after %u run%s (the "
			    "most -x allows): %s",
			    clyde_test_label(t), n, n == 1 ? "" : "s", why);
	}
	return open;
}

/* ---- the series ----------------------------------------------------------- */

int clyde_exp_repeat(struct clyde_ctx *ctx, const struct clyde_repeat *s,
		     struct clyde_run *runs, struct clyde_json_extra *extra,
		     struct clyde_repeat_out *out)
{
	struct clyde_run_dist *rd = s->rd && s->rd->d ? s->rd : NULL;
	bool leader = clyde_run_dist_leader(rd);
	bool decided[CLYDE_TEST_COUNT] = { false };
	bool deciding = s->until_decided_pct > 0 && s->baseline;
	struct clyde_summary sum[CLYDE_TEST_COUNT];
	int open = -1, ret = 0;
	bool stop;
	/* until-decided's level, the same for every run (an integration). */
	double alpha = deciding ? clyde_exp_decide_level(s->cap) : 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < s->cap; i++)
		clyde_run_init(&runs[i]);
	for (unsigned i = 0; i < s->cap; i++) {
		ret = s->hooks.run(s->hooks.arg, i, &runs[i]);
		if (rd && ret < 0)
			clyde_run_dist_remove_early(rd, ctx, s->scratch);
		if (rd)
			ret = clyde_dist_end_run(rd->d, ret, &runs[i]);
		if (ret < 0)
			return ret;
		out->done = i + 1;
		ret = leader && s->hooks.done ?
			      s->hooks.done(s->hooks.arg, runs, i) :
			      0;
		if (ret < 0)
			return ret;
		stop = ret > 0;
		/* Settled as clyde_stats_settled() says, which takes
		 * CLYDE_STATS_SETTLE_MIN_N runs at least. */
		if (s->until_stable_pct > 0 && leader)
			stop = stop ||
			       (clyde_summary_compute(runs, i + 1,
						      s->until_stable_pct,
						      sum) > 0 &&
				clyde_summary_all_settled(sum));
		if (deciding && leader && i + 1 < s->cap && !stop) {
			open = decide_tests(s, alpha, runs, i + 1, decided,
					    false, &out->ncompared);
			if (open < 0)
				return clyde_err(ctx, ENOMEM, "until-decided");
			stop = open == 0 && out->ncompared > 0;
		}
		/* Rank 0 decides for every rank (its output may end a
		 * series of -x N too). */
		if (rd && i + 1 < s->cap)
			stop = clyde_dist_agree(rd->d, stop, NULL) > 0;
		if (stop)
			break;
	}
	if (deciding && leader) {
		/* The last run (cap, or the one that decided everything):
		 * what is still open is said too. */
		open = decide_tests(s, alpha, runs, out->done, decided, true,
				    &out->ncompared);
		if (open < 0)
			return clyde_err(ctx, ENOMEM, "until-decided");
		out->nopen = (unsigned)open;
		out->decided = open == 0 && out->ncompared > 0;
	}
	extra->target_pct = s->until_stable_pct;
	extra->max_runs = s->cap;
	extra->runs_done = out->done;
	if (s->until_stable_pct > 0 &&
	    clyde_summary_compute(runs, out->done, s->until_stable_pct, sum) >=
		    0)
		extra->n_unsettled =
			clyde_summary_unsettled(sum, extra->unsettled);
	return 0;
}

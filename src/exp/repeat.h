/*
 * The repeats of one configuration: `clyde run -x N`, `--until-stable PCT`
 * and `--until-decided PCT --baseline RESULT` (docs/compare.md).  Runs the
 * workload up to `cap` times and decides after each run whether to go on:
 *
 *  - -x N alone: N runs.
 *  - until-stable: stop once every test's 95% interval is within PCT% of
 *    its mean (clyde_summary_all_settled(), the one stability rule,
 *    clyde_stats_settled()).
 *  - until-decided: stop once every test that has a value here and in the
 *    baseline is decided against the baseline by the sweep's rule
 *    (analysis/exp_decide.h, clyde_exp_decide(): significantly worse or
 *    better, or equivalent within +-PCT%), the runs and the baseline's
 *    repeats being its two points.  Each test's decision is said once,
 *    when it is reached, with its figures; after the last run every test
 *    still open is said too.  The suite's tests cannot be left out of a
 *    run one by one (the IO tests share one file, stat and delete need the
 *    created files), so the series goes on until the last test is decided
 *    or `cap` runs are made.
 *
 * Under clyde-mpi (rd) a failed run removes this rank's scratch directory
 * early when interrupted, every rank's run is merged on rank 0
 * (clyde_dist_end_run), and rank 0 decides for every rank.
 *
 * Library code: nothing here prints.  The caller makes each run (hooks.run:
 * clyde run's bonnie suite, or a fake in a test), shows it (hooks.done)
 * and prints the messages (hooks.say).
 */
#ifndef CLYDE_EXP_REPEAT_H
#define CLYDE_EXP_REPEAT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ctx.h"
#include "dist/run_dist.h"
#include "io/scratch.h"
#include "results/format.h"
#include "results/loaded.h"
#include "results/result.h"

/* What until-decided compares against: per test the baseline's per-run
 * rates in clyde_test_rate()'s units (n 0: the baseline has no value). */
struct clyde_repeat_baseline {
	char name[512]; /* as the user named it: "old.json", "history 12" */
	double *samples[CLYDE_TEST_COUNT]; /* owned */
	size_t n[CLYDE_TEST_COUNT];
};

/*
 * The baseline of `spec`: an existing file (a clyde JSON result, or
 * bonnie++/clyde CSV lines of one configuration, folded like
 * `compare --merge-repeats`), else a history id (a number, "history:N" or
 * "#N") in the history db_path (NULL: the default).  It must be one
 * result of clyde run with at least two runs of a test (the rule needs two
 * samples on each side).  Returns 0 (release with
 * clyde_repeat_baseline_release()), or a negative value with the message
 * in ctx.
 */
int clyde_repeat_baseline_load(struct clyde_ctx *ctx, const char *spec,
			       const char *db_path,
			       struct clyde_repeat_baseline *out);

/* The same from one loaded run (a clyde run result): 0 or a negative
 * value (ctx). */
int clyde_repeat_baseline_from(struct clyde_ctx *ctx,
			       const struct clyde_loaded_run *r,
			       const char *name,
			       struct clyde_repeat_baseline *out);

void clyde_repeat_baseline_release(struct clyde_repeat_baseline *b);

struct clyde_repeat_hooks {
	void *arg;
	/* Make run i (from 0) into run, already clyde_run_init()ed.  Returns
	 * 0, or a negative errno with the message in the context (-EINTR:
	 * interrupted). */
	int (*run)(void *arg, unsigned i, struct clyde_run *run);
	/* On the leader: run i is complete (runs[0..i]); show it.  Returns 0,
	 * 1 to end the series with the runs made so far (an output that can
	 * show no more: they still go to the JSON and the history), or a
	 * negative errno that ends it in failure. */
	int (*done)(void *arg, const struct clyde_run *runs, unsigned i);
	/* On the leader: a message for the user (until-decided's decisions),
	 * one line without its newline.  NULL: not said. */
	void (*say)(void *arg, const char *msg);
};

struct clyde_repeat {
	unsigned cap;		  /* the most runs (-x N, --max-runs) */
	double until_stable_pct;  /* > 0: until-stable */
	double until_decided_pct; /* > 0: until-decided against baseline */
	const struct clyde_repeat_baseline *baseline;
	struct clyde_run_dist *rd;     /* clyde-mpi's ranks, or NULL */
	struct clyde_scratch *scratch; /* this rank's, for rd */
	struct clyde_repeat_hooks hooks;
};

/* What the series gave, besides the runs. */
struct clyde_repeat_out {
	unsigned done;	    /* runs made */
	bool decided;	    /* until-decided: every comparable test decided */
	unsigned nopen;	    /* until-decided: tests still open at the end */
	unsigned ncompared; /* until-decided: tests with values on both sides */
};

/*
 * Run the series into runs[0..s->cap) (each clyde_run_init()ed here; the
 * caller releases runs[0..cap) either way).  On return out->done runs are
 * complete, and extra's until-stable fields (target_pct, max_runs,
 * runs_done, the unsettled tests) are filled in for the JSON.  Returns 0,
 * or the negative errno of the run or hook that failed (the message in
 * the context).
 */
int clyde_exp_repeat(struct clyde_ctx *ctx, const struct clyde_repeat *s,
		     struct clyde_run *runs, struct clyde_json_extra *extra,
		     struct clyde_repeat_out *out);

#endif

/*
 * An experiment's results, ready to be analysed: the model `clyde sweep`
 * fills from the results history and that the experiment table, the plain
 * sentences and the experiment report read.
 *
 * An experiment has axes (a name each, e.g. "chunk", "scs") and points
 * (one value per axis, as the user wrote it: "64k", "4096", "ext4").  For
 * every point and every metric it holds the samples of the repeats that
 * finished (raw numbers in the metric's base unit, never formatted).  A
 * point whose every run failed has `failed` set and may have no samples.
 *
 * Metric keys are "<workload>.<figure>": "run.put_block" (B/s, higher is
 * better), "run.seq_create" (ops/s), "tree.stat_walk" (ops/s),
 * "time.<name>" (seconds of a timed command, lower is better),
 * "time.<name>.cpu" (CPU seconds), "time.<name>.write_bytes" (bytes the
 * device moved during the command: an amount, neither higher nor lower is
 * better), and so on.  Units are base units:
 * "B/s", "ops/s", "s", "ns", "%".
 *
 * Ownership: everything reachable from a struct clyde_exp is owned by it
 * (heap strings and arrays) and released by clyde_exp_release().
 */
#ifndef CLYDE_ANALYSIS_EXPERIMENT_H
#define CLYDE_ANALYSIS_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

struct clyde_exp_metric {
	char *key;	    /* "run.put_block" */
	char *label;	    /* "block write" */
	char *unit;	    /* "B/s", "ops/s", "s" */
	bool higher_better; /* rates: true; seconds: false */
	bool amount;	    /* an amount with no direction (a timed command's
			     * device bytes): never best, shown as a ratio
			     * to the least; higher_better is then ignored */
};

/* A metric's course over one run: per interval its rate (the metric's
 * unit) and the host's dirty memory (bytes, negative when not read), of a
 * clyde result's time series (the JSON's "series"). */
struct clyde_exp_series {
	size_t n; /* intervals; 0: none */
	double interval_s;
	double *rate;  /* n, owned */
	double *dirty; /* n, owned */
};

struct clyde_exp_cell {
	double *samples; /* one per finished repeat, in run order */
	size_t n;
	size_t nimprecise; /* of them, rates of tests that ran under 0.5 s
			    * (bonnie++'s +++++: measured, imprecise) */
	size_t ninflated;  /* of them, inflated by a mount or export setting
			    * (an NFS test's "inflated_by": async export) */
	size_t ndegraded;  /* of them, measured while an md array lost
			    * members (the result's "degraded_during") */
	/* The time series of the first repeat that has one of two
	 * intervals or more (n 0: none). */
	struct clyde_exp_series series;
};

struct clyde_exp_point {
	char **values; /* naxes strings: this point's axis values */
	struct clyde_exp_cell *cells; /* nmetrics cells */
	char *config;		      /* free text: the stack/configuration seen
				       * at this point (may be NULL) */
	bool failed;		      /* no run of this point finished */
};

struct clyde_exp {
	char *id;    /* the experiment id in the history */
	char *title; /* the experiment file's title or name */
	char *command; /* "clyde sweep FILE --define a=1" as it was run (or NULL) */
	char *machine; /* "host box, kernel 6.1, CPU ..." of its first run
			* that recorded one (or NULL) */
	size_t naxes;
	char **axis_names;
	size_t nmetrics;
	struct clyde_exp_metric *metrics;
	size_t npoints;
	struct clyde_exp_point *points; /* in the order of the experiment file */
	size_t ndeleted; /* samples whose run was deleted from the history
			  * (clyde history delete): resume measures them */
};

/* Free everything a clyde_exp owns and zero it.  Safe on a zeroed one. */
void clyde_exp_release(struct clyde_exp *e);

#endif

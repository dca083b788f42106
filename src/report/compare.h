/*
 * The compare table: loaded runs side by side, tests as rows, runs as
 * columns, and its renderers (plain text, Markdown, CSV).  `clyde
 * compare`, `clyde history compare` and the HTML report all show this one
 * model, so they always agree.
 *
 * Rows.  Per test (bonnie++ order; tree phases after), up to four rows:
 * the rate, CPU %, the maximum latency and the 99th-percentile latency;
 * a row is left out when no run has anything for it.  A rate row has one
 * unit, chosen from its largest value (KiB/s, MiB/s, GiB/s for IO rates;
 * seeks/s, files/s as they are) and shown in the row's label; a latency
 * cell carries its own unit ("215 us", "1.20 s"), so that no cell reads
 * 0.000215 s.  Numbers follow clyde_fmt_readable(): a row of whole
 * numbers (a CSV's files/s) shows no decimals.
 *
 * Comparable runs.  The settings a test depends on (settings.h: file
 * size, chunk, -D for the IO tests; file count, sizes, directories for
 * the file tests) split the runs of a row into settings groups; the
 * scopes[] of the table say which settings differ and each cell carries
 * its group.  Every writer names the differing settings next to the table.
 *
 * Marks.  The best value of a rate row (highest) or latency row (lowest)
 * is marked among the runs of one settings group, when at least two of
 * them have a value and they do not all show the same number.  When the
 * best and the runner-up both have repeats, the one rule of
 * analysis/decide.h (the rule of sweeps and run -x: Welch's t-test on
 * log values at 95%, equivalence within +-5%) decides every run with
 * repeats against the best (decided, verdict): the best is marked alone
 * when every one is worse, else each that is not worse is marked too (a
 * tie, any_best_tie: equivalent, any_best_equivalent, or the data cannot
 * tell, any_best_cannot_tell), and the best is not marked when one is
 * better than it (no mark points at a run the rule calls worse).  With a
 * single sample on the best or the runner-up the mark is by value only
 * (best_by_value; values that show alike are marked alike) and the
 * legends say "single sample".  CPU
 * rows get no mark: the lowest CPU of a slower run is no achievement.  A
 * TOO_FAST rate is never 0: it shows as "too fast" (a CSV's "+++++") or,
 * when a clyde JSON recorded the number, as that number prefixed with
 * "~" (imprecise), and that number is ranked and shaded like any other.
 * Flags.  A figure measured under a condition that makes it not the
 * storage's alone (results/loaded.h: served from memory, a busy device,
 * a degraded array, the page cache not controlled) carries the flag in
 * every cell of its test; every writer shows it beside the figure.  In
 * a settings group where some ranked figure has no flag, the flagged
 * ones are not ranked (unranked: never marked best over an unflagged
 * figure, and they take no mark from it); a group of flagged figures
 * only is ranked among them, the flags shown beside the mark.
 * Runs made alike (every recorded setting, the machine, the filesystem,
 * its mount options and the device the same) whose rates differ 2x or
 * more are all flagged (runs_disagree: identical runs, wildly different
 * results); runs of one settings group on different filesystems are
 * expected to differ and are not.  With a baseline each other column also shows its
 * change in percent against it.  When the reference run (the baseline,
 * else the first run) and another run both have two or more samples of a
 * rate, the same rule says whether the difference is significant (better
 * or worse).
 *
 * Spread.  A rate with two or more samples (repeats) has the half-width
 * of its 95% confidence interval (Student's t) in its cell, shown as
 * "mean ±ci"; its repeats "disagree" when the largest is at least twice
 * the smallest (clyde_loaded_test_disagree()), marked "!".
 *
 * Labels are the runs' names, made unique by appending "#2", "#3", ...
 * to repeats ("vm", "vm#2"); an empty name becomes "run<N>".  The caller
 * may override them (--label).
 */
#ifndef CLYDE_REPORT_COMPARE_H
#define CLYDE_REPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/decide.h"
#include "core/ctx.h"
#include "results/loaded.h"
#include "report/settings.h"

enum clyde_cmp_metric {
	CLYDE_CMP_RATE = 0,
	CLYDE_CMP_CPU,
	CLYDE_CMP_LAT_MAX,
	CLYDE_CMP_LAT_P99,
};

/* "rate", "cpu", "latency max", "latency p99". */
const char *clyde_cmp_metric_name(enum clyde_cmp_metric m);

enum clyde_cmp_sig {
	CLYDE_CMP_SIG_NONE = 0, /* not tested: too few samples, or reference */
	CLYDE_CMP_SIG_YES,	/* better or worse (analysis/decide.h) */
	CLYDE_CMP_SIG_NO,
};

struct clyde_cmp_cell {
	/* NOT_RUN (empty), SKIPPED, TOO_FAST or VALUE; CPU and latency
	 * cells are VALUE when known, else the rate's state when it is
	 * TOO_FAST or SKIPPED, else NOT_RUN. */
	enum clyde_loaded_state state;
	bool has_value;
	double value; /* in the row's base unit (B/s, %, ns, ...) */
	size_t n;     /* samples behind the value (1 without repeats) */
	bool best;
	bool has_change; /* baseline given, both values known, base != 0 */
	double change_pct;
	enum clyde_cmp_sig sig;
	double p;      /* the rule's p when sig != NONE */
	double ci95;   /* rate rows, n >= 2: CI half-width, base unit; else 0 */
	bool disagree; /* rate rows: the repeats disagree wildly */
	bool best_by_value; /* best on a single sample (its or the
			     * runner-up's): by value, noise not measured */
	bool decided;	    /* rate rows: decided against the best of its
			     * settings group (both with repeats) */
	enum clyde_verdict verdict; /* then: this run against that best */
	bool runs_disagree; /* rate rows: runs made alike (every recorded
			     * setting, machine, filesystem, device the
			     * same) differ 2x or more */
	size_t twins;	    /* with runs_disagree: the first column of the
			     * runs made alike with this one */
	unsigned cls;	/* settings group within the row's scope (0, 1, ...) */
	unsigned flags; /* the test's CLYDE_LOADED_FLAG_* (every metric) */
	bool unranked;	/* flagged, in a settings group with unflagged
			 * figures: neither marked nor ranked */
};

struct clyde_cmp_row {
	char test[32];
	enum clyde_loaded_group group;
	enum clyde_cmp_metric metric;
	char base_unit[16]; /* "B/s", "seeks/s", "%", "ns", ... */
	bool higher_better;
	char unit[16];		      /* shown: "MiB/s", ...; "" per cell */
	double divisor;		      /* shown value = value / divisor */
	bool whole;		      /* every value is a whole number */
	enum clyde_scope scope;	      /* whose settings split the runs */
	struct clyde_cmp_cell *cells; /* ncols, owned */
};

/* How the runs split on the settings of one scope. */
#define CLYDE_CMP_MAX_KEYS 16
struct clyde_cmp_scope {
	bool used;	 /* some row of this scope is in the table */
	size_t nclasses; /* settings groups among the runs (>= 1) */
	unsigned *cls;	 /* ncols: each run's group (0 when it has no test) */
	bool *in;	 /* ncols: the run has a test of this scope */
	size_t nkeys;	 /* the settings that differ (static strings) */
	const char *keys[CLYDE_CMP_MAX_KEYS];
};

struct clyde_compare {
	size_t ncols;
	char **labels;			      /* ncols, owned, unique */
	const struct clyde_loaded_run **runs; /* ncols, borrowed */
	long baseline;			      /* column index, or -1 */
	size_t ref;   /* the significance reference column */
	bool any_sig; /* some cell has sig != NONE */
	size_t nrows;
	struct clyde_cmp_row *rows; /* owned */
	struct clyde_cmp_scope scopes[CLYDE_SCOPE_COUNT];
	bool any_ci;		   /* some cell has a CI */
	bool any_disagree;	   /* some cell's repeats disagree */
	bool any_best_by_value;	   /* some best is on single samples */
	bool any_best_tie;	   /* some best ties: not beyond noise */
	bool any_best_equivalent;  /* some marked run is equivalent to the
				    * best */
	bool any_best_cannot_tell; /* some marked run: cannot tell */
	bool any_runs_disagree;	   /* some identical runs differ 2x */
	unsigned any_flags;	   /* the flags of every cell, or'ed */
	bool any_unranked;	   /* some flagged cell was not ranked */
};

struct clyde_compare_opts {
	/* Labels for the first nlabels runs (more than runs: -EINVAL); the
	 * others keep theirs.  Borrowed. */
	const char *const *labels;
	size_t nlabels;
	long baseline; /* 1-based run number, 0 for none */
};

/*
 * Build the table of every run in `set` (borrowed: it must outlive cmp).
 * Returns 0; -EINVAL (recorded in ctx) when the set has no runs, the
 * baseline is out of range or there are more labels than runs; -ENOMEM.
 */
int clyde_compare_build(struct clyde_ctx *ctx,
			const struct clyde_loaded_set *set,
			const struct clyde_compare_opts *opts,
			struct clyde_compare *cmp);

void clyde_compare_release(struct clyde_compare *cmp);

enum clyde_compare_format {
	CLYDE_COMPARE_TEXT = 0,
	CLYDE_COMPARE_MARKDOWN,
	CLYDE_COMPARE_CSV,
};

/*
 * Write the table.
 *  - text: a header line per column label, aligned columns, the best
 *    value followed by " *" (" *=" a run marked as equivalent to the
 *    best, " *?" one the data cannot tell from it), a CI as " ±4.5", "!" for repeats that
 *    disagree, a settings group letter " [A]" in rows whose runs differ
 *    in settings, a baseline change column "+12.3%" after each
 *    non-baseline run, "(s)" / "(ns)" after a value that the rule
 *    found significantly different / not; a legend follows the table (the
 *    marks, the settings groups and what differs between them), then one
 *    "label: source (format, date)" line per run.
 *  - markdown: the same cells in a pipe table, best values in bold; only
 *    what would break the table or start markup is escaped (| \ ` * < >
 *    [ ]).
 *  - csv: for spreadsheets, one line per run (compare_csv.c): the run's
 *    label, source, format, repeats, date and its differing settings, then
 *    per row a value column in the base unit named in the header
 *    ("put_block rate (B/s)", "seq_create latency max (ns)"), and for rate
 *    rows the CI, state ("too fast", "imprecise", "skipped", "not run",
 *    "repeats disagree", "runs disagree" (runs_disagree) or empty),
 *    best (yes/no/not compared), settings group, change and
 *    significance (yes/no/not tested) in their own columns.
 * Returns 0, or a negative errno when the stream failed.
 */
int clyde_compare_write(FILE *f, const struct clyde_compare *cmp,
			enum clyde_compare_format fmt);

/*
 * A cell as the tables show it, without marks: "123.4", "~98.0",
 * "215 us" (latency rows carry their unit), "too fast", "skipped" or ""
 * (not run).  Returns buf (len >= 32 is always enough).
 */
char *clyde_compare_cell_text(char *buf, size_t len,
			      const struct clyde_cmp_row *row,
			      const struct clyde_cmp_cell *cell);

/* The cell's text followed by its flags, as the tables show a ranked
 * figure: "1513 (memory)", "~98.0 (busy, degraded)".  Returns buf. */
char *clyde_compare_flagged_text(char *buf, size_t len,
				 const struct clyde_cmp_row *row,
				 const struct clyde_cmp_cell *cell);

/* Why a marked cell shares the mark of its group's best: "equivalent to
 * the best" or "cannot tell from the best" (decided by the rule, compare
 * .h), else NULL (the best itself, a clear best, or by value). */
const char *clyde_compare_tie_text(const struct clyde_cmp_cell *cell);

/* The CI half-width of a cell in the row's shown unit ("4.5"), or "" when
 * it has none.  Returns buf. */
char *clyde_compare_ci_text(char *buf, size_t len,
			    const struct clyde_cmp_row *row,
			    const struct clyde_cmp_cell *cell);

/* The row's label: "put_block MiB/s", "put_block CPU %", "seq_create
 * lat max", "seeks lat p99".  Returns buf. */
char *clyde_compare_row_label(char *buf, size_t len,
			      const struct clyde_cmp_row *row);

/* A change in percent: "+12.3%", "-1234%" (no decimal from 1000%).
 * Returns buf. */
char *clyde_compare_change_text(char *buf, size_t len, double pct);

/* The settings group's name: "A", "B", ... ("Z", then "G27"...). */
char *clyde_compare_class_name(char *buf, size_t len, unsigned cls);

/* The scope's differing settings as one line, "files, max size,
 * directories"; "" when its runs are alike.  Returns buf. */
char *clyde_compare_scope_keys(char *buf, size_t len,
			       const struct clyde_cmp_scope *sc);

/* Do scopes a and b split the runs alike, on the same settings (so that
 * a legend tells them once: "IO tests and seeks")? */
bool clyde_compare_scope_same(const struct clyde_compare *cmp, size_t a,
			      size_t b);

/* Settings group `cls` of scope sc described by run col's values:
 * "files 131072, max size 64k, directories 512".  Returns buf. */
char *clyde_compare_class_text(char *buf, size_t len,
			       const struct clyde_compare *cmp,
			       const struct clyde_cmp_scope *sc, size_t col);

/* Writers (compare_text.c, compare_csv.c): see clyde_compare_write(). */
int clyde_compare_write_text(FILE *f, const struct clyde_compare *cmp,
			     bool markdown);
int clyde_compare_write_csv(FILE *f, const struct clyde_compare *cmp);

/* The legend's lines for the flags of the table's cells (compare.h,
 * Flags): "(memory) served from a page cache, not the storage", and
 * whether flagged figures were left out of the ranking. */
void clyde_compare_write_flags(FILE *f, const struct clyde_compare *cmp);

/* The text and Markdown "what differs" part (compare_differs.c): the
 * settings not the same in all results with each run's value; nothing
 * when they are alike.  0 or -ENOMEM. */
int clyde_compare_write_differs(FILE *f, const struct clyde_compare *cmp);

/* Are some runs fio's jobs and some clyde's results?  Then a key that one
 * kind of source leaves out in every run while the other records it in
 * every run with one value tells only where the runs came from: "what
 * differs" (text, Markdown, HTML) folds such keys into one line per side,
 * "recorded by fio only (rr): ...".  clyde_compare_one_sided() says
 * whether `key` is one of them for fio (`fio` true) or clyde. */
bool clyde_compare_fio_and_clyde(const struct clyde_compare *cmp);
bool clyde_compare_one_sided(const struct clyde_compare *cmp, const char *key,
			     bool fio);

/*
 * The config keys of the runs, each once, in the order first seen; with
 * `differing` only those whose value is not the same in every run (a
 * value one run lacks counts as different; with one run none differ).
 * Returns a malloc'd array of borrowed strings (*n of them; NULL with
 * *n == 0 when there are none, NULL with *n != 0 when out of memory).
 */
const char **clyde_compare_keys(const struct clyde_compare *cmp, bool differing,
				size_t *n);

/* Is config key `key` not the same in every run (see above)? */
bool clyde_compare_key_differs(const struct clyde_compare *cmp,
			       const char *key);

/* A run's start as "2026-12-01 02:23 UTC", or "" when not recorded. */
char *clyde_compare_run_date(char *buf, size_t len,
			     const struct clyde_loaded_run *r);

#endif

/*
 * The compare table: loaded runs side by side, tests as rows, runs as
 * columns, and its renderers (plain text, Markdown, CSV).  `clyde
 * compare`, `clyde history compare` and the HTML report all show this one
 * model, so they always agree.
 *
 * Rows.  Per test (bonnie++ order; tree phases after), up to four rows:
 * the rate, CPU %, the maximum latency and the 99th-percentile latency;
 * a row is left out when no run has anything for it.  Each row has one
 * unit, chosen from its largest value (B/s, KiB/s, MiB/s or GiB/s for IO
 * rates; us, ms or s for latencies) and shown in the row's label.
 *
 * Marks.  The best value of a row is marked (rates: highest; CPU and
 * latency: lowest) when at least two runs have a value and they are not
 * all equal.  A TOO_FAST rate is never best and never 0: it shows as "too
 * fast" (a CSV's "+++++") or, when a clyde JSON recorded the number,
 * as that number prefixed with "~".  With a baseline each other column
 * also shows its change in percent against it.  When the reference run
 * (the baseline, else the first run) and another run both have two or
 * more samples of a rate, Welch's t-test at 95% says whether the
 * difference is significant.
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

#include "core/ctx.h"
#include "report/loaded.h"

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
	CLYDE_CMP_SIG_YES,	/* p < 0.05 */
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
	double p; /* Welch's p when sig != NONE */
};

struct clyde_cmp_row {
	char test[32];
	enum clyde_loaded_group group;
	enum clyde_cmp_metric metric;
	char base_unit[16]; /* "B/s", "seeks/s", "%", "ns", ... */
	bool higher_better;
	char unit[16];		      /* shown: "MiB/s", "ms", ... */
	double divisor;		      /* shown value = value / divisor */
	struct clyde_cmp_cell *cells; /* ncols, owned */
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

/* "text", "markdown" (or "md"), "csv".  Returns 0 or -EINVAL. */
int clyde_compare_parse_format(const char *s, enum clyde_compare_format *f);

/*
 * Write the table.
 *  - text: a header line per column label, aligned columns, the best
 *    value followed by " *", a baseline change column "+12.3%" after
 *    each non-baseline run, "(s)" / "(ns)" after a change (or value)
 *    that Welch's test found significant / not significant; a legend
 *    follows the table, then one "label: source (format)" line per run.
 *  - markdown: the same cells in a pipe table, best values in bold.
 *  - csv: one header line "test,metric,unit,<label>...[,<label> change
 *    %...],best", then one line per row: plain numbers in the row's unit
 *    (no marks), "too fast", "skipped" or empty; fields holding a comma,
 *    quote or line break are quoted (RFC 4180).
 * Returns 0, or a negative errno when the stream failed.
 */
int clyde_compare_write(FILE *f, const struct clyde_compare *cmp,
			enum clyde_compare_format fmt);

/*
 * A cell as the text table shows it, without marks: "123.4", "~98.0",
 * "too fast", "skipped" or "" (not run).  Returns buf (len >= 32 is
 * always enough).
 */
char *clyde_compare_cell_text(char *buf, size_t len,
			      const struct clyde_cmp_row *row,
			      const struct clyde_cmp_cell *cell);

/* The row's label: "put_block MiB/s", "put_block CPU %", "seq_create
 * lat max ms", "seeks lat p99 us".  Returns buf. */
char *clyde_compare_row_label(char *buf, size_t len,
			      const struct clyde_cmp_row *row);

#endif

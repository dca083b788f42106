/*
 * The experiment table: one row per point (its axis values first), one
 * column per metric of the experiment (narrow them first with
 * clyde_exp_select()), in three formats:
 *  - text and markdown: each cell is "mean ± h" in a unit chosen per
 *    column (MiB/s, files/s, s, ms, ...), h the 95% confidence half-width;
 *    "(n=K)" when the points do not all have the same number of samples;
 *    a single sample is "mean (n=1)" (no interval, no test); a point
 *    whose every run failed is "failed"; an amount metric's cell adds
 *    its ratio to the least ("x2.00"); then the mark of
 *    clyde_exp_mark() (★ clear best, * worse, ~ cannot tell, =
 *    equivalent, a tie's best marked as its runner-up).  The legend
 *    follows the table.
 *  - csv: raw numbers in the metric's base unit, per metric the columns
 *    KEY.mean, KEY.ci95 (empty when n < 2), KEY.n, KEY.significant
 *    (best; top for a best that does not beat the runner-up; yes; no;
 *    equivalent; or empty when not tested) and KEY.flags (the table's
 *    ?, ! and degraded by name: "imprecise", "disagree", "degraded",
 *    separated by spaces; empty when none), after the axis columns and a
 *    status column (ok or failed).
 * Rules and the legend: docs/sweep-report.md.
 */
#ifndef CLYDE_REPORT_EXP_TABLE_H
#define CLYDE_REPORT_EXP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/exp_analysis.h"
#include "analysis/experiment.h"

enum clyde_exp_format {
	CLYDE_EXP_TEXT = 0,
	CLYDE_EXP_MARKDOWN,
	CLYDE_EXP_CSV,
};

/* The legend printed under a text or markdown table (one line). */
extern const char clyde_exp_legend[];

/*
 * The text of one cell without its mark, in unit u: "512.3 ± 4.1",
 * "512.3 (n=1)", "512.3 ± 4.1 (n=3)" when show_n, "failed", or "-" for
 * a point with no sample.
 */
void clyde_exp_cell_text(char *buf, size_t len,
			 const struct clyde_exp_point *pt,
			 const struct clyde_exp_cellstat *cs,
			 const struct clyde_exp_unit *u, bool show_n);

/* Do the points with a value have different sample counts for metric
 * ms (so that each cell shows its n)? */
bool clyde_exp_counts_differ(const struct clyde_exp_mstat *ms, size_t npoints);

/*
 * Write the table of e to f in fmt.  Returns 0, -ENOMEM, or -EIO when
 * the stream has an error.
 */
int clyde_exp_table_write(FILE *f, const struct clyde_exp *e,
			  enum clyde_exp_format fmt);

#endif

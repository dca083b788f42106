/*
 * When did a machine's results change, and what changed with them: the
 * runs of the history cut into comparable series, each figure of each
 * series searched for change points (analysis/changepoint.h), and each
 * change told with its size, its p-value and what differs between the
 * last run before it and the first after it (compare's "what differs",
 * compare_differs.c).  `clyde history changes` prints it; `clyde history
 * report` marks it on the series charts.
 *
 * Comparable series.  Runs are in one series when they were made on the
 * same machine and storage stack with the same settings:
 *   - the same kind (bonnie, tree, dev, fio), host (a CSV line's name),
 *     filesystem, mount point and disk: the stack's shape.  What may
 *     change under it -- kernel, mount options, firmware, tunables such
 *     as read-ahead or the scheduler -- is not part of the series: it is
 *     what a change is explained by;
 *   - per settings scope (report/settings.h: the IO tests, seeks, the
 *     file tests), the settings compare uses to tell settings groups
 *     apart (file size, chunk, O_DIRECT, engine, depth, file counts...),
 *     so a 1 GiB run and a 16 GiB run are never one series.  Tree, dev
 *     and fio runs use every setting of the table.
 * Within a series runs are in the order given (the caller gives them
 * oldest first); a figure's series is the runs that have a value for it
 * (a "+++++" or a skipped test is left out).
 *
 * Everything borrows the runs; nothing prints except the writer.
 */
#ifndef CLYDE_REPORT_HISTORY_CHANGES_H
#define CLYDE_REPORT_HISTORY_CHANGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/changepoint.h"
#include "core/ctx.h"
#include "report/settings.h"
#include "results/loaded.h"

/* One run of the history (borrowed), in time order. */
struct clyde_changes_run {
	int64_t id;
	const struct clyde_loaded_run *run;
};

struct clyde_changes_series {
	size_t *runs; /* indices into the runs given, in order (owned) */
	size_t n;
	enum clyde_scope scope;
	char *what; /* "host vm1, xfs at /mnt/t on sdb; file size 64.0 MiB,
		     * ..." (owned) */
};

struct clyde_changes_item {
	size_t series;		/* index into series[] */
	size_t order;		/* the figure's place in the series' runs */
	char test[32];		/* "put_block" */
	char unit[16];		/* the rate's: "B/s", "files/s", ... */
	size_t before, after;	/* runs[] indices: last before, first after */
	size_t nbefore, nafter; /* values in the segments either side */
	double median_before, median_after;
	double p;
};

struct clyde_changes {
	struct clyde_changes_series *series;
	size_t nseries;
	struct clyde_changes_item *items; /* by series, then time, then test */
	size_t nitems;
	size_t nfigures; /* figures of series long enough to search */
	size_t nshort;	 /* figures with fewer than 2 * min_segment values */
};

/*
 * Cut runs[0..n) into series and find the changes of every figure with
 * the options o.  Returns 0 with *out filled (clyde_changes_release() it),
 * or a negative errno recorded in ctx (-EINVAL for options out of range,
 * -ENOMEM).
 */
int clyde_changes_find(struct clyde_ctx *ctx,
		       const struct clyde_changes_run *runs, size_t n,
		       const struct clyde_cp_opts *o,
		       struct clyde_changes *out);

void clyde_changes_release(struct clyde_changes *c);

/*
 * The changes as text: per series with a change a line naming it, then
 * per change (the runs either side, their dates) one line per figure --
 * "put_block: 812.3 -> 650.1 MiB/s (x0.80, -20.0%), p 0.0002 (confidence
 * 99.98%), 30 runs before, 10 after" -- and what differs between the two
 * runs; a last line counts them ("no change found in ..." when there is
 * none).  Returns 0, or a negative errno when the stream failed or memory
 * ran out.
 */
int clyde_changes_write_text(FILE *f, const struct clyde_changes *c,
			     const struct clyde_changes_run *runs,
			     const struct clyde_cp_opts *o);

/*
 * The change points among the columns of cmp (its runs in column order,
 * the order `clyde history report` shows them) as marks for the report's
 * throughput charts (report/html.h).  *marks is malloc'd (*n of them;
 * NULL when none): the caller frees it.  Returns 0 or a negative errno
 * (in ctx).
 */
struct clyde_compare;
struct clyde_html_mark;
int clyde_changes_marks(struct clyde_ctx *ctx, const struct clyde_compare *cmp,
			const struct clyde_cp_opts *o,
			struct clyde_html_mark **marks, size_t *n);

#endif

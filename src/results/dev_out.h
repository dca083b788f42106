/*
 * Writers for one `clyde dev` run: a text table (tests as rows), the JSON
 * record ("kind": "dev", schema_version 1, docs/dev.md), one CSV line, and
 * zcav's own gnuplot text (zcav_out.c).
 *
 * Every writer returns 0, or a negative errno when the stream reported an
 * error.  Numbers with a fraction use '.' whatever the locale says.
 *
 * CSV: clyde_dev_csv_header() writes the column names; clyde_dev_csv_write()
 * one line with exactly CLYDE_DEV_CSV_FIELDS fields, the run's fields then
 * CLYDE_DEV_CSV_TEST_FIELDS per test (empty when it did not run).
 */
#ifndef CLYDE_RESULTS_DEV_OUT_H
#define CLYDE_RESULTS_DEV_OUT_H

#include <stdio.h>

#include "results/dev_result.h"

/* Version 2 added the run's pattern and each test's inflight_max and
 * from_memory (69 fields; version 1 had 58). */
#define CLYDE_DEV_CSV_FORMAT "clyde-dev-2"
#define CLYDE_DEV_CSV_RUN_FIELDS 14
#define CLYDE_DEV_CSV_TEST_FIELDS 11
#define CLYDE_DEV_CSV_FIELDS        \
	(CLYDE_DEV_CSV_RUN_FIELDS + \
	 CLYDE_DEV_CSV_TEST_FIELDS * CLYDE_DEV_TEST_COUNT)

int clyde_dev_text_write(FILE *f, const struct clyde_dev_run *run,
			 const char *version);
int clyde_dev_json_write(FILE *f, const struct clyde_dev_run *run,
			 const char *version);
int clyde_dev_csv_header(FILE *f);
/*
 * Whether a line can be appended to the CSV file at path: 0 when it is
 * missing or empty, or its first line is this format's header; -EINVAL
 * with the reason in why (len bytes; "its header is not clyde-dev-2's
 * (58 fields, format clyde-dev-1)") when it holds something else, so that
 * no line of another format is appended to it; -errno when it cannot be
 * read.
 */
int clyde_dev_csv_check(const char *path, char *why, size_t len);
int clyde_dev_csv_write(FILE *f, const struct clyde_dev_run *run,
			const char *version);

/*
 * zcav's output, as bonnie++'s zcav prints it for gnuplot: with more than
 * one pass a "# Read N megs in S seconds, R megabytes per second." line per
 * pass and "#loops: N", then "#block offset (GiB), MiB/s, time" and one
 * line per position, "%.2f %.2f %.3f" (offset in GiB, MiB/s, seconds),
 * commented out as "#%.2f ++++ %.3f" when the block took under 0.5 s (too
 * short to trust, as zcav says) or lies over holes of the file behind the
 * device (clyde's flag), then with one pass the "# Read" line, then, when
 * some were flagged, one "# clyde: zcav: N of M blocks flagged ..." line
 * (clyde_zcav_flags_line).  zcav says "Read" when it writes too; so does
 * this.
 */
int clyde_zcav_text_write(FILE *f, const struct clyde_dev_run *run);

/* The flagged points of z (clyde_zcav_point_flagged), and how many are
 * imprecise and how many over holes (a point may be both). */
size_t clyde_zcav_flag_counts(const struct clyde_zcav_result *z,
			      size_t *imprecise, size_t *holes);

/* One line after prefix saying which zcav blocks are flagged and why;
 * nothing when none is. */
void clyde_zcav_flags_line(FILE *f, const struct clyde_dev_run *run,
			   const char *prefix);

#endif

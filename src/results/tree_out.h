/*
 * Writers for one `clyde tree` run: a text table (phases as rows), the
 * JSON record ("kind": "tree", schema_version 1, docs/tree.md) and one CSV
 * line, so that runs with different mount options or geometries can be
 * put side by side.
 *
 * Every writer returns 0, or a negative errno when the stream reported an
 * error (the stream is flushed at the end).  None of them prints anywhere
 * but to `f`.  Numbers with a fraction use '.' whatever the locale says.
 *
 * CSV: clyde_tree_csv_header() writes the column names (documented in
 * docs/tree.md); clyde_tree_csv_write() one line with exactly
 * CLYDE_TREE_CSV_FIELDS fields.  Text fields have ',' replaced by ';'
 * (mount options) and control characters by '_', so that a line can be
 * split on commas without a CSV parser.  A phase that did not run leaves
 * its fields empty.
 */
#ifndef CLYDE_RESULTS_TREE_OUT_H
#define CLYDE_RESULTS_TREE_OUT_H

#include <stdio.h>

#include "results/tree_result.h"

#define CLYDE_TREE_CSV_FORMAT "clyde-tree-1"
#define CLYDE_TREE_CSV_RUN_FIELDS 22
#define CLYDE_TREE_CSV_PHASE_FIELDS 12
#define CLYDE_TREE_CSV_FIELDS        \
	(CLYDE_TREE_CSV_RUN_FIELDS + \
	 CLYDE_TREE_CSV_PHASE_FIELDS * CLYDE_TREE_PHASE_COUNT)

int clyde_tree_text_write(FILE *f, const struct clyde_tree_run *run,
			  const char *version);
int clyde_tree_json_write(FILE *f, const struct clyde_tree_run *run,
			  const char *version);
/* The same with `more` (when not NULL) writing further members of the
 * top-level object at its end (clyde-mpi's "mpi"). */
struct clyde_jw;
int clyde_tree_json_write_more(
	FILE *f, const struct clyde_tree_run *run, const char *version,
	void (*more)(struct clyde_jw *w, const void *arg), const void *arg);
int clyde_tree_csv_header(FILE *f);
int clyde_tree_csv_write(FILE *f, const struct clyde_tree_run *run,
			 const char *version);

#endif

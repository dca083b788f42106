/*
 * Pieces the writers of one run's result share (tree_out.c, dev_out.c;
 * csv.c and zcav_out.c use clyde_out_finish()):
 * the end of every writer, the CSV header of a run's fields followed by
 * the same fields for each phase or test, and the parts of the JSON
 * record every kind has (its head, a summary entry for a single run).
 */
#ifndef CLYDE_RESULTS_RUN_OUT_H
#define CLYDE_RESULTS_RUN_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/json_out.h"
#include "results/result.h"

/* Flush f and look at its error flag: 0, or a negative errno (-EIO when
 * the stream does not say which).  Every writer returns this last. */
int clyde_out_finish(FILE *f);

/*
 * The CSV column names: the nrun names of run_fields, then for each of
 * ngroups groups (phases, tests) "GROUP_FIELD" for the nfields names of
 * group_fields, GROUP being group_name(g).  Returns clyde_out_finish().
 */
int clyde_out_csv_header(FILE *f, const char *const *run_fields, int nrun,
			 const char *(*group_name)(int g), int ngroups,
			 const char *const *group_fields, int nfields);

/*
 * Open the result document and write what every kind starts with: schema,
 * schema_version, clyde_version, kind, label (the host's name when label
 * is empty; at most label_max bytes), started_unix, machine and target.
 */
void clyde_jw_run_head(struct clyde_jw *w, const char *kind,
		       const char *version, const char *label, size_t label_max,
		       uint64_t started_unix, const struct clyde_env *env);

/* The members of one "summary" entry for a single run (the caller opens
 * and closes the object): the mean is the value, with no spread. */
void clyde_jw_summary_one(struct clyde_jw *w, const char *name,
			  const char *unit, double mean);

#endif

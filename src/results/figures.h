/*
 * A target kind's own figures of a test, in the outputs.  Each kind that
 * has figures (io/target.h's figs_size) writes them with its own hooks
 * (struct clyde_target_figs, in the kind's file under io/); the functions
 * below go through io's table of kinds (clyde_target_kinds), hand each
 * kind the test as struct clyde_figs_test (filled here from the test
 * result), and name no kind.  json.c, members_text.c, text_extra.c and
 * the workloads call them.
 */
#ifndef CLYDE_RESULTS_FIGURES_H
#define CLYDE_RESULTS_FIGURES_H

#include <stdbool.h>
#include <stdio.h>

#include "core/json_out.h"
#include "io/target.h"
#include "results/result.h"

/* What test id does (CLYDE_FIGS_*). */
unsigned clyde_figs_does(enum clyde_test id);

/* The kinds' members at `at` of test id's JSON object, in table order. */
void clyde_figs_json(struct clyde_jw *w, const struct clyde_run *r,
		     enum clyde_test id, enum clyde_figs_at at);
/* The kinds' text sections, in table order. */
void clyde_figs_text(FILE *f, const struct clyde_run *runs, unsigned n);
/* After the test's spans are summed (the kind's finish). */
void clyde_figs_finish(struct clyde_test_result *t);
/* The cache of t's residency: *json "page_cache" and *text NULL unless
 * its kind's cache says otherwise; true when it is the kind's. */
bool clyde_figs_cache(const struct clyde_test_result *t, const char **json,
		      const char **text);
/* MPI (the kind's all_ranks): whether the test's members stay. */
bool clyde_figs_all_ranks(struct clyde_test_result *t);

#endif

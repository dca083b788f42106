/*
 * The text of what lies below the filesystem, after clyde's own section
 * (text_extra.c): loop devices whose backing file served a test from
 * memory, a virtual disk the host may cache, read-modify-write and
 * imbalance findings, and with `verbose` a per-member table (bytes and
 * requests each leaf device read and wrote in each test).
 */
#ifndef CLYDE_RESULTS_MEMBERS_TEXT_H
#define CLYDE_RESULTS_MEMBERS_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "results/result.h"

/* For runs[0..n) of one configuration.  Returns 0 or the stream's
 * negative errno. */
int clyde_members_text_write(FILE *f, const struct clyde_run *runs, unsigned n,
			     bool verbose);

/* When an md array lost members during the test `name` (m->degraded),
 * the warning line "PREFIXwarning: NAME: the array degraded during the
 * test (md0: 0 -> 1 of 4 members missing): its figures are of a degraded
 * array"; nothing otherwise.  For run, tree and dev alike. */
void clyde_degraded_text(FILE *f, const char *prefix, const char *name,
			 const struct clyde_members *m);

struct clyde_stack;
struct clyde_tree_run;

/* The same for a tree run: its walks' loop-device marks, the virtual
 * disk, the findings per phase and with `verbose` the per-member table. */
int clyde_members_tree_text_write(FILE *f, const struct clyde_tree_run *run,
				  bool verbose);

/* The advice on stack s (env/advise.h; `workload` a CLYDE_ADVISE_* mask)
 * as a short section, or nothing when there is none.  Returns 0 or the
 * stream's negative errno. */
int clyde_advice_section(FILE *f, const struct clyde_stack *s,
			 unsigned workload);

#endif

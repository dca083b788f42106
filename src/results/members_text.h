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

#endif

/*
 * Which recorded settings a test's result depends on: the table behind
 * "are these two runs comparable for this test?".  A compare row marks
 * the best only among runs whose settings for its test are the same
 * (compare.h), and the text, Markdown, CSV and HTML outputs name the
 * settings that differ.
 *
 * Settings are the loaded runs' config keys (loaded.h: "file size",
 * "files", "O_DIRECT", ...).  A key not in the table does not make runs
 * incomparable (the machine, the filesystem and the mount options are
 * what a comparison is about); to make one matter, add a line to the table
 * in settings.c.
 */
#ifndef CLYDE_REPORT_SETTINGS_H
#define CLYDE_REPORT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/loaded.h"

/* The tests that share settings. */
enum clyde_scope {
	CLYDE_SCOPE_IO = 0, /* putc .. get_block */
	CLYDE_SCOPE_SEEKS,  /* seeks */
	CLYDE_SCOPE_FILES,  /* the six file tests */
	CLYDE_SCOPE_COUNT,
	CLYDE_SCOPE_NONE = CLYDE_SCOPE_COUNT, /* tree phases: not checked */
};

/* The scope of a test group. */
enum clyde_scope clyde_scope_of(enum clyde_loaded_group g);

/* "IO tests", "seeks", "file tests". */
const char *clyde_scope_name(enum clyde_scope s);

/* Does `key` change the results of the tests of scope s? */
bool clyde_setting_matters(const char *key, enum clyde_scope s);

/*
 * Does `key` leave what is measured unchanged (the log interval, a note)?
 * Such a key never makes runs unlike (compare.h: runs_disagree) and the
 * "what differs" outputs say that it does not explain a difference.
 */
bool clyde_setting_not_measured(const char *key);

/* The phrase the outputs put beside such a key. */
#define CLYDE_NOT_MEASURED_TEXT "does not change the measurement"

/*
 * The keys of the table, in order, for iterating (NULL after the last).
 */
const char *clyde_setting_key(size_t i);

#endif

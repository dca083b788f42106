/*
 * The first check of a clyde result file, on the document the generic
 * reader (core/json_read.h) parsed.
 */
#ifndef CLYDE_RESULTS_RESULT_CHECK_H
#define CLYDE_RESULTS_RESULT_CHECK_H

#include "core/json_read.h"

/*
 * Check that a parsed document is a clyde result of a schema version this
 * reader knows: an object with "schema": "clyde-result", an integer
 * "schema_version" of 1 and a "runs" array.  Returns 0, or -EINVAL with
 * the reason and line in err ("not a clyde result (no \"schema\" member)",
 * "schema_version 2 is newer than this clyde reads (1)", ...).  What the
 * runs hold is read by the loader (src/results/loaded.h), which reports
 * each bad member on its own line.
 */
#define CLYDE_RESULT_SCHEMA "clyde-result"
#define CLYDE_RESULT_SCHEMA_VERSION 1

int clyde_json_result_check(const struct clyde_json *root,
			    struct clyde_json_error *err);

#endif

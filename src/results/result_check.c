/*
 * Is a parsed document a clyde result this reader knows (result_check.h)?
 */
#include "results/result_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((format(printf, 3, 4))) static int
check_fail(struct clyde_json_error *err, unsigned long line, const char *fmt,
	   ...)
{
	va_list ap;

	if (err) {
		err->line = line;
		va_start(ap, fmt);
		vsnprintf(err->why, sizeof(err->why), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int clyde_json_result_check(const struct clyde_json *root,
			    struct clyde_json_error *err)
{
	const struct clyde_json *schema, *ver, *runs;
	const char *s;

	if (!root || root->type != CLYDE_JSON_OBJECT)
		return check_fail(
			err, root ? root->line : 0,
			"not a clyde result (the document is %s "
			"%s, not an object)",
			root && root->type == CLYDE_JSON_ARRAY ? "an" : "a",
			clyde_json_type_name(root ? root->type :
						    CLYDE_JSON_NULL));
	schema = clyde_json_get(root, "schema");
	if (!schema)
		return check_fail(err, root->line,
				  "not a clyde result (no \"schema\" member)");
	s = clyde_json_str(schema);
	if (!s || strcmp(s, CLYDE_RESULT_SCHEMA) || schema->n != strlen(s))
		return check_fail(err, schema->line,
				  "not a clyde result (\"schema\" is not "
				  "\"%s\")",
				  CLYDE_RESULT_SCHEMA);
	ver = clyde_json_get(root, "schema_version");
	if (!ver)
		return check_fail(err, root->line,
				  "no \"schema_version\" member");
	if (ver->type != CLYDE_JSON_NUMBER || !ver->is_int || ver->inum < 1)
		return check_fail(err, ver->line,
				  "\"schema_version\" is not a positive "
				  "integer");
	if (ver->inum > CLYDE_RESULT_SCHEMA_VERSION)
		return check_fail(err, ver->line,
				  "schema_version %lld is newer than this "
				  "clyde reads (%d)",
				  (long long)ver->inum,
				  CLYDE_RESULT_SCHEMA_VERSION);
	runs = clyde_json_get(root, "runs");
	if (!runs || runs->type != CLYDE_JSON_ARRAY)
		return check_fail(err, runs ? runs->line : root->line,
				  "no \"runs\" array");
	return 0;
}

/*
 * A small streaming JSON emitter shared by the result writers (json.c for
 * the bonnie suite, tree_out.c for tree runs, results/json_parts.h for the
 * pieces they share), clyde-mpi and the history.  Each value is one call with its key; objects and
 * arrays are opened and closed explicitly, so a new field is one line
 * where it belongs.  Output is pretty-printed (two spaces a level), valid
 * JSON whatever the strings hold: control characters and quotes escaped,
 * bytes that are not UTF-8 written as U+FFFD, U+2028/U+2029 escaped (so
 * the text can be embedded in a script), NaN and infinities as null.
 */
#ifndef CLYDE_CORE_JSON_OUT_H
#define CLYDE_CORE_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLYDE_JW_MAX_DEPTH 16

struct clyde_jw {
	FILE *f;
	int depth;
	/* Per level: has a member been written yet (comma and layout). */
	bool nonempty[CLYDE_JW_MAX_DEPTH];
};

/* Start writing to f at the top level. */
void clyde_jw_init(struct clyde_jw *w, FILE *f);

/* Write s[0..n) as a JSON string (escaped as above). */
void clyde_jw_string(struct clyde_jw *w, const char *s, size_t n);
/* Start a member: comma, newline, indentation and "key": (key NULL inside
 * an array).  The caller then writes the value itself. */
void clyde_jw_member(struct clyde_jw *w, const char *key);
/* Open an object ('{') or array ('[') as member `key` (NULL: in an array
 * or at the top level); close it with the matching bracket. */
void clyde_jw_open(struct clyde_jw *w, const char *key, char bracket);
void clyde_jw_close(struct clyde_jw *w, char bracket);

void clyde_jw_u64(struct clyde_jw *w, const char *key, uint64_t v);
void clyde_jw_i64(struct clyde_jw *w, const char *key, int64_t v);
void clyde_jw_null(struct clyde_jw *w, const char *key);
void clyde_jw_bool(struct clyde_jw *w, const char *key, bool v);
/* A number with `decimals` decimals, or null when not finite. */
void clyde_jw_num(struct clyde_jw *w, const char *key, double v, int decimals);
/* A string of at most max bytes, or null when s is NULL. */
void clyde_jw_str(struct clyde_jw *w, const char *key, const char *s,
		  size_t max);
/* A fixed char array member (read up to its first NUL or its end). */
#define CLYDE_JW_ARR(w, key, arr) clyde_jw_str(w, key, arr, sizeof(arr))

#endif

/*
 * A small JSON parser (RFC 8259), written for reading clyde's own result
 * files back: `clyde compare`, `clyde report` and `clyde history import`.
 *
 * The parser builds a tree of nodes (a DOM).  It is strict: one value per
 * document (surrounding whitespace allowed), no comments, no trailing
 * commas, no leading zeros, no NaN/Infinity, strings in valid UTF-8 with
 * every control character escaped, and "\u" surrogates only in valid
 * pairs.  "\u0000" is accepted (the string then holds a NUL byte: use its
 * length, not strlen()).  Duplicate object keys are kept in order;
 * clyde_json_get() returns the first.
 *
 * Limits.  Input bigger than limits.max_bytes is refused before parsing,
 * and nesting deeper than limits.max_depth is refused while parsing, so a
 * hostile file can neither exhaust memory through size nor the stack
 * through depth (the parser and the free are recursive, bounded by the
 * depth limit).  A number too big for a double is refused, not rounded to
 * infinity.
 *
 * Errors.  Nothing here prints.  A parse error fills `err` with the line
 * (1-based) and a reason such as "expected ',' or '}' after object member";
 * callers turn that into "path:line: reason".
 */
#ifndef CLYDE_CORE_JSON_READ_H
#define CLYDE_CORE_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

enum clyde_json_type {
	CLYDE_JSON_NULL = 0,
	CLYDE_JSON_FALSE,
	CLYDE_JSON_TRUE,
	CLYDE_JSON_NUMBER,
	CLYDE_JSON_STRING,
	CLYDE_JSON_ARRAY,
	CLYDE_JSON_OBJECT,
};

/* "null", "false", "true", "number", "string", "array", "object". */
const char *clyde_json_type_name(enum clyde_json_type t);

/*
 * One value.  Arrays and objects own `items` (n of them); an object's
 * members carry their key in `key` (NUL-terminated, key_len bytes; NULL
 * for array elements and the root).  Strings own `str` (NUL-terminated,
 * `n` bytes, which may include NUL bytes from "\u0000").
 */
struct clyde_json {
	enum clyde_json_type type;
	unsigned long line; /* where the value starts, 1-based */
	char *key;
	size_t key_len;
	size_t n;    /* string bytes, or array/object items */
	double num;  /* NUMBER: the value */
	bool is_int; /* NUMBER written without fraction or exponent and in
		      * the range of int64_t: `inum` holds it exactly */
	int64_t inum;
	char *str;
	struct clyde_json *items;
};

struct clyde_json_limits {
	size_t max_bytes;   /* input larger than this is refused */
	unsigned max_depth; /* arrays/objects nested deeper are refused */
	size_t max_values;  /* documents with more values are refused (each
			     * costs about 80 bytes, whatever its text) */
};

/* 32 MiB, 64 levels, 4 million values (at most about 320 MiB): a clyde
 * result of 100 repeats is a few MiB with a few hundred thousand values,
 * nested at most 8 levels deep. */
#define CLYDE_JSON_MAX_BYTES (32u << 20)
#define CLYDE_JSON_MAX_DEPTH 64u
#define CLYDE_JSON_MAX_VALUES (4u << 20)

/* Enough for every reason the parser gives. */
#define CLYDE_JSON_WHY_LEN 160

struct clyde_json_error {
	unsigned long line; /* 1-based; 0 when it is not about a place */
	char why[CLYDE_JSON_WHY_LEN];
};

/*
 * Parse text[0..len) (any bytes, need not be NUL-terminated) into *root.
 * `limits` may be NULL for the defaults above.  Returns 0, or -EINVAL
 * (malformed or over a limit: err says where and why) or -ENOMEM (err
 * says so too); on failure *root is left empty (type NULL, nothing to
 * free, although clyde_json_free() on it is harmless).  A UTF-8
 * byte-order mark at the start is skipped.
 */
int clyde_json_parse(const char *text, size_t len,
		     const struct clyde_json_limits *limits,
		     struct clyde_json *root, struct clyde_json_error *err);

/* Free what a parse allocated under v (not v itself); v becomes NULL. */
void clyde_json_free(struct clyde_json *v);

/*
 * Read the whole file at `path` (at most limits->max_bytes) and parse it.
 * Returns 0; -EINVAL / -ENOMEM as clyde_json_parse() (err filled, ctx
 * untouched); or another negative errno when the file cannot be read, then
 * recorded in ctx with the path (err->line 0, err->why the strerror).
 */
int clyde_json_parse_file(struct clyde_ctx *ctx, const char *path,
			  const struct clyde_json_limits *limits,
			  struct clyde_json *root,
			  struct clyde_json_error *err);

/* ---- access helpers: all accept NULL and return NULL / false --------- */

/* The first member of object `obj` named `key`, or NULL. */
const struct clyde_json *clyde_json_get(const struct clyde_json *obj,
					const char *key);

/* Element i of an array (or member i of an object), or NULL. */
const struct clyde_json *clyde_json_at(const struct clyde_json *v, size_t i);

/* The string of a STRING value (NULL for any other type). */
const char *clyde_json_str(const struct clyde_json *v);

/* A NUMBER as a double; false (and *out untouched) for any other type. */
bool clyde_json_double(const struct clyde_json *v, double *out);

/* A NUMBER that is an integer >= 0 (written as one, or a double with no
 * fraction below 2^64), as uint64_t; false otherwise. */
bool clyde_json_u64(const struct clyde_json *v, uint64_t *out);

/* TRUE/FALSE as a bool; false (and *out untouched) for any other type. */
bool clyde_json_bool(const struct clyde_json *v, bool *out);

#endif

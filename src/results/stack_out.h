/*
 * The storage stack (env/stack.h) as JSON and as an indented text tree,
 * and read back from JSON (history, compare, report).
 *
 * JSON (docs/stack.md has the field list): an object
 *   { "target", "note", "filesystem": {...} | null,
 *     "top": ["md0"], "leaves": ["sda1", ...],
 *     "devices": [ { "name", "kind", ..., "children": ["sda1"] }, ... ] }
 * A device carries the fields of its kind only (a loop device has
 * backing_file and dio, an md array level and chunk_bytes); unknown
 * values are null.  Readers ignore keys they do not know.
 */
#ifndef CLYDE_RESULTS_STACK_OUT_H
#define CLYDE_RESULTS_STACK_OUT_H

#include <stdio.h>

#include "env/advise.h"
#include "env/stack.h"
#include "core/json_out.h"
#include "core/json_read.h"

/* Write s as object member `key` (NULL: in an array or at the top). */
void clyde_stack_json(struct clyde_jw *w, const char *key,
		      const struct clyde_stack *s);

/*
 * Fill *out from a JSON object written by clyde_stack_json().  Returns 0;
 * -EINVAL when obj is not such an object (a member of the wrong type, a
 * child that names no device), with the reason in err->why; -ENOMEM.  On
 * failure *out is empty but still to be freed with clyde_stack_free().
 */
int clyde_stack_from_json(const struct clyde_json *obj, struct clyde_stack *out,
			  struct clyde_json_error *err);

/* The indented tree `clyde stack` prints: the filesystem, then each
 * device of `top` with what it is built on indented below it. */
void clyde_stack_text(FILE *f, const struct clyde_stack *s);

/*
 * What tells two stacks apart, as key/value strings that do not depend on
 * device names (loop0 in one run is loop3 in the next): the filesystem
 * (type, mount options, block size, stripe unit and width, journal, data
 * mode, xfs log, btrfs profiles), the stripe (level, chunk, data disks,
 * full stripe), the md, dm and loop layers, and the members (count, model,
 * rotational, scheduler, read-ahead, write cache, nr_requests: the
 * distinct values in device order, joined with ","), in that fixed order.
 * Empty values are left out.  For `compare` and `report`: a key whose
 * value differs between two runs is a stack difference.  Writes up to max
 * facts and returns how many there are.
 */
struct clyde_stack_fact {
	char key[48];
	char value[208];
};

size_t clyde_stack_facts(const struct clyde_stack *s,
			 struct clyde_stack_fact *out, size_t max);

/* The findings as array member `key`: objects of severity, id, layer,
 * text and fix. */
void clyde_advice_json(struct clyde_jw *w, const char *key,
		       const struct clyde_advice_list *l);

/* Read them back (unknown severities read as info); 0 or -EINVAL. */
int clyde_advice_from_json(const struct clyde_json *arr,
			   struct clyde_advice_list *out,
			   struct clyde_json_error *err);

/* The findings as text: "advice:" then per finding "  [warning] md0:
 * text" and "    fix: command"; "advice: none" when there are none. */
void clyde_advice_text(FILE *f, const struct clyde_advice_list *l);

#endif

/*
 * libFuzzer target for the JSON reader and everything behind it: the
 * parser (default and tight limits), the clyde-result check, the loader
 * (which also reads CSV when the input does not start with '{'), the
 * compare table in all three formats and the HTML report.
 *
 * Every input must come back as a result or as a reason; the target
 * aborts when a promise of json_read.h or loaded.h is broken, so that a
 * sanitizer report or an abort is a bug to fix.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "report/compare.h"
#include "report/html.h"
#include "results/loaded.h"
#include "core/json_read.h"
#include "results/result_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walk a parsed tree and check what the header promises. */
static size_t check_tree(const struct clyde_json *v, unsigned depth,
			 unsigned max_depth)
{
	size_t i, n = 1;

	if (depth > max_depth)
		abort();
	switch (v->type) {
	case CLYDE_JSON_STRING:
		if (!v->str || v->str[v->n] != '\0')
			abort();
		break;
	case CLYDE_JSON_ARRAY:
	case CLYDE_JSON_OBJECT:
		if (v->n && !v->items)
			abort();
		for (i = 0; i < v->n; i++) {
			const struct clyde_json *it = &v->items[i];

			if ((v->type == CLYDE_JSON_OBJECT) != (it->key != NULL))
				abort();
			if (it->key && it->key[it->key_len] != '\0')
				abort();
			n += check_tree(it, depth + 1, max_depth);
		}
		break;
	case CLYDE_JSON_NUMBER:
		if (v->num != v->num) /* never NaN */
			abort();
		break;
	default:
		break;
	}
	return n;
}

static void parse_one(const char *buf, size_t size,
		      const struct clyde_json_limits *lim)
{
	struct clyde_json v;
	struct clyde_json_error e;
	int rc;

	memset(&e, 0x55, sizeof(e)); /* the parser must fill it */
	rc = clyde_json_parse(buf, size, lim, &v, &e);
	if (rc == 0) {
		size_t n = check_tree(
			&v, 0, lim ? lim->max_depth : CLYDE_JSON_MAX_DEPTH);

		if (lim && n > lim->max_values)
			abort();
		(void)clyde_json_result_check(&v, &e);
		if (e.why[sizeof(e.why) - 1] != '\0' &&
		    strnlen(e.why, sizeof(e.why)) == sizeof(e.why))
			abort();
	} else {
		if (rc != -EINVAL && rc != -ENOMEM)
			abort();
		if (strnlen(e.why, sizeof(e.why)) == sizeof(e.why) || !e.why[0])
			abort();
		if (v.type != CLYDE_JSON_NULL || v.items || v.str)
			abort();
	}
	clyde_json_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct clyde_json_limits tight = { 4096, 4, 64 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	char *buf, *out = NULL;
	size_t outlen = 0, i;
	FILE *f;

	/* An unterminated heap copy: reading one byte past is an ASan
	 * report. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	parse_one(buf, size, NULL);
	parse_one(buf, size, &tight);

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	if (clyde_loaded_read_buffer(&ctx, buf, size, "fuzz", &set) != 0)
		abort(); /* only ENOMEM may fail, and it does not here */
	if (set.nerrors > CLYDE_LOADED_MAX_ERRORS ||
	    set.nmalformed < set.nerrors)
		abort();
	for (i = 0; i < set.nerrors; i++)
		if (strncmp(set.errors[i], "fuzz", 4))
			abort();
	/* Every input gives runs, or says why not. */
	if (!set.nruns && !set.nmalformed)
		abort();
	if (set.nruns) {
		if (clyde_loaded_merge_repeats(&ctx, &set))
			abort();
		if (clyde_compare_build(&ctx, &set, NULL, &cmp))
			abort();
		f = open_memstream(&out, &outlen);
		if (f) {
			if (clyde_compare_write(f, &cmp, CLYDE_COMPARE_TEXT) ||
			    clyde_compare_write(f, &cmp,
						CLYDE_COMPARE_MARKDOWN) ||
			    clyde_compare_write(f, &cmp, CLYDE_COMPARE_CSV))
				abort();
			fclose(f);
			free(out);
		}
		out = NULL;
		f = open_memstream(&out, &outlen);
		if (f) {
			if (clyde_html_write(f, &cmp, NULL))
				abort();
			fclose(f);
			/* No user text may open a tag in the report (the
			 * page itself has no script and no <i> but ours). */
			if (out &&
			    (strstr(out, "<script") || strstr(out, "<img")))
				abort();
			free(out);
		}
		clyde_compare_release(&cmp);
	}
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
	free(buf);
	return 0;
}

/*
 * The "what differs" part of the compare text and Markdown (see
 * compare.h): the settings that are not the same in all results, as the
 * report's part of that name decides them (clyde_compare_keys), under the
 * same friendly names.  Up to four runs, one line per setting with each
 * value once and the runs that have it; more, one line per run with its
 * values in the order the header names the settings, as the report's
 * table does.  A key that does not change the measurement (settings.h:
 * the log interval, a note) is named so: it explains no difference.
 */
#include "report/compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/vis.h"

/* Runs up to which each setting gets a line of its own. */
#define DIFFERS_PER_SETTING 4

/* s made safe for a terminal: control characters escaped
 * (core/vis.h). */
static void put_clean(FILE *f, const char *s)
{
	char vis[1024];

	if (s)
		fputs(clyde_vis(vis, sizeof(vis), s, 0), f);
}

/* The key, and beside it whether it changes what is measured. */
static void put_key(FILE *f, const char *key)
{
	put_clean(f, key);
	if (clyde_setting_not_measured(key))
		fputs(" (" CLYDE_NOT_MEASURED_TEXT ")", f);
}

static void put_value(FILE *f, const struct clyde_compare *cmp, size_t c,
		      const char *key)
{
	const char *v = clyde_loaded_kv_get(cmp->runs[c], key);

	put_clean(f, v ? v : "not recorded");
}

static bool same_value(const struct clyde_compare *cmp, size_t a, size_t b,
		       const char *key)
{
	const char *x = clyde_loaded_kv_get(cmp->runs[a], key);
	const char *y = clyde_loaded_kv_get(cmp->runs[b], key);

	return x == y || (x && y && !strcmp(x, y));
}

/* " 8G (64k, 128k), 16G (xfs)": each value once, with its runs. */
static void by_value(FILE *f, const struct clyde_compare *cmp, const char *key)
{
	size_t c, o;
	bool first = true;

	for (c = 0; c < cmp->ncols; c++) {
		for (o = 0; o < c; o++)
			if (same_value(cmp, o, c, key))
				break;
		if (o < c)
			continue; /* told with run o */
		fputs(first ? " " : ", ", f);
		first = false;
		put_value(f, cmp, c, key);
		fputs(" (", f);
		for (o = c; o < cmp->ncols; o++)
			if (same_value(cmp, o, c, key)) {
				if (o > c)
					fputs(", ", f);
				put_clean(f, cmp->labels[o]);
			}
		fputc(')', f);
	}
	fputc('\n', f);
}

int clyde_compare_write_differs(FILE *f, const struct clyde_compare *cmp)
{
	size_t n = 0, k, c;
	const char **keys = clyde_compare_keys(cmp, true, &n);

	if (!keys)
		return n ? -ENOMEM : 0;
	if (cmp->ncols <= DIFFERS_PER_SETTING) {
		fputs("what differs:\n", f);
		for (k = 0; k < n; k++) {
			fputs("  ", f);
			put_key(f, keys[k]);
			fputc(':', f);
			by_value(f, cmp, keys[k]);
		}
	} else {
		fputs("what differs (", f);
		for (k = 0; k < n; k++) {
			fputs(k ? " | " : "", f);
			put_key(f, keys[k]);
		}
		fputs("):\n", f);
		for (c = 0; c < cmp->ncols; c++) {
			fputs("  ", f);
			put_clean(f, cmp->labels[c]);
			fputc(':', f);
			for (k = 0; k < n; k++) {
				fputs(k ? " | " : " ", f);
				put_value(f, cmp, c, keys[k]);
			}
			fputc('\n', f);
		}
	}
	free(keys);
	return 0;
}

/*
 * The "what differs" part of the compare text and Markdown (see
 * compare.h): the settings that are not the same in all results, as the
 * report's part of that name decides them (clyde_compare_keys), under the
 * same friendly names.  Up to four runs, one line per setting with each
 * value once and the runs that have it; more, one line per run with its
 * values in the order the header names the settings, as the report's
 * table does.  A key that does not change the measurement (settings.h:
 * the log interval, a note) is named so: it explains no difference.
 * Beside fio's jobs, what only fio or only clyde records at all (fio's
 * group, clyde's filesystem and machine) is one line per side with its
 * values, after the settings both record.
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

/* The two kinds of source whose settings differ by nature: fio's jobs
 * and clyde's results (fio records no filesystem, clyde no fio group). */
static bool is_fio(const struct clyde_compare *cmp, size_t c)
{
	return cmp->runs[c]->kind == CLYDE_LOADED_FIO;
}

bool clyde_compare_fio_and_clyde(const struct clyde_compare *cmp)
{
	bool fio = false, clyde = false;

	for (size_t c = 0; c < cmp->ncols; c++) {
		fio |= is_fio(cmp, c);
		clyde |= !is_fio(cmp, c);
	}
	return fio && clyde;
}

/* Does one kind of source (fio: `fio` true, else clyde) leave `key` out
 * in every run, while the other kind records it in every run with one
 * value?  Such a key tells nothing about the runs but where they came
 * from: it is folded into one line (compare.h). */
bool clyde_compare_one_sided(const struct clyde_compare *cmp, const char *key,
			     bool fio)
{
	const char *first = NULL;
	bool some = false;

	for (size_t c = 0; c < cmp->ncols; c++) {
		const char *v = clyde_loaded_kv_get(cmp->runs[c], key);

		if (is_fio(cmp, c) == fio) {
			some = true;
			if (!v)
				return false;
			if (first && strcmp(first, v))
				return false;
			first = v;
		} else if (v) {
			return false;
		}
	}
	return some && first;
}

/* "  recorded by fio only (rr): fio group 0, fio rw randread": the keys
 * only one kind of source records, on one line with their values. */
static void one_sided_line(FILE *f, const struct clyde_compare *cmp,
			   const char **keys, size_t n, bool fio)
{
	size_t first = cmp->ncols, k, c;
	bool any = false;

	for (k = 0; k < n; k++)
		any |= clyde_compare_one_sided(cmp, keys[k], fio);
	if (!any)
		return;
	fprintf(f, "  recorded by %s only (", fio ? "fio" : "clyde");
	for (c = 0; c < cmp->ncols; c++)
		if (is_fio(cmp, c) == fio) {
			fputs(first < cmp->ncols ? ", " : "", f);
			put_clean(f, cmp->labels[c]);
			if (first == cmp->ncols)
				first = c;
		}
	fputs("):", f);
	any = false;
	for (k = 0; k < n; k++) {
		if (!clyde_compare_one_sided(cmp, keys[k], fio))
			continue;
		fputs(any ? "; " : " ", f);
		any = true;
		put_key(f, keys[k]);
		fputc(' ', f);
		put_value(f, cmp, first, keys[k]);
	}
	fputc('\n', f);
}

int clyde_compare_write_differs(FILE *f, const struct clyde_compare *cmp)
{
	size_t n = 0, k, c;
	const char **keys = clyde_compare_keys(cmp, true, &n);
	bool both = clyde_compare_fio_and_clyde(cmp);

	if (!keys)
		return n ? -ENOMEM : 0;
	if (cmp->ncols <= DIFFERS_PER_SETTING) {
		fputs("what differs:\n", f);
		for (k = 0; k < n; k++) {
			if (both &&
			    (clyde_compare_one_sided(cmp, keys[k], true) ||
			     clyde_compare_one_sided(cmp, keys[k], false)))
				continue;
			fputs("  ", f);
			put_key(f, keys[k]);
			fputc(':', f);
			by_value(f, cmp, keys[k]);
		}
		if (both) {
			one_sided_line(f, cmp, keys, n, true);
			one_sided_line(f, cmp, keys, n, false);
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

/*
 * The run report's "what differs" part (see html_parts.h): one row per
 * run and one column per setting that is not the same in all runs, which
 * stays readable with twenty runs; the settings groups that decide which
 * runs are compared with each other; then the settings all runs share,
 * collapsed.  Keys are the loaded runs' friendly names (loaded.c maps a
 * JSON key such as perchar_bytes to "putc bytes"), values are shown as
 * loaded, with a line break allowed after a comma or slash only, never
 * inside a word.  Beside fio's jobs, what only fio or only clyde records
 * (fio's group, clyde's filesystem and machine) is not a column: one line
 * per side under the table, as compare's text (compare_differs.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/html_parts.h"

/* s escaped, with a break opportunity after ',', '/' and '|'. */
static void esc_breakable(FILE *f, const char *s)
{
	char one[2] = { 0, 0 };

	for (; s && *s; s++) {
		one[0] = *s;
		clyde_html_esc(f, one);
		if (*s == ',' || *s == '/' || *s == '|')
			fputs("<wbr>", f);
	}
}

/* The settings groups of each scope that splits the runs. */
static void groups(FILE *f, const struct clyde_compare *cmp)
{
	char keys[512], text[1024], name[16];
	size_t s, c;
	unsigned k;
	bool any = false;

	for (s = 0; s < CLYDE_SCOPE_COUNT; s++) {
		const struct clyde_cmp_scope *sc = &cmp->scopes[s];

		size_t o;

		if (!sc->used || sc->nclasses < 2)
			continue;
		for (o = 0; o < s; o++)
			if (cmp->scopes[o].used &&
			    cmp->scopes[o].nclasses > 1 &&
			    clyde_compare_scope_same(cmp, o, s))
				break;
		if (o < s)
			continue; /* told with scope o */
		if (!any)
			fputs("<div class=\"groups\">", f);
		any = true;
		clyde_compare_scope_keys(keys, sizeof(keys), sc);
		fputs("<p><b>", f);
		clyde_html_esc(f, clyde_scope_name((enum clyde_scope)s));
		for (o = s + 1; o < CLYDE_SCOPE_COUNT; o++)
			if (cmp->scopes[o].used &&
			    clyde_compare_scope_same(cmp, o, s)) {
				fputs(" and ", f);
				clyde_html_esc(f, clyde_scope_name(
							  (enum clyde_scope)o));
			}
		fputs("</b>: the results differ in ", f);
		clyde_html_esc(f, keys);
		fputs(", so they are compared (&#9733;, shading) only within "
		      "a settings group:</p>\n<ul>",
		      f);
		for (k = 0; k < sc->nclasses; k++) {
			bool first = true;

			for (c = 0; c < cmp->ncols; c++) {
				if (!sc->in[c] || sc->cls[c] != k)
					continue;
				if (first) {
					clyde_compare_class_name(
						name, sizeof(name), k);
					clyde_compare_class_text(
						text, sizeof(text), cmp, sc, c);
					fprintf(f, "<li><b>[%s]</b> ", name);
					clyde_html_esc(f, text);
					fputs(": ", f);
				} else {
					fputs(", ", f);
				}
				clyde_html_esc(f, cmp->labels[c]);
				first = false;
			}
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (any)
		fputs("</div>\n", f);
}

/* Is `key` told on a side's line instead of in a column (compare.h)? */
static bool folded(const struct clyde_compare *cmp, const char *key, bool both)
{
	return both && (clyde_compare_one_sided(cmp, key, true) ||
			clyde_compare_one_sided(cmp, key, false));
}

/* "Recorded by fio only (rr): fio group 0; fio rw randread", the keys
 * only one kind of source records, with the value they all have. */
static void one_sided(FILE *f, const struct clyde_compare *cmp,
		      const char **keys, size_t n, bool fio)
{
	size_t k, c, first = cmp->ncols;
	bool any = false;

	for (k = 0; k < n && !any; k++)
		any = clyde_compare_one_sided(cmp, keys[k], fio);
	if (!any)
		return;
	fprintf(f,
		"<p class=\"one-sided\" data-side=\"%s\">Recorded by %s only (",
		fio ? "fio" : "clyde", fio ? "fio" : "clyde");
	for (c = 0; c < cmp->ncols; c++) {
		if ((cmp->runs[c]->kind == CLYDE_LOADED_FIO) != fio)
			continue;
		fputs(first < cmp->ncols ? ", " : "", f);
		clyde_html_esc(f, cmp->labels[c]);
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
		fputs("<b>", f);
		clyde_html_esc(f, keys[k]);
		fputs("</b> ", f);
		esc_breakable(f,
			      clyde_loaded_kv_get(cmp->runs[first], keys[k]));
	}
	fputs("</p>\n", f);
}

/* The table of the settings that differ, a column each. */
static void differs_table(FILE *f, const struct clyde_compare *cmp,
			  const char **diff, size_t ndiff, bool both)
{
	size_t k, c, cols = 0;

	for (k = 0; k < ndiff; k++)
		cols += !folded(cmp, diff[k], both);
	if (!cols)
		return;
	fputs("<div class=\"scroll\"><table class=\"differs\"><tr>"
	      "<th>result</th>",
	      f);
	for (k = 0; k < ndiff; k++) {
		if (folded(cmp, diff[k], both))
			continue;
		fputs("<th>", f);
		clyde_html_esc(f, diff[k]);
		if (clyde_setting_not_measured(diff[k]))
			fputs(" <i>(" CLYDE_NOT_MEASURED_TEXT ")</i>", f);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (c = 0; c < cmp->ncols; c++) {
		fputs("<tr><th class=\"run\">", f);
		clyde_html_swatch(f, c);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</th>", f);
		for (k = 0; k < ndiff; k++) {
			const char *v;

			if (folded(cmp, diff[k], both))
				continue;
			v = clyde_loaded_kv_get(cmp->runs[c], diff[k]);
			fputs("<td>", f);
			if (v)
				esc_breakable(f, v);
			else
				fputs("<i>not recorded</i>", f);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

int clyde_html_differs(FILE *f, const struct clyde_compare *cmp)
{
	size_t nall = 0, ndiff = 0, k, nsame = 0;
	const char **all = clyde_compare_keys(cmp, false, &nall);
	const char **diff = clyde_compare_keys(cmp, true, &ndiff);

	if ((!all && nall) || (!diff && ndiff)) {
		free(all);
		free(diff);
		return -ENOMEM;
	}
	fputs("<h2 id=\"differs\">What differs</h2>\n", f);
	if (cmp->ncols < 2)
		fputs("<p>One result: nothing to set apart.</p>\n", f);
	else if (!ndiff)
		fputs("<p>The results record the same configuration.</p>\n", f);
	groups(f, cmp);
	if (ndiff) {
		bool both = clyde_compare_fio_and_clyde(cmp);

		differs_table(f, cmp, diff, ndiff, both);
		if (both) {
			one_sided(f, cmp, diff, ndiff, true);
			one_sided(f, cmp, diff, ndiff, false);
		}
	}
	nsame = nall - ndiff;
	if (nsame) {
		fprintf(f,
			"<details><summary>Same in all results (%zu "
			"setting%s)</summary>\n<table class=\"same\">"
			"<tr><th>setting</th><th>value</th></tr>\n",
			nsame, nsame == 1 ? "" : "s");
		for (k = 0; k < nall; k++) {
			if (clyde_compare_key_differs(cmp, all[k]))
				continue;
			fputs("<tr><th>", f);
			clyde_html_esc(f, all[k]);
			fputs("</th><td>", f);
			esc_breakable(f, clyde_loaded_kv_get(cmp->runs[0],
							     all[k]));
			fputs("</td></tr>\n", f);
		}
		fputs("</table></details>\n", f);
	}
	free(all);
	free(diff);
	return 0;
}

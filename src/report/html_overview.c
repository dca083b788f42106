/*
 * The run report's overview (see html_parts.h): a heat map in the spirit
 * of bon_csv2html, one row per run and one column per test's rate, so
 * that twenty runs fit one screen.  A cell's shade is its share of the
 * best rate of its settings group (compare.h): the best is the darkest,
 * half of the best or less the lightest, linear in between; runs of
 * different settings are never shaded against each other.  A rate that
 * ran under 0.5 s but has its number ("~20139", imprecise) is shaded by
 * that number like the others; too fast without a number, skipped and
 * not run are written, not shaded.
 */
#include <math.h>

#include "report/html.h"
#include "report/html_parts.h"

/* A cell with a number to shade: measured, or imprecise with its number;
 * not a flagged one that was not ranked against unflagged figures. */
static bool shaded(const struct clyde_cmp_cell *cell)
{
	return cell->has_value && !cell->unranked &&
	       (cell->state == CLYDE_LOADED_VALUE ||
		cell->state == CLYDE_LOADED_TOO_FAST);
}

void clyde_html_flags(FILE *f, const struct clyde_cmp_cell *cell)
{
	if (cell->state == CLYDE_LOADED_NOT_RUN)
		return;
	for (unsigned i = 0; i < CLYDE_LOADED_FLAG_COUNT; i++)
		if (cell->flags & (1u << i))
			fprintf(f,
				" <span class=\"flag\" title=\"%s\">%s</span>",
				clyde_loaded_flag_text(1u << i),
				clyde_loaded_flag_name(1u << i));
}

void clyde_html_flags_legend(FILE *f, const struct clyde_compare *cmp)
{
	for (unsigned i = 0; i < CLYDE_LOADED_FLAG_COUNT; i++)
		if (cmp->any_flags & (1u << i))
			fprintf(f, " <span class=\"flag\">%s</span>: %s.",
				clyde_loaded_flag_name(1u << i),
				clyde_loaded_flag_text(1u << i));
	if (cmp->any_unranked)
		fputs(" A flagged figure is not ranked, starred or shaded "
		      "against figures without a flag.",
		      f);
}

/* The highest rate of settings group cls in a row; 0 when the group has
 * fewer than two rates (nothing to shade against). */
static double group_best(const struct clyde_cmp_row *row, size_t ncols,
			 unsigned cls)
{
	double best = 0;
	size_t c, n = 0;

	for (c = 0; c < ncols; c++) {
		const struct clyde_cmp_cell *cell = &row->cells[c];

		if (cell->cls != cls || !shaded(cell))
			continue;
		n++;
		if (cell->value > best)
			best = cell->value;
	}
	return n >= 2 ? best : 0;
}

static void cell(FILE *f, const struct clyde_compare *cmp,
		 const struct clyde_cmp_row *row, size_t c)
{
	const struct clyde_cmp_cell *cl = &row->cells[c];
	double best = group_best(row, cmp->ncols, cl->cls), share, shade;
	char val[64], name[16];
	bool split = row->scope < CLYDE_SCOPE_COUNT &&
		     cmp->scopes[row->scope].nclasses > 1;

	clyde_compare_cell_text(val, sizeof(val), row, cl);
	if (!shaded(cl)) {
		fputs("<td class=\"num na\">", f);
		clyde_html_esc(f, val);
		clyde_html_flags(f, cl);
		fputs("</td>", f);
		return;
	}
	if (best <= 0) {
		fputs("<td class=\"num alone\" title=\"no other result has "
		      "these settings\">",
		      f);
		clyde_html_esc(f, val);
		clyde_html_flags(f, cl);
		fputs("</td>", f);
		return;
	}
	share = cl->value / best;
	shade = (share - 0.5) / 0.5;
	if (shade < 0)
		shade = 0;
	/* Lightness 96% (half the best or less) to 58% (the best): dark
	 * text stays readable on all of them. */
	fprintf(f,
		"<td class=\"num heat%s\" style=\"background:hsl(210,70%%,"
		"%.0f%%)\" title=\"",
		cl->best ? " best" : "", 96 - 38 * shade);
	clyde_html_esc(f, cmp->labels[c]);
	fputs(", ", f);
	clyde_html_esc(f, row->test);
	fputs(": ", f);
	clyde_html_esc(f, val);
	fputc(' ', f);
	clyde_html_esc(f, row->unit);
	fprintf(f, ", %.0f%% of the best", share * 100);
	if (cl->state == CLYDE_LOADED_TOO_FAST)
		fputs(", imprecise (ran under 0.5 s)", f);
	if (cl->best && cl->best_by_value)
		fputs(", best on a single sample", f);
	if (clyde_compare_tie_text(cl))
		fprintf(f, ", %s", clyde_compare_tie_text(cl));
	if (cl->runs_disagree)
		fputs(", runs with the same settings differ 2x or more", f);
	if (split) {
		clyde_compare_class_name(name, sizeof(name), cl->cls);
		fprintf(f, " of settings group %s", name);
	}
	fputs("\">", f);
	clyde_html_esc(f, val);
	clyde_html_flags(f, cl);
	if (cl->disagree)
		fputs("!", f);
	if (cl->runs_disagree)
		fputs(" !!", f);
	if (cl->best)
		fputs(" \xe2\x98\x85", f);
	fputs("</td>", f);
}

void clyde_html_overview(FILE *f, const struct clyde_compare *cmp)
{
	size_t r, c;

	fputs("<h2 id=\"overview\">Overview</h2>\n<p class=\"legend\">One "
	      "row per result, one column per test&#8217;s rate. The "
	      "darker a cell, the closer it is to the best result of its "
	      "settings group (&#9733;; the lightest: half of it or "
	      "less); results run with different "
	      "settings (see below) are not shaded against each other; "
	      "a result alone with its settings is not shaded at all. "
	      "~ ran under 0.5 s: imprecise, but shaded and ranked by its "
	      "value. &#9733; needs the best to be better than the "
	      "runner-up when both have repeats (Welch&#8217;s t-test on "
	      "log values; a tie, equivalent or cannot tell, is starred "
	      "alike); on "
	      "a single sample it is by value only (hover: "
	      "&#8220;single sample&#8221;). ! marks repeats that "
	      "disagree; !! results with the same settings that differ 2x "
	      "or more.",
	      f);
	clyde_html_flags_legend(f, cmp);
	fputs("</p>\n<div class=\"scroll\"><table class=\"overview\"><tr>"
	      "<th>result</th>",
	      f);
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];

		if (row->metric != CLYDE_CMP_RATE)
			continue;
		fputs("<th class=\"test\">", f);
		clyde_html_esc(f, row->test);
		fputs("<br><span class=\"unit\">", f);
		clyde_html_esc(f, row->unit);
		fputs("</span></th>", f);
	}
	fputs("</tr>\n", f);
	for (c = 0; c < cmp->ncols; c++) {
		fputs("<tr><th class=\"run\">", f);
		clyde_html_swatch(f, c);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</th>", f);
		for (r = 0; r < cmp->nrows; r++)
			if (cmp->rows[r].metric == CLYDE_CMP_RATE)
				cell(f, cmp, &cmp->rows[r], c);
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

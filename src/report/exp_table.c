/*
 * The experiment table (see exp_table.h).  The text and markdown forms
 * are built as a grid of strings first, so that column widths can be
 * measured (in characters: "★" and "±" are several bytes of UTF-8 and
 * one column on a terminal).
 */
#include "report/exp_table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/format.h"

#define CELL_MAX 96

const char clyde_exp_legend[] =
	"\xe2\x98\x85 best, beating the runner-up beyond noise; * "
	"significantly worse than the best\n"
	"(Welch's t-test, p < 0.05); ~ not significantly different, but the "
	"data cannot tell;\n"
	"= equivalent: the 95% interval of the difference lies within "
	"\xc2\xb1"
	"5% of the best;\n"
	"a best that does not beat the runner-up is marked as the runner-up "
	"(a tie);\n"
	"no mark: not tested (fewer than 2 samples); \xc2\xb1 half-width of "
	"the 95% confidence\n"
	"interval; (n=1) a single sample; x2.00 an amount (device bytes) as a "
	"ratio to the least;\n"
	"? some sample ran under 0.5 s (imprecise); ! the repeats are 2x apart "
	"or more;\n"
	"degraded: some sample was measured while an md array lost members;\n"
	"inflated: some sample's figure is inflated by a mount or export "
	"setting (an async export).\n"
	"The tests and the intervals of differences are on log values (noise "
	"grows with the mean).";

void clyde_exp_cell_text(char *buf, size_t len,
			 const struct clyde_exp_point *pt,
			 const struct clyde_exp_cellstat *cs,
			 const struct clyde_exp_unit *u, bool show_n)
{
	char m[40], h[40];
	double mean;

	if (pt->failed) {
		snprintf(buf, len, "failed");
		return;
	}
	if (!cs->n) {
		snprintf(buf, len, "-");
		return;
	}
	mean = cs->mean / u->div;
	clyde_exp_num(m, sizeof(m), mean, u);
	if (cs->n < 2) {
		snprintf(buf, len, "%s (n=1)", m);
		return;
	}
	clyde_exp_num(h, sizeof(h), cs->ci95 / u->div, u);
	if (show_n)
		snprintf(buf, len, "%s \xc2\xb1 %s (n=%zu)", m, h, cs->n);
	else
		snprintf(buf, len, "%s \xc2\xb1 %s", m, h);
}

bool clyde_exp_counts_differ(const struct clyde_exp_mstat *ms, size_t npoints)
{
	size_t p, n = 0;

	for (p = 0; p < npoints; p++) {
		if (!ms->cells[p].n)
			continue;
		if (n && ms->cells[p].n != n)
			return true;
		n = ms->cells[p].n;
	}
	return false;
}

/* Characters in a UTF-8 string (bytes that do not continue one). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* Write s with every '|' escaped, for a markdown cell. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* One word of a CSV flags cell, when on, after the ones before it. */
static void csv_flag(FILE *f, bool on, const char *word, const char **sep)
{
	if (!on)
		return;
	fprintf(f, "%s%s", *sep, word);
	*sep = " ";
}

static int write_csv(FILE *f, const struct clyde_exp *e,
		     const struct clyde_exp_mstat *ms)
{
	static const char *const sig[] = {
		[CLYDE_EXP_REL_NONE] = "",
		[CLYDE_EXP_REL_BEST] = "best",
		[CLYDE_EXP_REL_SAME] = "no",
		[CLYDE_EXP_REL_DIFF] = "yes",
		[CLYDE_EXP_REL_UNTESTED] = "",
		[CLYDE_EXP_REL_EQUIV] = "equivalent",
	};
	size_t a, m, p;

	for (a = 0; a < e->naxes; a++) {
		clyde_fmt_csv_field(f, e->axis_names[a]);
		fputc(',', f);
	}
	fputs("status", f);
	for (m = 0; m < e->nmetrics; m++) {
		static const char *const col[] = { "mean", "ci95", "n",
						   "significant", "flags" };
		size_t c;

		for (c = 0; c < 5; c++) {
			char name[256];

			snprintf(name, sizeof(name), "%s.%s", e->metrics[m].key,
				 col[c]);
			fputc(',', f);
			clyde_fmt_csv_field(f, name);
		}
	}
	fputc('\n', f);
	for (p = 0; p < e->npoints; p++) {
		for (a = 0; a < e->naxes; a++) {
			clyde_fmt_csv_field(f, e->points[p].values[a]);
			fputc(',', f);
		}
		fputs(e->points[p].failed ? "failed" : "ok", f);
		for (m = 0; m < e->nmetrics; m++) {
			const struct clyde_exp_cellstat *cs = &ms[m].cells[p];
			const char *sep = "";

			if (!cs->n) {
				fputs(",,,0,,", f);
				continue;
			}
			fprintf(f, ",%.15g,", cs->mean);
			if (cs->n >= 2)
				fprintf(f, "%.15g", cs->ci95);
			/* A best that does not beat the runner-up is "top"
			 * only where the table marks it (a tie): on a single
			 * sample, or against one, nothing was tested. */
			fprintf(f, ",%zu,%s,", cs->n,
				cs->rel == CLYDE_EXP_REL_BEST && !ms[m].clear ?
					(*clyde_exp_mark(&ms[m], p) ? "top" :
								      "") :
					sig[cs->rel]);
			/* The table's ?, ! and degraded, by name. */
			csv_flag(f, cs->nimprecise, "imprecise", &sep);
			csv_flag(f, cs->disagree, "disagree", &sep);
			csv_flag(f, cs->ndegraded, "degraded", &sep);
			csv_flag(f, cs->ninflated, "inflated", &sep);
		}
		fputc('\n', f);
	}
	return 0;
}

/* The text or markdown table over the grid g (rows x cols strings). */
static int write_grid(FILE *f, char **g, size_t rows, size_t cols, size_t naxes,
		      bool md)
{
	size_t *w = calloc(cols, sizeof(*w)), r, c;

	if (!w)
		return -ENOMEM;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			if (width(g[r * cols + c]) > w[c])
				w[c] = width(g[r * cols + c]);
	for (r = 0; r < rows; r++) {
		for (c = 0; c < cols; c++) {
			const char *s = g[r * cols + c];
			size_t pad = w[c] - width(s);

			if (md) {
				fputs(c ? " | " : "| ", f);
				md_cell(f, s);
			} else {
				fputs(c ? "  " : "", f);
				fputs(s, f);
			}
			if (md || c + 1 < cols)
				fprintf(f, "%*s", (int)pad, "");
		}
		fputs(md ? " |\n" : "\n", f);
		if (md && r == 0) {
			for (c = 0; c < cols; c++) {
				size_t k, n = w[c] > 3 ? w[c] : 3;

				fputs(c ? " | " : "| ", f);
				for (k = 0; k + 1 < n; k++)
					fputc('-', f);
				fputc(c < naxes ? '-' : ':', f);
			}
			fputs(" |\n", f);
		}
	}
	free(w);
	return 0;
}

static int write_text(FILE *f, const struct clyde_exp *e,
		      const struct clyde_exp_mstat *ms, bool md)
{
	size_t cols = e->naxes + e->nmetrics, rows = e->npoints + 1, a, m, p;
	char **g = calloc(rows * cols, sizeof(*g));
	int rc = 0;

	if (!g)
		return -ENOMEM;
	for (a = 0; a < e->naxes; a++) {
		g[a] = strdup(e->axis_names[a]);
		for (p = 0; p < e->npoints; p++)
			g[(p + 1) * cols + a] = strdup(e->points[p].values[a]);
	}
	for (m = 0; m < e->nmetrics; m++) {
		const struct clyde_exp_metric *mt = &e->metrics[m];
		bool show_n = clyde_exp_counts_differ(&ms[m], e->npoints);
		struct clyde_exp_unit u;
		char buf[CELL_MAX + 256];

		clyde_exp_unit_for(mt, &ms[m], e->npoints, &u);
		snprintf(buf, sizeof(buf), "%s (%s)",
			 mt->label && *mt->label ? mt->label : mt->key, u.name);
		g[e->naxes + m] = strdup(buf);
		for (p = 0; p < e->npoints; p++) {
			const struct clyde_exp_cellstat *cs = &ms[m].cells[p];
			const char *mark = clyde_exp_mark(&ms[m], p);
			char cell[CELL_MAX], ratio[32] = "";

			clyde_exp_cell_text(cell, sizeof(cell), &e->points[p],
					    cs, &u, show_n);
			if (mt->amount && cs->n && cs->ratio > 0)
				snprintf(ratio, sizeof(ratio), " x%.2f",
					 cs->ratio);
			if (cs->nimprecise || cs->disagree) {
				size_t l = strlen(ratio);

				snprintf(ratio + l, sizeof(ratio) - l, " %s%s",
					 cs->nimprecise ? "?" : "",
					 cs->disagree ? "!" : "");
			}
			if (cs->ndegraded) {
				size_t l = strlen(ratio);

				snprintf(ratio + l, sizeof(ratio) - l,
					 " degraded");
			}
			if (cs->ninflated) {
				size_t l = strlen(ratio);

				snprintf(ratio + l, sizeof(ratio) - l,
					 " inflated");
			}
			snprintf(buf, sizeof(buf), "%s%s%s%s", cell, ratio,
				 *mark ? " " : "", mark);
			g[(p + 1) * cols + e->naxes + m] = strdup(buf);
		}
	}
	for (p = 0; p < rows * cols; p++)
		if (!g[p])
			rc = -ENOMEM;
	if (!rc)
		rc = write_grid(f, g, rows, cols, e->naxes, md);
	if (!rc)
		fprintf(f, "\n%s\n", clyde_exp_legend);
	/* A metric with a sample <= 0 cannot be logged (exp_analysis.h). */
	for (m = 0; !rc && m < e->nmetrics; m++)
		if (!e->metrics[m].amount && !ms[m].log_scale)
			fprintf(f,
				"%s: tested on raw values (a sample is not "
				"above 0).\n",
				e->metrics[m].label && *e->metrics[m].label ?
					e->metrics[m].label :
					e->metrics[m].key);
	for (p = 0; p < rows * cols; p++)
		free(g[p]);
	free(g);
	return rc;
}

int clyde_exp_table_write(FILE *f, const struct clyde_exp *e,
			  enum clyde_exp_format fmt)
{
	struct clyde_exp_mstat *ms;
	size_t m;
	int rc = 0;

	ms = calloc(e->nmetrics ? e->nmetrics : 1, sizeof(*ms));
	if (!ms)
		return -ENOMEM;
	for (m = 0; m < e->nmetrics && !rc; m++)
		rc = clyde_exp_mstat_init(e, m, &ms[m]);
	if (!rc)
		rc = fmt == CLYDE_EXP_CSV ?
			     write_csv(f, e, ms) :
			     write_text(f, e, ms, fmt == CLYDE_EXP_MARKDOWN);
	for (m = 0; m < e->nmetrics; m++)
		clyde_exp_mstat_release(&ms[m]);
	free(ms);
	if (!rc && ferror(f))
		rc = -EIO;
	return rc;
}

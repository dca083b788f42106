/*
 * The compare table as CSV for spreadsheets (see compare.h): one line per
 * run, so that a spreadsheet sorts and plots the runs without cleaning.
 * Every number is raw, in the base unit its column header names (B/s,
 * seeks/s, files/s, %, ns); every flag is text in a column of its own.
 */
#include "report/compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/format.h"

static const char *const metric_col[] = { "rate", "CPU", "latency max",
					  "latency p99" };

/* A header "<test> <what> (<unit>)" or "<test> <what>". */
static void head(FILE *f, const struct clyde_cmp_row *row, const char *what,
		 const char *unit)
{
	char buf[640];

	if (unit)
		snprintf(buf, sizeof(buf), "%s %s (%s)", row->test, what, unit);
	else
		snprintf(buf, sizeof(buf), "%s %s", row->test, what);
	fputc(',', f);
	clyde_fmt_csv_field(f, buf);
}

/* A raw number, '.' as its point, enough digits to be exact for a rate. */
static void num(FILE *f, double v)
{
	char buf[64];
	char *c;

	snprintf(buf, sizeof(buf), "%.15g", v);
	for (c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	fputc(',', f);
	fputs(buf, f);
}

static void text(FILE *f, const char *s)
{
	fputc(',', f);
	clyde_fmt_csv_field(f, s);
}

static bool split(const struct clyde_compare *cmp,
		  const struct clyde_cmp_row *row)
{
	return row->scope < CLYDE_SCOPE_COUNT &&
	       cmp->scopes[row->scope].nclasses > 1;
}

static void header(FILE *f, const struct clyde_compare *cmp, const char **keys,
		   size_t nkeys)
{
	char buf[320];
	size_t r, k;

	fputs("run,source,format,repeats,started (UTC)", f);
	for (k = 0; k < nkeys; k++) {
		snprintf(buf, sizeof(buf), "setting: %s", keys[k]);
		text(f, buf);
	}
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];

		head(f, row, metric_col[row->metric], row->base_unit);
		if (row->metric != CLYDE_CMP_RATE)
			continue;
		if (cmp->any_ci)
			head(f, row, "rate 95% CI half-width", row->base_unit);
		head(f, row, "state", NULL);
		if (cmp->any_flags)
			head(f, row, "flags", NULL);
		head(f, row, "best", NULL);
		if (split(cmp, row))
			head(f, row, "settings group", NULL);
		if (cmp->baseline >= 0) {
			snprintf(buf, sizeof(buf), "change vs %s",
				 cmp->labels[cmp->baseline]);
			head(f, row, buf, "%");
		}
		if (cmp->any_sig) {
			snprintf(buf, sizeof(buf), "significant vs %s",
				 cmp->labels[cmp->ref]);
			head(f, row, buf, NULL);
		}
	}
	fputc('\n', f);
}

/* "imprecise" for a too-fast number, else the state's words; "" for a
 * plain value. */
static const char *state_text(const struct clyde_cmp_cell *c)
{
	switch (c->state) {
	case CLYDE_LOADED_NOT_RUN:
		return "not run";
	case CLYDE_LOADED_SKIPPED:
		return "skipped";
	case CLYDE_LOADED_TOO_FAST:
		return c->has_value ? "imprecise" : "too fast";
	case CLYDE_LOADED_VALUE:
		return c->disagree	? "repeats disagree" :
		       c->runs_disagree ? "runs disagree" :
					  "";
	}
	return "";
}

static void line(FILE *f, const struct clyde_compare *cmp, size_t c,
		 const char **keys, size_t nkeys)
{
	const struct clyde_loaded_run *run = cmp->runs[c];
	char buf[64];
	size_t r, k;

	clyde_fmt_csv_field(f, cmp->labels[c]);
	text(f, run->source);
	text(f, run->format);
	fprintf(f, ",%zu", run->nrepeats);
	text(f, clyde_compare_run_date(buf, sizeof(buf), run));
	for (k = 0; k < nkeys; k++) {
		const char *v = clyde_loaded_kv_get(run, keys[k]);

		text(f, v ? v : "");
	}
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];
		const struct clyde_cmp_cell *cell = &row->cells[c];

		if (cell->has_value)
			num(f, cell->value);
		else
			fputc(',', f);
		if (row->metric != CLYDE_CMP_RATE)
			continue;
		if (cmp->any_ci) {
			if (cell->ci95 > 0)
				num(f, cell->ci95);
			else
				fputc(',', f);
		}
		text(f, state_text(cell));
		if (cmp->any_flags) {
			char fl[96];

			text(f, clyde_loaded_flags_text(fl, sizeof(fl),
							cell->flags, "; "));
		}
		text(f, cell->best     ? "yes" :
			cell->unranked ? "not ranked (flagged)" :
					 "no");
		if (split(cmp, row))
			text(f, cell->state == CLYDE_LOADED_NOT_RUN ?
					"" :
					clyde_compare_class_name(
						buf, sizeof(buf), cell->cls));
		if (cmp->baseline >= 0) {
			if (cell->has_change)
				num(f, cell->change_pct);
			else
				fputc(',', f);
		}
		if (cmp->any_sig)
			text(f, cell->sig == CLYDE_CMP_SIG_YES ? "yes" :
				cell->sig == CLYDE_CMP_SIG_NO  ? "no" :
								 "not tested");
	}
	fputc('\n', f);
}

int clyde_compare_write_csv(FILE *f, const struct clyde_compare *cmp)
{
	size_t nkeys = 0, c;
	const char **keys = clyde_compare_keys(cmp, true, &nkeys);

	if (!keys && nkeys)
		return -ENOMEM;
	header(f, cmp, keys, nkeys);
	for (c = 0; c < cmp->ncols; c++)
		line(f, cmp, c, keys, nkeys);
	free(keys);
	return 0;
}

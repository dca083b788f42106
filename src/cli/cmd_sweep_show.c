/*
 * What `clyde sweep` shows (cmd_sweep.h): the progress line, the
 * engine's messages, the experiment table, the list of experiments.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/exp_analysis.h"
#include "analysis/exp_load.h"
#include "analysis/experiment.h"
#include "cli/cmd_sweep.h"
#include "core/vis.h"
#include "report/exp_table.h"
#include "store/exp_store.h"
#include "store/history.h"

/* ---- the progress line ---------------------------------------------------- */

static void fmt_dur(uint64_t ns, char *buf, size_t cap)
{
	unsigned long s = (unsigned long)(ns / 1000000000ull);

	if (s >= 3600)
		snprintf(buf, cap, "%luh%02lum", s / 3600, s / 60 % 60);
	else
		snprintf(buf, cap, "%lum%02lus", s / 60, s % 60);
}

bool clyde_sweep_cli_draw(void *arg)
{
	struct sweep_progress *p = arg;
	uint64_t el = clyde_now(p->ctx) - p->start_ns;
	char e[32], eta[48] = "", vl[256], vw[512];
	size_t done = p->visits_done;
	size_t left =
		p->visits_total > p->visits_done + p->visits_skipped ?
			p->visits_total - p->visits_done - p->visits_skipped :
			0;

	if (!p->what[0])
		return false;
	fmt_dur(el, e, sizeof(e));
	if (done > 0) {
		char t[32];

		fmt_dur(el / done * left, t, sizeof(t));
		snprintf(eta, sizeof(eta), ", ETA %s", t);
	}
	/* The point's values and the step come from the file: escaped. */
	fprintf(stderr, "\r\033[Kpoint %zu/%zu (%s), repeat %u/%u: %s, %s%s",
		p->point, p->npoints, clyde_vis(vl, sizeof(vl), p->label, 0),
		p->repeat, p->nrepeats, clyde_vis(vw, sizeof(vw), p->what, 0),
		e, eta);
	fflush(stderr);
	return true;
}

static void progress_set(struct sweep_progress *p, size_t point,
			 unsigned repeat, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void progress_set(struct sweep_progress *p, size_t point,
			 unsigned repeat, const char *fmt, ...)
{
	va_list ap;

	if (!p->live.running)
		return;
	clyde_live_lock(&p->live);
	if (p->point != point + 1)
		clyde_sweep_point_label(p->s, point, p->label,
					sizeof(p->label));
	p->point = point + 1;
	p->repeat = repeat;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof(p->what), fmt, ap);
	va_end(ap);
	clyde_live_unlock(&p->live);
}

/* The engine's messages: one line each, under the progress line's lock so
 * that it is not redrawn in between. */
void clyde_sweep_cli_say(void *arg, const char *msg)
{
	struct sweep_progress *p = arg;

	clyde_live_lock(&p->live);
	clyde_live_erase_locked(&p->live);
	fprintf(stderr, "clyde sweep: %s\n", msg);
	clyde_live_unlock(&p->live);
}

void clyde_sweep_cli_progress(void *arg, size_t point, unsigned repeat,
			      const char *what)
{
	progress_set(arg, point, repeat, "%s", what);
}

void clyde_sweep_cli_visit(void *arg, bool skipped)
{
	struct sweep_progress *p = arg;

	clyde_live_lock(&p->live);
	if (skipped)
		p->visits_skipped++;
	else
		p->visits_done++;
	clyde_live_unlock(&p->live);
}

/* ---- the table ----------------------------------------------------------- */

/* The experiment table (report/exp_table.h): one row per point, one
 * column per metric, mean +- 95% CI, the best marked, significance
 * against it, the legend. */
static int sweep_write_table(FILE *f, const struct clyde_exp *e)
{
	char **said = NULL;
	size_t n = 0;
	int rc;

	fprintf(f, "experiment %s: %s\n", e->id, e->title);
	rc = clyde_exp_table_write(f, e, CLYDE_EXP_TEXT);
	if (rc < 0)
		return rc;
	/* The plain sentences (analysis/exp_analysis.h) where the data says
	 * something; none when it does not. */
	rc = clyde_exp_sentences(e, &said, &n);
	if (rc < 0)
		return rc;
	if (n)
		fputc('\n', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "- %s\n", said[i]);
	clyde_exp_sentences_free(said, n);
	if (e->ndeleted)
		fprintf(f,
			"\n%zu sample%s deleted from the history (clyde "
			"history delete): the table has fewer; clyde sweep "
			"--resume %s measures %s again\n",
			e->ndeleted, e->ndeleted == 1 ? " was" : "s were",
			e->id, e->ndeleted == 1 ? "it" : "them");
	return 0;
}

/* The table printed on f with every control character but the line ends
 * escaped (core/vis.h): its title, points and workload names come from
 * the file and --define, and must not reach the terminal as escapes. */
static int sweep_print_table(FILE *f, const struct clyde_exp *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	rc = sweep_write_table(m, e);
	if (fclose(m) && !rc)
		rc = -ENOMEM;
	if (!rc && text && clyde_vis_fputs(text, f, 1) == EOF)
		rc = -EIO;
	free(text);
	return rc;
}

int clyde_sweep_cli_show_table(struct clyde_ctx *ctx, struct clyde_history *h,
			       const char *id, const char *metrics, FILE *f)
{
	struct clyde_exp e;
	int rc;

	if (clyde_history_load_experiment(ctx, h, id, &e) < 0)
		return -1;
	if (clyde_exp_select_columns(ctx, &e, metrics) < 0) {
		clyde_exp_release(&e);
		return -1;
	}
	rc = sweep_print_table(f, &e);
	clyde_exp_release(&e);
	if (rc < 0)
		return clyde_err(ctx, -rc, "experiment %s: the table", id);
	return 0;
}

int clyde_sweep_cli_open_history(struct clyde_ctx *ctx, const char *db,
				 bool create, struct clyde_history **h)
{
	if (clyde_history_open(ctx, db, create, h) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return -1;
	}
	return 0;
}

int clyde_sweep_cli_list(struct clyde_ctx *ctx, struct clyde_history *h)
{
	struct clyde_exp_info *v;
	size_t n;

	if (clyde_exp_list(ctx, h, &v, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char vid[256], vf[PATH_MAX + 64];

		printf("%-40s %-9s %s\n",
		       clyde_vis(vid, sizeof(vid), v[i].id, 0), v[i].state,
		       clyde_vis(vf, sizeof(vf), v[i].file, 0));
		clyde_exp_info_release(&v[i]);
	}
	free(v);
	return 0;
}

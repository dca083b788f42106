/*
 * One set of samples, every decision path, one verdict (issue 29).  For
 * each case, X (two repeats, as `clyde run -x 2` makes) and Y (three) are
 * decided:
 *  - by the rule itself, clyde_decide() (analysis/decide.h);
 *  - by `clyde compare` (and `clyde history compare` and the HTML report,
 *    which show its model): the stars of the put_block row and the
 *    significance mark of X against Y as the reference column;
 *  - by the sweep's table and the experiment report: the relation of
 *    the point that is not the best (clyde_exp_mstat_init()) and its mark;
 *  - by until-decided in a sweep: clyde_exp_decide() over the two points;
 *  - by `clyde run -x 2 --until-decided 5 --baseline Y`: what
 *    clyde_exp_repeat() says about block write after making X's runs.
 * Each path's answer is read back as a verdict of X against Y and must be
 * the rule's.  The first case is the one the compare table used to get
 * wrong: Welch's test on raw values gives p = 0.03 (compare starred X
 * alone) while the rule, on log values, gives p = 0.2 and an interval far
 * wider than +-5%: cannot tell (the sweep kept the point open).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decide.h"
#include "analysis/exp_analysis.h"
#include "analysis/exp_decide.h"
#include "analysis/experiment.h"
#include "core/ctx.h"
#include "exp/repeat.h"
#include "report/compare.h"
#include "report/html.h"
#include "results/loaded.h"
#include "tap.h"

/* A failed check with its reason, or a passed one said. */
static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
	va_list ap;

	tap_fail++;
	fputs("FAIL: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void good(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void good(const char *fmt, ...)
{
	va_list ap;

	tap_pass++;
	fputs("ok: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define NX 2
#define NY 3

struct vcase {
	const char *what;
	double x[NX]; /* B/s, whole numbers (run -x's fake runs make them) */
	double y[NY];
	enum clyde_verdict want; /* X against Y */
};

static const struct vcase cases[] = {
	{ "raw Welch p 0.03, log p 0.2: cannot tell",
	  { 136, 117 },
	  { 5, 57, 63 },
	  CLYDE_VERDICT_CANNOT_TELL },
	{ "X far above Y: better",
	  { 130, 131 },
	  { 100, 101, 102 },
	  CLYDE_VERDICT_BETTER },
	{ "X far below Y: worse",
	  { 100, 101 },
	  { 120, 121, 122 },
	  CLYDE_VERDICT_WORSE },
	{ "X and Y within 2%: equivalent",
	  { 1000, 1004 },
	  { 995, 997, 999 },
	  CLYDE_VERDICT_EQUIVALENT },
};

/* The verdict of the point that is not the best against the best, turned
 * into X's against Y: x_best says which one was the best. */
static enum clyde_verdict as_x(enum clyde_verdict other_vs_best, bool x_best)
{
	if (!x_best)
		return other_vs_best;
	if (other_vs_best == CLYDE_VERDICT_WORSE)
		return CLYDE_VERDICT_BETTER;
	if (other_vs_best == CLYDE_VERDICT_BETTER)
		return CLYDE_VERDICT_WORSE;
	return other_vs_best;
}

/* ---- compare ------------------------------------------------------------ */

/* A clyde result of n runs with put_block at rates v[0..n) (B/s). */
static char *doc(const char *label, const double *v, size_t n)
{
	char *d = NULL, *runs = NULL;

	for (size_t i = 0; i < n; i++) {
		char *r = NULL;

		if (asprintf(&r,
			     "%s%s{\"tests\":[{\"name\":\"put_block\","
			     "\"state\":\"done\",\"rate_per_s\":%.0f,"
			     "\"too_fast\":false}]}",
			     runs ? runs : "", i ? ",\n" : "", v[i]) < 0)
			abort();
		free(runs);
		runs = r;
	}
	if (asprintf(&d,
		     "{\"schema\":\"clyde-result\",\"schema_version\":1,"
		     "\"kind\":\"bonnie\",\"label\":\"%s\",\n"
		     "\"config\":{\"file_size_mib\":1024,\"concurrency\":1,"
		     "\"direct\":true,\"engine\":\"psync\",\"iodepth\":1},\n"
		     "\"runs\":[\n%s]}\n",
		     label, runs) < 0)
		abort();
	free(runs);
	return d;
}

/* compare's answer: the marks of the put_block row (Y is the reference
 * column of the significance marks: the first run), and what the HTML
 * report says of them. */
static enum clyde_verdict by_compare(const struct vcase *c)
{
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	const struct clyde_cmp_row *row = NULL;
	const struct clyde_cmp_cell *x, *y;
	enum clyde_verdict v = CLYDE_VERDICT_CANNOT_TELL;
	char *dy = doc("Y", c->y, NY), *dx = doc("X", c->x, NX);
	char *html = NULL;
	size_t len = 0, i;
	FILE *f;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, dy, strlen(dy), "y.json", &set) ==
	      0);
	CHECK(clyde_loaded_read_buffer(&ctx, dx, strlen(dx), "x.json", &set) ==
	      0);
	free(dy);
	free(dx);
	CHECK(set.nruns == 2);
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	for (i = 0; i < cmp.nrows; i++)
		if (!strcmp(cmp.rows[i].test, "put_block") &&
		    cmp.rows[i].metric == CLYDE_CMP_RATE)
			row = &cmp.rows[i];
	CHECK(row != NULL);
	if (!row)
		goto out;
	y = &row->cells[0];
	x = &row->cells[1];
	CHECK(x->sig != CLYDE_CMP_SIG_NONE);
	if (x->best && !y->best) {
		v = CLYDE_VERDICT_BETTER;
	} else if (y->best && !x->best) {
		v = CLYDE_VERDICT_WORSE;
	} else if (x->best && y->best) {
		/* A tie: the marked run that is not the best says why. */
		const struct clyde_cmp_cell *o = x->decided ? x : y;

		CHECK(o->decided);
		v = o->decided ? o->verdict : CLYDE_VERDICT_CANNOT_TELL;
	} else {
		bad("%s: compare marks neither run", c->what);
	}
	/* The significance mark against the reference says the same. */
	CHECK((x->sig == CLYDE_CMP_SIG_YES) ==
	      (v == CLYDE_VERDICT_BETTER || v == CLYDE_VERDICT_WORSE));
	/* The HTML report prints "cannot tell" when the data do not
	 * decide, and only then. */
	f = open_memstream(&html, &len);
	if (f) {
		CHECK(clyde_html_write(f, &cmp, NULL) == 0);
		fclose(f);
		CHECK((strstr(html, "cannot tell from the best") != NULL) ==
		      (v == CLYDE_VERDICT_CANNOT_TELL));
		free(html);
	}
out:
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
	return v;
}

/* The best plain mean is not the rule's centre: A, one 2000 among eleven
 * 10s (mean 176), against B 100, 101, 102, which the rule (on log values,
 * p ~ 0.001) calls better.  A may not keep a mark: B takes it. */
static void test_beaten(void)
{
	static const double a[] = { 2000, 10, 10, 10, 10, 10,
				    10,	  10, 10, 10, 10, 10 };
	static const double b[] = { 100, 101, 102 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	char *da = doc("A", a, 12), *db = doc("B", b, 3);
	size_t i;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, da, strlen(da), "a.json", &set) ==
	      0);
	CHECK(clyde_loaded_read_buffer(&ctx, db, strlen(db), "b.json", &set) ==
	      0);
	free(da);
	free(db);
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	for (i = 0; i < cmp.nrows; i++) {
		const struct clyde_cmp_row *row = &cmp.rows[i];

		if (strcmp(row->test, "put_block") ||
		    row->metric != CLYDE_CMP_RATE)
			continue;
		CHECK(row->cells[0].value > row->cells[1].value);
		CHECK(row->cells[1].decided &&
		      row->cells[1].verdict == CLYDE_VERDICT_BETTER);
		CHECK(!row->cells[0].best && row->cells[1].best);
	}
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* ---- the sweep's table and until-decided --------------------------------- */

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

/* An experiment of two points, "Y" and "X", with block write's samples. */
static void two_points(struct clyde_exp *e, const struct vcase *c)
{
	const double *v[2] = { c->y, c->x };
	size_t n[2] = { NY, NX };

	memset(e, 0, sizeof(*e));
	e->naxes = 1;
	e->axis_names = calloc(1, sizeof(char *));
	e->axis_names[0] = xstrdup("run");
	e->nmetrics = 1;
	e->metrics = calloc(1, sizeof(*e->metrics));
	e->metrics[0].key = xstrdup("run.put_block");
	e->metrics[0].label = xstrdup("block write");
	e->metrics[0].unit = xstrdup("B/s");
	e->metrics[0].higher_better = true;
	e->npoints = 2;
	e->points = calloc(2, sizeof(*e->points));
	for (size_t p = 0; p < 2; p++) {
		struct clyde_exp_point *pt = &e->points[p];

		pt->values = calloc(1, sizeof(char *));
		pt->values[0] = xstrdup(p ? "X" : "Y");
		pt->cells = calloc(1, sizeof(*pt->cells));
		pt->cells[0].samples = calloc(n[p], sizeof(double));
		memcpy(pt->cells[0].samples, v[p], n[p] * sizeof(double));
		pt->cells[0].n = n[p];
	}
}

/* The sweep's table (and the experiment report): the relation of the
 * point that is not the best, and the best's star. */
static enum clyde_verdict by_table(const struct vcase *c)
{
	struct clyde_exp e;
	struct clyde_exp_mstat ms;
	enum clyde_verdict v = CLYDE_VERDICT_CANNOT_TELL;
	size_t other;

	two_points(&e, c);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	other = ms.best == 1 ? 0 : 1;
	switch (ms.cells[other].rel) {
	case CLYDE_EXP_REL_DIFF:
		v = CLYDE_VERDICT_WORSE;
		break;
	case CLYDE_EXP_REL_EQUIV:
		v = CLYDE_VERDICT_EQUIVALENT;
		break;
	case CLYDE_EXP_REL_SAME:
		v = CLYDE_VERDICT_CANNOT_TELL;
		break;
	default:
		bad("%s: the table did not test the points", c->what);
	}
	/* The best earns a star exactly when the other is worse. */
	CHECK(ms.clear == (v == CLYDE_VERDICT_WORSE));
	v = as_x(v, ms.best == 1);
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);
	return v;
}

/* until-decided over the two points, at the table's level (max_runs 0:
 * one look, 0.05) and margin (5%). */
static enum clyde_verdict by_sweep(const struct vcase *c)
{
	struct clyde_exp e;
	struct clyde_exp_decision d[2];
	enum clyde_verdict v = CLYDE_VERDICT_CANNOT_TELL;
	size_t best, other;

	two_points(&e, c);
	clyde_exp_decide(&e, 5, 0, clyde_exp_decide_level(0), NULL, d);
	best = d[1].stop == CLYDE_EXP_STOP_BEST ? 1 : 0;
	other = 1 - best;
	if (d[other].stop == CLYDE_EXP_STOP_WORSE)
		v = CLYDE_VERDICT_WORSE;
	else if (d[other].stop == CLYDE_EXP_STOP_EQUIV)
		v = CLYDE_VERDICT_EQUIVALENT;
	else
		CHECK(d[other].stop == CLYDE_EXP_OPEN);
	/* When every other point is open, no point is "the best" yet: the
	 * best is the one with the better mean. */
	if (d[other].stop == CLYDE_EXP_OPEN)
		best = c->x[0] + c->x[1] >
				       (c->y[0] + c->y[1] + c->y[2]) * NX / NY ?
			       1 :
			       0;
	clyde_exp_release(&e);
	return as_x(v, best == 1);
}

/* ---- clyde run -x 2 --until-decided 5 ------------------------------------ */

static struct {
	const double *rate;
	char said[8][512];
	unsigned nsaid;
} fk;

static int fake_run(void *arg, unsigned i, struct clyde_run *run)
{
	struct clyde_test_result *pb = &run->tests[CLYDE_PUT_BLOCK];

	(void)arg;
	pb->state = CLYDE_DONE;
	pb->elapsed_ns = 1000000000ull;
	pb->bytes = (uint64_t)fk.rate[i];
	return 0;
}

static void fake_say(void *arg, const char *msg)
{
	(void)arg;
	if (getenv("TEST_VERBOSE"))
		fprintf(stderr, "said: %s\n", msg);
	if (fk.nsaid < 8)
		snprintf(fk.said[fk.nsaid++], sizeof(fk.said[0]), "%s", msg);
}

static enum clyde_verdict by_run_x(const struct vcase *c)
{
	struct clyde_repeat_baseline b;
	struct clyde_run runs[NX];
	struct clyde_json_extra extra = { 0 };
	struct clyde_repeat_out out;
	struct clyde_repeat s = {
		.cap = NX,
		.until_decided_pct = 5,
		.baseline = &b,
		.hooks = { .run = fake_run, .say = fake_say },
	};
	struct clyde_ctx ctx;
	enum clyde_verdict v = CLYDE_VERDICT_CANNOT_TELL;
	const char *m = NULL;

	memset(&fk, 0, sizeof(fk));
	fk.rate = c->x;
	memset(&b, 0, sizeof(b));
	snprintf(b.name, sizeof(b.name), "y.json");
	b.samples[CLYDE_PUT_BLOCK] = malloc(NY * sizeof(double));
	memcpy(b.samples[CLYDE_PUT_BLOCK], c->y, NY * sizeof(double));
	b.n[CLYDE_PUT_BLOCK] = NY;
	clyde_ctx_init(&ctx);
	CHECK(clyde_exp_repeat(&ctx, &s, runs, &extra, &out) == 0);
	CHECK(out.done == NX && out.ncompared == 1);
	for (unsigned i = 0; i < fk.nsaid; i++)
		if (strstr(fk.said[i], "block write"))
			m = fk.said[i];
	CHECK(m != NULL);
	if (m && strstr(m, "significantly worse than the baseline"))
		v = CLYDE_VERDICT_WORSE;
	else if (m && strstr(m, "significantly better than the baseline"))
		v = CLYDE_VERDICT_BETTER;
	else if (m && strstr(m, "equivalent to the baseline"))
		v = CLYDE_VERDICT_EQUIVALENT;
	else
		CHECK(m && strstr(m, "still open"));
	CHECK(out.decided == (v != CLYDE_VERDICT_CANNOT_TELL));
	for (unsigned i = 0; i < NX; i++)
		clyde_run_release(&runs[i]);
	clyde_repeat_baseline_release(&b);
	clyde_ctx_release(&ctx);
	return v;
}

/* ---- the rule itself ------------------------------------------------------ */

static void test_rule(void)
{
	struct clyde_decide_rule r = clyde_decide_rule_default(true);
	struct clyde_decision d;
	static const double one[] = { 100 }, two[] = { 100, 101 };
	static const double zero[] = { 0, 100, 101 };

	/* A single sample tells nothing about the noise. */
	clyde_decide(one, 1, two, 2, &r, &d);
	CHECK(!d.tested && d.verdict == CLYDE_VERDICT_CANNOT_TELL && d.p == 1);
	/* A sample <= 0 cannot be logged: raw values. */
	clyde_decide(zero, 3, two, 2, &r, &d);
	CHECK(d.tested && !d.log_scale);
	/* Lower is better: the slower time is worse. */
	r = clyde_decide_rule_default(false);
	clyde_decide(cases[1].x, NX, cases[1].y, NY, &r, &d);
	CHECK(d.log_scale && d.verdict == CLYDE_VERDICT_WORSE);
	CHECK_STR(clyde_verdict_name(CLYDE_VERDICT_CANNOT_TELL), "cannot tell");
	CHECK_STR(clyde_verdict_name(CLYDE_VERDICT_EQUIVALENT), "equivalent");
}

int main(void)
{
	test_rule();
	test_beaten();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct vcase *c = &cases[i];
		struct clyde_decide_rule r = clyde_decide_rule_default(true);
		struct clyde_decision d;
		enum clyde_verdict v[4];
		static const char *const who[] = { "compare", "the table",
						   "until-decided", "run -x" };

		clyde_decide(c->x, NX, c->y, NY, &r, &d);
		if (d.verdict != c->want)
			bad("%s: the rule says %s", c->what,
			    clyde_verdict_name(d.verdict));
		v[0] = by_compare(c);
		v[1] = by_table(c);
		v[2] = by_sweep(c);
		v[3] = by_run_x(c);
		for (size_t k = 0; k < 4; k++)
			if (v[k] == c->want)
				good("%s: %s says %s", c->what, who[k],
				     clyde_verdict_name(v[k]));
			else
				bad("%s: %s says %s, the rule %s", c->what,
				    who[k], clyde_verdict_name(v[k]),
				    clyde_verdict_name(c->want));
	}
	return tap_done();
}

/*
 * The experiment analysis, table and sentences on small synthetic
 * experiments whose statistics can be checked by hand.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/exp_analysis.h"
#include "report/exp_html.h"
#include "report/exp_table.h"
#include "tap.h"

#define MIB 1048576.0

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

/* An experiment with axes "a[,b]" and metrics given as key/label/unit/hb
 * quadruples. */
static void exp_init(struct clyde_exp *e, const char *axes, size_t nm, ...)
{
	char *copy = xstrdup(axes), *s, *save = NULL;
	va_list ap;
	size_t m;

	memset(e, 0, sizeof(*e));
	e->axis_names = calloc(4, sizeof(char *));
	for (s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save))
		e->axis_names[e->naxes++] = xstrdup(s);
	free(copy);
	e->metrics = calloc(nm, sizeof(*e->metrics));
	va_start(ap, nm);
	for (m = 0; m < nm; m++) {
		e->metrics[m].key = xstrdup(va_arg(ap, const char *));
		e->metrics[m].label = xstrdup(va_arg(ap, const char *));
		e->metrics[m].unit = xstrdup(va_arg(ap, const char *));
		e->metrics[m].higher_better = va_arg(ap, int);
	}
	va_end(ap);
	e->nmetrics = nm;
	e->points = calloc(32, sizeof(*e->points));
}

/* Add a point: its axis values ("64k" or "64k,raid5") and per metric a
 * count then that many samples (doubles).  failed: no samples. */
static struct clyde_exp_point *add(struct clyde_exp *e, const char *vals,
				   int failed, ...)
{
	struct clyde_exp_point *p = &e->points[e->npoints++];
	char *copy = xstrdup(vals), *s, *save = NULL;
	size_t a = 0, m, i;
	va_list ap;

	p->values = calloc(e->naxes, sizeof(char *));
	for (s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save))
		p->values[a++] = xstrdup(s);
	free(copy);
	p->cells = calloc(e->nmetrics, sizeof(*p->cells));
	p->failed = failed != 0;
	if (failed)
		return p;
	va_start(ap, failed);
	for (m = 0; m < e->nmetrics; m++) {
		p->cells[m].n = (size_t)va_arg(ap, int);
		p->cells[m].samples = calloc(p->cells[m].n + 1, sizeof(double));
		for (i = 0; i < p->cells[m].n; i++)
			p->cells[m].samples[i] = va_arg(ap, double);
	}
	va_end(ap);
	return p;
}

static char *sentences(const struct clyde_exp *e);

static char *render(const struct clyde_exp *e, enum clyde_exp_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	CHECK(clyde_exp_table_write(f, e, fmt) == 0);
	fclose(f);
	return buf;
}

static void test_values(void)
{
	struct clyde_exp e;
	struct clyde_exp_axis ax;
	double d;
	bool sized;

	CHECK(clyde_exp_value_number("64k", &d, &sized) && d == 65536 && sized);
	CHECK(clyde_exp_value_number("1M", &d, &sized) && d == MIB && sized);
	CHECK(clyde_exp_value_number("4096", &d, &sized) && d == 4096 &&
	      !sized);
	CHECK(clyde_exp_value_number("0.5", &d, &sized) && d == 0.5);
	CHECK(!clyde_exp_value_number("ext4", &d, &sized));
	CHECK(!clyde_exp_value_number("64kb", &d, &sized));

	/* Sizes are ordered by value and charted on a log scale. */
	exp_init(&e, "chunk", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "1m", false, 1, 1.0);
	add(&e, "64k", false, 1, 1.0);
	add(&e, "256k", false, 1, 1.0);
	CHECK(clyde_exp_axis_init(&e, 0, &ax) == 0);
	CHECK(ax.n == 3 && ax.numeric && ax.sized && ax.log_scale);
	CHECK_STR(ax.values[0], "64k");
	CHECK_STR(ax.values[1], "256k");
	CHECK_STR(ax.values[2], "1m");
	clyde_exp_axis_release(&ax);
	clyde_exp_release(&e);

	/* Anything else keeps the file's order. */
	exp_init(&e, "fs", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "xfs", false, 1, 1.0);
	add(&e, "ext4", false, 1, 1.0);
	add(&e, "64k", false, 1, 1.0);
	CHECK(clyde_exp_axis_init(&e, 0, &ax) == 0);
	CHECK(!ax.numeric && !ax.log_scale);
	CHECK_STR(ax.values[0], "xfs");
	CHECK_STR(ax.values[2], "64k");
	clyde_exp_axis_release(&ax);
	clyde_exp_release(&e);
}

/* 64k: 100,101,102 MiB/s (mean 101, sd 1: h = 4.303 / sqrt(3) = 2.484);
 * 128k: 80,82,84 (mean 82, sd 2: h = 4.968), clearly below 64k;
 * 256k: one sample; 512k failed.  Seconds: 0.2,0.21,0.22 s is ms. */
static void fixed(struct clyde_exp *e)
{
	exp_init(e, "chunk", 2, "run.put_block", "block write", "B/s", 1,
		 "time.tar", "tar", "s", 0);
	add(e, "64k", false, 3, 100 * MIB, 101 * MIB, 102 * MIB, 3, 0.2, 0.21,
	    0.22);
	add(e, "128k", false, 3, 80 * MIB, 82 * MIB, 84 * MIB, 3, 0.2, 0.22,
	    0.21);
	add(e, "256k", false, 1, 60 * MIB, 1, 0.3);
	add(e, "512k", true);
}

static void test_text(void)
{
	struct clyde_exp e;
	char *out;

	fixed(&e);
	out = render(&e, CLYDE_EXP_TEXT);
	CHECK_STR(out,
		  "chunk  block write (MiB/s)  tar (ms)\n"
		  "64k    101.0 \xc2\xb1 2.5 (n=3) \xe2\x98\x85  "
		  "210.0 \xc2\xb1 24.8 (n=3) ~\n"
		  "128k   82.0 \xc2\xb1 5.0 (n=3) *   "
		  "210.0 \xc2\xb1 24.8 (n=3) ~\n"
		  "256k   60.0 (n=1)           300.0 (n=1)\n"
		  "512k   failed               failed\n"
		  "\n"
		  "\xe2\x98\x85 best, beating the runner-up beyond noise; * "
		  "significantly worse than the best\n"
		  "(Welch's t-test, p < 0.05); ~ not significantly different, "
		  "but the data cannot tell;\n"
		  "= equivalent: the 95% interval of the difference lies "
		  "within \xc2\xb1"
		  "5% of the best;\n"
		  "a best that does not beat the runner-up is marked as the "
		  "runner-up (a tie);\n"
		  "no mark: not tested (fewer than 2 samples); \xc2\xb1 "
		  "half-width of the 95% confidence\n"
		  "interval; (n=1) a single sample; x2.00 an amount (device "
		  "bytes) as a ratio to the least;\n"
		  "? some sample ran under 0.5 s (imprecise); ! the repeats "
		  "are 2x apart or more;\n"
		  "degraded: some sample was measured while an md array lost "
		  "members;\n"
		  "inflated: some sample's figure is inflated by a mount or "
		  "export setting (an async export).\n"
		  "The tests and the intervals of differences are on log "
		  "values (noise grows with the mean).\n");
	free(out);

	out = render(&e, CLYDE_EXP_MARKDOWN);
	CHECK(strstr(out, "| chunk | block write (MiB/s)") == out);
	CHECK(strstr(out, "\n| ----- | ------") != NULL);
	CHECK(strstr(out, "| 512k  | failed ") != NULL);
	free(out);

	/* CSV: raw base-unit numbers, an empty CI for n = 1. */
	out = render(&e, CLYDE_EXP_CSV);
	CHECK(strstr(out, "chunk,status,run.put_block.mean,run.put_block.ci95,"
			  "run.put_block.n,run.put_block.significant,"
			  "run.put_block.flags,"
			  "time.tar.mean,time.tar.ci95,time.tar.n,"
			  "time.tar.significant,time.tar.flags\n") == out);
	CHECK(strstr(out, "\n64k,ok,105906176,2604") != NULL);
	CHECK(strstr(out, ",3,best,,0.21,0.0248") != NULL);
	/* tar ties (the same mean): its top is no "best". */
	CHECK(strstr(out, ",0.21,0.0248413771175033,3,top,\n") != NULL);
	CHECK(strstr(out, "\n128k,ok,85983232,") != NULL);
	CHECK(strstr(out, ",3,yes,,0.21,") != NULL);
	CHECK(strstr(out, "\n256k,ok,62914560,,1,,,0.3,,1,,\n") != NULL);
	CHECK(strstr(out, "\n512k,failed,,,0,,,,,0,,\n") != NULL);
	free(out);
	clyde_exp_release(&e);
}

static void test_significance(void)
{
	struct clyde_exp e;
	struct clyde_exp_mstat ms;

	exp_init(&e, "fs", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "ext4", false, 3, 10.0, 11.0, 12.0);
	add(&e, "xfs", false, 3, 10.5, 11.5, 12.5);   /* overlaps */
	add(&e, "btrfs", false, 3, 20.0, 20.5, 21.0); /* the best, apart */
	add(&e, "zfs", false, 1, 30.0); /* higher, but alone: best, untested */
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 3);
	CHECK(ms.cells[3].rel == CLYDE_EXP_REL_BEST);
	CHECK(ms.cells[0].rel == CLYDE_EXP_REL_UNTESTED);
	CHECK(ms.cells[0].ci95 == 0 || ms.cells[0].n >= 2);
	clyde_exp_mstat_release(&ms);
	/* Without the lone sample, btrfs is best and both others differ. */
	clyde_exp_release(&e);

	exp_init(&e, "fs", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "ext4", false, 3, 10.0, 11.0, 12.0);
	add(&e, "xfs", false, 3, 10.5, 11.5, 12.5);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 1);
	CHECK(ms.cells[0].rel == CLYDE_EXP_REL_SAME);
	CHECK(ms.cells[0].p > 0.05);
	clyde_exp_mstat_release(&ms);
	add(&e, "btrfs", false, 3, 20.0, 20.5, 21.0);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 2);
	CHECK(ms.cells[0].rel == CLYDE_EXP_REL_DIFF);
	CHECK(ms.cells[1].rel == CLYDE_EXP_REL_DIFF);
	CHECK(ms.cells[0].p < 0.05);
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);

	/* The star needs the best to beat the runner-up beyond noise; a tie
	 * is marked alike; a single sample gets no star. */
	exp_init(&e, "fs", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "ext4", false, 3, 10.0, 11.0, 12.0);
	add(&e, "xfs", false, 3, 10.5, 11.5, 12.5);
	add(&e, "btrfs", false, 3, 10.0, 10.5, 11.0);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 1 && ms.runner == 0 && !ms.clear);
	CHECK_STR(clyde_exp_mark(&ms, 1), "~");
	CHECK_STR(clyde_exp_mark(&ms, 0), "~");
	CHECK_STR(clyde_exp_mark(&ms, 2), "~");
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);
	exp_init(&e, "fs", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "ext4", false, 1, 10.0);
	add(&e, "xfs", false, 1, 20.0);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 1 && !ms.clear);
	CHECK_STR(clyde_exp_mark(&ms, 1), "");
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);
	exp_init(&e, "fs", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "ext4", false, 3, 10.0, 10.1, 10.2);
	add(&e, "xfs", false, 3, 10.0, 10.1, 10.2);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.cells[1].rel == CLYDE_EXP_REL_EQUIV);
	CHECK_STR(clyde_exp_mark(&ms, 0), "=");
	CHECK_STR(clyde_exp_mark(&ms, 1), "=");
	/* The positive interval of each point, inside its samples' hull. */
	CHECK(ms.cells[0].lo > 9.8 && ms.cells[0].lo < 10.0);
	CHECK(ms.cells[0].hi > 10.2 && ms.cells[0].hi < 10.4);
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);

	/* Device bytes are amounts: no best, no star, a ratio to the least,
	 * and no sentence. */
	exp_init(&e, "mode", 1, "time.untar.write_bytes", "untar device write",
		 "B", 1);
	e.metrics[0].amount = true;
	add(&e, "ordered", false, 3, 100.0, 101.0, 102.0);
	add(&e, "journal", false, 3, 200.0, 202.0, 204.0);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 2 && ms.least == 0);
	CHECK(fabs(ms.cells[1].ratio - 2.0) < 1e-12);
	CHECK_STR(clyde_exp_mark(&ms, 0), "");
	CHECK_STR(clyde_exp_mark(&ms, 1), "");
	clyde_exp_mstat_release(&ms);
	{
		char *out = render(&e, CLYDE_EXP_TEXT), *ss;

		CHECK(strstr(out, "202.0 \xc2\xb1 5.0 x2.00\n") != NULL);
		CHECK(strstr(out, "\xe2\x98\x85 ") ==
		      strstr(out, "\xe2\x98\x85 best"));
		free(out);
		ss = sentences(&e);
		CHECK_STR(ss, "");
		free(ss);
	}
	clyde_exp_release(&e);

	/* Lower is better for seconds. */
	exp_init(&e, "fs", 1, "time.tar", "tar", "s", 0);
	add(&e, "ext4", false, 2, 5.0, 5.2);
	add(&e, "xfs", false, 2, 4.0, 4.1);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 1);
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);
}

/* The sentences of e, joined by newlines ("" for none). */
static char *sentences(const struct clyde_exp *e)
{
	char **s, *all = calloc(1, 1);
	size_t n, i, len = 0;

	CHECK(clyde_exp_sentences(e, &s, &n) == 0);
	for (i = 0; i < n; i++) {
		all = realloc(all, len + strlen(s[i]) + 2);
		memcpy(all + len, s[i], strlen(s[i]));
		len += strlen(s[i]);
		all[len++] = '\n';
		all[len] = '\0';
	}
	clyde_exp_sentences_free(s, n);
	return all;
}

/* The scale: log values, raw ones for a metric with a sample <= 0. */
static void test_scale(void)
{
	struct clyde_exp e;
	char *out;

	/* Every sample of 2K at least 18x slower than the best's: on raw
	 * seconds Welch's p is 0.055 (2K's spread is wide), "~"; on log
	 * values it is significantly worse, "*". */
	exp_init(&e, "bs", 1, "time.write", "write time", "s", 0);
	add(&e, "2K", false, 3, 5.329478964, 2.488052053, 6.209130176);
	add(&e, "1M", false, 3, 0.131600837, 0.138061718, 0.115321638);
	out = render(&e, CLYDE_EXP_TEXT);
	CHECK(strstr(out, "2K  4.676 \xc2\xb1 4.831 ! *\n") != NULL);
	CHECK(strstr(out, "1M  0.128 \xc2\xb1 0.029 \xe2\x98\x85\n") != NULL);
	CHECK(strstr(out, "tested on raw values") == NULL);
	free(out);
	clyde_exp_release(&e);

	/* A zero cannot be logged: that metric is tested on raw values, and
	 * the table says so under the legend. */
	exp_init(&e, "fs", 2, "run.put_block", "block write", "B/s", 1,
		 "run.seeks", "random seeks", "ops/s", 1);
	add(&e, "ext4", false, 3, 100.0, 101.0, 102.0, 2, 0.0, 2.0);
	add(&e, "xfs", false, 3, 50.0, 51.0, 52.0, 2, 3.0, 5.0);
	out = render(&e, CLYDE_EXP_TEXT);
	CHECK(strstr(out, "\nrandom seeks: tested on raw values (a sample is "
			  "not above 0).\n") != NULL);
	CHECK(strstr(out, "block write: tested on raw") == NULL);
	free(out);
	clyde_exp_release(&e);
}

static void test_sentences(void)
{
	struct clyde_exp e;
	char *s;

	/* A plateau: 2048 and above are the same as the best (4096). */
	exp_init(&e, "stripe_cache_size", 1, "run.put_block", "block write",
		 "B/s", 1);
	add(&e, "256", false, 3, 50.0, 51.0, 52.0);
	add(&e, "1024", false, 3, 90.0, 91.0, 92.0);
	add(&e, "2048", false, 3, 100.0, 101.0, 102.0);
	add(&e, "4096", false, 3, 101.0, 102.0, 103.0);
	add(&e, "8192", false, 3, 100.0, 101.0, 102.0);
	s = sentences(&e);
	CHECK_STR(s, "stripe_cache_size 2048 and above does not change block "
		     "write (within \xc2\xb1"
		     "5% of the best, 4096); "
		     "stripe_cache_size 1024 is 11% worse (significant, "
		     "p < 0.001).\n");
	free(s);
	clyde_exp_release(&e);

	/* A best with a significant margin over the runner-up. */
	exp_init(&e, "chunk", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "128k", false, 3, 99.0, 100.0, 101.0);
	add(&e, "64k", false, 3, 118.0, 119.0, 120.0);
	add(&e, "256k", false, 3, 80.0, 81.0, 82.0);
	s = sentences(&e);
	CHECK_STR(s, "chunk 64k is best for block write: +19% against 128k, "
		     "the runner-up (significant, p < 0.001).\n");
	free(s);
	clyde_exp_release(&e);

	/* Not different, but the intervals are too wide to say "the same":
	 * the data cannot tell, and says how many repeats would.  The
	 * intervals are those of log(x) mapped back (asymmetric), the
	 * repeats from the spread of log(x) against log(1.10). */
	exp_init(&e, "fs", 1, "time.tar", "tar", "s", 0);
	add(&e, "ext4", false, 3, 10.0, 11.0, 12.0);
	add(&e, "xfs", false, 3, 10.5, 11.5, 12.5);
	s = sentences(&e);
	CHECK_STR(s, "Cannot tell whether fs changes tar: with n=3 the 95% "
		     "intervals are up to -20% .. +25%; about 16 repeats "
		     "would detect a 10% difference.\n");
	free(s);
	clyde_exp_release(&e);

	/* The case of issue 22: n = 2, 522 +- 1856 MiB/s.  Not "does not
	 * change": cannot tell. */
	exp_init(&e, "logbsize", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "32k", false, 2, 376 * MIB, 668 * MIB);
	add(&e, "256k", false, 2, 450 * MIB, 610 * MIB);
	s = sentences(&e);
	CHECK_STR(s, "Cannot tell whether logbsize changes block write: with "
		     "n=2 the 95% intervals are up to -97% .. +3752%; about "
		     "287 repeats would detect a 10% difference.\n");
	free(s);
	clyde_exp_release(&e);

	/* Equivalent within the margin: now "does not change" is said. */
	exp_init(&e, "fs", 1, "time.tar", "tar", "s", 0);
	add(&e, "ext4", false, 3, 10.0, 10.05, 10.1);
	add(&e, "xfs", false, 3, 10.02, 10.07, 10.12);
	add(&e, "btrfs", false, 3, 10.01, 10.06, 10.11);
	s = sentences(&e);
	CHECK_STR(s, "fs does not change tar: every value is within "
		     "\xc2\xb1"
		     "5% of the best, ext4 (the 95% interval of "
		     "each difference lies inside the margin).\n");
	free(s);
	clyde_exp_release(&e);

	/* No repeats, or a runner-up with one sample: the data cannot tell
	 * (a point twice as fast on one sample is not named best); one
	 * point with a value: nothing is said. */
	exp_init(&e, "chunk", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "64k", false, 1, 200.0);
	add(&e, "128k", false, 1, 100.0);
	add(&e, "256k", false, 1, 150.0);
	s = sentences(&e);
	CHECK_STR(s, "Cannot tell whether chunk changes block write: a single "
		     "sample at 64k, 128k and 256k (n=1): no difference is "
		     "tested without two samples at each point (repeat = 2 "
		     "or more).\n");
	free(s);
	/* The CSV, too, names no top point: nothing was tested. */
	s = render(&e, CLYDE_EXP_CSV);
	CHECK(strstr(s, "\n64k,ok,200,,1,,\n") != NULL);
	CHECK(strstr(s, "top") == NULL && strstr(s, "best") == NULL);
	free(s);
	e.points[1].cells[0].n = 0; /* keep the sample array, drop it */
	e.points[2].cells[0].n = 0;
	s = sentences(&e);
	CHECK_STR(s, "");
	free(s);
	clyde_exp_release(&e);

	exp_init(&e, "chunk", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "64k", false, 3, 200.0, 201.0, 202.0);
	add(&e, "128k", false, 1, 100.0);
	s = sentences(&e);
	CHECK_STR(s, "Cannot tell whether chunk changes block write: a single "
		     "sample at 128k (n=1): no difference is tested without "
		     "two samples at each point (repeat = 2 or more).\n");
	free(s);
	clyde_exp_release(&e);

	/* Two axes: one sentence per value of the second, then the
	 * interaction when the best differs. */
	exp_init(&e, "chunk,level", 1, "run.put_block", "block write", "B/s",
		 1);
	add(&e, "64k,raid5", false, 3, 118.0, 119.0, 120.0);
	add(&e, "128k,raid5", false, 3, 99.0, 100.0, 101.0);
	add(&e, "64k,raid6", false, 3, 79.0, 80.0, 81.0);
	add(&e, "128k,raid6", false, 3, 99.0, 100.0, 101.0);
	s = sentences(&e);
	CHECK_STR(s, "With level raid5, chunk 64k is best for block write: "
		     "+19% against 128k, the runner-up (significant, "
		     "p < 0.001).\n"
		     "With level raid6, chunk 128k is best for block write: "
		     "+25% against 64k, the runner-up (significant, "
		     "p < 0.001).\n"
		     "The best chunk for block write depends on level: 64k "
		     "with level raid5, 128k with level raid6.\n");
	free(s);
	clyde_exp_release(&e);
}

static void test_select(void)
{
	struct clyde_exp e;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	fixed(&e);
	CHECK(clyde_exp_select(&ctx, &e, "run.nope") == -EINVAL);
	CHECK(strstr(clyde_errmsg(&ctx), "\"run.nope\"") != NULL);
	CHECK(e.nmetrics == 2);
	clyde_err_clear(&ctx);
	CHECK(clyde_exp_select(&ctx, &e, "time.tar,time.tar") == -EINVAL);
	clyde_err_clear(&ctx);
	CHECK(clyde_exp_select(&ctx, &e, " time.tar , run.put_block") == 0);
	CHECK(e.nmetrics == 2);
	CHECK_STR(e.metrics[0].key, "time.tar");
	CHECK(e.points[0].cells[0].n == 3 &&
	      e.points[0].cells[0].samples[0] == 0.2);
	CHECK(clyde_exp_select(&ctx, &e, "run.put_block") == 0);
	CHECK(e.nmetrics == 1);
	CHECK(e.points[1].cells[0].samples[1] == 82 * MIB);
	CHECK(clyde_exp_select(&ctx, &e, "") == 0 && e.nmetrics == 1);
	clyde_exp_release(&e);
	clyde_ctx_release(&ctx);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

/* The page: a chart per metric, a line and a band per series, escaped. */
static void test_html(void)
{
	struct clyde_exp e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	exp_init(&e, "chunk,fs", 2, "run.put_block", "block <write>", "B/s", 1,
		 "time.tar", "tar", "s", 0);
	add(&e, "64k,ext4", false, 2, 1.0, 2.0, 2, 3.0, 4.0);
	add(&e, "128k,ext4", false, 2, 1.0, 2.0, 1, 3.0);
	add(&e, "64k,<script>", false, 2, 1.0, 2.0, 2, 3.0, 4.0);
	add(&e, "128k,<script>", true);
	e.points[0].config = xstrdup("mkfs.ext4 & <b>");
	e.command = xstrdup("clyde sweep md.ini --define level=<5>");
	e.machine = xstrdup("host box, kernel 6.1");
	e.points[0].cells[0].nimprecise = 1;
	e.points[1].cells[0].ndegraded = 1;
	e.points[2].cells[0].ninflated = 2;
	f = open_memstream(&buf, &len);
	CHECK(clyde_exp_html_write(f, &e, NULL) == 0);
	fclose(f);
	CHECK(count(buf, "<svg") == 2);
	CHECK(count(buf, "<polyline class=\"series\"") == 4);
	CHECK(count(buf, "<polygon class=\"band\"") == 4);
	CHECK(count(buf, "<details") == 4);
	CHECK(!strstr(buf, "<script") && !strstr(buf, "<b>") &&
	      !strstr(buf, "<write>"));
	CHECK(strstr(buf, "fs &lt;script&gt;") != NULL);
	CHECK(strstr(buf, "mkfs.ext4 &amp; &lt;b&gt;") != NULL);
	CHECK(strstr(buf, "<title>clyde experiment</title>") != NULL);
	/* Every sample is a dot: 2 + 2 + 2 + 1 + 2 + 2. */
	CHECK(count(buf, "<circle class=\"sample\"") == 11);
	CHECK(strstr(buf, "svg.chart.exp{width:100%") != NULL);
	/* The command line, the machine and the stack are on the page; the
	 * imprecise sample is flagged in the table and the chart. */
	CHECK(strstr(
		buf,
		"<code>clyde sweep md.ini --define level=&lt;5&gt;</code>"));
	CHECK(strstr(buf, "<dd>host box, kernel 6.1</dd>") != NULL);
	CHECK(strstr(buf, "<dt>stack</dt><dd>mkfs.ext4 &amp; &lt;b&gt;"));
	CHECK(count(buf, "title=\"1 of 2 samples ran under 0.5 s") == 1);
	CHECK(strstr(buf, "; 1 imprecise (under 0.5 s)") != NULL);
	/* 1 and 2: repeats 2x apart, flagged. */
	CHECK(strstr(buf, "repeats are 2x apart or more\">!</span>") != NULL);
	/* A sample measured on a degraded array is flagged. */
	CHECK(count(buf, "while an md array lost members\">degraded</span>") ==
	      1);
	/* ... and one an async export inflated. */
	CHECK(count(buf, "title=\"2 of 2 samples inflated by a mount or "
			 "export setting") == 1);
	CHECK(count(buf, "; 2 inflated by a mount or export setting") == 1);
	free(buf);
	/* ... and in the text table, on that cell only. */
	buf = render(&e, CLYDE_EXP_TEXT);
	CHECK(count(buf, " degraded") == 1);
	CHECK(strstr(buf, "degraded: some sample was measured while") != NULL);
	/* The cell, and the legend's "is inflated by". */
	CHECK(count(buf, " inflated") == 2);
	CHECK(strstr(buf, "\ninflated: some sample's figure is inflated") !=
	      NULL);
	free(buf);
	/* ... and in the CSV's flags, by name: 64k,ext4 imprecise and 2x
	 * apart (1 and 2), 128k,ext4 degraded and 2x apart. */
	buf = render(&e, CLYDE_EXP_CSV);
	CHECK(strstr(buf, "run.put_block.flags,") != NULL);
	CHECK(strstr(buf, "\n64k,ext4,ok,1.5,") != NULL);
	CHECK(strstr(buf, ",imprecise disagree,") != NULL);
	CHECK(strstr(buf, ",disagree degraded,") != NULL);
	CHECK(count(buf, "degraded") == 1);
	CHECK(count(buf, "imprecise") == 1);
	CHECK(strstr(buf, "\n64k,<script>,ok,1.5,") != NULL &&
	      strstr(strstr(buf, "\n64k,<script>,ok,1.5,"),
		     ",disagree inflated,"));
	CHECK(count(buf, "inflated") == 1);
	free(buf);
	clyde_exp_release(&e);

	/* 522 +- 1856 MiB/s: the band stays above zero (a log-scale
	 * interval), so no tick or band point is negative. */
	exp_init(&e, "logbsize", 1, "run.put_block", "block write", "B/s", 1);
	add(&e, "32k", false, 2, 376 * MIB, 668 * MIB);
	add(&e, "256k", false, 2, 450 * MIB, 610 * MIB);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(clyde_exp_html_write(f, &e, NULL) == 0);
	fclose(f);
	CHECK(strstr(buf, "\">-") == NULL);
	CHECK(strstr(buf, "on the log scale") != NULL);
	/* One axis, no legend: the plot takes the chart's width (the x axis
	 * runs to 960 - 24, not to the legend's 960 - 190). */
	CHECK(strstr(buf, "<line class=\"axis\" x1=\"80\" y1=\"304\" "
			  "x2=\"936\" y2=\"304\"/>") != NULL);
	/* No star: the best does not beat the runner-up beyond noise. */
	CHECK(strstr(buf, "class=\"best\"") == NULL);
	CHECK(strstr(buf, "num best") == NULL);
	free(buf);
	clyde_exp_release(&e);
}

int main(void)
{
	test_values();
	test_text();
	test_significance();
	test_sentences();
	test_scale();
	test_select();
	test_html();
	return tap_done();
}

/*
 * exp/repeat: the series of one configuration driven with a fake workload
 * (no file is written, no command run): -x N makes N runs and shows each,
 * until-stable stops when clyde_stats_settled() says so, until-decided
 * stops once the sweep's rule (clyde_exp_decide) has decided every test
 * against the baseline -- worse, better, equivalent -- saying each
 * decision once, and runs to the cap saying what is still open; a failed
 * run ends the series with its error; a baseline of one run is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/repeat.h"
#include "tap.h"

/* The fake workload: put_block at rate[i % nrate] B/s, seq_create at
 * 1000 files/s. */
static struct {
	const double *rate;
	size_t nrate;
	unsigned nrun, ndone, fail_at; /* fail run fail_at (1-based) */
	char said[16][256];
	unsigned nsaid;
} fk;

static int fake_run(void *arg, unsigned i, struct clyde_run *run)
{
	struct clyde_test_result *pb = &run->tests[CLYDE_PUT_BLOCK];
	struct clyde_test_result *sc = &run->tests[CLYDE_SEQ_CREATE];

	(void)arg;
	fk.nrun++;
	if (fk.nrun == fk.fail_at)
		return -EIO;
	pb->state = CLYDE_DONE;
	pb->elapsed_ns = 1000000000ull;
	pb->bytes = (uint64_t)fk.rate[i % fk.nrate];
	sc->state = CLYDE_DONE;
	sc->elapsed_ns = 1000000000ull;
	sc->ops = 1000;
	return 0;
}

static int fake_done(void *arg, const struct clyde_run *runs, unsigned i)
{
	(void)arg;
	(void)runs;
	CHECK(i == fk.ndone);
	fk.ndone++;
	return 0;
}

static void fake_say(void *arg, const char *msg)
{
	(void)arg;
	if (getenv("TEST_VERBOSE"))
		fprintf(stderr, "said: %s\n", msg);
	if (fk.nsaid < 16)
		snprintf(fk.said[fk.nsaid++], sizeof(fk.said[0]), "%s", msg);
}

/* The first message that holds `what`, or NULL. */
static const char *said(const char *what)
{
	for (unsigned i = 0; i < fk.nsaid; i++)
		if (strstr(fk.said[i], what))
			return fk.said[i];
	return NULL;
}

static int series(const double *rate, size_t nrate, unsigned cap, double stable,
		  double decided, const struct clyde_repeat_baseline *b,
		  struct clyde_repeat_out *out)
{
	struct clyde_run runs[32];
	struct clyde_json_extra extra = { 0 };
	struct clyde_repeat s = {
		.cap = cap,
		.until_stable_pct = stable,
		.until_decided_pct = decided,
		.baseline = b,
		.hooks = { .run = fake_run, .done = fake_done, .say = fake_say },
	};
	struct clyde_ctx ctx;
	int rc;

	memset(&fk, 0, sizeof(fk));
	fk.rate = rate;
	fk.nrate = nrate;
	clyde_ctx_init(&ctx);
	rc = clyde_exp_repeat(&ctx, &s, runs, &extra, out);
	CHECK(extra.runs_done == out->done && extra.max_runs == cap);
	for (unsigned i = 0; i < cap; i++)
		clyde_run_release(&runs[i]);
	clyde_ctx_release(&ctx);
	return rc;
}

/* A baseline: put_block samples v[0..n), seq_create 1000 files/s n times. */
static void baseline(struct clyde_repeat_baseline *b, const double *v, size_t n)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "old.json");
	b->samples[CLYDE_PUT_BLOCK] = malloc(n * sizeof(double));
	b->samples[CLYDE_SEQ_CREATE] = malloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		b->samples[CLYDE_PUT_BLOCK][i] = v[i];
		b->samples[CLYDE_SEQ_CREATE][i] = 1000.0;
	}
	b->n[CLYDE_PUT_BLOCK] = b->n[CLYDE_SEQ_CREATE] = n;
}

int main(void)
{
	static const double steady[] = { 100e6 };
	static const double base[] = { 100e6, 101e6, 99e6, 100.5e6 };
	static const double slow[] = { 50e6, 50.5e6, 49.5e6 };
	static const double fast[] = { 200e6, 202e6, 198e6 };
	static const double close[] = { 100.2e6, 99.8e6, 100.1e6, 99.9e6 };
	static const double wild[] = { 40e6, 180e6 };
	struct clyde_repeat_baseline b;
	struct clyde_repeat_out out;

	/* -x 4: four runs, each shown. */
	CHECK(series(steady, 1, 4, 0, 0, NULL, &out) == 0);
	CHECK(out.done == 4 && fk.nrun == 4 && fk.ndone == 4);
	CHECK(fk.nsaid == 0);

	/* until-stable: equal rates settle at CLYDE_STATS_SETTLE_MIN_N. */
	CHECK(series(steady, 1, 10, 5, 0, NULL, &out) == 0);
	CHECK(out.done == 3 && fk.nrun == 3);
	/* ... and rates that never settle run to the cap. */
	CHECK(series(wild, 2, 6, 1, 0, NULL, &out) == 0);
	CHECK(out.done == 6);

	baseline(&b, base, 4);
	/* Half the baseline's rate: worse after two runs, the equal
	 * seq_create equivalent; both said, and nothing more is run. */
	CHECK(series(slow, 3, 10, 0, 5, &b, &out) == 0);
	CHECK(out.done == 2 && fk.nrun == 2);
	CHECK(out.decided && out.nopen == 0 && out.ncompared == 2);
	CHECK(said("block write decided after 2 runs: significantly worse "
		   "than the baseline") != NULL);
	CHECK(fk.nsaid == 2);
	{
		const char *m = said("equivalent to the baseline within");

		CHECK(m != NULL &&
		      strstr(m, clyde_test_label(CLYDE_SEQ_CREATE)) ==
			      m + strlen("until-decided: "));
	}

	/* Twice the rate: better, said as such. */
	CHECK(series(fast, 3, 10, 0, 5, &b, &out) == 0);
	CHECK(out.decided && out.done == 2);
	CHECK(said("significantly better than the baseline") != NULL);

	/* Within a fraction of a percent: equivalent within +-5%. */
	CHECK(series(close, 4, 10, 0, 5, &b, &out) == 0);
	CHECK(out.decided && out.done >= 2 && out.done < 10);
	{
		const char *m = said("block write decided");

		CHECK(m != NULL && strstr(m, "equivalent") != NULL);
	}

	/* Rates all over the place: open to the cap, and said so. */
	CHECK(series(wild, 2, 5, 0, 1, &b, &out) == 0);
	CHECK(out.done == 5 && !out.decided && out.nopen == 1);
	CHECK(said("block write still open after 5 runs") != NULL);

	/* A failed run ends the series with its error. */
	memset(&fk, 0, sizeof(fk));
	{
		struct clyde_run runs[8];
		struct clyde_json_extra extra = { 0 };
		struct clyde_repeat s = {
			.cap = 8,
			.until_decided_pct = 5,
			.baseline = &b,
			.hooks = { .run = fake_run, .done = fake_done },
		};
		struct clyde_ctx ctx;

		fk.rate = wild;
		fk.nrate = 2;
		fk.fail_at = 3;
		clyde_ctx_init(&ctx);
		CHECK(clyde_exp_repeat(&ctx, &s, runs, &extra, &out) == -EIO);
		CHECK(out.done == 2 && fk.ndone == 2);
		for (unsigned i = 0; i < 8; i++)
			clyde_run_release(&runs[i]);
		clyde_ctx_release(&ctx);
	}
	clyde_repeat_baseline_release(&b);

	/* A baseline must have two runs of a test. */
	{
		struct clyde_loaded_test tests[CLYDE_TEST_COUNT];
		struct clyde_loaded_run r;
		struct clyde_ctx ctx;
		double one = 5e6;

		memset(tests, 0, sizeof(tests));
		memset(&r, 0, sizeof(r));
		r.kind = CLYDE_LOADED_BONNIE;
		r.tests = tests;
		r.ntests = CLYDE_TEST_COUNT;
		tests[CLYDE_PUT_BLOCK].samples = &one;
		tests[CLYDE_PUT_BLOCK].nsamples = 1;
		clyde_ctx_init(&ctx);
		CHECK(clyde_repeat_baseline_from(&ctx, &r, "one.json", &b) < 0);
		CHECK(strstr(clyde_errmsg(&ctx), "it holds one run") != NULL);
		clyde_ctx_release(&ctx);
		r.kind = CLYDE_LOADED_TREE;
		clyde_ctx_init(&ctx);
		CHECK(clyde_repeat_baseline_from(&ctx, &r, "t.json", &b) < 0);
		CHECK(strstr(clyde_errmsg(&ctx), "not a result of clyde run") !=
		      NULL);
		clyde_ctx_release(&ctx);
	}
	return tap_done();
}

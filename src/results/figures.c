/*
 * A target kind's own figures in the outputs, through io's table of kinds
 * (figures.h).  The order of the kinds' JSON members and text sections is
 * that table's.
 */
#include "results/figures.h"

#include <string.h>

#include "results/format.h"
#include "results/testio.h"

unsigned clyde_figs_does(enum clyde_test id)
{
	unsigned d = 0;

	if (clyde_test_is_io(id))
		d |= CLYDE_FIGS_IO;
	if (clyde_test_writes_its_bytes((int)id))
		d |= CLYDE_FIGS_ALL_WRITTEN;
	switch (id) {
	case CLYDE_PUTC:
	case CLYDE_PUT_BLOCK:
	case CLYDE_SEQ_CREATE:
	case CLYDE_SEQ_DEL:
	case CLYDE_RAN_CREATE:
	case CLYDE_RAN_DEL:
		d |= CLYDE_FIGS_WRITES;
		break;
	case CLYDE_REWRITE:
		d |= CLYDE_FIGS_WRITES | CLYDE_FIGS_READS;
		break;
	case CLYDE_GETC:
	case CLYDE_GET_BLOCK:
	case CLYDE_SEEKS:
		d |= CLYDE_FIGS_READS;
		break;
	case CLYDE_SEQ_STAT:
	case CLYDE_RAN_STAT:
		d |= CLYDE_FIGS_READS | CLYDE_FIGS_STATS;
		break;
	default:
		break;
	}
	return d;
}

/* The part of a test that needs no run. */
static void of_test(const struct clyde_test_result *t,
		    const struct clyde_target_ops *k,
		    struct clyde_figs_test *out)
{
	memset(out, 0, sizeof(*out));
	out->done = t->state == CLYDE_DONE;
	out->bytes = t->bytes;
	out->figs = clyde_test_figs(t, k);
	out->evicted = t->cache.evicted;
	out->cache_measured = t->cache.measured;
	out->resident_bytes = t->cache.resident_bytes;
	out->total_bytes = t->cache.total_bytes;
	out->server = &t->cache.server;
}

/* Test id of run r as the kinds' hooks see it, with the figures of kind
 * k (NULL when they are another kind's). */
static void test_of(const struct clyde_run *r, enum clyde_test id,
		    const struct clyde_target_ops *k,
		    struct clyde_figs_test *out)
{
	struct clyde_test_io io;

	of_test(&r->tests[id], k, out);
	out->label = clyde_test_label(id);
	out->does = clyde_figs_does(id);
	clyde_test_io_of_run(r, (int)id, &io);
	out->io_have = io.have;
	out->io_read = io.read;
	out->io_write = io.write;
}

/* Every test of r as kind k's hooks see it, into tests[]. */
static void run_of(const struct clyde_run *r, unsigned nruns,
		   const struct clyde_target_ops *k,
		   struct clyde_figs_test tests[CLYDE_TEST_COUNT],
		   struct clyde_figs_run *out)
{
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		test_of(r, (enum clyde_test)i, k, &tests[i]);
	out->stack = &r->env.stack;
	out->nruns = nruns;
	out->ntests = CLYDE_TEST_COUNT;
	out->tests = tests;
}

void clyde_figs_json(struct clyde_jw *w, const struct clyde_run *r,
		     enum clyde_test id, enum clyde_figs_at at)
{
	struct clyde_figs_test t;
	bool made = false;
	size_t n;
	const struct clyde_target_ops *const *kinds = clyde_target_kinds(&n);

	for (size_t i = 0; i < n; i++) {
		const struct clyde_target_figs *f = kinds[i]->figs;

		if (!f || f->json_at != at || !f->json)
			continue;
		/* The test once; its figures are each kind's own. */
		if (!made)
			test_of(r, id, NULL, &t);
		made = true;
		t.figs = clyde_test_figs(&r->tests[id], kinds[i]);
		f->json(w, &r->env.stack, &t);
	}
}

void clyde_figs_text(FILE *f, const struct clyde_run *runs, unsigned n)
{
	struct clyde_figs_test tests[CLYDE_TEST_COUNT];
	struct clyde_figs_run run;
	size_t nk;
	const struct clyde_target_ops *const *kinds = clyde_target_kinds(&nk);

	if (n == 0)
		return;
	for (size_t i = 0; i < nk; i++) {
		if (!kinds[i]->figs || !kinds[i]->figs->text)
			continue;
		run_of(&runs[0], n, kinds[i], tests, &run);
		kinds[i]->figs->text(f, &run);
	}
}

/* The hooks of t's figures' kind, or NULL. */
static const struct clyde_target_figs *
figs_of(const struct clyde_test_result *t)
{
	return t->figs.kind && t->figs.data ? t->figs.kind->figs : NULL;
}

void clyde_figs_finish(struct clyde_test_result *t)
{
	const struct clyde_target_figs *f = figs_of(t);
	struct clyde_figs_test ft;

	if (!f || !f->finish)
		return;
	of_test(t, t->figs.kind, &ft);
	f->finish(&ft, t->figs.data);
	t->cache.resident_bytes = ft.resident_bytes;
}

bool clyde_figs_cache(const struct clyde_test_result *t, const char **json,
		      const char **text)
{
	const struct clyde_target_figs *f = figs_of(t);
	struct clyde_figs_test ft;

	if (f && f->cache) {
		of_test(t, t->figs.kind, &ft);
		if (f->cache(&ft, t->figs.data, json, text))
			return true;
	}
	*json = "page_cache";
	*text = NULL;
	return false;
}

bool clyde_figs_all_ranks(struct clyde_test_result *t)
{
	const struct clyde_target_figs *f = figs_of(t);

	return f && f->all_ranks ? f->all_ranks(t->figs.data) : false;
}

/*
 * The distributed run's library side (dist/dist.h) over a fake
 * communicator in one process: -d's %r/%h expansion, and the merge of a
 * run whose "ranks" sent this process's spans with different clock
 * offsets and latency histograms of their own (rank r adds latencies only
 * it saw), so that the sums, the window on rank 0's clock, the merged
 * histogram's buckets and each rank's share can be checked exactly: a
 * merge that took one rank's histogram for every rank's fails.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "io/target.h"
#include "tap.h"

#define RANKS 3

/* Every rank "sends" what this process passes; max over equal values is
 * the value. */
static int fake_max(struct clyde_comm *c, int64_t *v, size_t n)
{
	(void)c;
	(void)v;
	(void)n;
	return 0;
}

/* Rank r's latencies beyond this process's: r x 3 of RANK_LAT(r) (rank 0
 * none; rank 1 three of 2 ms; rank 2 six of 50 ms). */
#define RANK_LAT(r) ((r) == 1 ? 2000000ull : 50000000ull)
#define RANK_EXTRA(r) (3u * (unsigned)(r))

/* Every rank "sends" what this process passes; a histogram (the only
 * gather of that size) is made rank r's own by RANK_EXTRA(r) more
 * latencies. */
static int fake_gather(struct clyde_comm *c, const void *mine, size_t len,
		       void *all)
{
	for (int r = 0; all && r < c->size; r++) {
		char *to = (char *)all + (size_t)r * len;

		memcpy(to, mine, len);
		if (len == sizeof(struct clyde_hist) && r > 0)
			clyde_hist_record_n((struct clyde_hist *)(void *)to,
					    RANK_LAT(r), RANK_EXTRA(r));
	}
	return 0;
}

/* How many values of h lie in the bucket of v. */
static uint64_t in_bucket(const struct clyde_hist *h, uint64_t v)
{
	struct clyde_hist_iter it;
	struct clyde_hist_bucket b;

	clyde_hist_iter_init(&it, h);
	while (clyde_hist_iter_next(&it, &b))
		if (b.lo <= v && v <= b.hi)
			return b.count;
	return 0;
}

static int fake_bcast(struct clyde_comm *c, void *buf, size_t len)
{
	(void)c;
	(void)buf;
	(void)len;
	return 0;
}

static void fake_abort(struct clyde_comm *c, int status)
{
	(void)c;
	exit(status);
}

static const struct clyde_comm_ops fake_ops = {
	.max_i64 = fake_max,
	.gather = fake_gather,
	.bcast = fake_bcast,
	.abort = fake_abort,
};

static void test_expand(struct clyde_comm *c)
{
	char out[64];

	CHECK(clyde_dist_expand(c, "/d/%h-r%r/%%x", out, sizeof(out)) == 0);
	CHECK_STR(out, "/d/node7-r0/%x");
	CHECK(clyde_dist_expand(c, "/d/%x", out, sizeof(out)) == -EINVAL);
	CHECK(clyde_dist_expand(c, "/d/%", out, sizeof(out)) == -EINVAL);
	CHECK(clyde_dist_expand(c, "/a/very/long/%h/%h/%h/%h/%h/%h/%h/%h", out,
				16) == -ENAMETOOLONG);
}

static void test_merge(struct clyde_comm *c)
{
	struct clyde_dist d;
	struct clyde_run run;
	struct clyde_test_result *t;
	struct clyde_hist *h = malloc(sizeof(*h));
	struct clyde_nfs_moved *nfs;

	CHECK(clyde_dist_init(&d, c) == 0);
	clyde_run_init(&run);
	run.params.concurrency = 2;
	t = &run.tests[CLYDE_PUT_BLOCK];
	t->state = CLYDE_DONE;
	CHECK(clyde_test_alloc_spans(t, 2) == 0);
	/* The spans keep the histograms clyde_test_alloc_spans gave them. */
	t->spans[0] = (struct clyde_span){ .start_ns = 10000,
					   .end_ns = 20000,
					   .bytes = 100,
					   .ops = 1,
					   .hist = t->spans[0].hist };
	t->spans[1] = (struct clyde_span){ .start_ns = 11000,
					   .end_ns = 25000,
					   .bytes = 300,
					   .ops = 3,
					   .hist = t->spans[1].hist };
	clyde_hist_init(h);
	clyde_hist_record(h, 5);
	clyde_hist_record(h, 1000);
	t->latency = h;
	/* Every rank's own mount moved this much (dist/dist_wire.h); nfsd's
	 * counters are rank 0's alone. */
	nfs = clyde_test_figs_alloc(t, &clyde_target_nfs);
	CHECK(nfs != NULL);
	if (!nfs)
		return;
	nfs->measured = true;
	nfs->rpcs = 21;
	nfs->bytes_sent = 4198444;
	nfs->have_server = true;
	nfs->server_packets = 127;

	CHECK(clyde_dist_end_run(&d, 0, &run) == 0);
	/* The aggregate's traffic is the ranks' sum, each rank's kept. */
	nfs = t->figs.kind == &clyde_target_nfs ? t->figs.data : NULL;
	CHECK(nfs && nfs->measured && nfs->rpcs == 21 * RANKS &&
	      nfs->bytes_sent == 4198444ull * RANKS);
	CHECK(nfs && nfs->have_server && nfs->server_packets == 127);
	for (int r = 0; r < RANKS; r++)
		CHECK(d.shares[0][CLYDE_PUT_BLOCK][r].figs.kind ==
			      &clyde_target_nfs &&
		      ((const struct clyde_nfs_moved *)d
			       .shares[0][CLYDE_PUT_BLOCK][r]
			       .figs.data)
				      ->bytes_sent == 4198444);
	CHECK(t->nworkers == 2 * RANKS);
	CHECK(t->bytes == 400 * RANKS);
	CHECK(t->ops == 4 * RANKS);
	CHECK(run.params.concurrency == 2 * RANKS);
	/* Rank r's clock is r * 1000 ahead: its start 10000 is 10000 - 1000r
	 * on rank 0's clock.  First start: rank 2's 8000; last end: rank
	 * 0's 25000. */
	CHECK(t->spans[4].start_ns == 8000);
	CHECK(t->elapsed_ns == 25000 - 8000);
	/* Every rank's histogram is in the merge: this process's two
	 * latencies from each rank, and the ones only ranks 1 and 2 saw. */
	CHECK(clyde_hist_count(t->latency) ==
	      2 * RANKS + RANK_EXTRA(1) + RANK_EXTRA(2));
	CHECK(clyde_hist_min(t->latency) == 5);
	CHECK(clyde_hist_max(t->latency) == RANK_LAT(2));
	CHECK(in_bucket(t->latency, 5) == RANKS);
	CHECK(in_bucket(t->latency, 1000) == RANKS);
	CHECK(in_bucket(t->latency, RANK_LAT(1)) == RANK_EXTRA(1));
	CHECK(in_bucket(t->latency, RANK_LAT(2)) == RANK_EXTRA(2));
	/* Every rank's share is kept. */
	CHECK(d.nruns == 1);
	CHECK(d.shares[0][CLYDE_PUT_BLOCK] != NULL);
	CHECK(d.shares[0][CLYDE_PUT_BLOCK][1].bytes == 400);
	CHECK(d.shares[0][CLYDE_PUT_BLOCK][1].start_ns == 9000);
	CHECK(d.shares[0][CLYDE_PUT_BLOCK][1].end_ns == 24000);
	/* Each rank's share keeps that rank's histogram. */
	for (int r = 0; r < RANKS; r++) {
		const struct clyde_hist *sh =
			d.shares[0][CLYDE_PUT_BLOCK][r].hist;

		CHECK(sh && clyde_hist_count(sh) == 2 + RANK_EXTRA(r));
		CHECK(sh &&
		      (r == 0 || in_bucket(sh, RANK_LAT(r)) == RANK_EXTRA(r)));
	}
	CHECK(d.shares[0][CLYDE_GET_BLOCK] == NULL);
	/* A failure here stops the run without merging. */
	CHECK(clyde_dist_end_run(&d, -ENOSPC, &run) == -ENOSPC);
	CHECK(clyde_dist_end_run(&d, CLYDE_DIST_PEER_FAILED, &run) ==
	      CLYDE_DIST_PEER_FAILED);
	CHECK(d.nruns == 1);
	clyde_run_release(&run);
	clyde_dist_release(&d);
}

int main(void)
{
	int64_t off[RANKS] = { 0, 1000, 2000 };
	uint64_t rtt[RANKS] = { 0 };
	struct clyde_comm c = {
		.ops = &fake_ops,
		.rank = 0,
		.size = RANKS,
		.host = "node7",
		.offset_ns = off,
		.rtt_ns = rtt,
	};

	test_expand(&c);
	test_merge(&c);
	return tap_done();
}

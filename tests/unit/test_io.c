/*
 * The IO test bodies (bonnie_io.c) run by hand, one worker, without the
 * suite, on a temporary file in /tmp: what the result model says they did
 * (ops, bytes, latency samples) and what they left in the file, checked
 * without strace.
 *
 * Random seeks follow bonnie++ 2.00a (8192 seeks by 5 seekers by default):
 * every seek reads one chunk at a chunk boundary; about one in ten is an
 * update that changes one byte of the chunk and writes it back; the
 * seekers are that many threads.  The threads are counted through the
 * context's clock, which every seeker reads for its latencies.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hist.h"
#include "io/pattern.h"
#include "tap.h"
#include "workloads/worker.h"

#define MIB (1024u * 1024u)
#define MAX_THREADS 64

/* A clock that remembers which threads read it. */
struct thread_clock {
	pthread_mutex_t lock;
	pthread_t seen[MAX_THREADS];
	unsigned nseen;
	int overflow;
};

static uint64_t counting_clock(void *arg)
{
	struct thread_clock *c = arg;
	pthread_t self = pthread_self();
	unsigned i;

	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->nseen; i++)
		if (pthread_equal(c->seen[i], self))
			break;
	if (i == c->nseen) {
		if (c->nseen < MAX_THREADS)
			c->seen[c->nseen++] = self;
		else
			c->overflow = 1;
	}
	pthread_mutex_unlock(&c->lock);
	return clyde_monotonic_ns(NULL);
}

struct harness {
	struct clyde_ctx ctx;
	struct clyde_bonnie_config cfg;
	struct clyde_worker w;
	struct clyde_span span;
	struct clyde_hist hist;
	pthread_barrier_t bar;
	struct thread_clock clock;
	char dir[64];
};

static int setup(struct harness *h, uint64_t size_mib, uint32_t chunk,
		 uint32_t seeks, uint32_t seekers)
{
	memset(h, 0, sizeof(*h));
	clyde_ctx_init(&h->ctx);
	pthread_mutex_init(&h->clock.lock, NULL);
	h->ctx.clock = counting_clock;
	h->ctx.clock_arg = &h->clock;
	clyde_bonnie_config_init(&h->cfg);
	h->cfg.file_size_mib = size_mib;
	h->cfg.io_chunk = chunk;
	h->cfg.seeks = seeks;
	h->cfg.seekers = seekers;
	h->cfg.direct = false;
	h->cfg.fsync_each = false;
	snprintf(h->dir, sizeof(h->dir), "/tmp/clyde-io-XXXXXX");
	if (!mkdtemp(h->dir))
		return -1;
	h->w.ctx = &h->ctx;
	h->w.cfg = &h->cfg;
	h->w.scratch = h->dir;
	h->w.scratch_fd = open(h->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (h->w.scratch_fd < 0)
		return -1;
	h->w.dirfd = -1;
	snprintf(h->w.io_name, sizeof(h->w.io_name), "io.0");
	clyde_rng_seed(&h->w.rng, 42);
	if (clyde_pattern_init(&h->w.pat, 0, &h->w.rng) < 0)
		return -1;
	pthread_barrier_init(&h->bar, NULL, 1);
	h->w.start = &h->bar;
	return 0;
}

static void teardown(struct harness *h)
{
	clyde_series_release(&h->span.series);
	unlinkat(h->w.scratch_fd, h->w.io_name, 0);
	close(h->w.scratch_fd);
	rmdir(h->dir);
	clyde_pattern_release(&h->w.pat);
	pthread_barrier_destroy(&h->bar);
	pthread_mutex_destroy(&h->clock.lock);
	clyde_ctx_release(&h->ctx);
}

/* Run one body with a fresh span and histogram, and a fresh record of the
 * threads that read the clock. */
static int run(struct harness *h, enum clyde_test t, const char *label,
	       int (*body)(struct clyde_worker *))
{
	/* The last body's time series (the span's only allocation). */
	clyde_series_release(&h->span.series);
	memset(&h->span, 0, sizeof(h->span));
	clyde_hist_init(&h->hist);
	h->span.hist = &h->hist;
	h->clock.nseen = 0;
	h->w.test = t;
	h->w.test_label = label;
	h->w.span = &h->span;
	return body(&h->w);
}

/* The threads other than this one that read the clock. */
static unsigned other_threads(const struct harness *h)
{
	unsigned n = 0;

	for (unsigned i = 0; i < h->clock.nseen; i++)
		if (!pthread_equal(h->clock.seen[i], pthread_self()))
			n++;
	return n;
}

/* The whole test file, read back independently; NULL on error. */
static unsigned char *slurp(const struct harness *h, size_t len)
{
	unsigned char *p = malloc(len);
	int fd = openat(h->w.scratch_fd, h->w.io_name, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (!p || fd < 0)
		goto fail;
	while (got < len) {
		ssize_t k = read(fd, p + got, len - got);

		if (k <= 0)
			goto fail;
		got += (size_t)k;
	}
	close(fd);
	return p;
fail:
	if (fd >= 0)
		close(fd);
	free(p);
	return NULL;
}

/* The sequential tests: one op per chunk, the whole file in bytes. */
static void test_block(void)
{
	struct harness h;
	const uint64_t size = 4 * MIB, chunk = 8192;

	if (setup(&h, 4, (uint32_t)chunk, 8192, 5) < 0) {
		CHECK(!"set up a temporary directory in /tmp");
		return;
	}
	CHECK(run(&h, CLYDE_PUT_BLOCK, "block write", clyde_test_put_block) ==
	      0);
	CHECK(h.span.bytes == size);
	CHECK(h.span.ops == size / chunk);
	CHECK(h.hist.count == size / chunk);
	CHECK(h.span.end_ns >= h.span.start_ns);
	CHECK(run(&h, CLYDE_REWRITE, "rewrite", clyde_test_rewrite) == 0);
	CHECK(h.span.bytes == size);
	CHECK(h.span.ops == size / chunk);
	CHECK(run(&h, CLYDE_GET_BLOCK, "block read", clyde_test_get_block) ==
	      0);
	CHECK(h.span.bytes == size);
	CHECK(h.span.ops == size / chunk);
	CHECK(h.hist.count == size / chunk);
	teardown(&h);
}

/*
 * bonnie++ 2.00a's defaults on a 64 MiB file (8192 chunks of 8 KiB).  Every
 * seek is one op and one latency sample and reads one chunk; an update
 * also writes it, so bytes = (seeks + updates) * chunk.  An update changes
 * the byte at ticket % chunk, a different position for every ticket below
 * the chunk size: the file then differs from its copy before the test in
 * exactly as many bytes as there were updates (less any lost to two
 * seekers updating one chunk at once, which is rare), each one XORed with
 * 0xa5 -- which a read or write of a wrong size or offset would not give.
 */
static void test_seeks_default(void)
{
	struct harness h;
	const uint32_t chunk = 8192, seeks = 8192, seekers = 5;
	const size_t size = 64 * MIB;
	unsigned char *before, *after;
	uint64_t updates = 0, diff = 0, bad_xor = 0;

	if (setup(&h, size / MIB, chunk, seeks, seekers) < 0) {
		CHECK(!"set up a temporary directory in /tmp");
		return;
	}
	CHECK(run(&h, CLYDE_PUT_BLOCK, "block write", clyde_test_put_block) ==
	      0);
	before = slurp(&h, size);
	CHECK(before != NULL);
	CHECK(run(&h, CLYDE_SEEKS, "random seeks", clyde_test_seeks) == 0);
	printf("# seeks: %llu ops, %llu bytes, %u threads read the clock\n",
	       (unsigned long long)h.span.ops, (unsigned long long)h.span.bytes,
	       other_threads(&h));
	CHECK(h.span.ops == seeks);
	CHECK(h.hist.count == seeks);
	CHECK(h.span.bytes % chunk == 0);
	CHECK(h.span.bytes >= (uint64_t)seeks * chunk);
	if (h.span.bytes >= (uint64_t)seeks * chunk)
		updates = h.span.bytes / chunk - seeks;
	printf("# %llu updates (%.1f%%)\n", (unsigned long long)updates,
	       100.0 * (double)updates / seeks);
	/* Binomial(8192, 0.1): 819 +- 27; these bounds are 9 sigma away. */
	CHECK(updates >= seeks * 7 / 100 && updates <= seeks * 13 / 100);
	CHECK(other_threads(&h) == seekers);
	CHECK(!h.clock.overflow);
	CHECK(h.span.end_ns >= h.span.start_ns);

	after = slurp(&h, size);
	CHECK(after != NULL);
	if (before && after) {
		for (size_t i = 0; i < size; i++) {
			if (before[i] == after[i])
				continue;
			diff++;
			if ((before[i] ^ after[i]) != 0xa5)
				bad_xor++;
		}
		printf("# %llu bytes changed\n", (unsigned long long)diff);
		CHECK(bad_xor == 0);
		CHECK(diff <= updates);
		CHECK(diff + 5 >= updates);
	}
	free(before);
	free(after);
	teardown(&h);
}

/* The seeker count is honoured whatever it is, and the seeks are shared
 * out, not done once per seeker. */
static void test_seekers(uint32_t seekers)
{
	struct harness h;
	const uint32_t chunk = 4096, seeks = 2000;

	if (setup(&h, 8, chunk, seeks, seekers) < 0) {
		CHECK(!"set up a temporary directory in /tmp");
		return;
	}
	CHECK(run(&h, CLYDE_PUT_BLOCK, "block write", clyde_test_put_block) ==
	      0);
	CHECK(run(&h, CLYDE_SEEKS, "random seeks", clyde_test_seeks) == 0);
	CHECK(other_threads(&h) == seekers);
	CHECK(h.span.ops == seeks);
	CHECK(h.hist.count == seeks);
	CHECK(h.span.bytes % chunk == 0 && h.span.bytes >= seeks * chunk &&
	      h.span.bytes <= 2ull * seeks * chunk);
	teardown(&h);
}

/*
 * The latency of an operation covers its system calls only: the data is
 * made before the clock starts.  A clock that ticks by 1 per read, and
 * jumps by FILL_MARK when the worker's data generator moved since its last
 * read, makes a window that contains a fill show up as a latency of at
 * least FILL_MARK; windows without one are a few ticks long.
 */
#define FILL_MARK 1000000u

struct fill_clock {
	const struct clyde_pattern_gen *pat;
	struct clyde_pattern_gen last;
	uint64_t ticks;
};

static uint64_t fill_clock(void *arg)
{
	struct fill_clock *c = arg;

	if (memcmp(&c->last, c->pat, sizeof(c->last))) {
		c->ticks += FILL_MARK;
		memcpy(&c->last, c->pat, sizeof(c->last));
	}
	return ++c->ticks;
}

static void test_latency_excludes_fill(void)
{
	struct harness h;
	struct fill_clock fc;

	if (setup(&h, 4, 8192, 8192, 5) < 0) {
		CHECK(!"set up a temporary directory in /tmp");
		return;
	}
	memset(&fc, 0, sizeof(fc));
	fc.pat = &h.w.pat;
	memcpy(&fc.last, &h.w.pat, sizeof(fc.last));
	h.ctx.clock = fill_clock;
	h.ctx.clock_arg = &fc;

	CHECK(run(&h, CLYDE_PUT_BLOCK, "block write", clyde_test_put_block) ==
	      0);
	CHECK(h.hist.count == 4 * MIB / 8192);
	/* The data was made 512 times, so the test's own time holds it... */
	CHECK(h.span.end_ns - h.span.start_ns >= 512ull * FILL_MARK);
	/* ...and no write's latency does. */
	CHECK(clyde_hist_max(&h.hist) < FILL_MARK);
	if (clyde_hist_max(&h.hist) >= FILL_MARK)
		printf("# block write: a latency of %llu ticks holds a fill\n",
		       (unsigned long long)clyde_hist_max(&h.hist));

	CHECK(run(&h, CLYDE_PUTC, "per-char write", clyde_test_putc) == 0);
	CHECK(h.hist.count > 0);
	CHECK(clyde_hist_max(&h.hist) < FILL_MARK);
	teardown(&h);
}

/*
 * The tests at a queue depth (--engine, --iodepth): a block write at depth
 * 8 leaves the same file as one at depth 1 (the chunks' data is made in
 * order); a rewrite changes exactly byte i % chunk of every chunk i, which
 * it could not if a chunk's write overtook its read; the block read and
 * the seeks count every operation once, and the seeks' updates still XOR
 * one byte of the chunk they read.
 */
static void test_depth(const struct clyde_engine_ops *engine, unsigned depth)
{
	struct harness h;
	const uint32_t chunk = 4096, seeks = 4000;
	const size_t size = 4 * MIB;
	unsigned char *ref = NULL, *before = NULL, *after = NULL;
	uint64_t bad = 0, diff = 0, updates;

	printf("# %s at depth %u\n", engine->name, depth);
	/* The reference file: psync, depth 1, the same seed. */
	if (setup(&h, size / MIB, chunk, seeks, 2) < 0) {
		CHECK(!"set up a temporary directory in /tmp");
		return;
	}
	CHECK(run(&h, CLYDE_PUT_BLOCK, "block write", clyde_test_put_block) ==
	      0);
	ref = slurp(&h, size);
	teardown(&h);

	if (setup(&h, size / MIB, chunk, seeks, 2) < 0) {
		CHECK(!"set up a temporary directory in /tmp");
		free(ref);
		return;
	}
	h.cfg.engine = engine;
	h.cfg.iodepth = depth;
	CHECK(run(&h, CLYDE_PUT_BLOCK, "block write", clyde_test_put_block) ==
	      0);
	CHECK(h.span.ops == size / chunk && h.hist.count == size / chunk);
	before = slurp(&h, size);
	CHECK(ref && before && !memcmp(ref, before, size));

	CHECK(run(&h, CLYDE_REWRITE, "rewrite", clyde_test_rewrite) == 0);
	CHECK(h.span.ops == size / chunk && h.hist.count == size / chunk);
	after = slurp(&h, size);
	for (size_t i = 0; before && after && i < size; i++) {
		size_t k = i / chunk;
		unsigned char want = before[i];

		if (i % chunk == k % chunk)
			want ^= 0x5a;
		bad += after[i] != want;
	}
	CHECK(before && after && bad == 0);

	CHECK(run(&h, CLYDE_GET_BLOCK, "block read", clyde_test_get_block) ==
	      0);
	CHECK(h.span.ops == size / chunk && h.hist.count == size / chunk);
	CHECK(h.span.bytes == size);

	free(before);
	before = after;
	CHECK(run(&h, CLYDE_SEEKS, "random seeks", clyde_test_seeks) == 0);
	CHECK(h.span.ops == seeks && h.hist.count == seeks);
	updates = h.span.bytes / chunk - seeks;
	/* Binomial(4000, 0.1): 400 +- 19. */
	CHECK(updates >= seeks * 7 / 100 && updates <= seeks * 13 / 100);
	after = slurp(&h, size);
	bad = 0;
	for (size_t i = 0; before && after && i < size; i++) {
		if (before[i] == after[i])
			continue;
		diff++;
		bad += (before[i] ^ after[i]) != 0xa5;
	}
	CHECK(bad == 0 && diff > 0 && diff <= updates);
	free(ref);
	free(before);
	free(after);
	teardown(&h);
}

int main(void)
{
	char why[160];

	test_block();
	test_latency_excludes_fill();
	test_seeks_default();
	test_seekers(1);
	test_seekers(3);
	test_seekers(16);
	test_depth(&clyde_engine_psync, 8);
	/* io_uring last: where it cannot run, the test is a skip, not a
	 * pass (and a failure above is still reported as one). */
	if (clyde_engine_check(&clyde_engine_io_uring, 64, why, sizeof(why)) <
	    0)
		tap_skip_all(why);
	test_depth(&clyde_engine_io_uring, 1);
	test_depth(&clyde_engine_io_uring, 8);
	test_depth(&clyde_engine_io_uring, 64);
	return tap_done();
}

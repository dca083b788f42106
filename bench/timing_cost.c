/*
 * timing_cost: what clyde's per-operation timing costs on the per-char
 * tests, where an operation (a 1-byte pwrite or pread) is cheapest and the
 * clock is therefore most expensive in relative terms.
 *
 * For each of write and read, one sample is a loop of 1-byte calls on a
 * file, run as:
 *   bare   the loop alone (the call, the byte, the per-chunk checkpoint);
 *   timed  the loop plus clyde's timing per call exactly as the suite does
 *          it: clyde_now() through a struct clyde_ctx (CLOCK_MONOTONIC by
 *          default), then what clyde_worker_op() does: count the op, record
 *          now - t0 with clyde_hist_record(), keep the maximum;
 *   1in16  a prototype of sampling: only every 16th call is timed (clock
 *          read before and after it, the same recording), so the histogram
 *          holds 1/16 of the calls;
 *   tsc    the same as timed with the ctx's clock replaced by a TSC clock
 *          (x86 only; a prototype of the cheaper clock, calibrated against
 *          CLOCK_MONOTONIC at start).
 * The variants alternate (their order rotates every round) for several
 * rounds; the overhead of a round is timed / bare - 1, and the median over
 * the rounds is reported, with the median ns per call of each variant.
 * Micro-benchmarks without I/O give the cost of clock_gettime(), of
 * clyde_now(), of the TSC clock and of clyde_hist_record() alone.
 *
 * The write sample recreates its file each time (unlink, O_CREAT|O_EXCL,
 * then pwrite at offsets 0, 1, 2, ... as clyde_test_putc() does); the read
 * sample preads a file that is in the page cache, which is the cheapest
 * read and so the worst case for the overhead.  Only the loop is timed
 * (clyde's tests also include fsync and close), so the overhead quoted is
 * an upper bound of the overhead on the test's rate.
 *
 * Build (from the source tree):
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Isrc bench/timing_cost.c src/core/ctx.c \
 *      src/core/hist.c -lpthread -lm -o timing_cost
 * Run: ./timing_cost [-d DIR] [-n CALLS] [-r ROUNDS]
 *   DIR     where the scratch file goes (default .); it is removed
 *   CALLS   1-byte calls per sample (default 1048576)
 *   ROUNDS  alternations (default 7)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#include "core/ctx.h"
#include "core/hist.h"

#define CHECKPOINT_EVERY 8192u /* clyde's default chunk */
#define MAX_ROUNDS 101

/* Every 2^SAMPLE_SHIFT-th call is timed in the `sampled` variant. */
#define SAMPLE_SHIFT 4
#define SAMPLE_MASK ((1u << SAMPLE_SHIFT) - 1)

/* V_TSC last: without a TSC the variants are the first V_COUNT - 1. */
enum variant { V_BARE, V_TIMED, V_SAMPLED, V_TSC, V_COUNT };

static const char *const variant_name[V_COUNT] = { "bare", "timed",
						   "1in16", "tsc" };

/* A TSC clock: ns = base + (tsc - tsc0) * mult / 2^32. */
struct tsc_clock {
	uint64_t tsc0;
	uint64_t base_ns;
	uint64_t mult; /* ns per cycle in 32.32 fixed point */
};

/* What one worker's test span keeps per operation (cf. clyde_worker_op). */
struct span {
	struct clyde_hist *hist;
	uint64_t ops;
	uint64_t latency_max_ns;
};

struct bench {
	const char *dir;
	char path[4096];
	uint64_t calls;
	unsigned rounds;
	struct clyde_ctx ctx_mono; /* default clock */
	struct clyde_ctx ctx_tsc;  /* TSC clock (when available) */
	struct tsc_clock tsc;
	int have_tsc;
	struct span span;
	unsigned char *pool; /* bytes written, like the pattern generator's */
	size_t pool_len;
	volatile uint64_t sink; /* keeps micro-benchmark results alive */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if HAVE_TSC
static uint64_t tsc_now(void *arg)
{
	const struct tsc_clock *t = arg;
	uint64_t d = __rdtsc() - t->tsc0;

	/* (hi * 2^32 + lo) * mult / 2^32 without a 128-bit product. */
	return t->base_ns + (d >> 32) * t->mult +
	       (((d & 0xffffffffu) * t->mult) >> 32);
}

/* Measure the TSC rate against CLOCK_MONOTONIC over about 200 ms. */
static int tsc_calibrate(struct tsc_clock *t)
{
	uint64_t n0, n1, c0, c1;

	n0 = mono_ns();
	c0 = __rdtsc();
	do
		n1 = mono_ns();
	while (n1 - n0 < 200000000u);
	c1 = __rdtsc();
	if (c1 <= c0)
		return -1;
	t->mult = ((n1 - n0) << 32) / (c1 - c0);
	t->tsc0 = c1;
	t->base_ns = n1;
	return 0;
}
#endif

/* Count the op, record its latency, keep the max: clyde_worker_op(). */
static inline uint64_t timed_op(struct clyde_ctx *ctx, struct span *s,
				uint64_t t0)
{
	uint64_t now = clyde_now(ctx);

	s->ops++;
	clyde_hist_record(s->hist, now - t0);
	if (now - t0 > s->latency_max_ns)
		s->latency_max_ns = now - t0;
	return now;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * One sample: `calls` 1-byte pwrite (is_write) or pread calls, with the
 * timing of variant v.  Returns the loop's elapsed ns per call and stores
 * its CPU ns per call (this thread's user + system time, which the other
 * jobs of a shared machine do not inflate) in *cpu; a negative number on
 * error.
 */
static double sample(struct bench *b, int is_write, enum variant v,
		     double *cpu)
{
	uint64_t cpu0, cpu1;
	struct clyde_ctx *ctx = v == V_TSC ? &b->ctx_tsc : &b->ctx_mono;
	uint64_t start, end, t0, ts = 0, n = b->calls, want;
	int fd;

	if (is_write) {
		unlink(b->path);
		fd = open(b->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0600);
	} else {
		fd = open(b->path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		fprintf(stderr, "timing_cost: %s: %s\n", b->path,
			strerror(errno));
		return -1;
	}
	clyde_hist_reset(b->span.hist);
	cpu0 = thread_cpu_ns();
	start = clyde_now(&b->ctx_mono);
	t0 = v == V_BARE ? start : clyde_now(ctx);
	for (uint64_t i = 0; i < n; i++) {
		unsigned char c = b->pool[i % b->pool_len];
		int sampled = v == V_SAMPLED && !(i & SAMPLE_MASK);
		ssize_t k;

		if (sampled)
			ts = clyde_now(ctx);
		k = is_write ? pwrite(fd, &c, 1, (off_t)i) :
			       pread(fd, &c, 1, (off_t)i);

		if (k != 1) {
			fprintf(stderr, "timing_cost: 1-byte %s at %llu: %s\n",
				is_write ? "write" : "read",
				(unsigned long long)i,
				k < 0 ? strerror(errno) : "short");
			close(fd);
			return -1;
		}
		if (v == V_TIMED || v == V_TSC)
			t0 = timed_op(ctx, &b->span, t0);
		else if (sampled)
			timed_op(ctx, &b->span, ts);
		/* The suite's per-chunk checkpoint (progress, stop flag, the
		 * sample's time bound) happens in every variant. */
		if ((i + 1) % CHECKPOINT_EVERY == 0)
			b->sink += c + clyde_stopping(&b->ctx_mono) +
				   (clyde_now(&b->ctx_mono) > start);
	}
	end = clyde_now(&b->ctx_mono);
	cpu1 = thread_cpu_ns();
	close(fd);
	want = v == V_BARE    ? 0 :
	       v == V_SAMPLED ? (n + SAMPLE_MASK) >> SAMPLE_SHIFT :
				n;
	if (clyde_hist_count(b->span.hist) != want) {
		fprintf(stderr, "timing_cost: histogram lost values\n");
		return -1;
	}
	*cpu = (double)(cpu1 - cpu0) / (double)n;
	return (double)(end - start) / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double min_of(const double *v, unsigned n)
{
	double m = v[0];

	for (unsigned i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/*
 * Alternate the variants for b->rounds rounds and print, per variant, the
 * median elapsed and CPU ns per call and the overhead against bare: the
 * median over rounds of the per-round ratio (elapsed and CPU), and the
 * ratio of the fastest samples (CPU), the estimate least disturbed by
 * other work on the machine.
 */
static int run_io(struct bench *b, int is_write)
{
	static const char *const what[2] = { "elapsed", "cpu" };
	double ns[2][V_COUNT][MAX_ROUNDS], over[2][V_COUNT][MAX_ROUNDS];
	unsigned nv = b->have_tsc ? V_COUNT : V_TSC, n = b->rounds;

	if (n > MAX_ROUNDS)
		return -1;
	/* One unmeasured warm-up per variant: page cache, branch
	 * predictors, the histogram's pages. */
	for (unsigned v = 0; v < nv; v++) {
		double c;

		if (sample(b, is_write, (enum variant)v, &c) < 0)
			return -1;
	}
	for (unsigned r = 0; r < n; r++) {
		for (unsigned k = 0; k < nv; k++) {
			unsigned v = (k + r) % nv;

			ns[0][v][r] = sample(b, is_write, (enum variant)v,
					     &ns[1][v][r]);
			if (ns[0][v][r] < 0)
				return -1;
		}
		for (unsigned m = 0; m < 2; m++)
			for (unsigned v = 1; v < nv; v++)
				over[m][v][r] = 100.0 * (ns[m][v][r] /
								 ns[m][V_BARE][r] -
							 1);
	}
	printf("1-byte %s, %llu calls per sample, %u rounds:\n",
	       is_write ? "pwrite (new file)" : "pread (cached file)",
	       (unsigned long long)b->calls, n);
	printf("  %-6s %9s %9s %11s %11s %11s\n", "", "elapsed", "cpu",
	       "overhead", "overhead", "overhead");
	printf("  %-6s %9s %9s %11s %11s %11s\n", "", "ns/call", "ns/call",
	       "med elapsed", "med cpu", "min cpu");
	for (unsigned v = 0; v < nv; v++) {
		printf("  %-6s", variant_name[v]);
		for (unsigned m = 0; m < 2; m++)
			printf(" %9.1f", median(ns[m][v], n));
		if (v != V_BARE)
			printf(" %+10.2f%% %+10.2f%% %+10.2f%%",
			       median(over[0][v], n), median(over[1][v], n),
			       100.0 * (min_of(ns[1][v], n) /
						min_of(ns[1][V_BARE], n) -
					1));
		printf("\n");
	}
	for (unsigned m = 0; m < 2; m++) {
		printf("  timed overhead per round (%s):", what[m]);
		for (unsigned r = 0; r < n; r++)
			printf(" %+.1f", over[m][V_TIMED][r]);
		printf("\n");
	}
	return 0;
}

/* ns per call of a clock or of clyde_hist_record(), median of rounds. */
static void run_micro(struct bench *b)
{
	enum { M_CLOCK, M_NOW, M_TSC, M_HIST, M_COUNT };
	static const char *const name[M_COUNT] = {
		"clock_gettime(CLOCK_MONOTONIC)",
		"clyde_now() (ctx, CLOCK_MONOTONIC)",
		"clyde_now() (ctx, TSC clock)",
		"clyde_hist_record()",
	};
	const uint64_t n = 4000000;
	double ns[M_COUNT][MAX_ROUNDS];

	for (unsigned r = 0; r < b->rounds; r++) {
		for (unsigned m = 0; m < M_COUNT; m++) {
			uint64_t t0, t1, acc = 0;

			if (m == M_TSC && !b->have_tsc)
				continue;
			clyde_hist_reset(b->span.hist);
			t0 = mono_ns();
			for (uint64_t i = 0; i < n; i++) {
				switch (m) {
				case M_CLOCK:
					acc += mono_ns();
					break;
				case M_NOW:
					acc += clyde_now(&b->ctx_mono);
					break;
				case M_TSC:
					acc += clyde_now(&b->ctx_tsc);
					break;
				default:
					/* Latencies like a per-char call's:
					 * a few hundred ns, varying. */
					clyde_hist_record(b->span.hist,
							  300 + (i * 7919 & 1023));
					break;
				}
			}
			t1 = mono_ns();
			b->sink += acc;
			ns[m][r] = (double)(t1 - t0) / (double)n;
		}
	}
	printf("without I/O, %llu calls per sample, median of %u:\n",
	       (unsigned long long)n, b->rounds);
	for (unsigned m = 0; m < M_COUNT; m++) {
		if (m == M_TSC && !b->have_tsc)
			continue;
		printf("  %-36s %6.1f ns\n", name[m], median(ns[m], b->rounds));
	}
}

static void print_machine(const struct bench *b)
{
	struct utsname u;
	char line[512], model[256] = "?", cs[64] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && p) {
			snprintf(model, sizeof(model), "%s", p + 2);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	f = fopen("/sys/devices/system/clocksource/clocksource0/"
		  "current_clocksource",
		  "r");
	if (f) {
		if (fgets(cs, sizeof(cs), f))
			cs[strcspn(cs, "\n")] = 0;
		fclose(f);
	}
	uname(&u);
	printf("machine: %s, %ld cpus (%s), %s %s, clocksource %s\n",
	       u.nodename, sysconf(_SC_NPROCESSORS_ONLN), model, u.sysname,
	       u.release, cs);
	printf("file: %s\n", b->path);
#if HAVE_TSC
	if (b->have_tsc)
		printf("tsc: %.1f MHz (calibrated against CLOCK_MONOTONIC)\n",
		       4294967296.0 / (double)b->tsc.mult * 1000.0);
#endif
}

static void usage(FILE *out)
{
	fprintf(out, "usage: timing_cost [-d DIR] [-n CALLS] [-r ROUNDS]\n");
}

int main(int argc, char **argv)
{
	struct bench b;
	int opt, ret = 0;

	memset(&b, 0, sizeof(b));
	b.dir = ".";
	b.calls = 1u << 20;
	b.rounds = 7;
	while ((opt = getopt(argc, argv, "d:n:r:h")) != -1) {
		switch (opt) {
		case 'd':
			b.dir = optarg;
			break;
		case 'n':
			b.calls = strtoull(optarg, NULL, 0);
			break;
		case 'r':
			b.rounds = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || !b.calls || !b.rounds || b.rounds > MAX_ROUNDS) {
		usage(stderr);
		return 2;
	}
	snprintf(b.path, sizeof(b.path), "%s/timing_cost.%ld", b.dir,
		 (long)getpid());
	b.span.hist = malloc(sizeof(*b.span.hist));
	b.pool_len = 4096;
	b.pool = malloc(b.pool_len);
	if (!b.span.hist || !b.pool) {
		fprintf(stderr, "timing_cost: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < b.pool_len; i++)
		b.pool[i] = (unsigned char)(i * 131 + 7);
	clyde_hist_init(b.span.hist);
	clyde_ctx_init(&b.ctx_mono);
	clyde_ctx_init(&b.ctx_tsc);
#if HAVE_TSC
	if (tsc_calibrate(&b.tsc) == 0) {
		b.ctx_tsc.clock = tsc_now;
		b.ctx_tsc.clock_arg = &b.tsc;
		b.have_tsc = 1;
	}
#endif
	print_machine(&b);
	run_micro(&b);
	/* The write test leaves the file the read test reads. */
	if (run_io(&b, 1) < 0 || run_io(&b, 0) < 0)
		ret = 1;
	unlink(b.path);
	clyde_ctx_release(&b.ctx_mono);
	clyde_ctx_release(&b.ctx_tsc);
	free(b.span.hist);
	free(b.pool);
	return ret;
}

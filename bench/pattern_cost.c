/*
 * pattern_cost: what making clyde's data costs, in ns per byte, next to a
 * memcpy of the same buffer (the cheapest way to put bytes in a buffer)
 * and to bonnie++'s zeros (a memset).
 *
 * For each buffer size (8 KiB, clyde's default chunk, and 1 MiB), one
 * sample fills the buffer again and again until TOTAL bytes are made, with:
 *   memcpy   memcpy from another buffer of the same size;
 *   zeros    clyde_pattern_fill of --pattern zeros (bonnie++'s data);
 *   auto     clyde_pattern_fill of the default data, as clyde makes it;
 *   generic, avx2, avx512
 *            each implementation of the default data this CPU has.
 * The per-char path (clyde_pattern_byte) is timed too, per byte.  The
 * variants alternate for ROUNDS rounds (their order rotates), and the
 * median of the rounds is printed, in thread CPU time (what a shared
 * machine does not inflate) and in elapsed time.  Target: the data clyde
 * makes (auto) at most 0.1 ns per byte.
 *
 * Build: cmake --build build --target pattern_cost
 * Run:   build/pattern_cost [-t TOTAL_MIB] [-r ROUNDS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/rng.h"
#include "io/pattern.h"

enum {
	V_MEMCPY,
	V_ZEROS,
	V_IMPL0
};
#define NVAR (V_IMPL0 + CLYDE_PATTERN_IMPL_COUNT)
#define MAX_ROUNDS 99

struct timing {
	double cpu, wall; /* ns */
};

static double ns_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static struct timing now(void)
{
	return (struct timing){ ns_of(CLOCK_THREAD_CPUTIME_ID),
				ns_of(CLOCK_MONOTONIC) };
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The name of variant v, or NULL when this machine cannot run it. */
static const char *var_name(int v)
{
	enum clyde_pattern_impl impl = (enum clyde_pattern_impl)(v - V_IMPL0);
	static unsigned char probe[CLYDE_PATTERN_BLOCK];
	struct clyde_pattern_gen g = { 0 };

	if (v == V_MEMCPY)
		return "memcpy";
	if (v == V_ZEROS)
		return "zeros";
	if (clyde_pattern_fill_impl(&g, probe, sizeof(probe), impl) < 0)
		return NULL;
	return clyde_pattern_impl_name(impl);
}

/* One sample: ns per byte (CPU and elapsed) of variant v. */
static struct timing sample(int v, unsigned char *buf, const unsigned char *src,
			    size_t len, size_t total)
{
	struct clyde_pattern_gen g;
	struct clyde_rng rng;
	struct timing t0, t1;

	clyde_rng_seed(&rng, 42);
	clyde_pattern_init(&g, v == V_ZEROS, &rng);
	t0 = now();
	for (size_t done = 0; done < total; done += len) {
		if (v == V_MEMCPY)
			memcpy(buf, src, len);
		else if (v == V_ZEROS)
			clyde_pattern_fill(&g, buf, len);
		else
			clyde_pattern_fill_impl(
				&g, buf, len,
				(enum clyde_pattern_impl)(v - V_IMPL0));
		/* Keep the compiler from dropping the stores. */
		__asm__ volatile("" : : "r"(buf) : "memory");
	}
	t1 = now();
	clyde_pattern_release(&g);
	return (struct timing){ (t1.cpu - t0.cpu) / (double)total,
				(t1.wall - t0.wall) / (double)total };
}

static struct timing sample_bytes(size_t total)
{
	struct clyde_pattern_gen g;
	struct clyde_rng rng;
	struct timing t0, t1;
	unsigned sum = 0;

	clyde_rng_seed(&rng, 42);
	clyde_pattern_init(&g, 0, &rng);
	t0 = now();
	for (size_t i = 0; i < total; i++)
		sum += clyde_pattern_byte(&g);
	t1 = now();
	__asm__ volatile("" : : "r"(sum));
	return (struct timing){ (t1.cpu - t0.cpu) / (double)total,
				(t1.wall - t0.wall) / (double)total };
}

static void print_machine(void)
{
	char line[256], model[256] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "model name", 10) == 0) {
			char *c = strchr(line, ':');

			if (c) {
				snprintf(model, sizeof(model), "%s", c + 2);
				model[strcspn(model, "\n")] = '\0';
			}
			break;
		}
	if (f)
		fclose(f);
	printf("cpu: %s, %ld online; compiler: %s; clyde uses: %s\n", model,
	       sysconf(_SC_NPROCESSORS_ONLN), __VERSION__,
	       clyde_pattern_impl_name(clyde_pattern_best_impl()));
}

int main(int argc, char **argv)
{
	static const size_t lens[] = { 8192, 1u << 20 };
	size_t total = 256u << 20;
	unsigned rounds = 7;
	int opt;

	while ((opt = getopt(argc, argv, "t:r:")) != -1) {
		if (opt == 't')
			total = (size_t)strtoull(optarg, NULL, 10) << 20;
		else if (opt == 'r')
			rounds = (unsigned)strtoul(optarg, NULL, 10);
		else {
			fprintf(stderr,
				"usage: %s [-t TOTAL_MIB] [-r ROUNDS]\n",
				argv[0]);
			return 2;
		}
	}
	if (total == 0 || rounds == 0 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "pattern_cost: TOTAL >= 1, 1 <= ROUNDS <= %d\n",
			MAX_ROUNDS);
		return 2;
	}
	print_machine();
	printf("%zu MiB per sample, median of %u rounds, ns per byte "
	       "(thread CPU / elapsed)\n",
	       total >> 20, rounds);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t len = lens[i];
		unsigned char *buf = malloc(len), *src = malloc(len);
		double cpu[NVAR][MAX_ROUNDS], wall[NVAR][MAX_ROUNDS];
		double best = 0, copy = 0;

		if (!buf || !src) {
			fprintf(stderr, "pattern_cost: out of memory\n");
			return 1;
		}
		memset(src, 0x5a, len);
		memset(buf, 0, len);
		for (unsigned r = 0; r < rounds; r++)
			for (int k = 0; k < NVAR; k++) {
				int v = (k + (int)r) % NVAR;
				struct timing t;

				if (!var_name(v) || v == V_IMPL0)
					continue; /* V_IMPL0 is auto */
				t = sample(v, buf, src, len, total);
				cpu[v][r] = t.cpu;
				wall[v][r] = t.wall;
			}
		{
			/* auto is whichever implementation clyde picks. */
			int a = V_IMPL0 + (int)clyde_pattern_best_impl();

			memcpy(cpu[V_IMPL0], cpu[a], sizeof(cpu[a]));
			memcpy(wall[V_IMPL0], wall[a], sizeof(wall[a]));
		}
		printf("buffer %zu KiB:\n", len >> 10);
		for (int v = 0; v < NVAR; v++) {
			double c, w;

			if (!var_name(v))
				continue;
			c = median(cpu[v], rounds);
			w = median(wall[v], rounds);
			if (v == V_MEMCPY)
				copy = c;
			if (v == V_IMPL0)
				best = c;
			printf("  %-8s %7.4f / %7.4f\n", var_name(v), c, w);
		}
		printf("  clyde's data: %.4f ns/B = %.1fx memcpy; target <= "
		       "0.1 ns/B: %s\n",
		       best, copy > 0 ? best / copy : 0.0,
		       best <= 0.1 ? "met" : "NOT met");
		free(buf);
		free(src);
	}
	{
		double c[MAX_ROUNDS], w[MAX_ROUNDS];

		for (unsigned r = 0; r < rounds; r++) {
			struct timing t = sample_bytes(total / 16);

			c[r] = t.cpu;
			w[r] = t.wall;
		}
		printf("per-char clyde_pattern_byte: %.3f / %.3f ns per byte\n",
		       median(c, rounds), median(w, rounds));
	}
	return 0;
}

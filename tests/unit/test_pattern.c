/*
 * The data pattern: every implementation gives the bytes of a plain,
 * one-lane-at-a-time xoshiro256++ written here from its definition; the
 * same seed gives the same data and another seed other data; no 8-byte word
 * repeats in 16 MiB; the per-char bytes continue the same streams; and
 * --pattern zeros is bonnie++'s buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "io/pattern.h"
#include "tap.h"

#define LANES CLYDE_PATTERN_LANES
#define BLOCK CLYDE_PATTERN_BLOCK

/* The reference: lane k's state, advanced one output at a time. */
struct ref {
	uint64_t s[LANES][4];
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t ref_next_lane(uint64_t *s)
{
	uint64_t out = rotl(s[0] + s[3], 23) + s[0];
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* Seeded as the header says: splitmix64 from one draw of the run's
 * generator, state word j of every lane before word j+1. */
static void ref_init(struct ref *r, const struct clyde_rng *rng)
{
	struct clyde_rng copy = *rng;
	uint64_t x = clyde_rng_next(&copy);

	for (int j = 0; j < 4; j++)
		for (int k = 0; k < LANES; k++) {
			uint64_t z = (x += 0x9e3779b97f4a7c15ull);

			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			r->s[k][j] = z ^ (z >> 31);
		}
}

/* len bytes as clyde_pattern_fill makes them: whole blocks, the rest of the
 * last block dropped. */
static void ref_fill(struct ref *r, unsigned char *p, size_t len)
{
	size_t blocks = (len + BLOCK - 1) / BLOCK;

	for (size_t b = 0; b < blocks; b++)
		for (int k = 0; k < LANES; k++) {
			uint64_t v = ref_next_lane(r->s[k]);
			size_t at = b * BLOCK + (size_t)k * 8;

			if (at < len)
				memcpy(p + at, &v, len - at < 8 ? len - at : 8);
		}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_impls_match_reference(void)
{
	static const size_t lens[] = { 8192, 1000, 64, 7, 1 << 20 };
	struct clyde_rng rng;
	int tested = 0;

	clyde_rng_seed(&rng, 12345);
	for (int impl = CLYDE_PATTERN_IMPL_AUTO;
	     impl < CLYDE_PATTERN_IMPL_COUNT; impl++) {
		struct clyde_pattern_gen g;
		struct ref r;
		int ok = 1, usable = 1;

		CHECK(clyde_pattern_init(&g, 0, &rng) == 0);
		ref_init(&r, &rng);
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			unsigned char *got = malloc(lens[i]);
			unsigned char *want = malloc(lens[i]);
			int ret;

			ret = clyde_pattern_fill_impl(
				&g, got, lens[i],
				(enum clyde_pattern_impl)impl);
			ref_fill(&r, want, lens[i]);
			if (ret == 0)
				ok &= memcmp(got, want, lens[i]) == 0;
			else
				usable = 0;
			free(got);
			free(want);
		}
		if (usable) {
			tested++;
			if (!ok)
				fprintf(stderr, "impl %s differs\n",
					clyde_pattern_impl_name(
						(enum clyde_pattern_impl)impl));
			CHECK(ok);
		}
		clyde_pattern_release(&g);
	}
	/* auto and generic, at least. */
	CHECK(tested >= 2);
	CHECK(clyde_pattern_fill_impl(&(struct clyde_pattern_gen){ 0 }, NULL, 0,
				      CLYDE_PATTERN_IMPL_COUNT) < 0);
}

static void test_seeds(void)
{
	struct clyde_rng a, b;
	struct clyde_pattern_gen g1, g2, g3;
	unsigned char x[4096], y[4096], z[4096];

	clyde_rng_seed(&a, 1);
	clyde_rng_seed(&b, 2);
	clyde_pattern_init(&g1, 0, &a);
	clyde_pattern_init(&g2, 0, &a);
	clyde_pattern_init(&g3, 0, &b);
	clyde_pattern_fill(&g1, x, sizeof(x));
	clyde_pattern_fill(&g2, y, sizeof(y));
	clyde_pattern_fill(&g3, z, sizeof(z));
	CHECK(memcmp(x, y, sizeof(x)) == 0);
	CHECK(memcmp(x, z, sizeof(x)) != 0);
	/* The next chunk is new data, not the first one again. */
	clyde_pattern_fill(&g1, y, sizeof(y));
	CHECK(memcmp(x, y, sizeof(x)) != 0);
}

/* 16 MiB in 8 KiB chunks (bonnie++'s chunk): no 8-byte word twice. */
static void test_no_repeats(void)
{
	const size_t total = 16u << 20, chunk = 8192;
	uint64_t *words = malloc(total);
	struct clyde_rng rng;
	struct clyde_pattern_gen g;
	size_t n = total / 8, dups = 0;

	if (!words) {
		CHECK(words != NULL);
		return;
	}
	clyde_rng_seed(&rng, 99);
	clyde_pattern_init(&g, 0, &rng);
	for (size_t off = 0; off < total; off += chunk)
		clyde_pattern_fill(&g, (unsigned char *)words + off, chunk);
	qsort(words, n, sizeof(*words), cmp_u64);
	for (size_t i = 1; i < n; i++)
		dups += words[i] == words[i - 1];
	CHECK(dups == 0);
	free(words);
}

static void test_bytes(void)
{
	struct clyde_rng rng;
	struct clyde_pattern_gen g;
	struct ref r;
	unsigned char want[3 * BLOCK];
	int ok = 1;

	clyde_rng_seed(&rng, 7);
	clyde_pattern_init(&g, 0, &rng);
	ref_init(&r, &rng);
	ref_fill(&r, want, sizeof(want));
	for (size_t i = 0; i < sizeof(want); i++)
		ok &= clyde_pattern_byte(&g) == want[i];
	CHECK(ok);
}

/* clyde_pattern_take gives the same stream in place, from mid-block too;
 * what it hands out is taken, and the byte after it is the next block's. */
static void test_take(void)
{
	struct clyde_rng rng;
	struct clyde_pattern_gen g;
	struct ref r;
	unsigned char want[4 * BLOCK];
	size_t at = 0;
	unsigned n;
	int ok = 1;

	clyde_rng_seed(&rng, 7);
	clyde_pattern_init(&g, 0, &rng);
	ref_init(&r, &rng);
	ref_fill(&r, want, sizeof(want));
	for (; at < 5; at++)
		ok &= clyde_pattern_byte(&g) == want[at];
	while (at < 3 * BLOCK) {
		const unsigned char *p = clyde_pattern_take(&g, &n);

		CHECK(n >= 1 && at + n <= sizeof(want));
		ok &= memcmp(p, want + at, n) == 0;
		at += n;
	}
	CHECK(ok);
	CHECK(at == 3 * BLOCK);
	CHECK(clyde_pattern_byte(&g) == want[at]);
	/* bonnie++'s pattern: zeros. */
	clyde_pattern_init(&g, 1, &rng);
	{
		const unsigned char *p = clyde_pattern_take(&g, &n);
		size_t nz = 0;

		for (unsigned i = 0; i < n; i++)
			nz += p[i] != 0;
		CHECK(n >= 1 && nz == 0);
	}
}

static void test_zeros(void)
{
	struct clyde_rng rng;
	struct clyde_pattern_gen g;
	unsigned char buf[8192];
	size_t nonzero = 0;

	clyde_rng_seed(&rng, 7);
	clyde_pattern_init(&g, 1, &rng);
	memset(buf, 0xff, sizeof(buf));
	clyde_pattern_fill(&g, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		nonzero += buf[i] != 0;
	/* Chunk 1: byte 1 is 1, as bonnie++ does it. */
	CHECK(nonzero == 1 && buf[1] == 1);
	CHECK(clyde_pattern_byte(&g) == 0);
}

/* --compress-percentage: 66% keeps the first 87 of every 256 bytes of the
 * same stream and zeros the other 169, in whole chunks and byte by byte
 * alike; 0% is the stream untouched, 100% all zeros. */
static void test_compressible(void)
{
	struct clyde_rng rng;
	struct clyde_pattern_gen g, h;
	struct ref r;
	unsigned char want[8 * BLOCK], got[8 * BLOCK];
	int ok = 1;

	clyde_rng_seed(&rng, 5);
	ref_init(&r, &rng);
	ref_fill(&r, want, sizeof(want));
	clyde_pattern_init(&g, 0, &rng);
	clyde_pattern_compressible(&g, 66);
	clyde_pattern_fill(&g, got, sizeof(got));
	clyde_pattern_init(&h, 0, &rng);
	clyde_pattern_compressible(&h, 66);
	for (size_t i = 0; i < sizeof(got); i++) {
		unsigned char b = clyde_pattern_byte(&h);

		if (i % BLOCK < 87)
			ok &= got[i] == want[i] && b == want[i];
		else
			ok &= got[i] == 0 && b == 0;
	}
	CHECK(ok);
	clyde_pattern_init(&g, 0, &rng);
	clyde_pattern_compressible(&g, 0);
	clyde_pattern_fill(&g, got, sizeof(got));
	CHECK(memcmp(got, want, sizeof(got)) == 0);
	clyde_pattern_init(&g, 0, &rng);
	clyde_pattern_compressible(&g, 100);
	clyde_pattern_fill(&g, got, sizeof(got));
	memset(want, 0, sizeof(want));
	CHECK(memcmp(got, want, sizeof(got)) == 0);
}

int main(void)
{
	test_impls_match_reference();
	test_seeds();
	test_no_repeats();
	test_bytes();
	test_take();
	test_zeros();
	test_compressible();
	return tap_done();
}

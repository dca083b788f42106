#include "core/rng.h"

#include <string.h>

uint64_t clyde_rng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t splitmix64(uint64_t *x)
{
	return clyde_rng_mix(*x += 0x9e3779b97f4a7c15ull);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void clyde_rng_seed(struct clyde_rng *rng, uint64_t seed)
{
	memset(rng, 0, sizeof(*rng));
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

void clyde_rng_external(struct clyde_rng *rng, const uint32_t *ints, size_t n,
			size_t start)
{
	rng->ext = ints;
	rng->ext_n = n;
	rng->ext_pos = n ? start % n : 0;
}

static uint32_t next_ext(struct clyde_rng *rng)
{
	uint32_t v = rng->ext[rng->ext_pos];

	rng->ext_pos = (rng->ext_pos + 1) % rng->ext_n;
	return v;
}

uint64_t clyde_rng_next(struct clyde_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result, t;

	if (rng->ext && rng->ext_n) {
		uint64_t hi = next_ext(rng);

		return (hi << 32) | next_ext(rng);
	}
	result = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t clyde_rng_below(struct clyde_rng *rng, uint64_t n)
{
	/* Rejection sampling keeps the result unbiased for any n. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t v;

	do
		v = clyde_rng_next(rng);
	while (v >= limit);
	return v % n;
}

void clyde_rng_fill(struct clyde_rng *rng, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len >= 8) {
		uint64_t v = clyde_rng_next(rng);

		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = clyde_rng_next(rng);

		memcpy(p, &v, len);
	}
}

void clyde_rng_fork(const struct clyde_rng *parent, unsigned stream,
		    struct clyde_rng *child)
{
	uint64_t seed = parent->s[0] ^ rotl(parent->s[1], 17) ^
			(0x9e3779b97f4a7c15ull * (stream + 1));

	clyde_rng_seed(child, seed);
	if (parent->ext)
		clyde_rng_external(child, parent->ext, parent->ext_n,
				   parent->ext_pos + 7919u * stream);
}

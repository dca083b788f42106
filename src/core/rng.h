/*
 * The one source of randomness: a seeded xoshiro256** generator, or (bonnie++'s
 * -Z) a sequence of 32-bit integers read from a file and used in a cycle.
 * A generator is owned by one thread; fork one per worker with
 * clyde_rng_fork() so that runs repeat exactly for a given seed.
 */
#ifndef CLYDE_CORE_RNG_H
#define CLYDE_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>

struct clyde_rng {
	uint64_t s[4];
	/* External integers (-Z): borrowed, not owned; NULL when seeded. */
	const uint32_t *ext;
	size_t ext_n;
	size_t ext_pos;
};

void clyde_rng_seed(struct clyde_rng *rng, uint64_t seed);

/* splitmix64's finaliser: a bijection of 64-bit values that mixes every
 * bit into every other (the seeding sequence is it applied to seed + k
 * times 0x9e3779b97f4a7c15). */
uint64_t clyde_rng_mix(uint64_t z);

/* Use ints[0..n) in a cycle, starting at start % n.  ints is borrowed. */
void clyde_rng_external(struct clyde_rng *rng, const uint32_t *ints, size_t n,
			size_t start);

uint64_t clyde_rng_next(struct clyde_rng *rng);

/* Uniform in [0, n); n must not be 0. */
uint64_t clyde_rng_below(struct clyde_rng *rng, uint64_t n);

void clyde_rng_fill(struct clyde_rng *rng, void *buf, size_t len);

/* An independent generator for stream number `stream` of the parent's seed. */
void clyde_rng_fork(const struct clyde_rng *parent, unsigned stream,
		    struct clyde_rng *child);

#endif

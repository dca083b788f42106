#include "io/pattern.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define POOL_LEN (4u << 20)
#define STAMP_EVERY 4096u

int clyde_pattern_init(struct clyde_pattern_gen *g, int zeros,
		       const struct clyde_rng *rng)
{
	memset(g, 0, sizeof(*g));
	g->zeros = zeros;
	g->rng = *rng;
	if (zeros)
		return 0;
	/* Twice the pool so that any offset below POOL_LEN can be followed
	 * by a whole chunk (chunks are at most 1 MiB) without wrapping. */
	g->pool_len = POOL_LEN;
	g->pool = malloc(2 * (size_t)POOL_LEN);
	if (!g->pool)
		return -ENOMEM;
	g->owns_pool = 1;
	clyde_rng_fill(&g->rng, g->pool, 2 * (size_t)POOL_LEN);
	return 0;
}

void clyde_pattern_init_shared(struct clyde_pattern_gen *g,
			       const struct clyde_pattern_gen *src,
			       const struct clyde_rng *rng)
{
	memset(g, 0, sizeof(*g));
	g->zeros = src->zeros;
	g->pool = src->pool;
	g->pool_len = src->pool_len;
	g->rng = *rng;
}

void clyde_pattern_release(struct clyde_pattern_gen *g)
{
	if (g->owns_pool)
		free(g->pool);
	g->pool = NULL;
	g->owns_pool = 0;
}

void clyde_pattern_fill(struct clyde_pattern_gen *g, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t n = ++g->counter;

	if (g->zeros) {
		/* bonnie++ changes one byte of an otherwise zero buffer. */
		memset(p, 0, len);
		if (len)
			p[n % len] = (unsigned char)(n & 0x7f);
		return;
	}
	while (len) {
		size_t piece = len < POOL_LEN ? len : POOL_LEN;
		size_t off = (size_t)clyde_rng_below(&g->rng, g->pool_len) &
			     ~(size_t)7;

		memcpy(p, g->pool + off, piece);
		/* A unique stamp in every 4 KiB block defeats deduplication
		 * even where two chunks start at the same pool offset. */
		for (size_t b = 0; b + sizeof(n) <= piece; b += STAMP_EVERY) {
			uint64_t stamp = n ^ ((uint64_t)b << 40);

			memcpy(p + b, &stamp, sizeof(stamp));
		}
		p += piece;
		len -= piece;
	}
}

unsigned char clyde_pattern_byte(struct clyde_pattern_gen *g)
{
	if (g->zeros)
		return 0;
	return g->pool[g->counter++ % g->pool_len];
}

#include "io/pattern.h"

#include <errno.h>
#include <string.h>

#include "core/rng.h"

/* Copies of the generator built for wider vector units, chosen at run time
 * (gcc and clang on x86-64; the attribute syntax is theirs). */
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_X86_IMPLS 1
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HAVE_X86_IMPLS 0
#define ALWAYS_INLINE inline
#endif

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The seeding sequence (splitmix64): distinct, well-mixed state words from
 * one 64-bit value, so that no lane starts at zero or equal to another even
 * when -Z feeds the run's generator a short cycle of integers. */
static uint64_t next_seed(uint64_t *x)
{
	return clyde_rng_mix(*x += 0x9e3779b97f4a7c15ull);
}

/* Lanes are stepped in groups of 8: a group's state word is one AVX-512
 * register (two AVX2, four SSE2), and the groups do not depend on each
 * other, so the CPU overlaps their dependency chains. */
#define GROUP 8
#define NGROUPS (CLYDE_PATTERN_LANES / GROUP)

/* One output of each lane of group S (uint64_t S[4][GROUP]) to
 * OUT[0..GROUP).  A macro, not a function: gcc keeps the state of a group
 * in registers only when it sees the arrays themselves. */
#define STEP_GROUP(S, OUT)                                        \
	for (int k = 0; k < GROUP; k++) {                         \
		uint64_t t = S[1][k] << 17;                       \
                                                                  \
		(OUT)[k] = rotl(S[0][k] + S[3][k], 23) + S[0][k]; \
		S[2][k] ^= S[0][k];                               \
		S[3][k] ^= S[1][k];                               \
		S[1][k] ^= S[2][k];                               \
		S[0][k] ^= S[3][k];                               \
		S[2][k] ^= t;                                     \
		S[3][k] = rotl(S[3][k], 45);                      \
	}

/*
 * Make n blocks at out.  Each lane is a xoshiro256++ generator (Blackman
 * and Vigna); block i holds output i of lane 0, lane 1, ... in that order.
 * The state is copied into one local array per group so that it stays in
 * registers across blocks.  Inlined into each implementation, which the
 * compiler vectorises for its target.
 */
static ALWAYS_INLINE void make_blocks(uint64_t st[4][CLYDE_PATTERN_LANES],
				      unsigned char *out, size_t n)
{
	uint64_t a[4][GROUP], b[4][GROUP], c[4][GROUP], d[4][GROUP];

	for (int j = 0; j < 4; j++) {
		memcpy(a[j], &st[j][0 * GROUP], sizeof(a[j]));
		memcpy(b[j], &st[j][1 * GROUP], sizeof(b[j]));
		memcpy(c[j], &st[j][2 * GROUP], sizeof(c[j]));
		memcpy(d[j], &st[j][3 * GROUP], sizeof(d[j]));
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t ra[GROUP], rb[GROUP], rc[GROUP], rd[GROUP];
		unsigned char *o = out + i * CLYDE_PATTERN_BLOCK;

		STEP_GROUP(a, ra);
		STEP_GROUP(b, rb);
		STEP_GROUP(c, rc);
		STEP_GROUP(d, rd);
		memcpy(o, ra, sizeof(ra));
		memcpy(o + 1 * sizeof(ra), rb, sizeof(rb));
		memcpy(o + 2 * sizeof(ra), rc, sizeof(rc));
		memcpy(o + 3 * sizeof(ra), rd, sizeof(rd));
	}
	for (int j = 0; j < 4; j++) {
		memcpy(&st[j][0 * GROUP], a[j], sizeof(a[j]));
		memcpy(&st[j][1 * GROUP], b[j], sizeof(b[j]));
		memcpy(&st[j][2 * GROUP], c[j], sizeof(c[j]));
		memcpy(&st[j][3 * GROUP], d[j], sizeof(d[j]));
	}
}

_Static_assert(NGROUPS == 4, "make_blocks steps four groups");

typedef void blocks_fn(uint64_t st[4][CLYDE_PATTERN_LANES], unsigned char *out,
		       size_t n);

static void blocks_generic(uint64_t st[4][CLYDE_PATTERN_LANES],
			   unsigned char *out, size_t n)
{
	make_blocks(st, out, n);
}

#if HAVE_X86_IMPLS
__attribute__((target("avx2"))) static void
blocks_avx2(uint64_t st[4][CLYDE_PATTERN_LANES], unsigned char *out, size_t n)
{
	make_blocks(st, out, n);
}

__attribute__((target("avx512f,avx512vl"))) static void
blocks_avx512(uint64_t st[4][CLYDE_PATTERN_LANES], unsigned char *out, size_t n)
{
	make_blocks(st, out, n);
}
#endif

static int impl_usable(enum clyde_pattern_impl impl)
{
	switch (impl) {
	case CLYDE_PATTERN_IMPL_GENERIC:
		return 1;
#if HAVE_X86_IMPLS
	case CLYDE_PATTERN_IMPL_AVX2:
		return __builtin_cpu_supports("avx2");
	case CLYDE_PATTERN_IMPL_AVX512:
		return __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("avx512vl");
#endif
	default:
		return 0;
	}
}

enum clyde_pattern_impl clyde_pattern_best_impl(void)
{
	if (impl_usable(CLYDE_PATTERN_IMPL_AVX512))
		return CLYDE_PATTERN_IMPL_AVX512;
	if (impl_usable(CLYDE_PATTERN_IMPL_AVX2))
		return CLYDE_PATTERN_IMPL_AVX2;
	return CLYDE_PATTERN_IMPL_GENERIC;
}

const char *clyde_pattern_impl_name(enum clyde_pattern_impl impl)
{
	switch (impl) {
	case CLYDE_PATTERN_IMPL_AUTO:
		return "auto";
	case CLYDE_PATTERN_IMPL_GENERIC:
		return "generic";
	case CLYDE_PATTERN_IMPL_AVX2:
		return "avx2";
	case CLYDE_PATTERN_IMPL_AVX512:
		return "avx512";
	default:
		return "?";
	}
}

static blocks_fn *impl_fn(enum clyde_pattern_impl impl)
{
	switch (impl) {
#if HAVE_X86_IMPLS
	case CLYDE_PATTERN_IMPL_AVX2:
		return blocks_avx2;
	case CLYDE_PATTERN_IMPL_AVX512:
		return blocks_avx512;
#endif
	default:
		return blocks_generic;
	}
}

int clyde_pattern_init(struct clyde_pattern_gen *g, int zeros,
		       const struct clyde_rng *rng)
{
	struct clyde_rng copy = *rng;
	uint64_t x = clyde_rng_next(&copy);

	memset(g, 0, sizeof(*g));
	g->zeros = zeros;
	for (int j = 0; j < 4; j++)
		for (int k = 0; k < CLYDE_PATTERN_LANES; k++)
			g->s[j][k] = next_seed(&x);
	g->byte_pos =
		CLYDE_PATTERN_BLOCK; /* empty: the first byte makes a block */
	g->keep = CLYDE_PATTERN_BLOCK;
	return 0;
}

void clyde_pattern_compressible(struct clyde_pattern_gen *g, unsigned percent)
{
	if (percent > 100)
		percent = 100;
	g->keep = (CLYDE_PATTERN_BLOCK * (100 - percent) + 50) / 100;
}

/* The compressible share of n bytes at p made of whole blocks from the
 * block's start (the last may be partial). */
static void cut(const struct clyde_pattern_gen *g, unsigned char *p, size_t n)
{
	if (g->keep >= CLYDE_PATTERN_BLOCK)
		return;
	for (size_t off = 0; off < n; off += CLYDE_PATTERN_BLOCK) {
		size_t end = n - off < CLYDE_PATTERN_BLOCK ?
				     n - off :
				     CLYDE_PATTERN_BLOCK;

		if (end > g->keep)
			memset(p + off + g->keep, 0, end - g->keep);
	}
}

void clyde_pattern_release(struct clyde_pattern_gen *g)
{
	memset(g, 0, sizeof(*g));
}

static void fill_zeros(struct clyde_pattern_gen *g, unsigned char *p,
		       size_t len)
{
	uint64_t n = ++g->counter;

	/* bonnie++ changes one byte of an otherwise zero buffer. */
	memset(p, 0, len);
	if (len)
		p[n % len] = (unsigned char)(n & 0x7f);
}

int clyde_pattern_fill_impl(struct clyde_pattern_gen *g, void *buf, size_t len,
			    enum clyde_pattern_impl impl)
{
	unsigned char *p = buf;
	blocks_fn *fn;

	if (g->zeros) {
		fill_zeros(g, p, len);
		return 0;
	}
	if (impl == CLYDE_PATTERN_IMPL_AUTO)
		impl = clyde_pattern_best_impl();
	if (!impl_usable(impl))
		return -ENOTSUP;
	fn = impl_fn(impl);
	fn(g->s, p, len / CLYDE_PATTERN_BLOCK);
	if (len % CLYDE_PATTERN_BLOCK) {
		/* The rest of the last block is dropped: the next chunk
		 * starts with a new one. */
		unsigned char last[CLYDE_PATTERN_BLOCK];

		fn(g->s, last, 1);
		memcpy(p + len - len % CLYDE_PATTERN_BLOCK, last,
		       len % CLYDE_PATTERN_BLOCK);
	}
	cut(g, p, len);
	return 0;
}

void clyde_pattern_fill(struct clyde_pattern_gen *g, void *buf, size_t len)
{
	clyde_pattern_fill_impl(g, buf, len, CLYDE_PATTERN_IMPL_AUTO);
}

const unsigned char *clyde_pattern_take(struct clyde_pattern_gen *g,
					unsigned *n)
{
	static const unsigned char zeros[CLYDE_PATTERN_BLOCK];
	const unsigned char *p;

	if (g->zeros) {
		*n = CLYDE_PATTERN_BLOCK;
		return zeros;
	}
	if (g->byte_pos == CLYDE_PATTERN_BLOCK) {
		impl_fn(clyde_pattern_best_impl())(g->s, g->bytes, 1);
		cut(g, g->bytes, CLYDE_PATTERN_BLOCK);
		g->byte_pos = 0;
	}
	p = g->bytes + g->byte_pos;
	*n = CLYDE_PATTERN_BLOCK - g->byte_pos;
	g->byte_pos = CLYDE_PATTERN_BLOCK;
	return p;
}

unsigned char clyde_pattern_byte_refill(struct clyde_pattern_gen *g)
{
	/* The best implementation, as for whole chunks (the same bytes): the
	 * generic one took most of the per-char write's 17 instructions per
	 * byte for clyde's data. */
	impl_fn(clyde_pattern_best_impl())(g->s, g->bytes, 1);
	cut(g, g->bytes, CLYDE_PATTERN_BLOCK);
	g->byte_pos = 1;
	return g->bytes[0];
}

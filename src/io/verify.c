#include "io/verify.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

#define K1 0x9e3779b97f4a7c15ull
#define K2 0xc2b2ae3d27d4eb4full

static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w * K2;
	h = (h << 31 | h >> 33) * K1;
	return h;
}

static uint64_t fin(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/*
 * The checksum of a unit: its first 24 bytes (magic, generation, offset,
 * seed), then the bytes after the header, then its length.  Four lanes
 * over 32-byte steps, one lane for the tail of 8-byte words, and the last
 * bytes one at a time.
 */
static uint64_t unit_sum(const unsigned char *u, size_t len)
{
	uint64_t h[4] = { K1, K2, K1 ^ K2, ~K1 }, t = 0;
	const unsigned char *p = u + CLYDE_VERIFY_HDR;
	size_t left = len - CLYDE_VERIFY_HDR;

	h[0] = mix(h[0], get64(u));
	h[1] = mix(h[1], get64(u + 8));
	h[2] = mix(h[2], get64(u + 16));
	for (; left >= 32; p += 32, left -= 32)
		for (int k = 0; k < 4; k++)
			h[k] = mix(h[k], get64(p + 8 * k));
	for (; left >= 8; p += 8, left -= 8)
		h[3] = mix(h[3], get64(p));
	for (size_t i = 0; i < left; i++)
		t |= (uint64_t)p[i] << (8 * i);
	h[0] = mix(h[0], t);
	h[1] = mix(h[1], (uint64_t)len);
	return fin(h[0] ^ fin(h[1]) ^ fin(h[2] + 1) ^ fin(h[3] + 2));
}

size_t clyde_verify_unit(size_t chunk)
{
	return chunk % CLYDE_VERIFY_UNIT == 0 ? CLYDE_VERIFY_UNIT : chunk;
}

void clyde_verify_stamp(void *buf, size_t len, size_t unit, uint64_t off,
			uint32_t gen, uint64_t seed)
{
	unsigned char *p = buf;

	for (size_t at = 0; at < len; at += unit) {
		unsigned char *u = p + at;
		size_t n = len - at < unit ? len - at : unit;

		if (n < CLYDE_VERIFY_HDR)
			break;
		put32(u, CLYDE_VERIFY_MAGIC);
		put32(u + 4, gen);
		put64(u + 8, off + at);
		put64(u + 16, seed);
		put64(u + 24, unit_sum(u, n));
	}
}

static bool all_zero(const unsigned char *u, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (u[i])
			return false;
	return true;
}

bool clyde_verify_unit_ok(const void *unit, size_t len, uint64_t off,
			  uint32_t gen, bool any_older, uint64_t seed,
			  struct clyde_verify_bad *bad)
{
	const unsigned char *u = unit;
	uint32_t fgen;
	uint64_t foff, fseed, fsum, dsum;

	if (len < CLYDE_VERIFY_HDR)
		return true;
	memset(bad, 0, sizeof(*bad));
	bad->off = off;
	bad->len = (uint32_t)len;
	bad->gen = gen;
	bad->seed = seed;
	if (get32(u) != CLYDE_VERIFY_MAGIC) {
		bad->fault = all_zero(u, len) ? CLYDE_VERIFY_ZEROS :
						CLYDE_VERIFY_NO_HEADER;
		memcpy(bad->first, u, sizeof(bad->first));
		return false;
	}
	fgen = get32(u + 4);
	foff = get64(u + 8);
	fseed = get64(u + 16);
	fsum = get64(u + 24);
	dsum = unit_sum(u, len);
	bad->found_gen = fgen;
	bad->found_off = foff;
	bad->found_seed = fseed;
	bad->found_sum = fsum;
	bad->data_sum = dsum;
	/* A unit that does not match its own checksum was damaged (its
	 * header too, maybe); one that does is a whole block, this place's
	 * or another's. */
	if (fsum != dsum) {
		bad->fault = CLYDE_VERIFY_CORRUPT;
		return false;
	}
	if (foff != off || fseed != seed ||
	    (any_older ? fgen == 0 || fgen > gen : fgen != gen)) {
		bad->fault = CLYDE_VERIFY_OTHER;
		return false;
	}
	return true;
}

bool clyde_verify_check(const void *buf, size_t len, size_t unit, uint64_t off,
			uint32_t gen, uint64_t seed,
			struct clyde_verify_bad *bad)
{
	const unsigned char *p = buf;

	for (size_t at = 0; at < len; at += unit) {
		size_t n = len - at < unit ? len - at : unit;

		if (!clyde_verify_unit_ok(p + at, n, off + at, gen, false, seed,
					  bad))
			return false;
	}
	return true;
}

void clyde_verify_describe(const struct clyde_verify_bad *b, char *out,
			   size_t n)
{
	char want[96];

	snprintf(want, sizeof(want),
		 "at offset %" PRIu64 " (%" PRIu32 " bytes): expected "
		 "generation %" PRIu32 " seed %" PRIu64,
		 b->off, b->len, b->gen, b->seed);
	switch (b->fault) {
	case CLYDE_VERIFY_ZEROS:
		snprintf(out, n,
			 "%s, found zeros (the write never reached the "
			 "storage)",
			 want);
		break;
	case CLYDE_VERIFY_NO_HEADER:
		snprintf(out, n,
			 "%s, found no header (other data: %02x %02x %02x "
			 "%02x %02x %02x %02x %02x ...)",
			 want, b->first[0], b->first[1], b->first[2],
			 b->first[3], b->first[4], b->first[5], b->first[6],
			 b->first[7]);
		break;
	case CLYDE_VERIFY_OTHER:
		snprintf(out, n,
			 "%s, found the block of offset %" PRIu64
			 " generation %" PRIu32 " seed %" PRIu64
			 " (a lost or misplaced write)",
			 want, b->found_off, b->found_gen, b->found_seed);
		break;
	case CLYDE_VERIFY_CORRUPT:
		snprintf(out, n,
			 "%s, found corrupted contents (its header says "
			 "offset %" PRIu64 " generation %" PRIu32
			 " seed %" PRIu64 " checksum %016" PRIx64
			 ", the bytes give %016" PRIx64 ")",
			 want, b->found_off, b->found_gen, b->found_seed,
			 b->found_sum, b->data_sum);
		break;
	default:
		snprintf(out, n, "%s: right", want);
		break;
	}
}

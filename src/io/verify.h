/*
 * --verify: blocks that say what they are, so that what the storage gives
 * back can be checked against what was written.
 *
 * A buffer written at offset `off` of a file or device is cut into units
 * of `unit` bytes from its start (the last one may be shorter).  The
 * first CLYDE_VERIFY_HDR bytes of each unit are replaced by a header:
 *
 *	bytes  0..3   magic "CLYV"
 *	       4..7   generation (which write of this place it is: 1 the
 *	              block write, 2 the rewrite, a request's number in
 *	              clyde dev)
 *	       8..15  the unit's offset in the file or device
 *	      16..23  the run's seed
 *	      24..31  a checksum of the unit's other bytes and its length
 *
 * all little-endian.  The rest of the unit keeps the pattern's random
 * bytes (io/pattern.h), so the data stays incompressible: only 32 bytes of
 * each 4 KiB (0.8%) are a header, and no two headers are alike.  A unit
 * shorter than the header (the last few bytes of a file) carries none and
 * is not checked.
 *
 * The checksum is a 64-bit multiply-xor hash over 8-byte words in four
 * independent lanes (so that stamping costs a fraction of the write), not
 * a cryptographic one: it finds a changed byte, a torn or misplaced write
 * and a lost one, not an adversary.
 *
 * A lost write shows as a unit with no header (zeros: the place was never
 * written; other data), or as a whole block of another offset,
 * generation or seed (an older write of the same place, another place's
 * block); a corrupted one as a unit whose bytes (its header's included)
 * do not give its checksum.  Nothing here allocates, prints or does I/O.
 */
#ifndef CLYDE_IO_VERIFY_H
#define CLYDE_IO_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLYDE_VERIFY_HDR 32u
#define CLYDE_VERIFY_UNIT 4096u
#define CLYDE_VERIFY_MAGIC 0x56594c43u /* "CLYV" little-endian */

/* The unit for writes of `chunk` bytes: 4 KiB when the chunk is a
 * multiple of it (a fault is then placed to the 4 KiB block), else the
 * whole chunk. */
size_t clyde_verify_unit(size_t chunk);

/* Stamp every unit of buf[0..len), which is written at offset `off`. */
void clyde_verify_stamp(void *buf, size_t len, size_t unit, uint64_t off,
			uint32_t gen, uint64_t seed);

/* What a unit that failed its check holds. */
enum clyde_verify_fault {
	CLYDE_VERIFY_OK,
	CLYDE_VERIFY_ZEROS,	/* all zeros: never written */
	CLYDE_VERIFY_NO_HEADER, /* other data, no header */
	CLYDE_VERIFY_OTHER,	/* a whole block (its checksum right) of
				 * another offset, generation or seed */
	CLYDE_VERIFY_CORRUPT,	/* bytes (header or data) that do not match
				 * the checksum */
};

struct clyde_verify_bad {
	enum clyde_verify_fault fault;
	uint64_t off; /* the unit's offset */
	uint32_t len; /* its length */
	/* Expected. */
	uint32_t gen;
	uint64_t seed;
	/* Found: the header's fields (OTHER, CORRUPT), the checksum the
	 * bytes give (CORRUPT), the first bytes (NO_HEADER). */
	uint32_t found_gen;
	uint64_t found_off, found_seed, found_sum, data_sum;
	unsigned char first[8];
};

/*
 * Check one unit u[0..len) read from offset `off` against generation `gen`
 * and `seed`.  `any_older`: a generation from 1 to gen is accepted (two
 * writes of the place were in flight together, and either may be the one
 * kept).  Returns true when it is right; else false with *bad filled.
 */
bool clyde_verify_unit_ok(const void *u, size_t len, uint64_t off, uint32_t gen,
			  bool any_older, uint64_t seed,
			  struct clyde_verify_bad *bad);

/* Check every unit of buf[0..len) read from offset `off`, as
 * clyde_verify_stamp cut them.  Returns true, or false with the first bad
 * unit in *bad. */
bool clyde_verify_check(const void *buf, size_t len, size_t unit, uint64_t off,
			uint32_t gen, uint64_t seed,
			struct clyde_verify_bad *bad);

/* "at offset 8192 (4096 bytes): expected generation 1 seed 0x2a, found
 * zeros (the write never reached the storage)". */
void clyde_verify_describe(const struct clyde_verify_bad *bad, char *out,
			   size_t n);

/* ---- reading back (verify_read.c): the one part that does I/O ------- */

struct clyde_ctx;

/*
 * What a place should hold, for writes whose generations differ from
 * place to place (clyde dev's requests): the generation of the write of
 * `len` bytes at `off`, 0 when nothing was written there (not checked);
 * *any_older set when an older generation may be the one kept.
 */
typedef uint32_t (*clyde_verify_gen_fn)(void *arg, uint64_t off,
					bool *any_older);

struct clyde_verify_read {
	int fd; /* open for reading (O_DIRECT or not) */
	/* The file or device for messages, which start with it: "block
	 * write: --verify: /mnt/x/io.0". */
	const char *what;
	uint64_t start; /* the first byte written */
	uint64_t len;	/* bytes written from there */
	size_t piece;	/* the size each write had (units restart there) */
	size_t unit;	/* clyde_verify_unit(piece) */
	uint32_t gen;	/* every unit's generation, when gen_at is NULL */
	clyde_verify_gen_fn gen_at; /* per piece, called with each piece */
	void *gen_arg;
	uint64_t seed;
};

/* What a read-back found. */
struct clyde_verify_result {
	uint64_t units;		       /* checked */
	uint64_t bad;		       /* of them wrong */
	uint64_t bytes;		       /* read back */
	struct clyde_verify_bad first; /* the first bad one */
	bool short_file;	       /* the file ended before start + len */
	uint64_t size;		       /* then: where it ended */
};

/*
 * Read back r->len bytes from r->start in buffers of whole pieces
 * (aligned for O_DIRECT) and check every unit.  Returns 0 when all are
 * right; -EIO with one line in ctx when some are not ("WHAT at offset
 * 8192 (4096 bytes): expected generation 1 seed 42, found zeros (the
 * write never reached the storage); 3 of 256 blocks wrong"), or when the
 * file is shorter than what was written; another negative errno when the
 * read fails.  *res (may be NULL) gets the counts.  -EINTR when ctx says
 * stop.
 */
int clyde_verify_read(struct clyde_ctx *ctx, const struct clyde_verify_read *r,
		      struct clyde_verify_result *res);

#endif

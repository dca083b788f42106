/*
 * --verify's blocks (io/verify.h): a stamped buffer checks out; every
 * fault a storage can make is found at its unit's offset and named (a
 * changed byte anywhere in a unit, its header included; zeros; other
 * data; an older generation; another offset's block; another seed); the
 * data stays incompressible apart from the headers; a unit too short for
 * a header is neither stamped nor checked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "env/stack.h"
#include "results/testio.h"
#include "io/pattern.h"
#include "io/verify.h"
#include "tap.h"

#define LEN (64u * 1024u)
#define SEED 0x1234abcdull

static unsigned char *random_buf(size_t len, uint64_t seed)
{
	struct clyde_pattern_gen g;
	struct clyde_rng rng;
	unsigned char *b = malloc(len);

	clyde_rng_seed(&rng, seed);
	clyde_pattern_init(&g, 0, &rng);
	if (b)
		clyde_pattern_fill(&g, b, len);
	clyde_pattern_release(&g);
	return b;
}

static void test_good(void)
{
	unsigned char *b = random_buf(LEN, 1);
	struct clyde_verify_bad bad;

	CHECK(clyde_verify_unit(8192) == 4096);
	CHECK(clyde_verify_unit(1000) == 1000);
	clyde_verify_stamp(b, LEN, 4096, 1 << 20, 1, SEED);
	CHECK(clyde_verify_check(b, LEN, 4096, 1 << 20, 1, SEED, &bad));
	/* Read back in other pieces, as long as they start on a unit. */
	CHECK(clyde_verify_check(b + 8192, 4096, 4096, (1 << 20) + 8192, 1,
				 SEED, &bad));
	/* At another place, generation or seed it is not right. */
	CHECK(!clyde_verify_check(b, LEN, 4096, 0, 1, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_OTHER && bad.found_off == 1 << 20);
	CHECK(!clyde_verify_check(b, LEN, 4096, 1 << 20, 2, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_OTHER && bad.found_gen == 1);
	CHECK(!clyde_verify_check(b, LEN, 4096, 1 << 20, 1, SEED + 1, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_OTHER && bad.found_seed == SEED);
	/* Two writes of a place in flight together: an older one is kept. */
	CHECK(clyde_verify_unit_ok(b, 4096, 1 << 20, 3, true, SEED, &bad));
	CHECK(!clyde_verify_unit_ok(b, 4096, 1 << 20, 3, false, SEED, &bad));
	free(b);
}

/* One changed byte at every position of a unit is found, in that unit. */
static void test_every_byte(void)
{
	unsigned char *b = random_buf(3 * 4096, 2);
	struct clyde_verify_bad bad;
	unsigned missed = 0, misplaced = 0;

	clyde_verify_stamp(b, 3 * 4096, 4096, 0, 7, SEED);
	for (unsigned i = 0; i < 4096; i++) {
		b[4096 + i] ^= 0x01;
		if (clyde_verify_check(b, 3 * 4096, 4096, 0, 7, SEED, &bad))
			missed++;
		else if (bad.off != 4096)
			misplaced++;
		b[4096 + i] ^= 0x01;
	}
	CHECK(missed == 0);
	CHECK(misplaced == 0);
	/* A byte of the payload: the header is right, the contents not. */
	b[4096 + 100] ^= 0x80;
	CHECK(!clyde_verify_check(b, 3 * 4096, 4096, 0, 7, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_CORRUPT && bad.off == 4096 &&
	      bad.found_sum != bad.data_sum);
	free(b);
}

static void test_faults(void)
{
	unsigned char *b = random_buf(LEN, 3), *old = random_buf(LEN, 4);
	struct clyde_verify_bad bad;
	char text[512];

	clyde_verify_stamp(old, LEN, 4096, 0, 1, SEED);
	clyde_verify_stamp(b, LEN, 4096, 0, 2, SEED);
	/* A lost write of unit 5: the disk still has the first write. */
	memcpy(b + 5 * 4096, old + 5 * 4096, 4096);
	CHECK(!clyde_verify_check(b, LEN, 4096, 0, 2, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_OTHER && bad.off == 5 * 4096 &&
	      bad.found_gen == 1);
	clyde_verify_describe(&bad, text, sizeof(text));
	CHECK_STR(text, "at offset 20480 (4096 bytes): expected generation 2 "
			"seed 305441741, found the block of offset 20480 "
			"generation 1 seed 305441741 (a lost or misplaced "
			"write)");
	/* Never written. */
	memset(b + 5 * 4096, 0, 4096);
	CHECK(!clyde_verify_check(b, LEN, 4096, 0, 2, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_ZEROS && bad.off == 5 * 4096);
	clyde_verify_describe(&bad, text, sizeof(text));
	CHECK(strstr(text, "found zeros") != NULL);
	/* Someone else's data. */
	memset(b + 5 * 4096, 0xee, 4096);
	CHECK(!clyde_verify_check(b, LEN, 4096, 0, 2, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_NO_HEADER);
	clyde_verify_describe(&bad, text, sizeof(text));
	CHECK(strstr(text, "found no header (other data: ee ee") != NULL);
	/* Another place's block (a misdirected write). */
	memcpy(b + 5 * 4096, b + 9 * 4096, 4096);
	CHECK(!clyde_verify_check(b, LEN, 4096, 0, 2, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_OTHER && bad.found_off == 9 * 4096);
	free(b);
	free(old);
}

/* Short units: a tail shorter than the header is left as it was. */
static void test_short(void)
{
	unsigned char *b = random_buf(4096 + 20, 5), *copy = malloc(4096 + 20);
	struct clyde_verify_bad bad;

	CHECK(copy != NULL);
	if (!copy)
		return;
	memcpy(copy, b, 4096 + 20);
	clyde_verify_stamp(b, 4096 + 20, 4096, 0, 1, SEED);
	CHECK(memcmp(b + 4096, copy + 4096, 20) == 0);
	CHECK(clyde_verify_check(b, 4096 + 20, 4096, 0, 1, SEED, &bad));
	/* 100 bytes at the end of a file: stamped and checked. */
	clyde_verify_stamp(copy, 100, 4096, 8192, 1, SEED);
	CHECK(clyde_verify_check(copy, 100, 4096, 8192, 1, SEED, &bad));
	copy[99] ^= 1;
	CHECK(!clyde_verify_check(copy, 100, 4096, 8192, 1, SEED, &bad));
	CHECK(bad.fault == CLYDE_VERIFY_CORRUPT && bad.len == 100);
	free(b);
	free(copy);
}

/* Only the headers are not random: 32 bytes in 4096, and no two units'
 * headers are alike (the offset is in each). */
static void test_incompressible(void)
{
	unsigned char *b = random_buf(LEN, 6), *copy = malloc(LEN);
	size_t changed = 0;

	CHECK(copy != NULL);
	if (!copy)
		return;
	memcpy(copy, b, LEN);
	clyde_verify_stamp(b, LEN, 4096, 0, 1, SEED);
	for (size_t i = 0; i < LEN; i++)
		changed += b[i] != copy[i];
	CHECK(changed <= LEN / 4096 * CLYDE_VERIFY_HDR);
	CHECK(memcmp(b + 8, b + 4096 + 8, 8) != 0);
	CHECK(memcmp(b + 24, b + 4096 + 24, 8) != 0);
	free(b);
	free(copy);
}

/* Without --verify: a write test whose devices took far less than it
 * wrote is lost writes, unless the stack shrinks bonnie++'s zeros. */
static void test_lost(void)
{
	struct clyde_stack ext4, zfs;
	uint64_t mib64 = 16ull << 20;

	memset(&ext4, 0, sizeof(ext4));
	memset(&zfs, 0, sizeof(zfs));
	ext4.has_fs = true;
	snprintf(ext4.fs.type, sizeof(ext4.fs.type), "ext4");
	snprintf(ext4.fs.mount_opts, sizeof(ext4.fs.mount_opts),
		 "rw,relatime | rw,data=ordered");
	zfs.has_fs = true;
	snprintf(zfs.fs.type, sizeof(zfs.fs.type), "zfs");
	snprintf(zfs.fs.zfs_compression, sizeof(zfs.fs.zfs_compression), "lz4");
	CHECK(!clyde_stack_shrinks_data(&ext4));
	CHECK(clyde_stack_shrinks_data(&zfs));
	/* dm-flakey's drop_writes under XFS: 0.52 and 0.00 */
	CHECK(clyde_test_io_lost(0.52, mib64, 0, false, &ext4));
	CHECK(clyde_test_io_lost(0.0, mib64, 0, false, &ext4));
	CHECK(clyde_test_io_lost(0.0, mib64, 0, true, &ext4));
	CHECK(!clyde_test_io_lost(0.95, mib64, 0, false, &ext4));
	CHECK(!clyde_test_io_lost(1.0, mib64, 0, false, &ext4));
	/* too little to judge, not a write test, no stack known */
	CHECK(!clyde_test_io_lost(0.5, 1ull << 20, 0, false, &ext4));
	CHECK(!clyde_test_io_lost(-1.0, mib64, 0, false, &ext4));
	CHECK(!clyde_test_io_lost(0.5, mib64, 0, false, NULL));
	/* --runtime went round a 32 MiB file for 6.6 GiB: the devices took
	 * 34 MiB, which is all of it (0.005 of what was written); the same
	 * against files of 64 MiB is a loss, and an extent above what was
	 * written is no discount */
	CHECK(!clyde_test_io_lost(34.0 / 6758.0, 6758ull << 20, 32ull << 20,
				  false, &ext4));
	CHECK(clyde_test_io_lost(34.0 / 6758.0, 6758ull << 20, 64ull << 20,
				 false, &ext4));
	CHECK(clyde_test_io_lost(0.5, mib64, 1ull << 30, false, &ext4));
	/* zeros on a compressing stack shrink; random data does not */
	CHECK(!clyde_test_io_lost(0.01, mib64, 0, true, &zfs));
	CHECK(clyde_test_io_lost(0.01, mib64, 0, false, &zfs));
	snprintf(ext4.fs.type, sizeof(ext4.fs.type), "btrfs");
	snprintf(ext4.fs.mount_opts, sizeof(ext4.fs.mount_opts),
		 "rw,compress=zstd:3");
	CHECK(!clyde_test_io_lost(0.01, mib64, 0, true, &ext4));
}

int main(void)
{
	test_lost();
	test_good();
	test_every_byte();
	test_faults();
	test_short();
	test_incompressible();
	return tap_done();
}

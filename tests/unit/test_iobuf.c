/*
 * I/O buffers (io/iobuf.h): alignment by size, zeroed memory, the smaps
 * reading on written fixtures (the mapping that holds the range, its
 * AnonHugePages, other mappings' figures ignored), and on this machine a
 * buffer of 4 MiB backed by huge pages whenever THP is not "never".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/iobuf.h"
#include "tap.h"

static char fixture[] = "/tmp/clyde-test-iobuf.XXXXXX";

static void remove_fixture(void)
{
	unlink(fixture);
}

/* A smaps file with three mappings; the second, 0x40000000-0x40800000
 * (8 MiB), has `huge_kb` of huge pages. */
static void write_smaps(unsigned huge_kb)
{
	FILE *f = fopen(fixture, "w");

	if (!f)
		return;
	fprintf(f,
		"00400000-00452000 r-xp 00000000 fe:00 123   /usr/bin/clyde\n"
		"Size:                328 kB\n"
		"AnonHugePages:     99999 kB\n"
		"VmFlags: rd ex mr mw me\n"
		"40000000-40800000 rw-p 00000000 00:00 0 \n"
		"Size:               8192 kB\n"
		"Anonymous:          8192 kB\n"
		"AnonHugePages:      %u kB\n"
		"THPeligible:    1\n"
		"VmFlags: rd wr mr mw me ac hg\n"
		"7ffc0000-7ffe0000 rw-p 00000000 00:00 0   [stack]\n"
		"AnonHugePages:      4096 kB\n",
		huge_kb);
	fclose(f);
}

static bool thp_possible(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
	char line[128] = "";

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return line[0] && !strstr(line, "[never]");
}

int main(void)
{
	const void *in = (const void *)(uintptr_t)0x40100000;
	bool huge = true;
	unsigned char *p;
	int fd = mkstemp(fixture);

	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	atexit(remove_fixture);

	/* The mapping that holds the range decides, and only its own
	 * AnonHugePages line. */
	write_smaps(8192);
	CHECK(clyde_iobuf_is_huge(in, 4u << 20, fixture));
	CHECK(clyde_iobuf_is_huge((const void *)(uintptr_t)0x40000000, 8u << 20,
				  fixture));
	write_smaps(2048);
	CHECK(!clyde_iobuf_is_huge(in, 4u << 20, fixture));
	CHECK(clyde_iobuf_is_huge(in, 2u << 20, fixture));
	write_smaps(0);
	CHECK(!clyde_iobuf_is_huge(in, 4u << 20, fixture));
	/* Outside every mapping, across a mapping's end, no file: false. */
	write_smaps(8192);
	CHECK(!clyde_iobuf_is_huge((const void *)(uintptr_t)0x30000000, 4096,
				   fixture));
	CHECK(!clyde_iobuf_is_huge((const void *)(uintptr_t)0x40700000,
				   2u << 20, fixture));
	CHECK(!clyde_iobuf_is_huge(in, 4096, "/nonexistent/smaps"));

	/* Small buffers: page-aligned, zeroed, never huge. */
	p = clyde_iobuf_alloc(8192, &huge);
	CHECK(p && (uintptr_t)p % 4096 == 0);
	CHECK(!huge);
	CHECK(p && p[0] == 0 && p[8191] == 0);
	free(p);
	p = clyde_iobuf_alloc(0, NULL);
	CHECK(p != NULL);
	free(p);

	/* From 1 MiB: aligned to 2 MiB, zeroed, and here huge pages. */
	p = clyde_iobuf_alloc(4u << 20, &huge);
	CHECK(p && (uintptr_t)p % (2u << 20) == 0);
	CHECK(p && p[0] == 0 && p[(4u << 20) - 1] == 0);
	CHECK(huge == clyde_iobuf_is_huge(p, 4u << 20, NULL));
	if (thp_possible())
		CHECK(huge);
	else
		printf("# THP is off here: not checking that 4 MiB is huge\n");
	free(p);
	p = clyde_iobuf_alloc(1u << 20, &huge);
	CHECK(p && (uintptr_t)p % (2u << 20) == 0);
	if (thp_possible())
		CHECK(huge);
	free(p);
	return tap_done();
}

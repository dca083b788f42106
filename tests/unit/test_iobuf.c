/*
 * I/O buffers (io/iobuf.h): alignment by size, zeroed memory, the smaps
 * reading on written fixtures (the mapping that holds the range, its
 * AnonHugePages, other mappings' figures ignored); on this machine a
 * buffer of 4 MiB backed by transparent huge pages whenever THP is not
 * "never", and by the pool's pages when the pool has them (as root the
 * test reserves two and gives them back).
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

static const char *pool_file = "/proc/sys/vm/nr_hugepages";

static long read_pool(void)
{
	FILE *f = fopen(pool_file, "re");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static bool write_pool(long n)
{
	FILE *f = fopen(pool_file, "we");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%ld\n", n) > 0;
	ok = fclose(f) == 0 && ok;
	return ok;
}

/* The pool first when it has pages: two reserved for 4 MiB (as root; the
 * pool is put back as it was), and with none free the transparent pages
 * after. */
static void pool(void)
{
	long old = read_pool();
	struct clyde_iobuf b;

	if (old < 0) {
		tap_skip_part("huge-page pool: no /proc/sys/vm/nr_hugepages");
		return;
	}
	if (geteuid() != 0) {
		tap_skip_part("huge-page pool: only root may resize it");
		return;
	}
	CHECK(write_pool(old + 2) && read_pool() == old + 2);
	if (read_pool() == old + 2) {
		CHECK(clyde_iobuf_alloc(&b, 4u << 20, true) == 0);
		CHECK(b.pages == CLYDE_IOBUF_HUGETLB);
		CHECK(b.p && (uintptr_t)b.p % (2u << 20) == 0);
		CHECK(b.p && b.p[0] == 0 && b.p[(4u << 20) - 1] == 0);
		if (b.p)
			b.p[12345] = 7; /* writable */
		clyde_iobuf_free(&b);
	}
	write_pool(old);
	CHECK(read_pool() == old);
}

int main(void)
{
	const void *in = (const void *)(uintptr_t)0x40100000;
	struct clyde_iobuf b;
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
	CHECK(clyde_iobuf_alloc(&b, 8192, true) == 0);
	CHECK(b.p && (uintptr_t)b.p % 4096 == 0);
	CHECK(b.pages == CLYDE_IOBUF_SMALL);
	CHECK(b.p && b.p[0] == 0 && b.p[8191] == 0);
	clyde_iobuf_free(&b);
	CHECK(b.p == NULL);
	clyde_iobuf_free(&b); /* twice is fine */
	CHECK(clyde_iobuf_alloc(&b, 0, true) == 0 && b.p != NULL);
	clyde_iobuf_free(&b);

	/* From 1 MiB, the pool left out: aligned to 2 MiB, zeroed, and
	 * transparent huge pages here. */
	CHECK(clyde_iobuf_alloc(&b, 4u << 20, false) == 0);
	CHECK(b.p && (uintptr_t)b.p % (2u << 20) == 0);
	CHECK(b.p && b.p[0] == 0 && b.p[(4u << 20) - 1] == 0);
	CHECK((b.pages == CLYDE_IOBUF_THP) ==
	      clyde_iobuf_is_huge(b.p, 4u << 20, NULL));
	CHECK(b.pages ==
	      (thp_possible() ? CLYDE_IOBUF_THP : CLYDE_IOBUF_SMALL));
	clyde_iobuf_free(&b);
	CHECK(clyde_iobuf_alloc(&b, 1u << 20, false) == 0);
	CHECK(b.p && (uintptr_t)b.p % (2u << 20) == 0 && b.size == 2u << 20);
	CHECK(b.pages ==
	      (thp_possible() ? CLYDE_IOBUF_THP : CLYDE_IOBUF_SMALL));
	clyde_iobuf_free(&b);

	CHECK_STR(clyde_iobuf_pages_name(CLYDE_IOBUF_HUGETLB), "hugetlb");
	CHECK_STR(clyde_iobuf_pages_name(CLYDE_IOBUF_THP), "thp");
	CHECK_STR(clyde_iobuf_pages_name(CLYDE_IOBUF_SMALL), "small");
	CHECK(clyde_iobuf_pages_name(CLYDE_IOBUF_NONE) == NULL);
	/* The least kind, "none" counting as nothing seen. */
	CHECK(clyde_iobuf_pages_least(CLYDE_IOBUF_NONE, CLYDE_IOBUF_THP) ==
	      CLYDE_IOBUF_THP);
	CHECK(clyde_iobuf_pages_least(CLYDE_IOBUF_HUGETLB, CLYDE_IOBUF_NONE) ==
	      CLYDE_IOBUF_HUGETLB);
	CHECK(clyde_iobuf_pages_least(CLYDE_IOBUF_HUGETLB, CLYDE_IOBUF_THP) ==
	      CLYDE_IOBUF_THP);
	CHECK(clyde_iobuf_pages_least(CLYDE_IOBUF_SMALL, CLYDE_IOBUF_HUGETLB) ==
	      CLYDE_IOBUF_SMALL);

	pool();
	return tap_done();
}

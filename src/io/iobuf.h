/*
 * Buffers for the block tests and `clyde dev`.
 *
 * A direct read or write of one large block reaches the device as one
 * request only when its buffer is made of few physically contiguous
 * pieces: every queue limits a request's segments (max_segments, e.g. 128
 * on a loop device, 254 on virtio), and a buffer of scattered 4 KiB pages
 * needs 256 of them for 1 MiB.  Such a request is split in two or more,
 * and how often depends on where the kernel happened to put the pages: a
 * 1 MiB O_DIRECT read at depth 16 on a loop device ran at 1.0-2.1 GiB/s
 * from run to run with ordinary pages and at 4.4-5.4 GiB/s with huge
 * pages, the same for fio given huge pages.
 *
 * So a buffer of 1 MiB or more is made of 2 MiB pages, the first of these
 * that works:
 *   - hugetlb: pages from the pool an administrator reserved
 *     (/proc/sys/vm/nr_hugepages), mapped with MAP_HUGETLB: what fio's
 *     --mem=shmhuge and --mem=mmaphuge use;
 *   - thp: transparent huge pages, asked for with madvise(MADV_HUGEPAGE)
 *     (works with THP in "always" or "madvise" mode); whether the kernel
 *     gave them is read back from /proc/self/smaps, never assumed;
 *   - small: ordinary pages.
 * Smaller buffers are ordinary pages aligned to 4096.  On a virtual
 * machine the pool's pages were the faster of the two kinds of huge page
 * (docs/benchmarks-history.md): the host has them mapped already.
 */
#ifndef CLYDE_IO_IOBUF_H
#define CLYDE_IO_IOBUF_H

#include <stdbool.h>
#include <stddef.h>

/* Buffers this large and larger are asked to be huge pages. */
#define CLYDE_IOBUF_HUGE_MIN ((size_t)1 << 20)

/* In order: the lesser of two kinds is the smaller value.  NONE stands
 * for "no buffer" where results record the kind (a test without one). */
enum clyde_iobuf_pages {
	CLYDE_IOBUF_NONE,
	CLYDE_IOBUF_SMALL,
	CLYDE_IOBUF_THP,
	CLYDE_IOBUF_HUGETLB,
};

struct clyde_iobuf {
	unsigned char *p;	      /* len bytes, zeroed; NULL when freed */
	size_t size;		      /* what was allocated or mapped */
	enum clyde_iobuf_pages pages; /* what backs it */
	bool mapped; /* its own mapping (munmap), not malloc's */
};

/*
 * A zeroed buffer of len bytes (at least 1), as above.  0, or -ENOMEM
 * with *b zeroed.  `try_hugetlb` false skips the pool (tests).
 */
int clyde_iobuf_alloc(struct clyde_iobuf *b, size_t len, bool try_hugetlb);

/* Give it back (a zeroed or freed *b is fine). */
void clyde_iobuf_free(struct clyde_iobuf *b);

/* "small", "thp", "hugetlb": the JSON's names; NULL for NONE. */
const char *clyde_iobuf_pages_name(enum clyde_iobuf_pages pages);

/* The lesser of a and b, NONE counting as nothing seen: what a test whose
 * workers had buffers a and b records. */
static inline enum clyde_iobuf_pages
clyde_iobuf_pages_least(enum clyde_iobuf_pages a, enum clyde_iobuf_pages b)
{
	if (a == CLYDE_IOBUF_NONE)
		return b;
	if (b == CLYDE_IOBUF_NONE)
		return a;
	return a < b ? a : b;
}

/*
 * Whether [p, p+len) lies in one mapping whose huge pages cover at least
 * len bytes, as /proc/self/smaps (or the file `smaps` names, for tests)
 * says; false when it cannot be read.
 */
bool clyde_iobuf_is_huge(const void *p, size_t len, const char *smaps);

#endif

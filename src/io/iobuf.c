#include "io/iobuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_ALIGN ((size_t)2 << 20)

bool clyde_iobuf_is_huge(const void *p, size_t len, const char *smaps)
{
	uintptr_t a = (uintptr_t)p;
	FILE *f = fopen(smaps ? smaps : "/proc/self/smaps", "re");
	char line[512];
	bool in = false, huge = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		uintmax_t lo, hi, kb;

		/* A mapping's first line: "lo-hi perms offset dev inode". */
		if (sscanf(line, "%jx-%jx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			if (in)
				break;
			in = a >= lo && a + len <= hi;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ju kB", &kb) == 1) {
			huge = kb * 1024 >= len;
			break;
		}
	}
	fclose(f);
	return huge;
}

const char *clyde_iobuf_pages_name(enum clyde_iobuf_pages pages)
{
	switch (pages) {
	case CLYDE_IOBUF_HUGETLB:
		return "hugetlb";
	case CLYDE_IOBUF_THP:
		return "thp";
	case CLYDE_IOBUF_SMALL:
		return "small";
	case CLYDE_IOBUF_NONE:
		break;
	}
	return NULL;
}

/* 2 MiB pages from the reserved pool, or false. */
static bool from_pool(struct clyde_iobuf *b, size_t size)
{
#ifdef MAP_HUGETLB
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return false;
	/* A private mapping of the pool reserves its pages at mmap time:
	 * an empty pool fails here, never with SIGBUS at the touch. */
	memset(p, 0, size);
	b->p = p;
	b->size = size;
	b->pages = CLYDE_IOBUF_HUGETLB;
	b->mapped = true;
	return true;
#else
	(void)b;
	(void)size;
	return false;
#endif
}

/*
 * size bytes (a multiple of 2 MiB) of anonymous memory at a 2 MiB boundary,
 * in a mapping of their own: not malloc's, whose heap may be set against
 * huge pages (AddressSanitizer's is) or shared with other allocations.
 * Over-map by one huge page and unmap what lies outside.
 */
static void *map_aligned(size_t size)
{
	size_t over = size + HUGE_ALIGN;
	char *p = mmap(NULL, over, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;
	size_t head;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1);
	head = (size_t)(a - (uintptr_t)p);
	if (head)
		munmap(p, head);
	if (over - head > size)
		munmap((char *)a + size, over - head - size);
	return (void *)a;
}

int clyde_iobuf_alloc(struct clyde_iobuf *b, size_t len, bool try_hugetlb)
{
	size_t size = len ? len : 1;
	void *p = NULL;

	memset(b, 0, sizeof(*b));
	if (len < CLYDE_IOBUF_HUGE_MIN) {
		if (posix_memalign(&p, 4096, size) != 0)
			return -ENOMEM;
		memset(p, 0, size);
		b->p = p;
		b->size = size;
		b->pages = CLYDE_IOBUF_SMALL;
		return 0;
	}
	/* Whole huge pages. */
	size = (size + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
	if (try_hugetlb && from_pool(b, size))
		return 0;
	p = map_aligned(size);
	if (!p)
		return -ENOMEM;
#ifdef MADV_HUGEPAGE
	/* Before the first touch, so the faults take huge pages; a kernel
	 * without THP says EINVAL and the buffer stays as it is. */
	(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	memset(p, 0, size);
	b->p = p;
	b->size = size;
	b->mapped = true;
	b->pages = clyde_iobuf_is_huge(p, size, NULL) ? CLYDE_IOBUF_THP :
							CLYDE_IOBUF_SMALL;
	return 0;
}

void clyde_iobuf_free(struct clyde_iobuf *b)
{
	if (!b->p)
		return;
	if (b->mapped)
		munmap(b->p, b->size);
	else
		free(b->p);
	memset(b, 0, sizeof(*b));
}

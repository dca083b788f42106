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
		break;
	}
	return "small";
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
	return true;
#else
	(void)b;
	(void)size;
	return false;
#endif
}

int clyde_iobuf_alloc(struct clyde_iobuf *b, size_t len, bool try_hugetlb)
{
	bool big = len >= CLYDE_IOBUF_HUGE_MIN;
	size_t align = big ? HUGE_ALIGN : 4096;
	size_t size = len ? len : 1;
	void *p = NULL;

	memset(b, 0, sizeof(*b));
	/* Whole huge pages, so that the last one is not shared with the
	 * allocator's other memory and left small. */
	if (big)
		size = (size + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
	if (big && try_hugetlb && from_pool(b, size))
		return 0;
	if (posix_memalign(&p, align, size) != 0)
		return -ENOMEM;
#ifdef MADV_HUGEPAGE
	/* Before the first touch, so the faults take huge pages; a kernel
	 * without THP says EINVAL and the buffer stays as it is. */
	if (big)
		(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	memset(p, 0, size);
	b->p = p;
	b->size = size;
	b->pages = big && clyde_iobuf_is_huge(p, size, NULL) ?
			   CLYDE_IOBUF_THP :
			   CLYDE_IOBUF_SMALL;
	return 0;
}

void clyde_iobuf_free(struct clyde_iobuf *b)
{
	if (!b->p)
		return;
	if (b->pages == CLYDE_IOBUF_HUGETLB)
		munmap(b->p, b->size);
	else
		free(b->p);
	memset(b, 0, sizeof(*b));
}

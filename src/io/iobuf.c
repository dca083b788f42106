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

void *clyde_iobuf_alloc(size_t len, bool *huge)
{
	size_t align = len >= CLYDE_IOBUF_HUGE_MIN ? HUGE_ALIGN : 4096;
	size_t size = len ? len : 1;
	void *p = NULL;
	int rc;

	if (huge)
		*huge = false;
	/* Whole huge pages, so that the last one is not shared with the
	 * allocator's other memory and left small. */
	if (align == HUGE_ALIGN)
		size = (size + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
	rc = posix_memalign(&p, align, size);
	if (rc) {
		errno = rc;
		return NULL;
	}
#ifdef MADV_HUGEPAGE
	/* Before the first touch, so the faults take huge pages; a kernel
	 * without THP says EINVAL and the buffer stays as it is. */
	if (align == HUGE_ALIGN)
		(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	memset(p, 0, size);
	if (huge && align == HUGE_ALIGN)
		*huge = clyde_iobuf_is_huge(p, size, NULL);
	return p;
}

/*
 * Buffers for the block tests and `clyde dev`.
 *
 * A direct read or write of one large block reaches the device as one
 * request only when its buffer is made of few physically contiguous
 * pieces: every queue limits a request's segments (max_segments, e.g. 128
 * on a loop device, 254 on virtio), and a buffer of scattered 4 KiB pages
 * needs 256 of them for 1 MiB.  Such a request is split in two or more,
 * and how often depends on where the kernel happened to put the pages: a
 * 1 MiB O_DIRECT read at depth 16 on a loop device ran at 1.4-2.4 GiB/s
 * from run to run with ordinary pages and at 4.5-5.4 GiB/s with huge
 * pages, the same for fio given huge pages (--mem=mmaphuge).  So buffers
 * of 1 MiB and more are aligned to 2 MiB and asked to be transparent huge
 * pages (madvise MADV_HUGEPAGE, which also works with THP in "madvise"
 * mode); whether the kernel gave them is read back from /proc/self/smaps
 * and recorded, never assumed.
 */
#ifndef CLYDE_IO_IOBUF_H
#define CLYDE_IO_IOBUF_H

#include <stdbool.h>
#include <stddef.h>

/* Buffers this large and larger are asked to be huge pages. */
#define CLYDE_IOBUF_HUGE_MIN ((size_t)1 << 20)

/*
 * A zeroed buffer of len bytes (at least 1), aligned to 4096 or, from
 * CLYDE_IOBUF_HUGE_MIN, to 2 MiB with huge pages asked for.  *huge (may be
 * NULL) tells whether every byte of it is backed by huge pages.  NULL with
 * errno set when there is no memory.  Freed with free().
 */
void *clyde_iobuf_alloc(size_t len, bool *huge);

/*
 * Whether [p, p+len) lies in one mapping whose huge pages cover at least
 * len bytes, as /proc/self/smaps (or the file `smaps` names, for tests)
 * says; false when it cannot be read.
 */
bool clyde_iobuf_is_huge(const void *p, size_t len, const char *smaps);

#endif

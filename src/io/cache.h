/*
 * Page-cache control, so that clyde measures the storage and not the page
 * cache: write back and evict a file's cached pages, measure how much of a
 * file is cached (mincore), drop every cache of the machine, and check
 * afterwards that O_DIRECT really bypassed the cache.
 *
 * Every function returns 0 or a negative errno and, on a real failure,
 * records one message naming the path and the operation with clyde_err().
 *
 * Memory filesystems (tmpfs, ramfs, hugetlbfs): there the cached pages ARE
 * the storage.  Eviction is impossible (fadvise succeeds and drops nothing)
 * and residency stays at 100%.  Callers check clyde_cache_is_memory_fs()
 * and report such a target as "no backing store" instead of warning that
 * a result came from the cache.
 */
#ifndef CLYDE_IO_CACHE_H
#define CLYDE_IO_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"

/* Above this residency a result is reported as served from the cache (a
 * file server's too). */
#define CLYDE_CACHE_WARN_FRACTION 0.5

/*
 * Write back and then evict the cached pages of open file `fd`; `path`
 * only names it in messages.
 *
 * posix_fadvise(POSIX_FADV_DONTNEED) drops clean pages only: a dirty page
 * or one under writeback is left in the cache.  So the file is fsync()ed
 * first (fsync rather than fdatasync, so that the inode is written too and
 * nothing of the file is left for the flusher to do during the next test).
 * Pages that some process has mapped are not dropped either.  The fd may
 * be opened for reading, writing or both.
 */
int clyde_cache_evict_fd(struct clyde_ctx *ctx, int fd, const char *path);

/*
 * Measure how much of file `fd` is in the page cache, without reading it:
 * the file is mapped (PROT_READ, MAP_SHARED, never touched) one window of
 * at most CLYDE_CACHE_WINDOW bytes at a time and mincore() reports which
 * pages are cached, so the vector needs 256 KiB per window whatever the
 * size of the file, and no page is faulted in.
 *
 * *total_bytes is the file's size (a block device's size for a block
 * device); *resident_bytes the bytes of it that are cached (a cached last
 * page counts only up to the end of the file), so resident <= total.  An
 * empty file gives 0/0.  Only regular files and block devices: anything
 * else is -EINVAL.
 *
 * The fd may be write-only: mmap needs read access, so when mapping `fd`
 * fails with EACCES the file is reopened read-only through
 * /proc/self/fd/<fd> (which needs read permission on the file and /proc).
 *
 * Since Linux 5.0, mincore reports the page cache of a file only to a
 * process that owns it, could open it for writing, or has CAP_FOWNER;
 * for other files it sees only pages this process has mapped, i.e. none.
 * clyde measures files it created itself, so this holds.
 */
int clyde_cache_residency_fd(struct clyde_ctx *ctx, int fd,
			     uint64_t *resident_bytes, uint64_t *total_bytes);

/*
 * The same for the bytes [off, off + len) of fd (cut at the file's end),
 * e.g. the range of a backing file a loop device uses; `path` names it in
 * messages.  The page holding `off` counts whole.
 */
int clyde_cache_residency_range(struct clyde_ctx *ctx, int fd, const char *path,
				uint64_t off, uint64_t len,
				uint64_t *resident_bytes);

/* The mapping window of clyde_cache_residency_fd(). */
#define CLYDE_CACHE_WINDOW (1ull << 30)

/*
 * Drop the page cache, dentries and inodes of the whole machine: sync(),
 * then "3" into /proc/sys/vm/drop_caches.  Only clean objects are dropped,
 * hence the sync.  This disturbs every other process on the machine.
 *
 * Returns -EPERM (message: root is needed) when the file cannot be opened
 * for writing for lack of privilege, -ENOENT when /proc/sys/vm/drop_caches
 * does not exist, -EROFS when /proc/sys is mounted read-only (containers).
 * Permission is checked before the sync, so a refusal is cheap.
 */
int clyde_cache_drop_all(struct clyde_ctx *ctx);

/* What clyde_cache_evict_dir() saw. */
struct clyde_cache_dir_stats {
	uint64_t files;		  /* regular files */
	uint64_t total_bytes;	  /* their sizes */
	uint64_t resident_before; /* of those bytes, cached before eviction */
	uint64_t resident_after;  /* ... and still cached right after it */
};

/*
 * For the file tests: walk the tree below directory `dirfd` (`path` names
 * it in messages) and, for every regular file that has data, measure its
 * residency, evict it (posix_fadvise DONTNEED) and measure it again, in
 * the same visit.  Before the first such file, one syncfs() writes back
 * the whole filesystem, so that every page is clean and can be dropped
 * (no fsync per file).  Empty files are only counted (one fstatat each):
 * they have no pages, so they are never opened, and a tree of empty files
 * costs no sync at all.  `stats` (may be NULL) is set, also on failure,
 * to what was seen so far.
 *
 * resident_after is what a test that starts now finds in the cache: the
 * walk itself reads no data, so nothing it passed is cached again by it.
 * syncfs flushes the whole filesystem (not only this tree); like fsync it
 * leaves nothing of the files for the flusher to do during the next test.
 *
 * Symlinks are never followed (every open is O_NOFOLLOW; an entry that
 * turns out not to be a regular file or directory once open is skipped),
 * and entries that vanish during the walk (ENOENT) are skipped.  Memory is
 * one DIR stream and one path buffer per level: the walk holds one open
 * directory per level of depth and recurses as deep as the tree is.  The
 * directories themselves and the dentry/inode caches are not evicted; only
 * clyde_cache_drop_all() can do that.  Stops with -EINTR when
 * clyde_stopping() says so.
 */
int clyde_cache_evict_dir(struct clyde_ctx *ctx, int dirfd, const char *path,
			  struct clyde_cache_dir_stats *stats);

/*
 * Was O_DIRECT honoured?  Measure the file's residency before a test that
 * used O_DIRECT and after it: O_DIRECT I/O does not go through the page
 * cache (a direct write even invalidates the pages it overwrites), so a
 * filesystem that silently falls back to buffered I/O shows up as growth.
 *
 * Honoured when the growth (after - before, 0 when it shrank) is at most
 * CLYDE_DIRECT_SLACK_BYTES or at most 1% of `bytes_transferred`, whichever
 * is larger.  The slack absorbs what other activity on the file may cache
 * (a buffered read of a header, a filesystem caching a tail) without
 * letting a fallback through: a buffered fallback caches every byte
 * transferred, up to 100%.
 */
bool clyde_cache_direct_honoured(uint64_t resident_before,
				 uint64_t resident_after,
				 uint64_t bytes_transferred);

#define CLYDE_DIRECT_SLACK_BYTES (1ull << 20)

/*
 * True when `fd` lives on a filesystem whose page cache is its storage
 * (tmpfs, ramfs, hugetlbfs), where eviction cannot work.  False also when
 * fstatfs fails.
 */
bool clyde_cache_is_memory_fs(int fd);

#endif

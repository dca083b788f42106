#include "io/loopcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env/members_sys.h"
#include "io/cache.h"

int clyde_loop_backing_read(const char *root, const char *dev,
			    struct clyde_loop_backing *b)
{
	uint64_t dio = 0;
	size_t n;

	memset(b, 0, sizeof(*b));
	if (strncmp(dev, "loop", 4) ||
	    clyde_sys_text(root, b->file, sizeof(b->file),
			   "/sys/block/%s/loop/backing_file", dev) ||
	    !b->file[0])
		return -ENOENT;
	/* A backing file unlinked since losetup. */
	n = strlen(b->file);
	if (n > 10 && !strcmp(b->file + n - 10, " (deleted)"))
		b->file[n - 10] = '\0';
	snprintf(b->dev, sizeof(b->dev), "%s", dev);
	clyde_sys_u64(root, &dio, "/sys/block/%s/loop/dio", dev);
	b->dio = dio != 0;
	clyde_sys_u64(root, &b->offset, "/sys/block/%s/loop/offset", dev);
	clyde_sys_u64(root, &b->sizelimit, "/sys/block/%s/loop/sizelimit", dev);
	return 0;
}

void clyde_loopcache_find(struct clyde_loopcache *lc,
			  const struct clyde_member_watch *w)
{
	memset(lc, 0, sizeof(*lc));
	for (unsigned i = 0; i < w->n; i++) {
		struct clyde_loop_backing *b = &lc->b[lc->n];

		if (clyde_loop_backing_read(w->root, w->name[i], b) == 0 &&
		    !b->dio)
			lc->n++;
	}
}

/* The bytes of the backing file the loop device uses. */
static uint64_t range_len(const struct clyde_loop_backing *b, int fd)
{
	struct stat st;
	uint64_t size;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	size = (uint64_t)st.st_size;
	if (b->offset >= size)
		return 0;
	size -= b->offset;
	return b->sizelimit && b->sizelimit < size ? b->sizelimit : size;
}

/* One backing file; 0 when measured. */
static int one(const struct clyde_loop_backing *b, bool evict,
	       struct clyde_loopcache_seen *seen)
{
	struct clyde_ctx quiet;
	uint64_t len, before = 0, after = 0;
	int fd, ret = -EINVAL;

	fd = open(b->file, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	clyde_ctx_init(&quiet);
	len = range_len(b, fd);
	if (!len)
		goto out;
	ret = clyde_cache_residency_range(&quiet, fd, b->file, b->offset, len,
					  &before);
	after = before;
	/* DONTNEED drops clean pages only: the loop device wrote through
	 * the backing file's cache, so write it back first. */
	if (!ret && evict && fdatasync(fd) == 0 &&
	    posix_fadvise(fd, (off_t)b->offset, (off_t)len,
			  POSIX_FADV_DONTNEED) == 0) {
		ret = clyde_cache_residency_range(&quiet, fd, b->file,
						  b->offset, len, &after);
		if (!ret)
			seen->evicted = true;
	}
	if (!ret) {
		seen->measured = true;
		seen->resident_before += before;
		seen->resident_bytes += after;
		seen->range_bytes += len;
		if (!seen->dev[0])
			snprintf(seen->dev, sizeof(seen->dev), "%s", b->dev);
	}
out:
	clyde_ctx_release(&quiet);
	close(fd);
	return ret;
}

void clyde_loopcache_prepare(const struct clyde_loopcache *lc, bool evict,
			     struct clyde_loopcache_seen *seen)
{
	memset(seen, 0, sizeof(*seen));
	for (unsigned i = 0; i < lc->n; i++)
		one(&lc->b[i], evict, seen);
}

#include "io/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define DROP_CACHES "/proc/sys/vm/drop_caches"

/*
 * A name for fd in messages when the caller gave none: what
 * /proc/self/fd/<fd> points to, or "fd <n>" when /proc cannot tell.
 */
static const char *fd_name(int fd, char *buf, size_t size)
{
	char link[32];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n <= 0) {
		snprintf(buf, size, "fd %d", fd);
		return buf;
	}
	buf[n] = '\0';
	return buf;
}

/* `name` when the caller gave one, else what fd_name() finds: only
 * called on the way to an error message, so /proc is read only then. */
static const char *name_of(int fd, const char *name, char *buf, size_t size)
{
	return name ? name : fd_name(fd, buf, size);
}

int clyde_cache_evict_fd(struct clyde_ctx *ctx, int fd, const char *path)
{
	char buf[PATH_MAX];
	int e;

	/* DONTNEED skips dirty pages and pages under writeback; fsync
	 * waits for both to finish, so after it every page is clean. */
	if (fsync(fd) < 0) {
		e = errno;
		return clyde_err(ctx, e, "fsync %s before evicting it",
				 name_of(fd, path, buf, sizeof(buf)));
	}
	e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (e)
		return clyde_err(ctx, e, "posix_fadvise(DONTNEED) %s",
				 name_of(fd, path, buf, sizeof(buf)));
	return 0;
}

/* The size mincore has to cover: a regular file's or a block device's.
 * `name` may be NULL (then found for a message only). */
static int map_size(struct clyde_ctx *ctx, int fd, const char *name,
		    uint64_t *size)
{
	char buf[PATH_MAX];
	struct stat st;
	int e;

	if (fstat(fd, &st) < 0) {
		e = errno;
		return clyde_err(ctx, e, "fstat %s for its residency",
				 name_of(fd, name, buf, sizeof(buf)));
	}
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, size) < 0) {
			e = errno;
			return clyde_err(ctx, e, "BLKGETSIZE64 %s",
					 name_of(fd, name, buf, sizeof(buf)));
		}
		return 0;
	}
	return clyde_err(ctx, EINVAL,
			 "residency of %s: not a regular file or block device",
			 name_of(fd, name, buf, sizeof(buf)));
}

/*
 * Map one window of the file and count its cached bytes.  Sets *eacces
 * (and records nothing) when the mapping failed for want of read access,
 * so that the caller can retry with a readable fd.
 */
static int count_window(struct clyde_ctx *ctx, int fd, const char *name,
			uint64_t off, uint64_t len, uint64_t size, long page,
			unsigned char *vec, uint64_t *resident, int *eacces)
{
	size_t npages = (size_t)((len + (uint64_t)page - 1) / (uint64_t)page);
	char buf[PATH_MAX];
	void *p;
	int e;

	p = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED) {
		e = errno;
		if (e == EACCES && eacces) {
			*eacces = 1;
			return -EACCES;
		}
		return clyde_err(ctx, e, "mmap %s at offset %llu",
				 name_of(fd, name, buf, sizeof(buf)),
				 (unsigned long long)off);
	}
	if (mincore(p, (size_t)len, vec) < 0) {
		e = errno;
		munmap(p, (size_t)len);
		return clyde_err(ctx, e, "mincore %s at offset %llu",
				 name_of(fd, name, buf, sizeof(buf)),
				 (unsigned long long)off);
	}
	munmap(p, (size_t)len);
	for (size_t i = 0; i < npages; i++) {
		uint64_t at = off + (uint64_t)i * (uint64_t)page;

		if (!(vec[i] & 1))
			continue;
		/* The last page holds only the file's tail. */
		*resident += size - at < (uint64_t)page ? size - at :
							  (uint64_t)page;
	}
	return 0;
}

/*
 * The residency of the first `size` bytes of fd (size > 0).  `name` may
 * be NULL: it is then looked up only for an error message.
 */
static int residency_from(struct clyde_ctx *ctx, int fd, const char *name,
			  uint64_t start, uint64_t size,
			  uint64_t *resident_bytes)
{
	char buf[PATH_MAX];
	uint64_t resident = 0, win;
	unsigned char *vec;
	long page = sysconf(_SC_PAGESIZE);
	int mfd = fd, ret = 0, eacces = 0;

	if (page <= 0)
		page = 4096;
	/* mmap wants a page-aligned offset: start at the page holding
	 * `start` (a whole page is then counted for it). */
	start -= start % (uint64_t)page;
	win = size - start < CLYDE_CACHE_WINDOW ? size - start :
						  CLYDE_CACHE_WINDOW;
	vec = malloc((size_t)((win + (uint64_t)page - 1) / (uint64_t)page));
	if (!vec)
		return clyde_err(ctx, ENOMEM, "residency of %s",
				 name_of(fd, name, buf, sizeof(buf)));
	for (uint64_t off = start; off < size; off += win) {
		uint64_t len = size - off < win ? size - off : win;

		ret = count_window(ctx, mfd, name, off, len, size, page, vec,
				   &resident, mfd == fd ? &eacces : NULL);
		if (ret && eacces && mfd == fd) {
			/* A write-only fd cannot be mapped; the same file
			 * opened again read-only can (same page cache). */
			char link[32];

			snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
			mfd = open(link, O_RDONLY | O_CLOEXEC | O_NOCTTY);
			if (mfd < 0) {
				int e = errno;

				ret = clyde_err(
					ctx, e,
					"reopen write-only %s read-only "
					"via %s for its residency",
					name_of(fd, name, buf, sizeof(buf)),
					link);
				mfd = fd;
				break;
			}
			ret = count_window(ctx, mfd, name, off, len, size, page,
					   vec, &resident, NULL);
		}
		if (ret)
			break;
	}
	free(vec);
	if (mfd != fd)
		close(mfd);
	if (!ret)
		*resident_bytes = resident;
	return ret;
}

static int residency(struct clyde_ctx *ctx, int fd, const char *name,
		     uint64_t size, uint64_t *resident_bytes)
{
	return residency_from(ctx, fd, name, 0, size, resident_bytes);
}

int clyde_cache_residency_range(struct clyde_ctx *ctx, int fd, const char *path,
				uint64_t off, uint64_t len,
				uint64_t *resident_bytes)
{
	uint64_t size;
	int ret;

	*resident_bytes = 0;
	ret = map_size(ctx, fd, path, &size);
	if (ret)
		return ret;
	if (off >= size || !len)
		return 0;
	if (len > size - off)
		len = size - off;
	return residency_from(ctx, fd, path, off, off + len, resident_bytes);
}

int clyde_cache_residency_fd(struct clyde_ctx *ctx, int fd,
			     uint64_t *resident_bytes, uint64_t *total_bytes)
{
	uint64_t size, resident = 0;
	int ret;

	*resident_bytes = 0;
	*total_bytes = 0;
	ret = map_size(ctx, fd, NULL, &size);
	if (ret)
		return ret;
	if (size == 0)
		return 0; /* nothing to map: mmap of length 0 is EINVAL */
	ret = residency(ctx, fd, NULL, size, &resident);
	if (ret)
		return ret;
	*resident_bytes = resident;
	*total_bytes = size;
	return 0;
}

int clyde_cache_drop_all(struct clyde_ctx *ctx)
{
	static const char three[] = "3\n";
	ssize_t n;
	int fd, e;

	/* Opened before the sync so that a refusal costs nothing. */
	fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == EACCES || e == EPERM)
			return clyde_err(ctx, EPERM,
					 "open %s for writing: root is needed "
					 "to drop the caches",
					 DROP_CACHES);
		if (e == ENOENT)
			return clyde_err(ctx, ENOENT,
					 "open %s: no such file (no /proc, "
					 "or a container without it)",
					 DROP_CACHES);
		if (e == EROFS)
			return clyde_err(ctx, EROFS,
					 "open %s for writing: /proc/sys is "
					 "mounted read-only (a container?)",
					 DROP_CACHES);
		return clyde_err(ctx, e, "open %s for writing", DROP_CACHES);
	}
	/* drop_caches drops only clean objects: write everything first. */
	sync();
	n = write(fd, three, sizeof(three) - 1);
	e = n < 0 ? errno : EIO;
	close(fd);
	if (n == (ssize_t)(sizeof(three) - 1))
		return 0;
	if (e == EACCES || e == EPERM)
		return clyde_err(ctx, EPERM,
				 "write 3 to %s: root is needed to drop the "
				 "caches",
				 DROP_CACHES);
	return clyde_err(ctx, e, "write 3 to %s", DROP_CACHES);
}

/* The state of one clyde_cache_evict_dir() walk. */
struct walk {
	struct clyde_ctx *ctx;
	char *path; /* of the entry being visited, for messages */
	size_t len; /* strlen(path) */
	size_t cap;
	struct clyde_cache_dir_stats st;
	const char *top; /* the walk's top directory, for messages */
	int syncfd;	 /* ... and a descriptor of it, for the one syncfs */
	bool synced;	 /* ... which has been done */
};

/* Append "/name" to the walk's path; path_pop() takes the old length. */
static int path_push(struct walk *w, const char *name)
{
	size_t n = strlen(name);

	if (w->len + n + 2 > w->cap) {
		size_t cap = (w->len + n + 2) * 2;
		char *p = realloc(w->path, cap);

		if (!p)
			return clyde_err(w->ctx, ENOMEM, "walking %s/%s",
					 w->path, name);
		w->path = p;
		w->cap = cap;
	}
	w->path[w->len++] = '/';
	memcpy(w->path + w->len, name, n + 1);
	w->len += n;
	return 0;
}

static void path_pop(struct walk *w, size_t saved)
{
	w->len = saved;
	w->path[saved] = '\0';
}

/*
 * One regular file with data: measure, evict (the walk's syncfs made its
 * pages clean), measure again.  No fsync, no name lookup in /proc.
 */
static int walk_file(struct walk *w, int dfd, const char *name)
{
	uint64_t before = 0, after = 0, size;
	struct stat st;
	int fd, ret = 0, e;

	/* O_NONBLOCK: should a FIFO have replaced the file since the
	 * fstatat, the open must not hang; it is skipped below. */
	fd = openat(dfd, name,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ELOOP)
			return 0; /* gone, or now a symlink: not ours */
		return clyde_err(w->ctx, errno, "open %s to evict it", w->path);
	}
	if (fstat(fd, &st) < 0) {
		ret = clyde_err(w->ctx, errno, "fstat %s", w->path);
		goto out;
	}
	if (!S_ISREG(st.st_mode))
		goto out;
	size = (uint64_t)st.st_size;
	w->st.files++;
	w->st.total_bytes += size;
	if (!size)
		goto out;
	/* DONTNEED skips dirty pages and pages under writeback.  One syncfs
	 * before the first file with data writes back and waits for every
	 * file of the filesystem, where an fsync per file cost a journal
	 * round trip each.  A tree of empty files needs none. */
	if (!w->synced) {
		if (syncfs(w->syncfd) < 0) {
			ret = clyde_err(w->ctx, errno,
					"syncfs %s before evicting %s", w->top,
					w->path);
			goto out;
		}
		w->synced = true;
	}
	ret = residency(w->ctx, fd, w->path, size, &before);
	if (ret)
		goto out;
	e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (e) {
		ret = clyde_err(w->ctx, e, "posix_fadvise(DONTNEED) %s",
				w->path);
		goto out;
	}
	ret = residency(w->ctx, fd, w->path, size, &after);
	w->st.resident_before += before;
	w->st.resident_after += after;
out:
	close(fd);
	return ret;
}

/* Walk directory dfd, which this call owns and closes. */
static int walk_dir(struct walk *w, int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		ret = clyde_err(w->ctx, errno, "fdopendir %s", w->path);
		close(dfd);
		return ret;
	}
	for (;;) {
		size_t saved = w->len;
		unsigned char type;
		struct stat st;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				ret = clyde_err(w->ctx, errno, "readdir %s",
						w->path);
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (clyde_stopping(w->ctx)) {
			ret = -EINTR;
			break;
		}
		type = de->d_type;
		if (type == DT_UNKNOWN || type == DT_REG) {
			/* The size decides whether the file is opened at
			 * all: an empty one has no pages to evict.  Some
			 * filesystems do not fill d_type either. */
			if (fstatat(dirfd(d), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) < 0) {
				if (errno == ENOENT)
					continue;
				ret = clyde_err(w->ctx, errno, "fstatat %s/%s",
						w->path, de->d_name);
				break;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG :
						     DT_UNKNOWN;
			if (type == DT_REG && st.st_size == 0) {
				w->st.files++;
				continue;
			}
		}
		if (type != DT_DIR && type != DT_REG)
			continue; /* symlinks, devices, FIFOs, sockets */
		ret = path_push(w, de->d_name);
		if (ret)
			break;
		if (type == DT_REG) {
			ret = walk_file(w, dirfd(d), de->d_name);
		} else {
			int cfd = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

			if (cfd >= 0)
				ret = walk_dir(w, cfd);
			else if (errno != ENOENT && errno != ELOOP &&
				 errno != ENOTDIR)
				ret = clyde_err(w->ctx, errno, "open %s",
						w->path);
		}
		path_pop(w, saved);
		if (ret)
			break;
	}
	closedir(d);
	return ret;
}

int clyde_cache_evict_dir(struct clyde_ctx *ctx, int dirfd, const char *path,
			  struct clyde_cache_dir_stats *stats)
{
	struct walk w = { .ctx = ctx };
	int fd, ret;

	if (!path)
		path = ".";
	w.len = strlen(path);
	w.cap = w.len + 256;
	w.path = malloc(w.cap);
	if (!w.path) {
		ret = clyde_err(ctx, ENOMEM, "walking %s", path);
		goto out;
	}
	memcpy(w.path, path, w.len + 1);
	/* A descriptor of our own: fdopendir() takes it over, and a dup()
	 * would share (and move) the caller's directory offset. */
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = clyde_err(ctx, errno, "open directory %s", path);
		goto out;
	}
	w.syncfd = fd;
	w.top = path;
	ret = walk_dir(&w, fd);
out:
	free(w.path);
	if (stats)
		*stats = w.st;
	return ret;
}

bool clyde_cache_direct_honoured(uint64_t resident_before,
				 uint64_t resident_after,
				 uint64_t bytes_transferred)
{
	uint64_t growth = resident_after > resident_before ?
				  resident_after - resident_before :
				  0;
	uint64_t allowed = bytes_transferred / 100;

	if (allowed < CLYDE_DIRECT_SLACK_BYTES)
		allowed = CLYDE_DIRECT_SLACK_BYTES;
	return growth <= allowed;
}

bool clyde_cache_is_memory_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return false;
	switch ((unsigned long)sf.f_type) {
	case TMPFS_MAGIC:
	case RAMFS_MAGIC:
	case HUGETLBFS_MAGIC:
		return true;
	default:
		return false;
	}
}

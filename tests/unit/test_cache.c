/*
 * Page-cache control on a real disk filesystem: a loop-mounted ext4 image
 * when root (mount permitting), else a temporary directory on whatever
 * non-memory filesystem $TMPDIR, /tmp, /var/tmp or "." is on.  tmpfs would
 * prove nothing: its pages are always resident.
 *
 * Other processes dropping the caches while this runs (drop_caches) can
 * make the "resident after write" checks fail; nothing else should.
 */
#include "io/cache.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1024ull * 1024)
#define BIG_SIZE (64 * MIB)
#define DIRECT_SIZE (16 * MIB)

struct testfs {
	char dir[PATH_MAX]; /* where the test files go */
	char img[PATH_MAX]; /* ext4 image, when mounted */
	bool mounted;
	int dirfd;
};

/* Run argv quietly; its exit status, or -1. */
static int run(char *const argv[])
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static bool path_is_memory_fs(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	bool mem;

	if (fd < 0)
		return true; /* unusable: look elsewhere */
	mem = clyde_cache_is_memory_fs(fd);
	close(fd);
	return mem;
}

/* A writable directory on a filesystem with a backing store. */
static const char *disk_parent(void)
{
	const char *cands[] = { getenv("TMPDIR"), "/tmp", "/var/tmp", "." };

	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++)
		if (cands[i] && access(cands[i], W_OK) == 0 &&
		    !path_is_memory_fs(cands[i]))
			return cands[i];
	return NULL;
}

static bool try_loop_ext4(struct testfs *t, const char *parent)
{
	/* 4 KiB blocks: with mkfs's 1 KiB default for small images, ext4
	 * does not keep a file's partial last page cached after a write. */
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-b", "4096", t->img, NULL };
	char *mnt[] = { "mount", "-o", "loop", t->img, t->dir, NULL };
	int fd;

	snprintf(t->img, sizeof(t->img), "%s/clyde-cache-XXXXXX.img", parent);
	fd = mkstemps(t->img, 4);
	if (fd < 0)
		return false;
	if (ftruncate(fd, (off_t)(256 * MIB)) < 0) {
		close(fd);
		goto fail_img;
	}
	close(fd);
	snprintf(t->dir, sizeof(t->dir), "%s/clyde-cache-mnt-XXXXXX", parent);
	if (!mkdtemp(t->dir))
		goto fail_img;
	if (run(mkfs) != 0 || run(mnt) != 0) {
		rmdir(t->dir);
		goto fail_img;
	}
	t->mounted = true;
	return true;
fail_img:
	unlink(t->img);
	t->img[0] = '\0';
	return false;
}

static int testfs_setup(struct testfs *t)
{
	const char *parent = disk_parent();

	memset(t, 0, sizeof(*t));
	t->dirfd = -1;
	if (!parent) /* page-cache behaviour is this test's subject */
		tap_skip_all("no disk filesystem for temporary files");
	if (geteuid() == 0 && try_loop_ext4(t, parent)) {
		printf("# on a loop-mounted ext4 image at %s\n", t->dir);
	} else {
		snprintf(t->dir, sizeof(t->dir), "%s/clyde-cache-XXXXXX",
			 parent);
		if (!mkdtemp(t->dir)) {
			t->dir[0] = '\0';
			return -1;
		}
		printf("# in %s\n", t->dir);
	}
	t->dirfd = open(t->dir, O_RDONLY | O_DIRECTORY);
	return t->dirfd < 0 ? -1 : 0;
}

static void testfs_cleanup(struct testfs *t)
{
	char *rm[] = { "rm", "-rf", "--one-file-system", t->dir, NULL };
	char *um[] = { "umount", t->dir, NULL };

	if (t->dirfd >= 0)
		close(t->dirfd);
	if (!t->dir[0])
		return;
	if (t->mounted) {
		if (run(um) == 0)
			rmdir(t->dir);
		else
			printf("# could not unmount %s\n", t->dir);
		unlink(t->img);
	} else {
		run(rm);
	}
}

/* Write size bytes of a pattern, fsync, close.  0 or -1. */
static int write_file(int dirfd, const char *name, uint64_t size)
{
	static char buf[1 << 20];
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 1);
	while (size) {
		size_t n = size < sizeof(buf) ? (size_t)size : sizeof(buf);

		if (write(fd, buf, n) != (ssize_t)n) {
			close(fd);
			return -1;
		}
		size -= n;
	}
	if (fsync(fd) < 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Read the whole file, buffered or with O_DIRECT; bytes read or -1. */
static int64_t read_file(int dirfd, const char *name, bool direct)
{
	int fd = openat(dirfd, name, O_RDONLY | (direct ? O_DIRECT : 0));
	int64_t total = 0;
	void *buf;
	ssize_t n;
	int e;

	if (fd < 0)
		return -1;
	if (posix_memalign(&buf, 4096, MIB)) {
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, MIB)) > 0)
		total += n;
	e = errno;
	free(buf);
	close(fd);
	errno = e; /* why the read failed, for the caller */
	return n < 0 ? -1 : total;
}

/* Residency of dirfd/name as a fraction, total into *total; -1 on error. */
static double frac(struct clyde_ctx *ctx, int dirfd, const char *name,
		   uint64_t *resident, uint64_t *total)
{
	uint64_t r, tot;
	int fd = openat(dirfd, name, O_RDONLY);
	int ret;

	if (fd < 0)
		return -1;
	ret = clyde_cache_residency_fd(ctx, fd, &r, &tot);
	close(fd);
	if (ret)
		return -1;
	if (resident)
		*resident = r;
	if (total)
		*total = tot;
	return tot ? (double)r / (double)tot : 0;
}

static int evict_name(struct clyde_ctx *ctx, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY);
	int ret;

	if (fd < 0)
		return -errno;
	ret = clyde_cache_evict_fd(ctx, fd, name);
	close(fd);
	return ret;
}

static void test_direct_honoured_threshold(void)
{
	CHECK(clyde_cache_direct_honoured(0, 0, 0));
	CHECK(clyde_cache_direct_honoured(0, MIB, 0));
	CHECK(!clyde_cache_direct_honoured(0, MIB + 1, 0));
	CHECK(clyde_cache_direct_honoured(5 * MIB, 6 * MIB, 4 * MIB));
	CHECK(!clyde_cache_direct_honoured(5 * MIB, 6 * MIB + 1, 4 * MIB));
	/* 1% of 200 MiB is 2 MiB: above the 1 MiB slack. */
	CHECK(clyde_cache_direct_honoured(0, 2 * MIB, 200 * MIB));
	CHECK(!clyde_cache_direct_honoured(0, 2 * MIB + 1, 200 * MIB));
	/* Shrinking is fine (a direct write invalidates). */
	CHECK(clyde_cache_direct_honoured(64 * MIB, 0, 64 * MIB));
	/* A buffered fallback caches everything it moved. */
	CHECK(!clyde_cache_direct_honoured(0, 64 * MIB, 64 * MIB));
}

static void test_big_file(struct clyde_ctx *ctx, int dfd)
{
	uint64_t r, tot, r_before, r_after;
	int fd, wfd;
	double f;

	CHECK(write_file(dfd, "big", BIG_SIZE) == 0);
	f = frac(ctx, dfd, "big", &r, &tot);
	printf("# after write+fsync: %.1f%% resident\n", f * 100);
	CHECK(tot == BIG_SIZE);
	CHECK(f > 0.5);

	/* A write-only fd is measured through a read-only reopen. */
	wfd = openat(dfd, "big", O_WRONLY);
	CHECK(wfd >= 0);
	CHECK(clyde_cache_residency_fd(ctx, wfd, &r, &tot) == 0);
	CHECK(tot == BIG_SIZE);
	CHECK(r > BIG_SIZE / 2);

	fd = openat(dfd, "big", O_RDONLY);
	CHECK(clyde_cache_evict_fd(ctx, fd, "big") == 0);
	close(fd);
	f = frac(ctx, dfd, "big", &r, &tot);
	printf("# after evict: %.1f%% resident\n", f * 100);
	CHECK(f >= 0 && f < 0.1);
	CHECK(clyde_cache_residency_fd(ctx, wfd, &r, &tot) == 0);
	CHECK(r < BIG_SIZE / 10);

	CHECK(read_file(dfd, "big", false) == (int64_t)BIG_SIZE);
	f = frac(ctx, dfd, "big", &r_after, NULL);
	printf("# after buffered read: %.1f%% resident\n", f * 100);
	CHECK(f > 0.5);
	/* The helper catches a read that went through the cache. */
	CHECK(!clyde_cache_direct_honoured(r, r_after, BIG_SIZE));

	/* Evicting through the write-only fd works as well. */
	CHECK(clyde_cache_evict_fd(ctx, wfd, "big") == 0);
	close(wfd);
	f = frac(ctx, dfd, "big", &r_before, NULL);
	CHECK(f >= 0 && f < 0.1);
	if (read_file(dfd, "big", true) < 0 && errno == EINVAL) {
		/* A disk filesystem (the loop ext4 as root) has O_DIRECT:
		 * the check must not pass untested. */
		CHECK(!"O_DIRECT read on the test filesystem");
		return;
	}
	f = frac(ctx, dfd, "big", &r_after, NULL);
	printf("# after O_DIRECT read: %.1f%% resident\n", f * 100);
	CHECK(f >= 0 && f < 0.1);
	CHECK(clyde_cache_direct_honoured(r_before, r_after, BIG_SIZE));
}

static void test_direct_write(struct clyde_ctx *ctx, int dfd)
{
	uint64_t r, tot;
	void *buf;
	int fd = openat(dfd, "direct", O_WRONLY | O_CREAT | O_DIRECT, 0600);

	CHECK(fd >= 0);
	if (fd < 0 || posix_memalign(&buf, 4096, MIB))
		return;
	memset(buf, 0x5a, MIB);
	for (uint64_t i = 0; i < DIRECT_SIZE / MIB; i++)
		CHECK(write(fd, buf, MIB) == (ssize_t)MIB);
	CHECK(fsync(fd) == 0);
	free(buf);
	CHECK(clyde_cache_residency_fd(ctx, fd, &r, &tot) == 0);
	close(fd);
	printf("# after O_DIRECT write: %llu of %llu bytes resident\n",
	       (unsigned long long)r, (unsigned long long)tot);
	CHECK(tot == DIRECT_SIZE);
	CHECK(clyde_cache_direct_honoured(0, r, DIRECT_SIZE));
}

static void test_small_files(struct clyde_ctx *ctx, int dfd)
{
	uint64_t r = 123, tot = 456;
	const uint64_t odd = 3 * 4096 + 100;
	int fd;

	fd = openat(dfd, "empty", O_RDWR | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	CHECK(clyde_cache_residency_fd(ctx, fd, &r, &tot) == 0);
	CHECK(r == 0 && tot == 0);
	CHECK(clyde_cache_evict_fd(ctx, fd, "empty") == 0);
	close(fd);

	/* A cached last page counts only up to the end of the file (some
	 * filesystems do not keep that partial page after a write). */
	CHECK(write_file(dfd, "odd", odd) == 0);
	CHECK(frac(ctx, dfd, "odd", &r, &tot) > 0.9);
	CHECK(r == odd || r == 3 * 4096);
	CHECK(tot == odd);
	CHECK(evict_name(ctx, dfd, "odd") == 0);
	CHECK(frac(ctx, dfd, "odd", &r, &tot) >= 0);
	CHECK(r < odd && tot == odd);
}

/* Several mapping windows: a sparse file larger than the window. */
static void test_sparse_windows(struct clyde_ctx *ctx, int dfd)
{
	const uint64_t mid = CLYDE_CACHE_WINDOW + CLYDE_CACHE_WINDOW / 2;
	const uint64_t end = 3 * CLYDE_CACHE_WINDOW;
	static char buf[1 << 20];
	uint64_t r, tot;
	int fd = openat(dfd, "sparse", O_RDWR | O_CREAT | O_EXCL, 0600);

	CHECK(fd >= 0);
	memset(buf, 1, sizeof(buf));
	CHECK(pwrite(fd, buf, sizeof(buf), (off_t)mid) == (ssize_t)sizeof(buf));
	CHECK(pwrite(fd, buf, 5, (off_t)end) == 5);
	CHECK(clyde_cache_residency_fd(ctx, fd, &r, &tot) == 0);
	CHECK(tot == end + 5);
	/* Only the data past the first window is cached: the tail page's
	 * 5 bytes and the MiB in the middle of the second window. */
	CHECK(r == sizeof(buf) + 5 || r == sizeof(buf));
	CHECK(clyde_cache_evict_fd(ctx, fd, "sparse") == 0);
	CHECK(clyde_cache_residency_fd(ctx, fd, &r, &tot) == 0);
	CHECK(r == 0);
	close(fd);
	CHECK(unlinkat(dfd, "sparse", 0) == 0);
}

static void test_errors(struct clyde_ctx *ctx)
{
	uint64_t r, tot;
	int p[2];

	CHECK(pipe(p) == 0);
	clyde_err_clear(ctx);
	CHECK(clyde_cache_residency_fd(ctx, p[0], &r, &tot) == -EINVAL);
	CHECK(strstr(clyde_errmsg(ctx), "pipe:") != NULL);
	clyde_err_clear(ctx);
	CHECK(clyde_cache_evict_fd(ctx, p[1], "my-pipe") < 0);
	CHECK(strstr(clyde_errmsg(ctx), "my-pipe") != NULL);
	CHECK(strstr(clyde_errmsg(ctx), "fsync") != NULL);
	close(p[0]);
	close(p[1]);
	clyde_err_clear(ctx);
	CHECK(clyde_cache_residency_fd(ctx, p[0], &r, &tot) == -EBADF);
	CHECK(clyde_cache_evict_fd(ctx, p[0], "closed") == -EBADF);
	CHECK(clyde_cache_is_memory_fs(p[0]) == false);
	clyde_err_clear(ctx);
}

static void test_memory_fs(struct clyde_ctx *ctx, int dfd)
{
	char name[] = "/dev/shm/clyde-cache-XXXXXX";
	struct statfs sf;
	uint64_t r, tot;
	int fd;

	CHECK(!clyde_cache_is_memory_fs(dfd));
	if (statfs("/dev/shm", &sf) < 0 || sf.f_type != TMPFS_MAGIC) {
		CHECK(!"a tmpfs at /dev/shm for the memory fs checks");
		return;
	}
	fd = mkstemp(name);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(name);
	CHECK(clyde_cache_is_memory_fs(fd));
	CHECK(ftruncate(fd, (off_t)(4 * MIB)) == 0);
	for (off_t off = 0; off < (off_t)(4 * MIB); off += 4096)
		if (pwrite(fd, "x", 1, off) != 1)
			break;
	/* Eviction "works" and drops nothing: the pages are the storage. */
	CHECK(clyde_cache_evict_fd(ctx, fd, name) == 0);
	CHECK(clyde_cache_residency_fd(ctx, fd, &r, &tot) == 0);
	CHECK(tot == 4 * MIB && r == tot);
	close(fd);
}

/* Write `size` bytes to a new file and leave them dirty (no fsync). */
static int write_dirty(int dirfd, const char *name, uint64_t size)
{
	static char buf[1 << 16];
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	memset(buf, 0x5a, sizeof(buf));
	while (size) {
		size_t n = size < sizeof(buf) ? (size_t)size : sizeof(buf);

		if (write(fd, buf, n) != (ssize_t)n) {
			close(fd);
			return -1;
		}
		size -= n;
	}
	return close(fd);
}

static void test_evict_dir(struct clyde_ctx *ctx, int dfd)
{
	struct clyde_cache_dir_stats ds;
	uint64_t expect = 0, nfiles = 0, big_r;
	char name[64];
	int tfd, fd;

	CHECK(mkdirat(dfd, "tree", 0700) == 0);
	tfd = openat(dfd, "tree", O_RDONLY | O_DIRECTORY);
	CHECK(tfd >= 0);
	for (int d = 0; d < 3; d++) {
		snprintf(name, sizeof(name), "d%d", d);
		CHECK(mkdirat(tfd, name, 0700) == 0);
		for (int f = 0; f < 10; f++) {
			uint64_t size = (uint64_t)(d * 10 + f + 1) * 20000 + 17;

			snprintf(name, sizeof(name), "d%d/f%d", d, f);
			CHECK(write_file(tfd, name, size) == 0);
			expect += size;
			nfiles++;
		}
		/* Empty files: counted, nothing to evict. */
		for (int f = 0; f < 5; f++) {
			snprintf(name, sizeof(name), "d%d/empty%d", d, f);
			CHECK(write_file(tfd, name, 0) == 0);
			nfiles++;
		}
	}
	CHECK(mkdirat(tfd, "d0/sub", 0700) == 0);
	CHECK(write_file(tfd, "d0/sub/deep", 777777) == 0);
	expect += 777777;
	nfiles++;
	/* Dirty pages are not dropped by fadvise: the walk's one syncfs
	 * must have cleaned them (there is no fsync per file any more). */
	CHECK(write_dirty(tfd, "d2/dirty", 3 * MIB) == 0);
	expect += 3 * MIB;
	nfiles++;
	/* Followed, these would count big and d0 twice; a FIFO would hang
	 * a blocking open. */
	CHECK(symlinkat("../big", tfd, "link-big") == 0);
	CHECK(symlinkat("../d0", tfd, "d1/link-d0") == 0);
	CHECK(mkfifoat(tfd, "fifo", 0600) == 0);

	CHECK(read_file(dfd, "big", false) == (int64_t)BIG_SIZE);
	CHECK(frac(ctx, dfd, "big", &big_r, NULL) > 0.5);

	/* One walk: measured before, evicted, measured after. */
	CHECK(clyde_cache_evict_dir(ctx, tfd, "tree", &ds) == 0);
	printf("# evict_dir: %llu of %llu bytes were resident, %llu after\n",
	       (unsigned long long)ds.resident_before,
	       (unsigned long long)ds.total_bytes,
	       (unsigned long long)ds.resident_after);
	CHECK(ds.files == nfiles);
	CHECK(ds.total_bytes == expect);
	CHECK(ds.resident_before > expect / 2 && ds.resident_before <= expect);
	CHECK(ds.resident_after < expect / 10);
	CHECK(frac(ctx, dfd, "big", NULL, NULL) > 0.5);
	CHECK(frac(ctx, tfd, "d2/f9", NULL, NULL) < 0.1);
	CHECK(frac(ctx, tfd, "d2/dirty", NULL, NULL) < 0.1);
	CHECK(frac(ctx, tfd, "d0/sub/deep", NULL, NULL) < 0.1);

	/* Again: nothing was cached since. */
	CHECK(clyde_cache_evict_dir(ctx, tfd, "tree", &ds) == 0);
	CHECK(ds.total_bytes == expect);
	CHECK(ds.resident_before < expect / 10);
	CHECK(ds.resident_after < expect / 10);
	CHECK(clyde_cache_evict_dir(ctx, tfd, NULL, NULL) == 0);

	/* Not a directory: the error names it. */
	fd = openat(dfd, "odd", O_RDONLY);
	clyde_err_clear(ctx);
	CHECK(clyde_cache_evict_dir(ctx, fd, "odd-file", &ds) == -ENOTDIR);
	CHECK(strstr(clyde_errmsg(ctx), "odd-file") != NULL);
	CHECK(ds.files == 0 && ds.total_bytes == 0);
	clyde_err_clear(ctx);
	close(fd);
	close(tfd);
}

static void test_drop_all(struct clyde_ctx *ctx, int dfd)
{
	int ret, st;
	pid_t pid;

	if (geteuid() != 0) {
		ret = clyde_cache_drop_all(ctx);
		CHECK(ret == -EPERM || ret == -ENOENT);
		if (ret == -EPERM)
			CHECK(strstr(clyde_errmsg(ctx), "root") != NULL);
		clyde_err_clear(ctx);
		return;
	}
	CHECK(read_file(dfd, "big", false) == (int64_t)BIG_SIZE);
	CHECK(frac(ctx, dfd, "big", NULL, NULL) > 0.5);
	ret = clyde_cache_drop_all(ctx);
	if (ret != 0)
		printf("# drop_all: %s\n", clyde_errmsg(ctx));
	CHECK(ret == 0);
	CHECK(frac(ctx, dfd, "big", NULL, NULL) < 0.1);

	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct clyde_ctx c;

		clyde_ctx_init(&c);
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(2);
		ret = clyde_cache_drop_all(&c);
		_exit(ret == -EPERM && strstr(clyde_errmsg(&c), "root") ? 0 :
									  1);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	struct clyde_ctx ctx;
	struct testfs t;

	clyde_ctx_init(&ctx);
	test_direct_honoured_threshold();
	test_errors(&ctx);
	if (testfs_setup(&t) == 0) {
		test_memory_fs(&ctx, t.dirfd);
		test_big_file(&ctx, t.dirfd);
		test_direct_write(&ctx, t.dirfd);
		test_small_files(&ctx, t.dirfd);
		test_sparse_windows(&ctx, t.dirfd);
		test_evict_dir(&ctx, t.dirfd);
		test_drop_all(&ctx, t.dirfd);
		if (clyde_errmsg(&ctx)[0])
			printf("# last error: %s\n", clyde_errmsg(&ctx));
	} else {
		CHECK(!"no temporary directory on a disk filesystem");
	}
	testfs_cleanup(&t);
	clyde_ctx_release(&ctx);
	return tap_done();
}

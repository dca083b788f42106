/*
 * The six file tests (bonnie_files.c) run by hand, one worker, without the
 * suite: a temporary directory stands in for the worker's directory, and an
 * independent walk checks what the bodies left on disk.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/scratch.h"
#include "tap.h"
#include "workloads/worker.h"

#define TARGET "clyde-link-target"

struct harness {
	struct clyde_ctx ctx;
	struct clyde_bonnie_config cfg;
	struct clyde_worker w;
	struct clyde_span span;
	pthread_barrier_t bar;
	char dir[64];
};

static int setup_in(struct harness *h, const char *parent, uint64_t n,
		    int64_t max, int64_t min, uint32_t ndirs)
{
	memset(h, 0, sizeof(*h));
	clyde_ctx_init(&h->ctx);
	h->cfg.num_files = n;
	h->cfg.max_size = max;
	h->cfg.min_size = min;
	h->cfg.num_dirs = ndirs;
	/* Smaller than the largest file, so that files take several writes. */
	h->cfg.file_chunk = 1024;
	snprintf(h->dir, sizeof(h->dir), "%s/clyde-files-XXXXXX", parent);
	if (!mkdtemp(h->dir))
		return -1;
	h->w.ctx = &h->ctx;
	h->w.cfg = &h->cfg;
	h->w.dirfd = open(h->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (h->w.dirfd < 0)
		return -1;
	snprintf(h->w.dir_path, sizeof(h->w.dir_path), "%s", h->dir);
	clyde_rng_seed(&h->w.rng, 42);
	if (clyde_pattern_init(&h->w.pat, 0, &h->w.rng) < 0)
		return -1;
	pthread_barrier_init(&h->bar, NULL, 1);
	h->w.start = &h->bar;
	return 0;
}

static int setup(struct harness *h, uint64_t n, int64_t max, int64_t min,
		 uint32_t ndirs)
{
	return setup_in(h, "/tmp", n, max, min, ndirs);
}

static void teardown(struct harness *h)
{
	if (h->w.state && h->w.state_free)
		h->w.state_free(h->w.state);
	clyde_rm_contents(&h->ctx, h->w.dirfd, h->dir);
	close(h->w.dirfd);
	rmdir(h->dir);
	clyde_pattern_release(&h->w.pat);
	pthread_barrier_destroy(&h->bar);
	clyde_ctx_release(&h->ctx);
}

static const char *label(enum clyde_test t)
{
	switch (t) {
	case CLYDE_SEQ_CREATE:
		return "sequential create";
	case CLYDE_SEQ_STAT:
		return "sequential stat";
	case CLYDE_SEQ_DEL:
		return "sequential delete";
	case CLYDE_RAN_CREATE:
		return "random create";
	case CLYDE_RAN_STAT:
		return "random stat";
	case CLYDE_RAN_DEL:
		return "random delete";
	default:
		return "?";
	}
}

static int run(struct harness *h, enum clyde_test t)
{
	memset(&h->span, 0, sizeof(h->span));
	h->w.test = t;
	h->w.test_label = label(t);
	h->w.span = &h->span;
	switch (t) {
	case CLYDE_SEQ_CREATE:
	case CLYDE_RAN_CREATE:
		return clyde_test_create(&h->w);
	case CLYDE_SEQ_STAT:
	case CLYDE_RAN_STAT:
		return clyde_test_stat(&h->w);
	default:
		return clyde_test_delete(&h->w);
	}
}

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int is_hex10(const char *s)
{
	for (int i = 0; i < 10; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* The index a bonnie++ name encodes, or -1 when it does not match. */
static long name_index(const char *name, int random)
{
	size_t len = strlen(name);
	const char *hex = random ? name + len - 10 : name;
	const char *rnd = random ? name : name + 10;
	char digits[11];

	if (len < 10 || len > 22 || !is_hex10(hex))
		return -1;
	for (size_t i = 0; i < len - 10; i++)
		if (!is_alnum(rnd[i]))
			return -1;
	memcpy(digits, hex, 10);
	digits[10] = '\0';
	return strtol(digits, NULL, 16);
}

struct walk {
	size_t files;	  /* entries other than the target and subdirs */
	size_t bad_names; /* not a bonnie++ name, or an index seen twice */
	size_t misplaced; /* sequential: not in directory i*ndirs/n */
	size_t bad_sizes;
	size_t bad_links;
	size_t dirs;
	uint64_t bytes;
	int has_target;
	ino_t target_ino;
	unsigned char *seen; /* per index */
};

static void walk_one(struct harness *h, int dfd, long d, struct walk *wk,
		     int random)
{
	DIR *dir = fdopendir(dfd);
	const struct clyde_bonnie_config *c = &h->cfg;
	struct dirent *de;

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		struct stat st;
		long idx;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) <
		    0)
			continue;
		if (d < 0 && !strcmp(de->d_name, TARGET)) {
			wk->has_target = 1;
			wk->target_ino = st.st_ino;
			continue;
		}
		if (d < 0 && c->num_dirs > 1 && S_ISDIR(st.st_mode)) {
			char *end;
			long sub = strtol(de->d_name, &end, 10);

			wk->dirs++;
			if (strlen(de->d_name) != 5 || *end || sub < 0 ||
			    sub >= (long)c->num_dirs)
				wk->bad_names++;
			walk_one(h,
				 openat(dirfd(dir), de->d_name,
					O_RDONLY | O_DIRECTORY),
				 sub, wk, random);
			continue;
		}
		wk->files++;
		idx = name_index(de->d_name, random);
		if (idx < 0 || (uint64_t)idx >= c->num_files || wk->seen[idx]++)
			wk->bad_names++;
		else if (!random && c->num_dirs > 1 &&
			 (uint64_t)idx * c->num_dirs / c->num_files !=
				 (uint64_t)d)
			wk->misplaced++;
		if (c->max_size == -2) {
			struct stat tst;

			if (!S_ISLNK(st.st_mode) ||
			    fstatat(dirfd(dir), de->d_name, &tst, 0) < 0 ||
			    tst.st_ino != wk->target_ino)
				wk->bad_links++;
		} else if (c->max_size == -1) {
			if (!S_ISREG(st.st_mode) ||
			    st.st_ino != wk->target_ino ||
			    st.st_nlink != c->num_files + 1)
				wk->bad_links++;
		} else if (!S_ISREG(st.st_mode) || st.st_size < c->min_size ||
			   st.st_size > c->max_size) {
			wk->bad_sizes++;
		} else {
			wk->bytes += (uint64_t)st.st_size;
		}
	}
	closedir(dir);
}

/* Walk the worker's directory without the code under test.  The target's
 * inode must be known before the links are checked, hence the lstat. */
static void walk(struct harness *h, struct walk *wk, int random)
{
	struct stat st;

	free(wk->seen);
	memset(wk, 0, sizeof(*wk));
	wk->seen = calloc(h->cfg.num_files + 1, 1);
	if (fstatat(h->w.dirfd, TARGET, &st, AT_SYMLINK_NOFOLLOW) == 0)
		wk->target_ino = st.st_ino;
	walk_one(h, openat(h->w.dirfd, ".", O_RDONLY | O_DIRECTORY), -1, wk,
		 random);
}

static size_t entries(int dirfd_)
{
	DIR *dir = fdopendir(openat(dirfd_, ".", O_RDONLY | O_DIRECTORY));
	struct dirent *de;
	size_t n = 0;

	if (!dir)
		return (size_t)-1;
	while ((de = readdir(dir)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(dir);
	return n;
}

static int has(const char *msg, const char *part)
{
	return strstr(msg, part) != NULL;
}

/* One series: create, stat, delete, checking each against the disk. */
static void series(uint64_t n, int64_t max, int64_t min, uint32_t ndirs,
		   int random, int fsync_each)
{
	enum clyde_test t0 = random ? CLYDE_RAN_CREATE : CLYDE_SEQ_CREATE;
	struct walk wk = { 0 };
	struct harness h;
	int rc;

	printf("# %s n=%" PRIu64 " max=%" PRId64 " min=%" PRId64
	       " dirs=%" PRIu32 "%s\n",
	       random ? "random" : "sequential", n, max, min, ndirs,
	       fsync_each ? " -b" : "");
	if (setup(&h, n, max, min, ndirs) < 0) {
		CHECK(!"setup");
		return;
	}
	h.cfg.fsync_each = fsync_each;

	rc = run(&h, t0);
	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "create: %s\n", clyde_errmsg(&h.ctx));
	CHECK(h.span.ops == n);
	CHECK(h.span.start_ns > 0 && h.span.end_ns >= h.span.start_ns);
	CHECK(h.span.latency_max_ns > 0);
	CHECK(random ? h.w.state != NULL : h.w.state == NULL);
	walk(&h, &wk, random);
	CHECK(wk.files == n);
	CHECK(wk.bad_names == 0);
	CHECK(wk.misplaced == 0);
	CHECK(wk.bad_sizes == 0);
	CHECK(wk.bad_links == 0);
	CHECK(wk.dirs == (ndirs > 1 ? ndirs : 0));
	CHECK(wk.has_target == (max < 0));
	CHECK(h.span.bytes == wk.bytes);
	if (min > 0)
		CHECK(wk.bytes >= n * (uint64_t)min);
	if (max > 0 && min < max)
		/* Sizes are drawn, not all the same. */
		CHECK(wk.bytes > n * (uint64_t)min &&
		      wk.bytes < n * (uint64_t)max);

	rc = run(&h, t0 + 1);
	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "stat: %s\n", clyde_errmsg(&h.ctx));
	CHECK(h.span.ops == n);
	/* Links lead to the empty target: nothing to read. */
	CHECK(h.span.bytes == wk.bytes);

	rc = run(&h, t0 + 2);
	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "delete: %s\n", clyde_errmsg(&h.ctx));
	CHECK(h.span.ops == n);
	CHECK(h.span.end_ns >= h.span.start_ns);
	CHECK(entries(h.w.dirfd) == 0);
	CHECK(h.w.state == NULL);
	CHECK(!h.ctx.err_set);
	free(wk.seen);
	teardown(&h);
}

/* Remove one file the create made, found by the walk. */
static int remove_first(struct harness *h, char *name, size_t len)
{
	char sub[8] = ".";
	DIR *dir;
	struct dirent *de;
	int ret = -1;

	if (h->cfg.num_dirs > 1)
		snprintf(sub, sizeof(sub), "%05u", 1u);
	dir = fdopendir(openat(h->w.dirfd, sub, O_RDONLY | O_DIRECTORY));
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, TARGET))
			continue;
		snprintf(name, len, "%s", de->d_name);
		ret = unlinkat(dirfd(dir), de->d_name, 0);
		break;
	}
	closedir(dir);
	return ret;
}

static void add_extra(struct harness *h, const char *rel)
{
	int fd = openat(h->w.dirfd, rel, O_CREAT | O_WRONLY, 0644);

	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
}

static void test_vanished(int random, uint32_t ndirs)
{
	enum clyde_test t0 = random ? CLYDE_RAN_CREATE : CLYDE_SEQ_CREATE;
	struct harness h;
	char gone[256] = "";
	int rc;

	if (setup(&h, 50, 300, 10, ndirs) < 0) {
		CHECK(!"setup");
		return;
	}
	CHECK(run(&h, t0) == 0);
	CHECK(remove_first(&h, gone, sizeof(gone)) == 0);
	rc = run(&h, t0 + 1);
	CHECK(rc < 0);
	CHECK(has(clyde_errmsg(&h.ctx), h.dir));
	CHECK(has(clyde_errmsg(&h.ctx), label(t0 + 1)));
	if (random) {
		/* The missing name is stat'ed and fails by name. */
		CHECK(rc == -ENOENT);
		CHECK(has(clyde_errmsg(&h.ctx), "cannot stat"));
		CHECK(has(clyde_errmsg(&h.ctx), gone));
	} else {
		CHECK(rc == -EIO);
		CHECK(has(clyde_errmsg(&h.ctx), "found 49 files"));
		CHECK(has(clyde_errmsg(&h.ctx), "expected 50"));
	}
	printf("# vanished: %s\n", clyde_errmsg(&h.ctx));
	teardown(&h);
}

static void test_extra(int random, uint32_t ndirs)
{
	enum clyde_test t0 = random ? CLYDE_RAN_CREATE : CLYDE_SEQ_CREATE;
	const char *extra = ndirs > 1 ? "00002/intruder" : "intruder";
	struct harness h;
	int rc;

	if (setup(&h, 40, 0, 0, ndirs) < 0) {
		CHECK(!"setup");
		return;
	}
	CHECK(run(&h, t0) == 0);
	add_extra(&h, extra);
	if (!random) {
		rc = run(&h, t0 + 1);
		CHECK(rc == -EIO);
		CHECK(has(clyde_errmsg(&h.ctx), "found 41 files"));
		clyde_err_clear(&h.ctx);
	} else {
		/* Random stat visits the names it made, and succeeds. */
		CHECK(run(&h, t0 + 1) == 0);
		CHECK(h.span.ops == 40);
	}
	rc = run(&h, t0 + 2);
	CHECK(rc < 0);
	CHECK(has(clyde_errmsg(&h.ctx), h.dir));
	if (!random)
		CHECK(has(clyde_errmsg(&h.ctx), "deleted 41 files"));
	else if (ndirs > 1)
		CHECK(rc == -ENOTEMPTY &&
		      has(clyde_errmsg(&h.ctx), "cannot remove directory") &&
		      has(clyde_errmsg(&h.ctx), "00002"));
	else
		CHECK(has(clyde_errmsg(&h.ctx), "1 entries left") &&
		      has(clyde_errmsg(&h.ctx), "intruder"));
	printf("# extra: %s\n", clyde_errmsg(&h.ctx));
	teardown(&h);
}

/* A subdirectory that already exists fails create before the clock, and
 * the body still meets the others at the barrier. */
static void test_setup_error(void)
{
	struct harness h;
	int rc;

	if (setup(&h, 30, 0, 0, 3) < 0) {
		CHECK(!"setup");
		return;
	}
	CHECK(mkdirat(h.w.dirfd, "00000", 0755) == 0);
	rc = run(&h, CLYDE_SEQ_CREATE);
	CHECK(rc == -EEXIST);
	CHECK(h.span.start_ns > 0); /* clyde_worker_go was called */
	CHECK(h.span.ops == 0);
	CHECK(atomic_load(&h.ctx.failed));
	CHECK(has(clyde_errmsg(&h.ctx), "sequential create: "));
	CHECK(has(clyde_errmsg(&h.ctx), "cannot create directory"));
	CHECK(has(clyde_errmsg(&h.ctx), h.dir));
	CHECK(has(clyde_errmsg(&h.ctx), "/00000"));
	printf("# setup error: %s\n", clyde_errmsg(&h.ctx));
	teardown(&h);
}

/* Random stat and delete need the names of random create. */
static void test_no_state(void)
{
	struct harness h;

	if (setup(&h, 10, 0, 0, 1) < 0) {
		CHECK(!"setup");
		return;
	}
	CHECK(run(&h, CLYDE_RAN_STAT) == -EINVAL);
	CHECK(has(clyde_errmsg(&h.ctx), "no names from random create"));
	clyde_err_clear(&h.ctx);
	CHECK(run(&h, CLYDE_RAN_DEL) == -EINVAL);
	teardown(&h);
}

/* A write that fails in the timed region names the file it was writing. */
static void test_write_error(void)
{
	struct rlimit old, lim;
	struct harness h;
	int rc;

	if (setup(&h, 20, 5000, 4000, 1) < 0) {
		CHECK(!"setup");
		return;
	}
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 1000;
	signal(SIGXFSZ, SIG_IGN);
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	rc = run(&h, CLYDE_SEQ_CREATE);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	CHECK(rc == -EFBIG);
	CHECK(has(clyde_errmsg(&h.ctx), "sequential create: cannot write "));
	CHECK(has(clyde_errmsg(&h.ctx), h.dir));
	CHECK(has(clyde_errmsg(&h.ctx), "0000000000")); /* the first file */
	printf("# write error: %s\n", clyde_errmsg(&h.ctx));
	teardown(&h);
}

/* A full filesystem: a small tmpfs, when this process may mount one. */
static void test_enospc(void)
{
	char mnt[] = "/tmp/clyde-tmpfs-XXXXXX";
	struct harness h;
	int rc;

	char why[160];

	if (!mkdtemp(mnt)) {
		CHECK(!"make a directory in /tmp for the tmpfs");
		return;
	}
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=64k") < 0) {
		snprintf(why, sizeof(why), "ENOSPC: cannot mount a tmpfs: %s",
			 strerror(errno));
		tap_skip_part(why);
		rmdir(mnt);
		return;
	}
	if (setup_in(&h, mnt, 200, 8192, 8192, 2) < 0) {
		CHECK(!"setup");
	} else {
		rc = run(&h, CLYDE_RAN_CREATE);
		CHECK(rc == -ENOSPC);
		CHECK(has(clyde_errmsg(&h.ctx), "random create: cannot "));
		CHECK(has(clyde_errmsg(&h.ctx), h.dir));
		CHECK(has(clyde_errmsg(&h.ctx), "No space left"));
		CHECK(h.w.state == NULL); /* a failed create keeps no names */
		printf("# enospc: %s\n", clyde_errmsg(&h.ctx));
		teardown(&h);
	}
	umount(mnt);
	rmdir(mnt);
}

static void test_interrupt(void)
{
	volatile sig_atomic_t stop = 1;
	struct harness h;

	if (setup(&h, 100, 0, 0, 1) < 0) {
		CHECK(!"setup");
		return;
	}
	h.ctx.interrupted = &stop;
	CHECK(run(&h, CLYDE_SEQ_CREATE) == -EINTR);
	CHECK(h.span.ops == 0);
	CHECK(entries(h.w.dirfd) == 0);
	teardown(&h);
}

/* The same seed makes the same names, so runs repeat. */
static void names_of(struct harness *h, char *out, size_t len)
{
	DIR *dir = fdopendir(openat(h->w.dirfd, ".", O_RDONLY | O_DIRECTORY));
	struct dirent *de;
	size_t used = 0;
	uint64_t sum = 0; /* order-independent: a sum of per-name hashes */

	out[0] = '\0';
	if (!dir)
		return;

	while ((de = readdir(dir))) {
		uint64_t hsh = 1469598103934665603ull;

		for (const char *p = de->d_name; *p; p++)
			hsh = (hsh ^ (unsigned char)*p) * 1099511628211ull;
		sum += hsh;
		used++;
	}
	closedir(dir);
	snprintf(out, len, "%zu:%016" PRIx64, used, sum);
}

static void test_repeatable(void)
{
	char a[64], b[64];
	struct harness h;

	if (setup(&h, 64, 0, 0, 1) < 0) {
		CHECK(!"setup");
		return;
	}
	CHECK(run(&h, CLYDE_RAN_CREATE) == 0);
	names_of(&h, a, sizeof(a));
	CHECK(run(&h, CLYDE_RAN_STAT) == 0);
	CHECK(run(&h, CLYDE_RAN_DEL) == 0);
	clyde_rng_seed(&h.w.rng, 42);
	CHECK(run(&h, CLYDE_RAN_CREATE) == 0);
	names_of(&h, b, sizeof(b));
	CHECK_STR(a, b);
	clyde_rng_seed(&h.w.rng, 43);
	CHECK(run(&h, CLYDE_RAN_STAT) == 0);
	CHECK(run(&h, CLYDE_RAN_DEL) == 0);
	CHECK(run(&h, CLYDE_RAN_CREATE) == 0);
	names_of(&h, b, sizeof(b));
	CHECK(strcmp(a, b) != 0);
	teardown(&h);
}

int main(void)
{
	for (int random = 0; random <= 1; random++) {
		for (uint32_t nd = 1; nd <= 3; nd += 2) {
			series(300, 0, 0, nd, random, 0);
			series(300, 5000, 100, nd, random, 0);
			series(300, -1, 0, nd, random, 0);
			series(300, -2, 0, nd, random, 0);
		}
		series(40, 3000, 0, 3, random, 1);
		series(40, -2, 0, 1, random, 1);
	}
	test_vanished(0, 1);
	test_vanished(0, 3);
	test_vanished(1, 1);
	test_vanished(1, 3);
	test_extra(0, 1);
	test_extra(0, 3);
	test_extra(1, 1);
	test_extra(1, 3);
	test_setup_error();
	test_no_state();
	test_write_error();
	test_enospc();
	test_interrupt();
	test_repeatable();
	return tap_done();
}

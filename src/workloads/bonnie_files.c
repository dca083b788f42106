/*
 * bonnie++'s six file tests: sequential and random create, stat ("Read")
 * and delete, as test bodies run by the suite, one thread per worker, each
 * in its own directory (w->dirfd).
 *
 * Names follow bonnie++: the index as %010x followed by 0-12 random
 * characters from [a-zA-Z0-9] in the sequential tests, the random
 * characters first in the random ones.  With more than one directory the
 * files go into subdirectories %05u: in order for the sequential tests
 * (file i in directory i*ndirs/nfiles), a random one per file for the
 * random tests.
 *
 * No name is kept: file i's name (and, in the random tests, its
 * subdirectory) comes from a generator forked from the worker's for
 * stream i, so that any test can make it again from i (name_at()); the
 * random tests' order is a permutation of the indices computed one index
 * at a time (a Feistel network over the next power of four, cycle-walked
 * into range: perm_at()).  Memory does not grow with -n.  Create hands
 * what it made (the base generator and the count) to w->state, where
 * random stat and delete find it; each draws a new permutation from the
 * worker's generator; delete frees it.
 *
 * Links (-n N:-1 hard links, -n N:-2 symlinks) all point to one empty file,
 * LINK_TARGET in the worker's directory.  Create makes it before the clock
 * starts; delete removes it after the clock stops (it is not one of the
 * files the test counts).  Its name holds a '-', which no bonnie++ name
 * does, so it cannot collide with one.  bonnie++ instead links to its first
 * file, by a symlink relative to the wrong directory: in every subdirectory
 * but 00000 its symlinks dangle and its stat test fails.  clyde's symlinks
 * in subdirectories point to "../" LINK_TARGET.
 *
 * bonnie++ calls sync() at the end of create and delete; clyde calls
 * syncfs() on the worker's directory, so that only the filesystem under
 * test is flushed, still inside the timed region.
 *
 * clyde-mpi --shared (cfg->shared_files): all workers of all ranks share
 * one directory; names start with "w<job-wide worker>.", link targets end
 * with "-<worker>", and the sequential stat and delete go by the worker's
 * names in index order (random create's way of keeping them), since
 * readdir would return every worker's entries.
 *
 * clyde-mpi --stonewall (ctx->stonewall, polled once a file) ends a test
 * early as if done: a create then leaves w->files_made files (the first
 * ones in index order), which its stat and delete expect; a delete cut
 * short removes the rest after its clock stopped.
 */
#include "workloads/worker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/scratch.h"

#define LINK_TARGET "clyde-link-target"
#define HEX_DIGITS 10
#define MAX_RAND_CHARS 12
/* "w<worker>." (shared directory) + the hex index + the random chars. */
#define WORKER_LEN 12
#define NAME_LEN (WORKER_LEN + HEX_DIGITS + MAX_RAND_CHARS + 1)
/* The link target's name ("-<worker>" in a shared directory). */
#define LINK_LEN 40
/* "%05u/" + a name, with room to spare. */
#define REL_LEN 64
/* "%05u/", the prefix of a subdirectory's entries in messages. */
#define PREFIX_LEN 24

static const char name_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

struct name_rec {
	uint32_t dir; /* subdirectory index; 0 when there is only one */
	char name[NAME_LEN];
};

/* What create leaves in w->state for random stat and delete (and for the
 * shared directory's sequential ones): enough to make any name again. */
struct name_set {
	struct clyde_rng base; /* the worker's generator before create */
	size_t n;	       /* the files made: indices 0 .. n-1 */
	size_t nfiles;	       /* the layout's count (-n) */
	uint32_t ndirs;
};

/* A permutation of 0 .. n-1: a four-round Feistel network on 2h bits
 * (4^h >= n) with keys from the worker's generator. */
struct perm {
	size_t n;
	unsigned h;
	uint64_t key[4];
};

/* The settings every body needs, checked once. */
struct files_params {
	size_t nfiles; /* -n's count: the layout of names and directories */
	size_t nmade;  /* what the create made (fewer when stonewalled) */
	uint32_t ndirs;
	size_t chunk;
	int links; /* 0 data files, -1 hard links, -2 symlinks */
	uint64_t min_size, max_size;
	int fsync_each;
	int random;
	bool shared;	      /* one directory for all workers (--shared) */
	char who[WORKER_LEN]; /* "w<worker>." when shared, else "" */
	char link[LINK_LEN];  /* the link target's name */
};

/*
 * One open subdirectory for the directory fsyncs of -b.  The sequential
 * tests move through the directories in order, so one slot is enough; the
 * random tests reopen it when the directory changes, which costs little
 * next to the fsync itself.
 */
struct dir_slot {
	long idx;
	int fd;
};

static int is_random(enum clyde_test t)
{
	return t == CLYDE_RAN_CREATE || t == CLYDE_RAN_STAT ||
	       t == CLYDE_RAN_DEL;
}

static int get_params(struct clyde_worker *w, struct files_params *p)
{
	const struct clyde_bonnie_config *cfg = w->cfg;

	memset(p, 0, sizeof(*p));
	p->random = is_random(w->test);
	/* Indices must fit the ten hex digits and the 32-bit records. */
	if (cfg->num_files > UINT32_MAX)
		return clyde_worker_err(
			w, EINVAL, "%" PRIu64 " files in %s: at most %" PRIu32,
			cfg->num_files, w->dir_path, UINT32_MAX);
	p->nfiles = (size_t)cfg->num_files;
	p->nmade = w->test == CLYDE_SEQ_CREATE || w->test == CLYDE_RAN_CREATE ?
			   p->nfiles :
			   w->files_made;
	p->ndirs = cfg->num_dirs > 1 ? cfg->num_dirs : 1;
	if (p->ndirs > CLYDE_MAX_DIRS)
		return clyde_worker_err(w, EINVAL,
					"%" PRIu32
					" directories in %s: at most %u",
					p->ndirs, w->dir_path, CLYDE_MAX_DIRS);
	p->chunk = cfg->file_chunk ? cfg->file_chunk : CLYDE_DEFAULT_FILE_CHUNK;
	if (cfg->max_size == -1 || cfg->max_size == -2) {
		p->links = (int)cfg->max_size;
	} else if (cfg->max_size < 0 || cfg->min_size < 0 ||
		   cfg->min_size > cfg->max_size) {
		return clyde_worker_err(w, EINVAL,
					"file sizes %" PRId64 ":%" PRId64
					" for %s: need max >= min >= 0",
					cfg->max_size, cfg->min_size,
					w->dir_path);
	} else {
		p->min_size = (uint64_t)cfg->min_size;
		p->max_size = (uint64_t)cfg->max_size;
	}
	p->fsync_each = cfg->fsync_each;
	p->shared = cfg->shared_files;
	if (p->shared) {
		unsigned n = cfg->worker_base + w->index;

		snprintf(p->who, sizeof(p->who), "w%u.", n);
		snprintf(p->link, sizeof(p->link), "%s-%u", LINK_TARGET, n);
	} else {
		snprintf(p->link, sizeof(p->link), "%s", LINK_TARGET);
	}
	return 0;
}

/* The name of a file relative to the worker's directory. */
static void rel_path(const struct files_params *p, const struct name_rec *r,
		     char *buf)
{
	if (p->ndirs > 1)
		snprintf(buf, REL_LEN, "%05" PRIu32 "/%s", r->dir, r->name);
	else
		snprintf(buf, REL_LEN, "%s", r->name);
}

static void free_state(struct clyde_worker *w)
{
	if (w->state && w->state_free)
		w->state_free(w->state);
	w->state = NULL;
	w->state_free = NULL;
}

/* The names of a create about to start: the worker's generator as it is
 * now.  The caller owns the result. */
static struct name_set *make_names(struct clyde_worker *w,
				   const struct files_params *p)
{
	struct name_set *set = malloc(sizeof(*set));

	if (!set)
		return NULL;
	set->base = w->rng;
	set->n = p->nfiles;
	set->nfiles = p->nfiles;
	set->ndirs = p->ndirs;
	/* Move the worker's generator on, so that what it draws next (file
	 * sizes, the permutations) is not the streams' seed material. */
	(void)clyde_rng_next(&w->rng);
	return set;
}

/* Append s to the name at *o (within NAME_LEN). */
static void put_str(char *name, size_t *o, const char *s)
{
	while (*s && *o < NAME_LEN - 1)
		name[(*o)++] = *s++;
}

/* Append i as ten lowercase hex digits (bonnie++'s %010x). */
static void put_hex(char *name, size_t *o, uint32_t i)
{
	static const char hex[] = "0123456789abcdef";

	for (int k = HEX_DIGITS - 1; k >= 0 && *o < NAME_LEN - 1; k--)
		name[(*o)++] = k >= 8 ? '0' : hex[(i >> (4 * k)) & 0xf];
}

/* File i's name and subdirectory, the same each time for one set.  Made
 * without printf: the random tests make each name three times (create,
 * stat, delete), inside the timed loop. */
static void name_at(const struct name_set *set, const struct files_params *p,
		    size_t i, struct name_rec *r)
{
	struct clyde_rng g;
	char rnd[MAX_RAND_CHARS + 1];
	unsigned nrand;
	size_t o = 0;

	/* i < 2^32 (get_params): one stream per file. */
	clyde_rng_fork(&set->base, (unsigned)i, &g);
	nrand = (unsigned)clyde_rng_below(&g, MAX_RAND_CHARS + 1);
	for (unsigned k = 0; k < nrand; k++)
		rnd[k] =
			name_chars[clyde_rng_below(&g, sizeof(name_chars) - 1)];
	rnd[nrand] = '\0';
	put_str(r->name, &o, p->who);
	if (p->random) {
		put_str(r->name, &o, rnd);
		put_hex(r->name, &o, (uint32_t)i);
		r->dir = (uint32_t)clyde_rng_below(&g, set->ndirs);
	} else {
		put_hex(r->name, &o, (uint32_t)i);
		put_str(r->name, &o, rnd);
		/* nfiles < 2^32 and ndirs < 2^17: no overflow. */
		r->dir = (uint32_t)((uint64_t)i * set->ndirs / set->nfiles);
	}
	r->name[o] = '\0';
}

/* A new random order of 0 .. n-1, from the worker's generator. */
static void perm_init(struct clyde_worker *w, size_t n, struct perm *pm)
{
	pm->n = n;
	pm->h = 1;
	while (pm->h < 32 && ((uint64_t)1 << (2 * pm->h)) < n)
		pm->h++;
	for (unsigned k = 0; k < 4; k++)
		pm->key[k] = clyde_rng_next(&w->rng);
}

/* The i-th index of the order (i < n): the network is a bijection of
 * 0 .. 4^h - 1, and walking it from i until the value is below n is one
 * of 0 .. n-1 (4^h < 4n: under four steps on average). */
static size_t perm_at(const struct perm *pm, size_t i)
{
	uint64_t mask = ((uint64_t)1 << pm->h) - 1, x = i;

	do {
		uint64_t l = x >> pm->h, r = x & mask;

		for (unsigned k = 0; k < 4; k++) {
			/* splitmix64's finaliser is the round function. */
			uint64_t t = l ^ (clyde_rng_mix(r ^ pm->key[k]) & mask);

			l = r;
			r = t;
		}
		x = (l << pm->h) | r;
	} while (x >= pm->n);
	return (size_t)x;
}

/* The names random create left, checked against this test's settings. */
static int take_names(struct clyde_worker *w, const struct files_params *p,
		      struct name_set **out)
{
	struct name_set *set = w->state;

	if (!set || w->state_free != free)
		return clyde_worker_err(w, EINVAL,
					"no names from random create for %s",
					w->dir_path);
	if (set->n != p->nmade || set->ndirs != p->ndirs)
		return clyde_worker_err(
			w, EINVAL,
			"random create made %zu files in %" PRIu32
			" directories of %s, expected %zu in %" PRIu32,
			set->n, set->ndirs, w->dir_path, p->nmade, p->ndirs);
	*out = set;
	return 0;
}

/* fsync directory `d` (the worker's own when there is only one). */
static int sync_dir(struct clyde_worker *w, const struct files_params *p,
		    struct dir_slot *slot, uint32_t d)
{
	char sub[16];
	int fd = w->dirfd;

	if (p->ndirs > 1) {
		snprintf(sub, sizeof(sub), "%05" PRIu32, d);
		if (slot->idx != (long)d) {
			if (slot->fd >= 0)
				close(slot->fd);
			slot->idx = -1;
			slot->fd = openat(w->dirfd, sub,
					  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (slot->fd < 0)
				return clyde_worker_err(w, errno,
							"cannot open %s/%s",
							w->dir_path, sub);
			slot->idx = (long)d;
		}
		fd = slot->fd;
	}
	if (fsync(fd) < 0)
		return clyde_worker_err(w, errno,
					"cannot fsync directory %s%s%s",
					w->dir_path, p->ndirs > 1 ? "/" : "",
					p->ndirs > 1 ? sub : "");
	return 0;
}

static void slot_close(struct dir_slot *slot)
{
	if (slot->fd >= 0)
		close(slot->fd);
	slot->fd = -1;
	slot->idx = -1;
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Create one file (or link) `rel`; adds the data written to *bytes, and
 * the time spent making that data to *prep_ns: it is not part of the
 * create's latency, which covers the system calls only. */
static int create_one(struct clyde_worker *w, const struct files_params *p,
		      struct dir_slot *slot, const struct name_rec *r,
		      unsigned char *buf, uint64_t *bytes, uint64_t *prep_ns)
{
	char rel[REL_LEN];
	uint64_t size, left;
	int fd;

	rel_path(p, r, rel);
	if (p->links == -1) {
		if (linkat(w->dirfd, p->link, w->dirfd, rel, 0) < 0)
			return clyde_worker_err(w, errno,
						"cannot link %s/%s to %s",
						w->dir_path, rel, p->link);
	} else if (p->links == -2) {
		/* Relative, so that it resolves from a subdirectory too. */
		char to[LINK_LEN + 3];

		snprintf(to, sizeof(to), "%s%s", p->ndirs > 1 ? "../" : "",
			 p->link);

		if (symlinkat(to, w->dirfd, rel) < 0)
			return clyde_worker_err(w, errno,
						"cannot create symlink %s/%s",
						w->dir_path, rel);
	} else {
		fd = openat(w->dirfd, rel,
			    O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return clyde_worker_err(w, errno, "cannot create %s/%s",
						w->dir_path, rel);
		size = p->min_size;
		if (p->max_size > p->min_size)
			size += clyde_rng_below(&w->rng,
						p->max_size - p->min_size + 1);
		for (left = size; left;) {
			size_t n = left < p->chunk ? (size_t)left : p->chunk;
			uint64_t f0 = clyde_now(w->ctx);

			clyde_pattern_fill(&w->pat, buf, n);
			*prep_ns += clyde_now(w->ctx) - f0;
			if (write_all(fd, buf, n) < 0) {
				int e = errno;

				close(fd);
				return clyde_worker_err(w, e,
							"cannot write %s/%s",
							w->dir_path, rel);
			}
			left -= n;
		}
		*bytes += size;
		if (p->fsync_each && fsync(fd) < 0) {
			int e = errno;

			close(fd);
			return clyde_worker_err(w, e, "cannot fsync %s/%s",
						w->dir_path, rel);
		}
		if (close(fd) < 0)
			return clyde_worker_err(w, errno, "cannot close %s/%s",
						w->dir_path, rel);
	}
	if (p->fsync_each)
		return sync_dir(w, p, slot, r->dir);
	return 0;
}

/* Untimed: the subdirectories and the link target. */
static int create_tree(struct clyde_worker *w, const struct files_params *p)
{
	char sub[16];
	struct stat st;
	int fd;

	if (p->ndirs > 1) {
		for (uint32_t d = 0; d < p->ndirs; d++) {
			snprintf(sub, sizeof(sub), "%05" PRIu32, d);
			/* An existing one would hold files nobody counted,
			 * unless other workers share the directory. */
			if (mkdirat(w->dirfd, sub, 0755) < 0 &&
			    !(p->shared && errno == EEXIST))
				return clyde_worker_err(
					w, errno,
					"cannot create directory %s/%s",
					w->dir_path, sub);
		}
	}
	if (!p->links)
		return 0;
	/* An empty regular file; one left by an earlier create is reused. */
	fd = openat(w->dirfd, p->link,
		    O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return clyde_worker_err(w, errno, "cannot create %s/%s",
					w->dir_path, p->link);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return clyde_worker_err(w, EEXIST,
					"cannot use %s/%s as the link target",
					w->dir_path, p->link);
	}
	close(fd);
	return 0;
}

int clyde_test_create(struct clyde_worker *w)
{
	struct files_params p;
	struct name_set *set = NULL;
	unsigned char *buf = NULL;
	struct dir_slot slot = { -1, -1 };
	struct name_rec r;
	uint64_t t0, bytes = 0;
	size_t made;
	int err;

	/* Names of an earlier series are stale now. */
	free_state(w);
	err = get_params(w, &p);
	if (!err) {
		set = make_names(w, &p);
		buf = p.links ? NULL : malloc(p.chunk);
		if (!set || (!p.links && !buf))
			err = clyde_worker_err(
				w, ENOMEM, "cannot allocate %zu names for %s",
				p.nfiles, w->dir_path);
	}
	if (!err)
		err = create_tree(w, &p);
	t0 = clyde_worker_go(w, err);
	if (err)
		goto out;

	for (made = 0; made < p.nfiles; made++) {
		uint64_t prep = 0;

		if (clyde_stopping(w->ctx)) {
			err = -EINTR;
			break;
		}
		if (clyde_stonewalled(w->ctx)) {
			w->span->stonewalled = true;
			break;
		}
		name_at(set, &p, made, &r);
		err = create_one(w, &p, &slot, &r, buf, &bytes, &prep);
		if (err)
			break;
		t0 = clyde_worker_op(w, t0 + prep, 1);
	}
	w->files_made = made;
	set->n = made; /* random stat and delete take the ones made */
	if (!err && syncfs(w->dirfd) < 0)
		err = clyde_worker_err(w, errno, "cannot syncfs %s",
				       w->dir_path);
	clyde_worker_end(w);
	w->span->bytes = bytes;
out:
	slot_close(&slot);
	free(buf);
	if (!err && (p.random || p.shared)) {
		/* Ownership passes to the worker: delete frees it. */
		w->state = set;
		w->state_free = free;
	} else {
		free(set);
	}
	return err;
}

/* Read the data of `rel` (in `dfd`), expecting `size` bytes. */
static int read_one(struct clyde_worker *w, const struct files_params *p,
		    int dfd, const char *prefix, const char *rel, uint64_t size,
		    unsigned char *buf, uint64_t *bytes)
{
	uint64_t got = 0;
	int fd;

	fd = openat(dfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return clyde_worker_err(w, errno, "cannot open %s/%s%s",
					w->dir_path, prefix, rel);
	for (;;) {
		ssize_t n = read(fd, buf, p->chunk);

		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			return clyde_worker_err(w, e, "cannot read %s/%s%s",
						w->dir_path, prefix, rel);
		}
		if (n == 0)
			break;
		got += (uint64_t)n;
	}
	close(fd);
	*bytes += got;
	if (got != size)
		return clyde_worker_err(
			w, 0,
			"read %" PRIu64
			" bytes of %s/%s%s, its size is %" PRIu64,
			got, w->dir_path, prefix, rel, size);
	return 0;
}

/* stat one entry (following links, as bonnie++'s stat()) and read it. */
static int stat_one(struct clyde_worker *w, const struct files_params *p,
		    int dfd, const char *prefix, const char *rel,
		    unsigned char *buf, uint64_t *bytes)
{
	struct stat st;

	if (fstatat(dfd, rel, &st, 0) < 0)
		return clyde_worker_err(w, errno, "cannot stat %s/%s%s",
					w->dir_path, prefix, rel);
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		return read_one(w, p, dfd, prefix, rel, (uint64_t)st.st_size,
				buf, bytes);
	return 0;
}

/* Open directory `d` for reading: a subdirectory, or the worker's own.
 * `prefix` (PREFIX_LEN bytes) gets "%05u/" or "", for messages. */
static DIR *open_dir(struct clyde_worker *w, const struct files_params *p,
		     uint32_t d, char *prefix, int *err)
{
	const char *what = ".";
	char sub[16];
	DIR *dir;
	int fd;

	prefix[0] = '\0';
	if (p->ndirs > 1) {
		snprintf(sub, sizeof(sub), "%05" PRIu32, d);
		snprintf(prefix, PREFIX_LEN, "%s/", sub);
		what = sub;
	}
	/* A descriptor of its own: fdopendir takes it, and its offset must
	 * not be shared with w->dirfd. */
	fd = openat(w->dirfd, what, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		*err = clyde_worker_err(w, errno, "cannot open %s/%s",
					w->dir_path, what);
		return NULL;
	}
	dir = fdopendir(fd);
	if (!dir) {
		*err = clyde_worker_err(w, errno, "cannot read %s/%s",
					w->dir_path, what);
		close(fd);
	}
	return dir;
}

/* The entries the file tests count: not . or .., not the link target. */
static int is_test_entry(const struct files_params *p, const char *name)
{
	if (name[0] == '.' &&
	    (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
		return 0;
	return p->ndirs > 1 || strcmp(name, p->link) != 0;
}

/* --stonewall's deadline passed: the test ends here, its span says so. */
static bool stonewall(struct clyde_worker *w)
{
	if (!clyde_stonewalled(w->ctx))
		return false;
	w->span->stonewalled = true;
	return true;
}

static int count_err(struct clyde_worker *w, const char *what, size_t seen,
		     size_t want)
{
	return clyde_worker_err(w, 0, "%s %zu files in %s, expected %zu", what,
				seen, w->dir_path, want);
}

static int stat_seq(struct clyde_worker *w, const struct files_params *p,
		    uint64_t *t0, unsigned char *buf, uint64_t *bytes)
{
	size_t seen = 0;
	int err = 0;

	for (uint32_t d = 0; d < p->ndirs && !err && !w->span->stonewalled;
	     d++) {
		char prefix[PREFIX_LEN];
		struct dirent *de;
		DIR *dir = open_dir(w, p, d, prefix, &err);

		if (!dir)
			break;
		for (;;) {
			if (clyde_stopping(w->ctx)) {
				err = -EINTR;
				break;
			}
			if (stonewall(w))
				break;
			errno = 0;
			de = readdir(dir);
			if (!de) {
				if (errno)
					err = clyde_worker_err(
						w, errno, "cannot read %s/%s",
						w->dir_path, prefix);
				break;
			}
			if (!is_test_entry(p, de->d_name))
				continue;
			err = stat_one(w, p, dirfd(dir), prefix, de->d_name,
				       buf, bytes);
			if (err)
				break;
			seen++;
			*t0 = clyde_worker_op(w, *t0, 1);
		}
		closedir(dir);
	}
	if (!err && !w->span->stonewalled && seen != p->nmade)
		err = count_err(w, "found", seen, p->nmade);
	return err;
}

int clyde_test_stat(struct clyde_worker *w)
{
	struct files_params p;
	struct name_set *set = NULL;
	struct perm pm = { 0 };
	unsigned char *buf = NULL;
	uint64_t t0, bytes = 0;
	int err;

	err = get_params(w, &p);
	/* In a shared directory the sequential tests go by name too. */
	if (!err && (p.random || p.shared))
		err = take_names(w, &p, &set);
	if (!err) {
		buf = malloc(p.chunk);
		if (!buf)
			err = clyde_worker_err(
				w, ENOMEM, "cannot allocate a buffer for %s",
				w->dir_path);
	}
	if (!err && set && p.random)
		perm_init(w, set->n, &pm);
	t0 = clyde_worker_go(w, err);
	if (err)
		goto out;

	if (set) {
		for (size_t i = 0; i < set->n; i++) {
			char rel[REL_LEN];
			struct name_rec r;

			if (clyde_stopping(w->ctx)) {
				err = -EINTR;
				break;
			}
			if (stonewall(w))
				break;
			name_at(set, &p, p.random ? perm_at(&pm, i) : i, &r);
			rel_path(&p, &r, rel);
			err = stat_one(w, &p, w->dirfd, "", rel, buf, &bytes);
			if (err)
				break;
			t0 = clyde_worker_op(w, t0, 1);
		}
	} else {
		err = stat_seq(w, &p, &t0, buf, &bytes);
	}
	clyde_worker_end(w);
	w->span->bytes = bytes;
out:
	free(buf);
	return err;
}

static int remove_subdir(struct clyde_worker *w, uint32_t d)
{
	char sub[16];

	snprintf(sub, sizeof(sub), "%05" PRIu32, d);
	if (unlinkat(w->dirfd, sub, AT_REMOVEDIR) < 0)
		return clyde_worker_err(w, errno,
					"cannot remove directory %s/%s",
					w->dir_path, sub);
	return 0;
}

/*
 * Unlink every entry of one directory in readdir order.  Whether readdir
 * returns every entry of a directory that shrinks under it is unspecified
 * (some network and FUSE filesystems skip some), so a pass that removed
 * something but left the count short of what directories 0..d should hold
 * is followed by another from the start; the final count then still tells
 * a missing file from one the walk skipped.
 */
static int delete_dir(struct clyde_worker *w, const struct files_params *p,
		      uint32_t d, uint64_t *t0, size_t *seen)
{
	/* Files 0 .. want-1 live in directories 0 .. d (i*ndirs/nfiles), of
	 * which the create made the first nmade. */
	size_t want = (size_t)(((uint64_t)d + 1) * p->nfiles + p->ndirs - 1) /
		      p->ndirs;
	char prefix[PREFIX_LEN];
	struct dirent *de;
	size_t removed;
	int err = 0;
	DIR *dir = open_dir(w, p, d, prefix, &err);

	if (!dir)
		return err;
	if (want > p->nmade)
		want = p->nmade;
	do {
		removed = 0;
		for (;;) {
			if (clyde_stopping(w->ctx)) {
				err = -EINTR;
				goto out;
			}
			if (stonewall(w))
				goto out;
			errno = 0;
			de = readdir(dir);
			if (!de) {
				if (errno)
					err = clyde_worker_err(
						w, errno, "cannot read %s/%s",
						w->dir_path, prefix);
				break;
			}
			if (!is_test_entry(p, de->d_name))
				continue;
			if (unlinkat(dirfd(dir), de->d_name, 0) < 0) {
				err = clyde_worker_err(w, errno,
						       "cannot delete %s/%s%s",
						       w->dir_path, prefix,
						       de->d_name);
				goto out;
			}
			if (p->fsync_each && fsync(dirfd(dir)) < 0) {
				err = clyde_worker_err(
					w, errno,
					"cannot fsync directory %s/%s",
					w->dir_path, prefix);
				goto out;
			}
			removed++;
			(*seen)++;
			*t0 = clyde_worker_op(w, *t0, 1);
		}
		if (err || !removed || *seen >= want)
			break;
		rewinddir(dir);
	} while (1);
out:
	closedir(dir);
	if (!err && p->ndirs > 1 && !w->span->stonewalled)
		err = remove_subdir(w, d);
	return err;
}

/* Remove subdirectory d of a shared directory unless another worker's
 * files are still in it (or it removed it already). */
static int shared_subdir_done(struct clyde_worker *w, uint32_t d)
{
	char sub[16];

	snprintf(sub, sizeof(sub), "%05" PRIu32, d);
	if (unlinkat(w->dirfd, sub, AT_REMOVEDIR) < 0 && errno != ENOTEMPTY &&
	    errno != EEXIST && errno != ENOENT)
		return clyde_worker_err(w, errno,
					"cannot remove directory %s/%s",
					w->dir_path, sub);
	return 0;
}

/* Untimed, after a stonewalled delete in a shared directory: this worker's
 * files that are left (the others' are theirs to remove). */
static int shared_delete_rest(struct clyde_worker *w,
			      const struct files_params *p,
			      const struct name_set *set)
{
	int err = 0;

	for (size_t i = 0; i < set->n && !err; i++) {
		char rel[REL_LEN];
		struct name_rec r;

		name_at(set, p, i, &r);
		rel_path(p, &r, rel);
		if (unlinkat(w->dirfd, rel, 0) < 0 && errno != ENOENT)
			err = clyde_worker_err(w, errno, "cannot delete %s/%s",
					       w->dir_path, rel);
	}
	for (uint32_t d = 0; d < p->ndirs && p->ndirs > 1 && !err; d++)
		err = shared_subdir_done(w, d);
	return err;
}

static int delete_random(struct clyde_worker *w, const struct files_params *p,
			 const struct name_set *set, const struct perm *pm,
			 uint64_t *t0)
{
	struct dir_slot slot = { -1, -1 };
	int err = 0;

	for (size_t i = 0; i < set->n && !err; i++) {
		char rel[REL_LEN];
		struct name_rec r;

		if (clyde_stopping(w->ctx)) {
			err = -EINTR;
			break;
		}
		if (stonewall(w))
			break;
		name_at(set, p, p->random ? perm_at(pm, i) : i, &r);
		rel_path(p, &r, rel);
		if (unlinkat(w->dirfd, rel, 0) < 0) {
			err = clyde_worker_err(w, errno, "cannot delete %s/%s",
					       w->dir_path, rel);
			break;
		}
		if (p->fsync_each)
			err = sync_dir(w, p, &slot, r.dir);
		if (!err)
			*t0 = clyde_worker_op(w, *t0, 1);
	}
	slot_close(&slot);
	/* A directory that is not empty now held a file nobody created;
	 * in a shared one, the last worker to empty it removes it. */
	for (uint32_t d = 0;
	     d < p->ndirs && p->ndirs > 1 && !err && !w->span->stonewalled; d++)
		err = p->shared ? shared_subdir_done(w, d) :
				  remove_subdir(w, d);
	return err;
}

/*
 * Untimed, after delete: the worker's directory must hold nothing but the
 * link target, which goes now.
 */
static int check_empty(struct clyde_worker *w, const struct files_params *p)
{
	char first[256] = "", prefix[PREFIX_LEN];
	size_t left = 0;
	struct dirent *de;
	int err = 0;
	struct files_params top = *p;
	DIR *dir;

	/* A shared directory holds the other workers' files: each of this
	 * worker's was unlinked by name, which is the check. */
	if (p->shared) {
		if (unlinkat(w->dirfd, p->link, 0) < 0 && errno != ENOENT)
			return clyde_worker_err(w, errno, "cannot delete %s/%s",
						w->dir_path, p->link);
		return 0;
	}

	top.ndirs = 1; /* the worker's own directory */
	dir = open_dir(w, &top, 0, prefix, &err);
	if (!dir)
		return err;
	while ((de = readdir(dir))) {
		if (!is_test_entry(&top, de->d_name))
			continue;
		if (!left++)
			snprintf(first, sizeof(first), "%s", de->d_name);
	}
	closedir(dir);
	if (left)
		return clyde_worker_err(
			w, 0, "%zu entries left in %s after delete (%s, ...)",
			left, w->dir_path, first);
	if (unlinkat(w->dirfd, p->link, 0) < 0 && errno != ENOENT)
		return clyde_worker_err(w, errno, "cannot delete %s/%s",
					w->dir_path, p->link);
	return 0;
}

int clyde_test_delete(struct clyde_worker *w)
{
	struct files_params p;
	struct name_set *set = NULL;
	struct perm pm = { 0 };
	size_t seen = 0;
	uint64_t t0;
	int err;

	err = get_params(w, &p);
	/* In a shared directory the sequential tests go by name too. */
	if (!err && (p.random || p.shared))
		err = take_names(w, &p, &set);
	if (!err && set && p.random)
		perm_init(w, set->n, &pm);
	t0 = clyde_worker_go(w, err);
	if (err)
		return err;

	if (set) {
		err = delete_random(w, &p, set, &pm, &t0);
	} else {
		for (uint32_t d = 0;
		     d < p.ndirs && !err && !w->span->stonewalled; d++)
			err = delete_dir(w, &p, d, &t0, &seen);
		if (!err && !w->span->stonewalled && seen != p.nmade)
			err = count_err(w, "deleted", seen, p.nmade);
	}
	if (!err && syncfs(w->dirfd) < 0)
		err = clyde_worker_err(w, errno, "cannot syncfs %s",
				       w->dir_path);
	clyde_worker_end(w);
	/* Stonewalled: what is left goes now, untimed. */
	if (!err && w->span->stonewalled)
		err = p.shared ?
			      shared_delete_rest(w, &p, set) :
			      clyde_rm_contents(w->ctx, w->dirfd, w->dir_path);
	if (!err)
		err = check_empty(w, &p);
	if (!err && set)
		free_state(w);
	return err;
}

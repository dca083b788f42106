/*
 * Tree workloads: size distributions, presets, reproducible plans, and the
 * phases on a real directory, each checked against an independent walk
 * (nftw) of what is on disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "workloads/tree.h"

/* ---- an independent count of a tree (nftw, no symlinks followed) ----- */

struct census {
	uint64_t entries, files, dirs, symlinks, bytes;
};

static struct census g_census;

static int census_cb(const char *path, const struct stat *st, int flag,
		     struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	g_census.entries++;
	if (S_ISREG(st->st_mode)) {
		g_census.files++;
		g_census.bytes += (uint64_t)st->st_size;
	} else if (S_ISDIR(st->st_mode)) {
		g_census.dirs++;
	} else if (S_ISLNK(st->st_mode)) {
		g_census.symlinks++;
	}
	return 0;
}

static struct census census(const char *root)
{
	memset(&g_census, 0, sizeof(g_census));
	nftw(root, census_cb, 64, FTW_PHYS);
	return g_census;
}

/* ---- the visit hook: which worker counted which inode ----------------- */

struct seen {
	pthread_mutex_t lock;
	uint64_t *ino;
	unsigned *worker;
	size_t n, cap;
	unsigned per_worker[16];
	/* Vanish test: the first "v*" visited removes its siblings. */
	const char *vanish_dir;
	int vanished_done;
};

static void visit(void *arg, unsigned worker, const struct stat *st,
		  const char *name)
{
	struct seen *s = arg;

	pthread_mutex_lock(&s->lock);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->ino = realloc(s->ino, s->cap * sizeof(*s->ino));
		s->worker = realloc(s->worker, s->cap * sizeof(*s->worker));
	}
	s->ino[s->n] = (uint64_t)st->st_ino;
	s->worker[s->n] = worker;
	s->n++;
	if (worker < 16)
		s->per_worker[worker]++;
	if (s->vanish_dir && name[0] == 'v' && name[1] >= '0' &&
	    name[1] <= '9' && !s->vanished_done) {
		char p[4096];

		s->vanished_done = 1;
		for (int i = 0; i < 50; i++) {
			snprintf(p, sizeof(p), "%s/v%02d", s->vanish_dir, i);
			if (strcmp(name, p + strlen(s->vanish_dir) + 1))
				unlink(p);
		}
	}
	pthread_mutex_unlock(&s->lock);
}

static void seen_reset(struct seen *s)
{
	s->n = 0;
	memset(s->per_worker, 0, sizeof(s->per_worker));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* All inodes of a tree, sorted (nftw). */
static uint64_t *g_inos;
static size_t g_ninos;

static int ino_cb(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	g_inos[g_ninos++] = (uint64_t)st->st_ino;
	return 0;
}

/* ---- size distributions ------------------------------------------------ */

static void test_size_dist(void)
{
	struct clyde_size_dist d;
	struct clyde_rng rng;
	char err[256], buf[128];
	uint64_t lo = UINT64_MAX, hi = 0;

	CHECK(clyde_size_dist_parse("fixed:4k", &d, err, sizeof(err)) == 0);
	CHECK(d.kind == CLYDE_SIZE_FIXED && d.a == 4096);
	CHECK_STR(clyde_size_dist_format(buf, sizeof(buf), &d), "fixed:4k");
	CHECK(clyde_size_dist_parse("uniform:10-20", &d, err, sizeof(err)) ==
	      0);
	clyde_rng_seed(&rng, 1);
	for (int i = 0; i < 10000; i++) {
		uint64_t v = clyde_size_dist_sample(&d, &rng);

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	CHECK(lo == 10 && hi == 20);
	CHECK_STR(clyde_size_dist_format(buf, sizeof(buf), &d),
		  "uniform:10-20");
	CHECK(clyde_size_dist_parse("lognormal:32k,1.5,1m", &d, err,
				    sizeof(err)) == 0);
	CHECK(d.kind == CLYDE_SIZE_LOGNORMAL && d.a == 32768 &&
	      fabs(d.sigma - 1.5) < 1e-12 && d.cap == 1048576);
	CHECK_STR(clyde_size_dist_format(buf, sizeof(buf), &d),
		  "lognormal:32k,1.50,1m");
	hi = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t v = clyde_size_dist_sample(&d, &rng);

		hi = v > hi ? v : hi;
	}
	CHECK(hi == 1048576); /* the cap is reached and never passed */
	CHECK(clyde_size_dist_parse("lognormal:32k,1.5", &d, err,
				    sizeof(err)) == 0);
	CHECK(d.cap == CLYDE_SIZE_DEFAULT_CAP);

	CHECK(clyde_size_dist_parse("uniform:20-10", &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(clyde_size_dist_parse("fixed:", &d, err, sizeof(err)) == -EINVAL);
	CHECK(clyde_size_dist_parse("fixed:4x", &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(clyde_size_dist_parse("lognormal:32k", &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(clyde_size_dist_parse("lognormal:32k,-1", &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(clyde_size_dist_parse("lognormal:0,1", &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(clyde_size_dist_parse("normal:1,2", &d, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(strstr(err, "normal:1,2") != NULL);
}

/* The presets have the means the issue quotes, in theory and in a sample. */
static void test_presets(void)
{
	struct clyde_tree_shape s;
	struct clyde_rng rng;
	const struct {
		const char *name;
		double mean, fpd;
	} want[] = { { "home", 120000, 4.3 }, { "mail", 53000, 34 } };

	for (int i = 0; i < 2; i++) {
		double sum = 0;
		int n = 400000;

		CHECK(clyde_tree_preset(want[i].name, 1000, &s) == 0);
		CHECK(s.files == 1000 && s.files_per_dir == want[i].fpd);
		CHECK(fabs(clyde_size_dist_mean(&s.size) - want[i].mean) <
		      0.01 * want[i].mean);
		clyde_rng_seed(&rng, 99);
		for (int k = 0; k < n; k++)
			sum += (double)clyde_size_dist_sample(&s.size, &rng);
		CHECK(fabs(sum / n - want[i].mean) < 0.05 * want[i].mean);
	}
	CHECK(clyde_tree_preset("nope", 1, &s) == -EINVAL);
}

/* ---- plans --------------------------------------------------------------- */

static bool plans_equal(const struct clyde_tree_plan *a,
			const struct clyde_tree_plan *b)
{
	size_t n = a->ndirs * sizeof(uint32_t);

	return a->ndirs == b->ndirs && a->nfiles == b->nfiles &&
	       a->total_bytes == b->total_bytes &&
	       !memcmp(a->parent, b->parent, n) &&
	       !memcmp(a->first_child, b->first_child, n) &&
	       !memcmp(a->next_sibling, b->next_sibling, n) &&
	       !memcmp(a->nfiles_in, b->nfiles_in, n);
}

static void test_plan(struct clyde_ctx *ctx)
{
	struct clyde_tree_shape s;
	struct clyde_tree_plan a, b, c;
	uint64_t files = 0;
	unsigned *level, *nchild, maxlevel = 0, maxchild = 0;
	bool parents_ok = true;

	clyde_tree_preset("home", 20000, &s);
	CHECK(clyde_tree_plan_build(ctx, &s, 42, &a) == 0);
	CHECK(clyde_tree_plan_build(ctx, &s, 42, &b) == 0);
	CHECK(clyde_tree_plan_build(ctx, &s, 43, &c) == 0);
	CHECK(plans_equal(&a, &b));
	CHECK(!plans_equal(&a, &c));
	/* 20000 / 4.3 = 4651 directories, the files all placed. */
	CHECK(a.ndirs == 4651);
	CHECK(a.nfiles == 20000);
	for (uint32_t d = 0; d < a.ndirs; d++)
		files += a.nfiles_in[d];
	CHECK(files == 20000);
	/* Mean size within 10% of the preset's 120 KB. */
	CHECK(fabs((double)a.total_bytes / 20000 - 120000) < 12000);

	level = calloc(a.ndirs, sizeof(*level));
	nchild = calloc(a.ndirs, sizeof(*nchild));
	for (uint32_t d = 1; d < a.ndirs; d++) {
		if (a.parent[d] >= d)
			parents_ok = false;
		level[d] = level[a.parent[d]] + 1;
		nchild[a.parent[d]]++;
		maxlevel = level[d] > maxlevel ? level[d] : maxlevel;
	}
	for (uint32_t d = 0; d < a.ndirs; d++)
		maxchild = nchild[d] > maxchild ? nchild[d] : maxchild;
	CHECK(parents_ok);
	CHECK(maxlevel <= s.depth && maxlevel == a.depth);
	CHECK(maxchild <= a.fanout);
	/* The child lists hold every directory once. */
	{
		uint64_t linked = 0;

		for (uint32_t d = 0; d < a.ndirs; d++)
			for (uint32_t k = a.first_child[d]; k != UINT32_MAX;
			     k = a.next_sibling[k]) {
				linked++;
				if (a.parent[k] != d)
					parents_ok = false;
			}
		CHECK(linked == a.ndirs - 1 && parents_ok);
	}
	free(level);
	free(nchild);
	clyde_tree_plan_release(&a);
	clyde_tree_plan_release(&b);
	clyde_tree_plan_release(&c);

	/* Explicit shapes: exact counts, and impossible ones refused. */
	memset(&s, 0, sizeof(s));
	s.files = 100;
	s.dirs = 7;
	s.depth = 2;
	s.fanout = 2;
	s.size.kind = CLYDE_SIZE_FIXED;
	s.size.a = 10;
	CHECK(clyde_tree_plan_build(ctx, &s, 1, &a) == 0);
	CHECK(a.ndirs == 7 && a.total_bytes == 1000 && a.depth == 2);
	clyde_tree_plan_release(&a);
	s.dirs = 8; /* 1 + 2 + 4 = 7 at most */
	CHECK(clyde_tree_plan_build(ctx, &s, 1, &a) == -EINVAL);
	CHECK(strstr(clyde_errmsg(ctx), "do not fit") != NULL);
	clyde_err_clear(ctx);
	s.dirs = 1;
	s.depth = 0;
	CHECK(clyde_tree_plan_build(ctx, &s, 1, &a) == 0);
	CHECK(a.ndirs == 1 && a.nfiles_in[0] == 100);
	clyde_tree_plan_release(&a);
}

/* ---- phases on disk ------------------------------------------------------ */

static struct clyde_tree_plan make_plan(struct clyde_ctx *ctx, uint64_t files,
					uint64_t dirs, unsigned depth,
					uint64_t seed)
{
	struct clyde_tree_shape s = { 0 };
	struct clyde_tree_plan p;

	s.files = files;
	s.dirs = dirs;
	s.depth = depth;
	s.size.kind = CLYDE_SIZE_UNIFORM;
	s.size.a = 0;
	s.size.b = 20000;
	if (clyde_tree_plan_build(ctx, &s, seed, &p) < 0)
		memset(&p, 0, sizeof(p));
	return p;
}

/* Every file of the plan is where the plan says, with its size. */
static bool matches_plan(const struct clyde_tree_plan *p, const char *root)
{
	for (uint32_t d = 0; d < p->ndirs; d++) {
		char path[8192], rel[2048] = "";
		uint32_t chain[CLYDE_TREE_MAX_DEPTH + 1], n = 0;
		struct clyde_rng rng;
		size_t used = 0;

		for (uint32_t x = d; x != 0; x = p->parent[x])
			chain[n++] = x;
		while (n-- > 0)
			used += (size_t)snprintf(rel + used, sizeof(rel) - used,
						 "/d%u", chain[n]);
		clyde_tree_plan_dir_rng(p, d, &rng);
		for (uint32_t k = 0; k < p->nfiles_in[d]; k++) {
			struct stat st;
			uint64_t size = clyde_size_dist_sample(&p->size, &rng);

			snprintf(path, sizeof(path), "%s%s/f%u", root, rel, k);
			if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
			    (uint64_t)st.st_size != size)
				return false;
		}
	}
	return true;
}

static void test_phases(struct clyde_ctx *ctx, const char *tmp)
{
	struct clyde_tree_plan p = make_plan(ctx, 3000, 400, 6, 5);
	struct clyde_tree_phase_result r = { 0 };
	struct seen seen = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct clyde_walk_opts o = { .workers = 1,
				     .visit = visit,
				     .visit_arg = &seen };
	char root[4096];
	struct census c;
	int dfd = open(tmp, O_RDONLY | O_DIRECTORY);

	snprintf(root, sizeof(root), "%s/tree", tmp);
	CHECK(p.ndirs == 400);
	CHECK(clyde_tree_extract(ctx, &p, dfd, "tree", root, 5, false, false,
				 4096, &r) == 0);
	c = census(root);
	CHECK(c.files == 3000 && c.dirs == 400 && c.entries == 3400);
	CHECK(r.entries == c.entries && r.files == c.files &&
	      r.dirs == c.dirs && r.bytes == c.bytes);
	CHECK(c.bytes == p.total_bytes);
	CHECK(r.lat[CLYDE_TREE_OP_CREATE] &&
	      clyde_hist_count(r.lat[CLYDE_TREE_OP_CREATE]) == 3400);
	CHECK(matches_plan(&p, root));
	clyde_tree_phase_release(&r);

	/* Extracting over an existing tree is an error, never a merge. */
	CHECK(clyde_tree_extract(ctx, &p, dfd, "tree", root, 5, false, false,
				 4096, &r) == -EEXIST);
	clyde_err_clear(ctx);
	clyde_tree_phase_release(&r);

	/* Stat walk: every entry once, no data read. */
	CHECK(clyde_tree_walk(ctx, AT_FDCWD, root, &o, &r) == 0);
	CHECK(r.entries == c.entries && r.files == c.files &&
	      r.dirs == c.dirs && r.bytes == 0);
	CHECK(seen.n == c.entries);
	CHECK(r.lat[CLYDE_TREE_OP_STAT] &&
	      clyde_hist_count(r.lat[CLYDE_TREE_OP_STAT]) == c.entries);
	CHECK(r.lat[CLYDE_TREE_OP_READ] == NULL);
	CHECK(r.nworkers == 1 && r.workers[0].entries == c.entries);
	clyde_tree_phase_release(&r);

	/* Read walk: exactly the sum of the sizes. */
	seen_reset(&seen);
	o.read = true;
	o.io_size = 3000; /* not a divisor of most sizes */
	CHECK(clyde_tree_walk(ctx, AT_FDCWD, root, &o, &r) == 0);
	CHECK(r.entries == c.entries && r.bytes == c.bytes);
	/* Every file and every directory (the root included) opened. */
	CHECK(r.lat[CLYDE_TREE_OP_OPEN] &&
	      clyde_hist_count(r.lat[CLYDE_TREE_OP_OPEN]) == c.files + c.dirs);
	clyde_tree_phase_release(&r);

	/* Parallel walks: every inode exactly once over all workers, and
	 * the per-worker counts add up. */
	g_inos = calloc(c.entries + 16, sizeof(*g_inos));
	g_ninos = 0;
	nftw(root, ino_cb, 64, FTW_PHYS);
	qsort(g_inos, g_ninos, sizeof(*g_inos), cmp_u64);
	for (unsigned k = 2; k <= 8; k *= 2) {
		uint64_t sum = 0, busy = 0;
		bool same = true;

		seen_reset(&seen);
		o.workers = k;
		o.read = k == 4;
		CHECK(clyde_tree_walk(ctx, AT_FDCWD, root, &o, &r) == 0);
		CHECK(r.entries == c.entries && r.files == c.files &&
		      r.dirs == c.dirs);
		CHECK(r.bytes == (o.read ? c.bytes : 0));
		CHECK(r.nworkers == k);
		for (unsigned i = 0; i < k; i++) {
			sum += r.workers[i].entries;
			CHECK(r.workers[i].entries == seen.per_worker[i]);
			if (r.workers[i].elapsed_ns)
				busy++;
		}
		CHECK(sum == c.entries);
		CHECK(seen.n == g_ninos);
		qsort(seen.ino, seen.n, sizeof(*seen.ino), cmp_u64);
		for (size_t i = 0; i < seen.n && i < g_ninos; i++)
			if (seen.ino[i] != g_inos[i])
				same = false;
		CHECK(same);	  /* no overlap (a duplicate), no gap */
		CHECK(busy >= 2); /* the work was shared */
		clyde_tree_phase_release(&r);
	}
	free(g_inos);

	/* Delete: everything, counted like a walk. */
	CHECK(clyde_tree_delete(ctx, dfd, "tree", root, &r) == 0);
	CHECK(r.entries == c.entries && r.files == c.files && r.dirs == c.dirs);
	CHECK(r.lat[CLYDE_TREE_OP_UNLINK] &&
	      clyde_hist_count(r.lat[CLYDE_TREE_OP_UNLINK]) == c.entries);
	CHECK(faccessat(dfd, "tree", F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	      errno == ENOENT);
	clyde_tree_phase_release(&r);

	close(dfd);
	clyde_tree_plan_release(&p);
	free(seen.ino);
	free(seen.worker);
}

/* Symlink loops, a vanished entry and an interruption: counted, never
 * trapping the walk. */
static void test_odd_trees(struct clyde_ctx *ctx, const char *tmp)
{
	struct seen seen = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct clyde_walk_opts o = {
		.workers = 1, .read = true, .visit = visit, .visit_arg = &seen
	};
	struct clyde_tree_phase_result r = { 0 };
	char root[2048], p[4096];
	struct census c;
	volatile sig_atomic_t stop = 0;

	snprintf(root, sizeof(root), "%s/odd", tmp);
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/sub", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sub/self", root);
	CHECK(symlink(".", p) == 0);
	snprintf(p, sizeof(p), "%s/sub/up", root);
	CHECK(symlink("..", p) == 0);
	snprintf(p, sizeof(p), "%s/a", root);
	CHECK(symlink("b", p) == 0);
	snprintf(p, sizeof(p), "%s/b", root);
	CHECK(symlink("a", p) == 0);
	snprintf(p, sizeof(p), "%s/sub/data", root);
	{
		FILE *f = fopen(p, "w");

		fputs("0123456789", f);
		fclose(f);
	}
	c = census(root);
	for (unsigned k = 1; k <= 3; k += 2) {
		o.workers = k;
		CHECK(clyde_tree_walk(ctx, AT_FDCWD, root, &o, &r) == 0);
		CHECK(r.entries == c.entries && r.symlinks == 4 &&
		      r.symlinks == c.symlinks && r.bytes == 10);
		CHECK(r.errors.loops == 0 && r.errors.other == 0);
		clyde_tree_phase_release(&r);
	}

	/* Files removed after readdir listed them: counted as vanished. */
	snprintf(p, sizeof(p), "%s/van", root);
	mkdir(p, 0755);
	for (int i = 0; i < 50; i++) {
		char f[4200];

		snprintf(f, sizeof(f), "%s/v%02d", p, i);
		close(open(f, O_CREAT | O_WRONLY, 0644));
	}
	seen_reset(&seen);
	seen.vanish_dir = p;
	o.workers = 1;
	CHECK(clyde_tree_walk(ctx, AT_FDCWD, root, &o, &r) == 0);
	CHECK(r.errors.vanished == 49);
	CHECK(r.entries == c.entries + 1 + 1); /* van and the first v */
	CHECK(strstr(r.first_error, "van/v") != NULL);
	clyde_tree_phase_release(&r);
	seen.vanish_dir = NULL;

	/* A root that is not there is fatal, with a message. */
	CHECK(clyde_tree_walk(ctx, AT_FDCWD, "/nonexistent/clyde", &o, &r) ==
	      -ENOENT);
	CHECK(strstr(clyde_errmsg(ctx), "/nonexistent/clyde") != NULL);
	clyde_err_clear(ctx);
	clyde_tree_phase_release(&r);

	/* An interrupted walk stops with -EINTR. */
	stop = 1;
	ctx->interrupted = &stop;
	o.workers = 2;
	CHECK(clyde_tree_walk(ctx, AT_FDCWD, root, &o, &r) == -EINTR);
	clyde_tree_phase_release(&r);
	ctx->interrupted = NULL;

	free(seen.ino);
	free(seen.worker);
}

/* Permission denied (only as a user: root reads everything). */
static void test_denied(struct clyde_ctx *ctx, const char *tmp)
{
	struct clyde_walk_opts o = { .workers = 1, .read = true };
	struct clyde_tree_phase_result r = { 0 };
	char root[4096], p[4200];

	if (geteuid() == 0) {
		printf("# permission test skipped as root (see "
		       "t_tree_existing.sh)\n");
		return;
	}
	snprintf(root, sizeof(root), "%s/denied", tmp);
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/closed", root);
	mkdir(p, 0000);
	snprintf(p, sizeof(p), "%s/secret", root);
	close(open(p, O_CREAT | O_WRONLY, 0000));
	CHECK(clyde_tree_walk(ctx, AT_FDCWD, root, &o, &r) == 0);
	CHECK(r.entries == 3 && r.errors.permission_denied == 2);
	clyde_tree_phase_release(&r);
	snprintf(p, sizeof(p), "%s/closed", root);
	chmod(p, 0755);
}

static int rm_cb(const char *path, const struct stat *st, int flag,
		 struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int main(void)
{
	struct clyde_ctx ctx;
	char tmp[] = "/tmp/clyde-test-tree.XXXXXX";

	clyde_ctx_init(&ctx);
	test_size_dist();
	test_presets();
	test_plan(&ctx);
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_phases(&ctx, tmp);
	test_odd_trees(&ctx, tmp);
	test_denied(&ctx, tmp);
	nftw(tmp, rm_cb, 64, FTW_PHYS | FTW_DEPTH);
	clyde_ctx_release(&ctx);
	return tap_done();
}

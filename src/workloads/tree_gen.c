/*
 * Generated trees: size distributions, presets, the plan of a tree (which
 * directory hangs where, how many files each holds) and the extract phase
 * that creates it on disk.
 */
#include "workloads/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/size.h"
#include "io/cache.h"
#include "io/pattern.h"
#include "io/verify.h"

#define NONE UINT32_MAX

/* ---- size distributions ------------------------------------------------ */

static int parse_size(const char *s, uint64_t *v)
{
	return clyde_size_parse(s, "kmgt", 10, v);
}

/* Copy s[0..n) into buf (NUL-terminated) and parse it as a size. */
static int parse_size_n(const char *s, size_t n, uint64_t *v)
{
	char buf[64];

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return parse_size(buf, v);
}

int clyde_size_dist_parse(const char *s, struct clyde_size_dist *d, char *err,
			  size_t errlen)
{
	struct clyde_size_dist r = { 0 };
	const char *arg;

	if (!strncmp(s, "fixed:", 6)) {
		r.kind = CLYDE_SIZE_FIXED;
		if (parse_size(s + 6, &r.a) < 0)
			goto bad;
		r.b = r.a;
	} else if (!strncmp(s, "uniform:", 8)) {
		const char *dash;

		arg = s + 8;
		dash = strchr(arg, '-');
		r.kind = CLYDE_SIZE_UNIFORM;
		if (!dash ||
		    parse_size_n(arg, (size_t)(dash - arg), &r.a) < 0 ||
		    parse_size(dash + 1, &r.b) < 0)
			goto bad;
		if (r.a > r.b) {
			snprintf(err, errlen,
				 "--size \"%s\": the lower bound is above the "
				 "upper one",
				 s);
			return -EINVAL;
		}
	} else if (!strncmp(s, "lognormal:", 10)) {
		const char *c1, *c2;
		char num[64], *end;
		size_t n;

		arg = s + 10;
		r.kind = CLYDE_SIZE_LOGNORMAL;
		c1 = strchr(arg, ',');
		if (!c1 || parse_size_n(arg, (size_t)(c1 - arg), &r.a) < 0)
			goto bad;
		c2 = strchr(c1 + 1, ',');
		n = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
		if (n == 0 || n >= sizeof(num))
			goto bad;
		memcpy(num, c1 + 1, n);
		num[n] = '\0';
		errno = 0;
		r.sigma = strtod(num, &end);
		if (errno || *end || num[0] == '-' || num[0] == '+' ||
		    !(r.sigma >= 0 && r.sigma <= 10))
			goto bad;
		r.cap = CLYDE_SIZE_DEFAULT_CAP;
		if (c2 && parse_size(c2 + 1, &r.cap) < 0)
			goto bad;
		if (r.a == 0 || r.cap < r.a) {
			snprintf(err, errlen,
				 "--size \"%s\": the median must be above 0 "
				 "and not above the cap",
				 s);
			return -EINVAL;
		}
	} else {
		goto bad;
	}
	*d = r;
	return 0;
bad:
	snprintf(err, errlen,
		 "--size \"%s\": want fixed:S, uniform:A-B or "
		 "lognormal:MEDIAN,SIGMA[,CAP] (sizes with k, m, g suffixes; "
		 "SIGMA from 0 to 10)",
		 s);
	return -EINVAL;
}

/* Uniform in (0, 1]: never 0, so that log() is finite. */
static double unit_open(struct clyde_rng *rng)
{
	return ((double)(clyde_rng_next(rng) >> 11) + 1.0) / 9007199254740992.0;
}

uint64_t clyde_size_dist_sample(const struct clyde_size_dist *d,
				struct clyde_rng *rng)
{
	double z, v;

	switch (d->kind) {
	case CLYDE_SIZE_FIXED:
		return d->a;
	case CLYDE_SIZE_UNIFORM:
		if (d->b - d->a == UINT64_MAX)
			return clyde_rng_next(rng);
		return d->a + clyde_rng_below(rng, d->b - d->a + 1);
	case CLYDE_SIZE_LOGNORMAL:
		/* Box-Muller: one standard normal from two uniforms (the
		 * second of the pair is not kept, so every draw uses exactly
		 * two numbers and streams stay easy to reason about). */
		z = sqrt(-2.0 * log(unit_open(rng))) *
		    cos(2.0 * M_PI * unit_open(rng));
		v = (double)d->a * exp(d->sigma * z);
		if (!(v < (double)d->cap))
			return d->cap;
		return (uint64_t)llround(v);
	}
	return 0;
}

static double normal_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

double clyde_size_dist_mean(const struct clyde_size_dist *d)
{
	double mu, s, c;

	switch (d->kind) {
	case CLYDE_SIZE_FIXED:
		return (double)d->a;
	case CLYDE_SIZE_UNIFORM:
		return ((double)d->a + (double)d->b) / 2;
	case CLYDE_SIZE_LOGNORMAL:
		mu = log((double)d->a);
		s = d->sigma;
		c = log((double)d->cap);
		if (s == 0)
			return (double)d->a;
		/* E[min(X, cap)] of a lognormal X. */
		return exp(mu + s * s / 2) * normal_cdf((c - mu - s * s) / s) +
		       (double)d->cap * (1 - normal_cdf((c - mu) / s));
	}
	return 0;
}

/* ---- presets ------------------------------------------------------------ */

/*
 * The two data sets administrators quoted: a home set of ~500k files in
 * ~115k directories (~60 GB: mean ~120 KB) and a mail set of ~750k files
 * in ~22k directories (~40 GB: mean ~53 KB).  The medians are chosen so
 * that the capped lognormal has those means (clyde_size_dist_mean()).
 */
int clyde_tree_preset(const char *name, uint64_t files,
		      struct clyde_tree_shape *s)
{
	memset(s, 0, sizeof(*s));
	s->files = files;
	s->size.kind = CLYDE_SIZE_LOGNORMAL;
	if (!strcmp(name, "home")) {
		s->files_per_dir = 4.3;
		s->depth = 8;
		s->size.a = 33373;
		s->size.sigma = 1.6;
		s->size.cap = 64ull << 20;
	} else if (!strcmp(name, "mail")) {
		s->files_per_dir = 34;
		s->depth = 3;
		s->size.a = 22767;
		s->size.sigma = 1.3;
		s->size.cap = 32ull << 20;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* ---- the plan ----------------------------------------------------------- */

/* How many directories a tree of this fanout and depth holds at most
 * (saturating at UINT64_MAX). */
static uint64_t capacity(uint64_t fanout, unsigned depth)
{
	uint64_t total = 1, level = 1;

	for (unsigned i = 0; i < depth; i++) {
		if (fanout && level > UINT64_MAX / fanout)
			return UINT64_MAX;
		level *= fanout;
		if (total > UINT64_MAX - level)
			return UINT64_MAX;
		total += level;
	}
	return total;
}

void clyde_tree_plan_release(struct clyde_tree_plan *p)
{
	free(p->parent);
	free(p->first_child);
	free(p->next_sibling);
	free(p->nfiles_in);
	memset(p, 0, sizeof(*p));
}

void clyde_tree_plan_dir_rng(const struct clyde_tree_plan *p, uint32_t d,
			     struct clyde_rng *rng)
{
	clyde_rng_fork(&p->sizes_rng, d, rng);
}

int clyde_tree_plan_build(struct clyde_ctx *ctx,
			  const struct clyde_tree_shape *s, uint64_t seed,
			  struct clyde_tree_plan *p)
{
	struct clyde_rng base, rng;
	uint32_t *cand = NULL, *nchild = NULL, *last = NULL;
	unsigned char *level = NULL;
	uint64_t ndirs = s->dirs, fanout = s->fanout;
	uint32_t ncand = 0;

	memset(p, 0, sizeof(*p));
	if (!ndirs) {
		double d;

		if (!(s->files_per_dir > 0))
			return clyde_err(ctx, 0,
					 "files per directory must be above 0"),
			       -EINVAL;
		d = llround((double)s->files / s->files_per_dir);
		ndirs = d < 1 ? 1 : (uint64_t)d;
	}
	if (ndirs > CLYDE_TREE_MAX_DIRS)
		return clyde_err(ctx, 0, "%llu directories: at most %u",
				 (unsigned long long)ndirs,
				 CLYDE_TREE_MAX_DIRS),
		       -EINVAL;
	if (s->depth > CLYDE_TREE_MAX_DEPTH)
		return clyde_err(ctx, 0, "depth %u: at most %u", s->depth,
				 CLYDE_TREE_MAX_DEPTH),
		       -EINVAL;
	if (!fanout) {
		uint64_t f = 1;

		while (f < ndirs && capacity(f, s->depth) < ndirs)
			f++;
		/* Twice the least that fits leaves room for an irregular
		 * tree instead of a full one. */
		fanout = f * 2 < 4 ? 4 : f * 2;
	}
	if (ndirs > 1 && capacity(fanout, s->depth) < ndirs)
		return clyde_err(ctx, 0,
				 "%llu directories do not fit in depth %u "
				 "with at most %llu subdirectories each",
				 (unsigned long long)ndirs, s->depth,
				 (unsigned long long)fanout),
		       -EINVAL;

	p->ndirs = (uint32_t)ndirs;
	p->nfiles = s->files;
	p->size = s->size;
	p->fanout = (unsigned)(fanout > UINT32_MAX ? UINT32_MAX : fanout);
	p->parent = malloc(ndirs * sizeof(uint32_t));
	p->first_child = malloc(ndirs * sizeof(uint32_t));
	p->next_sibling = malloc(ndirs * sizeof(uint32_t));
	p->nfiles_in = calloc(ndirs, sizeof(uint32_t));
	cand = malloc(ndirs * sizeof(uint32_t));
	nchild = calloc(ndirs, sizeof(uint32_t));
	last = malloc(ndirs * sizeof(uint32_t));
	level = malloc(ndirs);
	if (!p->parent || !p->first_child || !p->next_sibling ||
	    !p->nfiles_in || !cand || !nchild || !last || !level) {
		free(cand);
		free(nchild);
		free(last);
		free(level);
		clyde_tree_plan_release(p);
		return clyde_err(ctx, ENOMEM, "tree plan of %llu directories",
				 (unsigned long long)ndirs);
	}

	clyde_rng_seed(&base, seed);
	clyde_rng_fork(&base, 0, &rng);
	clyde_rng_fork(&base, 1, &p->sizes_rng);

	/* Each new directory hangs below a random directory that still has
	 * room (not at the deepest level, fewer than fanout children). */
	p->parent[0] = NONE;
	p->first_child[0] = p->next_sibling[0] = last[0] = NONE;
	level[0] = 0;
	if (s->depth > 0)
		cand[ncand++] = 0;
	for (uint32_t i = 1; i < p->ndirs; i++) {
		uint32_t j = (uint32_t)clyde_rng_below(&rng, ncand);
		uint32_t par = cand[j];

		p->parent[i] = par;
		p->first_child[i] = p->next_sibling[i] = last[i] = NONE;
		if (last[par] == NONE)
			p->first_child[par] = i;
		else
			p->next_sibling[last[par]] = i;
		last[par] = i;
		level[i] = (unsigned char)(level[par] + 1);
		if (level[i] > p->depth)
			p->depth = level[i];
		if (++nchild[par] >= fanout)
			cand[j] = cand[--ncand];
		if (level[i] < s->depth)
			cand[ncand++] = i;
	}
	/* Files land in uniformly chosen directories: counts per directory
	 * vary as in real trees, the mean is exactly files / dirs. */
	for (uint64_t k = 0; k < p->nfiles; k++)
		p->nfiles_in[clyde_rng_below(&rng, p->ndirs)]++;
	for (uint32_t d = 0; d < p->ndirs; d++) {
		struct clyde_rng r;

		clyde_tree_plan_dir_rng(p, d, &r);
		for (uint32_t k = 0; k < p->nfiles_in[d]; k++)
			p->total_bytes += clyde_size_dist_sample(&p->size, &r);
	}
	free(cand);
	free(nchild);
	free(last);
	free(level);
	return 0;
}

/* ---- extract ------------------------------------------------------------ */

struct xframe {
	uint32_t dir;
	int fd;
	uint32_t next_child;
};

struct extract {
	struct clyde_ctx *ctx;
	const struct clyde_tree_plan *p;
	const char *what;
	struct clyde_tree_phase_result *r;
	struct clyde_pattern_gen pat;
	unsigned char *buf;
	size_t io_size;
	bool verify; /* stamp every block (io/verify.h) */
	uint64_t seed;
};

/* The path of directory d below the root ("d3/d17"), for messages. */
static void dir_path(const struct clyde_tree_plan *p, uint32_t d, char *buf,
		     size_t len)
{
	uint32_t chain[CLYDE_TREE_MAX_DEPTH + 1];
	unsigned n = 0;
	size_t used = 0;

	buf[0] = '\0';
	while (d != 0 && d != NONE && n <= CLYDE_TREE_MAX_DEPTH) {
		chain[n++] = d;
		d = p->parent[d];
	}
	while (n-- > 0 && used < len) {
		int w = snprintf(buf + used, len - used, "/d%u", chain[n]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static int x_err(struct extract *x, uint32_t d, int e, const char *op,
		 const char *name)
{
	char path[1024];

	dir_path(x->p, d, path, sizeof(path));
	return clyde_err(x->ctx, e, "extract: %s %s%s/%s", op, x->what, path,
			 name);
}

static uint64_t time_op(struct extract *x, enum clyde_tree_op op, uint64_t t0)
{
	uint64_t now = clyde_now(x->ctx);

	clyde_hist_record(x->r->lat[op], now - t0);
	return now;
}

static int write_files(struct extract *x, uint32_t d, int dirfd)
{
	struct clyde_rng rng;
	char name[32];

	clyde_tree_plan_dir_rng(x->p, d, &rng);
	for (uint32_t k = 0; k < x->p->nfiles_in[d]; k++) {
		uint64_t size = clyde_size_dist_sample(&x->p->size, &rng);
		uint64_t t0, left = size;
		int fd;

		if (clyde_stopping(x->ctx))
			return -EINTR;
		snprintf(name, sizeof(name), "f%u", k);
		t0 = clyde_now(x->ctx);
		fd = openat(dirfd, name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0644);
		if (fd < 0)
			return x_err(x, d, errno, "create", name);
		time_op(x, CLYDE_TREE_OP_CREATE, t0);
		while (left) {
			size_t n = left < x->io_size ? (size_t)left :
						       x->io_size;
			ssize_t w;

			clyde_pattern_fill(&x->pat, x->buf, n);
			if (x->verify)
				clyde_verify_stamp(
					x->buf, n,
					clyde_verify_unit(x->io_size),
					size - left, CLYDE_TREE_VERIFY_GEN,
					x->seed);
			w = write(fd, x->buf, n);
			if (w < 0 && errno == EINTR && !clyde_stopping(x->ctx))
				continue;
			if (w <= 0) {
				int e = w < 0 ? errno : ENOSPC;

				close(fd);
				return x_err(x, d, e, "write", name);
			}
			left -= (uint64_t)w;
			if (left && clyde_stopping(x->ctx)) {
				close(fd);
				return -EINTR;
			}
		}
		if (close(fd) < 0)
			return x_err(x, d, errno, "close", name);
		x->r->entries++;
		x->r->files++;
		x->r->bytes += size;
	}
	return 0;
}

static int mkdir_open(struct extract *x, int parentfd, uint32_t parent,
		      const char *name, int *fd)
{
	uint64_t t0 = clyde_now(x->ctx);

	if (mkdirat(parentfd, name, 0755) < 0)
		return x_err(x, parent, errno, "mkdir", name);
	time_op(x, CLYDE_TREE_OP_CREATE, t0);
	*fd = openat(parentfd, name,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return x_err(x, parent, errno, "open", name);
	x->r->entries++;
	x->r->dirs++;
	return 0;
}

static uint64_t thread_ns(int user)
{
	struct rusage ru;
	const struct timeval *tv;

	getrusage(RUSAGE_THREAD, &ru);
	tv = user ? &ru.ru_utime : &ru.ru_stime;
	return (uint64_t)tv->tv_sec * 1000000000u +
	       (uint64_t)tv->tv_usec * 1000u;
}

static int extract_tree(struct extract *x, int dirfd, const char *root)
{
	const struct clyde_tree_plan *p = x->p;
	struct xframe *st;
	unsigned sp = 0;
	int ret, fd;
	char name[32];

	st = calloc((size_t)p->depth + 1, sizeof(*st));
	if (!st)
		return clyde_err(x->ctx, ENOMEM, "extract");
	ret = mkdir_open(x, dirfd, NONE, root, &fd);
	if (ret < 0) {
		free(st);
		return ret;
	}
	st[sp++] = (struct xframe){ 0, fd, p->first_child[0] };
	ret = write_files(x, 0, fd);
	/* Depth first, as tar writes an archive: a directory's files, then
	 * each subdirectory in turn. */
	while (sp > 0 && !ret) {
		struct xframe *f = &st[sp - 1];
		uint32_t c = f->next_child;

		if (c == NONE) {
			if (sp == 1) {
				/* Until the data is on the device the
				 * extract is not done. */
				if (syncfs(f->fd) < 0)
					ret = clyde_err(x->ctx, errno,
							"extract: syncfs %s",
							x->what);
			}
			close(f->fd);
			sp--;
			continue;
		}
		f->next_child = p->next_sibling[c];
		snprintf(name, sizeof(name), "d%u", c);
		ret = mkdir_open(x, f->fd, f->dir, name, &fd);
		if (ret < 0)
			break;
		st[sp++] = (struct xframe){ c, fd, p->first_child[c] };
		ret = write_files(x, c, fd);
	}
	while (sp > 0)
		close(st[--sp].fd);
	free(st);
	return ret;
}

int clyde_tree_extract(struct clyde_ctx *ctx, const struct clyde_tree_plan *p,
		       int dirfd, const char *root, const char *what,
		       uint64_t seed, bool zeros, bool verify, size_t io_size,
		       struct clyde_tree_phase_result *r)
{
	struct extract x = { .ctx = ctx,
			     .p = p,
			     .what = what,
			     .r = r,
			     .verify = verify,
			     .seed = seed };
	struct clyde_rng rng;
	uint64_t t0, u0, s0;
	int ret;

	if (io_size == 0 || io_size > CLYDE_TREE_MAX_IO_SIZE)
		io_size = CLYDE_TREE_DEFAULT_IO_SIZE;
	x.io_size = io_size;
	r->lat[CLYDE_TREE_OP_CREATE] = malloc(sizeof(struct clyde_hist));
	r->workers = calloc(1, sizeof(*r->workers));
	x.buf = malloc(io_size);
	clyde_rng_seed(&rng, seed ^ 0x7472656521ull);
	if (!r->lat[CLYDE_TREE_OP_CREATE] || !r->workers || !x.buf ||
	    clyde_pattern_init(&x.pat, zeros, &rng) < 0) {
		free(x.buf);
		return clyde_err(ctx, ENOMEM, "extract");
	}
	r->nworkers = 1;
	clyde_hist_init(r->lat[CLYDE_TREE_OP_CREATE]);
	u0 = thread_ns(1);
	s0 = thread_ns(0);
	t0 = clyde_now(ctx);
	ret = extract_tree(&x, dirfd, root);
	r->elapsed_ns = clyde_now(ctx) - t0;
	r->ran = true;
	r->workers[0] = (struct clyde_tree_worker){
		.entries = r->entries,
		.files = r->files,
		.dirs = r->dirs,
		.bytes = r->bytes,
		.elapsed_ns = r->elapsed_ns,
		.start_ns = 0,
		.end_ns = r->elapsed_ns,
		.cpu_user_ns = thread_ns(1) - u0,
		.cpu_sys_ns = thread_ns(0) - s0,
	};
	clyde_pattern_release(&x.pat);
	free(x.buf);
	return ret;
}

/* ---- --verify ------------------------------------------------------------ */

/* Read back one file of directory d (its path below the root in dpath)
 * and check it. */
static int verify_file(struct clyde_ctx *ctx, int dfd, const char *dpath,
		       const char *what, const char *name, uint64_t size,
		       uint64_t seed, size_t io_size, uint64_t *blocks)
{
	struct clyde_verify_result res;
	char path[4400], label[4500];
	int fd, ret;

	snprintf(path, sizeof(path), "%s%s/%s", what, dpath, name);
	snprintf(label, sizeof(label), "extract: --verify: %s", path);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return clyde_err(ctx, errno, "%s: cannot open", label);
	/* From the storage: write back (syncfs did) and evict. */
	ret = clyde_cache_evict_fd(ctx, fd, path);
	if (ret == 0) {
		struct clyde_verify_read r = {
			.fd = fd,
			.what = label,
			.len = size,
			.piece = io_size,
			.unit = clyde_verify_unit(io_size),
			.gen = CLYDE_TREE_VERIFY_GEN,
			.seed = seed,
		};

		ret = clyde_verify_read(ctx, &r, &res);
		*blocks += res.units;
	}
	close(fd);
	return ret;
}

int clyde_tree_verify(struct clyde_ctx *ctx, const struct clyde_tree_plan *p,
		      int dirfd, const char *root, const char *what,
		      uint64_t seed, size_t io_size, uint64_t *blocks)
{
	char dpath[1024], rel[1200], name[32];
	int ret = 0;

	*blocks = 0;
	if (io_size == 0 || io_size > CLYDE_TREE_MAX_IO_SIZE)
		io_size = CLYDE_TREE_DEFAULT_IO_SIZE;
	for (uint32_t d = 0; d < p->ndirs && !ret; d++) {
		struct clyde_rng rng;
		int dfd;

		if (!p->nfiles_in[d])
			continue;
		if (clyde_stopping(ctx))
			return -EINTR;
		dir_path(p, d, dpath, sizeof(dpath));
		snprintf(rel, sizeof(rel), "%s%s", root, dpath);
		dfd = openat(dirfd, rel,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			return clyde_err(ctx, errno,
					 "extract: --verify: cannot open %s%s",
					 what, dpath);
		clyde_tree_plan_dir_rng(p, d, &rng);
		for (uint32_t k = 0; k < p->nfiles_in[d] && !ret; k++) {
			uint64_t size = clyde_size_dist_sample(&p->size, &rng);

			snprintf(name, sizeof(name), "f%u", k);
			ret = verify_file(ctx, dfd, dpath, what, name, size,
					  seed, io_size, blocks);
		}
		close(dfd);
	}
	return ret;
}

/*
 * Tree workloads: what a backup or a restore does to a file server.  A
 * reproducible tree is generated from a shape (or an existing tree is
 * walked strictly read-only), then phases run one after the other, each
 * measured on its own with a cold cache:
 *
 *   extract        create the directories and files with their data, like
 *                  `tar x`, ending with syncfs() so the data reached the
 *                  device;
 *   stat_walk      readdir and lstat every entry, like `find -ls`;
 *   read_walk      lstat every entry and read every regular file to its
 *                  end, in walk order, like `tar cf - . | cat >/dev/null`
 *                  (really reading: not GNU tar's /dev/null short cut);
 *   par_stat_walk, par_read_walk
 *                  the same with K workers taking directories from a
 *                  shared, bounded work queue;
 *   delete         remove the tree, like `rm -rf`.
 *
 * Memory does not grow with file sizes (one read/write buffer per worker)
 * nor with the number of paths: a walk holds, per worker, one open
 * directory and the names of that directory for each level of depth it is
 * in, plus a queue of at most CLYDE_TREE_QUEUE_PER_WORKER open directories
 * per worker.  A generated tree is a plan of four 32-bit integers per
 * directory; file sizes are drawn again from a per-directory seeded stream
 * whenever they are needed, never stored.
 *
 * Walks never follow a symbolic link (lstat semantics, O_NOFOLLOW on every
 * open), so a symlink loop cannot trap them; symlinks are counted.  A
 * directory that is its own ancestor (a bind mount) is counted as a loop
 * and not entered.  Entries that cannot be read (permission denied),
 * vanish between readdir and lstat, or fail otherwise are counted in the
 * phase's errors and skipped; they never stop the walk.  Only running out
 * of memory or descriptors, an interruption, or (for extract and delete,
 * on clyde's own tree) any error at all, ends a phase early.
 *
 * Nothing here prints; errors are recorded in the context.
 */
#ifndef CLYDE_WORKLOADS_TREE_H
#define CLYDE_WORKLOADS_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/ctx.h"
#include "core/hist.h"
#include "core/rng.h"
#include "env/env.h"
#include "io/scratch.h"
#include "results/result.h"

/* The phases, in the order they run. */
enum clyde_tree_phase {
	CLYDE_TREE_EXTRACT,
	CLYDE_TREE_STAT_WALK,
	CLYDE_TREE_READ_WALK,
	CLYDE_TREE_PAR_STAT_WALK,
	CLYDE_TREE_PAR_READ_WALK,
	CLYDE_TREE_DELETE,
	CLYDE_TREE_PHASE_COUNT
};

#define CLYDE_TREE_PHASE_BIT(p) (1u << (p))
/* Phases that only read: the only ones allowed on an existing tree. */
#define CLYDE_TREE_READ_ONLY_PHASES                       \
	(CLYDE_TREE_PHASE_BIT(CLYDE_TREE_STAT_WALK) |     \
	 CLYDE_TREE_PHASE_BIT(CLYDE_TREE_READ_WALK) |     \
	 CLYDE_TREE_PHASE_BIT(CLYDE_TREE_PAR_STAT_WALK) | \
	 CLYDE_TREE_PHASE_BIT(CLYDE_TREE_PAR_READ_WALK))
#define CLYDE_TREE_ALL_PHASES ((1u << CLYDE_TREE_PHASE_COUNT) - 1)

/* "extract", "stat_walk", ... ("?" when out of range). */
const char *clyde_tree_phase_name(enum clyde_tree_phase p);

/* Parse "all" or a comma-separated list of phase names into a bit mask.
 * Returns 0, or -EINVAL (with the offending name in err) for an unknown
 * or empty name. */
int clyde_tree_phases_parse(const char *list, unsigned *mask, char *err,
			    size_t errlen);

/* The operations whose latencies are recorded. */
enum clyde_tree_op {
	CLYDE_TREE_OP_READDIR, /* one getdents64() call */
	CLYDE_TREE_OP_STAT,    /* fstatat(AT_SYMLINK_NOFOLLOW) */
	CLYDE_TREE_OP_OPEN,    /* openat() of a file or directory */
	CLYDE_TREE_OP_READ,    /* one read() */
	CLYDE_TREE_OP_CREATE,  /* openat(O_CREAT|O_EXCL) or mkdirat() */
	CLYDE_TREE_OP_UNLINK,  /* unlinkat(), with or without AT_REMOVEDIR */
	CLYDE_TREE_OP_COUNT
};

const char *clyde_tree_op_name(enum clyde_tree_op op);

/* ---- shapes and generation (tree_gen.c) ------------------------------ */

enum clyde_size_kind {
	CLYDE_SIZE_FIXED,     /* every file a bytes */
	CLYDE_SIZE_UNIFORM,   /* uniform in [a, b] */
	CLYDE_SIZE_LOGNORMAL, /* median a, sigma; at most cap */
};

struct clyde_size_dist {
	enum clyde_size_kind kind;
	uint64_t a;
	uint64_t b;
	double sigma;
	uint64_t cap; /* lognormal only */
};

/* Default cap of a lognormal distribution without one. */
#define CLYDE_SIZE_DEFAULT_CAP (1ull << 30)

/*
 * Parse "fixed:S", "uniform:A-B" or "lognormal:MEDIAN,SIGMA[,CAP]"; sizes
 * are bytes with an optional k, m, g or t suffix (powers of 1024), SIGMA a
 * decimal number from 0 to 10.  Returns 0 or -EINVAL with the reason in
 * err.
 */
int clyde_size_dist_parse(const char *s, struct clyde_size_dist *d, char *err,
			  size_t errlen);

/* The distribution written back in the syntax above. */
char *clyde_size_dist_format(char *buf, size_t len,
			     const struct clyde_size_dist *d);

/* One size drawn from d with rng. */
uint64_t clyde_size_dist_sample(const struct clyde_size_dist *d,
				struct clyde_rng *rng);

/* The expected size (the cap of a lognormal taken into account). */
double clyde_size_dist_mean(const struct clyde_size_dist *d);

struct clyde_tree_shape {
	uint64_t files;	      /* regular files in the whole tree */
	uint64_t dirs;	      /* directories, the root included; 0: derive */
	double files_per_dir; /* used when dirs is 0 */
	unsigned depth;	      /* deepest level below the root (root is 0) */
	unsigned fanout;      /* most subdirectories of one directory; 0:
			       * chosen from dirs and depth */
	struct clyde_size_dist size;
};

/* Deepest tree clyde generates (one descriptor per level is open). */
#define CLYDE_TREE_MAX_DEPTH 200u
#define CLYDE_TREE_MAX_DIRS 0x7fffffffu

/*
 * Fill s with preset `name` ("home": ~4.3 files per directory, mean size
 * ~120 KB, depth 8; "mail": ~34 files per directory, mean ~53 KB, depth 3)
 * for `files` files.  Returns 0 or -EINVAL for an unknown name.
 */
int clyde_tree_preset(const char *name, uint64_t files,
		      struct clyde_tree_shape *s);

/*
 * A generated tree's layout: directory i (0 is the root) has parent
 * parent[i] < i, children linked first_child/next_sibling (UINT32_MAX
 * ends a list) and nfiles[i] files.  Directory i (i > 0) is named "d<i>",
 * file k of a directory "f<k>".  File sizes are not stored: they come
 * from clyde_tree_plan_dir_rng(), which gives directory i's own stream.
 */
struct clyde_tree_plan {
	uint32_t ndirs;
	uint64_t nfiles;
	uint64_t total_bytes;
	unsigned depth; /* deepest level used */
	unsigned fanout;
	uint32_t *parent;
	uint32_t *first_child;
	uint32_t *next_sibling;
	uint32_t *nfiles_in;
	struct clyde_size_dist size;
	struct clyde_rng sizes_rng; /* parent of the per-directory streams */
};

/*
 * Lay out a tree of shape s from seed.  The same shape and seed give the
 * same plan (and so the same names and sizes) on any machine.  Returns 0,
 * -EINVAL (message in ctx) when the shape is impossible (more directories
 * than depth and fanout allow, depth beyond CLYDE_TREE_MAX_DEPTH) or
 * -ENOMEM.  Release with clyde_tree_plan_release().
 */
int clyde_tree_plan_build(struct clyde_ctx *ctx,
			  const struct clyde_tree_shape *s, uint64_t seed,
			  struct clyde_tree_plan *p);
void clyde_tree_plan_release(struct clyde_tree_plan *p);

/* The generator of directory d's file sizes: draw nfiles_in[d] sizes from
 * it with clyde_size_dist_sample() for files f0, f1, ... in order. */
void clyde_tree_plan_dir_rng(const struct clyde_tree_plan *p, uint32_t d,
			     struct clyde_rng *rng);

/* ---- results ---------------------------------------------------------- */

struct clyde_tree_errors {
	uint64_t permission_denied; /* EACCES/EPERM opening or reading */
	uint64_t vanished;	    /* ENOENT after readdir listed it */
	uint64_t loops;		    /* ELOOP, or a directory its own ancestor */
	uint64_t other;		    /* EIO and the like; skipped */
};

/* One worker's share of a walk.  elapsed_ns is the time it was busy (not
 * waiting for work); start/end are its first and last moment of work,
 * from the start of the phase. */
struct clyde_tree_worker {
	uint64_t entries, files, dirs, bytes;
	uint64_t elapsed_ns;
	uint64_t start_ns, end_ns;
	uint64_t cpu_user_ns, cpu_sys_ns;
};

struct clyde_tree_phase_result {
	bool ran;
	/* Entries seen: the root counts, like `find DIR | wc -l`. */
	uint64_t entries, files, dirs, symlinks, others;
	uint64_t bytes; /* read (walks) or written (extract) */
	uint64_t elapsed_ns;
	uint64_t cpu_user_ns, cpu_sys_ns; /* the whole process */
	/* Merged over the workers; owned; NULL for an op the phase did not
	 * do. */
	struct clyde_hist *lat[CLYDE_TREE_OP_COUNT];
	bool cache_dropped;
	char cache_reason[192]; /* why not (or a caveat); "" when none */
	struct clyde_devio dev;
	unsigned nworkers;
	struct clyde_tree_worker *workers; /* nworkers entries, owned */
	struct clyde_tree_errors errors;
	uint64_t noatime_refused; /* opens where O_NOATIME gave EPERM */
	char first_error[1024];	  /* the first skipped error, "" if none */
};

/* Release what a phase result owns and zero it. */
void clyde_tree_phase_release(struct clyde_tree_phase_result *r);

/* Rates, 0 when nothing was timed. */
double clyde_tree_rate(uint64_t count, uint64_t elapsed_ns);

/* ---- walks (tree_walk.c) ---------------------------------------------- */

#define CLYDE_TREE_QUEUE_PER_WORKER 4u
#define CLYDE_TREE_DEFAULT_IO_SIZE (128u << 10)
#define CLYDE_TREE_MAX_IO_SIZE (1u << 20)

/*
 * A test hook: called for every entry a walk counts, from the worker
 * thread that counted it (so it must be safe to call from several threads
 * at once).  `st` is the entry's lstat, `name` its name in its directory
 * (the path given for the root).  Not used by the program itself.
 */
typedef void (*clyde_tree_visit_fn)(void *arg, unsigned worker,
				    const struct stat *st, const char *name);

struct clyde_walk_opts {
	unsigned workers; /* 1: one thread walks alone */
	bool read;	  /* read every regular file */
	bool noatime;	  /* O_NOATIME, falling back without it on EPERM */
	bool one_fs;	  /* do not enter other filesystems */
	size_t io_size;	  /* bytes per read() */
	clyde_tree_visit_fn visit;
	void *visit_arg;
};

/*
 * Walk the tree rooted at `root` (a path relative to dirfd, or absolute;
 * the root itself is followed if it is a symlink, nothing below it is)
 * and fill r's counts, latencies, workers and errors (r must be zeroed;
 * the caller fills the cache, device and CPU fields).  Returns 0 when the
 * walk finished (skipped entries included), -EINTR when interrupted, or a
 * negative errno for a fatal error (the root cannot be opened, no memory,
 * no descriptors) with a message in ctx.
 */
int clyde_tree_walk(struct clyde_ctx *ctx, int dirfd, const char *root,
		    const struct clyde_walk_opts *o,
		    struct clyde_tree_phase_result *r);

/*
 * Remove directory `root` in dirfd and everything below it (never
 * following a symlink), counting like a walk: every entry removed,
 * readdir, open and unlink latencies.  `what` names the root in messages.
 * Any error is fatal (this is clyde's own tree).
 */
int clyde_tree_delete(struct clyde_ctx *ctx, int dirfd, const char *root,
		      const char *what, struct clyde_tree_phase_result *r);

/*
 * Create plan p as directory `root` in dirfd (which must not exist): the
 * directories and files, depth first, files before subdirectories, data
 * from the seeded pattern (zeros: bonnie++'s), written io_size bytes at a
 * time, then syncfs().  Fills r like a walk (create latencies).  Any
 * error is fatal.
 */
int clyde_tree_extract(struct clyde_ctx *ctx, const struct clyde_tree_plan *p,
		       int dirfd, const char *root, const char *what,
		       uint64_t seed, bool zeros, size_t io_size,
		       struct clyde_tree_phase_result *r);

/* ---- the whole run (tree.c) ------------------------------------------- */

struct clyde_tree_config {
	char preset[16]; /* "" when the shape was given option by option */
	struct clyde_tree_shape shape;
	uint64_t seed;
	unsigned phases;  /* CLYDE_TREE_PHASE_BIT()s */
	unsigned workers; /* for the parallel phases */
	/* Walk this tree read-only instead of generating one; borrowed.
	 * Only read-only phases are allowed with it. */
	const char *existing;
	size_t io_size;	  /* bytes per read() and write() */
	bool drop_caches; /* try to drop every cache before each phase */
	bool noatime;	  /* O_NOATIME on the generated tree (always on for
			   * an existing one) */
	bool one_fs;
	bool zeros; /* bonnie++'s data pattern instead of random bytes */
	char label[256];
};

/* Defaults: preset home with 10000 files, all phases, 4 workers, 128 KiB
 * IO, caches dropped, random data, seed 0 (the caller picks one). */
void clyde_tree_config_init(struct clyde_tree_config *cfg);

struct clyde_tree_run {
	struct clyde_tree_config cfg; /* copy; cfg.existing points to
				       * existing_path below */
	char existing_path[4096];
	char root[4096]; /* the tree walked, for messages and records */
	bool generated;
	uint64_t started_unix;
	struct clyde_env env;
	/* The generated tree (zeros for an existing one). */
	uint64_t plan_files, plan_dirs, plan_bytes;
	unsigned plan_depth, plan_fanout;
	struct clyde_tree_phase_result phases[CLYDE_TREE_PHASE_COUNT];
};

/* Called around each phase, from the calling thread (for progress). */
struct clyde_tree_hooks {
	void *arg;
	void (*before_phase)(void *arg, enum clyde_tree_phase p);
	void (*after_phase)(void *arg, enum clyde_tree_phase p,
			    const struct clyde_tree_phase_result *r);
	clyde_tree_visit_fn visit; /* passed to the walks (tests) */
	void *visit_arg;
};

/*
 * Run the phases of cfg.  With cfg->existing the tree is walked where it
 * is and `scratch` may be NULL (nothing is written anywhere); otherwise
 * the tree is generated as "tree" in the scratch directory, and extract
 * always runs first, asked for or not (the other phases need the tree).
 * `run` is initialised here and must be released with
 * clyde_tree_run_release() whatever this returns.  Returns 0, -EINVAL
 * (bad shape, or a writing phase asked for on an existing tree: nothing
 * is done then), -EINTR, or the error of a phase (message in ctx).
 */
int clyde_tree_run(struct clyde_ctx *ctx, const struct clyde_tree_config *cfg,
		   struct clyde_scratch *scratch,
		   const struct clyde_tree_hooks *hooks,
		   struct clyde_tree_run *run);
void clyde_tree_run_release(struct clyde_tree_run *run);

#endif

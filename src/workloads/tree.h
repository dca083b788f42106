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
 * The result model (phases, shapes, phase results, the run) is in
 * results/tree_result.h.  Nothing here prints; errors are recorded in the
 * context.
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
#include "results/tree_result.h"

/* Parse "all" or a comma-separated list of phase names into a bit mask.
 * Returns 0, or -EINVAL (with the offending name in err) for an unknown
 * or empty name. */
int clyde_tree_phases_parse(const char *list, unsigned *mask, char *err,
			    size_t errlen);

/* ---- shapes and generation (tree_gen.c) ------------------------------ */

/*
 * Parse "fixed:S", "uniform:A-B" or "lognormal:MEDIAN,SIGMA[,CAP]"; sizes
 * are bytes with an optional k, m, g or t suffix (powers of 1024), SIGMA a
 * decimal number from 0 to 10.  Returns 0 or -EINVAL with the reason in
 * err.
 */
int clyde_size_dist_parse(const char *s, struct clyde_size_dist *d, char *err,
			  size_t errlen);

/* One size drawn from d with rng. */
uint64_t clyde_size_dist_sample(const struct clyde_size_dist *d,
				struct clyde_rng *rng);

/* The expected size (the cap of a lognormal taken into account). */
double clyde_size_dist_mean(const struct clyde_size_dist *d);

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
		       uint64_t seed, bool zeros, bool verify, size_t io_size,
		       struct clyde_tree_phase_result *r);

/*
 * --verify: with `verify`, extract stamps every block of every file
 * (io/verify.h: its offset in the file, generation 1, `seed`);
 * clyde_tree_verify then reads every file of plan p back (each evicted
 * from the page cache first) and checks it.  Untimed: tree.c calls it
 * after the extract's window.  Returns 0 (*blocks: the blocks checked), or
 * -EIO with one line naming the file, the offset, what was expected and
 * found ("extract: --verify: /mnt/x/tree/d3/f2 at offset 8192 ...").
 * Files shorter than a header (32 bytes) are not checked.
 */
#define CLYDE_TREE_VERIFY_GEN 1u
int clyde_tree_verify(struct clyde_ctx *ctx, const struct clyde_tree_plan *p,
		      int dirfd, const char *root, const char *what,
		      uint64_t seed, size_t io_size, uint64_t *blocks);

/* ---- the whole run (tree.c) ------------------------------------------- */

/* Defaults: preset home with 10000 files, all phases, 4 workers, 128 KiB
 * IO, caches dropped, random data, seed 0 (the caller picks one). */
void clyde_tree_config_init(struct clyde_tree_config *cfg);

/* Called around each phase, from the calling thread (for progress). */
struct clyde_tree_hooks {
	void *arg;
	void (*before_phase)(void *arg, enum clyde_tree_phase p);
	void (*after_phase)(void *arg, enum clyde_tree_phase p,
			    const struct clyde_tree_phase_result *r);
	/* Called when the phase's set-up (the cold cache) is done, just
	 * before its timed work (clyde-mpi's ranks start together there);
	 * a negative errno stops the run with it.  Optional. */
	int (*start_phase)(void *arg, enum clyde_tree_phase p);
	clyde_tree_visit_fn visit; /* passed to the walks (tests) */
	void *visit_arg;
};

/*
 * An --existing tree must be a directory this process can list and enter;
 * anything else is a usage error found before any phase, not a failed
 * phase.  Returns 0, or -1 with one line in err ("--existing DIR: WHY").
 */
int clyde_tree_check_existing(const char *dir, char *err, size_t len);

/* Walks hold one descriptor per level and per queued directory: raise the
 * process's soft limit on open files to its hard limit (the command calls
 * it once, before any phase). */
void clyde_tree_raise_nofile(void);

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

#endif

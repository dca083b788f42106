/*
 * The bonnie++ suite as a library call: a configuration in, a filled
 * struct clyde_run out.  Nothing here prints or exits.
 */
#ifndef CLYDE_WORKLOADS_BONNIE_H
#define CLYDE_WORKLOADS_BONNIE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"
#include "io/engine.h"
#include "results/result.h"

#define CLYDE_MAX_CONCURRENCY 200
#define CLYDE_MIN_CHUNK 256u
#define CLYDE_MAX_CHUNK (1u << 20)
#define CLYDE_MAX_DIRS 99999u
#define CLYDE_DEFAULT_PERCHAR_MIB 3u

enum clyde_pattern {
	CLYDE_PATTERN_RANDOM, /* incompressible: seeded random data, new per chunk */
	CLYDE_PATTERN_ZEROS, /* bonnie++'s: zeros with one byte changed per chunk */
};

enum clyde_sync_mode {
	CLYDE_SYNC_NONE,
	CLYDE_SYNC_SEM, /* -y s: wait for all -p processes before each test */
	CLYDE_SYNC_PROMPT, /* -y p: wait for a line on stdin before each test */
};

struct clyde_bonnie_config {
	const char *dir;     /* -d: where the scratch directory is made */
	const char *machine; /* -m: label; NULL means the host name */

	/* IO tests (-s size[:chunk[:seeks[:seekers]]]) */
	uint64_t file_size_mib; /* per worker; 0 skips the IO tests */
	bool size_given;	/* -s was on the command line */
	uint32_t io_chunk;
	uint32_t seeks;
	uint32_t seekers;

	/* file tests (-n num[:max[:min[:ndirs[:chunk]]]]) */
	uint64_t num_files; /* files (already multiplied by 1024) */
	int64_t max_size;   /* bytes; -1 hard links, -2 symlinks */
	int64_t min_size;
	uint32_t num_dirs;
	uint32_t file_chunk;

	int64_t ram_mib; /* -r; -1 when not given (then read from the machine) */
	unsigned runs;	 /* -x; 0 when not given (one run with text output) */
	bool quiet;	 /* -q */
	bool skip_perchar;    /* bare -f */
	uint64_t perchar_mib; /* -fN, default 3 */
	bool fsync_each;      /* -b */
	bool direct;	      /* -D */
	unsigned concurrency; /* -c, 1..200 */
	int sync_procs;	      /* -p N (0 when not given, -1 removes) */
	enum clyde_sync_mode sync_mode; /* -y */
	bool seed_given;
	uint64_t seed;		    /* -z */
	const char *random_file;    /* -Z */
	const char *user;	    /* -u user[:group] */
	const char *group;	    /* -g group */
	enum clyde_pattern pattern; /* --pattern */
	/* --verify: the block write and the rewrite stamp every block
	 * (io/verify.h: generation 1 and 2, the run's seed), and each
	 * worker's file is read back and checked outside the timed window,
	 * with its cache evicted, before the next test starts (after its
	 * -y prompt) or at the end of the suite.  A block that does not
	 * check out fails the run with -EIO, naming the file and the
	 * offset. */
	bool verify;
	unsigned compress_pct; /* --compress-percentage (0: none) */

	/* Honest numbers. */
	bool perchar_given; /* -fN given: no time bound on the per-char tests */
	uint64_t settle_ns; /* --settle: wait up to this for idle devices */
	bool settle_given;  /* --settle was on the command line */
	bool no_evict;	    /* --no-evict: leave the page cache alone */
	bool drop_caches;   /* --drop-caches: drop all caches before the
			       * metadata tests (root) */
	double until_stable_pct; /* --until-stable PCT; 0 = off */
	unsigned max_runs;	 /* --max-runs: bound for --until-stable */
	bool show_progress; /* the live line on a terminal (set by the CLI) */

	/* clyde-mpi: the global number of this process's first worker (its
	 * rank times -c), which seeds the workers' streams and names their
	 * files so that ranks never collide; 0 in one process. */
	unsigned worker_base;
	/* clyde-mpi --shared: the file tests of every worker of every rank
	 * work in one directory, `files` (mdtest's shared mode); names start
	 * with the job-wide worker number and the stat and delete tests go by
	 * name instead of reading the directory. */
	bool shared_files;
	/* clyde-mpi's rank 0: the server's side of each test (an NFS
	 * export's disks, nfsd's counters) is read again at the next
	 * meeting of the ranks (before the next test, or tests_ended), when
	 * every rank has ended it, so that it covers the ranks that ended
	 * after this one; its own wire figures keep its own window. */
	bool server_late;
	/* clyde-mpi --read-shift: the directory (this rank's path to
	 * another rank's scratch directory) whose IO files the read-side
	 * tests read instead of their own (clyde_bonnie_reads_other());
	 * worker i reads the file numbered read_base + i, which the other
	 * rank's worker i wrote.  NULL: every worker its own file. */
	const char *read_path;
	unsigned read_base;

	/* The engine of the block and seek tests, and how many requests each
	 * worker (each seeker) keeps in flight; the per-char tests always
	 * make one synchronous call per byte. */
	const struct clyde_engine_ops *engine; /* --engine (psync) */
	unsigned iodepth;		       /* --iodepth, 1..1024 (1) */
	unsigned iodepth_batch; /* --iodepth-batch, 1..1024 (1) */
	/* --log-interval: the time series' interval (core/series.h); 0
	 * records none. */
	uint64_t log_interval_ns;
	/* --runtime: the IO tests run by time, this long from the test's
	 * start (its workers' set-up included): the block tests and rewrite
	 * go round the file of -s, the seeks take tickets until then, the
	 * per-char tests stop then or at their -f size.  --stonewall: a
	 * deadline on every test, as clyde-mpi's (IOR's -D).  0: off; not
	 * both (clyde-mpi's --stonewall uses its own watchdog). */
	uint64_t runtime_ns;
	uint64_t stonewall_ns;
};

/* The tests that read another rank's file under --read-shift: those that
 * only read what an earlier test wrote (per-char read, block read) and the
 * seeks, which read it at random (and write back one seek in ten, in a
 * file no other rank then uses). */
bool clyde_bonnie_reads_other(enum clyde_test t);

/* One per-char call in this many is timed into the latency histogram
 * (a power of two); the others are only counted. */
#define CLYDE_PERCHAR_SAMPLE 16u

/* Per-char tests stop after this long unless -fN asked for a size. */
#define CLYDE_PERCHAR_TIME_NS (4ull * 1000000000ull)
#define CLYDE_DEFAULT_MAX_RUNS 10u

/* Bytes each worker's per-char tests cover at most: -f's MiB, but never
 * more than the file. */
uint64_t clyde_bonnie_perchar_bytes(const struct clyde_bonnie_config *cfg);

/* Fill cfg with bonnie++'s defaults. */
void clyde_bonnie_config_init(struct clyde_bonnie_config *cfg);

struct clyde_scratch;
struct clyde_sync;

/*
 * Hooks the suite calls around each test; all optional.  `before_test`
 * runs before the workers start (the -y synchronisation lives there) and
 * may return a negative errno to stop the run; `after_test` runs when a
 * test has ended (bonnie++'s "...done" progress lines).
 */
struct clyde_bonnie_hooks {
	void *arg;
	int (*before_test)(void *arg, enum clyde_test t);
	void (*after_test)(void *arg, enum clyde_test t,
			   const struct clyde_test_result *r);
	/* After the last test, when every test succeeded here: clyde-mpi's
	 * ranks meet there (the last test has then ended on every rank).
	 * May return a negative errno to fail the run. */
	int (*tests_ended)(void *arg);
	/* When not NULL, the suite keeps it current for a progress display:
	 * another thread may read it at any time. */
	struct clyde_progress *progress;
};

/*
 * How far the running test is.  `done` counts the test's unit (bytes for
 * the IO tests, seeks, files) over all workers, out of `total`.
 */
struct clyde_progress {
	atomic_int active; /* a test is running */
	atomic_int test;   /* enum clyde_test of the running test */
	atomic_uint_fast64_t done;
	atomic_uint_fast64_t total;
	atomic_uint_fast64_t start_ns; /* clyde_now() when it started */
};

/*
 * Refuse a run that cannot fit: the IO tests' files (one per worker, kept
 * until the end of the run) and the file tests' data (its expected size)
 * must fit in the free space of the scratch directory's filesystem, and
 * the file tests' files and directories in its free inodes,
 * checked before anything is written rather than discovered as ENOSPC
 * after filling a disk others share.  Returns 0, or -1 with one line in
 * msg ("-s 4.0 GiB needs 4.0 GiB but DIR has only 1.2 GiB free", "the
 * -n files need 2050 inodes but DIR has only 100 free").
 */
int clyde_bonnie_check_space(const struct clyde_bonnie_config *cfg,
			     const struct clyde_scratch *scratch, char *msg,
			     size_t len);

/*
 * -Z: the file's contents as 32-bit integers (malloc'ed into *out).
 * Returns the count, 0 with a message in err (a directory, unreadable,
 * empty), or -EINTR when a signal (ctx->interrupted) interrupted the open
 * or the read (a FIFO whose writer never comes).
 */
long clyde_bonnie_load_random(const char *path, struct clyde_ctx *ctx,
			      uint32_t **out, char *err, size_t errlen);

/*
 * Choose the file size when -s is not given: write a calibration file in
 * `scratch` for up to about two seconds (or 1 GiB), and size the IO tests
 * so that each block test runs for about five seconds and writes at least
 * 1 GiB in all, within half of the free space.  Returns the size per
 * worker in MiB (> 0), or a negative errno with a message.
 */
int clyde_bonnie_calibrate(struct clyde_ctx *ctx,
			   const struct clyde_bonnie_config *cfg,
			   struct clyde_scratch *scratch, uint64_t *size_mib);

/*
 * Run the suite once inside `scratch` (which the caller created and will
 * remove).  `seed` is the seed for this run; every run of a series gets the
 * same one, as in bonnie++.  `ext_ints`, when not NULL, are -Z's integers.
 * Fills `run` (params and tests).  Returns 0, or a negative errno with the
 * message in ctx (-EINTR when interrupted).
 */
int clyde_bonnie_run(struct clyde_ctx *ctx,
		     const struct clyde_bonnie_config *cfg,
		     struct clyde_scratch *scratch, uint64_t seed,
		     const uint32_t *ext_ints, size_t n_ext,
		     const struct clyde_bonnie_hooks *hooks,
		     struct clyde_run *run);

#endif

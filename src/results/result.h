/*
 * The result model: what a run of the bonnie++ suite measured, as raw
 * integers with the unit in the name.  Workloads fill it; formatters
 * (text.c, csv.c, json.c) render it and are the only place where bytes
 * become KiB/s, or a short test becomes "+++++".
 */
#ifndef CLYDE_RESULTS_RESULT_H
#define CLYDE_RESULTS_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hist.h"
#include "core/series.h"
#include "env/env.h"
#include "env/members.h"
#include "env/stack.h"
#include "env/members_virt.h"
#include "env/ownio.h"
#include "env/settle.h"
#include "io/cache.h"
#include "io/iobuf.h"
#include "io/loopcache.h"
#include "io/nfs_wire.h"

/* The twelve tests, in bonnie++'s order (which is also the CSV order). */
enum clyde_test {
	CLYDE_PUTC,
	CLYDE_PUT_BLOCK,
	CLYDE_REWRITE,
	CLYDE_GETC,
	CLYDE_GET_BLOCK,
	CLYDE_SEEKS,
	CLYDE_SEQ_CREATE,
	CLYDE_SEQ_STAT,
	CLYDE_SEQ_DEL,
	CLYDE_RAN_CREATE,
	CLYDE_RAN_STAT,
	CLYDE_RAN_DEL,
	CLYDE_TEST_COUNT
};

#define CLYDE_FIRST_FILE_TEST CLYDE_SEQ_CREATE

/* Short machine name of a test ("putc", "seq_create", ...) as in the CSV. */
const char *clyde_test_name(enum clyde_test t);

/* A test's name in sentences, as bonnie++'s progress lines word it:
 * "block write", "sequential create": the one label of a test in every
 * output (progress, messages, experiment tables). */
const char *clyde_test_label(enum clyde_test id);

/* The test whose clyde_test_name() is name, or -1. */
int clyde_test_from_name(const char *name);

enum clyde_test_state {
	CLYDE_NOT_RUN = 0, /* not asked for: an empty field in every format */
	CLYDE_DONE,	   /* ran to the end */
	CLYDE_SKIPPED,	   /* asked for but not possible; `note` says why */
};

/* One worker's share of one test. */
struct clyde_span {
	uint64_t start_ns; /* after the start barrier, before the first op */
	uint64_t end_ns;   /* after the last op (and its fsync/close) */
	uint64_t bytes;
	uint64_t ops;
	/* CPU of this worker's threads (its own and its seekers') over
	 * exactly its window [start_ns, end_ns]. */
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	uint64_t latency_max_ns;
	/* Every operation's latency; owned; merged into the test's
	 * histogram and freed by clyde_test_sum_spans(). */
	struct clyde_hist *hist;
	/* Page-cache residency of this worker's files when the test started
	 * (mincore); total 0 when not measured. */
	uint64_t resident_bytes;
	uint64_t cached_total_bytes;
	/* clyde-mpi --stonewall cut this worker's test short: bytes and ops
	 * are the work done up to end_ns. */
	bool stonewalled;
	/* What backed this worker's block or seek buffers (its seekers':
	 * the least of theirs); NONE for a test without them. */
	enum clyde_iobuf_pages buffer_pages;
	/* The most requests this worker's engine (its seekers': the most of
	 * theirs) had in the kernel at once (io/engine.h, max_inflight); 0
	 * for a test without an engine of its own depth (per-char, files). */
	uint32_t inflight_max;
	/* The mean in flight while busy of this worker's engine (its
	 * seekers': the mean of theirs), clyde_engine_mean_inflight; 0 when
	 * not measured (no engine depth of its own, or clyde-mpi's ranks). */
	double inflight_mean;
	/* Block write: the time from each write's completion to the
	 * submission of the next write in its slot, summed, and how many
	 * (the cost of making new data between writes; 0, 0 in other tests). */
	uint64_t refill_gap_ns, refill_gaps;
	/* What completed in each --log-interval of this worker's window
	 * (core/series.h), from start_ns; owned (clyde_run_release). */
	struct clyde_series series;
};

/* What clyde did to keep the page cache out of a test, and what it saw. */
struct clyde_cache_info {
	bool evicted;		 /* fsync + fadvise(DONTNEED) before the test */
	bool dropped;		 /* --drop-caches: page, dentry, inode caches */
	bool measured;		 /* residency below is meaningful */
	uint64_t resident_bytes; /* of the test's files at its start */
	uint64_t total_bytes;
	bool direct_checked; /* -D: the file's cached pages did not grow */
	bool direct_honoured;
	/* Below the filesystem: the backing files of loop devices without
	 * direct I/O, evicted and measured before a read-side test. */
	struct clyde_loopcache_seen loop;
	/* A file server's cache of the test's files (an NFS mount),
	 * dropped and measured before a read-side test (io/nfs_wire.h). */
	struct clyde_server_cache server;
};

struct clyde_target_ops; /* io/target.h */

/*
 * The figures of a test that are its target kind's own (an SMB mount's
 * wire counters, a ZFS pool's ARC): kind->figs_size bytes of the kind's
 * type, filled by the kind (io/target_*.c) and written by its own hooks
 * (kind->figs, io/target.h) through results/figures.c, which names no
 * kind.
 */
struct clyde_test_figs {
	const struct clyde_target_ops *kind; /* whose; NULL: none */
	void *data;			     /* owned (clyde_run_release) */
};

struct clyde_test_result {
	enum clyde_test_state state;
	const char *note; /* static string, set when SKIPPED */

	/* Totals over all workers.  The rate is bytes (or ops) / elapsed_ns,
	 * where elapsed runs from the first worker's start to the last one's
	 * end.  CPU is the sum of the workers' (each over its own window):
	 * set-up before the start barrier is not counted. */
	uint64_t bytes;
	uint64_t ops;
	uint64_t elapsed_ns;
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	uint64_t latency_max_ns;       /* slowest single operation */
	struct clyde_hist *latency;    /* all operations of all workers; owned,
				     * NULL when not recorded */
	uint32_t latency_sample_every; /* 1 in N operations is in `latency`
					* (0 or 1: every one) */

	struct clyde_cache_info cache;
	struct clyde_devio dev;	      /* what reached the block device */
	struct clyde_members members; /* ... and each leaf device below it */
	struct clyde_ownio own;	      /* clyde's own I/O (env/ownio.h) */
	struct clyde_settle settle;   /* the devices before it started */
	/* --verify: the blocks read back and checked after the test (0:
	 * not verified).  A run with a wrong block fails, so a stored test
	 * with a count had every one right. */
	uint64_t verified_blocks;
	/* The target kind's own figures (NFS's and SMB's wire, ZFS's ARC). */
	struct clyde_test_figs figs;

	/* The least of the workers' buffer_pages (NONE when none had any):
	 * set by clyde_test_sum_spans(). */
	enum clyde_iobuf_pages buffer_pages;
	/* The most of the workers' inflight_max: the depth that ran (0: not
	 * measured).  Set by clyde_test_sum_spans(). */
	uint32_t inflight_max;
	/* The mean of the workers' inflight_mean (those that have one): how
	 * full the queue was kept; 0: not measured.  clyde_test_sum_spans(). */
	double inflight_mean;
	/* The workers' refill_gap_ns and refill_gaps summed (their ratio is
	 * the JSON's refill_gap_mean_ns).  Set by clyde_test_sum_spans(). */
	uint64_t refill_gap_ns, refill_gaps;
	/* The workers' series merged by interval (clyde_test_sum_spans);
	 * owned.  interval_ns 0: not recorded. */
	struct clyde_series series;

	unsigned nworkers;
	struct clyde_span *spans; /* nworkers entries, owned */
};

/* The settings a run was made with, as the outputs need to show them. */
struct clyde_run_params {
	char name[256];		/* -m, or the host name */
	unsigned concurrency;	/* -c */
	uint64_t seed;		/* the seed actually used */
	uint64_t file_size_mib; /* per worker; 0 when the IO tests did not run */
	uint32_t io_chunk;	/* bytes */
	uint32_t seeks;
	uint32_t seekers;
	uint64_t num_files; /* files per worker (not units of 1024) */
	int64_t max_size;   /* bytes; -1 hard links, -2 symlinks */
	int64_t min_size;
	uint32_t num_dirs;
	uint32_t file_chunk;	  /* bytes */
	bool direct;		  /* -D */
	bool fsync_each;	  /* -b */
	uint64_t perchar_bytes;	  /* per-char sample per worker; 0 = skipped */
	bool size_auto;		  /* file size chosen by clyde (no -s) */
	bool evict;		  /* caches evicted before read-side tests */
	bool drop_caches;	  /* --drop-caches */
	bool verify;		  /* --verify: written blocks read back */
	char pattern[16];	  /* "random" or "zeros" */
	unsigned compress_pct;	  /* --compress-percentage: 0 none */
	char engine[16];	  /* --engine of the block and seek tests */
	unsigned iodepth;	  /* --iodepth: in flight per worker/seeker */
	unsigned iodepth_batch;	  /* --iodepth-batch: submitted together */
	uint64_t runtime_ns;	  /* --runtime (0: by size) */
	uint64_t stonewall_ns;	  /* --stonewall (0: none) */
	uint64_t log_interval_ns; /* --log-interval (0: no series) */
};

/* bonnie++'s defaults, which the name cell leaves out. */
#define CLYDE_DEFAULT_IO_CHUNK 8192u
#define CLYDE_DEFAULT_SEEKS 8192u
#define CLYDE_DEFAULT_SEEKERS 5u
#define CLYDE_DEFAULT_FILE_CHUNK 8192u

/* Where and on what a run was made. */
struct clyde_env {
	struct clyde_machine machine;
	struct clyde_target target;
	struct clyde_virt virt; /* the first virtual member disk */
	/* The storage stack under the target; owned (clyde_run_release). */
	struct clyde_stack stack;
};

struct clyde_run {
	struct clyde_run_params params;
	struct clyde_env env;
	uint64_t started_unix; /* wall-clock seconds at the start, for records */
	struct clyde_test_result tests[CLYDE_TEST_COUNT];
	/* The whole run's time (clyde_bonnie_run: not the scratch directory
	 * or the calibration, made once before a series) and the part of it
	 * outside every test's timed window: set-up, cache eviction and
	 * residency, checks, clean-up.  Waiting for other processes at -y is
	 * in neither.  0 when not measured (a run read back from a file). */
	uint64_t wall_ns;
	uint64_t overhead_ns;
};

/* Zero a run; clyde_run_release() frees the spans. */
void clyde_run_init(struct clyde_run *run);
void clyde_run_release(struct clyde_run *run);

/* Allocate n spans for a test (zeroed).  Returns 0 or -ENOMEM. */
int clyde_test_alloc_spans(struct clyde_test_result *t, unsigned n);

/*
 * Fold the spans into the totals: bytes/ops summed, elapsed from the first
 * start to the last end, latency the largest.  CPU is left to the caller.
 */
void clyde_test_sum_spans(struct clyde_test_result *t);

/* A test shorter than this prints "+++++" in bonnie++'s formats. */
#define CLYDE_TOO_FAST_NS 500000000ull

/* Rate of test `id` in units per second: bytes/s for the IO tests, seeks/s
 * or files/s for the others; 0 when nothing was timed. */
double clyde_test_rate(const struct clyde_test_result *t, enum clyde_test id);

/* CPU share in percent of one CPU: (user+sys)/elapsed*100. */
double clyde_test_cpu_pct(const struct clyde_test_result *t);

/* Fraction of the test's data that was in the page cache at its start,
 * 0..1, or a negative value when not measured. */
double clyde_test_residency(const struct clyde_test_result *t);

/*
 * The test's figures of target kind `kind` (kind->figs_size bytes,
 * zeroed; those it had when they are the same kind's), for the kind to
 * fill; NULL when the kind has none (figs_size 0, or kind NULL) or
 * there is no memory (then t has none).
 */
void *clyde_test_figs_alloc(struct clyde_test_result *t,
			    const struct clyde_target_ops *kind);
/* The test's figures when they are kind's, else NULL. */
const void *clyde_test_figs(const struct clyde_test_result *t,
			    const struct clyde_target_ops *kind);
void clyde_test_figs_free(struct clyde_test_result *t);

/* True for the tests whose rate is bytes (putc .. get_block). */
bool clyde_test_is_io(enum clyde_test t);

/* The tests that read back what an earlier test wrote (its data or its
 * files' attributes): the page cache serves them unless it is evicted
 * before them or bypassed (-D). */
bool clyde_test_reads_back(enum clyde_test t);

/* Whether a result's engine `name` ran one request at a time whatever
 * its --iodepth (psync: io/engine.h's sync capability), for the layers
 * above that read stored runs; false for a name no engine has. */
bool clyde_result_engine_sync(const char *name);

/* What the advice weighs of a run (env/advise.h's mask): its data pattern
 * and, when the seeks ran, their random requests of io_chunk bytes. */
unsigned clyde_run_advise(const struct clyde_run_params *p);

#endif

/*
 * The result model of one `clyde dev` run: raw block-device tests
 * (workloads/dev.h) and zcav (workloads/zcav.h) fill it; the writers
 * (results/dev_out.h: dev_out.c, zcav_out.c) and the history read it.  Only
 * data and the helpers that name or release it live here.
 */
#ifndef CLYDE_RESULTS_DEV_RESULT_H
#define CLYDE_RESULTS_DEV_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "core/loadcurve.h"
#include "results/result.h"

/* The tests, in the order they run (zcav last: it may take long). */
enum clyde_dev_test {
	CLYDE_DEV_SEQWRITE,
	CLYDE_DEV_SEQREAD,
	CLYDE_DEV_RANDREAD,
	CLYDE_DEV_RANDWRITE,
	CLYDE_DEV_ZCAV,
	CLYDE_DEV_TEST_COUNT
};

#define CLYDE_DEV_BIT(t) (1u << (t))
/* The tests that write (zcav only with -w). */
#define CLYDE_DEV_WRITE_TESTS \
	(CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) | CLYDE_DEV_BIT(CLYDE_DEV_RANDWRITE))

/* "seqwrite", "seqread", "randread", "randwrite", "zcav"; NULL when out of
 * range. */
const char *clyde_dev_test_name(enum clyde_dev_test t);

/* Parse a comma list of test names (or "all": every test but zcav) into
 * a bit mask.  Returns 0, or -EINVAL with the bad name in bad[len]. */
int clyde_dev_tests_parse(const char *list, unsigned *mask, char *bad,
			  size_t len);

/* zcav's settings, with the meanings of bonnie++'s zcav(8). */
struct clyde_zcav_config {
	uint64_t block_bytes; /* -b: one position's block (512 MiB) */
	uint64_t chunk_bytes; /* -b B:C: one request (1 MiB) */
	uint32_t loops;	      /* -c: passes over the range (1) */
	uint32_t skip;	      /* -s: read every skip-th block (0/1: all) */
	bool write;	      /* -w: write zeros instead of reading */
};

struct clyde_dev_config {
	char path[4096];
	char label[256]; /* "" -> the host name */
	unsigned tests;	 /* CLYDE_DEV_BIT mask */
	uint32_t bs;	 /* sequential request size, bytes */
	uint32_t rand_bs;
	uint64_t rand_ops; /* requests per random test; 0: by time alone */
	/* --runtime, --ramp: every test runs by time (0: by count), the
	 * first ramp_ns not counted (dev_job.h; zcav: passes until the
	 * runtime is up, after ramp_ns of untimed reading) */
	uint64_t runtime_ns, ramp_ns;
	/* --log-interval: the time series' interval (0: none);
	 * --until-steady PCT over --steady-window intervals (0: off; only by
	 * time): see workloads/dev_job.h. */
	uint64_t log_interval_ns;
	double steady_pct;
	uint32_t steady_window;
	uint32_t iodepth;	/* requests in flight; 0: the engine's default
			    * (clyde_dev_run sets the depth that runs) */
	uint32_t iodepth_batch; /* --iodepth-batch: submitted together (1) */
	bool zeros;		/* --pattern zeros: bonnie++'s data, not new */
	/* --verify: the write tests stamp every block (io/verify.h) and
	 * read the range back after the test (dev_job.h) */
	bool verify;
	char engine[16]; /* "psync", "io_uring" */
	uint64_t offset; /* start of the range, bytes */
	uint64_t size;	 /* length of the range; 0: to the end */
	bool destroy_data;
	bool clamp_range; /* a range past the end stops there (zcav -r) */
	uint64_t seed;
	struct clyde_zcav_config zcav;
	/* --rate: every request test at this rate (value 0: full speed;
	 * core/loadcurve.h, dev_job.h). */
	struct clyde_rate_spec rate;
	/* --curve: after the test at full speed, one run of it at each of
	 * these percentages of its rate (ncurve 0: none). */
	double curve_pct[CLYDE_CURVE_MAX_STEPS];
	unsigned ncurve;
	/* --latency-target (ns 0: none), searched in target_steps probes. */
	struct clyde_lat_target target;
	unsigned target_steps;
};

/* One rate-limited run of a test: a step of --curve or a probe of
 * --latency-target.  Latencies from each request's due time. */
struct clyde_dev_load_point {
	double pct;   /* of the maximum (a probe: its share too) */
	double asked; /* requests per second */
	uint64_t ops, bytes, elapsed_ns;
	uint64_t p50_ns, p99_ns, p999_ns;
	uint64_t target_ns; /* the percentile of --latency-target */
	uint64_t lag_mean_ns, lag_max_ns; /* sent after the due time */
	struct clyde_devio dev;		  /* the device's counters */
	uint64_t window_ns;
	bool from_memory;
};

/* The requests per second a point achieved, and whether it reached the
 * rate asked (CLYDE_RATE_REACHED of it). */
double clyde_dev_point_rate(const struct clyde_dev_load_point *p);
bool clyde_dev_point_reached(const struct clyde_dev_load_point *p);

/* --latency-target's search of one test. */
struct clyde_dev_search {
	bool ran;
	double max;		/* the full-speed run's requests per second */
	uint64_t max_target_ns; /* its percentile */
	double lo, hi; /* the bracket searched down to: met at lo (or lo
			* 0), not at hi */
	bool met;      /* some rate met the target (then rate is lo) */
	double rate;   /* the answer: the highest rate that met it */
	uint64_t rate_target_ns;	     /* the percentile at that rate */
	struct clyde_dev_load_point *probes; /* owned */
	size_t nprobes;
};

/* One test of the run. */
struct clyde_dev_test_result {
	bool ran;
	uint64_t bytes;
	uint64_t ops;
	uint64_t elapsed_ns;
	uint64_t ramp_ops;	  /* done during --ramp: in no figure */
	uint64_t verified_blocks; /* --verify: read back and right */
	uint64_t cpu_user_ns, cpu_sys_ns;
	/* Every request, from submission to completion; owned. */
	struct clyde_hist *latency;
	/* What completed per interval after the ramp; owned. */
	struct clyde_series series;
	/* --until-steady: it stopped steady, steady_ns after the ramp. */
	bool steady;
	uint64_t steady_ns;
	struct clyde_devio dev;
	/* The wall time the device's counters (dev) were read around: the
	 * whole job, its ramp included, as cpu_user_ns and cpu_sys_ns. */
	uint64_t window_ns;
	/* The most requests the engine had in the kernel at once
	 * (io/engine.h, max_inflight): the depth that ran. */
	uint32_t inflight_max;
	/* The mean in flight while any request was (io/engine.h,
	 * clyde_engine_mean_inflight): how full the queue was kept; 0 when
	 * not measured. */
	double inflight_mean;
	/* The engine's submitting calls and the requests they handed to the
	 * kernel (io/engine.h; for zcav summed over every position): the
	 * JSON's submit_mean is their ratio; both 0 for psync. */
	uint64_t submit_calls;
	uint64_t submitted;
	/* Served through a page cache (see clyde_dev_run.memory_reason):
	 * the figures are memory's, not the device's. */
	bool from_memory;
	/* A loop device without direct I/O under the target: how much of
	 * its backing file's range was cached when the test started. */
	bool backing_measured;
	uint64_t backing_resident_bytes;
	uint64_t backing_range_bytes;
	/* A regular file target: its cached bytes before and after. */
	bool file_measured;
	uint64_t file_resident_before, file_resident_after;
	/* What each leaf device under the target (the members of an md
	 * array, the PVs of an LV) read and wrote during the test. */
	/* Each member, and in members.degraded an md array under the device
	 * that lost members while the test ran. */
	struct clyde_members members;
	/* --rate: the requests per second asked (0: full speed) and how
	 * late requests were sent after their due times. */
	double rate_asked;
	uint64_t lag_sum_ns, lag_max_ns;
	/* --curve: the steps, in order; owned. */
	struct clyde_dev_load_point *curve;
	size_t ncurve;
	struct clyde_dev_search search;
};

/* One position of zcav: `loops` times, one per pass. */
struct clyde_zcav_point {
	uint64_t offset_bytes; /* from the start of the device */
	uint64_t bytes;
	uint64_t *loop_ns; /* loops entries; owned */
	uint64_t ns;	   /* zcav's average of the passes (see zcav.h) */
	/* Flags: too short to time (under CLYDE_ZCAV_MIN_NS, the line zcav
	 * comments out), and, when reading, the bytes of the block that are
	 * holes of the file behind it (a regular file target, or a loop
	 * device's backing file): nothing there is read from the disk. */
	bool imprecise;
	bool holes_checked;
	uint64_t hole_bytes;
};

/* Under this a zcav block's time is too short to trust (zcav(8)'s rule). */
#define CLYDE_ZCAV_MIN_NS 500000000ull

/* A point is flagged when imprecise or (partly) over holes. */
static inline bool clyde_zcav_point_flagged(const struct clyde_zcav_point *p)
{
	return p->imprecise || p->hole_bytes > 0;
}

struct clyde_zcav_result {
	uint32_t loops_done;
	struct clyde_zcav_point *points; /* owned */
	size_t npoints;
	uint64_t *pass_ns; /* one per pass done: its whole time; owned */
	uint64_t *pass_bytes;
	/* Where holes were looked for ("" when they were not: writing, or
	 * a device with no file behind it that clyde can see). */
	char holes_file[4096];
};

struct clyde_dev_run {
	struct clyde_dev_config cfg;
	struct clyde_env env;
	uint64_t started_unix;
	uint64_t device_bytes;		     /* size of the device or file */
	uint32_t logical_block;		     /* its logical block size */
	bool is_block_device;		     /* false: a regular file */
	uint64_t range_bytes;		     /* the size actually used */
	enum clyde_iobuf_pages buffer_pages; /* what backed the buffers */
	struct clyde_dev_test_result tests[CLYDE_DEV_TEST_COUNT];
	struct clyde_zcav_result zcav;
	/* Why the figures are served from memory, one sentence ("" when they
	 * are not): a loop device without direct I/O under the target, a
	 * target on a memory filesystem, or O_DIRECT not honoured on a file
	 * target (its cached pages grew during a test). */
	char memory_reason[4608];
};

void clyde_dev_run_init(struct clyde_dev_run *run);
void clyde_dev_run_release(struct clyde_dev_run *run);

/* Bytes (or requests) per second of a test; 0 when nothing was timed. */
double clyde_dev_rate(uint64_t n, uint64_t elapsed_ns);

/*
 * The depth a test kept at the device, beside the depth it asked for
 * and clyde's own count of requests in flight (inflight_mean, counted
 * until clyde reaps them): the device's summed time in queue over the
 * test's wall time, as iostat's aqu-sz.  When the device held less than
 * CLYDE_DEV_DEPTH_TOLERANCE of the depth asked, `why` says the likely
 * cause in a sentence: the process busy most of the test (its CPU time
 * over the wall time: it, not the device, set the pace), or the device's
 * own queue limit (nr_requests) under the depth asked.
 */
#define CLYDE_DEV_DEPTH_TOLERANCE 0.97
#define CLYDE_DEV_BUSY_SHARE 0.9 /* "busy": this share of the wall time */
struct clyde_dev_depth {
	bool measured;	      /* the device's counters were read */
	unsigned asked;	      /* --iodepth (zcav: 1) */
	double device;	      /* time in queue / wall time */
	double busy_share;    /* CPU time (user + system) / wall time */
	uint32_t nr_requests; /* the device's queue limit; 0: unknown */
	char why[256];	      /* "" when the device held the depth asked */
};
void clyde_dev_depth(const struct clyde_dev_run *run, enum clyde_dev_test t,
		     struct clyde_dev_depth *d);

/* What the advice weighs of a dev run (env/advise.h's mask): its data
 * pattern and the random tests' requests of rand_bs bytes. */
unsigned clyde_dev_advise(const struct clyde_dev_config *c);

#endif

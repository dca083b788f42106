/*
 * A time series of one stream of operations: what completed in each
 * interval of `interval_ns` from an origin (a test's start), as bytes,
 * operations and a latency histogram (core/hist.h), with the host's dirty
 * and writeback memory (/proc/meminfo Dirty, Writeback) read when the
 * stream first entered the interval.
 *
 * Recording costs no system call per operation: the caller passes the
 * time it already read for the operation's latency, and the interval is
 * (now - origin) / interval_ns.  Only entering a new interval does more:
 * it allocates that interval's histogram (about 20 KiB) and calls the
 * memory sampler, once.  So memory grows by one histogram per interval and
 * per stream; clyde_series_release() frees it.
 *
 * An operation is counted in the interval in which it completed.  The last
 * interval is usually partial: clyde_series_end() records where the stream
 * stopped, and clyde_series_dur() gives each interval's length.
 *
 * Merging (workers of a test, MPI ranks) is by interval index, exact:
 * counts add, histograms merge bucketwise, so a merged interval's p99 is
 * the p99 of all the operations every stream completed in it.  Streams
 * index their intervals from their own origin; the workers of a test are
 * released together (a barrier, on MPI after a collective one), so index k
 * of each is the same second of the test up to that release's skew.
 *
 * Threads: a series is one thread's, like a histogram; merge after join.
 */
#ifndef CLYDE_CORE_SERIES_H
#define CLYDE_CORE_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"

/* The default interval: one second. */
#define CLYDE_SERIES_DEFAULT_NS 1000000000ull
/* --log-interval's range, milliseconds. */
#define CLYDE_SERIES_MIN_MS 10u
#define CLYDE_SERIES_MAX_MS 3600000u

/* Fills *dirty and *writeback (bytes) or sets them to -1 when unknown. */
typedef void (*clyde_series_mem_fn)(void *arg, int64_t *dirty,
				    int64_t *writeback);

struct clyde_series_iv {
	uint64_t bytes;
	uint64_t ops;
	/* The host's Dirty and Writeback when the interval was entered (a
	 * merged interval: the largest any stream saw); -1 when not read. */
	int64_t dirty_bytes;
	int64_t writeback_bytes;
	struct clyde_hist *lat; /* owned; NULL: no latency recorded */
	/* Latency figures without a histogram: an interval that came from
	 * another MPI rank carries its worker's count, p50, p99 and max as
	 * computed there (have_q); merging ignores them. */
	bool have_q;
	uint64_t q_count, q_p50, q_p99, q_max;
};

struct clyde_series {
	uint64_t interval_ns; /* 0: not recording */
	uint64_t origin_ns;
	uint64_t end_ns; /* where the stream stopped (0: not yet) */
	size_t n;	 /* intervals [0, n) */
	size_t cap;
	struct clyde_series_iv *iv; /* owned */
	size_t cur;		    /* the interval last recorded into */
	uint64_t cur_lo;	    /* ... and where it starts */
	bool failed;		    /* out of memory: intervals missing */
	clyde_series_mem_fn mem;    /* may be NULL: memory not read */
	void *mem_arg;
};

/* Make s an empty series with no intervals; interval_ns 0 records
 * nothing (every call below is then a no-op). */
void clyde_series_init(struct clyde_series *s, uint64_t interval_ns,
		       clyde_series_mem_fn mem, void *mem_arg);

/* Set the origin (the stream's start) and forget what was recorded. */
void clyde_series_start(struct clyde_series *s, uint64_t origin_ns);

/* Free the intervals; s is then empty (it may be started again). */
void clyde_series_release(struct clyde_series *s);

/* The slow path of clyde_series_add: enter interval k.  Returns the
 * interval or NULL (out of memory; the series is marked failed). */
struct clyde_series_iv *clyde_series_enter(struct clyde_series *s, size_t k);

/*
 * Count `ops` operations of `bytes` bytes that completed at now_ns, and
 * latency lat_ns unless it is CLYDE_SERIES_NO_LAT.  Times before the
 * origin are not counted (a ramp).
 */
#define CLYDE_SERIES_NO_LAT UINT64_MAX
static inline void clyde_series_add(struct clyde_series *s, uint64_t now_ns,
				    uint64_t lat_ns, uint64_t bytes,
				    uint64_t ops)
{
	struct clyde_series_iv *iv;
	size_t k;

	if (!s->interval_ns || now_ns < s->origin_ns)
		return;
	/* Most operations fall into the interval of the one before: a
	 * subtraction and a comparison, no division. */
	if (s->cur < s->n && now_ns - s->cur_lo < s->interval_ns) {
		iv = &s->iv[s->cur];
	} else {
		k = (size_t)((now_ns - s->origin_ns) / s->interval_ns);
		iv = clyde_series_enter(s, k);
	}
	if (!iv)
		return;
	iv->bytes += bytes;
	iv->ops += ops;
	if (lat_ns != CLYDE_SERIES_NO_LAT && iv->lat)
		clyde_hist_record(iv->lat, lat_ns);
}

/* Make intervals [0, n) exist (new ones empty).  0 or -ENOMEM. */
int clyde_series_grow(struct clyde_series *s, size_t n);

/* The stream stopped at end_ns (the last interval ends there). */
void clyde_series_end(struct clyde_series *s, uint64_t end_ns);

/* The length of interval k: interval_ns, less for the last one. */
uint64_t clyde_series_dur(const struct clyde_series *s, size_t k);

/*
 * Add src into dst by interval index (dst may be empty: it takes src's
 * interval and origin).  Returns 0 or -ENOMEM.  The end is the later one.
 */
int clyde_series_merge(struct clyde_series *dst,
		       const struct clyde_series *src);

/*
 * Steadiness of a series' rate (bytes per second when `bytes`, otherwise
 * operations per second) over its full intervals (a last interval shorter
 * than half an interval is left out): the coefficient of variation
 * (standard deviation / mean, population) and the least-squares slope in
 * rate units per second, also relative to the mean (per second).
 * Returns the number of intervals used; with fewer than 2 the figures
 * are 0.
 */
struct clyde_series_steady {
	size_t n;
	double mean;	  /* rate units per second */
	double cv;	  /* 0..: stddev / mean */
	double slope;	  /* rate units per second, per second */
	double slope_rel; /* slope / mean: fraction per second */
};
size_t clyde_series_steadiness(const struct clyde_series *s, bool bytes,
			       size_t from, size_t to,
			       struct clyde_series_steady *out);

/* Read Dirty and Writeback from a meminfo file (NULL: /proc/meminfo);
 * -1 each when it cannot be read.  A clyde_series_mem_fn with arg the
 * path. */
void clyde_series_meminfo(void *path, int64_t *dirty, int64_t *writeback);

#endif

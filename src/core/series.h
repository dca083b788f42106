/*
 * A time series of one stream of operations: what completed in each
 * interval of `interval_ns` from an origin (a test's start), as bytes,
 * operations and a latency histogram (core/hist.h), with the host's dirty
 * and writeback memory (/proc/meminfo Dirty, Writeback).
 *
 * Recording costs no system call per operation: the caller passes the
 * time it already read for the operation's latency, and the interval is
 * (now - origin) / interval_ns.  The interval being recorded into has a
 * full histogram (one per stream, about 20 KiB, `work`); when the stream
 * moves to another interval that histogram is packed into the interval
 * (clyde_series_pack(): its non-empty buckets and exact min, max, count
 * and sum, varint-coded, typically a few hundred bytes), so the
 * histograms stay exact and mergeable at a fraction of their size.
 *
 * Memory is bounded: when a stream's intervals and packed histograms
 * exceed `budget` bytes (CLYDE_SERIES_BUDGET), or it has more than
 * CLYDE_SERIES_MAX_INTERVALS intervals, adjacent intervals are
 * merged in pairs (exactly: counts add, histograms bucketwise) and
 * interval_ns doubles; `base_ns` keeps the interval asked for, so
 * interval_ns / base_ns says how many were merged.
 *
 * Dirty and writeback: `mem` is called when the stream first enters an
 * interval (an interval nothing completed in has none), and at the end
 * for a last interval without.  With a sampler (clyde_series_sampler
 * below, one thread per test that reads the memory every half interval,
 * whether or not anything completes) each interval takes the first sample
 * in it when the stream ends instead, so a stall with no completion still
 * has its dirty figures; the stream's own read stands only where the
 * sampler took none (its thread got no CPU for a whole interval).
 *
 * Traffic of a network mount (clyde_series_set_wire(), issue 34): its
 * counters are cumulative, so an interval's traffic is its last reading
 * less the last one before it (the sampler reads them with the memory;
 * the stream at its origin and its end).  An interval without a reading
 * has none: its traffic is counted in the next one that has, so the
 * known intervals add up to the stream's traffic.
 *
 * An operation is counted in the interval in which it completed.  The last
 * interval is usually partial: clyde_series_end() records where the stream
 * stopped, and clyde_series_dur() gives each interval's length.
 *
 * Merging (workers of a test, MPI ranks) is by interval index, exact:
 * counts add, histograms merge bucketwise, so a merged interval's p99 is
 * the p99 of all the operations every stream completed in it.  Streams of
 * different merged intervals (one reached its budget sooner) are merged at
 * the coarser one, also exactly.  Streams index their intervals from their
 * own origin; the workers of a test are released together (a barrier, on
 * MPI after a collective one), so index k of each is the same second of
 * the test up to that release's skew.
 *
 * Threads: a series is one thread's, like a histogram; merge after join.
 */
#ifndef CLYDE_CORE_SERIES_H
#define CLYDE_CORE_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include "core/hist.h"

/* The default interval: one second. */
#define CLYDE_SERIES_DEFAULT_NS 1000000000ull
/* --log-interval's range, milliseconds. */
#define CLYDE_SERIES_MIN_MS 10u
#define CLYDE_SERIES_MAX_MS 3600000u

/* A stream's memory budget (its intervals and their packed histograms,
 * not the one working histogram): 1 MiB, about a thousand intervals of a
 * typical latency spread before two are merged into one. */
#define CLYDE_SERIES_BUDGET ((size_t)1 << 20)
/* ... and at most this many intervals (which bounds the JSON too: some
 * 400 bytes an interval and stream): 2 h 16 min at 1 s. */
#define CLYDE_SERIES_MAX_INTERVALS 8192u

/* Fills *dirty and *writeback (bytes) or sets them to -1 when unknown. */
typedef void (*clyde_series_mem_fn)(void *arg, int64_t *dirty,
				    int64_t *writeback);

/* A network mount's client counters since it was mounted (NFS: its
 * mountstats entry's bytes sent and received and RPCs, summed over the
 * operations); -1 each when unknown. */
struct clyde_series_wire {
	int64_t sent, recv, rpcs;
};
/* Fills *out (every field -1 when the counters cannot be read). */
typedef void (*clyde_series_wire_fn)(void *arg, struct clyde_series_wire *out);

struct clyde_series_iv {
	uint64_t bytes;
	uint64_t ops;
	/* The host's Dirty and Writeback in the interval (the first sample
	 * of the sampler in it, else when the stream entered it; a merged
	 * interval: the largest any stream saw); -1 when not read. */
	int64_t dirty_bytes;
	int64_t writeback_bytes;
	/* Over the wire in the interval (the series' `wire`: its last
	 * reading of the counters less the last one before it; a merged
	 * interval: the largest any stream saw, the streams sharing one
	 * mount); -1 when not known (no network mount, no reading in the
	 * interval: its traffic is in the next known one, a counter that
	 * went back). */
	int64_t wire_sent, wire_recv, wire_rpcs;
	/* The counters' last reading in the interval (-1: none). */
	struct clyde_series_wire mark;
	/* The latency histogram, packed (clyde_series_pack()); NULL: none
	 * recorded, or it is the series' working one (read both with
	 * clyde_series_lat()). */
	uint8_t *lat;
	uint32_t lat_len;
	/* Latency figures without a histogram: an interval that came from
	 * another MPI rank carries its worker's count, p50, p99 and max as
	 * computed there (have_q); merging ignores them. */
	bool have_q;
	uint64_t q_count, q_p50, q_p99, q_max;
};

struct clyde_series_sampler;

struct clyde_series {
	uint64_t interval_ns; /* 0: not recording */
	uint64_t base_ns;     /* the interval asked for; interval_ns is
			       * base_ns times a power of two */
	uint64_t origin_ns;
	uint64_t end_ns; /* where the stream stopped (0: not yet) */
	/* A timed flush (the fsync a write test ends with): where it began,
	 * from the origin; has_flush false when none was marked.  Merged,
	 * the first stream's: every interval before it was writing. */
	bool has_flush;
	uint64_t flush_at_ns;
	size_t n; /* intervals [0, n) */
	size_t cap;
	struct clyde_series_iv *iv; /* owned */
	size_t cur;		 /* the interval in `work` (SIZE_MAX: none) */
	uint64_t cur_lo;	 /* ... and where it starts */
	struct clyde_hist *work; /* owned: interval cur's histogram */
	size_t packed;		 /* bytes of the packed histograms */
	size_t budget;		 /* CLYDE_SERIES_BUDGET unless a test sets it */
	bool failed;		 /* out of memory: intervals missing */
	clyde_series_mem_fn mem; /* may be NULL: memory not read */
	void *mem_arg;
	clyde_series_wire_fn wire; /* may be NULL: no network mount */
	void *wire_arg;
	struct clyde_series_wire wire_start;  /* read at the origin */
	struct clyde_series_sampler *sampler; /* may be NULL (borrowed) */
};

/* Make s an empty series with no intervals; interval_ns 0 records
 * nothing (every call below is then a no-op). */
void clyde_series_init(struct clyde_series *s, uint64_t interval_ns,
		       clyde_series_mem_fn mem, void *mem_arg);

/*
 * Count the traffic of a network mount per interval (wire may be NULL:
 * none): its counters are read at the origin (clyde_series_start()), in
 * each interval (the sampler's last reading in it; without a sampler, when
 * the stream enters it) and at the end (clyde_series_end()), which makes
 * each interval's wire_sent, wire_recv and wire_rpcs.  Set it before
 * clyde_series_start().
 */
void clyde_series_set_wire(struct clyde_series *s, clyde_series_wire_fn wire,
			   void *wire_arg);

/* Mark the start of the stream's timed flush at now_ns (a no-op when
 * not recording): its intervals from there on hold no request, and the
 * steadiness of the writing stops there (clyde_series_write_phase()). */
void clyde_series_flush(struct clyde_series *s, uint64_t now_ns);

/* The full intervals before the flush began (s->n without a flush). */
size_t clyde_series_write_phase(const struct clyde_series *s);

/* Set the origin (the stream's start) and forget what was recorded. */
void clyde_series_start(struct clyde_series *s, uint64_t origin_ns);

/* Free the intervals; s is then empty (it may be started again). */
void clyde_series_release(struct clyde_series *s);

/* The slow path of clyde_series_add: enter interval k (its histogram
 * becomes `work`).  Returns the interval or NULL (out of memory; the
 * series is marked failed).  May merge intervals (the budget). */
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
	if (lat_ns != CLYDE_SERIES_NO_LAT)
		clyde_hist_record(s->work, lat_ns);
}

/* Make intervals [0, n) exist (new ones empty).  0 or -ENOMEM. */
int clyde_series_grow(struct clyde_series *s, size_t n);

/* The stream stopped at end_ns (the last interval ends there); with a
 * sampler, every interval takes its dirty and writeback figures from it.
 * Packs the working histogram. */
void clyde_series_end(struct clyde_series *s, uint64_t end_ns);

/* Interval k's latency histogram into *h (made empty first).  Returns its
 * count. */
uint64_t clyde_series_lat(const struct clyde_series *s, size_t k,
			  struct clyde_hist *h);

/* Add h into the interval of s that holds interval k of a series of
 * k_interval_ns (the same origin and base; s as fine or coarser), made to
 * exist.  0, -EINVAL or -ENOMEM.  May merge intervals (the budget). */
int clyde_series_add_hist(struct clyde_series *s, size_t k,
			  uint64_t k_interval_ns, const struct clyde_hist *h);

/* Merge adjacent intervals in pairs until interval_ns is at least
 * `interval_ns` (a power-of-two multiple of base_ns).  0, -EINVAL (not
 * such a multiple) or -ENOMEM. */
int clyde_series_coarsen(struct clyde_series *s, uint64_t interval_ns);

/* The bytes a series holds beyond its struct: intervals, packed
 * histograms and the working histogram. */
size_t clyde_series_bytes(const struct clyde_series *s);

/* Pack h (clyde_series_lat() unpacks): *out is malloc'd (NULL for an
 * empty h), *len its length.  0 or -ENOMEM.  unpack adds the packed
 * histogram into h (exactly as clyde_hist_merge would). */
int clyde_series_pack(const struct clyde_hist *h, uint8_t **out, uint32_t *len);
void clyde_series_unpack(const uint8_t *p, uint32_t len, struct clyde_hist *h);

/* The length of interval k: interval_ns, less for the last one. */
uint64_t clyde_series_dur(const struct clyde_series *s, size_t k);

/*
 * Add src into dst by interval index (dst may be empty: it takes src's
 * interval and origin).  A finer stream goes into the coarser one's
 * intervals (dst is coarsened when src is coarser).  Returns 0, -EINVAL
 * (intervals of different bases) or -ENOMEM.  The end is the later one.
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

/*
 * The sampler: a thread that reads the memory (mem, mem_arg) at start and
 * then every half interval (at least every 5 ms) until stopped, stamping
 * each sample with `clock`, the clock the streams' times come from.  A
 * series given one (s->sampler) fills its intervals from it at
 * clyde_series_end().  Samples are kept to CLYDE_SERIES_MAX_SAMPLES; when
 * that many are held, every other one is dropped and the period doubles.
 */
#define CLYDE_SERIES_MAX_SAMPLES 32768u

struct clyde_series_sample {
	uint64_t t_ns;
	int64_t dirty, writeback;
	struct clyde_series_wire wire; /* -1 each: no `wire` */
};

struct clyde_series_sampler {
	uint64_t (*clock)(void *arg);
	void *clock_arg;
	clyde_series_mem_fn mem;
	void *mem_arg;
	clyde_series_wire_fn wire; /* may be NULL */
	void *wire_arg;
	uint64_t period_ns;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t tid;
	bool running; /* the thread was started */
	bool quit;
	struct clyde_series_sample *v; /* owned, by time */
	size_t n, cap;
};

/* Start sampling for series of interval_ns (0: nothing is done), the
 * memory and, when wire is not NULL, a network mount's counters.  Without
 * a thread (it could not start) only the first sample is taken. */
void clyde_series_sampler_start(struct clyde_series_sampler *sm,
				uint64_t interval_ns,
				uint64_t (*clock)(void *arg), void *clock_arg,
				clyde_series_mem_fn mem, void *mem_arg,
				clyde_series_wire_fn wire, void *wire_arg);
/* Stop the thread and free the samples (after the series ended). */
void clyde_series_sampler_stop(struct clyde_series_sampler *sm);
/* Give every interval of s the first sample taken in it (those with no
 * sample keep what they have), and the wire counters of the last one as
 * its reading.  clyde_series_end() calls it. */
void clyde_series_sampler_fill(struct clyde_series_sampler *sm,
			       struct clyde_series *s);

#endif

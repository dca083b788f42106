/*
 * The bonnie++ suite: the table of twelve tests, the workers of -c N, and
 * the accounting that turns their spans into one result per test.
 *
 * For every test the suite starts one thread per worker; each body does its
 * untimed set-up, then meets the others at a barrier (clyde_worker_go) so
 * that all are released together.  The rate is total work over the time
 * from the first worker's start to the last one's end.  CPU is counted per
 * thread over exactly the timed window (the thread's CPU clock, read just
 * inside the wall-clock readings): a worker's CPU is its own thread's plus
 * its seekers', and the test's is the sum over the workers.  Set-up before
 * the start barrier (the subdirectories of -n N:0:0:D, the names) and the
 * checks after the end are not counted, nor is the suite's own thread;
 * bonnie++ summed every seeker's process-wide CPU instead.
 *
 * A run also reports its wall time and the part of it outside the timed
 * windows (cache eviction and residency, set-up, checks), so that what the
 * honest numbers cost is a number too.
 */
#include "workloads/bonnie.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "env/env.h"
#include "env/members.h"
#include "env/ownio.h"
#include "env/settle.h"
#include "io/cache.h"
#include "io/scratch.h"
#include "io/target.h"
#include "results/figures.h"
#include "results/testio.h"
#include "io/verify.h"
#include "workloads/worker.h"

struct test_entry {
	enum clyde_test id;
	int (*body)(struct clyde_worker *w);
};

/* bonnie++'s order, which every output keeps.  Names and labels are
 * results/result.h's. */
static const struct test_entry suite[CLYDE_TEST_COUNT] = {
	{ CLYDE_PUTC, clyde_test_putc },
	{ CLYDE_PUT_BLOCK, clyde_test_put_block },
	{ CLYDE_REWRITE, clyde_test_rewrite },
	{ CLYDE_GETC, clyde_test_getc },
	{ CLYDE_GET_BLOCK, clyde_test_get_block },
	{ CLYDE_SEEKS, clyde_test_seeks },
	{ CLYDE_SEQ_CREATE, clyde_test_create },
	{ CLYDE_SEQ_STAT, clyde_test_stat },
	{ CLYDE_SEQ_DEL, clyde_test_delete },
	{ CLYDE_RAN_CREATE, clyde_test_create },
	{ CLYDE_RAN_STAT, clyde_test_stat },
	{ CLYDE_RAN_DEL, clyde_test_delete },
};

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u +
	       (uint64_t)tv->tv_usec * 1000u;
}

void clyde_cpu_mark(struct clyde_cpu_mark *m)
{
	struct timespec ts;
	struct rusage ru;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	getrusage(RUSAGE_THREAD, &ru);
	m->ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	m->user_ns = tv_ns(&ru.ru_utime);
	m->sys_ns = tv_ns(&ru.ru_stime);
}

/*
 * The thread clock is exact to the nanosecond; RUSAGE_THREAD is not (it
 * scales the scheduler's runtime by tick samples and can be a few
 * milliseconds off either way over a short window), but it is the only
 * source of the user/system split.  So the total is the clock's and the
 * split follows getrusage's; with no tick in the window it is all user
 * time, as the kernel does.
 */
void clyde_cpu_since(const struct clyde_cpu_mark *m, uint64_t *user_ns,
		     uint64_t *sys_ns)
{
	struct clyde_cpu_mark now;
	uint64_t total, du, ds;

	clyde_cpu_mark(&now);
	total = now.ns > m->ns ? now.ns - m->ns : 0;
	du = now.user_ns > m->user_ns ? now.user_ns - m->user_ns : 0;
	ds = now.sys_ns > m->sys_ns ? now.sys_ns - m->sys_ns : 0;
	*user_ns = du + ds ? (uint64_t)((double)total * (double)du /
					(double)(du + ds)) :
			     total;
	if (*user_ns > total)
		*user_ns = total;
	*sys_ns = total - *user_ns;
}

uint64_t clyde_worker_go(struct clyde_worker *w, int err)
{
	if (err < 0)
		atomic_store(&w->ctx->failed, 1);
	pthread_barrier_wait(w->start);
	/* The CPU window nests inside the clock's, so that one thread's CPU
	 * can never exceed its elapsed time. */
	w->span->start_ns = clyde_now(w->ctx);
	clyde_series_init(&w->span->series, w->cfg->log_interval_ns,
			  clyde_series_meminfo, NULL);
	w->span->series.sampler = w->sampler;
	clyde_series_set_wire(&w->span->series, w->wire, w->wire_arg);
	clyde_series_start(&w->span->series, w->span->start_ns);
	clyde_cpu_mark(&w->cpu0);
	return w->span->start_ns;
}

void clyde_worker_end(struct clyde_worker *w)
{
	clyde_cpu_since(&w->cpu0, &w->span->cpu_user_ns, &w->span->cpu_sys_ns);
	w->span->end_ns = clyde_now(w->ctx);
	clyde_series_end(&w->span->series, w->span->end_ns);
}

uint64_t clyde_worker_op(struct clyde_worker *w, uint64_t t0, int count)
{
	uint64_t now = clyde_now(w->ctx);

	clyde_worker_latency(w, now - t0, count);
	clyde_series_add(&w->span->series, now, now - t0, 0, count ? 1 : 0);
	return now;
}

void clyde_worker_latency(struct clyde_worker *w, uint64_t ns, int count)
{
	if (count) {
		w->span->ops++;
		if (!clyde_test_is_io(w->test))
			clyde_worker_progress(w, 1);
	}
	if (w->span->hist)
		clyde_hist_record(w->span->hist, ns);
	if (ns > w->span->latency_max_ns)
		w->span->latency_max_ns = ns;
}

int clyde_worker_err(struct clyde_worker *w, int errnum, const char *fmt, ...)
{
	char msg[CLYDE_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return clyde_err(w->ctx, errnum, "%s: %s", w->test_label, msg);
}

struct suite_state {
	struct clyde_ctx *ctx;
	const struct clyde_bonnie_config *cfg;
	struct clyde_scratch *scratch;
	unsigned n;
	struct clyde_worker *w;
	const struct clyde_target *target;
	struct clyde_progress *progress;
	bool memory_fs; /* tmpfs and the like: the cache is the storage */
	/* The storage under the files: its counters, whether it is idle,
	 * its caches (io/target.h). */
	struct clyde_target_watch tgt;
	/* --read-shift: the other rank's directory while a test that reads
	 * it runs (-1 otherwise). */
	int read_fd;
};

bool clyde_bonnie_reads_other(enum clyde_test t)
{
	return t == CLYDE_GETC || t == CLYDE_GET_BLOCK || t == CLYDE_SEEKS;
}

/* Worker w's IO file: io.<number> in directory dirfd (at path). */
static void worker_file(struct clyde_worker *w, int dirfd, const char *path,
			unsigned number)
{
	w->scratch_fd = dirfd;
	w->scratch = path;
	snprintf(w->io_name, sizeof(w->io_name), "io.%u", number);
}

/*
 * --read-shift: point every worker at the other rank's file for test t
 * (shift_in), and back at its own (shift_out).  Opened per test, so that
 * no descriptor of the target is held between tests (a ZFS export).
 */
static int shift_in(struct suite_state *st, enum clyde_test t)
{
	const struct clyde_bonnie_config *cfg = st->cfg;

	if (!cfg->read_path || !clyde_bonnie_reads_other(t))
		return 0;
	st->read_fd = open(cfg->read_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->read_fd < 0)
		return clyde_err(st->ctx, errno,
				 "%s: --read-shift: cannot open %s",
				 clyde_test_label(t), cfg->read_path);
	for (unsigned i = 0; i < st->n; i++)
		worker_file(&st->w[i], st->read_fd, cfg->read_path,
			    cfg->read_base + i);
	return 0;
}

static void shift_out(struct suite_state *st)
{
	if (st->read_fd < 0)
		return;
	for (unsigned i = 0; i < st->n; i++)
		worker_file(&st->w[i], st->scratch->dirfd, st->scratch->path,
			    st->cfg->worker_base + i);
	close(st->read_fd);
	st->read_fd = -1;
}

/*
 * clyde-mpi's rank 0 (cfg->server_late), now that every rank has ended
 * test r: when the target kind wants it (io/target.h's late_wanted: an
 * NFS mount's server side, the export's disks and nfsd's counters), end
 * the test again from its start, so that the figures hold the writes of
 * the ranks that ended after this one; the kind keeps of that reading
 * what it wants (late_keep), the rank's own wire figures keeping its own
 * window.
 */
static void server_late(struct suite_state *st, struct clyde_test_result *r)
{
	const struct clyde_target_ops *k = r->figs.kind;
	struct clyde_target_moved moved = { .members = &r->members };
	void *again;

	if (!st->cfg->server_late || !k || !r->figs.data || !k->figs ||
	    !k->figs->late_wanted || !k->figs->late_keep ||
	    !k->figs->late_wanted(r->figs.data))
		return;
	again = calloc(1, k->figs_size);
	if (!again)
		return;
	moved.figs = again;
	clyde_target_end(&st->tgt, &moved);
	k->figs->late_keep(r->figs.data, again);
	free(again);
}

/* Tests that write: on ZFS the pool is synced at their end, so that the
 * leaves' counters hold their data. */
static bool writes(enum clyde_test t)
{
	return t != CLYDE_GETC && t != CLYDE_GET_BLOCK && t != CLYDE_SEQ_STAT &&
	       t != CLYDE_RAN_STAT;
}

static bool is_metadata(enum clyde_test t)
{
	return t == CLYDE_SEQ_STAT || t == CLYDE_SEQ_DEL ||
	       t == CLYDE_RAN_STAT || t == CLYDE_RAN_DEL;
}

/*
 * Can the file tests' files hold data?  Not with -n N:0 (bonnie++'s
 * default) nor with links (-1, -2), which all point to one empty file:
 * such files have no pages to evict or measure, and walking them (a stat
 * of every file before every stat and delete test) would cost as much as
 * the stat tests themselves.
 */
static bool files_have_data(const struct clyde_bonnie_config *cfg)
{
	return cfg->max_size > 0;
}

/* The IO tests whose O_DIRECT use the file's residency can check. */
static bool direct_checkable(enum clyde_test t)
{
	return t == CLYDE_PUT_BLOCK || t == CLYDE_REWRITE ||
	       t == CLYDE_GET_BLOCK || t == CLYDE_SEEKS;
}

/*
 * Evict (when asked) worker w's IO file and measure its residency.
 * Returns 0 when measured, 1 when it could not be measured (reported as
 * "not measured", not an error), or a negative errno when the eviction's
 * fsync failed, which is a real I/O error.
 */
static int io_residency(struct suite_state *st, struct clyde_worker *w,
			bool evict, uint64_t *resident, uint64_t *total)
{
	struct clyde_ctx quiet;
	char path[4200];
	int fd, ret = 0;

	/* Under -D even this open carries O_DIRECT: no descriptor of the
	 * test file is ever a buffered one (mmap and fadvise work anyway). */
	fd = openat(w->scratch_fd, w->io_name,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
			    (st->cfg->direct ? O_DIRECT : 0));
	if (fd < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/%s", w->scratch, w->io_name);
	if (evict)
		ret = clyde_target_evict_fd(st->ctx, &st->tgt, fd, path);
	if (!ret) {
		clyde_ctx_init(&quiet);
		if (clyde_target_residency_fd(&quiet, &st->tgt, fd, resident,
					      total) < 0)
			ret = 1;
		clyde_ctx_release(&quiet);
	}
	close(fd);
	return ret;
}

static int worker_dir(struct suite_state *st, struct clyde_worker *w,
		      const char *label);

/*
 * The suite's descriptors on the target (the scratch directory, its
 * parent, the workers' file-test directories), closed and opened again
 * around a ZFS export and import (io/target.h, struct clyde_target_hold).
 */
static void hold_release(void *arg)
{
	struct suite_state *st = arg;

	clyde_scratch_release(st->scratch);
	for (unsigned i = 0; i < st->n; i++) {
		struct clyde_worker *w = &st->w[i];

		w->scratch_fd = -1;
		w->dir_reopen = w->dirfd >= 0;
		if (w->dirfd >= 0)
			close(w->dirfd);
		w->dirfd = -1;
	}
}

static int hold_reacquire(struct clyde_ctx *ctx, void *arg)
{
	struct suite_state *st = arg;
	int ret = clyde_scratch_reopen(ctx, st->scratch);

	for (unsigned i = 0; i < st->n && !ret; i++) {
		struct clyde_worker *w = &st->w[i];

		w->scratch_fd = st->scratch->dirfd;
		if (w->dir_reopen)
			ret = worker_dir(st, w, "cache eviction");
	}
	return ret;
}

/*
 * Before a test: evict the files the test will read and record how much
 * of them is still cached when it starts, then drop every cache
 * (--drop-caches, metadata tests).  Untimed.  The drop comes last: the
 * eviction walk looks up every inode, which would warm again the caches
 * the drop has just emptied.
 */
static int prepare_cache(struct suite_state *st, enum clyde_test t,
			 struct clyde_test_result *r)
{
	const struct clyde_bonnie_config *cfg = st->cfg;
	bool evict = !cfg->no_evict && !st->memory_fs;
	int ret;

	r->cache.evicted = evict && clyde_test_reads_back(t);
	if (r->cache.evicted) {
		/* A cache under every file at once (ZFS's ARC): first. */
		struct clyde_target_hold hold = {
			.release = hold_release,
			.reacquire = hold_reacquire,
			.arg = st,
		};

		ret = clyde_target_evict_all(st->ctx, &st->tgt,
					     st->scratch->parent ? &hold : NULL,
					     r->figs.data);
		if (ret < 0)
			return ret;
	}
	ret = shift_in(st, t);
	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < st->n && clyde_test_reads_back(t); i++) {
		struct clyde_worker *w = &st->w[i];
		struct clyde_span *sp = &r->spans[i];
		uint64_t res = 0, tot = 0;

		if (t < CLYDE_FIRST_FILE_TEST) {
			ret = io_residency(st, w, evict, &res, &tot);
			if (ret < 0)
				return clyde_err(st->ctx, -ret,
						 "%s: cannot prepare %s/%s",
						 clyde_test_label(t),
						 w->scratch, w->io_name);
			if (ret > 0 || st->memory_fs)
				continue;
		} else if (evict && files_have_data(cfg)) {
			struct clyde_cache_dir_stats ds;

			/* One walk evicts and measures what is left,
			 * which is what the test starts with. */
			ret = clyde_target_evict_dir(
				st->ctx, &st->tgt, w->dirfd, w->dir_path, &ds);
			if (ret < 0)
				return ret;
			res = ds.resident_after;
			tot = ds.total_bytes;
		} else {
			continue;
		}
		sp->resident_bytes = res;
		sp->cached_total_bytes = tot;
	}
	/* Below the filesystem: a loop device without direct I/O would
	 * serve the test from its backing file's cache. */
	if (clyde_test_reads_back(t) && clyde_target_has_below(&st->tgt))
		clyde_target_below(&st->tgt, evict, &r->cache.loop);
	/* A file server's cache of the same files (an NFS server on this
	 * machine), after the client's eviction has sent it the writes. */
	if (clyde_test_reads_back(t))
		clyde_target_server(&st->tgt, evict, &r->cache.server);
	if (is_metadata(t) && cfg->drop_caches) {
		ret = clyde_target_drop_all(st->ctx, &st->tgt);
		if (ret < 0)
			return ret;
		r->cache.dropped = true;
	}
	return 0;
}

/* Under -D: did the IO test leave its data out of the page cache? */
static void check_direct(struct suite_state *st, enum clyde_test t,
			 struct clyde_test_result *r)
{
	bool honoured = true;

	if (!st->cfg->direct || !direct_checkable(t) || st->memory_fs)
		return;
	for (unsigned i = 0; i < st->n; i++) {
		uint64_t after = 0, tot = 0;

		if (io_residency(st, &st->w[i], false, &after, &tot) != 0)
			return;
		if (!clyde_cache_direct_honoured(r->spans[i].resident_bytes,
						 after, r->spans[i].bytes))
			honoured = false;
	}
	r->cache.direct_checked = true;
	r->cache.direct_honoured = honoured;
}

/* What the progress display counts to: bytes, seeks or files, all workers. */
static uint64_t progress_total(const struct clyde_bonnie_config *cfg,
			       enum clyde_test t, unsigned n)
{
	uint64_t file = cfg->file_size_mib << 20, per;

	/* By time the IO tests have no amount to reach (0: none shown). */
	if (cfg->runtime_ns && (clyde_test_is_io(t) || t == CLYDE_SEEKS))
		return 0;
	switch (t) {
	case CLYDE_PUTC:
	case CLYDE_GETC:
		per = clyde_bonnie_perchar_bytes(cfg);
		break;
	case CLYDE_PUT_BLOCK:
	case CLYDE_REWRITE:
	case CLYDE_GET_BLOCK:
		per = file / cfg->io_chunk * cfg->io_chunk;
		break;
	case CLYDE_SEEKS:
		per = cfg->seeks;
		break;
	default:
		per = cfg->num_files;
		break;
	}
	return per * n;
}

static void *worker_main(void *arg)
{
	struct clyde_worker *w = arg;
	const struct test_entry *t = &suite[w->test];
	int ret = t->body(w);

	return (void *)(intptr_t)ret;
}

/* Open (creating it the first time) worker i's directory for file tests. */
static int worker_dir(struct suite_state *st, struct clyde_worker *w,
		      const char *label)
{
	char name[32];

	if (w->dirfd >= 0)
		return 0;
	if (st->cfg->shared_files)
		snprintf(name, sizeof(name), "files");
	else
		snprintf(name, sizeof(name), "files.%u",
			 st->cfg->worker_base + w->index);
	if (mkdirat(st->scratch->dirfd, name, 0700) < 0 && errno != EEXIST)
		return clyde_err(st->ctx, errno, "%s: cannot create %s/%s",
				 label, st->scratch->path, name);
	w->dirfd = openat(st->scratch->dirfd, name,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (w->dirfd < 0)
		return clyde_err(st->ctx, errno, "%s: cannot open %s/%s", label,
				 st->scratch->path, name);
	snprintf(w->dir_path, sizeof(w->dir_path), "%s/%s", st->scratch->path,
		 name);
	return 0;
}

static int suite_init(struct suite_state *st, uint64_t seed,
		      const uint32_t *ext, size_t n_ext)
{
	struct clyde_rng master;

	clyde_rng_seed(&master, seed);
	if (ext && n_ext)
		clyde_rng_external(&master, ext, n_ext, 0);
	st->w = calloc(st->n, sizeof(*st->w));
	if (!st->w)
		return clyde_err(st->ctx, ENOMEM, "cannot allocate %u workers",
				 st->n);
	for (unsigned i = 0; i < st->n; i++) {
		struct clyde_worker *w = &st->w[i];
		struct clyde_rng data_rng;

		w->ctx = st->ctx;
		w->cfg = st->cfg;
		w->index = i;
		w->dirfd = -1;
		w->seed = seed;
		unsigned g = st->cfg->worker_base + i; /* over all ranks */

		worker_file(w, st->scratch->dirfd, st->scratch->path, g);
		clyde_rng_fork(&master, g, &w->rng);
		/* The data follows its own stream. */
		clyde_rng_fork(&master, 1000u + g, &data_rng);
		clyde_pattern_init(&w->pat,
				   st->cfg->pattern == CLYDE_PATTERN_ZEROS,
				   &data_rng);
		clyde_pattern_compressible(&w->pat, st->cfg->compress_pct);
	}
	return 0;
}

static void suite_release(struct suite_state *st)
{
	if (st->w) {
		for (unsigned i = 0; i < st->n; i++) {
			struct clyde_worker *w = &st->w[i];

			if (w->state && w->state_free)
				w->state_free(w->state);
			clyde_pattern_release(&w->pat);
			if (w->dirfd >= 0)
				close(w->dirfd);
			/* The IO file of an interrupted or failed test;
			 * under --read-shift another rank may still read
			 * it: the scratch directory's removal takes it. */
			if (!st->cfg->read_path)
				unlinkat(w->scratch_fd, w->io_name, 0);
		}
	}
	free(st->w);
}

static int test_wanted(const struct clyde_bonnie_config *cfg, enum clyde_test t)
{
	if (clyde_test_is_io(t) || t == CLYDE_SEEKS) {
		if (!cfg->file_size_mib)
			return 0;
		if ((t == CLYDE_PUTC || t == CLYDE_GETC) && cfg->skip_perchar)
			return 0;
		return 1;
	}
	return cfg->num_files > 0;
}

/*
 * --runtime and --stonewall on one host: a thread that sets the context's
 * stonewall flag at the deadline (as clyde-mpi's watchdog does), so the
 * bodies check one relaxed load per chunk, seek or file, never the clock.
 */
struct deadline {
	struct clyde_ctx *ctx;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct timespec at; /* CLOCK_MONOTONIC */
	bool quit;
	pthread_t tid;
	bool running;
};

static void *deadline_main(void *arg)
{
	struct deadline *d = arg;
	int rc = 0;

	pthread_mutex_lock(&d->lock);
	while (!d->quit && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&d->cond, &d->lock, &d->at);
	if (!d->quit)
		atomic_store(&d->ctx->stonewall, 1);
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

static void deadline_start(struct deadline *d, struct clyde_ctx *ctx,
			   uint64_t ns)
{
	pthread_condattr_t ca;
	struct timespec now;
	uint64_t at;

	memset(d, 0, sizeof(*d));
	if (!ns)
		return;
	d->ctx = ctx;
	atomic_store(&ctx->stonewall, 0);
	clock_gettime(CLOCK_MONOTONIC, &now);
	at = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec + ns;
	d->at.tv_sec = (time_t)(at / 1000000000u);
	d->at.tv_nsec = (long)(at % 1000000000u);
	pthread_mutex_init(&d->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&d->cond, &ca);
	pthread_condattr_destroy(&ca);
	/* Without the thread the test runs to its end: by size. */
	d->running = pthread_create(&d->tid, NULL, deadline_main, d) == 0;
}

static void deadline_end(struct deadline *d)
{
	if (!d->ctx)
		return;
	if (d->running) {
		pthread_mutex_lock(&d->lock);
		d->quit = true;
		pthread_cond_signal(&d->cond);
		pthread_mutex_unlock(&d->lock);
		pthread_join(d->tid, NULL);
	}
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	atomic_store(&d->ctx->stonewall, 0);
}

/*
 * --verify: read back every worker's IO file as the test `t` (block write
 * or rewrite) left it, its cache evicted first, and check each block's
 * header and checksum (io/verify.h).  Untimed: it runs between two tests,
 * and its time is the run's overhead.  Returns 0, or a negative errno with
 * one line naming the test, the file and the first wrong block.
 */
static int verify_io(struct suite_state *st, enum clyde_test t,
		     struct clyde_test_result *r)
{
	uint64_t chunk = st->cfg->io_chunk,
		 cap = (st->cfg->file_size_mib << 20) / chunk * chunk;
	int ret = 0;

	r->verified_blocks = 0;
	for (unsigned i = 0; i < st->n && !ret && i < r->nworkers; i++) {
		struct clyde_worker *w = &st->w[i];
		struct clyde_verify_result res;
		char path[4200], what[4300];
		/* By --runtime the test went round the file: all of it. */
		uint64_t len = r->spans[i].bytes < cap ? r->spans[i].bytes :
							 cap;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", st->scratch->path,
			 w->io_name);
		snprintf(what, sizeof(what), "%s: --verify: %s",
			 clyde_test_label(t), path);
		fd = openat(st->scratch->dirfd, w->io_name,
			    O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
				    (st->cfg->direct ? O_DIRECT : 0));
		if (fd < 0)
			return clyde_err(st->ctx, errno, "%s: cannot open",
					 what);
		/* From the storage, not from the pages the test wrote. */
		if (!st->memory_fs)
			ret = clyde_target_evict_fd(st->ctx, &st->tgt, fd,
						    path);
		if (!ret) {
			struct clyde_verify_read vr = {
				.fd = fd,
				.what = what,
				.len = len,
				.piece = chunk,
				.unit = clyde_verify_unit(chunk),
				.gen = t == CLYDE_REWRITE ?
					       CLYDE_VERIFY_GEN_REWRITE :
					       CLYDE_VERIFY_GEN_WRITE,
				.seed = w->seed,
			};

			ret = clyde_verify_read(st->ctx, &vr, &res);
			r->verified_blocks += res.units;
		}
		close(fd);
	}
	return ret;
}

static int run_test_in(struct suite_state *st, const struct test_entry *te,
		       struct clyde_test_result *r)
{
	struct deadline dl;
	struct clyde_series_sampler sampler;
	pthread_barrier_t start;
	pthread_t *tid;
	struct clyde_target_moved moved = {
		.dev = &r->dev,
		.members = &r->members,
		.own = &r->own,
		.wrote = writes(te->id),
	};
	unsigned started = 0;
	int ret = 0;

	if (clyde_test_alloc_spans(r, st->n) < 0)
		return clyde_err(st->ctx, ENOMEM, "%s",
				 clyde_test_label(te->id));
	/* The kind's own figures, filled by the target from here on. */
	moved.figs = clyde_test_figs_alloc(r, st->tgt.ops);
	if (!moved.figs && st->tgt.ops && st->tgt.ops->figs_size)
		return clyde_err(st->ctx, ENOMEM, "%s",
				 clyde_test_label(te->id));
	tid = calloc(st->n, sizeof(*tid));
	if (!tid)
		return clyde_err(st->ctx, ENOMEM, "%s",
				 clyde_test_label(te->id));
	if (te->id >= CLYDE_FIRST_FILE_TEST)
		for (unsigned i = 0; i < st->n && !ret; i++)
			ret = worker_dir(st, &st->w[i],
					 clyde_test_label(te->id));
	if (!ret)
		ret = prepare_cache(st, te->id, r);
	if (ret) {
		free(tid);
		return ret;
	}
	/* The writeback and discards of the test before (or of anything
	 * else) are not this one's: let the devices settle first. */
	clyde_target_settle(st->ctx, &st->tgt, &r->settle);
	clyde_target_begin(&st->tgt);
	if (st->progress) {
		atomic_store(&st->progress->test, (int)te->id);
		atomic_store(&st->progress->done, 0);
		atomic_store(&st->progress->total,
			     progress_total(st->cfg, te->id, st->n));
		atomic_store(&st->progress->start_ns, clyde_now(st->ctx));
		atomic_store(&st->progress->active, 1);
	}
	pthread_barrier_init(&start, NULL, st->n);
	/* Dirty and writeback every half interval, whether or not requests
	 * complete: a stall keeps its figures. */
	/* Only on the real clock: a replaced one (tests) is not read from
	 * another thread. */
	clyde_series_sampler_start(
		&sampler,
		st->ctx->clock == clyde_monotonic_ns ?
			st->cfg->log_interval_ns :
			0,
		st->ctx->clock, st->ctx->clock_arg, clyde_series_meminfo, NULL,
		clyde_target_has_wire(&st->tgt) ? clyde_target_wire : NULL,
		&st->tgt);
	deadline_start(&dl, st->ctx,
		       st->cfg->stonewall_ns ? st->cfg->stonewall_ns :
		       clyde_test_is_io(te->id) || te->id == CLYDE_SEEKS ?
					       st->cfg->runtime_ns :
					       0);
	for (unsigned i = 0; i < st->n; i++) {
		struct clyde_worker *w = &st->w[i];

		w->test = te->id;
		w->test_label = clyde_test_label(te->id);
		w->span = &r->spans[i];
		w->start = &start;
		w->sampler = sampler.mem ? &sampler : NULL;
		w->wire = clyde_target_has_wire(&st->tgt) ? clyde_target_wire :
							    NULL;
		w->wire_arg = &st->tgt;
		w->progress = st->progress;
		if (pthread_create(&tid[i], NULL, worker_main, w) != 0) {
			ret = clyde_err(st->ctx, EAGAIN,
					"%s: cannot start worker %u",
					clyde_test_label(te->id), i);
			break;
		}
		started++;
	}
	/* Workers that never started must not leave the others waiting at
	 * the barrier: stand in for them, having marked the run failed. */
	for (unsigned i = started; i < st->n; i++)
		pthread_barrier_wait(&start);
	for (unsigned i = 0; i < started; i++) {
		void *res;

		pthread_join(tid[i], &res);
		/* A worker that stopped because a sibling failed returns
		 * -EINTR: the sibling's error is the one to report. */
		if ((intptr_t)res < 0 && (!ret || ret == -EINTR))
			ret = (int)(intptr_t)res;
	}
	deadline_end(&dl);
	for (unsigned i = 0; i < st->n; i++)
		st->w[i].sampler = NULL;
	clyde_series_sampler_stop(&sampler);
	if (ret == -EINTR && !(st->ctx->interrupted && *st->ctx->interrupted) &&
	    st->ctx->err_code)
		ret = -st->ctx->err_code;
	clyde_target_end(&st->tgt, &moved);
	/* Others' share of the devices during the test (results/testio.h). */
	{
		struct clyde_test_io io;

		clyde_test_io_compute(&r->dev, &r->members, &r->own, 0, &io);
		clyde_test_io_judge_busy(&io, &r->settle);
	}
	if (st->progress)
		atomic_store(&st->progress->active, 0);
	pthread_barrier_destroy(&start);
	free(tid);
	if (ret)
		return ret;
	if (st->ctx->interrupted && *st->ctx->interrupted)
		return -EINTR;
	clyde_test_sum_spans(r);
	clyde_figs_finish(r);
	/* Each worker's CPU covers its own timed window only. */
	r->cpu_user_ns = 0;
	r->cpu_sys_ns = 0;
	for (unsigned i = 0; i < r->nworkers; i++) {
		r->cpu_user_ns += r->spans[i].cpu_user_ns;
		r->cpu_sys_ns += r->spans[i].cpu_sys_ns;
	}
	r->state = CLYDE_DONE;
	r->latency_sample_every = te->id == CLYDE_PUTC || te->id == CLYDE_GETC ?
					  CLYDE_PERCHAR_SAMPLE :
					  1;
	check_direct(st, te->id, r);
	return 0;
}

/* One test; the workers back on their own files after it. */
static int run_test(struct suite_state *st, const struct test_entry *te,
		    struct clyde_test_result *r)
{
	int ret = run_test_in(st, te, r);

	shift_out(st);
	return ret;
}

static void fill_params(const struct clyde_bonnie_config *cfg, uint64_t seed,
			struct clyde_run_params *p)
{
	memset(p, 0, sizeof(*p));
	if (cfg->machine)
		snprintf(p->name, sizeof(p->name), "%s", cfg->machine);
	else if (gethostname(p->name, sizeof(p->name) - 1) < 0)
		snprintf(p->name, sizeof(p->name), "unknown");
	p->concurrency = cfg->concurrency;
	p->seed = seed;
	p->file_size_mib = cfg->file_size_mib;
	p->io_chunk = cfg->io_chunk;
	p->seeks = cfg->seeks;
	p->seekers = cfg->seekers;
	p->num_files = cfg->num_files;
	p->max_size = cfg->max_size;
	p->min_size = cfg->min_size;
	p->num_dirs = cfg->num_dirs;
	p->file_chunk = cfg->file_chunk;
	p->direct = cfg->direct;
	p->fsync_each = cfg->fsync_each;
	if (cfg->file_size_mib && !cfg->skip_perchar && !cfg->direct) {
		p->perchar_bytes = clyde_bonnie_perchar_bytes(cfg);
	}
	p->size_auto = !cfg->size_given;
	p->evict = !cfg->no_evict;
	p->drop_caches = cfg->drop_caches;
	p->verify = cfg->verify;
	snprintf(p->pattern, sizeof(p->pattern), "%s",
		 cfg->pattern == CLYDE_PATTERN_ZEROS ? "zeros" : "random");
	p->compress_pct = cfg->compress_pct;
	snprintf(p->engine, sizeof(p->engine), "%s", cfg->engine->name);
	p->iodepth = cfg->iodepth;
	p->iodepth_batch = cfg->iodepth_batch;
	p->runtime_ns = cfg->runtime_ns;
	p->stonewall_ns = cfg->stonewall_ns;
	p->log_interval_ns = cfg->log_interval_ns;
}

/* Learn the machine and the target; what cannot be learned stays empty
 * and never stops the run. */
static void fill_env(const char *path, struct clyde_env *env)
{
	struct clyde_ctx quiet;

	clyde_ctx_init(&quiet);
	clyde_env_machine(&quiet, &env->machine);
	clyde_env_target(&quiet, path, &env->target);
	clyde_stack_free(&env->stack);
	clyde_stack_probe(&quiet, "", path, &env->stack);
	clyde_ctx_release(&quiet);
}

int clyde_bonnie_run(struct clyde_ctx *ctx,
		     const struct clyde_bonnie_config *cfg,
		     struct clyde_scratch *scratch, uint64_t seed,
		     const uint32_t *ext_ints, size_t n_ext,
		     const struct clyde_bonnie_hooks *hooks,
		     struct clyde_run *run)
{
	struct suite_state st = {
		.ctx = ctx,
		.cfg = cfg,
		.scratch = scratch,
		.n = cfg->concurrency ? cfg->concurrency : 1,
		.read_fd = -1,
	};
	struct clyde_target_setup setup = {
		.target = &run->env.target,
		.stack = &run->env.stack,
		.virt = &run->env.virt,
		.what = CLYDE_TARGET_MEMBERS | CLYDE_TARGET_OWN |
			CLYDE_TARGET_SETTLE | CLYDE_TARGET_LOOPS,
		.settle_ns = cfg->settle_ns,
	};
	uint64_t t_start = clyde_now(ctx), waited = 0, timed = 0;
	/* --verify: the write test whose file is read back next. */
	int pending = -1;
	/* The last test run, whose server side server_late() reads again
	 * once the ranks have met. */
	int ended = -1;
	int ret;

	fill_params(cfg, seed, &run->params);
	fill_env(cfg->dir, &run->env);
	run->started_unix = (uint64_t)time(NULL);
	st.target = &run->env.target;
	st.progress = hooks ? hooks->progress : NULL;
	ret = clyde_target_open(ctx, &st.tgt, &setup);
	st.memory_fs = !ret &&
		       clyde_target_cache_is_storage(&st.tgt, scratch->dirfd);
	if (!ret)
		ret = suite_init(&st, seed, ext_ints, n_ext);
	for (int i = 0; i < CLYDE_TEST_COUNT && !ret; i++) {
		const struct test_entry *te = &suite[i];
		struct clyde_test_result *r = &run->tests[te->id];

		if (!test_wanted(cfg, te->id))
			continue;
		if (cfg->direct &&
		    (te->id == CLYDE_PUTC || te->id == CLYDE_GETC)) {
			r->state = CLYDE_SKIPPED;
			r->note = "skipped under -D: O_DIRECT allows only "
				  "aligned whole-block transfers, not 1-byte "
				  "calls";
			if (hooks && hooks->after_test)
				hooks->after_test(hooks->arg, te->id, r);
			continue;
		}
		if (hooks && hooks->before_test) {
			uint64_t t0 = clyde_now(ctx);

			ret = hooks->before_test(hooks->arg, te->id);
			/* -y waits there for other processes or a key. */
			if (cfg->sync_mode != CLYDE_SYNC_NONE)
				waited += clyde_now(ctx) - t0;
			if (ret < 0)
				break;
		}
		if (ended >= 0)
			server_late(&st, &run->tests[ended]);
		ended = -1;
		if (ctx->interrupted && *ctx->interrupted) {
			ret = -EINTR;
			break;
		}
		/* The last write is checked before the next test touches
		 * the file (and after its -y prompt). */
		if (pending >= 0) {
			ret = verify_io(&st, (enum clyde_test)pending,
					&run->tests[pending]);
			pending = -1;
			if (ret)
				break;
		}
		ret = run_test(&st, te, r);
		if (!ret)
			ended = te->id;
		if (!ret && cfg->verify &&
		    (te->id == CLYDE_PUT_BLOCK || te->id == CLYDE_REWRITE))
			pending = te->id;
		if (ret == -EIO || ret == -EROFS)
			clyde_env_name_device(ctx, &run->env.target);
		if (!ret && hooks && hooks->after_test)
			hooks->after_test(hooks->arg, te->id, r);
	}
	if (!ret && hooks && hooks->tests_ended) {
		ret = hooks->tests_ended(hooks->arg);
		if (!ret && ended >= 0)
			server_late(&st, &run->tests[ended]);
	}
	if (!ret && pending >= 0 && !(ctx->interrupted && *ctx->interrupted))
		ret = verify_io(&st, (enum clyde_test)pending,
				&run->tests[pending]);
	if (ctx->interrupted && *ctx->interrupted)
		ret = -EINTR;
	suite_release(&st);
	clyde_target_close(&st.tgt);
	/* What the honest numbers cost: everything outside the windows. */
	run->wall_ns = clyde_now(ctx) - t_start;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		if (run->tests[i].state == CLYDE_DONE)
			timed += run->tests[i].elapsed_ns;
	run->overhead_ns = run->wall_ns > timed + waited ?
				   run->wall_ns - timed - waited :
				   0;
	return ret;
}

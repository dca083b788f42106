/*
 * bonnie++'s six IO tests on one file per worker: per-char write, block
 * write, rewrite, per-char read, block read and random seeks.  Every data
 * transfer goes through an engine (io/engine.h); every test ends with
 * fsync and close inside the timed region, as bonnie++'s do.  Under -D the
 * file is opened with O_DIRECT and buffers are aligned to 4 KiB.
 *
 * The block tests and the seeks run on the configured engine (--engine)
 * with up to --iodepth operations in flight per worker and per seeker
 * (io/depth_driver.h), each with its own buffer: the block tests stream
 * the file's chunks in order, a rewrite writes a chunk back only after
 * reading it, and a seek's update follows its own read.  An operation's
 * latency runs from the submission of its first request to the completion
 * of its last.  At the defaults (psync, depth 1) this is bonnie++'s loop:
 * one synchronous call after the other.  The per-char tests always make
 * one synchronous call per byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/depth_driver.h"
#include "io/iobuf.h"
#include "io/verify.h"
#include "workloads/fill_ahead.h"
#include "workloads/worker.h"

/*
 * Make the calling thread's engine instance for a test.  The per-char tests
 * pass clock = false: they time one call in CLYDE_PERCHAR_SAMPLE themselves.
 */
static int engine_open(struct clyde_worker *w, struct clyde_engine *e,
		       const struct clyde_engine_ops *ops, unsigned depth,
		       bool clock)
{
	int ret = clyde_engine_init(e, ops, depth, clock ? w->ctx->clock : NULL,
				    w->ctx->clock_arg);

	if (ret < 0)
		return clyde_worker_err(w, -ret, "%s", e->err);
	clyde_engine_set_batch(e, w->cfg->iodepth_batch);
	return 0;
}

static uint64_t file_bytes(const struct clyde_worker *w)
{
	return w->cfg->file_size_mib << 20;
}

static int open_io(struct clyde_worker *w, int flags, int *fd)
{
	if (w->cfg->direct)
		flags |= O_DIRECT;
	*fd = openat(w->scratch_fd, w->io_name, flags | O_CLOEXEC | O_NOFOLLOW,
		     0600);
	if (*fd >= 0)
		return 0;
	if (errno == EINVAL && w->cfg->direct)
		return clyde_worker_err(w, EINVAL,
					"cannot open %s/%s with O_DIRECT (-D): "
					"the filesystem does not support it",
					w->scratch, w->io_name);
	return clyde_worker_err(w, errno, "cannot open %s/%s", w->scratch,
				w->io_name);
}

/* The whole chunks of the open file fd, at most `want`. */
static uint64_t file_chunks(const struct clyde_worker *w, int fd, uint64_t want)
{
	struct stat st;
	uint64_t have;

	if (fstat(fd, &st) < 0 || st.st_size < 0)
		return want;
	have = (uint64_t)st.st_size / w->cfg->io_chunk;
	return have < want ? have : want;
}

/* Message for a failed transfer, naming the file and what was done. */
static int io_err(struct clyde_worker *w, int ret, const char *op, uint64_t off)
{
	if (ret == -ENODATA)
		return clyde_worker_err(
			w, EIO, "%s %s/%s at offset %llu: file ended early", op,
			w->scratch, w->io_name, (unsigned long long)off);
	if (ret == -EINVAL && w->cfg->direct)
		return clyde_worker_err(
			w, EINVAL,
			"%s %s/%s with O_DIRECT: the chunk size %u is not a "
			"multiple of the device's block size",
			op, w->scratch, w->io_name, w->cfg->io_chunk);
	return clyde_worker_err(w, -ret, "cannot %s %s/%s at offset %llu", op,
				w->scratch, w->io_name,
				(unsigned long long)off);
}

/* fsync and close inside the timed region; then stop the clock. */
static int finish(struct clyde_worker *w, struct clyde_engine *e, int fd,
		  int sync)
{
	int ret = 0;

	if (sync) {
		clyde_series_flush(&w->span->series, clyde_now(w->ctx));
		ret = clyde_engine_fsync(e, fd);
		if (ret < 0)
			ret = clyde_worker_err(w, -ret, "cannot fsync %s/%s",
					       w->scratch, w->io_name);
	}
	if (close(fd) < 0 && !ret)
		ret = clyde_worker_err(w, errno, "cannot close %s/%s",
				       w->scratch, w->io_name);
	clyde_worker_end(w);
	return ret;
}

/* Start the test with an error from set-up: the siblings are released. */
static int go_failed(struct clyde_worker *w, int ret)
{
	clyde_worker_go(w, ret);
	return ret;
}

/*
 * Every chunk's worth of per-char calls: show progress, stop when the run
 * is interrupted, and end the sample early (by lowering *n to `done`) once
 * it has run for CLYDE_PERCHAR_TIME_NS, unless -fN asked for a size: these
 * tests measure the cost of a system call, which a few seconds show as
 * well as the whole file would.
 */
static int perchar_checkpoint(struct clyde_worker *w, uint64_t start,
			      uint64_t chunk, uint64_t *n, uint64_t done)
{
	uint64_t now = clyde_now(w->ctx);

	/* The series counts a chunk's calls when it is done: one clock
	 * reading per chunk, not per call. */
	clyde_series_add(&w->span->series, now, CLYDE_SERIES_NO_LAT, chunk,
			 chunk);
	clyde_worker_progress(w, chunk);
	if (clyde_stopping(w->ctx))
		return -EINTR;
	if (clyde_stonewalled(w->ctx) && done < *n) {
		/* --runtime's end is the test's end, not a cut. */
		w->span->stonewalled = !w->cfg->runtime_ns;
		*n = done;
	}
	if (!w->cfg->perchar_given && !w->cfg->runtime_ns &&
	    now - start > CLYDE_PERCHAR_TIME_NS)
		*n = done;
	return 0;
}

/*
 * One byte by a bare system call.  At well under a microsecond per call,
 * what runs around the call counts: callgrind of `-s 8 -f1` counted 170
 * user-space instructions per byte here through clyde_engine_do (the
 * engine's dispatch and request bookkeeping, then glibc's pread/pwrite,
 * which in a process with threads wraps each call in the cancellation
 * enable/disable pair) against 20 in bonnie++ 2.00a's single-threaded
 * read()/write() loop.  The same one system call is made here without a
 * library call on x86-64 (the `syscall` instruction, which returns
 * -errno itself), and with syscall(2) elsewhere: neither is a
 * cancellation point, and neither needs a request.
 */
static inline ssize_t perchar_call(long nr, int fd, unsigned char *c,
				   uint64_t off)
{
#if defined(__x86_64__) && defined(__LP64__)
	long ret;
	register long r10 __asm__("r10") = (long)off;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"((long)fd), "S"(c), "d"(1L), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__LP64__)
	long k = syscall(nr, fd, c, 1L, (long)off);

	return k < 0 ? -errno : k;
#else
	/* 32-bit ABIs pass the offset in a register pair: leave it to glibc. */
	ssize_t k = nr == SYS_pwrite64 ? pwrite(fd, c, 1, (off_t)off) :
					 pread(fd, c, 1, (off_t)off);

	return k < 0 ? -errno : k;
#endif
}

/*
 * Give the calling thread a file table of its own (a copy: the same open
 * files under the same numbers).  In a process whose table is shared by
 * several threads, the kernel takes and drops a reference on the file in
 * every read/write system call (fdget's slow path and fput: two atomic
 * operations on the file); with a table used by one thread it borrows the
 * file, as for single-threaded bonnie++.  perf record of the per-char
 * tests (`-s 4 -f4`) put fdget + fput at 3.5% of clyde's samples against
 * 1.8% for bonnie++'s fdget_pos.  Only the per-char worker's thread does
 * this, for the one test it runs: what it opens afterwards (its file) is
 * its own and closed by it, and the table goes with the thread.
 */
static void perchar_own_files(void)
{
	/* Without it (a seccomp filter, an old kernel) only the cost stays. */
	(void)unshare(CLONE_FILES);
}

/*
 * The per-char loop, one chunk of calls at a time (so that the count to
 * the next checkpoint is the inner loop's bound, not a counter per byte)
 * and made once for write and once for read (write is a constant where
 * it is inlined).  Returns 0 or a negative errno; *done is the calls made.
 */
static inline __attribute__((always_inline)) int
perchar_loop(struct clyde_worker *w, int fd, bool write, uint64_t start,
	     uint64_t *done)
{
	const long nr = write ? SYS_pwrite64 : SYS_pread64;
	uint64_t n = clyde_bonnie_perchar_bytes(w->cfg),
		 chunk = w->cfg->io_chunk, i = 0;
	/* The write's bytes are read in place from the generator's block
	 * (clyde_pattern_take), avail of them left at p. */
	const unsigned char *p = NULL;
	unsigned avail = 0;
	unsigned char c = 0;
	int ret = 0;

	while (i < n && !ret) {
		uint64_t begin = i, end = n - i > chunk ? i + chunk : n;

		for (; i < end; i++) {
			/* The byte is made before the clock starts: an
			 * operation's latency is its system call.  The kernel
			 * only reads a write's byte. */
			unsigned char *b = &c;
			ssize_t k;

			if (write) {
				if (!avail)
					p = clyde_pattern_take(&w->pat, &avail);
				b = (unsigned char *)(uintptr_t)p++;
				avail--;
			}
			if (i & (CLYDE_PERCHAR_SAMPLE - 1)) {
				k = perchar_call(nr, fd, b, i);
			} else {
				uint64_t t0 = clyde_now(w->ctx);

				k = perchar_call(nr, fd, b, i);
				clyde_worker_op(w, t0, 0);
			}
			if (__builtin_expect(k != 1, 0)) {
				ret = io_err(w,
					     k < 0 ? (int)k :
					     write ? -EIO :
						     -ENODATA,
					     write ? "write" : "read", i);
				i++;
				break;
			}
		}
		if (!ret && i - begin == chunk)
			ret = perchar_checkpoint(w, start, chunk, &n, i);
	}
	*done = i;
	return ret;
}

/*
 * The per-char tests: one system call per byte, as bonnie++ 2.x makes
 * them.  A call costs well under a microsecond, and reading the clock
 * around every one of them would add 4-7% (docs/timing-cost.md), so one
 * call in CLYDE_PERCHAR_SAMPLE is timed into the histogram; every call is
 * counted.  The engine instance only makes the closing fsync.
 */
static int perchar_test(struct clyde_worker *w, bool write)
{
	uint64_t chunk = w->cfg->io_chunk, start, i;
	struct clyde_engine e;
	int fd, ret;

	perchar_own_files();
	ret = engine_open(w, &e, &clyde_engine_psync, 1, false);
	if (ret < 0)
		return go_failed(w, ret);
	if (write) {
		unlinkat(w->scratch_fd, w->io_name, 0);
		ret = open_io(w, O_WRONLY | O_CREAT | O_EXCL, &fd);
	} else {
		ret = open_io(w, O_RDONLY, &fd);
	}
	if (ret < 0) {
		clyde_engine_release(&e);
		return go_failed(w, ret);
	}
	start = clyde_worker_go(w, 0);
	ret = write ? perchar_loop(w, fd, true, start, &i) :
		      perchar_loop(w, fd, false, start, &i);
	w->span->bytes = i;
	w->span->ops = i;
	/* The calls after the last full chunk. */
	if (i % chunk)
		clyde_series_add(&w->span->series, clyde_now(w->ctx),
				 CLYDE_SERIES_NO_LAT, i % chunk, i % chunk);
	if (ret) {
		close(fd);
		clyde_worker_end(w);
	} else {
		ret = finish(w, &e, fd, write);
	}
	clyde_engine_release(&e);
	return ret;
}

int clyde_test_putc(struct clyde_worker *w)
{
	return perchar_test(w, true);
}

int clyde_test_getc(struct clyde_worker *w)
{
	return perchar_test(w, false);
}

/* Message for a failed request of a test's operation. */
static int req_err(struct clyde_worker *w, int ret,
		   const struct clyde_depth_slot *failed)
{
	if (!failed)
		return clyde_worker_err(w, -ret, "the %s engine failed",
					w->cfg->engine->name);
	if (failed->req.op == CLYDE_IO_FSYNC)
		return clyde_worker_err(w, -ret, "cannot fsync %s/%s",
					w->scratch, w->io_name);
	return io_err(w, ret,
		      failed->req.op == CLYDE_IO_WRITE ? "write" : "read",
		      (uint64_t)failed->req.off);
}

/* The slots of one driver and the buffer they share. */
struct slot_set {
	struct clyde_iobuf buf;
	struct clyde_depth_slot s[];
};

/* n slots with a buffer of `chunk` bytes each, and `extra` more chunks
 * after theirs (the block write's spare: slots_spare), in one aligned
 * block; *pages becomes the least of it and what backs the buffer. */
static struct clyde_depth_slot *slots_alloc(unsigned n, unsigned extra,
					    size_t chunk,
					    enum clyde_iobuf_pages *pages)
{
	struct slot_set *set =
		calloc(1, sizeof(*set) + n * sizeof(struct clyde_depth_slot));

	if (!set)
		return NULL;
	if (clyde_iobuf_alloc(&set->buf, (size_t)(n + extra) * chunk, true) <
	    0) {
		free(set);
		return NULL;
	}
	*pages = clyde_iobuf_pages_least(*pages, set->buf.pages);
	for (unsigned i = 0; i < n; i++)
		set->s[i].buf = set->buf.p + (size_t)i * chunk;
	return set->s;
}

/* The first chunk after the n slots' own (slots_alloc's extra). */
static unsigned char *slots_spare(struct clyde_depth_slot *s, unsigned n,
				  size_t chunk)
{
	struct slot_set *set =
		(struct slot_set *)(void *)((char *)s -
					    offsetof(struct slot_set, s));

	return set->buf.p + (size_t)n * chunk;
}

static void slots_free(struct clyde_depth_slot *s)
{
	struct slot_set *set;

	if (!s)
		return;
	set = (struct slot_set *)(void *)((char *)s -
					  offsetof(struct slot_set, s));
	clyde_iobuf_free(&set->buf);
	free(set);
}

/* The sequential block tests share one driver; `mode` says what a chunk
 * is. */
enum block_mode {
	BLOCK_WRITE,
	BLOCK_REWRITE,
	BLOCK_READ
};

struct block_run {
	struct clyde_worker *w;
	enum block_mode mode;
	int fd;
	size_t chunk;
	uint64_t next, nchunks;
	uint64_t done; /* chunks completed: the work, stonewalled or not */
	bool cut;      /* --stonewall's deadline ended it early */
	/* Block write: the helper making the next chunk while a write is in
	 * flight (NULL: made in line, before each write). */
	struct clyde_fill_ahead *ahead;
};

/*
 * A chunk's first request: its write or its read.  A write's data was made
 * by the helper (b->ahead) while the slot's previous write was in flight:
 * the slot takes that buffer and hands its own, whose write is done, to
 * the helper for the chunk after.  Without the helper it is made here.
 * Either way it counts in the test's time (and the helper's CPU in the
 * test's) but not in the write's latency; the time from the slot's last
 * completion to this submission is the refill gap the JSON reports.
 */
static int block_start(void *arg, struct clyde_depth_slot *s)
{
	struct block_run *b = arg;
	uint64_t done;

	if (b->next >= b->nchunks) {
		/* --runtime: round the file again until the time is up. */
		if (!b->w->cfg->runtime_ns || !b->nchunks)
			return 0;
		b->next = 0;
	}
	if (clyde_stopping(b->w->ctx))
		return -EINTR;
	/* A --runtime shorter than one chunk's write (0.0001) still writes
	 * one: the tests after it need a chunk to read and seek in. */
	if (clyde_stonewalled(b->w->ctx) &&
	    !(b->w->cfg->runtime_ns && b->mode == BLOCK_WRITE && b->next == 0 &&
	      b->done == 0)) {
		b->cut = !b->w->cfg->runtime_ns;
		return 0;
	}
	done = s->req.complete_ns; /* the slot's last write, 0: none yet */
	s->index = b->next++;
	s->stage = 0;
	s->req = (struct clyde_io_req){
		.op = b->mode == BLOCK_WRITE ? CLYDE_IO_WRITE : CLYDE_IO_READ,
		.fd = b->fd,
		.buf = s->buf,
		.len = b->chunk,
		.off = (off_t)(s->index * b->chunk),
	};
	if (b->mode == BLOCK_WRITE) {
		if (b->ahead) {
			s->buf = clyde_fill_ahead_swap(b->ahead, s->buf);
			s->req.buf = s->buf;
		} else {
			clyde_pattern_fill(&b->w->pat, s->buf, b->chunk);
		}
		if (b->w->cfg->verify)
			clyde_verify_stamp(s->buf, b->chunk,
					   clyde_verify_unit(b->chunk),
					   (uint64_t)s->req.off,
					   CLYDE_VERIFY_GEN_WRITE, b->w->seed);
		if (done) {
			b->w->span->refill_gap_ns +=
				clyde_now(b->w->ctx) - done;
			b->w->span->refill_gaps++;
		}
	}
	return 1;
}

/* A chunk's request is done: a rewrite changes a byte and writes the chunk
 * back in place; otherwise the chunk is one operation, done. */
static int block_next(void *arg, struct clyde_depth_slot *s)
{
	struct block_run *b = arg;

	if (b->mode == BLOCK_REWRITE && s->stage == 0) {
		s->buf[s->index % b->chunk] ^= 0x5a;
		/* The changed chunk is the rewrite's: its own headers. */
		if (b->w->cfg->verify)
			clyde_verify_stamp(s->buf, b->chunk,
					   clyde_verify_unit(b->chunk),
					   (uint64_t)s->req.off,
					   CLYDE_VERIFY_GEN_REWRITE,
					   b->w->seed);
		s->req.op = CLYDE_IO_WRITE;
		s->stage = 1;
		return 1;
	}
	clyde_worker_latency(b->w, s->req.complete_ns - s->start_ns, 1);
	clyde_series_add(&b->w->span->series, s->req.complete_ns,
			 s->req.complete_ns - s->start_ns, b->chunk, 1);
	clyde_worker_progress(b->w, b->chunk);
	b->done++;
	return 0;
}

static const struct clyde_depth_ops block_ops = {
	.start = block_start,
	.next = block_next,
};

static int block_test(struct clyde_worker *w, enum block_mode mode)
{
	struct block_run b = { .w = w, .mode = mode };
	struct clyde_depth_slot *slots = NULL, *failed;
	struct clyde_fill_ahead ahead;
	uint64_t helper_user = 0, helper_sys = 0;
	struct clyde_engine e;
	unsigned n = w->cfg->iodepth;
	int ret, flags;

	b.chunk = w->cfg->io_chunk;
	b.nchunks = file_bytes(w) / b.chunk;
	if (n > b.nchunks)
		n = b.nchunks ? (unsigned)b.nchunks : 1;
	if (mode == BLOCK_WRITE) {
		/* bonnie++ recreates the file: unlink, then O_EXCL. */
		if (unlinkat(w->scratch_fd, w->io_name, 0) < 0 &&
		    errno != ENOENT)
			return go_failed(
				w, clyde_worker_err(w, errno,
						    "cannot remove %s/%s",
						    w->scratch, w->io_name));
		flags = O_WRONLY | O_CREAT | O_EXCL;
	} else {
		flags = mode == BLOCK_READ ? O_RDONLY : O_RDWR;
	}
	slots = slots_alloc(n, mode == BLOCK_WRITE, b.chunk,
			    &w->span->buffer_pages);
	if (!slots)
		return go_failed(w, clyde_worker_err(w, ENOMEM,
						     "%u buffers of %zu bytes",
						     n, b.chunk));
	ret = engine_open(w, &e, w->cfg->engine, w->cfg->iodepth, true);
	if (ret < 0) {
		slots_free(slots);
		return go_failed(w, ret);
	}
	ret = open_io(w, flags, &b.fd);
	if (ret < 0) {
		clyde_engine_release(&e);
		slots_free(slots);
		return go_failed(w, ret);
	}
	/* A block write cut by --stonewall left a shorter file: rewrite and
	 * read cover what it wrote. */
	if (mode != BLOCK_WRITE)
		b.nchunks = file_chunks(w, b.fd, b.nchunks);
	clyde_worker_go(w, 0);
	/* New data: made by a helper while the writes are in flight, so that
	 * it costs the rate nothing (bonnie++'s zeros need none; chunks under
	 * CLYDE_FILL_AHEAD_MIN are made in line, cheaper than a hand-over).  Started
	 * on the clock: its first chunk is timed as every other. */
	if (mode == BLOCK_WRITE && !w->pat.zeros &&
	    b.chunk >= CLYDE_FILL_AHEAD_MIN &&
	    clyde_fill_ahead_start(&ahead, &w->pat,
				   slots_spare(slots, n, b.chunk),
				   b.chunk) == 0)
		b.ahead = &ahead;
	ret = clyde_depth_run(&e, slots, n, &block_ops, &b, &failed);
	if (b.ahead)
		clyde_fill_ahead_stop(b.ahead, &helper_user, &helper_sys);
	if (ret < 0 && ret != -EINTR)
		ret = req_err(w, ret, failed);
	w->span->bytes = b.done * b.chunk;
	w->span->stonewalled = b.cut;
	if (ret) {
		close(b.fd);
		clyde_worker_end(w);
	} else {
		ret = finish(w, &e, b.fd, mode != BLOCK_READ);
	}
	/* The helper's CPU is the test's (after clyde_worker_end, which
	 * sets the span's from this thread's). */
	w->span->cpu_user_ns += helper_user;
	w->span->cpu_sys_ns += helper_sys;
	w->span->inflight_max = e.max_inflight;
	w->span->inflight_mean = clyde_engine_mean_inflight(&e);
	clyde_engine_release(&e);
	slots_free(slots);
	return ret;
}

int clyde_test_put_block(struct clyde_worker *w)
{
	return block_test(w, BLOCK_WRITE);
}

int clyde_test_rewrite(struct clyde_worker *w)
{
	return block_test(w, BLOCK_REWRITE);
}

int clyde_test_get_block(struct clyde_worker *w)
{
	return block_test(w, BLOCK_READ);
}

/*
 * Random seeks: `seekers` threads, each with its own descriptor and its own
 * engine instance, take tickets from one counter until `seeks` are done.
 * A ticket reads a random chunk; about one in ten also changes a byte and
 * writes the chunk back (with -b, followed by fsync).  Each seeker keeps
 * up to --iodepth tickets in flight.
 */
struct seek_shared {
	struct clyde_worker *w;
	atomic_uint_fast64_t next_ticket;
	uint64_t nchunks;
	/* Seekers wait until the worker has passed the start barrier. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int released;
};

struct seeker {
	struct seek_shared *sh;
	unsigned index;
	int fd;
	struct clyde_depth_slot *slots; /* iodepth, with their buffers */
	unsigned nslots;
	struct clyde_rng rng;
	uint64_t end_ns; /* when it stopped, by the context's clock */
	uint64_t latency_max_ns, bytes, ops;
	uint64_t cpu_user_ns, cpu_sys_ns; /* this thread's, once released */
	struct clyde_hist hist;	    /* this seeker's; merged after the join */
	struct clyde_series series; /* this seeker's; merged likewise */
	bool cut;		    /* --stonewall's deadline ended it early */
	unsigned inflight_max;	    /* its engine's (io/engine.h) */
	double inflight_mean;	    /* clyde_engine_mean_inflight() */
	int ret;
};

#define SEEK_UPDATE 1u /* slot flag: the read is followed by a write */

/* A ticket's read.  The update is decided here, right after the offset,
 * so that each seeker draws its random numbers in the same order at any
 * depth. */
static int seek_start(void *arg, struct clyde_depth_slot *sl)
{
	struct seeker *s = arg;
	struct clyde_worker *w = s->sh->w;
	uint64_t ticket = atomic_fetch_add(&s->sh->next_ticket, 1);
	size_t chunk = w->cfg->io_chunk;

	/* --runtime: tickets until the time is up (the count of -s is not
	 * used). */
	if (ticket >= UINT64_MAX / 2 ||
	    (ticket >= w->cfg->seeks && !w->cfg->runtime_ns))
		return 0;
	if (clyde_stopping(w->ctx))
		return -EINTR;
	if (clyde_stonewalled(w->ctx)) {
		s->cut = !w->cfg->runtime_ns;
		return 0;
	}
	sl->index = ticket;
	sl->stage = 0;
	sl->req = (struct clyde_io_req){
		.op = CLYDE_IO_READ,
		.fd = s->fd,
		.buf = sl->buf,
		.len = chunk,
		.off = (off_t)(clyde_rng_below(&s->rng, s->sh->nchunks) *
			       chunk),
	};
	sl->flags = clyde_rng_below(&s->rng, 10) == 0 ? SEEK_UPDATE : 0;
	return 1;
}

/* read -> (update: write -> (-b: fsync)) -> the seek is done. */
static int seek_next(void *arg, struct clyde_depth_slot *sl)
{
	struct seeker *s = arg;
	const struct clyde_bonnie_config *cfg = s->sh->w->cfg;
	uint64_t lat;

	switch (sl->stage) {
	case 0:
		s->bytes += cfg->io_chunk;
		if (sl->flags & SEEK_UPDATE) {
			sl->buf[sl->index % cfg->io_chunk] ^= 0xa5;
			sl->req.op = CLYDE_IO_WRITE;
			sl->stage = 1;
			return 1;
		}
		break;
	case 1:
		s->bytes += cfg->io_chunk;
		if (cfg->fsync_each) {
			sl->req.op = CLYDE_IO_FSYNC;
			sl->stage = 2;
			return 1;
		}
		break;
	default:
		break;
	}
	lat = sl->req.complete_ns - sl->start_ns;
	clyde_hist_record(&s->hist, lat);
	clyde_series_add(&s->series, sl->req.complete_ns, lat,
			 (uint64_t)cfg->io_chunk * (sl->stage ? 2 : 1), 1);
	if (lat > s->latency_max_ns)
		s->latency_max_ns = lat;
	s->ops++;
	clyde_worker_progress(s->sh->w, 1);
	return 0;
}

static const struct clyde_depth_ops seek_ops = {
	.start = seek_start,
	.next = seek_next,
};

/* After a failure: the other seekers find the counter exhausted. */
static void seeks_stop(struct seek_shared *sh)
{
	atomic_store(&sh->next_ticket, UINT64_MAX / 2);
}

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	struct seek_shared *sh = s->sh;
	struct clyde_worker *w = sh->w;
	struct clyde_depth_slot *failed;
	struct clyde_cpu_mark cpu0;
	struct clyde_engine e;
	/* The instance is this thread's: made here, used and freed here. */
	int ret = engine_open(w, &e, w->cfg->engine, w->cfg->iodepth, true);

	if (ret < 0) {
		s->ret = ret;
		seeks_stop(sh);
	}
	pthread_mutex_lock(&sh->lock);
	while (!sh->released)
		pthread_cond_wait(&sh->cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	if (ret < 0)
		return NULL;
	clyde_cpu_mark(&cpu0);
	/* Released after the worker's start: its intervals are the
	 * worker's. */
	clyde_series_init(&s->series, w->cfg->log_interval_ns,
			  clyde_series_meminfo, NULL);
	clyde_series_start(&s->series, w->span->start_ns);
	ret = clyde_depth_run(&e, s->slots, s->nslots, &seek_ops, s, &failed);
	if (ret == -EINTR)
		s->ret = ret;
	else if (ret < 0)
		s->ret = req_err(w, ret, failed);
	if (ret < 0)
		seeks_stop(sh);
	clyde_cpu_since(&cpu0, &s->cpu_user_ns, &s->cpu_sys_ns);
	s->end_ns = clyde_now(w->ctx);
	s->inflight_max = e.max_inflight;
	s->inflight_mean = clyde_engine_mean_inflight(&e);
	clyde_engine_release(&e);
	return NULL;
}

int clyde_test_seeks(struct clyde_worker *w)
{
	unsigned n = w->cfg->seekers ? w->cfg->seekers : 1;
	struct seek_shared sh = { .w = w };
	struct seeker *s = calloc(n, sizeof(*s));
	pthread_t *tid = calloc(n, sizeof(*tid));
	struct clyde_engine fe; /* the final fsyncs, in this thread */
	unsigned started = 0, depth = w->cfg->iodepth;
	int ret = 0;

	atomic_init(&sh.next_ticket, 0);
	sh.nchunks = file_bytes(w) / w->cfg->io_chunk;
	if (!s || !tid) {
		free(s);
		free(tid);
		return go_failed(w,
				 clyde_worker_err(w, ENOMEM, "%u seekers", n));
	}
	ret = engine_open(w, &fe, w->cfg->engine, 1, false);
	if (ret < 0) {
		free(s);
		free(tid);
		return go_failed(w, ret);
	}
	if (depth > w->cfg->seeks && !w->cfg->runtime_ns)
		depth = w->cfg->seeks ? w->cfg->seeks : 1;
	if (!sh.nchunks)
		ret = clyde_worker_err(w, EINVAL,
				       "file %s/%s is smaller than one chunk",
				       w->scratch, w->io_name);
	for (unsigned i = 0; i < n && !ret; i++) {
		s[i].sh = &sh;
		s[i].index = i;
		s[i].fd = -1;
		clyde_hist_init(&s[i].hist);
		clyde_rng_fork(&w->rng, i, &s[i].rng);
		s[i].nslots = depth;
		s[i].slots = slots_alloc(depth, 0, w->cfg->io_chunk,
					 &w->span->buffer_pages);
		if (!s[i].slots)
			ret = clyde_worker_err(w, ENOMEM, "seek buffers");
		else
			ret = open_io(w, O_RDWR, &s[i].fd);
		if (!ret && i == 0)
			sh.nchunks = file_chunks(w, s[i].fd, sh.nchunks);
		if (!ret && !sh.nchunks)
			ret = clyde_worker_err(w, EINVAL,
					       "file %s/%s is smaller than one "
					       "chunk",
					       w->scratch, w->io_name);
	}
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.cond, NULL);
	for (unsigned i = 0; i < n && !ret; i++) {
		if (pthread_create(&tid[i], NULL, seeker_main, &s[i]) != 0)
			ret = clyde_worker_err(w, EAGAIN,
					       "cannot start seeker %u", i);
		else
			started++;
	}
	/* After a set-up error the seekers that did start find the counter
	 * exhausted and stop at once. */
	if (ret)
		seeks_stop(&sh);
	clyde_worker_go(w, ret);
	pthread_mutex_lock(&sh.lock);
	sh.released = 1;
	pthread_cond_broadcast(&sh.cond);
	pthread_mutex_unlock(&sh.lock);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);

	/* fsync every descriptor (the updates) inside the timed region. */
	for (unsigned i = 0; i < n; i++) {
		if (s[i].fd >= 0) {
			int r = started == n && !ret ?
					clyde_engine_fsync(&fe, s[i].fd) :
					0;

			if (r < 0 && !ret)
				ret = clyde_worker_err(w, -r,
						       "cannot fsync %s/%s",
						       w->scratch, w->io_name);
			close(s[i].fd);
		}
	}
	clyde_worker_end(w);
	clyde_engine_release(&fe);
	for (unsigned i = 0; i < n; i++) {
		s[i].series.end_ns = 0;
		if (clyde_series_merge(&w->span->series, &s[i].series) < 0)
			w->span->series.failed = true;
		clyde_series_release(&s[i].series);
		if (s[i].ret && !ret)
			ret = s[i].ret;
		if (s[i].latency_max_ns > w->span->latency_max_ns)
			w->span->latency_max_ns = s[i].latency_max_ns;
		clyde_hist_merge(w->span->hist, &s[i].hist);
		w->span->ops += s[i].ops;
		w->span->bytes += s[i].bytes;
		w->span->stonewalled |= s[i].cut;
		if (s[i].inflight_max > w->span->inflight_max)
			w->span->inflight_max = s[i].inflight_max;
		w->span->inflight_mean += s[i].inflight_mean / (double)n;
		/* The seekers did the worker's work: their CPU is its CPU. */
		w->span->cpu_user_ns += s[i].cpu_user_ns;
		w->span->cpu_sys_ns += s[i].cpu_sys_ns;
		slots_free(s[i].slots);
	}
	pthread_cond_destroy(&sh.cond);
	pthread_mutex_destroy(&sh.lock);
	free(s);
	free(tid);
	return ret;
}

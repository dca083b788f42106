/*
 * bonnie++'s six IO tests on one file per worker: per-char write, block
 * write, rewrite, per-char read, block read and random seeks.  Every data
 * transfer goes through an engine (io/engine.h); every test ends with
 * fsync and close inside the timed region, as bonnie++'s do.  Under -D the
 * file is opened with O_DIRECT and buffers are aligned to 4 KiB.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/engine.h"
#include "workloads/worker.h"

#define BUF_ALIGN 4096u

/*
 * Make the calling thread's engine instance for a test.  The per-char tests
 * pass clock = false: they time one call in CLYDE_PERCHAR_SAMPLE themselves.
 */
static int engine_open(struct clyde_worker *w, struct clyde_engine *e,
		       bool clock)
{
	int ret = clyde_engine_init(e, &clyde_engine_psync, 1,
				    clock ? w->ctx->clock : NULL,
				    w->ctx->clock_arg);

	if (ret < 0)
		return clyde_worker_err(w, -ret, "%s", e->err);
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

static void *alloc_buf(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, BUF_ALIGN, len ? len : 1) != 0)
		return NULL;
	memset(p, 0, len);
	return p;
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
	clyde_worker_progress(w, chunk);
	if (clyde_stopping(w->ctx))
		return -EINTR;
	if (!w->cfg->perchar_given &&
	    clyde_now(w->ctx) - start > CLYDE_PERCHAR_TIME_NS)
		*n = done;
	return 0;
}

/*
 * The per-char tests: one system call per byte, as bonnie++ 2.x makes
 * them.  A call costs well under a microsecond, and reading the clock
 * around every one of them would add 4-7% (docs/timing-cost.md), so one
 * call in CLYDE_PERCHAR_SAMPLE is timed into the histogram; every call is
 * counted.
 */
static int perchar_test(struct clyde_worker *w, bool write)
{
	uint64_t n = clyde_bonnie_perchar_bytes(w->cfg),
		 chunk = w->cfg->io_chunk, start, i;
	struct clyde_engine e;
	int fd, ret;

	ret = engine_open(w, &e, false);
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
	for (i = 0; i < n && !ret; i++) {
		bool timed = (i & (CLYDE_PERCHAR_SAMPLE - 1)) == 0;
		/* The byte is made before the clock starts: an operation's
		 * latency is its system call. */
		unsigned char c = write ? clyde_pattern_byte(&w->pat) : 0;
		struct clyde_io_req r = { .op = write ? CLYDE_IO_WRITE :
							CLYDE_IO_READ,
					  .fd = fd,
					  .buf = &c,
					  .len = 1,
					  .off = (off_t)i };
		uint64_t t0 = timed ? clyde_now(w->ctx) : 0;
		ssize_t k = clyde_engine_do(&e, &r);

		if (k != 1)
			ret = io_err(w,
				     k < 0 ? (int)k :
				     write ? -EIO :
					     -ENODATA,
				     write ? "write" : "read", i);
		if (timed)
			clyde_worker_op(w, t0, 0);
		if ((i + 1) % chunk == 0 && !ret)
			ret = perchar_checkpoint(w, start, chunk, &n, i + 1);
	}
	w->span->bytes = i;
	w->span->ops = i;
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

/* The sequential block tests share one loop; `mode` says what a chunk is. */
enum block_mode {
	BLOCK_WRITE,
	BLOCK_REWRITE,
	BLOCK_READ
};

static int block_test(struct clyde_worker *w, enum block_mode mode)
{
	struct clyde_engine eng, *e = &eng;
	size_t chunk = w->cfg->io_chunk;
	uint64_t nchunks = file_bytes(w) / chunk, t0;
	unsigned char *buf;
	int fd, ret, flags;

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
	buf = alloc_buf(chunk);
	if (!buf)
		return go_failed(w, clyde_worker_err(w, ENOMEM,
						     "buffer of %zu bytes",
						     chunk));
	ret = engine_open(w, e, true);
	if (ret < 0) {
		free(buf);
		return go_failed(w, ret);
	}
	ret = open_io(w, flags, &fd);
	if (ret < 0) {
		clyde_engine_release(e);
		free(buf);
		return go_failed(w, ret);
	}
	t0 = clyde_worker_go(w, 0);
	for (uint64_t i = 0; i < nchunks && !ret; i++) {
		off_t off = (off_t)(i * chunk);

		if (clyde_stopping(w->ctx)) {
			ret = -EINTR;
			break;
		}
		switch (mode) {
		case BLOCK_WRITE:
			/* Making the data counts in the test's time, not in
			 * the write's latency: the clock restarts after it. */
			clyde_pattern_fill(&w->pat, buf, chunk);
			t0 = clyde_now(w->ctx);
			ret = clyde_engine_write_full(e, fd, buf, chunk, off);
			if (ret < 0)
				ret = io_err(w, ret, "write", (uint64_t)off);
			break;
		case BLOCK_READ:
			ret = clyde_engine_read_full(e, fd, buf, chunk, off);
			if (ret < 0)
				ret = io_err(w, ret, "read", (uint64_t)off);
			break;
		case BLOCK_REWRITE:
			/* Read, change a byte, write back in place. */
			ret = clyde_engine_read_full(e, fd, buf, chunk, off);
			if (ret < 0) {
				ret = io_err(w, ret, "read", (uint64_t)off);
				break;
			}
			buf[i % chunk] ^= 0x5a;
			ret = clyde_engine_write_full(e, fd, buf, chunk, off);
			if (ret < 0)
				ret = io_err(w, ret, "write", (uint64_t)off);
			break;
		}
		t0 = clyde_worker_op(w, t0, 1);
		clyde_worker_progress(w, chunk);
	}
	w->span->bytes = nchunks * chunk;
	free(buf);
	if (ret) {
		close(fd);
		clyde_worker_end(w);
	} else {
		ret = finish(w, e, fd, mode != BLOCK_READ);
	}
	clyde_engine_release(e);
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
 * Random seeks: `seekers` threads, each with its own descriptor, take
 * tickets from one counter until `seeks` are done.  A ticket reads a random
 * chunk; about one in ten also changes a byte and writes the chunk back
 * (with -b, followed by fsync).
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
	/* Made by the worker during set-up, used by the seeker, and after
	 * the join by the worker again for the final fsync. */
	struct clyde_engine eng;
	bool eng_ready;
	unsigned char *buf;
	struct clyde_rng rng;
	uint64_t end_ns, latency_max_ns, bytes, ops;
	uint64_t cpu_user_ns, cpu_sys_ns; /* this thread's, once released */
	struct clyde_hist hist; /* this seeker's; merged after the join */
	int ret;
};

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	struct seek_shared *sh = s->sh;
	struct clyde_worker *w = sh->w;
	struct clyde_engine *e = &s->eng;
	size_t chunk = w->cfg->io_chunk;
	struct clyde_cpu_mark cpu0;
	uint64_t t0;

	pthread_mutex_lock(&sh->lock);
	while (!sh->released)
		pthread_cond_wait(&sh->cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	t0 = clyde_now(w->ctx);
	clyde_cpu_mark(&cpu0);
	while (!s->ret) {
		uint64_t ticket = atomic_fetch_add(&sh->next_ticket, 1);
		off_t off;
		uint64_t now;
		int ret;

		if (ticket >= w->cfg->seeks)
			break;
		if (clyde_stopping(w->ctx)) {
			s->ret = -EINTR;
			break;
		}
		off = (off_t)(clyde_rng_below(&s->rng, sh->nchunks) * chunk);
		ret = clyde_engine_read_full(e, s->fd, s->buf, chunk, off);
		if (ret < 0) {
			s->ret = io_err(w, ret, "read", (uint64_t)off);
			break;
		}
		s->bytes += chunk;
		if (clyde_rng_below(&s->rng, 10) == 0) {
			s->buf[ticket % chunk] ^= 0xa5;
			ret = clyde_engine_write_full(e, s->fd, s->buf, chunk,
						      off);
			if (ret < 0) {
				s->ret = io_err(w, ret, "write", (uint64_t)off);
				break;
			}
			if (w->cfg->fsync_each &&
			    (ret = clyde_engine_fsync(e, s->fd)) < 0) {
				s->ret = clyde_worker_err(w, -ret,
							  "cannot fsync %s/%s",
							  w->scratch,
							  w->io_name);
				break;
			}
			s->bytes += chunk;
		}
		now = clyde_now(w->ctx);
		clyde_hist_record(&s->hist, now - t0);
		if (now - t0 > s->latency_max_ns)
			s->latency_max_ns = now - t0;
		s->ops++;
		clyde_worker_progress(w, 1);
		t0 = now;
	}
	clyde_cpu_since(&cpu0, &s->cpu_user_ns, &s->cpu_sys_ns);
	s->end_ns = clyde_now(w->ctx);
	return NULL;
}

int clyde_test_seeks(struct clyde_worker *w)
{
	unsigned n = w->cfg->seekers ? w->cfg->seekers : 1;
	struct seek_shared sh = { .w = w };
	struct seeker *s = calloc(n, sizeof(*s));
	pthread_t *tid = calloc(n, sizeof(*tid));
	unsigned started = 0;
	int ret = 0;

	atomic_init(&sh.next_ticket, 0);
	sh.nchunks = file_bytes(w) / w->cfg->io_chunk;
	if (!s || !tid) {
		free(s);
		free(tid);
		return go_failed(w,
				 clyde_worker_err(w, ENOMEM, "%u seekers", n));
	}
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
		s[i].buf = alloc_buf(w->cfg->io_chunk);
		if (!s[i].buf)
			ret = clyde_worker_err(w, ENOMEM, "seek buffer");
		else if ((ret = engine_open(w, &s[i].eng, true)) == 0)
			s[i].eng_ready = true;
		if (!ret)
			ret = open_io(w, O_RDWR, &s[i].fd);
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
		atomic_store(&sh.next_ticket, UINT64_MAX / 2);
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
					clyde_engine_fsync(&s[i].eng, s[i].fd) :
					0;

			if (r < 0 && !ret)
				ret = clyde_worker_err(w, -r,
						       "cannot fsync %s/%s",
						       w->scratch, w->io_name);
			close(s[i].fd);
		}
	}
	clyde_worker_end(w);
	for (unsigned i = 0; i < n; i++) {
		if (s[i].ret && !ret)
			ret = s[i].ret;
		if (s[i].latency_max_ns > w->span->latency_max_ns)
			w->span->latency_max_ns = s[i].latency_max_ns;
		clyde_hist_merge(w->span->hist, &s[i].hist);
		w->span->ops += s[i].ops;
		w->span->bytes += s[i].bytes;
		/* The seekers did the worker's work: their CPU is its CPU. */
		w->span->cpu_user_ns += s[i].cpu_user_ns;
		w->span->cpu_sys_ns += s[i].cpu_sys_ns;
		if (s[i].eng_ready)
			clyde_engine_release(&s[i].eng);
		free(s[i].buf);
	}
	pthread_cond_destroy(&sh.cond);
	pthread_mutex_destroy(&sh.lock);
	free(s);
	free(tid);
	return ret;
}

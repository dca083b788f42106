/*
 * The engine contract (io/engine.h) with every engine built in: requests
 * queued, committed and reaped at depth 1, 8 and 64 on a temporary file;
 * what was written at depth N reads back; a request's error comes back as
 * -errno in the request; timestamps are ordered; the depth is enforced.
 *
 * psync is always tested.  io_uring is tested when clyde was built with
 * liburing and the kernel allows it; otherwise its init must fail with the
 * documented one-line message, and the program exits 77 (skip) after the
 * psync checks, so a build without io_uring is never reported as a pass of
 * the io_uring tests.  A kernel that refuses io_uring is simulated with a
 * seccomp filter in a child process.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/engine.h"
#include "tap.h"

#define BS 4096u
#define NBLOCKS 512u

static char path[] = "/tmp/clyde_test_engine_XXXXXX";

static void cleanup(void)
{
	unlink(path);
}

/* Block k of the test data: its number in every 8-byte word, plus a tag. */
static void fill_block(unsigned char *p, unsigned k, unsigned tag)
{
	for (unsigned i = 0; i < BS; i += 8) {
		uint32_t a = k, b = tag ^ i;

		memcpy(p + i, &a, 4);
		memcpy(p + i + 4, &b, 4);
	}
}

/*
 * Write NBLOCKS blocks in a scrambled order with up to `depth` requests
 * busy, each request with its own buffer; then read them back the same
 * way and compare.
 */
static void write_read_depth(const struct clyde_engine_ops *ops, int fd,
			     unsigned depth)
{
	struct clyde_engine e;
	struct clyde_io_req *req = calloc(depth, sizeof(*req));
	struct clyde_io_req **out = calloc(depth, sizeof(*out));
	unsigned char *bufs = aligned_alloc(BS, (size_t)depth * BS);
	unsigned char want[BS];
	unsigned bad = 0, reaped_total = 0, max_busy = 0, misordered = 0;

	if (!req || !out || !bufs) {
		CHECK(!"memory");
		goto out;
	}
	CHECK(clyde_engine_init(&e, ops, depth, clyde_monotonic_ns, NULL) == 0);
	for (int pass = 0; pass < 2; pass++) {
		unsigned next = 0, done = 0;
		enum clyde_io_op op = pass ? CLYDE_IO_READ : CLYDE_IO_WRITE;

		/* Free slots are the requests with user == NULL. */
		for (unsigned i = 0; i < depth; i++)
			req[i].user = NULL;
		while (done < NBLOCKS) {
			int n;

			for (unsigned i = 0; i < depth && next < NBLOCKS; i++) {
				/* A permutation of the blocks (NBLOCKS is a
				 * power of two, 37 is odd). */
				unsigned k = (next * 37u) % NBLOCKS;

				if (req[i].user)
					continue;
				req[i] = (struct clyde_io_req){
					.op = op,
					.fd = fd,
					.buf = bufs + (size_t)i * BS,
					.len = BS,
					.off = (off_t)k * BS,
					.user = &req[i],
				};
				if (!pass)
					fill_block(req[i].buf, k, depth);
				CHECK(clyde_engine_queue(&e, &req[i]) == 0);
				next++;
			}
			if (clyde_engine_busy(&e) > max_busy)
				max_busy = clyde_engine_busy(&e);
			CHECK(clyde_engine_commit(&e) == 0);
			n = clyde_engine_getevents(&e, 1, depth, out);
			CHECK(n >= 1 && (unsigned)n <= depth);
			for (int j = 0; j < n; j++) {
				struct clyde_io_req *r = out[j];
				unsigned k = (unsigned)(r->off / BS);

				if (r->result != (ssize_t)BS)
					bad++;
				if (r->complete_ns < r->submit_ns ||
				    !r->submit_ns)
					misordered++;
				if (pass) {
					fill_block(want, k, depth);
					if (memcmp(want, r->buf, BS))
						bad++;
				}
				r->user = NULL;
				done++;
				reaped_total++;
			}
			if (n < 0)
				break;
		}
	}
	CHECK(bad == 0);
	CHECK(misordered == 0);
	CHECK(reaped_total == 2 * NBLOCKS);
	/* The caller could keep `depth` requests busy, never more. */
	CHECK(max_busy == depth);
	CHECK(clyde_engine_busy(&e) == 0);
	clyde_engine_release(&e);
out:
	free(req);
	free(out);
	free(bufs);
}

/* Depth is enforced; errors come back in the request; fsync works; the
 * blocking helpers read what was written. */
static void contract(const struct clyde_engine_ops *ops, int fd)
{
	struct clyde_engine e;
	struct clyde_io_req r1 = { .op = CLYDE_IO_FSYNC, .fd = fd };
	struct clyde_io_req r2 = r1, *out[2];
	unsigned char b[BS], c[BS];
	int wfd = open(path, O_WRONLY);
	int n;

	CHECK(clyde_engine_init(&e, ops, 1, NULL, NULL) == 0);
	CHECK(clyde_engine_queue(&e, &r1) == 0);
	CHECK(clyde_engine_queue(&e, &r2) == -EBUSY);
	n = clyde_engine_getevents(&e, 1, 2, out);
	CHECK(n == 1 && out[0] == &r1 && r1.result == 0);
	/* Without a clock the stamps stay 0. */
	CHECK(r1.submit_ns == 0 && r1.complete_ns == 0);
	/* Nothing busy: min is lowered, getevents returns at once. */
	CHECK(clyde_engine_getevents(&e, 1, 2, out) == 0);

	/* A read on a write-only descriptor: -EBADF in the request. */
	r1 = (struct clyde_io_req){
		.op = CLYDE_IO_READ, .fd = wfd, .buf = b, .len = BS
	};
	CHECK(clyde_engine_queue(&e, &r1) == 0);
	CHECK(clyde_engine_commit(&e) == 0);
	n = clyde_engine_getevents(&e, 1, 1, out);
	CHECK(n == 1 && r1.result == -EBADF);
	CHECK(clyde_engine_read_full(&e, wfd, b, BS, 0) == -EBADF);

	/* The blocking helpers, and -ENODATA past the end of the file. */
	fill_block(b, 7, 99);
	CHECK(clyde_engine_write_full(&e, fd, b, BS, 3 * BS) == 0);
	CHECK(clyde_engine_fsync(&e, fd) == 0);
	CHECK(clyde_engine_read_full(&e, fd, c, BS, 3 * BS) == 0);
	CHECK(memcmp(b, c, BS) == 0);
	CHECK(clyde_engine_read_full(&e, fd, c, BS, (off_t)NBLOCKS * BS) ==
	      -ENODATA);
	clyde_engine_release(&e);
	close(wfd);

	/* Depth outside 1..CLYDE_ENGINE_MAX_DEPTH is refused with a line. */
	CHECK(clyde_engine_init(&e, ops, 0, NULL, NULL) == -EINVAL);
	CHECK(strstr(e.err, "queue depth") != NULL);
	CHECK(clyde_engine_init(&e, ops, CLYDE_ENGINE_MAX_DEPTH + 1, NULL,
				NULL) == -EINVAL);
}

#ifdef CLYDE_HAVE_LIBURING
/*
 * A kernel that refuses io_uring (sysctl kernel.io_uring_disabled, or a
 * seccomp policy as in containers): a child process forbids
 * io_uring_setup to itself with a seccomp filter, and init must then say
 * "io_uring: not permitted (...)".  The exit status says what it saw: 0
 * right, 1 wrong, 2 the filter could not be installed.
 */
static void test_not_permitted(void)
{
	pid_t pid;
	int status = 0;

	fflush(stdout); /* the child must not print our buffer again */
	pid = fork();

	if (pid == 0) {
		struct sock_filter prog[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup,
				 0, 1),
			BPF_STMT(BPF_RET | BPF_K,
				 SECCOMP_RET_ERRNO |
					 (EPERM & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog fp = { .len = sizeof(prog) / sizeof(prog[0]),
					 .filter = prog };
		struct clyde_engine e;
		int ret;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) < 0)
			_exit(2);
		ret = clyde_engine_init(&e, &clyde_engine_io_uring, 4, NULL,
					NULL);
		printf("# with io_uring_setup forbidden: %d \"%s\"\n", ret,
		       e.err);
		fflush(stdout);
		_exit(ret == -EPERM && !strncmp(e.err,
						"io_uring: not permitted (",
						25) ?
			      0 :
			      1);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
#endif

/* A clock the test sets: every stamp until the next change reads it. */
static uint64_t fake_now;

static uint64_t fake_clock(void *arg)
{
	(void)arg;
	return fake_now;
}

/*
 * The mean in flight while busy (clyde_engine_mean_inflight): 4 requests
 * in flight for 4000 ns, then none for 1000 ns (not counted), then 2 for
 * 2000 ns: (4 x 4000 + 2 x 2000) / 6000.  A synchronous engine says 1, an
 * engine without a clock 0.
 */
static void test_mean_inflight(const struct clyde_engine_ops *ops, int fd)
{
	struct clyde_engine e;
	struct clyde_io_req req[4], *out[4];
	static unsigned char buf[4][BS];
	unsigned got = 0;

	CHECK(clyde_engine_init(&e, ops, 4, fake_clock, NULL) == 0);
	CHECK(clyde_engine_mean_inflight(&e) == 0.0);
	fake_now = 1000;
	for (unsigned i = 0; i < 4; i++) {
		req[i] = (struct clyde_io_req){ .op = CLYDE_IO_READ,
						.fd = fd,
						.buf = buf[i],
						.len = BS,
						.off = (off_t)i * BS };
		CHECK(clyde_engine_queue(&e, &req[i]) == 0);
	}
	CHECK(clyde_engine_commit(&e) == 0);
	fake_now = 5000;
	while (got < 4) {
		int n = clyde_engine_getevents(&e, 4 - got, 4, out);

		CHECK(n > 0);
		if (n <= 0)
			break;
		got += (unsigned)n;
	}
	fake_now = 6000;
	for (unsigned i = 0; i < 2; i++)
		CHECK(clyde_engine_queue(&e, &req[i]) == 0);
	CHECK(clyde_engine_commit(&e) == 0);
	fake_now = 8000;
	CHECK(clyde_engine_getevents(&e, 2, 4, out) == 2);
	if (ops->commit) {
		double m = clyde_engine_mean_inflight(&e);

		printf("# %s: mean in flight %.4f\n", ops->name, m);
		CHECK(m > 20000.0 / 6000 - 1e-9 && m < 20000.0 / 6000 + 1e-9);
	} else {
		CHECK(clyde_engine_mean_inflight(&e) == 1.0);
	}
	clyde_engine_release(&e);
	/* Without a clock there is nothing to measure with. */
	CHECK(clyde_engine_init(&e, ops, 4, NULL, NULL) == 0);
	CHECK(clyde_engine_queue(&e, &req[0]) == 0);
	CHECK(clyde_engine_getevents(&e, 1, 4, out) == 1);
	CHECK(clyde_engine_mean_inflight(&e) == (ops->commit ? 0.0 : 1.0));
	clyde_engine_release(&e);
}

/*
 * --iodepth-batch: an asynchronous engine submits each request as it is
 * queued by default (fio's iodepth_batch_submit=1), and with a batch of n
 * once n are queued; getevents submits a smaller rest before it waits.
 * A synchronous engine performs every request in queue whatever the
 * batch.
 */
static void batching(const struct clyde_engine_ops *ops, int fd)
{
	struct clyde_engine e;
	struct clyde_io_req r[4], *out[4];
	unsigned char *bufs = aligned_alloc(BS, 4 * BS);
	bool async = ops->commit != NULL;

	if (!bufs) {
		CHECK(!"memory");
		return;
	}
	for (unsigned i = 0; i < 4; i++)
		r[i] = (struct clyde_io_req){ .op = CLYDE_IO_READ,
					      .fd = fd,
					      .buf = bufs + (size_t)i * BS,
					      .len = BS,
					      .off = (off_t)i * BS };
	CHECK(clyde_engine_init(&e, ops, 4, NULL, NULL) == 0);
	CHECK(e.batch == 1);
	CHECK(clyde_engine_queue(&e, &r[0]) == 0);
	/* Submitted at once, nothing left queued. */
	CHECK(e.queued == 0);
	CHECK(e.inflight + e.ndone == 1);
	CHECK(clyde_engine_getevents(&e, 1, 4, out) == 1);

	clyde_engine_set_batch(&e, 3);
	CHECK(e.batch == 3);
	CHECK(clyde_engine_queue(&e, &r[0]) == 0);
	CHECK(clyde_engine_queue(&e, &r[1]) == 0);
	CHECK(e.queued == (async ? 2u : 0u) && e.inflight == 0);
	CHECK(clyde_engine_queue(&e, &r[2]) == 0);
	/* The third made the batch: all three went in one commit. */
	CHECK(e.queued == 0 && e.inflight == (async ? 3u : 0u));
	CHECK(clyde_engine_queue(&e, &r[3]) == 0);
	CHECK(e.queued == (async ? 1u : 0u));
	/* getevents submits the rest before it waits. */
	CHECK(clyde_engine_getevents(&e, 4, 4, out) == 4);
	CHECK(clyde_engine_busy(&e) == 0);

	clyde_engine_set_batch(&e, 0);
	CHECK(e.batch == 1);
	clyde_engine_set_batch(&e, CLYDE_ENGINE_MAX_DEPTH + 1);
	CHECK(e.batch == CLYDE_ENGINE_MAX_DEPTH);
	clyde_engine_release(&e);
	free(bufs);
}

static void test_engine(const struct clyde_engine_ops *ops, int fd)
{
	static const unsigned depths[] = { 1, 8, 64 };

	printf("# engine %s\n", ops->name);
	for (size_t i = 0; i < sizeof(depths) / sizeof(depths[0]); i++)
		write_read_depth(ops, fd, depths[i]);
	contract(ops, fd);
	test_mean_inflight(ops, fd);
	batching(ops, fd);
}

int main(void)
{
	struct clyde_engine e;
	int fd = mkstemp(path), ret;

	if (fd < 0) {
		perror(path);
		return 1;
	}
	atexit(cleanup);
	close(fd);
	fd = open(path, O_RDWR);
	CHECK(fd >= 0);

	CHECK(clyde_engine_find("psync") == &clyde_engine_psync);
	CHECK(clyde_engine_find("io_uring") == &clyde_engine_io_uring);
	CHECK(clyde_engine_find("aio") == NULL);
	/* The names the messages give are the table's. */
	{
		char names[64];

		snprintf(names, sizeof(names), "%s|%s", clyde_engine_psync.name,
			 clyde_engine_io_uring.name);
		CHECK_STR(clyde_engine_names(), names);
	}
	/* The capabilities the layers above read instead of the name: psync
	 * is synchronous at depth 1, io_uring queues (32 by default). */
	CHECK(clyde_engine_psync.sync && clyde_engine_psync.default_depth == 1);
	CHECK(!clyde_engine_io_uring.sync &&
	      clyde_engine_io_uring.default_depth == 32);
	CHECK(clyde_engine_name_sync("psync"));
	CHECK(!clyde_engine_name_sync("io_uring"));
	CHECK(!clyde_engine_name_sync("aio"));
	test_engine(&clyde_engine_psync, fd);

	ret = clyde_engine_init(&e, &clyde_engine_io_uring, 1, NULL, NULL);
#ifndef CLYDE_HAVE_LIBURING
	CHECK(ret == -ENOSYS);
	CHECK_STR(e.err, "io_uring: not built in");
	tap_skip_all("clyde was built without liburing");
#else
	if (ret == -EPERM || ret == -ENOSYS) {
		CHECK(strncmp(e.err, "io_uring: not permitted (", 25) == 0);
		tap_skip_all(e.err);
	}
	CHECK(ret == 0);
	if (ret == 0)
		clyde_engine_release(&e);
	test_engine(&clyde_engine_io_uring, fd);
	test_not_permitted();
#endif
	close(fd);
	return tap_done();
}

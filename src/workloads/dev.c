/*
 * `clyde dev`: open the target once (O_DIRECT; for writing only after the
 * guards and with O_EXCL on a block device), check the range and the
 * request sizes against its size and logical block, then run each test as
 * one stream of requests (dev_job.c) between two readings of the device's
 * counters.
 */
#include "workloads/dev.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "env/env.h"
#include "env/members.h"
#include "env/stack.h"
#include "io/cache.h"
#include "env/stack_sysfs.h"
#include "io/devguard.h"
#include "io/engine.h"
#include "io/iobuf.h"
#include "io/loopcache.h"
#include "io/pattern.h"
#include "io/target.h"
#include "workloads/dev_job.h"
#include "workloads/dev_load.h"
#include "workloads/worker.h"
#include "workloads/zcav.h"

void clyde_dev_config_init(struct clyde_dev_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->tests = CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) |
		     CLYDE_DEV_BIT(CLYDE_DEV_SEQREAD);
	cfg->bs = CLYDE_DEV_DEFAULT_BS;
	cfg->rand_bs = CLYDE_DEV_DEFAULT_RAND_BS;
	cfg->log_interval_ns = CLYDE_SERIES_DEFAULT_NS;
	cfg->steady_window = CLYDE_DEV_DEFAULT_STEADY_WINDOW;
	cfg->rand_ops = CLYDE_DEV_DEFAULT_RAND_OPS;
	cfg->iodepth = 0; /* the engine's default */
	cfg->iodepth_batch = 1;
	cfg->target_steps = CLYDE_BISECT_DEFAULT_STEPS;
	snprintf(cfg->engine, sizeof(cfg->engine), "%s",
		 clyde_engine_psync.name);
	clyde_zcav_config_init(&cfg->zcav);
}

static bool writes(const struct clyde_dev_config *cfg)
{
	return (cfg->tests & CLYDE_DEV_WRITE_TESTS) ||
	       ((cfg->tests & CLYDE_DEV_BIT(CLYDE_DEV_ZCAV)) &&
		cfg->zcav.write);
}

/* Open the target and learn its size and logical block.  Returns the fd
 * or a negative errno. */
static int open_target(struct clyde_ctx *ctx,
		       const struct clyde_dev_config *cfg,
		       struct clyde_dev_run *run)
{
	bool w = writes(cfg);
	struct stat st;
	int fd, flags = (w ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC;

	if (stat(cfg->path, &st) < 0)
		return clyde_err(ctx, errno, "%s", cfg->path);
	run->is_block_device = S_ISBLK(st.st_mode);
	if (!run->is_block_device && !S_ISREG(st.st_mode))
		return clyde_err(ctx, 0,
				 "%s is neither a block device nor a regular "
				 "file",
				 cfg->path),
		       -EINVAL;
	if (w && run->is_block_device)
		flags |= O_EXCL;
	fd = open(cfg->path, flags);
	if (fd < 0)
		return clyde_err(ctx, errno, "%s: open%s%s", cfg->path,
				 w ? " for writing" : "",
				 errno == EINVAL ? " with O_DIRECT" : "");
	if (run->is_block_device) {
		uint64_t bytes = 0;
		int lb = 0;

		if (ioctl(fd, BLKGETSIZE64, &bytes) < 0 ||
		    ioctl(fd, BLKSSZGET, &lb) < 0 || lb <= 0) {
			int e = errno;

			close(fd);
			return clyde_err(ctx, e, "%s: size", cfg->path);
		}
		run->device_bytes = bytes;
		run->logical_block = (uint32_t)lb;
	} else {
		/* O_DIRECT on a file wants the filesystem's block. */
		run->device_bytes = (uint64_t)st.st_size;
		run->logical_block =
			run->env.target.logical_block_size ?
				run->env.target.logical_block_size :
				4096;
		if (run->logical_block < 4096 && st.st_blksize >= 4096)
			run->logical_block = 4096;
	}
	return fd;
}

/* One setting must be a multiple of the logical block. */
static int aligned(struct clyde_ctx *ctx, const struct clyde_dev_run *run,
		   const char *opt, uint64_t v)
{
	if (v % run->logical_block == 0)
		return 0;
	return clyde_err(ctx, 0,
			 "%s %" PRIu64 " is not a multiple of %s's logical "
			 "block (%u bytes), which O_DIRECT needs",
			 opt, v, run->cfg.path, run->logical_block),
	       -EINVAL;
}

/* The range and the sizes against the device.  0 or -EINVAL. */
static int check_range(struct clyde_ctx *ctx, struct clyde_dev_run *run)
{
	const struct clyde_dev_config *c = &run->cfg;
	const char *path = c->path;
	int rc;

	if ((rc = aligned(ctx, run, "--offset", c->offset)) < 0 ||
	    (rc = aligned(ctx, run, "--size", c->size)) < 0)
		return rc;
	if (c->tests & (CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) |
			CLYDE_DEV_BIT(CLYDE_DEV_SEQREAD)))
		if ((rc = aligned(ctx, run, "--bs", c->bs)) < 0)
			return rc;
	if (c->tests & (CLYDE_DEV_BIT(CLYDE_DEV_RANDREAD) |
			CLYDE_DEV_BIT(CLYDE_DEV_RANDWRITE)))
		if ((rc = aligned(ctx, run, "--rand-bs", c->rand_bs)) < 0)
			return rc;
	if (c->offset >= run->device_bytes)
		return clyde_err(ctx, 0,
				 "--offset %" PRIu64 " is at or beyond the end "
				 "of %s (%" PRIu64 " bytes)",
				 c->offset, path, run->device_bytes),
		       -EINVAL;
	run->range_bytes = c->size ? c->size : run->device_bytes - c->offset;
	if (c->clamp_range && run->range_bytes > run->device_bytes - c->offset)
		run->range_bytes = run->device_bytes - c->offset;
	if (run->range_bytes > run->device_bytes - c->offset)
		return clyde_err(ctx, 0,
				 "--offset %" PRIu64 " plus --size %" PRIu64
				 " goes beyond the end of %s (%" PRIu64
				 " bytes)",
				 c->offset, c->size, path, run->device_bytes),
		       -EINVAL;
	if ((c->tests & (CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) |
			 CLYDE_DEV_BIT(CLYDE_DEV_SEQREAD))) &&
	    run->range_bytes < c->bs)
		return clyde_err(ctx, 0,
				 "the range (%" PRIu64 " bytes) is smaller "
				 "than --bs %u",
				 run->range_bytes, c->bs),
		       -EINVAL;
	if ((c->tests & (CLYDE_DEV_BIT(CLYDE_DEV_RANDREAD) |
			 CLYDE_DEV_BIT(CLYDE_DEV_RANDWRITE))) &&
	    run->range_bytes < c->rand_bs)
		return clyde_err(ctx, 0,
				 "the range (%" PRIu64 " bytes) is smaller "
				 "than --rand-bs %u",
				 run->range_bytes, c->rand_bs),
		       -EINVAL;
	if (c->tests & CLYDE_DEV_BIT(CLYDE_DEV_ZCAV))
		return clyde_zcav_check(ctx, run);
	return 0;
}

/* The job of one of the four request tests. */
static void job_for(const struct clyde_dev_run *run, enum clyde_dev_test t,
		    int fd, unsigned char *bufs,
		    const struct clyde_engine_ops *engine,
		    struct clyde_pattern_gen *pat, struct clyde_dev_job *job)
{
	const struct clyde_dev_config *c = &run->cfg;
	bool seq = t == CLYDE_DEV_SEQWRITE || t == CLYDE_DEV_SEQREAD;
	struct clyde_rng root;

	memset(job, 0, sizeof(*job));
	job->what = c->path;
	job->fd = fd;
	job->write = t == CLYDE_DEV_SEQWRITE || t == CLYDE_DEV_RANDWRITE;
	job->len = seq ? c->bs : c->rand_bs;
	job->start = c->offset;
	job->span = run->range_bytes - run->range_bytes % job->len;
	job->n = seq ? job->span / job->len : c->rand_ops;
	/* By time: the sequential tests go round the range until the
	 * runtime is up; the random ones stop at --rand-ops only when it was
	 * given (0 otherwise). */
	if (c->runtime_ns && seq)
		job->n = 0;
	job->runtime_ns = c->runtime_ns;
	job->ramp_ns = c->ramp_ns;
	job->random = !seq;
	clyde_rng_seed(&root, c->seed);
	clyde_rng_fork(&root, (unsigned)t, &job->rng);
	job->depth = c->iodepth;
	job->batch = c->iodepth_batch;
	job->engine = engine;
	job->fsync_end = job->write;
	job->bufs = bufs;
	job->pat = job->write ? pat : NULL;
	job->rate_ops = clyde_rate_ops(&c->rate, job->len);
}

/*
 * What could serve a test from memory instead of the device: the loop
 * devices without direct I/O under the target (their backing files go
 * through the page cache), and for a regular file target the file itself
 * (a memory filesystem, or O_DIRECT not honoured).
 */
struct memwatch {
	struct clyde_loopcache loops;
	bool file; /* a regular file target: measure its residency */
	bool memory_fs;
};

static void memwatch_init(struct clyde_dev_run *run,
			  const struct clyde_target_watch *tgt, int fd,
			  struct memwatch *m)
{
	const struct clyde_stack *st = &run->env.stack;
	size_t len = sizeof(run->memory_reason);
	char *why = run->memory_reason;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < st->nnodes && m->loops.n < CLYDE_MAX_MEMBERS;
	     i++) {
		struct clyde_loop_backing *b = &m->loops.b[m->loops.n];

		if (st->nodes[i].kind != &clyde_stack_loop ||
		    clyde_loop_backing_read("", st->nodes[i].name, b) < 0 ||
		    b->dio)
			continue;
		if (!m->loops.n)
			snprintf(why, len,
				 "%s has no direct I/O: its reads and writes "
				 "go through the page cache of %s",
				 b->dev, b->file);
		m->loops.n++;
	}
	if (run->is_block_device)
		return;
	m->file = true;
	m->memory_fs = clyde_target_cache_is_storage(tgt, fd);
	if (m->memory_fs && !why[0])
		snprintf(why, len,
			 "%s is on a memory filesystem: its pages are its "
			 "storage",
			 run->cfg.path);
}

/* After a test: was it served from memory? */
static void memwatch_judge(struct clyde_dev_run *run, const struct memwatch *m,
			   enum clyde_dev_test t)
{
	struct clyde_dev_test_result *r = &run->tests[t];
	char grew[32];

	if (m->loops.n || m->memory_fs)
		r->from_memory = true;
	if (!r->file_measured || m->memory_fs ||
	    clyde_cache_direct_honoured(r->file_resident_before,
					r->file_resident_after, r->bytes))
		return;
	r->from_memory = true;
	if (run->memory_reason[0])
		return;
	snprintf(grew, sizeof(grew), "%" PRIu64 " bytes",
		 r->file_resident_after - r->file_resident_before);
	snprintf(run->memory_reason, sizeof(run->memory_reason),
		 "O_DIRECT was not honoured on %s: its cached pages grew by "
		 "%s during %s",
		 run->cfg.path, grew, clyde_dev_test_name(t));
}

/* The cached bytes of the file target; not being able to look never
 * fails a test (*ok says whether it could). */
static void file_residency(struct clyde_target_watch *tgt, int fd,
			   uint64_t *resident, bool *ok)
{
	struct clyde_ctx quiet;
	uint64_t total;

	clyde_ctx_init(&quiet);
	*ok = clyde_target_residency_fd(&quiet, tgt, fd, resident, &total) == 0;
	clyde_ctx_release(&quiet);
}

/* Run one request test between two readings of the device's counters
 * (and of its members'). */
static int run_test(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		    enum clyde_dev_test t, struct clyde_dev_job *job,
		    const struct memwatch *m, struct clyde_target_watch *tgt)
{
	struct clyde_dev_test_result *r = &run->tests[t];
	struct clyde_target_moved moved = {
		.dev = &r->dev,
		.members = &r->members,
	};
	struct clyde_cpu_mark cpu;
	struct clyde_dev_job_out out;
	struct clyde_loopcache_seen seen;
	bool ok_before = false, ok_after = false;
	uint64_t t0;
	int rc;

	r->latency = malloc(sizeof(*r->latency));
	if (!r->latency)
		return clyde_err(ctx, ENOMEM, "%s", run->cfg.path);
	clyde_hist_init(r->latency);
	job->hist = r->latency;
	clyde_series_init(&r->series, run->cfg.log_interval_ns,
			  clyde_series_meminfo, NULL);
	job->series = run->cfg.log_interval_ns ? &r->series : NULL;
	job->steady_pct = run->cfg.steady_pct;
	job->steady_window = run->cfg.steady_window;
	if (m->loops.n) {
		clyde_loopcache_prepare(&m->loops, false, &seen);
		r->backing_measured = seen.measured;
		r->backing_resident_bytes = seen.resident_bytes;
		r->backing_range_bytes = seen.range_bytes;
	}
	if (m->file)
		file_residency(tgt, job->fd, &r->file_resident_before,
			       &ok_before);
	clyde_target_begin(tgt);
	clyde_cpu_mark(&cpu);
	t0 = clyde_now(ctx);
	rc = clyde_dev_job_run(ctx, job, &out);
	r->window_ns = clyde_now(ctx) - t0;
	clyde_cpu_since(&cpu, &r->cpu_user_ns, &r->cpu_sys_ns);
	clyde_target_end(tgt, &moved);
	if (m->file && rc == 0)
		file_residency(tgt, job->fd, &r->file_resident_after,
			       &ok_after);
	r->file_measured = ok_before && ok_after;
	r->bytes = out.bytes;
	r->ops = out.ops;
	r->elapsed_ns = out.elapsed_ns;
	r->ramp_ops = out.ramp_ops;
	r->inflight_max = out.max_inflight;
	r->inflight_mean = out.mean_inflight;
	r->submit_calls = out.submit_calls;
	r->submitted = out.submitted;
	r->steady = out.steady;
	r->steady_ns = out.steady_ns;
	r->rate_asked = job->rate_ops;
	r->lag_sum_ns = out.lag_sum_ns;
	r->lag_max_ns = out.lag_max_ns;
	r->ran = rc == 0;
	if (r->ran)
		memwatch_judge(run, m, t);
	return rc;
}

/*
 * run_test, and under --verify for a write test: its requests stamped,
 * then every place it wrote read back (O_DIRECT: from the device) and
 * checked before the next test, outside the test's time.
 */
static int run_test_verified(struct clyde_ctx *ctx, struct clyde_dev_run *run,
			     enum clyde_dev_test t, struct clyde_dev_job *job,
			     const struct memwatch *m,
			     struct clyde_target_watch *tgt)
{
	struct clyde_dev_verify v;
	int rc;

	if (!run->cfg.verify || !job->write)
		return run_test(ctx, run, t, job, m, tgt);
	rc = clyde_dev_verify_init(ctx, &v, job, run->cfg.seed);
	if (rc < 0)
		return rc;
	job->verify = &v;
	rc = run_test(ctx, run, t, job, m, tgt);
	if (rc == 0)
		rc = clyde_dev_verify_read(ctx, job, &v,
					   &run->tests[t].verified_blocks);
	job->verify = NULL;
	clyde_dev_verify_release(&v);
	return rc;
}

/* Buffers for depth requests of the largest size, aligned for O_DIRECT.
 * A write fills its buffer just before each request (dev_job.h). */
static int make_bufs(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		     struct clyde_iobuf *buf)
{
	const struct clyde_dev_config *c = &run->cfg;
	size_t one = c->bs > c->rand_bs ? c->bs : c->rand_bs;
	size_t len;

	if (c->tests & CLYDE_DEV_BIT(CLYDE_DEV_ZCAV) &&
	    c->zcav.chunk_bytes > one)
		one = c->zcav.chunk_bytes;
	len = one * c->iodepth;
	if (clyde_iobuf_alloc(buf, len, true) < 0)
		return clyde_err(ctx, ENOMEM, "%s: %zu bytes of buffers",
				 c->path, len);
	run->buffer_pages = buf->pages;
	return 0;
}

/* The data generator of test t: its own stream of the run's seed. */
static void pattern_for(const struct clyde_dev_config *c, enum clyde_dev_test t,
			struct clyde_pattern_gen *pat)
{
	struct clyde_rng root, rng;

	clyde_rng_seed(&root, c->seed);
	clyde_rng_fork(&root, 0x100u + (unsigned)t, &rng);
	clyde_pattern_init(pat, c->zeros, &rng);
}

/* What a --curve step or --latency-target probe needs to run test t
 * again (dev_load.h). */
struct step_arg {
	struct clyde_ctx *ctx;
	struct clyde_dev_run *run;
	enum clyde_dev_test t;
	int fd;
	unsigned char *bufs;
	const struct clyde_engine_ops *engine;
	const struct memwatch *m;
	struct clyde_target_watch *tgt;
};

/* Test t once more at rate_ops, into *into; run->tests[t] stays. */
static int step(void *arg, double rate_ops, struct clyde_dev_test_result *into)
{
	struct step_arg *a = arg;
	struct clyde_dev_test_result keep = a->run->tests[a->t];
	struct clyde_dev_job job;
	struct clyde_pattern_gen pat;
	int rc;

	memset(&a->run->tests[a->t], 0, sizeof(keep));
	pattern_for(&a->run->cfg, a->t, &pat);
	job_for(a->run, a->t, a->fd, a->bufs, a->engine, &pat, &job);
	job.rate_ops = rate_ops;
	rc = run_test(a->ctx, a->run, a->t, &job, a->m, a->tgt);
	*into = a->run->tests[a->t];
	a->run->tests[a->t] = keep;
	clyde_pattern_release(&pat);
	return rc;
}

/* Can the engine be set up here (io_uring: built in, permitted)?  Asked
 * before the first test, so that a missing engine costs no test. */
static int engine_usable(struct clyde_ctx *ctx,
			 const struct clyde_engine_ops *engine, unsigned depth)
{
	struct clyde_engine e;

	if (clyde_engine_init(&e, engine, depth, NULL, NULL) < 0)
		return clyde_err(ctx, 0, "--engine %s", e.err), -ENOTSUP;
	clyde_engine_release(&e);
	return 0;
}

static int run_all(struct clyde_ctx *ctx, struct clyde_dev_run *run, int fd,
		   const struct clyde_dev_hooks *hooks)
{
	const struct clyde_dev_config *c = &run->cfg;
	const struct clyde_engine_ops *engine = clyde_engine_find(c->engine);
	struct clyde_target_setup setup = {
		.target = &run->env.target,
		.stack = &run->env.stack,
		.virt = &run->env.virt,
		/* The leaves under the device (md members, PVs), counted
		 * per test. */
		.what = CLYDE_TARGET_MEMBERS,
	};
	struct clyde_target_watch tgt;
	struct clyde_iobuf buf;
	struct memwatch m;
	unsigned char *bufs;
	int rc = 0;

	if (!engine)
		return clyde_err(ctx, 0, "no I/O engine named %s", c->engine),
		       -EINVAL;
	rc = engine_usable(ctx, engine, c->iodepth);
	if (rc < 0)
		return rc;
	if (make_bufs(ctx, run, &buf) < 0)
		return -ENOMEM;
	bufs = buf.p;
	rc = clyde_target_open(ctx, &tgt, &setup);
	if (rc < 0) {
		clyde_iobuf_free(&buf);
		return rc;
	}
	memwatch_init(run, &tgt, fd, &m);
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT && rc == 0; t++) {
		struct clyde_dev_job job;
		struct clyde_pattern_gen pat;

		if (!(c->tests & CLYDE_DEV_BIT(t)))
			continue;
		if (hooks && hooks->before_test)
			hooks->before_test(hooks->arg, (enum clyde_dev_test)t);
		pattern_for(c, (enum clyde_dev_test)t, &pat);
		if (t == CLYDE_DEV_ZCAV) {
			rc = clyde_zcav_run(ctx, run, fd, bufs, engine, &pat);
			if (rc == 0 && (m.loops.n || m.memory_fs))
				run->tests[t].from_memory = true;
		} else {
			job_for(run, (enum clyde_dev_test)t, fd, bufs, engine,
				&pat, &job);
			rc = run_test_verified(ctx, run, (enum clyde_dev_test)t,
					       &job, &m, &tgt);
			if (rc == 0) {
				struct step_arg sa = {
					ctx, run,  (enum clyde_dev_test)t,
					fd,  bufs, engine,
					&m,  &tgt
				};

				rc = clyde_dev_load_run(ctx, run, sa.t, step,
							&sa);
			}
		}
		/* Which test failed: "randwrite: /dev/sdb: write of ...". */
		if (rc < 0 && rc != -EINTR) {
			char why[1024];

			snprintf(why, sizeof(why), "%s", clyde_errmsg(ctx));
			clyde_err_clear(ctx);
			clyde_err(ctx, 0, "%s: %s",
				  clyde_dev_test_name((enum clyde_dev_test)t),
				  why);
		}
		clyde_pattern_release(&pat);
		if (rc == 0 && hooks && hooks->after_test)
			hooks->after_test(hooks->arg, (enum clyde_dev_test)t,
					  run);
	}
	clyde_target_close(&tgt);
	clyde_iobuf_free(&buf);
	return rc;
}

/*
 * The depth that runs: the engine's default when none was asked for (its
 * default_depth: 1 for psync, 32 for io_uring), and never a depth the
 * engine cannot keep: a sync engine (psync) performs one request at a
 * time, so a depth above 1 with it is refused rather than printed and
 * not run.
 */
static int resolve_depth(struct clyde_ctx *ctx, struct clyde_dev_config *c)
{
	const struct clyde_engine_ops *ops = clyde_engine_find(c->engine);
	bool sync = ops && ops->sync;

	if (!c->iodepth)
		c->iodepth = ops ? ops->default_depth : 1;
	if (c->iodepth > CLYDE_DEV_MAX_IODEPTH)
		return clyde_err(ctx, 0, "--iodepth %u: not in 1..%u",
				 c->iodepth, CLYDE_DEV_MAX_IODEPTH),
		       -EINVAL;
	if (sync && c->iodepth > 1)
		return clyde_err(ctx, 0,
				 "--iodepth %u: the %s engine performs one "
				 "request at a time; use --engine io_uring "
				 "for a queue depth",
				 c->iodepth, c->engine),
		       -EINVAL;
	return 0;
}

static void describe_stack(const char *path, struct clyde_stack *stack)
{
	struct clyde_ctx quiet;

	clyde_ctx_init(&quiet);
	clyde_stack_free(stack);
	clyde_stack_probe(&quiet, "", path, stack);
	clyde_ctx_release(&quiet);
}

int clyde_dev_run(struct clyde_ctx *ctx, const struct clyde_dev_config *cfg,
		  const struct clyde_dev_hooks *hooks,
		  struct clyde_dev_run *run)
{
	int fd, rc;

	clyde_dev_run_init(run);
	run->cfg = *cfg;
	run->started_unix = (uint64_t)time(NULL);
	clyde_env_machine(ctx, &run->env.machine);
	rc = clyde_env_target(ctx, cfg->path, &run->env.target);
	if (rc < 0)
		return rc;
	rc = resolve_depth(ctx, &run->cfg);
	if (rc < 0)
		return rc;
	if (cfg->ramp_ns && !cfg->runtime_ns)
		return clyde_err(ctx, 0,
				 "--ramp: only with --runtime (the ramp is "
				 "the start of a test that runs by time)"),
		       -EINVAL;
	if (cfg->steady_pct > 0 && (!cfg->runtime_ns || !cfg->log_interval_ns))
		return clyde_err(ctx, 0,
				 "--until-steady: only with --runtime (the "
				 "cap) and a --log-interval (its intervals)"),
		       -EINVAL;
	if (!cfg->rand_ops && !cfg->runtime_ns)
		return clyde_err(ctx, 0,
				 "--rand-ops 0: a random test needs a count "
				 "or --runtime"),
		       -EINVAL;
	/* From here on the configuration is the one that runs. */
	cfg = &run->cfg;
	/* Every guard before the device is opened for writing. */
	if (writes(cfg)) {
		rc = clyde_devguard_check_write(ctx, cfg->path,
						cfg->destroy_data);
		if (rc < 0)
			return rc;
	}
	/* The stack under the device, as clyde run records it; what cannot
	 * be learned stays empty and never stops the run. */
	describe_stack(cfg->path, &run->env.stack);
	fd = open_target(ctx, cfg, run);
	if (fd < 0)
		return fd;
	rc = check_range(ctx, run);
	if (rc == 0)
		rc = run_all(ctx, run, fd, hooks);
	if (close(fd) < 0 && rc == 0)
		rc = clyde_err(ctx, errno, "%s: close", cfg->path);
	return rc;
}

#include "workloads/zcav.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "io/loopcache.h"
#include "io/target.h"

#include "workloads/dev_job.h"
#include "workloads/worker.h"

void clyde_zcav_config_init(struct clyde_zcav_config *z)
{
	memset(z, 0, sizeof(*z));
	z->block_bytes = CLYDE_ZCAV_DEFAULT_BLOCK;
	z->chunk_bytes = CLYDE_ZCAV_DEFAULT_CHUNK;
	z->loops = 1;
}

int clyde_zcav_check(struct clyde_ctx *ctx, const struct clyde_dev_run *run)
{
	const struct clyde_zcav_config *z = &run->cfg.zcav;

	if (!z->chunk_bytes || z->chunk_bytes % run->logical_block)
		return clyde_err(ctx, 0,
				 "zcav: the chunk (%" PRIu64 " bytes) is not "
				 "a multiple of %s's logical block (%u bytes)",
				 z->chunk_bytes, run->cfg.path,
				 run->logical_block),
		       -EINVAL;
	if (z->block_bytes < z->chunk_bytes || z->block_bytes % z->chunk_bytes)
		return clyde_err(ctx, 0,
				 "zcav: the block (%" PRIu64 " bytes) is not "
				 "a multiple of the chunk (%" PRIu64 " bytes)",
				 z->block_bytes, z->chunk_bytes),
		       -EINVAL;
	if (run->range_bytes < z->block_bytes)
		return clyde_err(ctx, 0,
				 "zcav: the block (%" PRIu64 " MiB) is larger "
				 "than the range (%" PRIu64 " bytes of %s): "
				 "use a smaller -b",
				 z->block_bytes >> 20, run->range_bytes,
				 run->cfg.path),
		       -EINVAL;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t clyde_zcav_average(uint64_t *t, size_t n)
{
	size_t lo = 0, hi = n;
	uint64_t sum = 0;

	if (!n)
		return 0;
	if (n > 2) {
		qsort(t, n, sizeof(*t), cmp_u64);
		lo = n / 3;
		hi = n - n / 3;
	}
	for (size_t i = lo; i < hi; i++)
		sum += t[i];
	return sum / (hi - lo);
}

/* The positions: every block, or every skip-th. */
static int make_points(struct clyde_ctx *ctx, struct clyde_dev_run *run)
{
	const struct clyde_zcav_config *z = &run->cfg.zcav;
	struct clyde_zcav_result *res = &run->zcav;
	uint64_t nblocks = run->range_bytes / z->block_bytes;
	uint64_t step = z->skip > 1 ? z->skip : 1;

	res->npoints = (size_t)((nblocks + step - 1) / step);
	res->points = calloc(res->npoints, sizeof(*res->points));
	res->pass_ns = calloc(z->loops, sizeof(*res->pass_ns));
	res->pass_bytes = calloc(z->loops, sizeof(*res->pass_bytes));
	if (!res->points || !res->pass_ns || !res->pass_bytes)
		return clyde_err(ctx, ENOMEM, "zcav");
	for (size_t i = 0; i < res->npoints; i++) {
		struct clyde_zcav_point *p = &res->points[i];

		p->offset_bytes = run->cfg.offset + i * step * z->block_bytes;
		p->bytes = z->block_bytes;
		p->loop_ns = calloc(z->loops, sizeof(*p->loop_ns));
		if (!p->loop_ns)
			return clyde_err(ctx, ENOMEM, "zcav");
	}
	return 0;
}

int64_t clyde_zcav_hole_bytes(int fd, uint64_t off, uint64_t len)
{
	uint64_t end = off + len, pos = off, holes = 0;

	while (pos < end) {
		off_t data = lseek(fd, (off_t)pos, SEEK_DATA);
		off_t hole;

		if (data < 0 && errno == ENXIO) /* only a hole to the end */
			return (int64_t)(holes + (end - pos));
		if (data < 0)
			return -errno;
		if ((uint64_t)data >= end)
			return (int64_t)(holes + (end - pos));
		holes += (uint64_t)data - pos;
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return -errno;
		pos = (uint64_t)hole;
	}
	return (int64_t)holes;
}

/*
 * The file behind the target and where the target starts in it: the
 * target itself (a regular file), or a loop device's backing file.  The
 * fd, or -1 when there is none clyde can see.
 */
static int holes_file(const struct clyde_dev_run *run, int fd, uint64_t *base,
		      char *name, size_t len)
{
	struct clyde_loop_backing b;
	struct stat st;
	char dev[32];
	int bfd;

	*base = 0;
	if (!run->is_block_device) {
		snprintf(name, len, "%s", run->cfg.path);
		return dup(fd);
	}
	if (fstat(fd, &st) < 0)
		return -1;
	/* The loop driver's name for its devices: loopN, minor N. */
	if (major(st.st_rdev) != 7)
		return -1;
	snprintf(dev, sizeof(dev), "loop%u", minor(st.st_rdev));
	if (clyde_loop_backing_read("", dev, &b) < 0)
		return -1;
	bfd = open(b.file, O_RDONLY | O_CLOEXEC);
	if (bfd < 0)
		return -1;
	*base = b.offset;
	snprintf(name, len, "%s", b.file);
	return bfd;
}

/* Before reading: the holes under each position. */
static void find_holes(struct clyde_dev_run *run, int fd)
{
	struct clyde_zcav_result *res = &run->zcav;
	uint64_t base;
	int hfd = holes_file(run, fd, &base, res->holes_file,
			     sizeof(res->holes_file));

	if (hfd < 0) {
		res->holes_file[0] = '\0';
		return;
	}
	for (size_t i = 0; i < res->npoints; i++) {
		struct clyde_zcav_point *p = &res->points[i];
		int64_t h = clyde_zcav_hole_bytes(hfd, base + p->offset_bytes,
						  p->bytes);

		if (h < 0) {
			/* The filesystem cannot tell: nothing is flagged. */
			res->holes_file[0] = '\0';
			for (size_t j = 0; j < i; j++)
				res->points[j].hole_bytes = 0;
			break;
		}
		p->holes_checked = true;
		p->hole_bytes = (uint64_t)h;
	}
	if (!res->holes_file[0])
		for (size_t i = 0; i < res->npoints; i++)
			res->points[i].holes_checked = false;
	close(hfd);
}

/* One pass over the positions. */
static int one_pass(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		    struct clyde_dev_job *job, uint32_t pass)
{
	struct clyde_zcav_result *res = &run->zcav;
	struct clyde_dev_test_result *r = &run->tests[CLYDE_DEV_ZCAV];

	for (size_t i = 0; i < res->npoints; i++) {
		struct clyde_zcav_point *p = &res->points[i];
		struct clyde_dev_job_out out;
		int rc;

		job->start = p->offset_bytes;
		rc = clyde_dev_job_run(ctx, job, &out);
		if (rc < 0)
			return rc;
		p->loop_ns[pass] = out.elapsed_ns;
		if (out.max_inflight > r->inflight_max)
			r->inflight_max = out.max_inflight;
		/* The mean in flight over every position, by its time. */
		if (r->elapsed_ns + out.elapsed_ns)
			r->inflight_mean =
				(r->inflight_mean * (double)r->elapsed_ns +
				 out.mean_inflight * (double)out.elapsed_ns) /
				(double)(r->elapsed_ns + out.elapsed_ns);
		r->submit_calls += out.submit_calls;
		r->submitted += out.submitted;
		res->pass_ns[pass] += out.elapsed_ns;
		res->pass_bytes[pass] += out.bytes;
		r->bytes += out.bytes;
		r->ops += out.ops;
		r->elapsed_ns += out.elapsed_ns;
	}
	return 0;
}

/* --ramp: read (or write) the range from its start for ramp_ns, untimed
 * and in no figure. */
static int ramp(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		const struct clyde_dev_job *timed)
{
	struct clyde_dev_job job = *timed;
	struct clyde_dev_job_out out;

	job.start = run->cfg.offset;
	job.span = run->range_bytes - run->range_bytes % job.len;
	job.n = 0;
	job.runtime_ns = run->cfg.ramp_ns;
	job.hist = NULL;
	return clyde_dev_job_run(ctx, &job, &out);
}

int clyde_zcav_run(struct clyde_ctx *ctx, struct clyde_dev_run *run, int fd,
		   unsigned char *bufs, const struct clyde_engine_ops *engine,
		   struct clyde_pattern_gen *pat)
{
	const struct clyde_zcav_config *z = &run->cfg.zcav;
	struct clyde_dev_test_result *r = &run->tests[CLYDE_DEV_ZCAV];
	/* Only the device itself: its members are the dev tests'. */
	struct clyde_target_setup setup = {
		.target = &run->env.target,
		.stack = &run->env.stack,
	};
	struct clyde_target_moved moved = { .dev = &r->dev };
	struct clyde_target_watch tgt;
	struct clyde_cpu_mark cpu;
	struct clyde_dev_job job;
	uint64_t t0;
	int rc = make_points(ctx, run);

	if (rc < 0)
		return rc;
	r->latency = malloc(sizeof(*r->latency));
	if (!r->latency)
		return clyde_err(ctx, ENOMEM, "zcav");
	clyde_hist_init(r->latency);
	memset(&job, 0, sizeof(job));
	job.what = run->cfg.path;
	job.fd = fd;
	job.write = z->write;
	job.len = (uint32_t)z->chunk_bytes;
	job.n = z->block_bytes / z->chunk_bytes;
	job.depth = 1;
	job.engine = engine;
	job.fsync_each = z->write;
	job.hist = r->latency;
	job.bufs = bufs;
	job.pat = z->write ? pat : NULL;
	if (!z->write)
		find_holes(run, fd);
	if (run->cfg.ramp_ns) {
		rc = ramp(ctx, run, &job);
		if (rc < 0)
			return rc;
	}
	rc = clyde_target_open(ctx, &tgt, &setup);
	if (rc < 0)
		return rc;
	clyde_target_begin(&tgt);
	clyde_cpu_mark(&cpu);
	t0 = clyde_now(ctx);
	for (uint32_t pass = 0; pass < z->loops && rc == 0; pass++) {
		/* By time: another pass while the runtime is not up. */
		if (pass && run->cfg.runtime_ns &&
		    clyde_now(ctx) - t0 >= run->cfg.runtime_ns)
			break;
		rc = one_pass(ctx, run, &job, pass);
		if (rc == 0)
			run->zcav.loops_done = pass + 1;
	}
	clyde_cpu_since(&cpu, &r->cpu_user_ns, &r->cpu_sys_ns);
	clyde_target_end(&tgt, &moved);
	clyde_target_close(&tgt);
	for (size_t i = 0; i < run->zcav.npoints; i++) {
		struct clyde_zcav_point *p = &run->zcav.points[i];
		uint64_t t[CLYDE_ZCAV_MAX_LOOPS];

		memcpy(t, p->loop_ns, run->zcav.loops_done * sizeof(*t));
		p->ns = clyde_zcav_average(t, run->zcav.loops_done);
		p->imprecise = p->ns < CLYDE_ZCAV_MIN_NS;
	}
	r->ran = rc == 0;
	return rc;
}

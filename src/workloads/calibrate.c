/*
 * Choosing the IO tests' file size when -s is not given.  bonnie++ asks
 * for twice the RAM so that the page cache cannot hold the file: 48 GiB on
 * a 24 GiB machine, which takes long and still measures the cache on the
 * read side if anything goes wrong.  clyde evicts the file before every
 * read-side test instead, so the size only has to make each block test
 * long enough to be stable: a short calibration write tells how fast the
 * storage is, and the size is what that speed writes in a few seconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/rng.h"
#include "io/engine.h"
#include "io/scratch.h"
#include "workloads/bonnie.h"

#define CAL_NAME "calibrate"
#define CAL_MAX_BYTES (1ull << 30)
#define CAL_MAX_NS (2ull * 1000000000ull)
#define CAL_CHUNK (1u << 20)
#define TARGET_NS 5.0e9	    /* each block test about this long */
#define MIN_TOTAL_MIB 1024u /* at least 1 GiB written in all */
#define MAX_TOTAL_MIB (256u * 1024u)
#define MIN_WORKER_MIB 64u

int clyde_bonnie_calibrate(struct clyde_ctx *ctx,
			   const struct clyde_bonnie_config *cfg,
			   struct clyde_scratch *scratch, uint64_t *size_mib)
{
	struct clyde_engine eng, *e = &eng;
	unsigned n = cfg->concurrency ? cfg->concurrency : 1;
	uint64_t written = 0, t0, elapsed, total_mib, free_mib, cap_mib;
	struct clyde_rng rng;
	struct statvfs sv;
	unsigned char *buf;
	double rate;
	int fd, ret = 0;

	if (fstatvfs(scratch->dirfd, &sv) < 0)
		return clyde_err(ctx, errno,
				 "sizing: cannot read the free space of %s",
				 scratch->path);
	free_mib = (uint64_t)sv.f_bavail * sv.f_frsize >> 20;
	/* Half of the free space at most: the disk is someone's. */
	cap_mib = free_mib / 2;
	if (cap_mib < (uint64_t)MIN_WORKER_MIB * n)
		return clyde_err(ctx, ENOSPC,
				 "sizing: %s has %llu MiB free; give -s (at "
				 "least %u MiB per worker needs %llu MiB free)",
				 scratch->path, (unsigned long long)free_mib,
				 MIN_WORKER_MIB,
				 (unsigned long long)MIN_WORKER_MIB * n * 2);

	if (posix_memalign((void **)&buf, 4096, CAL_CHUNK) != 0)
		return clyde_err(ctx, ENOMEM, "sizing: calibration buffer");
	clyde_rng_seed(&rng, cfg->seed ^ 0x63616c6962ull);
	clyde_rng_fill(&rng, buf, CAL_CHUNK);
	ret = clyde_engine_init(e, &clyde_engine_psync, 1, NULL, NULL);
	if (ret < 0) {
		free(buf);
		return clyde_err(ctx, -ret, "sizing: %s", e->err);
	}
	fd = openat(scratch->dirfd, CAL_NAME,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		clyde_engine_release(e);
		free(buf);
		return clyde_err(ctx, errno, "sizing: cannot create %s/%s",
				 scratch->path, CAL_NAME);
	}
	t0 = clyde_now(ctx);
	while (written < CAL_MAX_BYTES && written < cap_mib << 20 &&
	       clyde_now(ctx) - t0 < CAL_MAX_NS) {
		if (clyde_stopping(ctx)) {
			ret = -EINTR;
			break;
		}
		/* Change the data per chunk so that nothing can compress it. */
		memcpy(buf, &written, sizeof(written));
		ret = clyde_engine_write_full(e, fd, buf, CAL_CHUNK,
					      (off_t)written);
		if (ret < 0) {
			ret = clyde_err(ctx, -ret, "sizing: cannot write %s/%s",
					scratch->path, CAL_NAME);
			break;
		}
		written += CAL_CHUNK;
	}
	if (!ret && (ret = clyde_engine_fsync(e, fd)) < 0)
		ret = clyde_err(ctx, -ret, "sizing: cannot fsync %s/%s",
				scratch->path, CAL_NAME);
	elapsed = clyde_now(ctx) - t0;
	close(fd);
	unlinkat(scratch->dirfd, CAL_NAME, 0);
	clyde_engine_release(e);
	free(buf);
	if (ret < 0)
		return ret;

	rate = elapsed ? (double)written * 1e9 / (double)elapsed : 0.0;
	total_mib = (uint64_t)(rate * TARGET_NS / 1e9) >> 20;
	if (total_mib < MIN_TOTAL_MIB)
		total_mib = MIN_TOTAL_MIB;
	if (total_mib > MAX_TOTAL_MIB)
		total_mib = MAX_TOTAL_MIB;
	if (total_mib > cap_mib)
		total_mib = cap_mib;
	*size_mib = total_mib / n;
	if (*size_mib < MIN_WORKER_MIB)
		*size_mib = MIN_WORKER_MIB;
	return 0;
}

static const char *human_bytes(double b, char *buf, size_t len)
{
	static const char *const unit[] = { "B",   "KiB", "MiB", "GiB",
					    "TiB", "PiB", "EiB" };
	unsigned i = 0;

	while (b >= 1024.0 && i < 6) {
		b /= 1024.0;
		i++;
	}
	snprintf(buf, len, i ? "%.1f %s" : "%.0f %s", b, unit[i]);
	return buf;
}

int clyde_bonnie_check_space(const struct clyde_bonnie_config *cfg,
			     const struct clyde_scratch *scratch, char *msg,
			     size_t len)
{
	unsigned n = cfg->concurrency ? cfg->concurrency : 1;
	double io = (double)cfg->file_size_mib * 1048576.0 * n, files = 0.0;
	char what[256], a[32], b[32], per[64] = "";
	struct statvfs sv;
	double avail;
	/* An inode per file (-n's hard links share one), per directory and
	 * per worker's IO file, as clyde tree counts them. */
	uint64_t inodes = (uint64_t)n *
			  ((cfg->max_size == -1 ? 1 : cfg->num_files) +
			   cfg->num_dirs + 1),
		 ifree;

	if (cfg->num_files &&
	    !clyde_scratch_inodes_fit(scratch->dirfd, inodes, &ifree)) {
		if (n > 1)
			snprintf(per, sizeof(per), " (%u workers)", n);
		snprintf(msg, len,
			 "the -n files%s need %llu inodes but %s has only %llu "
			 "free",
			 per, (unsigned long long)inodes, cfg->dir,
			 (unsigned long long)ifree);
		return -1;
	}

	/* The file sizes are uniform in [min, max]: over 1024 files and more
	 * the total is close to its mean. */
	if (cfg->max_size > 0)
		files = (double)cfg->num_files *
			((double)cfg->max_size + (double)cfg->min_size) / 2.0 *
			n;
	if (io + files <= 0.0 || fstatvfs(scratch->dirfd, &sv) < 0)
		return 0;
	avail = (double)sv.f_bavail * (double)sv.f_frsize;
	if (io + files <= avail)
		return 0;
	if (n > 1)
		snprintf(per, sizeof(per), " (%u workers)", n);
	human_bytes((double)cfg->file_size_mib * 1048576.0, a, sizeof(a));
	if (io > 0.0)
		snprintf(what, sizeof(what), "%s%s%s%s",
			 cfg->size_given ? "-s " :
					   "the size chosen without -s, ",
			 a, per, files > 0.0 ? " and the -n files" : "");
	else
		snprintf(what, sizeof(what), "the -n files%s", per);
	snprintf(msg, len, "%s %s %s but %s has only %s free%s", what,
		 io > 0.0 ? "needs" : "need",
		 human_bytes(io + files, a, sizeof(a)), cfg->dir,
		 human_bytes(avail, b, sizeof(b)),
		 io > 0.0 && !cfg->size_given ? "; give a smaller -s" : "");
	return -1;
}

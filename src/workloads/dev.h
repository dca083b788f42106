/*
 * Raw block-device tests (`clyde dev`): sequential write and read over a
 * range with one request size, random read and write at a queue depth,
 * and zcav (workloads/zcav.h), always with O_DIRECT, on a block device or
 * a regular file standing in for one.
 *
 * Safety.  clyde_dev_run() runs the guards of io/devguard.h before it
 * opens the target for writing, and only when a test that writes was
 * asked for; read-only runs open the target O_RDONLY and need no
 * --destroy-data.  A block device opened for writing is opened with
 * O_EXCL, so that nobody can mount it while the tests run.
 *
 * Nothing prints.  Errors are recorded in ctx (naming the device and the
 * operation) and returned as negative errno values: -EINVAL for settings
 * the device cannot take (a range beyond its end, a size that is not a
 * multiple of its logical block), -EBUSY/-EEXIST for a refusal of the
 * guards (nothing written), -EINTR when interrupted, -EIO and friends for
 * a failed request.
 */
#ifndef CLYDE_WORKLOADS_DEV_H
#define CLYDE_WORKLOADS_DEV_H

#include "core/ctx.h"
#include "results/dev_result.h"

/* Defaults of the command line. */
#define CLYDE_DEV_DEFAULT_BS (1u << 20)
#define CLYDE_DEV_DEFAULT_RAND_BS 4096u
/* --steady-window: intervals the --until-steady slope is taken over. */
#define CLYDE_DEV_DEFAULT_STEADY_WINDOW 5u
#define CLYDE_DEV_DEFAULT_RAND_OPS 16384u
#define CLYDE_DEV_DEFAULT_IODEPTH 32u
#define CLYDE_DEV_MAX_IODEPTH 1024u

/* cfg with every default set (tests: seqwrite,seqread; zcav as zcav). */
void clyde_dev_config_init(struct clyde_dev_config *cfg);

/* Called between tests (for progress); may be NULL. */
struct clyde_dev_hooks {
	void *arg;
	void (*before_test)(void *arg, enum clyde_dev_test t);
	void (*after_test)(void *arg, enum clyde_dev_test t,
			   const struct clyde_dev_run *run);
};

/*
 * Run the tests of cfg on cfg->path into *run (initialised here; the
 * caller releases it with clyde_dev_run_release() whatever the result).
 * Returns 0 or a negative errno (see above); the tests that ran before a
 * failure are in *run.
 */
int clyde_dev_run(struct clyde_ctx *ctx, const struct clyde_dev_config *cfg,
		  const struct clyde_dev_hooks *hooks,
		  struct clyde_dev_run *run);

#endif

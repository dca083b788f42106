/*
 * io_uring through liburing.  Built only with liburing (CLYDE_HAVE_LIBURING);
 * without it the engine is still in the table and its init says so.
 */
#include <errno.h>
#include <stdio.h>

#include "io/engine.h"

static int uring_absent(struct clyde_engine *e)
{
	snprintf(e->err, sizeof(e->err), "io_uring: not built in");
	return -ENOSYS;
}

static int uring_never(struct clyde_engine *e, struct clyde_io_req *r)
{
	(void)e;
	(void)r;
	return -ENOSYS;
}

const struct clyde_engine_ops clyde_engine_io_uring = {
	.name = "io_uring",
	.init = uring_absent,
	.queue = uring_never,
};

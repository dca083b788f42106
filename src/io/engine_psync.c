/*
 * psync: one pread/pwrite/fsync per request, performed in queue.  This is
 * bonnie++'s model and clyde's default; at a depth above 1 the requests
 * still run one after the other (as fio's psync does), and the instance's
 * max_inflight says 1.  clyde dev refuses a depth above 1 with it.
 */
#include <errno.h>
#include <unistd.h>

#include "io/engine.h"

static int psync_queue(struct clyde_engine *e, struct clyde_io_req *r)
{
	ssize_t n;

	r->submit_ns = clyde_engine_stamp(e);
	switch (r->op) {
	case CLYDE_IO_READ:
		n = pread(r->fd, r->buf, r->len, r->off);
		break;
	case CLYDE_IO_WRITE:
		n = pwrite(r->fd, r->buf, r->len, r->off);
		break;
	case CLYDE_IO_FSYNC:
		n = fsync(r->fd);
		break;
	default:
		errno = EINVAL;
		n = -1;
	}
	r->result = n < 0 ? -errno : n;
	r->complete_ns = clyde_engine_stamp(e);
	return CLYDE_ENGINE_COMPLETED;
}

const struct clyde_engine_ops clyde_engine_psync = {
	.name = "psync",
	.sync = true,
	.default_depth = 1,
	.queue = psync_queue,
};

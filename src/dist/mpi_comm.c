/*
 * clyde's communicator over MPI (mpi_comm.h).  Built only into clyde-mpi.
 */
#include "dist/mpi_comm.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"

/* How long a wait may go on after a signal before it gives up.  The
 * ranks' own scratch directories are removed before they wait
 * (clyde_run_dist_remove_early), so this only bounds how long a rank
 * waits for a dead peer: long enough for live peers on a loaded machine. */
#define GRACE_NS (5ull * 1000000000ull)
/* Ping-pong exchanges per rank for its clock offset. */
#define CLOCK_SAMPLES 20

/* The tag of the stop messages (notify). */
#define TAG_STOP 99

struct mpi_impl {
	volatile sig_atomic_t *interrupted;
	bool broken;
	bool serialized;       /* the MPI library allows a second thread */
	MPI_Request stop_recv; /* posted at start: a stop from any rank */
	int stop_buf;
	MPI_Request *stop_sends; /* notify's, one per other rank */
	int nsends;
};

static int wait_req(struct clyde_comm *c, MPI_Request *req)
{
	struct mpi_impl *m = c->impl;
	uint64_t since = 0;
	int done = 0;

	if (m->broken)
		return -EPIPE;
	for (;;) {
		/* An error (MPI_ERRORS_RETURN, set at init) leaves the
		 * communicator unusable: the rank goes on as after a lost
		 * peer, cleaning up its own scratch. */
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
			m->broken = true;
			return -EIO;
		}
		if (done)
			return 0;
		if (m->interrupted && *m->interrupted) {
			uint64_t now = clyde_monotonic_ns(NULL);

			if (!since)
				since = now;
			else if (now - since > GRACE_NS) {
				m->broken = true;
				return -EINTR;
			}
		}
		/* Polling with a short sleep leaves the CPU to the ranks
		 * still working; it delays a release by at most ~50 us. */
		nanosleep(&(struct timespec){ 0, 50000 }, NULL);
	}
}

static int mpi_max_i64(struct clyde_comm *c, int64_t *v, size_t n)
{
	MPI_Request req;

	if (((struct mpi_impl *)c->impl)->broken)
		return -EPIPE;
	if (MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_INT64_T, MPI_MAX,
			   MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(c, &req);
}

static int mpi_gather(struct clyde_comm *c, const void *mine, size_t len,
		      void *all)
{
	MPI_Request req;

	if (((struct mpi_impl *)c->impl)->broken)
		return -EPIPE;
	if (len > INT_MAX)
		return -E2BIG;
	if (MPI_Igather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0,
			MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(c, &req);
}

static int mpi_bcast(struct clyde_comm *c, void *buf, size_t len)
{
	MPI_Request req;

	if (((struct mpi_impl *)c->impl)->broken)
		return -EPIPE;
	if (len > INT_MAX)
		return -E2BIG;
	if (MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &req) !=
	    MPI_SUCCESS)
		return -EIO;
	return wait_req(c, &req);
}

static void mpi_abort(struct clyde_comm *c, int status)
{
	(void)c;
	MPI_Abort(MPI_COMM_WORLD, status);
	_exit(status);
}

static void mpi_notify(struct clyde_comm *c)
{
	struct mpi_impl *m = c->impl;
	static int one = 1;

	if (m->broken || m->stop_sends)
		return;
	m->stop_sends = calloc((size_t)c->size, sizeof(*m->stop_sends));
	if (!m->stop_sends)
		return;
	for (int r = 0; r < c->size; r++)
		if (r != c->rank &&
		    MPI_Isend(&one, 1, MPI_INT, r, TAG_STOP, MPI_COMM_WORLD,
			      &m->stop_sends[m->nsends]) == MPI_SUCCESS)
			m->nsends++;
}

static bool mpi_notified(struct clyde_comm *c)
{
	struct mpi_impl *m = c->impl;
	int done = 0;

	if (m->broken || m->stop_recv == MPI_REQUEST_NULL)
		return false;
	return MPI_Test(&m->stop_recv, &done, MPI_STATUS_IGNORE) ==
		       MPI_SUCCESS &&
	       done;
}

static const struct clyde_comm_ops mpi_ops = {
	.max_i64 = mpi_max_i64,
	.gather = mpi_gather,
	.bcast = mpi_bcast,
	.abort = mpi_abort,
	.notify = mpi_notify,
	.notified = mpi_notified,
};

static const struct clyde_comm_ops mpi_ops_no_watch = {
	.max_i64 = mpi_max_i64,
	.gather = mpi_gather,
	.bcast = mpi_bcast,
	.abort = mpi_abort,
};

/*
 * Rank 0 sends its time, the peer answers with its own, and rank 0 takes
 * the peer's reading as made at the midpoint of the round trip.  The
 * sample with the shortest round trip bounds the error best (by half of
 * it), as NTP does.
 */
static int measure_clocks(struct clyde_comm *c)
{
	for (int r = 1; r < c->size; r++)
		for (int k = 0; k < CLOCK_SAMPLES; k++) {
			uint64_t t0, t1, tr;

			if (c->rank == 0) {
				t0 = clyde_monotonic_ns(NULL);
				if (MPI_Send(&t0, 1, MPI_UINT64_T, r, 7,
					     MPI_COMM_WORLD) != MPI_SUCCESS ||
				    MPI_Recv(&tr, 1, MPI_UINT64_T, r, 7,
					     MPI_COMM_WORLD,
					     MPI_STATUS_IGNORE) != MPI_SUCCESS)
					return -EIO;
				t1 = clyde_monotonic_ns(NULL);
				if (k == 0 || t1 - t0 < c->rtt_ns[r]) {
					c->rtt_ns[r] = t1 - t0;
					c->offset_ns[r] =
						(int64_t)(tr - t0) -
						(int64_t)((t1 - t0) / 2);
				}
			} else if (c->rank == r) {
				if (MPI_Recv(&t0, 1, MPI_UINT64_T, 0, 7,
					     MPI_COMM_WORLD,
					     MPI_STATUS_IGNORE) != MPI_SUCCESS)
					return -EIO;
				tr = clyde_monotonic_ns(NULL);
				if (MPI_Send(&tr, 1, MPI_UINT64_T, 0, 7,
					     MPI_COMM_WORLD) != MPI_SUCCESS)
					return -EIO;
			}
		}
	return 0;
}

int clyde_mpi_init(struct clyde_comm *c, int *argc, char ***argv,
		   volatile sig_atomic_t *interrupted, char *err, size_t len)
{
	struct mpi_impl *m = calloc(1, sizeof(*m));
	int provided = 0;

	memset(c, 0, sizeof(*c));
	if (!m) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	m->interrupted = interrupted;
	c->impl = m;
	c->ops = &mpi_ops;
	/* The workers never call MPI; the main thread and the watchdog
	 * (dist.h) do, one at a time. */
	m->stop_recv = MPI_REQUEST_NULL;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) !=
	    MPI_SUCCESS) {
		snprintf(err, len, "MPI_Init failed");
		return -EIO;
	}
	/* Errors come back to clyde rather than aborting the process: a
	 * rank interrupted between two collectives can meet its peers in a
	 * different one (OpenMPI then reports MPI_ERR_TRUNCATE), and the
	 * rank must still remove its scratch and exit 5, not die with
	 * MPI's status. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	m->serialized = provided >= MPI_THREAD_SERIALIZED;
	if (m->serialized &&
	    MPI_Irecv(&m->stop_buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP,
		      MPI_COMM_WORLD, &m->stop_recv) != MPI_SUCCESS)
		m->serialized = false;
	/* Without a second thread failures are learned at test ends. */
	if (!m->serialized)
		c->ops = &mpi_ops_no_watch;
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->size);
	if (gethostname(c->host, sizeof(c->host) - 1) < 0)
		snprintf(c->host, sizeof(c->host), "unknown");
	c->host[sizeof(c->host) - 1] = '\0';
	if (c->rank == 0) {
		c->offset_ns = calloc((size_t)c->size, sizeof(*c->offset_ns));
		c->rtt_ns = calloc((size_t)c->size, sizeof(*c->rtt_ns));
		if (!c->offset_ns || !c->rtt_ns) {
			snprintf(err, len, "out of memory");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	if (measure_clocks(c) < 0) {
		snprintf(err, len, "cannot measure the clock offsets");
		return -EIO;
	}
	return 0;
}

bool clyde_mpi_broken(const struct clyde_comm *c)
{
	return c->impl && ((const struct mpi_impl *)c->impl)->broken;
}

void clyde_mpi_finalize(struct clyde_comm *c)
{
	struct mpi_impl *m = c->impl;

	if (m && !m->broken) {
		if (m->stop_recv != MPI_REQUEST_NULL) {
			MPI_Cancel(&m->stop_recv);
			MPI_Wait(&m->stop_recv, MPI_STATUS_IGNORE);
		}
		/* Every rank is here: the stops were received or are
		 * buffered, so the sends complete. */
		MPI_Waitall(m->nsends, m->stop_sends, MPI_STATUSES_IGNORE);
		MPI_Finalize();
	}
	if (m)
		free(m->stop_sends);
	free(c->impl);
	free(c->offset_ns);
	free(c->rtt_ns);
	c->impl = NULL;
	c->offset_ns = NULL;
	c->rtt_ns = NULL;
}

/*
 * clyde's communicator over MPI (mpi_comm.h).  Built only into clyde-mpi.
 */
#include "dist/mpi_comm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
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

/* The peer watch's messages, 4 bytes each: a rank number (from rank 0:
 * that rank was lost), or the end of a run that finished together. */
#define WATCH_BYE (-2)
/* How long setting up the watch may take on each rank. */
#define WATCH_SETUP_MS 10000

struct mpi_impl {
	volatile sig_atomic_t *interrupted;
	atomic_bool broken;
	/* The peer watch (see "A lost peer" below): -1, or the first rank
	 * found lost; its sockets (rank 0: one per other rank, by rank;
	 * the others: fds[0], to rank 0) and thread. */
	atomic_int lost;
	/* The loss came after this rank was interrupted: the peer most
	 * likely gave up on the same interrupt (it ended first), which is
	 * not news to report. */
	atomic_bool lost_after_intr;
	int *fds;
	int nfds;
	int wake[2];
	pthread_t watcher;
	bool watching;
	char watch_note[160];
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
		/* A peer is gone: the collective cannot complete. */
		if (atomic_load(&m->lost) >= 0) {
			m->broken = true;
			return -EPIPE;
		}
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

	/* A lost peer stops the running test at once, as a stop does. */
	if (atomic_load(&m->lost) >= 0)
		return true;
	if (m->broken || m->stop_recv == MPI_REQUEST_NULL)
		return false;
	return MPI_Test(&m->stop_recv, &done, MPI_STATUS_IGNORE) ==
		       MPI_SUCCESS &&
	       done;
}

static int mpi_lost_peer(struct clyde_comm *c)
{
	struct mpi_impl *m = c->impl;

	return atomic_load(&m->lost_after_intr) ? -1 : atomic_load(&m->lost);
}

static const struct clyde_comm_ops mpi_ops = {
	.max_i64 = mpi_max_i64,
	.gather = mpi_gather,
	.bcast = mpi_bcast,
	.abort = mpi_abort,
	.notify = mpi_notify,
	.notified = mpi_notified,
	.lost_peer = mpi_lost_peer,
};

static const struct clyde_comm_ops mpi_ops_no_watch = {
	.max_i64 = mpi_max_i64,
	.gather = mpi_gather,
	.bcast = mpi_bcast,
	.abort = mpi_abort,
	.lost_peer = mpi_lost_peer,
};

/*
 * A lost peer.  A rank killed with SIGKILL (or on a node that died) never
 * answers again, and OpenMPI without fault tolerance neither fails the
 * collectives the others wait in nor tells them: its runtime sends them
 * SIGTERM only after odls_base_sigkill_timeout, and SIGKILL a timeout
 * later, too soon to remove gigabytes of scratch.  So the ranks keep a
 * connection of their own beside MPI: every rank has a TCP connection to
 * rank 0, and a thread that waits in poll() on it.  The kernel closes a
 * dead process's sockets, so its peer sees the end of the stream at once;
 * rank 0 then sends the lost rank's number to every other rank.  Each
 * rank that learns of a loss stops its test (notified()) and fails its
 * waits (wait_req()), so it removes its scratch and exits within moments
 * of the kill.  A run that ends together says WATCH_BYE before closing.
 * The thread makes no MPI call.  When the watch cannot be set up (no
 * address for rank 0's host, a firewall), the run goes on without it and
 * clyde_mpi_watch_note() says why.
 */
static void watch_lost(struct mpi_impl *m, int rank)
{
	int none = -1;

	if (atomic_compare_exchange_strong(&m->lost, &none, rank) &&
	    m->interrupted && *m->interrupted)
		atomic_store(&m->lost_after_intr, true);
}

static void *watch_main(void *arg)
{
	struct clyde_comm *c = arg;
	struct mpi_impl *m = c->impl;
	struct pollfd *p = calloc((size_t)m->nfds + 1, sizeof(*p));
	bool *bye = calloc((size_t)m->nfds + 1, sizeof(*bye));
	int live = 0;

	if (!p || !bye)
		goto out;
	p[0].fd = m->wake[0];
	p[0].events = POLLIN;
	for (int i = 0; i < m->nfds; i++) {
		p[i + 1].fd = m->fds[i];
		p[i + 1].events = POLLIN;
		live += m->fds[i] >= 0;
	}
	while (live > 0) {
		if (poll(p, (nfds_t)m->nfds + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents)
			break; /* finalize: stop watching */
		for (int i = 0; i < m->nfds; i++) {
			int32_t msg;
			ssize_t n;

			if (p[i + 1].fd < 0 || !p[i + 1].revents)
				continue;
			n = recv(p[i + 1].fd, &msg, sizeof(msg), MSG_WAITALL);
			if (n == (ssize_t)sizeof(msg) && msg == WATCH_BYE) {
				bye[i] = true;
				continue;
			}
			if (n == (ssize_t)sizeof(msg) && c->rank != 0 &&
			    msg >= 0 && msg < c->size) {
				watch_lost(m, msg); /* rank 0's news */
				continue;
			}
			/* The end of the stream: gone, unless it said bye. */
			p[i + 1].fd = -1;
			live--;
			if (bye[i])
				continue;
			if (c->rank != 0) {
				watch_lost(m, 0);
				continue;
			}
			watch_lost(m, i);
			msg = i;
			for (int k = 0; k < m->nfds; k++)
				if (p[k + 1].fd >= 0)
					(void)send(p[k + 1].fd, &msg,
						   sizeof(msg), MSG_NOSIGNAL);
		}
	}
out:
	free(p);
	free(bye);
	return NULL;
}

/* What rank 0 broadcasts: where to connect, and a token that tells our
 * connections from strangers'. */
struct watch_hello {
	char host[CLYDE_HOST_MAX];
	char port[16];
	uint64_t token;
	int32_t ok;
};

/* Rank 0: a listening socket on every address, any port. */
static int watch_listen(char *port, size_t cap)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0), off = 0;

	if (fd >= 0) {
		struct sockaddr_in6 a = { .sin6_family = AF_INET6,
					  .sin6_addr = IN6ADDR_ANY_INIT };

		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off,
				 sizeof(off));
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		struct sockaddr_in a = { .sin_family = AF_INET,
					 .sin_addr.s_addr = htonl(INADDR_ANY) };

		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0 || listen(fd, SOMAXCONN) < 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	snprintf(port, cap, "%u",
		 ntohs(ss.ss_family == AF_INET6 ?
			       ((struct sockaddr_in6 *)&ss)->sin6_port :
			       ((struct sockaddr_in *)&ss)->sin_port));
	return fd;
}

/* Poll one fd for `events` until the deadline; 1 ready, 0 not. */
static int wait_fd(int fd, short events, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = clyde_monotonic_ns(NULL);
		struct pollfd p = { .fd = fd, .events = events };
		int r;

		if (now >= deadline_ns)
			return 0;
		r = poll(&p, 1, (int)((deadline_ns - now) / 1000000 + 1));
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return 0;
	}
}

/* The others: connect to rank 0 and say who we are.  A rank on rank 0's
 * own host connects over the loopback interface, whatever the host name
 * resolves to: a one-host job sends nothing to any other address. */
static int watch_connect(const struct watch_hello *hi, int rank, bool same_host,
			 uint64_t deadline_ns)
{
	struct addrinfo want = { .ai_socktype = SOCK_STREAM }, *res = NULL;
	int fd = -1;

	if (getaddrinfo(same_host ? "localhost" : hi->host, hi->port, &want,
			&res) != 0)
		return -1;
	for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
		int err = 0;
		socklen_t el = sizeof(err);

		fd = socket(a->ai_family,
			    a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			    a->ai_protocol);
		if (fd < 0)
			continue;
		if ((connect(fd, a->ai_addr, a->ai_addrlen) < 0 &&
		     (errno != EINPROGRESS ||
		      !wait_fd(fd, POLLOUT, deadline_ns) ||
		      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0 ||
		      err))) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd >= 0) {
		struct {
			uint64_t token;
			int32_t rank;
		} me = { hi->token, rank };

		/* Blocking from here: the thread waits in poll(). */
		(void)fcntl(fd, F_SETFL, 0);
		if (send(fd, &me, sizeof(me), MSG_NOSIGNAL) !=
		    (ssize_t)sizeof(me)) {
			close(fd);
			fd = -1;
		}
	}
	return fd;
}

/* Rank 0: accept size - 1 connections that know the token. */
static int watch_accept(struct clyde_comm *c, struct mpi_impl *m, int lfd,
			uint64_t token, uint64_t deadline_ns)
{
	int got = 0;

	while (got < c->size - 1 && wait_fd(lfd, POLLIN, deadline_ns)) {
		struct {
			uint64_t token;
			int32_t rank;
		} who;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			continue;
		if (!wait_fd(fd, POLLIN, deadline_ns) ||
		    recv(fd, &who, sizeof(who), MSG_WAITALL) !=
			    (ssize_t)sizeof(who) ||
		    who.token != token || who.rank <= 0 ||
		    who.rank >= c->size || m->fds[who.rank] >= 0) {
			close(fd);
			continue;
		}
		m->fds[who.rank] = fd;
		got++;
	}
	return got == c->size - 1 ? 0 : -1;
}

/* Set the watch up (collective, blocking MPI: every rank is alive at
 * start).  Without it the run still goes on; the reason is kept. */
static void watch_start(struct clyde_comm *c, struct mpi_impl *m)
{
	uint64_t deadline =
		clyde_monotonic_ns(NULL) + (uint64_t)WATCH_SETUP_MS * 1000000u;
	struct watch_hello hi;
	int lfd = -1, ok, all = 0;

	m->nfds = c->rank == 0 ? c->size : 1;
	m->fds = malloc((size_t)m->nfds * sizeof(*m->fds));
	for (int i = 0; m->fds && i < m->nfds; i++)
		m->fds[i] = -1;
	memset(&hi, 0, sizeof(hi));
	if (c->rank == 0) {
		snprintf(hi.host, sizeof(hi.host), "%s", c->host);
		lfd = m->fds ? watch_listen(hi.port, sizeof(hi.port)) : -1;
		hi.ok = lfd >= 0 && getrandom(&hi.token, sizeof(hi.token), 0) ==
					    (ssize_t)sizeof(hi.token);
	}
	if (MPI_Bcast(&hi, (int)sizeof(hi), MPI_BYTE, 0, MPI_COMM_WORLD) !=
	    MPI_SUCCESS)
		hi.ok = 0;
	ok = hi.ok && m->fds;
	if (ok && c->rank != 0)
		ok = (m->fds[0] = watch_connect(&hi, c->rank,
						!strcmp(hi.host, c->host),
						deadline)) >= 0;
	if (ok && c->rank == 0)
		ok = watch_accept(c, m, lfd, hi.token, deadline) == 0;
	if (lfd >= 0)
		close(lfd);
	/* Everyone's, so that no rank watches alone. */
	all = !ok;
	if (MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MAX,
			  MPI_COMM_WORLD) != MPI_SUCCESS)
		all = 1;
	if (!all && pipe2(m->wake, O_CLOEXEC) == 0) {
		if (pthread_create(&m->watcher, NULL, watch_main, c) == 0) {
			m->watching = true;
			return;
		}
		close(m->wake[0]);
		close(m->wake[1]);
	}
	snprintf(m->watch_note, sizeof(m->watch_note),
		 "%s cannot reach rank 0 on %s over TCP",
		 ok ? "a rank" : "this rank", hi.host[0] ? hi.host : "?");
	for (int i = 0; m->fds && i < m->nfds; i++)
		if (m->fds[i] >= 0)
			close(m->fds[i]);
	m->nfds = 0;
}

/* A run that ended together: say so, stop the thread, close. */
static void watch_stop(struct mpi_impl *m, bool bye)
{
	int32_t msg = WATCH_BYE;

	if (m->watching) {
		for (int i = 0; bye && i < m->nfds; i++)
			if (m->fds[i] >= 0)
				(void)send(m->fds[i], &msg, sizeof(msg),
					   MSG_NOSIGNAL);
		(void)write(m->wake[1], "x", 1);
		pthread_join(m->watcher, NULL);
		close(m->wake[0]);
		close(m->wake[1]);
		m->watching = false;
	}
	for (int i = 0; m->fds && i < m->nfds; i++)
		if (m->fds[i] >= 0)
			close(m->fds[i]);
	free(m->fds);
	m->fds = NULL;
	m->nfds = 0;
}

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
	atomic_init(&m->lost, -1);
	atomic_init(&m->lost_after_intr, false);
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
	if (c->size > 1)
		watch_start(c, m);
	return 0;
}

const char *clyde_mpi_watch_note(const struct clyde_comm *c)
{
	const struct mpi_impl *m = c->impl;

	return m && m->watch_note[0] ? m->watch_note : NULL;
}

bool clyde_mpi_broken(const struct clyde_comm *c)
{
	const struct mpi_impl *m = c->impl;

	/* A lost peer cannot take part in MPI_Finalize either. */
	return m && (m->broken || atomic_load(&m->lost) >= 0);
}

void clyde_mpi_finalize(struct clyde_comm *c)
{
	struct mpi_impl *m = c->impl;

	if (m)
		watch_stop(m, !m->broken);
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

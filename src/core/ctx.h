/*
 * The context every library call receives: where errors are recorded, which
 * clock is read, and the flag that tells a running workload to stop.
 *
 * Library code never prints and never exits.  A failing function records one
 * message with clyde_err() and returns the negative errno it got; the caller
 * (in the end cli/) decides what the user sees and the exit code.
 */
#ifndef CLYDE_CORE_CTX_H
#define CLYDE_CORE_CTX_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#define CLYDE_ERR_MAX 1024

/* A clock returns nanoseconds from an arbitrary origin and never goes back. */
typedef uint64_t (*clyde_clock_fn)(void *arg);

struct clyde_ctx {
	/* First error recorded wins; later ones are dropped (workers race). */
	pthread_mutex_t lock;
	int err_set;
	int err_code; /* positive errno of the recorded error, or 0 */
	char err[CLYDE_ERR_MAX];

	clyde_clock_fn clock;
	void *clock_arg;

	/* Set from a signal handler (Ctrl-C, SIGTERM): every loop that can run
	 * for long polls it through clyde_stopping(). */
	volatile sig_atomic_t *interrupted;
	/* Set by a worker that failed so that its siblings stop early. */
	atomic_int failed;
	/* clyde-mpi --stonewall: set by the watchdog at the deadline; a test
	 * that polls it ends there as if done, its work so far the result.
	 * Never set in plain clyde. */
	atomic_int stonewall;
};

void clyde_ctx_init(struct clyde_ctx *ctx);
void clyde_ctx_release(struct clyde_ctx *ctx);

/*
 * Record "message: strerror(errnum)" (or only the message when errnum is 0)
 * and return -errnum (or -EIO when errnum is 0).  Thread safe; the first
 * error recorded is kept.
 */
int clyde_err(struct clyde_ctx *ctx, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Add text to the end of the recorded error, when there is one (cut
 * at CLYDE_ERR_MAX). */
void clyde_err_append(struct clyde_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Forget a recorded error (used between independent runs). */
void clyde_err_clear(struct clyde_ctx *ctx);

/* The recorded message, or "" when there is none. */
const char *clyde_errmsg(const struct clyde_ctx *ctx);

/* Nanoseconds from the context's clock (CLOCK_MONOTONIC unless replaced). */
uint64_t clyde_now(const struct clyde_ctx *ctx);

/* The default clock: CLOCK_MONOTONIC in nanoseconds. */
uint64_t clyde_monotonic_ns(void *unused);

/* True once the user interrupted or a sibling worker failed. */
int clyde_stopping(struct clyde_ctx *ctx);

/* True once --stonewall's deadline passed (one relaxed load). */
static inline int clyde_stonewalled(struct clyde_ctx *ctx)
{
	return atomic_load_explicit(&ctx->stonewall, memory_order_relaxed);
}

#endif

#include "core/ctx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

uint64_t clyde_monotonic_ns(void *unused)
{
	struct timespec ts;

	(void)unused;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void clyde_ctx_init(struct clyde_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	pthread_mutex_init(&ctx->lock, NULL);
	ctx->clock = clyde_monotonic_ns;
	atomic_init(&ctx->failed, 0);
}

void clyde_ctx_release(struct clyde_ctx *ctx)
{
	pthread_mutex_destroy(&ctx->lock);
}

int clyde_err(struct clyde_ctx *ctx, int errnum, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&ctx->lock);
	if (!ctx->err_set) {
		size_t n;

		va_start(ap, fmt);
		vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
		va_end(ap);
		n = strlen(ctx->err);
		if (errnum && n < sizeof(ctx->err))
			snprintf(ctx->err + n, sizeof(ctx->err) - n, ": %s",
				 strerror(errnum));
		ctx->err_set = 1;
		ctx->err_code = errnum;
	}
	pthread_mutex_unlock(&ctx->lock);
	atomic_store(&ctx->failed, 1);
	return errnum ? -errnum : -EIO;
}

void clyde_err_append(struct clyde_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	pthread_mutex_lock(&ctx->lock);
	n = strlen(ctx->err);
	if (ctx->err_set && n + 1 < sizeof(ctx->err)) {
		va_start(ap, fmt);
		vsnprintf(ctx->err + n, sizeof(ctx->err) - n, fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&ctx->lock);
}

void clyde_err_clear(struct clyde_ctx *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->err_set = 0;
	ctx->err_code = 0;
	ctx->err[0] = '\0';
	pthread_mutex_unlock(&ctx->lock);
	atomic_store(&ctx->failed, 0);
}

const char *clyde_errmsg(const struct clyde_ctx *ctx)
{
	return ctx->err_set ? ctx->err : "";
}

uint64_t clyde_now(const struct clyde_ctx *ctx)
{
	return ctx->clock(ctx->clock_arg);
}

int clyde_stopping(struct clyde_ctx *ctx)
{
	if (ctx->interrupted && *ctx->interrupted)
		return 1;
	return atomic_load_explicit(&ctx->failed, memory_order_relaxed);
}

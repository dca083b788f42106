#include "cli/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "workloads/bonnie.h"

#define REDRAW_NS 250000000L

static const char *human(double v, const char *unit, char *buf, size_t len)
{
	static const char *const pfx[] = { "", "Ki", "Mi", "Gi", "Ti" };
	unsigned i = 0;

	if (strcmp(unit, "B")) {
		snprintf(buf, len, "%.0f %s", v, unit);
		return buf;
	}
	while (v >= 1024.0 && i < 4) {
		v /= 1024.0;
		i++;
	}
	snprintf(buf, len, i ? "%.1f %s%s" : "%.0f %s%s", v, pfx[i], unit);
	return buf;
}

static void draw(struct clyde_progress_display *d)
{
	struct clyde_progress *p = &d->state;
	enum clyde_test t = (enum clyde_test)atomic_load(&p->test);
	uint64_t done = atomic_load(&p->done), total = atomic_load(&p->total);
	uint64_t el = clyde_now(d->ctx) - atomic_load(&p->start_ns);
	const char *unit = clyde_test_is_io(t) ? "B" :
			   t == CLYDE_SEEKS    ? "seeks" :
						 "files";
	char a[32], b[32], r[32], c[32], eta[32] = "", cur[48] = "";
	double rate = el ? (double)done * 1e9 / (double)el : 0.0;
	uint64_t now = clyde_now(d->ctx);

	/* The current rate over the last second or so: a window that
	 * restarts when the test changes or a second has passed. */
	if (d->win_test != (int)t || done < d->win_done ||
	    now < d->win_start_ns) {
		d->win_test = (int)t;
		d->win_start_ns = atomic_load(&p->start_ns);
		d->win_done = 0;
		d->win_prev_ns = 0;
		d->now_rate = -1;
	}
	if (now - d->win_start_ns >= 1000000000u) {
		d->win_prev_ns = d->win_start_ns;
		d->win_prev_done = d->win_done;
		d->win_start_ns = now;
		d->win_done = done;
		d->now_rate = (double)(d->win_done - d->win_prev_done) * 1e9 /
			      (double)(d->win_start_ns - d->win_prev_ns);
	}
	if (d->now_rate >= 0)
		snprintf(cur, sizeof(cur), "now %s/s, ",
			 human(d->now_rate, unit, c, sizeof(c)));
	if (rate > 0 && total > done)
		snprintf(eta, sizeof(eta), ", ETA %.0fs",
			 (double)(total - done) / rate);
	if (!total) /* by time (--runtime): no amount to reach */
		fprintf(stderr, "\r\033[K%s: %s, %smean %s/s",
			clyde_test_label(t),
			human((double)done, unit, a, sizeof(a)), cur,
			human(rate, unit, r, sizeof(r)));
	else
		fprintf(stderr, "\r\033[K%s: %s of %s (%.0f%%), %smean %s/s%s",
			clyde_test_label(t),
			human((double)done, unit, a, sizeof(a)),
			human((double)total, unit, b, sizeof(b)),
			100.0 * (double)done / (double)total, cur,
			human(rate, unit, r, sizeof(r)), eta);
	fflush(stderr);
	d->shown = 1;
}

static void *thread_main(void *arg)
{
	struct clyde_progress_display *d = arg;
	struct timespec ts = { 0, REDRAW_NS };

	while (!atomic_load(&d->stop)) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&d->lock);
		if (atomic_load(&d->state.active) && !atomic_load(&d->stop))
			draw(d);
		pthread_mutex_unlock(&d->lock);
	}
	return NULL;
}

int clyde_progress_start(struct clyde_progress_display *d,
			 const struct clyde_ctx *ctx)
{
	memset(d, 0, sizeof(*d));
	d->ctx = ctx;
	d->win_test = -1; /* no test seen yet */
	pthread_mutex_init(&d->lock, NULL);
	if (pthread_create(&d->thread, NULL, thread_main, d) != 0)
		return -1;
	d->running = 1;
	return 0;
}

void clyde_progress_erase(struct clyde_progress_display *d)
{
	if (!d->running)
		return;
	pthread_mutex_lock(&d->lock);
	if (d->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		d->shown = 0;
	}
	pthread_mutex_unlock(&d->lock);
}

void clyde_progress_stop(struct clyde_progress_display *d)
{
	if (!d->running)
		return;
	atomic_store(&d->stop, 1);
	pthread_join(d->thread, NULL);
	clyde_progress_erase(d);
	d->running = 0;
	pthread_mutex_destroy(&d->lock);
}

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

static bool draw(void *arg)
{
	struct clyde_progress_display *d = arg;
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

	if (!atomic_load(&p->active))
		return false;
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
	return true;
}

static void *thread_main(void *arg)
{
	struct clyde_live *l = arg;
	struct timespec ts = { 0, REDRAW_NS };

	while (!atomic_load(&l->stop)) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&l->lock);
		if (!atomic_load(&l->stop) && l->draw(l->arg))
			l->shown = true;
		pthread_mutex_unlock(&l->lock);
	}
	return NULL;
}

int clyde_live_start(struct clyde_live *l, bool (*draw_fn)(void *arg),
		     void *arg)
{
	l->draw = draw_fn;
	l->arg = arg;
	l->shown = false;
	atomic_store(&l->stop, 0);
	pthread_mutex_init(&l->lock, NULL);
	if (pthread_create(&l->thread, NULL, thread_main, l) != 0) {
		pthread_mutex_destroy(&l->lock);
		l->running = false;
		return -1;
	}
	l->running = true;
	return 0;
}

void clyde_live_lock(struct clyde_live *l)
{
	if (l->running)
		pthread_mutex_lock(&l->lock);
}

void clyde_live_unlock(struct clyde_live *l)
{
	if (l->running)
		pthread_mutex_unlock(&l->lock);
}

void clyde_live_erase_locked(struct clyde_live *l)
{
	if (l->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		l->shown = false;
	}
}

void clyde_live_erase(struct clyde_live *l)
{
	if (!l->running)
		return;
	pthread_mutex_lock(&l->lock);
	clyde_live_erase_locked(l);
	pthread_mutex_unlock(&l->lock);
}

void clyde_live_stop(struct clyde_live *l)
{
	if (!l->running)
		return;
	atomic_store(&l->stop, 1);
	pthread_join(l->thread, NULL);
	clyde_live_erase(l);
	l->running = false;
	pthread_mutex_destroy(&l->lock);
}

int clyde_progress_start(struct clyde_progress_display *d,
			 const struct clyde_ctx *ctx)
{
	memset(d, 0, sizeof(*d));
	d->ctx = ctx;
	d->win_test = -1; /* no test seen yet */
	return clyde_live_start(&d->live, draw, d);
}

void clyde_progress_erase(struct clyde_progress_display *d)
{
	clyde_live_erase(&d->live);
}

void clyde_progress_stop(struct clyde_progress_display *d)
{
	clyde_live_stop(&d->live);
}

#include "core/series.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clyde_series_init(struct clyde_series *s, uint64_t interval_ns,
		       clyde_series_mem_fn mem, void *mem_arg)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = interval_ns;
	s->mem = mem;
	s->mem_arg = mem_arg;
}

void clyde_series_release(struct clyde_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->iv[i].lat);
	free(s->iv);
	s->iv = NULL;
	s->n = s->cap = s->cur = 0;
	s->end_ns = 0;
	s->failed = false;
}

void clyde_series_start(struct clyde_series *s, uint64_t origin_ns)
{
	clyde_series_release(s);
	s->origin_ns = origin_ns;
}

/* Make intervals [0, k] exist (new ones empty, memory not read). */
static int grow(struct clyde_series *s, size_t k)
{
	if (k < s->n)
		return 0;
	if (k >= s->cap) {
		size_t cap = s->cap ? s->cap : 16;
		struct clyde_series_iv *iv;

		while (cap <= k)
			cap *= 2;
		iv = realloc(s->iv, cap * sizeof(*iv));
		if (!iv)
			return -ENOMEM;
		s->iv = iv;
		s->cap = cap;
	}
	for (size_t i = s->n; i <= k; i++)
		s->iv[i] = (struct clyde_series_iv){ .dirty_bytes = -1,
						     .writeback_bytes = -1 };
	s->n = k + 1;
	return 0;
}

struct clyde_series_iv *clyde_series_enter(struct clyde_series *s, size_t k)
{
	struct clyde_series_iv *iv;
	bool fresh = k >= s->n;

	if (s->failed || grow(s, k) < 0) {
		s->failed = true;
		return NULL;
	}
	iv = &s->iv[k];
	if (!iv->lat) {
		iv->lat = malloc(sizeof(*iv->lat));
		if (!iv->lat) {
			s->failed = true;
			return NULL;
		}
		clyde_hist_init(iv->lat);
	}
	if (fresh && s->mem)
		s->mem(s->mem_arg, &iv->dirty_bytes, &iv->writeback_bytes);
	s->cur = k;
	s->cur_lo = s->origin_ns + (uint64_t)k * s->interval_ns;
	return iv;
}

int clyde_series_grow(struct clyde_series *s, size_t n)
{
	return n ? grow(s, n - 1) : 0;
}

void clyde_series_end(struct clyde_series *s, uint64_t end_ns)
{
	if (!s->interval_ns || end_ns < s->origin_ns)
		return;
	s->end_ns = end_ns;
	/* Intervals in which nothing completed still took place: a stall
	 * is a zero, not a gap. */
	if (end_ns > s->origin_ns) {
		size_t last =
			(size_t)((end_ns - 1 - s->origin_ns) / s->interval_ns);

		if (grow(s, last) < 0)
			s->failed = true;
	}
}

uint64_t clyde_series_dur(const struct clyde_series *s, size_t k)
{
	uint64_t a = s->origin_ns + k * s->interval_ns, b = a + s->interval_ns;

	if (s->end_ns && s->end_ns < b)
		b = s->end_ns > a ? s->end_ns : a;
	return b - a;
}

static int64_t max_i64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

int clyde_series_merge(struct clyde_series *dst, const struct clyde_series *src)
{
	if (!src->interval_ns)
		return 0;
	if (!dst->interval_ns || (!dst->n && !dst->end_ns)) {
		dst->interval_ns = src->interval_ns;
		dst->origin_ns = src->origin_ns;
	}
	if (src->interval_ns != dst->interval_ns)
		return -EINVAL;
	if (src->n && grow(dst, src->n - 1) < 0) {
		dst->failed = true;
		return -ENOMEM;
	}
	for (size_t i = 0; i < src->n; i++) {
		const struct clyde_series_iv *a = &src->iv[i];
		struct clyde_series_iv *d = &dst->iv[i];

		d->bytes += a->bytes;
		d->ops += a->ops;
		d->dirty_bytes = max_i64(d->dirty_bytes, a->dirty_bytes);
		d->writeback_bytes =
			max_i64(d->writeback_bytes, a->writeback_bytes);
		if (!a->lat)
			continue;
		if (!d->lat) {
			d->lat = malloc(sizeof(*d->lat));
			if (!d->lat) {
				dst->failed = true;
				return -ENOMEM;
			}
			clyde_hist_init(d->lat);
		}
		clyde_hist_merge(d->lat, a->lat);
	}
	/* The merged series ends with its last stream, by the index: the
	 * end relative to each one's own origin. */
	if (src->end_ns) {
		uint64_t len = src->end_ns - src->origin_ns;

		if (dst->origin_ns + len > dst->end_ns)
			dst->end_ns = dst->origin_ns + len;
	}
	dst->failed |= src->failed;
	return 0;
}

size_t clyde_series_steadiness(const struct clyde_series *s, bool bytes,
			       size_t from, size_t to,
			       struct clyde_series_steady *out)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, n = 0, t_s;

	memset(out, 0, sizeof(*out));
	if (!s->interval_ns)
		return 0;
	if (to > s->n)
		to = s->n;
	t_s = (double)s->interval_ns / 1e9;
	for (size_t i = from; i < to; i++) {
		uint64_t dur = clyde_series_dur(s, i);
		double x, y;

		if (dur * 2 < s->interval_ns)
			continue;
		x = ((double)i + 0.5) * t_s;
		y = (double)(bytes ? s->iv[i].bytes : s->iv[i].ops) * 1e9 /
		    (double)dur;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		syy += y * y;
		n++;
	}
	out->n = (size_t)n;
	if (n < 2)
		return out->n;
	out->mean = sy / n;
	{
		double var = syy / n - out->mean * out->mean,
		       den = n * sxx - sx * sx;

		if (var < 0)
			var = 0;
		out->cv = out->mean > 0 ? sqrt(var) / out->mean : 0;
		out->slope = den > 0 ? (n * sxy - sx * sy) / den : 0;
		out->slope_rel = out->mean > 0 ? out->slope / out->mean : 0;
	}
	return out->n;
}

void clyde_series_meminfo(void *path, int64_t *dirty, int64_t *writeback)
{
	char line[256];
	FILE *f = fopen(path ? (const char *)path : "/proc/meminfo", "re");
	int found = 0;

	*dirty = *writeback = -1;
	if (!f)
		return;
	while (found < 2 && fgets(line, sizeof(line), f)) {
		unsigned long long kib;

		if (sscanf(line, "Dirty: %llu kB", &kib) == 1) {
			*dirty = (int64_t)kib * 1024;
			found++;
		} else if (sscanf(line, "Writeback: %llu kB", &kib) == 1) {
			*writeback = (int64_t)kib * 1024;
			found++;
		}
	}
	fclose(f);
}

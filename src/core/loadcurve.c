/* The load options' arithmetic (loadcurve.h). */
#include "core/loadcurve.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/size.h"

__attribute__((format(printf, 3, 4))) static int bad(char *err, size_t len,
						     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (err && len)
		vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A positive finite decimal number filling s[0..n); 0 or -1. */
static int number(const char *s, size_t n, double *v)
{
	char buf[64], *end;

	if (!n || n >= sizeof(buf) || s[0] == '-' || s[0] == '+' || s[0] == ' ')
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789.", buf[i]))
			return -1;
	*v = strtod(buf, &end);
	if (*end || !isfinite(*v) || *v <= 0)
		return -1;
	return 0;
}

int clyde_rate_parse(const char *s, struct clyde_rate_spec *r, char *err,
		     size_t len)
{
	size_t n = strlen(s);
	uint64_t b;
	double v;

	if (n > 2 && !strcmp(s + n - 2, "/s")) {
		char size[32];

		if (n - 2 >= sizeof(size))
			goto bad;
		memcpy(size, s, n - 2);
		size[n - 2] = '\0';
		if (clyde_size_parse(size, "kmgt", 10, &b) < 0 || !b)
			goto bad;
		r->value = (double)b;
		r->bytes = true;
		return 0;
	}
	if (n > 4 && !strcmp(s + n - 4, "iops"))
		n -= 4;
	if (number(s, n, &v) < 0 || v > 1e9)
		goto bad;
	r->value = v;
	r->bytes = false;
	return 0;
bad:
	return bad(err, len,
		   "\"%s\" is not a rate; use requests per second (5000 or "
		   "5000iops, above 0 up to 1e9) or bytes per second (200m/s; "
		   "k, m, g, t)",
		   s);
}

double clyde_rate_ops(const struct clyde_rate_spec *r, uint32_t len)
{
	if (r->value <= 0)
		return 0;
	return r->bytes ? r->value / (double)(len ? len : 1) : r->value;
}

uint64_t clyde_rate_due_ns(uint64_t t0, uint64_t i, double ops_per_s)
{
	if (ops_per_s <= 0)
		return t0;
	/* From i each time: the error stays under a nanosecond. */
	return t0 + (uint64_t)llroundl((long double)i * 1e9L /
				       (long double)ops_per_s);
}

int clyde_curve_parse(const char *s, double *pct, unsigned *n, char *err,
		      size_t len)
{
	const char *p = s;

	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t k = comma ? (size_t)(comma - p) : strlen(p);
		double v;

		if (number(p, k, &v) < 0 || v > 100)
			return bad(err, len,
				   "\"%s\" is not a list of steps; use "
				   "percentages of the maximum above 0 up to "
				   "100, increasing, e.g. 10,25,50,75,90,100",
				   s);
		if (*n && v <= pct[*n - 1])
			return bad(err, len,
				   "\"%s\": the steps must increase (%g after "
				   "%g)",
				   s, v, pct[*n - 1]);
		if (*n == CLYDE_CURVE_MAX_STEPS)
			return bad(err, len, "\"%s\": at most %u steps", s,
				   CLYDE_CURVE_MAX_STEPS);
		pct[(*n)++] = v;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static const struct {
	const char *name;
	double ns;
} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

int clyde_lat_target_parse(const char *s, struct clyde_lat_target *t, char *err,
			   size_t len)
{
	const char *eq = strchr(s, '=');
	const char *v;
	double pct, val;
	size_t n;

	if ((s[0] != 'p' && s[0] != 'P') || !eq ||
	    number(s + 1, (size_t)(eq - s - 1), &pct) < 0 || pct >= 100)
		goto bad;
	v = eq + 1;
	n = strlen(v);
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		size_t ul = strlen(units[u].name);

		if (n <= ul || strcmp(v + n - ul, units[u].name))
			continue;
		/* "5ms" ends in "s" too: the longest unit first. */
		if (ul == 1 && strchr("nmu", v[n - 2]))
			continue;
		if (number(v, n - ul, &val) < 0 || val * units[u].ns < 1 ||
		    val * units[u].ns > 3600e9)
			goto bad;
		t->pctile = pct;
		t->ns = (uint64_t)llround(val * units[u].ns);
		return 0;
	}
bad:
	return bad(err, len,
		   "\"%s\" is not a latency target; use pPERCENTILE=TIME with "
		   "the percentile above 0 and below 100 and the time with ns, "
		   "us, ms or s (1 ns to 1 hour), e.g. p99=5ms or p99.9=800us",
		   s);
}

void clyde_lat_target_name(const struct clyde_lat_target *t, char *buf,
			   size_t len)
{
	double v = (double)t->ns;
	const char *u = "ns";

	if (t->ns >= 1000000000 && t->ns % 1000000000 == 0)
		v /= 1e9, u = "s";
	else if (t->ns >= 1000000)
		v /= 1e6, u = "ms";
	else if (t->ns >= 1000)
		v /= 1e3, u = "us";
	snprintf(buf, len, "p%g %g %s", t->pctile, v, u);
}

void clyde_bisect_init(struct clyde_bisect *b, double max, unsigned steps)
{
	memset(b, 0, sizeof(*b));
	b->hi = max;
	b->left = steps;
}

bool clyde_bisect_next(struct clyde_bisect *b, double *rate)
{
	if (!b->left || b->hi <= 0)
		return false;
	b->probe = (b->lo + b->hi) / 2;
	*rate = b->probe;
	return true;
}

void clyde_bisect_report(struct clyde_bisect *b, bool met)
{
	if (met)
		b->lo = b->probe;
	else
		b->hi = b->probe;
	b->left--;
	b->done++;
}

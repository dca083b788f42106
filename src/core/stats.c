#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Mean and sum of squared deviations of x[0..n), n >= 1. */
static void moments(const double *x, size_t n, double *mean, double *ssd)
{
	double lo = x[0], hi = x[0], sum = 0.0, m, corr = 0.0, ss = 0.0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < lo)
			lo = x[i];
		if (x[i] > hi)
			hi = x[i];
	}
	/* A constant sample must come out with exactly its value and no
	 * spread, or the t-test would see noise made by rounding. */
	if (lo == hi) {
		*mean = lo;
		*ssd = 0.0;
		return;
	}
	m = sum / (double)n;
	/* Second pass: squared deviations from the mean (no cancellation as
	 * in sum(x^2) - n*m^2), with the usual correction of m by the mean
	 * residual. */
	for (i = 0; i < n; i++) {
		double d = x[i] - m;

		corr += d;
		ss += d * d;
	}
	*mean = m + corr / (double)n;
	*ssd = ss - corr * corr / (double)n;
	if (*ssd < 0.0)
		*ssd = 0.0;
}

double clyde_stats_mean(const double *x, size_t n)
{
	double m, ss;

	if (!n)
		return 0.0;
	moments(x, n, &m, &ss);
	return m;
}

static double variance(const double *x, size_t n, double *mean)
{
	double ss;

	if (!n) {
		*mean = 0.0;
		return 0.0;
	}
	moments(x, n, mean, &ss);
	return n < 2 ? 0.0 : ss / (double)(n - 1);
}

double clyde_stats_stddev(const double *x, size_t n)
{
	double m;

	return sqrt(variance(x, n, &m));
}

double clyde_stats_stderr(const double *x, size_t n)
{
	double m;

	if (n < 2)
		return 0.0;
	return sqrt(variance(x, n, &m) / (double)n);
}

double clyde_stats_ci_halfwidth(const double *x, size_t n, double level)
{
	if (n < 2 || !(level > 0.0 && level < 1.0))
		return 0.0;
	return clyde_stats_t_quantile(1.0 - (1.0 - level) / 2.0,
				      (double)(n - 1)) *
	       clyde_stats_stderr(x, n);
}

void clyde_stats_summarize(const double *x, size_t n,
			   struct clyde_stats_summary *s)
{
	double var;

	s->n = n;
	s->min = s->max = 0.0;
	for (size_t i = 0; i < n; i++) {
		if (!i || x[i] < s->min)
			s->min = x[i];
		if (!i || x[i] > s->max)
			s->max = x[i];
	}
	var = variance(x, n, &s->mean);
	s->stddev = sqrt(var);
	s->stderr_mean = n < 2 ? 0.0 : sqrt(var / (double)n);
	s->ci95 = n < 2 ? 0.0 :
			  clyde_stats_t_quantile(0.975, (double)(n - 1)) *
				  s->stderr_mean;
}

/*
 * The continued fraction of the incomplete beta function,
 *   I_x(a,b) = x^a (1-x)^b / (a B(a,b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))
 *   d(2m)   = m(b-m) x / ((a+2m-1)(a+2m)),
 * evaluated front to back with the modified Lentz method (each convergent
 * is the previous one times C_j D_j, with tiny values replacing zeros so
 * that no division by zero happens).  Returns 1 / (1 + d1 / (1 + ...)).
 * It converges fast for x < (a+1)/(a+b+2); the caller ensures that.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double f = 1.0, c = 1.0, d = 0.0;

	for (int j = 1; j <= 200000; j++) {
		int m = j / 2;
		double dj, delta;

		if (j & 1)
			dj = -(a + m) * (a + b + m) * x /
			     ((a + 2 * m) * (a + 2 * m + 1));
		else
			dj = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1.0 + dj * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + dj / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < eps)
			break;
	}
	return 1.0 / f;
}

/* lgamma without touching the global signgam (arguments here are > 0). */
static double lgam(double v)
{
	int sign;

	return lgamma_r(v, &sign);
}

/* Stirling's series remainder: lgamma(v) - ((v-1/2) ln v - v + ln(2 pi)/2),
 * good to double precision for v >= 10. */
static double stirling_rest(double v)
{
	double v2 = v * v;

	return (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / (1260.0 * v2)) / v2) / v;
}

/*
 * ln B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b).  When one argument is
 * large, lgamma(a) and lgamma(a + b) are huge and nearly equal, and their
 * difference loses every digit (df = 1e15 in the t distribution); there
 * Stirling's series gives the difference directly:
 * lgamma(a+b) - lgamma(a) = (a - 1/2) log1p(b/a) + b ln(a+b) - b + rests.
 */
static double log_beta(double a, double b)
{
	double big = a > b ? a : b, small = a > b ? b : a;

	if (big < 1e4)
		return lgam(a) + lgam(b) - lgam(a + b);
	return lgam(small) -
	       ((big - 0.5) * log1p(small / big) + small * log(big + small) -
		small + stirling_rest(big + small) - stirling_rest(big));
}

/* I_x(a, b) with y = 1 - x given separately, so that callers who know y
 * more precisely than 1 - x (the t distribution's tails) keep it. */
static double betainc_xy(double a, double b, double x, double y)
{
	double front, lx, ly;

	if (x <= 0.0)
		return 0.0;
	if (y <= 0.0)
		return 1.0;
	/* ln x and ln y from whichever of x, y is small (and so precise):
	 * with a = 5e14, an error of 1e-16 in ln x would be 0.05 in front. */
	lx = x > 0.5 ? log1p(-y) : log(x);
	ly = y > 0.5 ? log1p(-x) : log(y);
	front = exp(a * lx + b * ly - log_beta(a, b));
	/* By symmetry I_x(a,b) = 1 - I_y(b,a): use the side on which the
	 * fraction converges quickly. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, y) / b;
}

double clyde_stats_betainc(double a, double b, double x)
{
	if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0))
		return NAN;
	return betainc_xy(a, b, x, 1.0 - x);
}

/*
 * The continued fraction loses digits as df grows (its terms approach -1
 * and cancel: the error is about 1e-16 * df).  Beyond DF_EXPANSION, and
 * where t^4 / df is small enough for the series to converge fast, the
 * first two terms of the expansion of t's distribution around the normal
 * in powers of 1/df (Fisher 1925) are used instead:
 *   P(T > t) = Q(t) + phi(t) (g1(t) / df + g2(t) / df^2),
 *   g1 = (t^3 + t) / 4,  g2 = (3 t^7 - 7 t^5 - 5 t^3 - 3 t) / 96.
 * The neglected term is below 1e-14 relative there.
 */
#define DF_EXPANSION 1e5

/* P(T > t) for t >= 0. */
static double t_upper(double t, double df)
{
	double u, u2;

	if (isinf(df))
		return 0.5 * erfc(t / sqrt(2.0));
	if (df > DF_EXPANSION && t * t * t * t < 1e-3 * df) {
		double phi = exp(-0.5 * t * t) / sqrt(2.0 * M_PI);
		double t2 = t * t;
		double g1 = (t2 + 1.0) * t / 4.0;
		double g2 =
			(((3.0 * t2 - 7.0) * t2 - 5.0) * t2 - 3.0) * t / 96.0;

		return 0.5 * erfc(t / sqrt(2.0)) + phi * (g1 + g2 / df) / df;
	}
	u = t / sqrt(df);
	if (u > 1e150)
		return 0.0;
	u2 = u * u;
	/* x = df / (df + t^2), y = 1 - x = t^2 / (df + t^2). */
	return 0.5 *
	       betainc_xy(df / 2.0, 0.5, 1.0 / (1.0 + u2), u2 / (1.0 + u2));
}

double clyde_stats_t_cdf(double t, double df)
{
	if (isnan(t) || isnan(df) || !(df > 0.0))
		return NAN;
	if (t >= 0.0)
		return 1.0 - t_upper(t, df);
	return t_upper(-t, df);
}

/* The t > 0 with P(T > t) = alpha, 0 < alpha < 1/2, by bisection. */
static double solve_upper(double alpha, double df)
{
	double lo = 0.0, hi = 1.0;

	while (t_upper(hi, df) > alpha) {
		lo = hi;
		hi *= 2.0;
		if (hi > 1e300)
			return INFINITY;
	}
	/* P(T > t) falls as t grows: halve the bracket until it cannot
	 * shrink or is far below the 1e-12 promised. */
	for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
		double mid = lo + (hi - lo) / 2.0;

		if (mid <= lo || mid >= hi)
			break;
		if (t_upper(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2.0;
}

double clyde_stats_t_quantile(double p, double df)
{
	double alpha, t;

	if (isnan(p) || isnan(df) || !(df > 0.0))
		return NAN;
	if (p <= 0.0)
		return -INFINITY;
	if (p >= 1.0)
		return INFINITY;
	if (p == 0.5)
		return 0.0;
	/* Solve for the upper tail; the lower half by symmetry.  1 - p is
	 * exact for p >= 0.5, so tiny tails keep their digits. */
	alpha = p < 0.5 ? p : 1.0 - p;
	t = solve_upper(alpha, df);
	return p < 0.5 ? -t : t;
}

int clyde_stats_welch(const double *a, size_t na, const double *b, size_t nb,
		      struct clyde_stats_welch *w)
{
	double va, vb, sa, sb, se2, ra, rb;

	va = variance(a, na, &w->mean_a);
	vb = variance(b, nb, &w->mean_b);
	w->diff = w->mean_b - w->mean_a;
	if (na < 2 || nb < 2) {
		w->t = 0.0;
		w->df = 0.0;
		w->p = 1.0;
		return -EINVAL;
	}
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	if (se2 == 0.0) {
		/* Both constant: the means are the exact truth. */
		w->df = (double)(na + nb - 2);
		if (w->diff == 0.0) {
			w->t = 0.0;
			w->p = 1.0;
		} else {
			w->t = w->diff > 0.0 ? -INFINITY : INFINITY;
			w->p = 0.0;
		}
		return 0;
	}
	w->t = (w->mean_a - w->mean_b) / sqrt(se2);
	/* Welch-Satterthwaite, df = se2^2 / (sa^2/(na-1) + sb^2/(nb-1)),
	 * written with the shares ra + rb = 1 so that nothing under- or
	 * overflows when the variances are extreme. */
	ra = sa / se2;
	rb = sb / se2;
	w->df = 1.0 / (ra * ra / (double)(na - 1) + rb * rb / (double)(nb - 1));
	w->p = 2.0 * t_upper(fabs(w->t), w->df);
	if (w->p > 1.0)
		w->p = 1.0;
	return 0;
}

bool clyde_stats_significant(const double *a, size_t na, const double *b,
			     size_t nb, double alpha)
{
	struct clyde_stats_welch w;

	if (clyde_stats_welch(a, na, b, nb, &w) < 0)
		return false;
	return w.p < alpha;
}

bool clyde_stats_settled(size_t n, double mean, double hw, double pct)
{
	return n >= CLYDE_STATS_SETTLE_MIN_N && isfinite(hw) &&
	       hw <= pct / 100.0 * fabs(mean);
}

int clyde_stats_diff_ci(const double *a, size_t na, const double *b, size_t nb,
			double level, double *lo, double *hi)
{
	struct clyde_stats_welch w;
	double se, t, va, vb, m;

	if (clyde_stats_welch(a, na, b, nb, &w) < 0 || !(level > 0) ||
	    !(level < 1)) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return -EINVAL;
	}
	va = variance(a, na, &m);
	vb = variance(b, nb, &m);
	se = sqrt(va / (double)na + vb / (double)nb);
	t = se > 0.0 ? clyde_stats_t_quantile(1.0 - (1.0 - level) / 2.0, w.df) :
		       0.0;
	*lo = w.diff - t * se;
	*hi = w.diff + t * se;
	return 0;
}

int clyde_stats_log_ci(const double *x, size_t n, double level, double *lo,
		       double *hi)
{
	double s = 0.0, ss = 0.0, m, sd, t;
	size_t i;

	*lo = 0.0;
	*hi = 0.0;
	if (n < 2 || !(level > 0) || !(level < 1))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!(x[i] > 0.0))
			return -EINVAL;
	for (i = 1; i < n && x[i] == x[0]; i++)
		;
	if (i == n) {
		/* Constant: no spread, and exp(log(x)) may not give x. */
		*lo = *hi = x[0];
		return 0;
	}
	for (i = 0; i < n; i++)
		s += log(x[i]);
	m = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (log(x[i]) - m) * (log(x[i]) - m);
	sd = sqrt(ss / (double)(n - 1));
	t = clyde_stats_t_quantile(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
	*lo = exp(m - t * sd / sqrt((double)n));
	*hi = exp(m + t * sd / sqrt((double)n));
	return 0;
}

size_t clyde_stats_repeats_for(double cv, double effect, double alpha,
			       double power, size_t cap)
{
	size_t n;

	if (!(cv >= 0) || !(effect > 0))
		return cap + 1;
	for (n = 2; n <= cap; n++) {
		double df = 2.0 * (double)n - 2.0;
		double need = clyde_stats_t_quantile(1.0 - alpha / 2.0, df) +
			      clyde_stats_t_quantile(power, df);

		if (need * cv * sqrt(2.0 / (double)n) <= effect)
			return n;
	}
	return cap + 1;
}

/* ---- Pocock's boundary ------------------------------------------------- */

static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* 1 / sqrt(2 pi) */
#define INV_SQRT_2PI 0.39894228040143267794

static double norm_pdf(double x)
{
	return INV_SQRT_2PI * exp(-0.5 * x * x);
}

/* The grid's steps per standard deviation of the smallest step of the
 * walk: enough for about 1e-4 on c (the unit test checks Pocock's
 * published constants). */
#define POCOCK_STEPS_PER_SD 16.0
/* Beyond this many standard deviations the kernel is 0 (below 1e-17). */
#define POCOCK_KERNEL_SD 9.0

/*
 * The probability that the walk S (S at look l ~ N(0, info[l]), with
 * independent increments) reaches |S_l| >= c sqrt(info[l]) at some look.
 * The density of S inside the last look's boundary is kept in f on the
 * grid h * i (|i| <= m, index i + m), so that the step from one look to
 * the next is a convolution with one kernel (ker, up to kcap entries).
 */
static double pocock_cross(const double *info, size_t k, double c, double h,
			   double *f, double *g, double *ker, size_t cap,
			   size_t kcap)
{
	double cross = 2.0 * (1.0 - norm_cdf(c));
	double b = c * sqrt(info[0]);
	size_t m = (size_t)(b / h), i, j, l;
	/* The outermost grid points also stand for the bit of the region
	 * beyond them, up to the boundary b. */
	double edge = 0.5 + (b - (double)m * h) / h;

	if (2 * m + 1 > cap)
		return NAN;
	for (i = 0; i <= 2 * m; i++)
		f[i] = norm_pdf(((double)i - (double)m) * h / sqrt(info[0])) /
		       sqrt(info[0]);
	for (l = 1; l < k; l++) {
		double sd = sqrt(info[l] - info[l - 1]);
		double b2 = c * sqrt(info[l]);
		size_t m2 = (size_t)(b2 / h);
		size_t kw = (size_t)(POCOCK_KERNEL_SD * sd / h);

		if (2 * m2 + 1 > cap || kw + 1 > kcap)
			return NAN;
		for (i = 0; i <= kw; i++)
			ker[i] = norm_pdf((double)i * h / sd) * h / sd;
		/* What leaves through the new boundary (trapezoidal weights
		 * on f), then the density inside it. */
		for (i = 0; i <= 2 * m; i++) {
			double s = ((double)i - (double)m) * h;
			double w = (i == 0 || i == 2 * m) ? edge : 1.0;
			double stay = norm_cdf((b2 - s) / sd) -
				      norm_cdf((-b2 - s) / sd);

			cross += w * h * f[i] * (1.0 - stay);
		}
		for (j = 0; j <= 2 * m2; j++) {
			double sum = 0;
			/* t = (j - m2) h; s = (i - m) h; |t - s| / h = the
			 * kernel's index. */
			for (i = 0; i <= 2 * m; i++) {
				long d = ((long)j - (long)m2) -
					 ((long)i - (long)m);
				size_t ad = (size_t)(d < 0 ? -d : d);
				double w = (i == 0 || i == 2 * m) ? edge : 1.0;

				if (ad <= kw)
					sum += w * f[i] * ker[ad];
			}
			g[j] = sum;
		}
		memcpy(f, g, (2 * m2 + 1) * sizeof(*f));
		m = m2;
		edge = 0.5 + (b2 - (double)m * h) / h;
	}
	return cross;
}

double clyde_stats_pocock(const double *info, size_t k, double alpha)
{
	double lo = 0, hi = 8, h, mind = INFINITY, c = NAN;
	size_t cap, kcap, i;
	double *f, *g, *ker;

	if (k == 0 || !(alpha > 0 && alpha < 1))
		return NAN;
	for (i = 0; i < k; i++) {
		double d = i ? info[i] - info[i - 1] : info[0];

		if (!(d > 0) || !isfinite(d))
			return NAN;
		if (d < mind)
			mind = d;
	}
	/* One look: the normal quantile (t with infinite df). */
	if (k == 1)
		return clyde_stats_t_quantile(1.0 - alpha / 2.0, INFINITY);
	h = sqrt(mind) / POCOCK_STEPS_PER_SD;
	cap = 2 * (size_t)(hi * sqrt(info[k - 1]) / h) + 3;
	kcap = (size_t)(POCOCK_KERNEL_SD * sqrt(info[k - 1]) / h) + 2;
	f = malloc(cap * sizeof(*f));
	g = malloc(cap * sizeof(*g));
	ker = malloc(kcap * sizeof(*ker));
	if (f && g && ker) {
		/* The crossing probability falls as c grows: bisect. */
		for (i = 0; i < 60 && hi - lo > 1e-6; i++) {
			double mid = (lo + hi) / 2;
			double p = pocock_cross(info, k, mid, h, f, g, ker, cap,
						kcap);

			if (isnan(p))
				break;
			if (p > alpha)
				lo = mid;
			else
				hi = mid;
		}
		if (hi - lo <= 1e-6)
			c = (lo + hi) / 2;
	}
	free(f);
	free(g);
	free(ker);
	return c;
}

double clyde_stats_pocock_level(const double *info, size_t k, double alpha)
{
	double c = clyde_stats_pocock(info, k, alpha);

	return isnan(c) ? NAN : 2.0 * (1.0 - norm_cdf(c));
}

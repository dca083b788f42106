#include "results/dev_result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/advise.h"
#include "env/stack.h"

static const char *const test_names[CLYDE_DEV_TEST_COUNT] = {
	"seqwrite", "seqread", "randread", "randwrite", "zcav",
};

const char *clyde_dev_test_name(enum clyde_dev_test t)
{
	return (unsigned)t < CLYDE_DEV_TEST_COUNT ? test_names[t] : NULL;
}

int clyde_dev_tests_parse(const char *list, unsigned *mask, char *bad,
			  size_t len)
{
	unsigned m = 0;
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		int t;

		if (n == 3 && !strncmp(p, "all", 3)) {
			m |= CLYDE_DEV_BIT(CLYDE_DEV_ZCAV) - 1;
		} else {
			for (t = 0; t < CLYDE_DEV_TEST_COUNT; t++)
				if (strlen(test_names[t]) == n &&
				    !strncmp(p, test_names[t], n))
					break;
			if (t == CLYDE_DEV_TEST_COUNT) {
				snprintf(bad, len, "%.*s", (int)n, p);
				return -EINVAL;
			}
			m |= CLYDE_DEV_BIT(t);
		}
		p += n;
		if (*p == ',' && *++p == '\0') {
			snprintf(bad, len, "(an empty name)");
			return -EINVAL;
		}
	}
	if (!m) {
		snprintf(bad, len, "(an empty list)");
		return -EINVAL;
	}
	*mask = m;
	return 0;
}

void clyde_dev_run_init(struct clyde_dev_run *run)
{
	memset(run, 0, sizeof(*run));
}

void clyde_dev_run_release(struct clyde_dev_run *run)
{
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		free(run->tests[t].latency);
		clyde_series_release(&run->tests[t].series);
		free(run->tests[t].curve);
		free(run->tests[t].search.probes);
	}
	for (size_t i = 0; i < run->zcav.npoints; i++)
		free(run->zcav.points[i].loop_ns);
	free(run->zcav.points);
	free(run->zcav.pass_ns);
	free(run->zcav.pass_bytes);
	clyde_stack_free(&run->env.stack);
	memset(run, 0, sizeof(*run));
}

double clyde_dev_rate(uint64_t n, uint64_t elapsed_ns)
{
	return elapsed_ns ? (double)n * 1e9 / (double)elapsed_ns : 0;
}

/* The queue limit of the device the counters are read from; 0 unknown. */
static uint32_t target_nr_requests(const struct clyde_dev_run *run)
{
	const struct clyde_stack *st = &run->env.stack;

	for (size_t i = 0; i < st->nnodes; i++)
		if (!strcmp(st->nodes[i].name, run->env.target.block_dev))
			return st->nodes[i].nr_requests;
	return 0;
}

void clyde_dev_depth(const struct clyde_dev_run *run, enum clyde_dev_test t,
		     struct clyde_dev_depth *d)
{
	const struct clyde_dev_test_result *r = &run->tests[t];
	double want;

	memset(d, 0, sizeof(*d));
	d->asked = t == CLYDE_DEV_ZCAV ? 1 : run->cfg.iodepth;
	if (!r->ran || !r->dev.have_device || !r->window_ns)
		return;
	d->measured = true;
	d->device =
		(double)r->dev.time_in_queue_ms * 1e6 / (double)r->window_ns;
	d->busy_share =
		(double)(r->cpu_user_ns + r->cpu_sys_ns) / (double)r->window_ns;
	d->nr_requests = target_nr_requests(run);
	want = CLYDE_DEV_DEPTH_TOLERANCE * (double)d->asked;
	if (d->device >= want)
		return;
	/* A limit the device reached: a bio-based device (dm, md) shows an
	 * nr_requests it does not hold to, so only a depth at or under the
	 * limit names it. */
	if (r->dev.read_bytes + r->dev.write_bytes < r->bytes / 2)
		snprintf(d->why, sizeof(d->why),
			 "the device moved %.0f%% of the test's bytes: most "
			 "requests did not reach it (holes of a sparse file, "
			 "or a cache)",
			 r->bytes ? 100.0 *
					    (double)(r->dev.read_bytes +
						     r->dev.write_bytes) /
					    (double)r->bytes :
				    0.0);
	else if (d->nr_requests && d->nr_requests < d->asked &&
		 d->device <=
			 (double)d->nr_requests / CLYDE_DEV_DEPTH_TOLERANCE)
		snprintf(d->why, sizeof(d->why),
			 "the device queues at most nr_requests %u",
			 d->nr_requests);
	else if (d->busy_share >= CLYDE_DEV_BUSY_SHARE)
		snprintf(d->why, sizeof(d->why),
			 "clyde was busy %.0f%% of the test (CPU time / wall "
			 "time): the process, not the device, set the pace",
			 d->busy_share * 100.0);
	else
		snprintf(d->why, sizeof(d->why),
			 "clyde was busy %.0f%% of the test (CPU time / wall "
			 "time); the requests spent the rest of their time "
			 "above the device (in clyde, in the engine, or in "
			 "layers between them and the device)",
			 d->busy_share * 100.0);
}

unsigned clyde_dev_advise(const struct clyde_dev_config *c)
{
	unsigned m = c->zeros ? CLYDE_ADVISE_ZEROS : 0;

	if (c->tests & (CLYDE_DEV_BIT(CLYDE_DEV_RANDREAD) |
			CLYDE_DEV_BIT(CLYDE_DEV_RANDWRITE)))
		m |= clyde_advise_rand(c->rand_bs);
	return m;
}

double clyde_dev_point_rate(const struct clyde_dev_load_point *p)
{
	return clyde_dev_rate(p->ops, p->elapsed_ns);
}

bool clyde_dev_point_reached(const struct clyde_dev_load_point *p)
{
	return clyde_dev_point_rate(p) >= CLYDE_RATE_REACHED * p->asked;
}

#include "results/dev_result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * The table of result kinds (kinds.h): one line per kind.
 */
#include "results/kinds.h"

#include <string.h>

static const struct clyde_result_rows tree_rows = {
	.array = "phases",
	.rate = "entries_per_s",
	.unit = "entries/s",
	.group = CLYDE_GROUP_TREE,
	.members = true,
};

static const struct clyde_result_rows dev_rows = {
	.array = "tests",
	.rate = "bytes_per_s",
	.unit = "B/s",
	.group = CLYDE_GROUP_DEV,
	.iops = true,
	.zcav = true,
	.load = true,
};

/* A timed command (exp/wl_time.c's document, docs/sweep.md). */
static const struct clyde_result_metric time_metrics[CLYDE_TIME_METRICS] = {
	[CLYDE_TIME_ELAPSED] = { "", "time", "s", CLYDE_METRIC_LOWER },
	[CLYDE_TIME_CPU] = { ".cpu", "CPU", "s", CLYDE_METRIC_LOWER },
	/* Amounts, not rates to maximise: a mode that writes twice the
	 * bytes is not "best" for it. */
	[CLYDE_TIME_READ_BYTES] = { ".read_bytes", "device read", "B",
				    CLYDE_METRIC_NONE },
	[CLYDE_TIME_WRITE_BYTES] = { ".write_bytes", "device write", "B",
				     CLYDE_METRIC_NONE },
};

/* The history's file size, files and IO chunk: bonnie's and tree's own
 * settings; for a dev run or a fio job (loaded_fio.c reads fio's size and
 * bs under the same keys) the range used and the request size. */
static const struct clyde_result_kind kinds[] = {
	{
		.name = "bonnie",
		.workload = "run",
		.decoded = true,
		.loaded = CLYDE_LOADED_BONNIE,
		.clyde_json = true,
		.columns = CLYDE_COLUMNS_TESTS,
		.settings = { "file size", "files", "IO chunk" },
		.dir = CLYDE_METRIC_HIGHER,
	},
	{
		.name = "tree",
		.workload = "tree",
		.decoded = true,
		.loaded = CLYDE_LOADED_TREE,
		.clyde_json = true,
		.rows = &tree_rows,
		.columns = CLYDE_COLUMNS_NONE,
		.settings = { "file size", "files", "IO chunk" },
		.dir = CLYDE_METRIC_HIGHER,
	},
	{
		.name = "dev",
		.workload = "dev",
		.decoded = true,
		.loaded = CLYDE_LOADED_DEV,
		.clyde_json = true,
		.rows = &dev_rows,
		.columns = CLYDE_COLUMNS_SEQ_RAND,
		.settings = { "size", NULL, "bs" },
		.rand_chunk = "rand_bs",
		.dir = CLYDE_METRIC_HIGHER,
	},
	{
		.name = "fio",
		.workload = "fio",
		.decoded = true,
		.loaded = CLYDE_LOADED_FIO,
		.columns = CLYDE_COLUMNS_SEQ_RAND,
		.settings = { "size", NULL, "bs" },
		.rand_chunk = "rand_bs",
		/* fio records only the options it was given. */
		.unrecorded = { "no", "psync", "1" },
		.dir = CLYDE_METRIC_HIGHER,
	},
	{
		.name = "time",
		.workload = "time",
		.doc_in_row = true,
		.dir = CLYDE_METRIC_LOWER,
		.metrics = time_metrics,
		.nmetrics = CLYDE_TIME_METRICS,
	},
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct clyde_result_kind *clyde_result_kind_find(const char *name)
{
	for (size_t i = 0; name && i < NKINDS; i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

const struct clyde_result_kind *
clyde_result_kind_loaded(enum clyde_loaded_kind k)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i].decoded && kinds[i].loaded == k)
			return &kinds[i];
	return NULL;
}

const struct clyde_result_kind *clyde_result_kind_stored(const char *workload)
{
	for (size_t i = 0; workload && i < NKINDS; i++)
		if (kinds[i].workload && !strcmp(kinds[i].workload, workload))
			return &kinds[i];
	return NULL;
}

const struct clyde_result_kind *clyde_result_kind_at(size_t i)
{
	return i < NKINDS ? &kinds[i] : NULL;
}

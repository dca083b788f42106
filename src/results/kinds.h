/*
 * The kinds of result clyde reads and stores, one line each in one table
 * (kinds.c): how a document of the kind is decoded, which of its rows the
 * history list shows in its columns, where an experiment keeps it and
 * which way its metrics are better.
 *
 * The loader (loaded.c, loaded_fio.c), the history (store/history_entry.c),
 * the experiment store (store/exp_store.c), the experiment analysis
 * (analysis/exp_load.c) and the history's series (report/history_changes.c)
 * look a kind up here instead of naming it.  A new kind is one line in
 * kinds.c (and, when its documents are not a clyde JSON result or fio's
 * output, its decoder: docs/architecture.md).
 */
#ifndef CLYDE_RESULTS_KINDS_H
#define CLYDE_RESULTS_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/loaded.h"

/* Which way a metric is better.  The values are those of
 * analysis/exp_load.c's `higher` argument. */
enum clyde_metric_dir {
	CLYDE_METRIC_NONE = -1,	 /* an amount: no best (bytes moved) */
	CLYDE_METRIC_LOWER = 0,	 /* seconds, latencies */
	CLYDE_METRIC_HIGHER = 1, /* rates */
};

/* How a clyde JSON result other than bonnie lists its rows: one per
 * phase or test of each repeat, with a rate. */
struct clyde_result_rows {
	const char *array; /* "phases", "tests" */
	const char *rate;  /* "entries_per_s", "bytes_per_s" */
	const char *unit;  /* "entries/s", "B/s" */
	enum clyde_loaded_group group;
	bool iops; /* also a row "NAME IOPS" (IO/s) from each one's "iops" */
	bool zcav; /* the first repeat's "zcav" curve */
	/* each test's --curve and its --latency-target row ("rate at
	 * pP T"): clyde dev's load options */
	bool load;
	bool members; /* each row's per-member counters (members[]) */
};

/* Which of a run's rows the history list shows in its columns. */
enum clyde_result_columns {
	CLYDE_COLUMNS_NONE = 0, /* none (tree phases) */
	CLYDE_COLUMNS_TESTS,	/* bonnie's 12 tests, by enum clyde_test */
	/* write and read: the sequential row ("seqwrite", or a fio group's
	 * "seqwrite (2 jobs)"), else the random one, as put_block's and
	 * get_block's columns (bytes/s). */
	CLYDE_COLUMNS_SEQ_RAND,
};

/* One figure of a document the loader does not read (a timed command's),
 * keyed "KIND.WORKLOAD" + suffix, labelled "WORKLOAD " + label. */
struct clyde_result_metric {
	const char *suffix; /* "", ".cpu", ".read_bytes" */
	const char *label;  /* "time", "CPU", "device read" */
	const char *unit;   /* "s", "B" */
	enum clyde_metric_dir dir;
};

/* The fixed metrics of a timed command's document, by index into its
 * kind's `metrics`. */
enum {
	CLYDE_TIME_ELAPSED = 0,
	CLYDE_TIME_CPU,
	CLYDE_TIME_READ_BYTES,
	CLYDE_TIME_WRITE_BYTES,
	CLYDE_TIME_METRICS
};

struct clyde_result_kind {
	/* The document's "kind" ("bonnie", "tree", "dev") or what the
	 * history calls it ("fio", "time"). */
	const char *name;
	/* The `clyde sweep` workload kind whose runs are stored as this
	 * kind (experiment_runs.kind: "run", "tree", "fio", "time",
	 * "dev"), or NULL. */
	const char *workload;
	/* Read by the loader (results/loaded.h) as this loaded kind; a kind
	 * it does not read (time) has decoded false. */
	bool decoded;
	enum clyde_loaded_kind loaded;
	/* A clyde JSON result's "kind" value (bonnie, tree, dev). */
	bool clyde_json;
	/* Its rows, for a clyde JSON kind other than bonnie's fixed 12
	 * tests; NULL otherwise. */
	const struct clyde_result_rows *rows;
	/* The history list: its figure columns, and the keys of the run's
	 * settings shown as file size, files and IO chunk (NULL: none);
	 * with CLYDE_COLUMNS_SEQ_RAND they are bytes shown as sizes and a
	 * run whose columns show random tests gives `rand_chunk`'s value as
	 * its chunk. */
	enum clyde_result_columns columns;
	const char *settings[3];
	const char *rand_chunk;
	/* The history's direct I/O, engine and depth of a run that does not
	 * record them: what it ran without them (fio's defaults), or NULL
	 * each: shown as not recorded. */
	const char *unrecorded[3];
	/* An experiment keeps the document in its own row (not a run of
	 * the history's `runs`). */
	bool doc_in_row;
	/* Which way its rows' rates are better. */
	enum clyde_metric_dir dir;
	/* A kind the loader does not read: its fixed metrics. */
	const struct clyde_result_metric *metrics;
	size_t nmetrics;
};

/* The kind called `name` ("bonnie", "tree", "dev", "fio", "time"), or
 * NULL. */
const struct clyde_result_kind *clyde_result_kind_find(const char *name);

/* The kind of a loaded run (never NULL for a valid enum). */
const struct clyde_result_kind *
clyde_result_kind_loaded(enum clyde_loaded_kind k);

/* The kind an experiment stores workload kind `workload`'s runs as
 * ("run": bonnie, "time": time), or NULL for a name no kind has. */
const struct clyde_result_kind *clyde_result_kind_stored(const char *workload);

/* The i-th kind of the table (in table order), NULL past its end. */
const struct clyde_result_kind *clyde_result_kind_at(size_t i);

#endif

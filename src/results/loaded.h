/*
 * Results loaded for comparison: the one in-memory form that `clyde
 * compare`, `clyde report` and `clyde history` work on, whatever the
 * source was (a clyde JSON result, a bonnie++ CSV line of any format, one
 * job of fio's JSON output, or a run clyde just made).
 *
 * One loaded run is one column of a compare table:
 *  - a clyde JSON file is ONE run; when it holds several runs (clyde -x N,
 *    --until-stable) they are that run's repeats: each test's value is the
 *    mean of the repeats and `samples` holds each repeat's rate, which is
 *    what the significance test uses;
 *  - a CSV line is one run without repeats, unless the caller asks to
 *    merge repeats (clyde_loaded_merge_repeats());
 *  - each job of a fio JSON file (--output-format=json or json+, fio
 *    3.x) is one run, kind CLYDE_LOADED_FIO: per direction that ran a
 *    rate row named like clyde dev's tests ("randread", "seqwrite"; a
 *    mixed job "randrw read") in bytes/s and one "... IOPS" in IO/s, so
 *    a fio job and a clyde dev run share rows (loaded_fio.c).
 *
 * Rates are normalised: bytes/s for the IO tests (a CSV's KiB/s times
 * 1024), seeks/s, files/s (tree phases: entries/s).  CPU is in percent of
 * one CPU, latencies in ns.
 *
 * Everything here owns its memory; strings are NUL-terminated and
 * unescaped (they come from users: a renderer must escape them).  Nothing
 * prints: a malformed line or file is recorded in the set's `errors` as
 * "path:line: reason" and reading goes on.
 */
#ifndef CLYDE_RESULTS_LOADED_H
#define CLYDE_RESULTS_LOADED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/ctx.h"
#include "results/csv_read.h"
#include "core/json_read.h"
#include "results/result.h"

enum clyde_loaded_state {
	CLYDE_LOADED_NOT_RUN = 0, /* not asked for / not in the source */
	CLYDE_LOADED_SKIPPED,	  /* asked for, not possible (note says why) */
	CLYDE_LOADED_TOO_FAST,	  /* ran in under 0.5 s: "+++++" */
	CLYDE_LOADED_VALUE,
};

/* "not run", "skipped", "too fast", "value". */
const char *clyde_loaded_state_name(enum clyde_loaded_state s);

/* Latency percentiles (ns) of one test, when the source has them (clyde
 * JSON; of the first repeat that has them).  CSV gives only the max. */
struct clyde_loaded_latency {
	uint64_t count;
	uint64_t min_ns, mean_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
};

/* Test groups: one chart each in the report. */
enum clyde_loaded_group {
	CLYDE_GROUP_SEQ_OUTPUT = 0, /* putc, put_block, rewrite */
	CLYDE_GROUP_SEQ_INPUT,	    /* getc, get_block */
	CLYDE_GROUP_SEEKS,	    /* seeks */
	CLYDE_GROUP_SEQ_FILES,	    /* seq_create, seq_stat, seq_del */
	CLYDE_GROUP_RAN_FILES,	    /* ran_create, ran_stat, ran_del */
	CLYDE_GROUP_TREE,	    /* tree phases */
	CLYDE_GROUP_DEV,	    /* clyde dev tests (seqwrite, ...) */
	CLYDE_GROUP_COUNT
};

/* "Sequential output", "Sequential input", "Random seeks", "Sequential
 * create", "Random create", "Tree walk". */
const char *clyde_loaded_group_name(enum clyde_loaded_group g);

/* A test's time series (the JSON's "series", of the first repeat that has
 * one): per interval its start (s from the test's start), rate (the
 * test's unit: bytes/s or operations/s), p99 latency (ns, negative when
 * none completed) and the host's dirty and writeback memory (bytes,
 * negative when not read).  Owned; n 0 when the source has none. */
struct clyde_loaded_series {
	size_t n;
	double interval_s;
	double *t_s, *rate, *p99_ns, *dirty, *writeback;
	bool has_steady; /* the JSON's "steadiness" */
	double cv, slope_rel;
};

struct clyde_loaded_test {
	char name[32]; /* "put_block", "seq_create", tree: "stat_walk" */
	char unit[16]; /* of rate: "B/s", "seeks/s", "files/s", "entries/s" */
	enum clyde_loaded_group group;
	enum clyde_loaded_state state;
	/* VALUE: the rate (mean over the repeats that have one).  TOO_FAST:
	 * the rate when the source knows it (clyde JSON, has_rate true) --
	 * imprecise, shown marked; a CSV's "+++++" has no rate. */
	bool has_rate;
	double rate;
	bool has_cpu; /* a CSV "+++" or empty CPU cell has none */
	double cpu_pct;
	bool has_latency_max;
	uint64_t latency_max_ns; /* the largest over the repeats */
	bool has_latency;	 /* percentiles below are known */
	struct clyde_loaded_latency latency;
	/* One rate per repeat that has one (owned); nsamples >= 2 makes the
	 * significance test possible. */
	double *samples;
	size_t nsamples;
	char note[128]; /* why SKIPPED, or "" */
	struct clyde_loaded_series series;
	/* Repeats whose figures were measured while an md array lost
	 * members (clyde JSON's "degraded_during"); degraded_note is the
	 * first one's ("md0: 0 -> 1 of 4 members missing"). */
	size_t ndegraded;
	char degraded_note[128];
	/* Repeats whose figure a mount or export setting inflates (clyde
	 * JSON's nfs "inflated_by": an async export, nocto, a long
	 * actimeo). */
	size_t ninflated;
	/* Why the figure may not be the storage's alone, in any repeat
	 * (CLYDE_LOADED_FLAG_*): every table shows it beside the figure and
	 * the compare table ranks a flagged figure only against flagged
	 * ones (compare.h). */
	unsigned flags;
};

/* The flags of a test (struct clyde_loaded_test's flags). */
#define CLYDE_LOADED_FLAG_MEMORY \
	1u			      /* served from a page cache: a dev
				       * test's from_memory, a bonnie test's
				       * data (or a loop's backing file)
				       * cached when it started, -D not
				       * honoured */
#define CLYDE_LOADED_FLAG_BUSY 2u     /* the device was busy (settle.busy) */
#define CLYDE_LOADED_FLAG_DEGRADED 4u /* an md array lost members */
#define CLYDE_LOADED_FLAG_NOCACHE \
	8u /* a test that reads back what was
				       * written, without eviction or -D
				       * (--no-evict): the cache was not
				       * controlled */
#define CLYDE_LOADED_FLAG_COUNT 4

/* The short word of flag bit `bit` ("memory", "busy", "degraded",
 * "cache"), or NULL when bit is not one flag. */
const char *clyde_loaded_flag_name(unsigned bit);

/* What flag bit `bit` means, one sentence without a full stop ("served
 * from a page cache, not the device"), or NULL. */
const char *clyde_loaded_flag_text(unsigned bit);

/* The words of every flag in `flags` joined by `sep` ("memory, busy") in
 * buf; "" for none.  Returns buf. */
char *clyde_loaded_flags_text(char *buf, size_t len, unsigned flags,
			      const char *sep);

/* One configuration item, for the "what differs" table: a short human key
 * ("filesystem", "mount options", "file size", ...) and its value as
 * shown.  Keys a source does not record are absent. */
struct clyde_loaded_kv {
	char *key;
	char *value;
};

enum clyde_loaded_kind {
	CLYDE_LOADED_BONNIE = 0,
	CLYDE_LOADED_TREE,
	CLYDE_LOADED_DEV,
	CLYDE_LOADED_FIO, /* one job of fio's JSON output (loaded_fio.c) */
};

/* zcav's curve of a clyde dev run: throughput by position (owned). */
struct clyde_loaded_zcav {
	size_t n;
	double *offset_bytes;
	double *mib_per_s;
	/* Per point, CLYDE_LOADED_ZCAV_* bits: a block too short to time
	 * (the JSON's "imprecise", or for older results an elapsed_ns under
	 * 0.5 s) and one over holes ("hole_bytes" above 0). */
	unsigned char *flags;
};

/* A clyde dev test's --curve (its JSON "curve", first repeat): per step
 * the requests per second achieved and the latency p99 from the due
 * times (owned). */
struct clyde_loaded_curve {
	char test[32];
	size_t n;
	double *iops;
	double *p99_ns;
	bool *reached; /* the step reached its rate */
};

#define CLYDE_LOADED_ZCAV_IMPRECISE 1u
#define CLYDE_LOADED_ZCAV_HOLES 2u

/* One test x member row of a clyde JSON result's per-member counters
 * (each test's `members[]`, of the first repeat that has them). */
struct clyde_loaded_member {
	char test[32];	 /* as struct clyde_loaded_test's name */
	char device[32]; /* "loop3", "sdb" */
	char role[16];	 /* "data", "journal", "log"; "" when not recorded */
	uint64_t read_bytes, write_bytes, read_ios, write_ios, io_ticks_ms;
	bool has_wa; /* write amplification known (a test that writes) */
	double wa;
};

/* One test's device figures (its JSON "io" and "settle"), of the same
 * repeat as the members. */
struct clyde_loaded_io {
	char test[32];
	bool attributed; /* read/write are clyde's own */
	char source[16]; /* "task", "cgroup", "" */
	uint64_t read_bytes, write_bytes;
	uint64_t other_read_bytes, other_write_bytes; /* 0 unless attributed */
	bool other_shown;
	bool has_wa;
	double wa;
	bool busy_start; /* settle.busy */
	char busy_why[160];
};

struct clyde_loaded_run {
	char *label;	    /* the run's name as recorded ("" when none) */
	char *path;	    /* the file it came from ("-" for stdin, or whatever
		       * the caller named the buffer) */
	unsigned long line; /* the CSV line, or 1 for a JSON file */
	char *source;	    /* "path:line" */
	enum clyde_loaded_kind kind;
	char format[32];       /* "clyde JSON v1", "bonnie++ CSV 1.98", ... */
	uint64_t started_unix; /* 0 when not recorded */
	size_t nrepeats;       /* runs folded into this one (>= 1) */
	struct clyde_loaded_kv *kv;
	size_t nkv;
	/* bonnie: the 12 tests in bonnie++'s order (index = enum
	 * clyde_test); tree: its phases in order. */
	struct clyde_loaded_test *tests;
	size_t ntests;
	struct clyde_loaded_zcav zcav;	   /* dev: n 0 when zcav did not run */
	struct clyde_loaded_curve *curves; /* dev: the tests with --curve */
	size_t ncurves;
	/* clyde JSON: the member disks per test and the sentences of each
	 * test's members_check (read-modify-write, write amplification,
	 * imbalance), of the first repeat; none for other sources. */
	struct clyde_loaded_member *members;
	size_t nmembers;
	struct clyde_loaded_io *ios; /* one per test that has "io" */
	size_t nios;
	char **member_findings;
	size_t nmember_findings;
};

/* Free a series' arrays; s becomes empty. */
void clyde_loaded_series_free(struct clyde_loaded_series *s);

/* The value of config key `key` of a run, or NULL when not recorded. */
const char *clyde_loaded_kv_get(const struct clyde_loaded_run *run,
				const char *key);

/* Messages kept per set; `nmalformed` counts them all. */
/* The largest result file read (a JSON result is far smaller; a CSV file
 * of this size holds about a million runs).  Bigger files are refused,
 * by their size, before they are read. */
#define CLYDE_LOADED_MAX_FILE (64u << 20)

#define CLYDE_LOADED_MAX_ERRORS 100

struct clyde_loaded_set {
	struct clyde_loaded_run *runs;
	size_t nruns;
	char **errors; /* "path:line: reason", at most CLYDE_LOADED_MAX_ERRORS */
	size_t nerrors;
	size_t nmalformed; /* malformed lines/files, including those not kept */
	size_t runs_cap, errors_cap;
};

void clyde_loaded_set_init(struct clyde_loaded_set *set);
void clyde_loaded_set_release(struct clyde_loaded_set *set);

/*
 * Read one file (or "-" for stdin) and append what it holds: fio's JSON
 * output (results/fio_read.h: one run per job; fio's text output is one
 * message), else a file whose first non-blank byte is '{' is read as a
 * clyde JSON result (one run), any other as bonnie++/clyde CSV lines (one
 * run per data line).  A malformed
 * line, or a JSON file that is malformed or not a clyde result, appends a
 * message to set->errors and is not an error of the call.  Returns 0, or a
 * negative errno recorded in ctx (with the path) when the file cannot be
 * read at all or memory runs out; what was read before stays in the set.
 */
int clyde_loaded_read_file(struct clyde_ctx *ctx, const char *path,
			   struct clyde_loaded_set *set);

/* The same for data already in memory (`name` is used as the path in
 * messages and sources); e.g. a result stored in a database. */
int clyde_loaded_read_buffer(struct clyde_ctx *ctx, const char *data,
			     size_t len, const char *name,
			     struct clyde_loaded_set *set);

/* Append one parsed clyde JSON result (from clyde_json_parse(); not
 * kept).  A bad document or member appends a message naming name:line and
 * returns 0; -ENOMEM (in ctx) is the only failure. */
int clyde_loaded_add_json(struct clyde_ctx *ctx, const struct clyde_json *root,
			  const char *name, struct clyde_loaded_set *set);

/* Append one CSV data line (from clyde_csv_parse_line()), read from
 * name:line->lineno.  Returns 0 or -ENOMEM (in ctx). */
int clyde_loaded_add_csv(struct clyde_ctx *ctx,
			 const struct clyde_csv_line *line, const char *name,
			 struct clyde_loaded_set *set);

/* Append a run clyde has just made (as the JSON writer would show it).
 * Returns 0 or -ENOMEM (in ctx). */
int clyde_loaded_add_run(struct clyde_ctx *ctx, const struct clyde_run *run,
			 const char *name, struct clyde_loaded_set *set);

/*
 * Fold consecutive CSV runs of one file that share the label and every
 * config value (bonnie++ -x N writes N such lines) into one run with
 * repeats: values become means, samples the per-line rates, a test is
 * TOO_FAST only when no line has a value.  JSON runs are left alone.
 * Returns 0 or -ENOMEM (in ctx; a run being folded may then hold part of
 * its repeats, every run stays whole and valid).
 */
int clyde_loaded_merge_repeats(struct clyde_ctx *ctx,
			       struct clyde_loaded_set *set);

/*
 * Do the repeats of a test disagree wildly?  True when it has two or more
 * samples and the largest is at least CLYDE_LOADED_DISAGREE times the
 * smallest (or the smallest is 0): their mean then describes none of
 * them (ss1's ran_stat 500, 39603, 725, 27351 averages to 17045).  The
 * smallest and largest sample go to *lo and *hi (either may be NULL).
 */
#define CLYDE_LOADED_DISAGREE 2.0
bool clyde_loaded_test_disagree(const struct clyde_loaded_test *t, double *lo,
				double *hi);

/* Read the per-member counters and findings of a JSON result's first
 * repeat that has any into r (loaded_members.c); `array` is "tests" or
 * "phases".  A member object lacking a field is left out.  0 or -ENOMEM. */
int clyde_loaded_json_members(struct clyde_loaded_run *r,
			      const struct clyde_json *runs, const char *array);
void clyde_loaded_members_release(struct clyde_loaded_run *r);

/* Record "fmt..." in set->errors (counted in nmalformed; kept while fewer
 * than CLYDE_LOADED_MAX_ERRORS).  For callers that find a bad input
 * themselves (e.g. a database row).  Returns 0 or -ENOMEM. */
int clyde_loaded_add_error(struct clyde_loaded_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif

/*
 * Reading fio's JSON output (fio 3.x, `--output-format=json` and `json+`)
 * so that `clyde compare`, `clyde report` and `clyde history import` can
 * put fio's jobs beside clyde's results.
 *
 * What is read.  The envelope's "fio version" (fio 3.x only: another
 * major version may lay its figures out differently, so it is refused, not
 * guessed at), "timestamp" and "global options"; per entry of "jobs" (one
 * per job, or one per group under group_reporting): its name, group, error,
 * job_runtime, usr_cpu and sys_cpu, its "job options", and for each of
 * read, write and trim the bytes, bandwidth (bw_bytes), IOPS, runtime,
 * request count and one latency: fio's total latency "lat_ns" when it has
 * percentiles (lat_percentiles=1), else the completion latency "clat_ns"
 * (fio's default; it leaves out the submission time, which is all but
 * zero for a synchronous engine).  json+ adds each latency's "bins"
 * (value in ns: count); those are recorded into a clyde histogram
 * (core/hist.h) so that percentiles come out by clyde's own rule.
 *
 * What is refused.  The reader is strict: any member it needs that is
 * missing or of the wrong type makes the whole document bad (one reason,
 * with its line), so a damaged file never gives half its jobs.  fio's
 * normal text output and output cut short are told apart from other bad
 * input by clyde_fio_sniff().
 *
 * fio writes notes ("note: both iodepth >= 1 and synchronous I/O engine
 * ...") to standard output before the JSON when no --output file is
 * given; lines before the JSON that start like fio's messages are
 * skipped.
 *
 * Nothing here prints; everything returned is owned by the caller.
 */
#ifndef CLYDE_RESULTS_FIO_READ_H
#define CLYDE_RESULTS_FIO_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "core/json_read.h"

enum clyde_fio_kind {
	CLYDE_FIO_NOT = 0, /* not fio output: read it as something else */
	CLYDE_FIO_JSON,	   /* fio JSON (maybe cut short, maybe another fio) */
	CLYDE_FIO_TEXT,	   /* fio's normal (human) output */
};

/*
 * What data[0..len) looks like.  CLYDE_FIO_JSON when, after fio's note
 * lines and blank space, it starts with '{' and its first member is
 * "fio version"; *json_off is then where the '{' is.  CLYDE_FIO_TEXT when
 * it starts the way fio's normal output does: a line "NAME: (g=N): rw=..."
 * or a "fio-3..." line followed by "Starting ...".  Looks only at the
 * first few KiB; parses nothing.
 */
enum clyde_fio_kind clyde_fio_sniff(const char *data, size_t len,
				    size_t *json_off);

enum clyde_fio_ddir {
	CLYDE_FIO_READ = 0,
	CLYDE_FIO_WRITE,
	CLYDE_FIO_TRIM
};
#define CLYDE_FIO_NDDIR 3

/* "read", "write", "trim". */
const char *clyde_fio_ddir_name(enum clyde_fio_ddir d);

/* One latency of one direction, in ns. */
struct clyde_fio_lat {
	const char *which; /* "lat" or "clat" (static) */
	uint64_t count, min_ns, max_ns;
	double mean_ns;
	/* fio's own percentiles (its "percentile" map), when present. */
	bool has_pct;
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns;
	/* json+: the bins recorded into a histogram (owned), else NULL. */
	struct clyde_hist *hist;
};

struct clyde_fio_dir {
	bool ran; /* some requests (total_ios or io_bytes > 0) */
	uint64_t io_bytes, bw_bytes, total_ios, runtime_ms;
	double iops;
	struct clyde_fio_lat lat;
};

struct clyde_fio_opt {
	char *key, *value; /* owned */
};

struct clyde_fio_job {
	char *jobname;	    /* owned */
	unsigned long line; /* where its object starts in the document */
	int64_t groupid;
	int64_t error; /* fio's error (an errno), 0 when none */
	uint64_t job_runtime_ms;
	bool has_cpu;
	double usr_cpu, sys_cpu; /* percent of one CPU */
	/* "global options" first, then the job's own (which override). */
	struct clyde_fio_opt *opts;
	size_t nopts;
	struct clyde_fio_dir dir[CLYDE_FIO_NDDIR];
	/* Where the job's object is in the text (bytes from the start of
	 * the data handed to clyde_fio_parse()). */
	size_t text_off, text_len;
};

struct clyde_fio_result {
	char version[32];   /* "fio-3.33" */
	bool plus;	    /* some latency had bins: json+ */
	uint64_t timestamp; /* unix seconds; 0 when absent */
	struct clyde_fio_job *jobs;
	size_t njobs;
	/* The text of the document: where its "jobs" array's '[' and ']'
	 * are, for clyde_fio_job_doc(). */
	size_t json_off, jobs_open, jobs_close;
};

/* The value of option `key` of a job, or NULL. */
const char *clyde_fio_opt(const struct clyde_fio_job *job, const char *key);

/*
 * Parse fio JSON: data[0..len), with the JSON at json_off (from
 * clyde_fio_sniff()).  Returns 0 and fills *res (release it), or -EINVAL
 * with the reason in why[] and its line (1-based, counted in data) in
 * *line -- "the JSON ends early (a truncated file?): ...", "fio version
 * \"fio-2.2.10\" is not one clyde reads (fio 3.x)", "jobs[1]: \"read\"
 * has no \"bw_bytes\" number" -- or -ENOMEM.  *res is empty on failure.
 */
#define CLYDE_FIO_WHY_LEN 200
int clyde_fio_parse(const char *data, size_t len, size_t json_off,
		    struct clyde_fio_result *res, char *why, size_t whylen,
		    unsigned long *line);

void clyde_fio_result_release(struct clyde_fio_result *res);

/*
 * A document of job `i` alone: the envelope of data (from its '{', so
 * without fio's notes) with only that job in "jobs" -- what fio would
 * have written for it, byte for byte from data otherwise.  What `clyde
 * history import` stores, one per job.  Returns 0 with *doc (owned,
 * NUL-terminated) and *doclen, or -ENOMEM.
 */
int clyde_fio_job_doc(const char *data, size_t len,
		      const struct clyde_fio_result *res, size_t i, char **doc,
		      size_t *doclen);

#endif

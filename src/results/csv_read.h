/*
 * A reader for bonnie++ CSV lines of every format, and for the lines clyde
 * writes itself: the groundwork of `clyde compare`.
 *
 * Formats.  Each line is recognised on its own, so one file may mix them:
 *  - 1.03: 27 fields and no format field: name, size[:chunk], six IO tests
 *    (rate, cpu), num_files[:max[:min]][/ndirs], six file tests (rate,
 *    cpu).  No latencies.
 *  - 1.96 (written by bonnie++ 1.96 and 1.97, whose first field is "1.96"
 *    or "1.97"): 48 fields, the 1.98 layout without seeks and
 *    seek_proc_count.
 *  - 1.98 (bonnie++ 1.98 .. 2.00a, and clyde): 50 fields, first field
 *    "1.98".  See src/results/format.h for the names.
 * A line with 27 fields is a 1.03 line; any other line is identified by
 * its first field and must then have that format's field count.
 *
 * Who wrote it.  The second field of a 1.96/1.98 line is the writer's
 * version.  One of bonnie++'s own release numbers (1.93c .. 2.00a; see
 * clyde_csv_version_is_bonnie()) means bonnie++, anything else (such as
 * "0.1.0") means clyde.  This matters for the file-test parameters:
 *  - clyde writes every field in its named place, io_chunk_size and
 *    file_chunk_size included;
 *  - bonnie++ leaves io_chunk_size and file_chunk_size empty and writes
 *    num_dirs one column to the right, in file_chunk_size's place.  Since
 *    bonnie++ never fills both of the num_dirs and file_chunk_size
 *    columns, num_dirs is read from whichever of the two is not empty; a
 *    bonnie++ line with both filled can only be in the named layout and
 *    is read as such.
 *
 * Cells.  An empty cell means "not run" (or "not written").  "+++++" and
 * "+++" (in either a rate or a CPU cell) mean the test ran but was too
 * fast to measure; that is kept as its own state, never read as 0.
 * Numbers are plain non-negative decimals ('.' as the point, whatever the
 * locale); IO rates are KiB/s, seek rates may have a fraction ("517.6"),
 * latencies carry a unit (ns, us, ms or s) and are stored in ns, sizes
 * carry bonnie++'s suffixes.  Fields are not quoted (neither bonnie++ nor
 * clyde quote) and not trimmed; a line may end in "\n", "\r\n" or
 * nothing.  A line whose first field is "format_version" or "name" and
 * whose second field starts with a letter is a header and is skipped, as
 * are blank lines.
 *
 * Nothing here prints.  A malformed line yields one reason (which field,
 * its text, what is wrong); the file readers turn it into "path:line:
 * reason" and read on.
 */
#ifndef CLYDE_RESULTS_CSV_READ_H
#define CLYDE_RESULTS_CSV_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/ctx.h"
#include "results/result.h"

enum clyde_csv_format {
	CLYDE_CSV_1_03 = 1,
	CLYDE_CSV_1_96,
	CLYDE_CSV_1_98,
};

/* "1.03", "1.96" or "1.98" ("?" for anything else). */
const char *clyde_csv_format_name(enum clyde_csv_format f);

enum clyde_csv_writer {
	CLYDE_CSV_BY_BONNIE = 1, /* every 1.03 line, and known versions */
	CLYDE_CSV_BY_CLYDE,
};

/* True when `v` (a bonnie_version field) is one of bonnie++'s releases. */
bool clyde_csv_version_is_bonnie(const char *v);

/* What one rate or CPU cell held. */
enum clyde_csv_cell {
	CLYDE_CSV_EMPTY = 0, /* not run */
	CLYDE_CSV_TOO_FAST,  /* "+++++" / "+++": ran, too fast to measure */
	CLYDE_CSV_VALUE,
};

/* rate, rate_per_s and cpu_pct are 0 unless their cell is a VALUE. */
struct clyde_csv_test {
	/* The test's state is its rate cell's. */
	enum clyde_csv_cell state;
	double rate;	   /* as written: KiB/s for IO tests, else per second */
	double rate_per_s; /* bytes/s for IO tests (rate * 1024), else rate */
	enum clyde_csv_cell cpu_state;
	double cpu_pct;
	bool has_latency; /* false when the cell is empty (and in 1.03) */
	uint64_t latency_ns;
};

/*
 * One data line.  `params` uses the result model's meaning with these
 * exceptions: a value the line does not hold is 0 (concurrency and seed
 * in 1.03, seeks and seekers in 1.96, io_chunk and file_chunk when
 * bonnie++ left them empty, 1.03's chunk when it was not shown: 1.03
 * shows only a non-default one), num_dirs is 1 when the file tests ran
 * and the line leaves it empty, and direct/fsync_each are always false
 * (no CSV format records them).  max_size is -1 for "link" and -2 for
 * "symlink".  file_size_mib and num_files are 0 when their tests did not
 * run.
 */
struct clyde_csv_line {
	enum clyde_csv_format format;
	char format_version[8]; /* the first field; "" in 1.03 */
	enum clyde_csv_writer writer;
	char writer_version[32];	/* the second field; "" in 1.03 */
	struct clyde_run_params params; /* name is cut to 255 bytes */
	uint64_t num_files_k; /* num_files as written (units of 1024) */
	struct clyde_csv_test tests[CLYDE_TEST_COUNT];
	unsigned long lineno; /* 1-based line in its file (readers only) */
};

/* Enough for any reason clyde_csv_parse_line() gives. */
#define CLYDE_CSV_WHY_LEN 256

/*
 * Parse one line of `len` bytes (which need not be NUL-terminated and may
 * hold any bytes; a final "\n", "\r\n" or "\r" is ignored).  Returns 1 and
 * fills *out for a data line, 0 for a header or blank line (*out is then
 * zeroed), or -EINVAL with the reason in `why` (NUL-terminated, cut to
 * why_len) for a malformed one, when *out holds what was read before the
 * error.
 */
int clyde_csv_parse_line(const char *line, size_t len,
			 struct clyde_csv_line *out, char *why, size_t why_len);

/* Lines longer than this (without the newline) are reported, not read. */
#define CLYDE_CSV_LINE_MAX 65536
/* Messages kept per set; `nmalformed` counts them all. */
#define CLYDE_CSV_MAX_ERRORS 100

/*
 * What the readers collected.  Reading several files into one set appends
 * to it; lines keep their order.  Owns `lines` and every `errors` string.
 */
struct clyde_csv_set {
	struct clyde_csv_line *lines;
	size_t nlines;
	char **errors; /* "path:line: reason", at most CLYDE_CSV_MAX_ERRORS */
	size_t nerrors;
	size_t nmalformed; /* malformed lines, including those not kept */
	size_t lines_cap, errors_cap;
};

void clyde_csv_set_init(struct clyde_csv_set *set);
void clyde_csv_set_release(struct clyde_csv_set *set);

/*
 * Read every line of `f`, append its data lines to `set` and, for each
 * malformed line, "label:line: reason" to set->errors.  A malformed line
 * is not an error of the call: it returns 0 once the stream is read to
 * its end, or a negative errno (recorded in ctx, naming `label`) when the
 * stream cannot be read or memory runs out; what was read before stays in
 * the set.  A UTF-8 byte-order mark at the start of the stream is skipped.
 */
int clyde_csv_read_stream(struct clyde_ctx *ctx, FILE *f, const char *label,
			  struct clyde_csv_set *set);

/* clyde_csv_read_stream() on the file at `path`, labelled with its path. */
int clyde_csv_read_file(struct clyde_ctx *ctx, const char *path,
			struct clyde_csv_set *set);

#endif

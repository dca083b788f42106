/*
 * Writers for the bonnie++ suite's results: bonnie++ 2.00a's text table and
 * its 1.98 CSV line for one run, clyde's JSON document and clyde's extra
 * text section for a series of runs; plus the number-formatting
 * helpers they share, exposed so that tests (and later the CSV reader and
 * the compare tool) can use the very same rules.
 *
 * Every writer returns 0, or a negative errno when the stream reported an
 * error (the stream is flushed at the end so that a full disk shows up
 * here and not at fclose).  None of them prints anywhere but to `f`.
 *
 * Numbers with a fraction are written with a '.' whatever LC_NUMERIC says.
 *
 * Names.  params.name is a user's label and may hold anything; it is read
 * up to its first NUL or the end of the array.  In the text table control
 * characters (bytes below 0x20 and 0x7f) become '_', and the name is cut
 * by characters, never inside a UTF-8 sequence.  In the CSV line commas
 * and control characters (which include CR and LF) become '_', so that
 * the line always has exactly 50 fields.  JSON escapes the name instead
 * (invalid UTF-8 bytes become U+FFFD), so nothing is lost there.
 *
 * Where bonnie++ 2.00a has a bug, the format is kept and the bug is not:
 *  - file-test rates in the text table are files/s (bonnie++ prints a
 *    double through %d);
 *  - the CSV line writes io_chunk_size and file_chunk_size, and num_dirs
 *    in its named column (bonnie++ leaves the chunks empty and shifts
 *    num_dirs right), and the header has the 50 names of the data;
 *  - a rate that would round up past its column (99.96 MiB/s printed as
 *    "100.0m", 999.96 seeks/s as "1000.0") is printed in the next, shorter
 *    form ("100m", "1000") so the table stays aligned.
 */
#ifndef CLYDE_RESULTS_FORMAT_H
#define CLYDE_RESULTS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/human.h"
#include "results/result.h"

struct clyde_jw;

/* Text table.  `version` fills the "Version" label (bonnie++ shows its own
 * version there; 5 characters line up exactly like bonnie++'s "2.00a").
 * The IO section is written when any IO test (putc .. seeks) is not
 * CLYDE_NOT_RUN, the file section likewise for the file tests; as
 * bonnie++ does, an IO section without a file section is followed by an
 * empty line. */
int clyde_text_write(FILE *f, const struct clyde_run *run, const char *version);

/* The 50 field names of the 1.98 CSV format, and a newline. */
int clyde_csv_header(FILE *f);

/* One 1.98-format line (50 fields and a newline); `version` is written as
 * bonnie_version. */
int clyde_csv_write(FILE *f, const struct clyde_run *run, const char *version);

#define CLYDE_CSV_FIELDS 50
#define CLYDE_CSV_FORMAT "1.98"

/* What a series of runs adds to its results: the --until-stable settings
 * and outcome.  The unsettled list is typically filled with
 * clyde_summary_unsettled() (summary.h). */
struct clyde_json_extra {
	double target_pct; /* CI half-width goal in % of the mean; <= 0: none */
	unsigned max_runs; /* the most runs the series could have made */
	unsigned runs_done; /* the runs it made */
	unsigned n_unsettled;
	enum clyde_test unsettled[CLYDE_TEST_COUNT];
	/* When not NULL, writes more members of the top-level object (the
	 * "mpi" member of clyde-mpi) after until_stable. */
	void (*more)(struct clyde_jw *w, const void *arg);
	const void *more_arg;
};

/*
 * One JSON document (schema "clyde-result", schema_version 1, kind
 * "bonnie"; docs/json-schema.md) for a series of nruns >= 1 runs of one
 * configuration: the envelope (label, start time, machine, target,
 * config) from runs[0], every run with all twelve tests, the run-to-run
 * summary and, when extra is non-NULL with target_pct > 0, the
 * until_stable object (else null; extra's target_pct also decides the
 * summary's "settled").  `version` is clyde's.  Pretty-printed, ending
 * with a newline; valid JSON whatever the strings hold (escaped, invalid
 * UTF-8 as U+FFFD) and never NaN or Infinity (null instead).  Returns 0,
 * -EINVAL when nruns is 0, -ENOMEM, or the stream's error.
 */
int clyde_json_write(FILE *f, const struct clyde_run *runs, unsigned nruns,
		     const struct clyde_json_extra *extra, const char *version);

/*
 * clyde's own section after the bonnie++ table (text_extra.c): one row per
 * test that ran with its measured rate (never "+++++"), the page-cache
 * residency at its start, latency percentiles and what reached the block
 * device; then a warning for each test served mostly from the page cache
 * and a note for each test where -D was not honoured; the time spent
 * outside the timed windows, when the runs measured it; and with n > 1 runs
 * a statistics table (mean +/- 95% CI, stddev) and, with extra's target,
 * the tests that did not settle.  For n > 1 the rows merge the runs: the
 * mean rate, the latencies of all runs' operations, the highest residency,
 * the device totals.  Units are binary (KiB = 1024 B, as in bonnie++'s
 * table): "2.91 GiB/s", "5123 seeks/s", "48211 files/s"; latencies in
 * ns/us/ms/s with three significant digits.  Lines stay under 100
 * columns.  Writes nothing when no test is done in any run.  Returns 0,
 * -EINVAL when n is 0, -ENOMEM, or the stream's error.
 */
int clyde_text_extra_write(FILE *f, const struct clyde_run *runs, unsigned n,
			   const struct clyde_json_extra *extra);

/* ---- shared helpers (fmt.c) ----------------------------------------- */

/*
 * All helpers below write a NUL-terminated string of at most len-1 bytes
 * into buf and return buf.  CLYDE_FMT_LEN is always enough for a cell; a
 * shorter buffer truncates, it never overflows.  Cells are unpadded: the
 * text writer pads them ("%5s" rates, "%3s" CPU, "%9s" latencies), which
 * gives exactly bonnie++'s "%4dk", "%5.1f", ... layouts.
 */
#define CLYDE_FMT_LEN 128

/* How a test shows in bonnie++'s formats. */
enum clyde_fmt_show {
	CLYDE_SHOW_BLANK,    /* not run or skipped: empty cell */
	CLYDE_SHOW_TOO_FAST, /* done in under CLYDE_TOO_FAST_NS: "+++++" "+++" */
	CLYDE_SHOW_VALUE,
};
enum clyde_fmt_show clyde_fmt_show(const struct clyde_test_result *t);

/* True when a test of that group is anything but CLYDE_NOT_RUN. */
bool clyde_run_has_io(const struct clyde_run *run);
bool clyde_run_has_files(const struct clyde_run *run);

/* An IO rate in KiB/s as the text table shows it: "487k" below 10000 K/s,
 * else MiB/s "9.8m" below 100, "278m" below 1000, else GiB/s "2.9g". */
char *clyde_fmt_io_rate(char *buf, size_t len, double kib_per_s);

/* Seeks/s: "5113" from 1000 on (no decimals), "517.6" below. */
char *clyde_fmt_seeks(char *buf, size_t len, double per_s);

/* A latency: "%lluus" below 100 ms, "%llums" below 100 s, else "%llus",
 * each truncated to the unit. */
char *clyde_fmt_latency(char *buf, size_t len, uint64_t ns);

/* File size: "4G" when a multiple of 1024 MiB, else "512M". */
char *clyde_fmt_file_size(char *buf, size_t len, uint64_t mib);

/* A chunk size: "1m" for whole MiB, "4k" for whole KiB, else bytes. */
char *clyde_fmt_chunk(char *buf, size_t len, uint32_t bytes);

/* size[:chunk:conc:seeks], each only when not the default, empty middle
 * fields kept and trailing ones trimmed: "64M:4k:2", "64M:::1000".  As in
 * bonnie++ 2.00a the seeker count is never shown (it is in the CSV and the
 * JSON): -s 16:4096:1000:3 gives "16M:4k::1000". */
char *clyde_fmt_size_spec(char *buf, size_t len,
			  const struct clyde_run_params *p);

/* The 19-column name cell of the IO row: the name cut to 18 minus the
 * spec's length, a space, the spec.  A spec of 19 or more characters is
 * the whole cell (wider than 19, as in bonnie++). */
char *clyde_fmt_name_cell(char *buf, size_t len,
			  const struct clyde_run_params *p);

/* The name made safe for the text table, cut to `cols` characters and
 * padded with spaces to exactly that many. */
char *clyde_fmt_text_name(char *buf, size_t len, const char *name,
			  size_t name_max, size_t cols);

/* The name made safe for one CSV field (see the top of this file). */
char *clyde_fmt_csv_name(char *buf, size_t len, const char *name,
			 size_t name_max);

/* The file row label num[:max:min|:link|:symlink][/ndirs] with num in
 * units of 1024; as bonnie++, min is shown whenever max is a size. */
char *clyde_fmt_file_label(char *buf, size_t len,
			   const struct clyde_run_params *p);

/* The file header's label: "files", "files:max" or "files:max:min". */
const char *clyde_fmt_file_header(const struct clyde_run_params *p);

/* A test's rate cell: "+++++" when too fast, "" when blank, else for IO
 * tests clyde_fmt_io_rate() (text) or integer KiB/s (CSV), seeks
 * clyde_fmt_seeks(), file tests integer files/s (both). */
char *clyde_fmt_text_rate(char *buf, size_t len,
			  const struct clyde_test_result *t,
			  enum clyde_test id);
char *clyde_fmt_csv_rate(char *buf, size_t len,
			 const struct clyde_test_result *t, enum clyde_test id);

/* A test's CPU cell: "+++", "", or the integer percent (truncated). */
char *clyde_fmt_cpu(char *buf, size_t len, const struct clyde_test_result *t);

/* A test's latency cell: "" unless the test is done, else
 * clyde_fmt_latency(). */
char *clyde_fmt_test_latency(char *buf, size_t len,
			     const struct clyde_test_result *t);

/* v with `decimals` decimals and a '.' point; "0" for NaN or infinity. */
char *clyde_fmt_double(char *buf, size_t len, double v, int decimals);

/* Human units for clyde's own text (text_extra.c), three significant
 * digits, a space before the unit:
 *   rate of test id: "2.91 GiB/s" / "487 KiB/s" / "12.0 B/s" (binary
 *     prefixes), "5123 seeks/s" / "51.2 seeks/s", "48211 files/s";
 *   bytes: "0 B", "812 B", "1.50 MiB", "2.00 TiB" (core/human.h);
 *   a duration: "250 ns", "12.3 us", "4.56 ms", "1.20 s" (and "1234 s").
 * A unit is picked so that the number rounds to below 1000 (1000 KiB
 * shows as "0.98 MiB"), except for seeks, files and seconds. */
char *clyde_fmt_human_rate(char *buf, size_t len, double per_s,
			   enum clyde_test id);
char *clyde_fmt_human_ns(char *buf, size_t len, double ns);

/* Write s as one CSV field (RFC 4180): as it is, or quoted with its quotes
 * doubled when it holds a comma, a quote or a line break.  The compare and
 * experiment tables use it. */
void clyde_fmt_csv_field(FILE *f, const char *s);

/*
 * A number as a person reads it, shared by compare, report and history
 * (so that one value is rounded alike everywhere): no decimals from 1000 on
 * or when `whole` (the row holds counts, "888" not "888.0"), else one
 * from 10 ("171.3"), two from 1 ("1.23"), and three significant digits
 * below ("0.0123"); "0" for NaN or infinity.
 */
char *clyde_fmt_readable(char *buf, size_t len, double v, bool whole);

/*
 * The unit to show values up to `max` of base unit `base_unit` in, and the
 * divisor that converts to it: "B/s" becomes KiB/s, MiB/s, GiB/s or TiB/s
 * (the largest the maximum reaches, KiB/s at least), "ns" becomes ns, us,
 * ms or s; any other unit stays (its divisor 1).  Returns a static string.
 */
const char *clyde_fmt_pick_unit(const char *base_unit, double max,
				double *divisor);

#endif

/*
 * bonnie++ 2.00a's text table, column for column: a 19-column label, then
 * per test " %5s %3s" (rate, CPU), and a Latency row of " %9s" cells.
 */
#include "results/format.h"

#include <errno.h>
#include <stdio.h>

static const char io_head[] =
	"------Sequential Output------ --Sequential Input- --Random-\n"
	"                    "
	"-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	"Name:Size etc       "
	" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n";

static const char file_head[] =
	"------Sequential Create------ --------Random Create--------\n";
static const char file_columns[] =
	"-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n";
static const char rate_columns[] =
	" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n";

/* "Version 2.00a       ": bonnie++ prints "Version %5s" and pads to the
 * first column; a longer version string still leaves one space. */
static void version_label(FILE *f, const char *version)
{
	char label[64];

	snprintf(label, sizeof(label), "Version %5s", version);
	fprintf(f, "%-19s ", label);
}

/* The rate/CPU cells of tests [from, to), then the newline. */
static void rate_row(FILE *f, const struct clyde_run *run, int from, int to)
{
	char rate[CLYDE_FMT_LEN], cpu[CLYDE_FMT_LEN];

	for (int i = from; i < to; i++) {
		const struct clyde_test_result *t = &run->tests[i];

		clyde_fmt_text_rate(rate, sizeof(rate), t, (enum clyde_test)i);
		clyde_fmt_cpu(cpu, sizeof(cpu), t);
		fprintf(f, " %5s %3s", rate, cpu);
	}
	fputc('\n', f);
}

static void latency_row(FILE *f, const struct clyde_run *run, int from, int to)
{
	char lat[CLYDE_FMT_LEN];

	fputs("Latency          ", f);
	for (int i = from; i < to; i++)
		fprintf(f, " %9s",
			clyde_fmt_test_latency(lat, sizeof(lat),
					       &run->tests[i]));
	fputc('\n', f);
}

static void io_section(FILE *f, const struct clyde_run *run,
		       const char *version)
{
	char cell[CLYDE_FMT_LEN];

	version_label(f, version);
	fputs(io_head, f);
	fputs(clyde_fmt_name_cell(cell, sizeof(cell), &run->params), f);
	rate_row(f, run, CLYDE_PUTC, CLYDE_FIRST_FILE_TEST);
	latency_row(f, run, CLYDE_PUTC, CLYDE_FIRST_FILE_TEST);
}

static void file_section(FILE *f, const struct clyde_run *run,
			 const char *version)
{
	const struct clyde_run_params *p = &run->params;
	const char *head = clyde_fmt_file_header(p);
	char buf[CLYDE_FMT_LEN];

	version_label(f, version);
	fputs(file_head, f);
	fprintf(f, "%s ",
		clyde_fmt_text_name(buf, sizeof(buf), p->name, sizeof(p->name),
				    19));
	fputs(file_columns, f);
	/* bonnie++ right-aligns the plain label and left-aligns the others. */
	if (p->max_size || p->min_size)
		fprintf(f, "%-19s ", head);
	else
		fprintf(f, "%19s ", head);
	fputs(rate_columns, f);
	fprintf(f, "%19s", clyde_fmt_file_label(buf, sizeof(buf), p));
	rate_row(f, run, CLYDE_FIRST_FILE_TEST, CLYDE_TEST_COUNT);
	latency_row(f, run, CLYDE_FIRST_FILE_TEST, CLYDE_TEST_COUNT);
}

int clyde_text_write(FILE *f, const struct clyde_run *run, const char *version)
{
	bool io = clyde_run_has_io(run), files = clyde_run_has_files(run);

	errno = 0;
	if (io)
		io_section(f, run, version);
	if (files)
		file_section(f, run, version);
	else if (io)
		fputc('\n', f); /* bonnie++ ends its report with a newline */
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

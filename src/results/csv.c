/*
 * The 1.98 CSV format of bonnie++ 1.98 .. 2.00a, with the fields where its
 * names say they are (bonnie++ 2.00a shifts num_dirs and drops the chunk
 * sizes; bon_csv2txt reads the named layout, which is what we write).
 */
#include "results/format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "results/run_out.h"

/* clang-format off: grouped as the reference lists them */
static const char *const csv_names[CLYDE_CSV_FIELDS] = {
	"format_version",
	"bonnie_version",
	"name",
	"concurrency",
	"seed",
	"file_size",
	"io_chunk_size",
	"seeks",
	"seek_proc_count",
	"putc",
	"putc_cpu",
	"put_block",
	"put_block_cpu",
	"rewrite",
	"rewrite_cpu",
	"getc",
	"getc_cpu",
	"get_block",
	"get_block_cpu",
	"seeks",
	"seeks_cpu",
	"num_files",
	"max_size",
	"min_size",
	"num_dirs",
	"file_chunk_size",
	"seq_create",
	"seq_create_cpu",
	"seq_stat",
	"seq_stat_cpu",
	"seq_del",
	"seq_del_cpu",
	"ran_create",
	"ran_create_cpu",
	"ran_stat",
	"ran_stat_cpu",
	"ran_del",
	"ran_del_cpu",
	"putc_latency",
	"put_block_latency",
	"rewrite_latency",
	"getc_latency",
	"get_block_latency",
	"seeks_latency",
	"seq_create_latency",
	"seq_stat_latency",
	"seq_del_latency",
	"ran_create_latency",
	"ran_stat_latency",
	"ran_del_latency",
};
/* clang-format on */

int clyde_csv_header(FILE *f)
{
	errno = 0;
	for (int i = 0; i < CLYDE_CSV_FIELDS; i++)
		fprintf(f, "%s%s", i ? "," : "", csv_names[i]);
	fputc('\n', f);
	return clyde_out_finish(f);
}

/* ",rate,cpu" for tests [from, to). */
static void csv_rates(FILE *f, const struct clyde_run *run, int from, int to)
{
	char rate[CLYDE_FMT_LEN], cpu[CLYDE_FMT_LEN];

	for (int i = from; i < to; i++) {
		const struct clyde_test_result *t = &run->tests[i];

		clyde_fmt_csv_rate(rate, sizeof(rate), t, (enum clyde_test)i);
		clyde_fmt_cpu(cpu, sizeof(cpu), t);
		fprintf(f, ",%s,%s", rate, cpu);
	}
}

static void csv_empty(FILE *f, int n)
{
	while (n-- > 0)
		fputc(',', f);
}

/* Fields 5..20: file_size .. seeks_cpu. */
static void csv_io(FILE *f, const struct clyde_run *run)
{
	const struct clyde_run_params *p = &run->params;
	char size[CLYDE_FMT_LEN];

	if (!clyde_run_has_io(run)) {
		csv_empty(f, 4 + 2 * (CLYDE_FIRST_FILE_TEST - CLYDE_PUTC));
		return;
	}
	fprintf(f, ",%s,%" PRIu32 ",%" PRIu32 ",%" PRIu32,
		clyde_fmt_file_size(size, sizeof(size), p->file_size_mib),
		p->io_chunk, p->seeks, p->seekers);
	csv_rates(f, run, CLYDE_PUTC, CLYDE_FIRST_FILE_TEST);
}

/* Fields 21..37: num_files .. ran_del_cpu. */
static void csv_files(FILE *f, const struct clyde_run *run)
{
	const struct clyde_run_params *p = &run->params;

	if (!clyde_run_has_files(run)) {
		csv_empty(f,
			  5 + 2 * (CLYDE_TEST_COUNT - CLYDE_FIRST_FILE_TEST));
		return;
	}
	fprintf(f, ",%" PRIu64, p->num_files / 1024);
	if (p->max_size == -1)
		fputs(",link", f);
	else if (p->max_size == -2)
		fputs(",symlink", f);
	else if (p->max_size)
		fprintf(f, ",%" PRId64, p->max_size);
	else
		fputc(',', f);
	/* A minimum means nothing for links; bonnie++ leaves it empty. */
	if (p->min_size && p->max_size >= 0)
		fprintf(f, ",%" PRId64, p->min_size);
	else
		fputc(',', f);
	if (p->num_dirs > 1)
		fprintf(f, ",%" PRIu32, p->num_dirs);
	else
		fputc(',', f);
	fprintf(f, ",%" PRIu32, p->file_chunk);
	csv_rates(f, run, CLYDE_FIRST_FILE_TEST, CLYDE_TEST_COUNT);
}

int clyde_csv_write(FILE *f, const struct clyde_run *run, const char *version)
{
	const struct clyde_run_params *p = &run->params;
	char name[sizeof(p->name) + 1];
	char lat[CLYDE_FMT_LEN];

	errno = 0;
	fprintf(f, CLYDE_CSV_FORMAT ",%s,%s,%u,%" PRIu64, version,
		clyde_fmt_csv_name(name, sizeof(name), p->name,
				   sizeof(p->name)),
		p->concurrency, p->seed);
	csv_io(f, run);
	csv_files(f, run);
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		fprintf(f, ",%s",
			clyde_fmt_test_latency(lat, sizeof(lat),
					       &run->tests[i]));
	fputc('\n', f);
	return clyde_out_finish(f);
}

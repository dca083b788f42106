/* zcav's gnuplot text (dev_out.h), column for column. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "results/dev_out.h"
#include "results/run_out.h"

/* "# Read 64 megs in 1 seconds, 52 megabytes per second.": zcav prints
 * whole seconds and a whole rate from the exact time. */
static void pass_line(FILE *f, uint64_t bytes, uint64_t ns)
{
	uint64_t megs = bytes >> 20;
	double s = (double)ns / 1e9;

	fprintf(f, "# Read %llu megs in %d seconds, %d megabytes per second.\n",
		(unsigned long long)megs, (int)s,
		s > 0 ? (int)((double)megs / s) : 0);
}

size_t clyde_zcav_flag_counts(const struct clyde_zcav_result *z,
			      size_t *imprecise, size_t *holes)
{
	size_t n = 0;

	*imprecise = *holes = 0;
	for (size_t i = 0; i < z->npoints; i++) {
		*imprecise += z->points[i].imprecise;
		*holes += z->points[i].hole_bytes > 0;
		n += clyde_zcav_point_flagged(&z->points[i]);
	}
	return n;
}

void clyde_zcav_flags_line(FILE *f, const struct clyde_dev_run *run,
			   const char *prefix)
{
	const struct clyde_zcav_result *z = &run->zcav;
	size_t imprecise, holes;
	size_t n = clyde_zcav_flag_counts(z, &imprecise, &holes);

	if (!n)
		return;
	fprintf(f, "%szcav: %zu of %zu blocks flagged and left out", prefix, n,
		z->npoints);
	if (imprecise)
		fprintf(f,
			"; %zu took under 0.5 s (too short to time: use a "
			"larger -b)",
			imprecise);
	if (holes)
		fprintf(f,
			"; %zu lie over holes of %s (a sparse file: read "
			"from no disk)",
			holes, z->holes_file);
	fputc('\n', f);
}

int clyde_zcav_text_write(FILE *f, const struct clyde_dev_run *run)
{
	const struct clyde_zcav_result *z = &run->zcav;

	errno = 0;
	if (z->loops_done > 1) {
		for (uint32_t l = 0; l < z->loops_done; l++)
			pass_line(f, z->pass_bytes[l], z->pass_ns[l]);
		fprintf(f, "#loops: %u\n", z->loops_done);
	}
	fputs("#block offset (GiB), MiB/s, time\n", f);
	for (size_t i = 0; i < z->npoints; i++) {
		const struct clyde_zcav_point *p = &z->points[i];
		double gib = (double)p->offset_bytes / (double)(1ull << 30);
		double s = (double)p->ns / 1e9;

		/* Too short to trust (zcav comments the line out and prints
		 * "++++" for the rate, as bonnie++ prints "+++++"), or over
		 * holes: the same, so that gnuplot draws neither. */
		if (clyde_zcav_point_flagged(p))
			fprintf(f, "#%.2f ++++ %.3f\n", gib, s);
		else
			fprintf(f, "%.2f %.2f %.3f\n", gib,
				(double)p->bytes / 1048576.0 / s, s);
	}
	if (z->loops_done == 1)
		pass_line(f, z->pass_bytes[0], z->pass_ns[0]);
	clyde_zcav_flags_line(f, run, "# clyde: ");
	return clyde_out_finish(f);
}

/*
 * The run report's "Member disks" part (see html_parts.h): per run, one
 * row per test and leaf device under the target, with what the device
 * read and wrote during the test, its requests, the write amplification
 * and the time it was busy; then the sentences of the members check
 * (read-modify-write, write amplification, imbalance).  Each byte cell
 * carries the exact count in its title.  With many runs each run's table
 * is collapsed.
 */
#include <inttypes.h>

#include "report/html.h"
#include "report/html_parts.h"
#include "results/format.h"

/* Runs up to which each run's table is shown open. */
#define MEMBERS_OPEN_RUNS 3

static void bytes_cell(FILE *f, uint64_t b)
{
	char buf[64];

	fprintf(f, "<td class=\"num\" title=\"%" PRIu64 " B\">", b);
	clyde_html_esc(f, clyde_fmt_human_bytes(buf, sizeof(buf), (double)b));
	fputs("</td>", f);
}

static void run_table(FILE *f, const struct clyde_loaded_run *r)
{
	size_t i;

	fputs("<table class=\"members\"><tr><th>test</th><th>member</th>"
	      "<th>read</th><th>written</th><th>requests (r/w)</th>"
	      "<th>write ampl.</th><th>busy</th></tr>\n",
	      f);
	for (i = 0; i < r->nmembers; i++) {
		const struct clyde_loaded_member *m = &r->members[i];

		fputs("<tr><td>", f);
		clyde_html_esc(f, m->test);
		fputs("</td><td>", f);
		clyde_html_esc(f, m->device);
		fputs("</td>", f);
		bytes_cell(f, m->read_bytes);
		bytes_cell(f, m->write_bytes);
		fprintf(f,
			"<td class=\"num\">%" PRIu64 " / %" PRIu64 "</td>"
			"<td class=\"num\">",
			m->read_ios, m->write_ios);
		if (m->has_wa)
			fprintf(f, "%.2fx", m->wa);
		fprintf(f, "</td><td class=\"num\">%" PRIu64 " ms</td></tr>\n",
			m->io_ticks_ms);
	}
	fputs("</table>\n", f);
	if (!r->nmember_findings)
		return;
	fputs("<ul class=\"findings\">", f);
	for (i = 0; i < r->nmember_findings; i++) {
		fputs("<li>", f);
		clyde_html_esc(f, r->member_findings[i]);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

void clyde_html_members(FILE *f, const struct clyde_compare *cmp)
{
	bool fold = cmp->ncols > MEMBERS_OPEN_RUNS;
	size_t c;

	for (c = 0; c < cmp->ncols; c++)
		if (cmp->runs[c]->nmembers)
			break;
	if (c == cmp->ncols)
		return;
	fputs("<h2 id=\"members\">Member disks</h2>\n<p class=\"legend\">"
	      "What each device under the target read and wrote during each "
	      "test (the kernel's counters: other activity on the same disks "
	      "counts too), of the first repeat; write amplification is the "
	      "member&#8217;s writes over the bytes the test wrote.</p>\n",
	      f);
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		if (!r->nmembers)
			continue;
		fputs(fold ? "<details><summary>" : "<h3>", f);
		clyde_html_swatch(f, c);
		clyde_html_esc(f, cmp->labels[c]);
		fprintf(f, " (%zu row%s%s)", r->nmembers,
			r->nmembers == 1 ? "" : "s",
			r->nmember_findings ? ", findings" : "");
		fputs(fold ? "</summary>\n" : "</h3>\n", f);
		run_table(f, r);
		if (fold)
			fputs("</details>\n", f);
	}
}

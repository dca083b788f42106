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
#include <string.h>

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

/* Each test's own device figures: clyde's own (the kernel's accounting)
 * and the other I/O beside it, the write amplification, and whether it
 * started on a busy device. */
static void io_table(FILE *f, const struct clyde_loaded_run *r)
{
	size_t i;

	fputs("<table class=\"members\"><tr><th>test</th><th>read</th>"
	      "<th>written</th><th>other I/O during the test (r/w)</th>"
	      "<th>write ampl.</th><th>start</th></tr>\n",
	      f);
	for (i = 0; i < r->nios; i++) {
		const struct clyde_loaded_io *io = &r->ios[i];

		fputs("<tr><td>", f);
		clyde_html_esc(f, io->test);
		fputs("</td>", f);
		bytes_cell(f, io->read_bytes);
		bytes_cell(f, io->write_bytes);
		if (!io->attributed) {
			fputs("<td>not known: the devices&#8217; totals</td>",
			      f);
		} else {
			char a[64], b[64];

			clyde_fmt_human_bytes(a, sizeof(a),
					      (double)io->other_read_bytes);
			clyde_fmt_human_bytes(b, sizeof(b),
					      (double)io->other_write_bytes);
			fprintf(f,
				"<td class=\"num\" title=\"%" PRIu64
				" B / %" PRIu64 " B\">",
				io->other_read_bytes, io->other_write_bytes);
			clyde_html_esc(f, a);
			fputs(" / ", f);
			clyde_html_esc(f, b);
			fputs("</td>", f);
		}
		fputs("<td class=\"num\">", f);
		if (io->has_wa)
			fprintf(f, "%.2fx", io->wa);
		fputs("</td><td>", f);
		if (io->busy_start) {
			fputs("busy device: ", f);
			clyde_html_esc(f, io->busy_why);
		} else {
			fputs("idle", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void run_table(FILE *f, const struct clyde_loaded_run *r)
{
	size_t i;

	if (r->nios)
		io_table(f, r);
	if (!r->nmembers)
		goto findings;
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
		if (m->role[0] && strcmp(m->role, "data")) {
			fputs(" (", f);
			clyde_html_esc(f, m->role);
			fputc(')', f);
		}
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
findings:
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
		if (cmp->runs[c]->nmembers || cmp->runs[c]->nios)
			break;
	if (c == cmp->ncols)
		return;
	fputs("<h2 id=\"members\">Member disks</h2>\n<p class=\"legend\">"
	      "What each test read and wrote on the devices under the "
	      "target, of the first repeat: clyde&#8217;s own I/O where the "
	      "kernel&#8217;s accounting tells it (the process&#8217;s, or its "
	      "cgroup&#8217;s), summed over the member disks, with the other "
	      "I/O during the test beside it; write amplification is those "
	      "writes over the bytes the test wrote; a test that started while "
	      "the devices were still busy says so.  Then each member "
	      "device&#8217;s own counters (everything on it, in its role: a "
	      "journal or log device is marked).</p>\n",
	      f);
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		if (!r->nmembers && !r->nios)
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

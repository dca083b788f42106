#include "results/members_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/format.h"
#include "results/members_check.h"
#include "results/members_json.h"
#include "results/figures.h"
#include "results/stack_out.h"
#include "results/tree_result.h"

/* The worst loop residency of test id over the runs; < 0 when none. */
static double loop_worst(const struct clyde_run *runs, unsigned n,
			 enum clyde_test id,
			 const struct clyde_loopcache_seen **at)
{
	double worst = -1.0;

	for (unsigned i = 0; i < n; i++) {
		const struct clyde_test_result *t = &runs[i].tests[id];
		double f = clyde_loop_fraction(&t->cache.loop,
					       t->cache.total_bytes);

		if (t->state == CLYDE_DONE && f > worst) {
			worst = f;
			*at = &t->cache.loop;
		}
	}
	return worst;
}

static void write_loop(FILE *f, const struct clyde_run *runs, unsigned n)
{
	const struct clyde_loopcache_seen *any = NULL;

	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_loopcache_seen *l = NULL;
		double worst = loop_worst(runs, n, (enum clyde_test)i, &l);

		if (!l)
			continue;
		if (!any)
			any = l;
		if (worst < CLYDE_CACHE_WARN_FRACTION)
			continue;
		fprintf(f,
			"clyde: warning: %s: %.0f%% of its data was in the page "
			"cache of %s's backing file (no direct I/O);\n"
			"clyde: served from memory, not the storage: "
			"losetup --direct-io=on /dev/%s\n",
			clyde_test_label((enum clyde_test)i), worst * 100.0,
			l->dev, l->dev);
	}
	if (any && any->evicted)
		fprintf(f,
			"clyde: note: %s has no direct I/O: its backing file's "
			"pages were evicted before each read test\n"
			"clyde: note: (losetup --direct-io=on /dev/%s avoids the "
			"double caching)\n",
			any->dev, any->dev);
}

#define MEMBER_FMT "%-13s %-8s %10s %10s %8s %8s %7s %8s\n"

static void write_virt(FILE *f, const struct clyde_virt *v)
{
	if (v->is_virtual)
		fprintf(f,
			"clyde: note: %s is a virtual disk (%s, %s): the host "
			"may cache it;\n"
			"clyde: note: -D and repeats after a pause tell more\n",
			v->disk, v->kind, v->why);
}

/* One member row of the -v table under `first` (the test or phase). */
static void member_row(FILE *f, const char *first,
		       const struct clyde_member_io *m, double wa_k)
{
	char rd[CLYDE_FMT_LEN], wr[CLYDE_FMT_LEN];
	char ri[32], wi[32], wa[32], busy[CLYDE_FMT_LEN];
	char name[CLYDE_MEMBER_NAME + 16];

	clyde_fmt_human_bytes(rd, sizeof(rd), (double)m->io.read_bytes);
	clyde_fmt_human_bytes(wr, sizeof(wr), (double)m->io.write_bytes);
	snprintf(ri, sizeof(ri), "%llu", (unsigned long long)m->io.read_ios);
	snprintf(wi, sizeof(wi), "%llu", (unsigned long long)m->io.write_ios);
	if (wa_k >= 0.0)
		snprintf(wa, sizeof(wa), "%.2fx", wa_k);
	else
		snprintf(wa, sizeof(wa), "-");
	clyde_fmt_human_ns(busy, sizeof(busy), (double)m->io.io_ticks_ms * 1e6);
	/* A journal or log device says so: "loop1 (log)". */
	if (m->role != CLYDE_ROLE_DATA)
		snprintf(name, sizeof(name), "%s (%s)", m->name,
			 clyde_member_role_name(m->role));
	else
		snprintf(name, sizeof(name), "%s", m->name);
	fprintf(f, MEMBER_FMT, first, name, rd, wr, ri, wi, wa, busy);
}

void clyde_degraded_text(FILE *f, const char *prefix, const char *name,
			 const struct clyde_members *m)
{
	if (m->degraded[0])
		fprintf(f,
			"%swarning: %s: the array degraded during the test "
			"(%s): its figures are of a degraded array\n",
			prefix, name, m->degraded);
}

static void write_degraded(FILE *f, const struct clyde_run *runs, unsigned n)
{
	for (unsigned r = 0; r < n; r++)
		for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
			const struct clyde_test_result *t = &runs[r].tests[i];
			char name[64];

			if (t->state != CLYDE_DONE)
				continue;
			if (n > 1)
				snprintf(name, sizeof(name), "run %u: %s",
					 r + 1,
					 clyde_test_label((enum clyde_test)i));
			else
				snprintf(name, sizeof(name), "%s",
					 clyde_test_label((enum clyde_test)i));
			clyde_degraded_text(f, "clyde: ", name, &t->members);
		}
}

static void write_findings(FILE *f, const struct clyde_run *runs, unsigned n)
{
	for (unsigned r = 0; r < n; r++)
		for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
			enum clyde_test id = (enum clyde_test)i;
			struct clyde_members_verdict v;
			char text[2048], *line, *save = NULL;

			if (runs[r].tests[i].state != CLYDE_DONE)
				continue;
			clyde_members_check_run(&runs[r], id, &v);
			if (!clyde_members_run_findings(text, sizeof(text),
							&runs[r], id, &v))
				continue;
			for (line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				if (n > 1)
					fprintf(f,
						"clyde: members: run %u: %s\n",
						r + 1, line);
				else
					fprintf(f, "clyde: members: %s\n",
						line);
		}
}

static void write_table(FILE *f, const struct clyde_run *runs, unsigned n)
{
	bool header = false;

	for (unsigned r = 0; r < n; r++)
		for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
			const struct clyde_test_result *t = &runs[r].tests[i];
			struct clyde_members_verdict v;

			if (t->state != CLYDE_DONE || !t->members.n)
				continue;
			if (!header) {
				fputs("clyde: per member and test\n", f);
				fprintf(f, MEMBER_FMT, "test", "member", "read",
					"written", "r-ios", "w-ios", "WA",
					"busy");
				header = true;
			}
			clyde_members_check_run(&runs[r], (enum clyde_test)i,
						&v);
			for (unsigned k = 0; k < t->members.n; k++)
				if (t->members.m[k].io.have_device)
					member_row(
						f,
						k ? "" :
						    clyde_test_name(
							    (enum clyde_test)i),
						&t->members.m[k], v.wa[k]);
		}
}

int clyde_members_text_write(FILE *f, const struct clyde_run *runs, unsigned n,
			     bool verbose)
{
	const struct clyde_virt *v;

	if (!n || !runs)
		return -EINVAL;
	errno = 0;
	write_loop(f, runs, n);
	clyde_figs_text(f, runs, n);
	v = &runs[0].env.virt;
	write_virt(f, v);
	write_degraded(f, runs, n);
	write_findings(f, runs, n);
	if (verbose)
		write_table(f, runs, n);
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

int clyde_advice_section(FILE *f, const struct clyde_stack *s,
			 unsigned workload)
{
	struct clyde_advice_list *l = malloc(sizeof(*l));

	if (!l)
		return -ENOMEM;
	clyde_advise(s, workload, l);
	errno = 0;
	if (l->n) {
		/* Every line of clyde's section starts with "clyde: ". */
		char *text = NULL, *line, *save = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (m) {
			clyde_advice_text(m, l);
			fclose(m);
			for (line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				fprintf(f, "clyde: %s\n", line);
			free(text);
		}
	}
	free(l);
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

int clyde_members_tree_text_write(FILE *f, const struct clyde_tree_run *run,
				  bool verbose)
{
	bool header = false;

	errno = 0;
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		const struct clyde_tree_phase_result *r = &run->phases[p];
		const char *name =
			clyde_tree_phase_name((enum clyde_tree_phase)p);
		double lf = clyde_loop_fraction(&r->loop, r->bytes);

		if (r->ran && lf >= CLYDE_CACHE_WARN_FRACTION)
			fprintf(f,
				"clyde: warning: %s: %.0f%% of its data was in "
				"the page cache of %s's backing file (no direct "
				"I/O);\n"
				"clyde: served from memory, not the storage: "
				"losetup --direct-io=on /dev/%s\n",
				name, lf * 100.0, r->loop.dev, r->loop.dev);
	}
	write_virt(f, &run->env.virt);
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++)
		if (run->phases[p].ran)
			clyde_degraded_text(
				f, "clyde: ",
				clyde_tree_phase_name((enum clyde_tree_phase)p),
				&run->phases[p].members);
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		struct clyde_members_verdict v;
		char text[2048], *line, *save = NULL;

		if (!run->phases[p].ran)
			continue;
		clyde_tree_members_check(run, p, &v, text, sizeof(text));
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			fprintf(f, "clyde: members: %s\n", line);
	}
	for (int p = 0; verbose && p < CLYDE_TREE_PHASE_COUNT; p++) {
		const struct clyde_tree_phase_result *r = &run->phases[p];
		struct clyde_members_verdict v;
		char text[2048];

		if (!r->ran || !r->members.n)
			continue;
		if (!header) {
			fputs("clyde: per member and phase\n", f);
			fprintf(f, MEMBER_FMT, "phase", "member", "read",
				"written", "r-ios", "w-ios", "WA", "busy");
			header = true;
		}
		clyde_tree_members_check(run, p, &v, text, sizeof(text));
		for (unsigned k = 0; k < r->members.n; k++)
			if (r->members.m[k].io.have_device)
				member_row(f,
					   k ? "" :
					       clyde_tree_phase_name((
						       enum clyde_tree_phase)p),
					   &r->members.m[k], v.wa[k]);
	}
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

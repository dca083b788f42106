#include "results/dev_out.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "results/dev_load_out.h"
#include "results/format.h"
#include "core/json_out.h"
#include "results/json_parts.h"
#include "results/members_check.h"
#include "results/members_json.h"
#include "results/members_text.h"
#include "results/run_out.h"
#include "results/series_out.h"
#include "results/stack_out.h"
#include "results/testio.h"

static const char *label_of(const struct clyde_dev_run *run)
{
	return run->cfg.label[0] ? run->cfg.label : run->env.machine.host;
}

static const char *test_name(int t)
{
	return clyde_dev_test_name((enum clyde_dev_test)t);
}

/* The request size of a test. */
static uint64_t test_bs(const struct clyde_dev_run *run, int t)
{
	if (t == CLYDE_DEV_ZCAV)
		return run->cfg.zcav.chunk_bytes;
	if (t == CLYDE_DEV_SEQWRITE || t == CLYDE_DEV_SEQREAD)
		return run->cfg.bs;
	return run->cfg.rand_bs;
}

/* The depth asked for (zcav: one request at a time, as zcav(8)). */
static unsigned test_depth(const struct clyde_dev_run *run, int t)
{
	return t == CLYDE_DEV_ZCAV ? 1 : run->cfg.iodepth;
}

/* What ran: the notes under the table. */
static void text_notes(FILE *f, const struct clyde_dev_run *run)
{
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];

		if (r->ran && r->inflight_max != test_depth(run, t))
			fprintf(f,
				"%s: at most %u requests in flight of "
				"--iodepth %u (%" PRIu64 " requests)\n",
				test_name(t), r->inflight_max,
				test_depth(run, t), r->ops);
	}
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];
		struct clyde_dev_depth d;

		clyde_dev_depth(run, (enum clyde_dev_test)t, &d);
		if (!d.measured)
			continue;
		fprintf(f, "%s: depth %u asked", test_name(t), d.asked);
		if (r->inflight_mean > 0)
			fprintf(f, ", %.1f in flight in clyde (mean)",
				r->inflight_mean);
		fprintf(f,
			", %.1f at the device (time in queue / wall time, "
			"iostat's aqu-sz)%s%s\n",
			d.device, d.why[0] ? ": " : "", d.why);
	}
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];
		char cell[128];

		if (!r->ran || t == CLYDE_DEV_ZCAV)
			continue;
		clyde_series_steady_cell(cell, sizeof(cell), &r->series, true);
		if (cell[0])
			fprintf(f, "%s: steadiness %s\n", test_name(t), cell);
		if (run->cfg.steady_pct > 0)
			fprintf(f,
				r->steady ? "%s: steady after %.3g s (IOPS "
					    "slope within %.3g%%/s over %u "
					    "intervals)\n" :
					    "%s: not steady within --runtime "
					    "(%.3g s; IOPS slope within "
					    "%.3g%%/s over %u intervals)\n",
				test_name(t),
				(double)(r->steady ? r->steady_ns :
						     run->cfg.runtime_ns) /
					1e9,
				run->cfg.steady_pct, run->cfg.steady_window);
	}
	if (run->memory_reason[0])
		fprintf(f,
			"memory: %s; the figures marked so are the page "
			"cache's, not the device's\n",
			run->memory_reason);
	if (run->tests[CLYDE_DEV_ZCAV].ran)
		clyde_zcav_flags_line(f, run, "");
}

static bool test_writes(const struct clyde_dev_run *run, int t)
{
	return t == CLYDE_DEV_SEQWRITE || t == CLYDE_DEV_RANDWRITE ||
	       (t == CLYDE_DEV_ZCAV && run->cfg.zcav.write);
}

/* The members' verdict of test t alone. */
static void members_check_one(const struct clyde_dev_run *run, int t,
			      struct clyde_members_verdict *v)
{
	const struct clyde_dev_test_result *r = &run->tests[t];
	bool wr = test_writes(run, t);

	struct clyde_members_ctx c;

	clyde_members_ctx_of(
		&run->env.stack, &r->members, &r->dev,
		wr && clyde_members_parity_possible(&run->env.stack),
		wr ? r->bytes : 0, &c);
	clyde_members_check_in(&r->members, &c, v);
}

/* The members' verdict of test t and its sentences (one per line): a
 * writing test on a stack that may have parity is checked for
 * read-modify-write, its request size being the chunk written. */
static void members_verdict(const struct clyde_dev_run *run, int t,
			    struct clyde_members_verdict *v, char *text,
			    size_t n)
{
	const struct clyde_dev_test_result *r = &run->tests[t];
	bool wr = test_writes(run, t);
	struct clyde_stack_stripe st;

	members_check_one(run, t, v);
	/* A slow member is confirmed over the run's tests, as clyde run's
	 * (results/members_check.c): slow in most of those that compared. */
	{
		unsigned slow = 0, compared = 0;

		for (int q = 0; q < CLYDE_DEV_TEST_COUNT; q++) {
			const struct clyde_members *mq = &run->tests[q].members;
			struct clyde_members_verdict o;

			if (!run->tests[q].ran)
				continue;
			members_check_one(run, q, &o);
			if (!o.slow_compared)
				continue;
			compared++;
			if (v->slow_candidate && o.slow_candidate &&
			    !strcmp(mq->m[o.slow].name,
				    r->members.m[v->slow].name))
				slow++;
		}
		clyde_members_confirm_slow(v, slow, compared);
	}
	clyde_members_findings(text, n, test_name(t), &r->members, v,
			       clyde_stack_stripe(&run->env.stack, &st) ? NULL :
									  &st,
			       wr ? (uint32_t)test_bs(run, t) : 0);
}

/*
 * Lost writes without --verify (results/testio.h): what the storage under
 * the device took (its leaves, when counted; else the device's own
 * counters) against what write test t wrote.  Returns the ratio, < 0
 * when it cannot be judged; *lost when it is far too little.
 */
static double dev_took(const struct clyde_dev_run *run, int t, bool *lost)
{
	const struct clyde_dev_test_result *r = &run->tests[t];
	struct clyde_members_verdict v;
	double wa = -1.0;

	*lost = false;
	if (!r->ran || !test_writes(run, t) || !r->bytes)
		return -1.0;
	members_check_one(run, t, &v);
	if (v.counted)
		wa = (double)v.write_bytes / (double)r->bytes;
	else if (r->dev.have_device)
		wa = (double)r->dev.write_bytes / (double)r->bytes;
	*lost = clyde_test_io_lost(wa, r->bytes, run->range_bytes,
				   run->cfg.zeros, &run->env.stack);
	return wa;
}

static void text_lost(FILE *f, const struct clyde_dev_run *run)
{
	char a[32];

	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		bool lost;
		double wa = dev_took(run, t, &lost);

		if (run->tests[t].verified_blocks)
			fprintf(f,
				"verify: %s: %" PRIu64 " blocks read back, "
				"every one as written\n",
				test_name(t), run->tests[t].verified_blocks);
		if (!lost)
			continue;
		fprintf(f,
			"warning: %s: the devices took %.2fx of the %s "
			"written, less than %.2fx: lost writes? (--verify "
			"reads every block back)\n",
			test_name(t), wa,
			clyde_fmt_human_bytes(a, sizeof(a),
					      (double)run->tests[t].bytes),
			CLYDE_WA_LOST);
	}
}

/* Are the members more than the device itself (an array, an LV)? */
static bool has_members(const struct clyde_dev_run *run)
{
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++)
		if (run->tests[t].ran && run->tests[t].members.n > 1)
			return true;
	return false;
}

/* Each member's bytes per test, then the findings (clyde run's). */
static void text_members(FILE *f, const struct clyde_dev_run *run)
{
	char a[32], b[32], wa[32], text[2048];

	if (!has_members(run))
		return;
	fprintf(f, "\nmembers of %s:\n", run->cfg.path);
	fprintf(f, "%-10s %-8s %11s %11s %7s\n", "test", "member", "read",
		"write", "WA");
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];
		struct clyde_members_verdict v;

		if (!r->ran)
			continue;
		members_verdict(run, t, &v, text, sizeof(text));
		for (unsigned i = 0; i < r->members.n; i++) {
			const struct clyde_member_io *m = &r->members.m[i];

			if (!m->io.have_device) {
				fprintf(f, "%-10s %-8s %11s %11s %7s\n",
					test_name(t), m->name, "?", "?", "-");
				continue;
			}
			if (v.wa[i] >= 0.0)
				snprintf(wa, sizeof(wa), "%.2fx", v.wa[i]);
			else
				snprintf(wa, sizeof(wa), "-");
			fprintf(f, "%-10s %-8s %11s %11s %7s\n", test_name(t),
				m->name,
				clyde_fmt_human_bytes(a, sizeof(a),
						      (double)m->io.read_bytes),
				clyde_fmt_human_bytes(b, sizeof(b),
						      (double)m->io.write_bytes),
				wa);
		}
		if (v.counted) {
			if (v.wa_array >= 0.0)
				snprintf(wa, sizeof(wa), "%.2fx", v.wa_array);
			else
				snprintf(wa, sizeof(wa), "-");
			fprintf(f, "%-10s %-8s %11s %11s %7s\n", test_name(t),
				"all",
				clyde_fmt_human_bytes(a, sizeof(a),
						      (double)v.read_bytes),
				clyde_fmt_human_bytes(b, sizeof(b),
						      (double)v.write_bytes),
				wa);
		}
		if (text[0]) {
			char *line, *save = NULL;

			for (line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				fprintf(f, "finding: %s\n", line);
		}
	}
}

/* ---- text -------------------------------------------------------------- */

int clyde_dev_text_write(FILE *f, const struct clyde_dev_run *run,
			 const char *version)
{
	const struct clyde_dev_config *c = &run->cfg;
	char a[32], b[32], d[32], e[32], g[32], h[32];

	errno = 0;
	fprintf(f, "clyde %s dev  %s  %s\n", version, label_of(run), c->path);
	fprintf(f,
		"%s %s, logical block %u B, range %s at offset %s; "
		"engine %s, data %s\n",
		clyde_fmt_human_bytes(a, sizeof(a), (double)run->device_bytes),
		run->is_block_device ? "block device" : "regular file",
		run->logical_block,
		clyde_fmt_human_bytes(b, sizeof(b), (double)run->range_bytes),
		clyde_fmt_human_bytes(d, sizeof(d), (double)c->offset),
		c->engine, c->zeros ? "zeros" : "random");
	if (c->runtime_ns)
		fprintf(f,
			"by time: each test %.3g s after a ramp of %.3g s "
			"that counts in no figure\n",
			(double)c->runtime_ns / 1e9, (double)c->ramp_ns / 1e9);
	fprintf(f, "%-10s %9s %5s %12s %10s %10s %10s %10s %5s %11s %11s\n",
		"test", "bs", "depth", "rate", "IOPS", "lat mean", "lat p99",
		"lat max", "%CPU", "dev read", "dev write");
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];
		double rate = clyde_dev_rate(r->bytes, r->elapsed_ns);
		double cpu = r->elapsed_ns ?
				     (double)(r->cpu_user_ns + r->cpu_sys_ns) *
					     100.0 / (double)r->elapsed_ns :
				     0;

		if (!r->ran)
			continue;
		clyde_fmt_human_bytes(a, sizeof(a), (double)test_bs(run, t));
		clyde_fmt_human_rate(b, sizeof(b), rate, CLYDE_PUT_BLOCK);
		clyde_fmt_human_ns(d, sizeof(d), clyde_hist_mean(r->latency));
		clyde_fmt_human_ns(e, sizeof(e),
				   (double)clyde_hist_quantile(r->latency,
							       0.99));
		clyde_fmt_human_ns(g, sizeof(g),
				   (double)clyde_hist_max(r->latency));
		fprintf(f, "%-10s %9s %5u %12s %10.0f %10s %10s %10s %5.0f ",
			clyde_dev_test_name((enum clyde_dev_test)t), a,
			r->inflight_max, b,
			clyde_dev_rate(r->ops, r->elapsed_ns), d, e, g, cpu);
		if (r->dev.have_device)
			fprintf(f, "%11s %11s",
				clyde_fmt_human_bytes(h, sizeof(h),
						      (double)r->dev.read_bytes),
				clyde_fmt_human_bytes(
					a, sizeof(a),
					(double)r->dev.write_bytes));
		else
			fprintf(f, "%11s %11s", "-", "-");
		fputs(r->from_memory ? "  memory\n" : "\n", f);
	}
	text_notes(f, run);
	clyde_dev_load_text(f, run);
	text_lost(f, run);
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++)
		if (run->tests[t].ran)
			clyde_degraded_text(f, "", test_name(t),
					    &run->tests[t].members);
	text_members(f, run);
	return clyde_out_finish(f);
}

/* ---- JSON -------------------------------------------------------------- */

static void json_config(struct clyde_jw *w, const struct clyde_dev_run *run)
{
	const struct clyde_dev_config *c = &run->cfg;

	clyde_jw_open(w, "config", '{');
	clyde_jw_open(w, "tests", '[');
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++)
		if (c->tests & CLYDE_DEV_BIT(t))
			clyde_jw_str(
				w, NULL,
				clyde_dev_test_name((enum clyde_dev_test)t),
				16);
	clyde_jw_close(w, ']');
	clyde_jw_str(w, "engine", c->engine, sizeof(c->engine));
	clyde_jw_u64(w, "iodepth", c->iodepth);
	clyde_jw_u64(w, "iodepth_batch", c->iodepth_batch);
	clyde_jw_str(w, "pattern", c->zeros ? "zeros" : "random", 8);
	clyde_jw_bool(w, "verify", c->verify);
	clyde_jw_u64(w, "bs", c->bs);
	clyde_jw_u64(w, "rand_bs", c->rand_bs);
	clyde_jw_u64(w, "rand_ops", c->rand_ops);
	clyde_jw_u64(w, "runtime_ns", c->runtime_ns);
	clyde_jw_u64(w, "ramp_ns", c->ramp_ns);
	clyde_jw_u64(w, "log_interval_ns", c->log_interval_ns);
	if (c->steady_pct > 0)
		clyde_jw_num(w, "until_steady_pct", c->steady_pct, 3);
	else
		clyde_jw_null(w, "until_steady_pct");
	clyde_jw_u64(w, "steady_window", c->steady_window);
	clyde_jw_u64(w, "offset", c->offset);
	clyde_jw_u64(w, "size", run->range_bytes);
	clyde_jw_bool(w, "destroy_data", c->destroy_data);
	clyde_jw_bool(w, "direct", true);
	clyde_jw_str(w, "buffer_pages",
		     clyde_iobuf_pages_name(run->buffer_pages), 16);
	clyde_jw_u64(w, "seed", c->seed);
	clyde_dev_load_json_config(w, c);
	clyde_jw_open(w, "zcav", '{');
	clyde_jw_u64(w, "block_bytes", c->zcav.block_bytes);
	clyde_jw_u64(w, "chunk_bytes", c->zcav.chunk_bytes);
	clyde_jw_u64(w, "loops", c->zcav.loops);
	clyde_jw_u64(w, "skip", c->zcav.skip);
	clyde_jw_bool(w, "write", c->zcav.write);
	clyde_jw_close(w, '}');
	clyde_jw_close(w, '}');
}

/* The depth at the device beside the depth asked (clyde_dev_depth):
 * null where the device's counters were not read. */
static void json_depth(struct clyde_jw *w, const struct clyde_dev_run *run,
		       int t)
{
	struct clyde_dev_depth d;

	clyde_dev_depth(run, (enum clyde_dev_test)t, &d);
	clyde_jw_u64(w, "window_ns", run->tests[t].window_ns);
	if (!d.measured) {
		clyde_jw_null(w, "time_in_queue_ms");
		clyde_jw_null(w, "depth_device");
		clyde_jw_null(w, "busy_share");
		clyde_jw_null(w, "depth_note");
		return;
	}
	clyde_jw_u64(w, "time_in_queue_ms", run->tests[t].dev.time_in_queue_ms);
	clyde_jw_num(w, "depth_device", d.device, 2);
	clyde_jw_num(w, "busy_share", d.busy_share, 3);
	if (d.why[0])
		clyde_jw_str(w, "depth_note", d.why, sizeof(d.why));
	else
		clyde_jw_null(w, "depth_note");
}

static void json_test(struct clyde_jw *w, const struct clyde_dev_run *run,
		      int t)
{
	const struct clyde_dev_test_result *r = &run->tests[t];
	bool wr = t == CLYDE_DEV_SEQWRITE || t == CLYDE_DEV_RANDWRITE ||
		  (t == CLYDE_DEV_ZCAV && run->cfg.zcav.write),
	     lost;
	double took = dev_took(run, t, &lost);

	clyde_jw_open(w, NULL, '{');
	clyde_jw_str(w, "name", clyde_dev_test_name((enum clyde_dev_test)t),
		     16);
	clyde_jw_str(w, "state", "done", 8);
	clyde_jw_bool(w, "writes", wr);
	clyde_jw_u64(w, "bs", test_bs(run, t));
	clyde_jw_u64(w, "iodepth", test_depth(run, t));
	clyde_jw_u64(w, "inflight_max", r->inflight_max);
	if (r->inflight_mean > 0)
		clyde_jw_num(w, "inflight_mean", r->inflight_mean, 2);
	else
		clyde_jw_null(w, "inflight_mean");
	json_depth(w, run, t);
	if (r->submit_calls)
		clyde_jw_num(w, "submit_mean",
			     (double)r->submitted / (double)r->submit_calls, 2);
	else
		clyde_jw_null(w, "submit_mean");
	clyde_jw_bool(w, "from_memory", r->from_memory);
	clyde_jw_open(w, "cache", '{');
	if (r->backing_measured) {
		clyde_jw_u64(w, "backing_resident_bytes",
			     r->backing_resident_bytes);
		clyde_jw_u64(w, "backing_range_bytes", r->backing_range_bytes);
	}
	if (r->file_measured) {
		clyde_jw_u64(w, "file_resident_before",
			     r->file_resident_before);
		clyde_jw_u64(w, "file_resident_after", r->file_resident_after);
	}
	clyde_jw_close(w, '}');
	clyde_jw_u64(w, "bytes", r->bytes);
	clyde_jw_u64(w, "ops", r->ops);
	clyde_jw_u64(w, "elapsed_ns", r->elapsed_ns);
	clyde_jw_u64(w, "ramp_ops", r->ramp_ops);
	clyde_jw_u64(w, "verified_blocks", r->verified_blocks);
	if (took >= 0.0)
		clyde_jw_num(w, "storage_write_ratio", took, 4);
	else
		clyde_jw_null(w, "storage_write_ratio");
	clyde_jw_bool(w, "writes_lost", lost);
	clyde_jw_u64(w, "cpu_user_ns", r->cpu_user_ns);
	clyde_jw_u64(w, "cpu_sys_ns", r->cpu_sys_ns);
	clyde_jw_num(w, "bytes_per_s", clyde_dev_rate(r->bytes, r->elapsed_ns),
		     3);
	clyde_jw_num(w, "iops", clyde_dev_rate(r->ops, r->elapsed_ns), 3);
	clyde_jw_latency(w, "latency", r->latency, 1);
	clyde_jw_series(w, "series", &r->series);
	clyde_jw_steadiness(w, "steadiness", &r->series, true);
	if (run->cfg.steady_pct > 0) {
		clyde_jw_bool(w, "steady", r->steady);
		if (r->steady)
			clyde_jw_u64(w, "steady_ns", r->steady_ns);
		else
			clyde_jw_null(w, "steady_ns");
	}
	clyde_jw_device(w, &r->dev, wr ? r->bytes : 0);
	clyde_dev_load_json(w, run, t);
	/* Figures measured while an array lost a member are flagged. */
	clyde_jw_degraded(w, &r->members);
	if (r->members.n) {
		struct clyde_members_verdict v;
		char text[2048];

		members_verdict(run, t, &v, text, sizeof(text));
		clyde_jw_members_of(w, &r->members, &v, text);
	}
	clyde_jw_close(w, '}');
}

static void json_zcav(struct clyde_jw *w, const struct clyde_dev_run *run)
{
	const struct clyde_zcav_result *z = &run->zcav;
	size_t imprecise, holes;
	size_t nflag = clyde_zcav_flag_counts(z, &imprecise, &holes);

	clyde_jw_open(w, "zcav", '{');
	clyde_jw_u64(w, "loops", z->loops_done);
	clyde_jw_bool(w, "write", run->cfg.zcav.write);
	if (z->holes_file[0])
		clyde_jw_str(w, "holes_file", z->holes_file,
			     sizeof(z->holes_file));
	else
		clyde_jw_null(w, "holes_file");
	clyde_jw_u64(w, "flagged", nflag);
	clyde_jw_u64(w, "imprecise", imprecise);
	clyde_jw_u64(w, "over_holes", holes);
	clyde_jw_open(w, "points", '[');
	for (size_t i = 0; i < z->npoints; i++) {
		const struct clyde_zcav_point *p = &z->points[i];

		clyde_jw_open(w, NULL, '{');
		clyde_jw_u64(w, "offset_bytes", p->offset_bytes);
		clyde_jw_u64(w, "bytes", p->bytes);
		clyde_jw_u64(w, "elapsed_ns", p->ns);
		clyde_jw_num(w, "mib_per_s",
			     clyde_dev_rate(p->bytes, p->ns) / 1048576.0, 3);
		clyde_jw_bool(w, "flagged", clyde_zcav_point_flagged(p));
		clyde_jw_bool(w, "imprecise", p->imprecise);
		if (p->holes_checked)
			clyde_jw_u64(w, "hole_bytes", p->hole_bytes);
		else
			clyde_jw_null(w, "hole_bytes");
		clyde_jw_open(w, "loop_ns", '[');
		for (uint32_t l = 0; l < z->loops_done; l++) {
			clyde_jw_member(w, NULL);
			fprintf(w->f, "%" PRIu64, p->loop_ns[l]);
		}
		clyde_jw_close(w, ']');
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

int clyde_dev_json_write(FILE *f, const struct clyde_dev_run *run,
			 const char *version)
{
	struct clyde_jw w = { .f = f };

	errno = 0;
	clyde_jw_run_head(&w, "dev", version, run->cfg.label,
			  sizeof(run->cfg.label), run->started_unix, &run->env);
	if (clyde_jw_stack_advice(&w, &run->env.stack,
				  clyde_dev_advise(&run->cfg)) < 0)
		return -ENOMEM;
	json_config(&w, run);
	clyde_jw_open(&w, "device", '{');
	clyde_jw_str(&w, "path", run->cfg.path, sizeof(run->cfg.path));
	clyde_jw_bool(&w, "block_device", run->is_block_device);
	clyde_jw_u64(&w, "size_bytes", run->device_bytes);
	clyde_jw_u64(&w, "logical_block_size", run->logical_block);
	if (run->memory_reason[0])
		clyde_jw_str(&w, "memory_reason", run->memory_reason,
			     sizeof(run->memory_reason));
	else
		clyde_jw_null(&w, "memory_reason");
	clyde_jw_close(&w, '}');
	clyde_jw_open(&w, "runs", '[');
	clyde_jw_open(&w, NULL, '{');
	clyde_jw_u64(&w, "index", 0);
	clyde_jw_u64(&w, "seed", run->cfg.seed);
	clyde_jw_open(&w, "tests", '[');
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++)
		if (run->tests[t].ran)
			json_test(&w, run, t);
	clyde_jw_close(&w, ']');
	if (run->tests[CLYDE_DEV_ZCAV].ran)
		json_zcav(&w, run);
	clyde_jw_close(&w, '}');
	clyde_jw_close(&w, ']');
	/* One run: the mean is the value and there is no spread to give. */
	clyde_jw_open(&w, "summary", '[');
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];

		if (!r->ran)
			continue;
		clyde_jw_open(&w, NULL, '{');
		clyde_jw_summary_one(&w, test_name(t), "B/s",
				     clyde_dev_rate(r->bytes, r->elapsed_ns));
		clyde_jw_close(&w, '}');
	}
	clyde_jw_close(&w, ']');
	clyde_jw_close(&w, '}');
	fputc('\n', f);
	return clyde_out_finish(f);
}

/* ---- CSV --------------------------------------------------------------- */

static const char *const run_fields[CLYDE_DEV_CSV_RUN_FIELDS] = {
	"format", "clyde_version", "label",	    "host",   "started_unix",
	"path",	  "size_bytes",	   "logical_block", "offset", "range_bytes",
	"engine", "iodepth",	   "pattern",	    "seed",
};

static const char *const test_fields[CLYDE_DEV_CSV_TEST_FIELDS] = {
	"bs",		"bytes_per_s",	  "iops",
	"lat_mean_ns",	"lat_p99_ns",	  "lat_max_ns",
	"cpu_pct",	"dev_read_bytes", "dev_write_bytes",
	"inflight_max", "from_memory",
};

int clyde_dev_csv_header(FILE *f)
{
	return clyde_out_csv_header(f, run_fields, CLYDE_DEV_CSV_RUN_FIELDS,
				    test_name, CLYDE_DEV_TEST_COUNT,
				    test_fields, CLYDE_DEV_CSV_TEST_FIELDS);
}

int clyde_dev_csv_write(FILE *f, const struct clyde_dev_run *run,
			const char *version)
{
	const struct clyde_dev_config *c = &run->cfg;
	char n[64];

	errno = 0;
	fprintf(f, "%s,", CLYDE_DEV_CSV_FORMAT);
	clyde_fmt_csv_field(f, version);
	fputc(',', f);
	clyde_fmt_csv_field(f, label_of(run));
	fputc(',', f);
	clyde_fmt_csv_field(f, run->env.machine.host);
	fprintf(f, ",%" PRIu64 ",", run->started_unix);
	clyde_fmt_csv_field(f, c->path);
	fprintf(f, ",%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%s,%u,%s,%" PRIu64,
		run->device_bytes, run->logical_block, c->offset,
		run->range_bytes, c->engine, c->iodepth,
		c->zeros ? "zeros" : "random", c->seed);
	for (int t = 0; t < CLYDE_DEV_TEST_COUNT; t++) {
		const struct clyde_dev_test_result *r = &run->tests[t];

		if (!r->ran) {
			for (int i = 0; i < CLYDE_DEV_CSV_TEST_FIELDS; i++)
				fputc(',', f);
			continue;
		}
		fprintf(f, ",%" PRIu64, test_bs(run, t));
		fprintf(f, ",%s",
			clyde_fmt_double(
				n, sizeof(n),
				clyde_dev_rate(r->bytes, r->elapsed_ns), 3));
		fprintf(f, ",%s",
			clyde_fmt_double(n, sizeof(n),
					 clyde_dev_rate(r->ops, r->elapsed_ns),
					 3));
		fprintf(f, ",%.0f,%" PRIu64 ",%" PRIu64,
			clyde_hist_mean(r->latency),
			clyde_hist_quantile(r->latency, 0.99),
			clyde_hist_max(r->latency));
		fprintf(f, ",%s",
			clyde_fmt_double(n, sizeof(n),
					 r->elapsed_ns ?
						 (double)(r->cpu_user_ns +
							  r->cpu_sys_ns) *
							 100.0 /
							 (double)r->elapsed_ns :
						 0,
					 1));
		if (r->dev.have_device)
			fprintf(f, ",%" PRIu64 ",%" PRIu64, r->dev.read_bytes,
				r->dev.write_bytes);
		else
			fputs(",,", f);
		fprintf(f, ",%u,%d", (unsigned)r->inflight_max,
			r->from_memory ? 1 : 0);
	}
	fputc('\n', f);
	return clyde_out_finish(f);
}

int clyde_dev_csv_check(const char *path, char *why, size_t len)
{
	char *want = NULL, *line = NULL;
	size_t wn = 0, cap = 0, nf = 1;
	ssize_t got;
	FILE *m, *f = fopen(path, "r");
	int rc = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	got = getline(&line, &cap, f);
	fclose(f);
	if (got <= 0) {
		free(line);
		return 0; /* empty: a header is written first */
	}
	while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
		line[--got] = '\0';
	m = open_memstream(&want, &wn);
	if (!m || clyde_dev_csv_header(m) < 0) {
		if (m)
			fclose(m);
		free(want);
		free(line);
		return -ENOMEM;
	}
	fclose(m);
	while (wn > 0 && (want[wn - 1] == '\n' || want[wn - 1] == '\r'))
		want[--wn] = '\0';
	if (strcmp(line, want)) {
		for (char *q = line; *q; q++)
			nf += *q == ',';
		snprintf(why, len,
			 "its first line is not the %s header (%zu fields; "
			 "this clyde writes %d): give a new file, or move "
			 "that one away",
			 CLYDE_DEV_CSV_FORMAT, nf, CLYDE_DEV_CSV_FIELDS);
		rc = -EINVAL;
	}
	free(want);
	free(line);
	return rc;
}

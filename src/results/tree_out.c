/*
 * Text, JSON and CSV for `clyde tree` runs.  Workloads hand over raw
 * integers; rates, MB and percentages are made here and only here.
 */
#include "results/tree_out.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "env/advise.h"
#include "results/format.h"
#include "core/json_out.h"
#include "results/json_parts.h"
#include "results/members_json.h"
#include "results/testio.h"
#include "results/run_out.h"

#define MB 1e6

static const char *phase_name(int p)
{
	return clyde_tree_phase_name((enum clyde_tree_phase)p);
}

static bool phase_ran(const struct clyde_tree_run *run, int p)
{
	return run->phases[p].ran;
}

static double cpu_pct(const struct clyde_tree_phase_result *r)
{
	if (!r->elapsed_ns)
		return 0;
	return (double)(r->cpu_user_ns + r->cpu_sys_ns) * 100.0 /
	       (double)r->elapsed_ns;
}

static uint64_t errors_total(const struct clyde_tree_errors *e)
{
	return e->permission_denied + e->vanished + e->loops + e->other;
}

static const char *pattern_name(const struct clyde_tree_config *c)
{
	return c->zeros ? "zeros" : "random";
}

/* A duration for people: "850ns", "12.3us", "4.56ms", "1.23s". */
static char *fmt_ns(char *buf, size_t len, uint64_t ns)
{
	char num[CLYDE_FMT_LEN];

	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%sus",
			 clyde_fmt_double(num, sizeof(num), ns / 1e3, 1));
	else if (ns < 1000000000)
		snprintf(buf, len, "%sms",
			 clyde_fmt_double(num, sizeof(num), ns / 1e6, 2));
	else
		snprintf(buf, len, "%ss",
			 clyde_fmt_double(num, sizeof(num), ns / 1e9, 2));
	return buf;
}

/* ---- text ---------------------------------------------------------------- */

static void text_header(FILE *f, const struct clyde_tree_run *run,
			const char *version)
{
	const struct clyde_target *t = &run->env.target;
	const struct clyde_machine *m = &run->env.machine;
	char num[CLYDE_FMT_LEN], dist[128];

	fprintf(f, "clyde %s tree", version);
	if (run->cfg.label[0])
		fprintf(f, "  %s", run->cfg.label);
	fputc('\n', f);
	if (run->generated) {
		fprintf(f,
			"tree     %s (generated: %" PRIu64 " files, %" PRIu64
			" dirs, %s MB, depth %u, fanout %u, seed %" PRIu64
			")\n",
			run->root, run->plan_files, run->plan_dirs,
			clyde_fmt_double(num, sizeof(num),
					 (double)run->plan_bytes / MB, 1),
			run->plan_depth, run->plan_fanout, run->cfg.seed);
		fprintf(f, "sizes    %s%s%s\n",
			clyde_size_dist_format(dist, sizeof(dist),
					       &run->cfg.shape.size),
			run->cfg.preset[0] ? ", preset " : "", run->cfg.preset);
	} else {
		fprintf(f, "tree     %s (existing, read-only)\n", run->root);
	}
	fprintf(f, "target   %s %s on %s (%s)\n",
		t->fstype[0] ? t->fstype : "?", t->source[0] ? t->source : "?",
		t->mount_point[0] ? t->mount_point : "?", t->mount_opts);
	fprintf(f, "machine  %s, %u CPUs, %s GiB RAM, kernel %s\n", m->host,
		m->ncpu,
		clyde_fmt_double(num, sizeof(num),
				 (double)m->ram_bytes / (1024.0 * 1024 * 1024),
				 1),
		m->kernel);
}

static void text_phase_row(FILE *f, int p,
			   const struct clyde_tree_phase_result *r)
{
	char a[CLYDE_FMT_LEN], b[CLYDE_FMT_LEN], c[CLYDE_FMT_LEN],
		d[CLYDE_FMT_LEN], e[CLYDE_FMT_LEN];

	fprintf(f,
		"%-14s %3u %9" PRIu64 " %9" PRIu64 " %8" PRIu64
		" %10s %9s %10s %9s %8s %4.0f  %s\n",
		clyde_tree_phase_name((enum clyde_tree_phase)p), r->nworkers,
		r->entries, r->files, r->dirs,
		clyde_fmt_double(a, sizeof(a), (double)r->bytes / MB, 1),
		clyde_fmt_double(b, sizeof(b), (double)r->elapsed_ns / 1e9, 3),
		clyde_fmt_double(c, sizeof(c),
				 clyde_tree_rate(r->entries, r->elapsed_ns), 0),
		clyde_fmt_double(d, sizeof(d),
				 clyde_tree_rate(r->files, r->elapsed_ns), 0),
		clyde_fmt_double(e, sizeof(e),
				 clyde_tree_rate(r->bytes, r->elapsed_ns) / MB,
				 1),
		cpu_pct(r), r->cache_dropped ? "cold" : "warm");
}

/* The phase's device line: clyde's own I/O where the kernel tells it
 * (results/testio.h), the other I/O beside it, the top device's share
 * when the figures sum the member disks. */
static void write_device(FILE *f, const struct clyde_tree_run *run, int p,
			 const char *name)
{
	char a[64], b[64], c[64], d[64], more[256] = "";
	struct clyde_test_io io;

	if (run->phases[p].verified_blocks)
		fprintf(f,
			"verify   %-14s %" PRIu64 " blocks read back, every "
			"one as written\n",
			name, run->phases[p].verified_blocks);
	clyde_test_io_of_phase(run, p, &io);
	if (!io.have)
		return;
	clyde_fmt_double(a, sizeof(a), (double)io.read / MB, 1);
	clyde_fmt_double(b, sizeof(b), (double)io.write / MB, 1);
	if (clyde_test_io_other_shown(&io)) {
		clyde_fmt_double(c, sizeof(c), (double)io.other_read / MB, 1);
		clyde_fmt_double(d, sizeof(d), (double)io.other_write / MB, 1);
		snprintf(more, sizeof(more),
			 "; other I/O during the test: %s MB read, %s MB "
			 "written",
			 c, d);
	}
	fprintf(f, "device   %-14s read %s MB, wrote %s MB (%s%s)\n", name, a,
		b,
		io.attributed ? "clyde's own" :
				"the devices' totals: clyde's share not known",
		more);
	if (io.lost)
		fprintf(f,
			"warning  %-14s the devices took %.2fx of what it "
			"wrote, less than %.2fx: lost writes? (--verify reads "
			"every file back)\n",
			name, io.wa, CLYDE_WA_LOST);
	if (io.have_top) {
		clyde_fmt_double(a, sizeof(a), (double)io.top_read / MB, 1);
		clyde_fmt_double(b, sizeof(b), (double)io.top_write / MB, 1);
		fprintf(f,
			"device   %-14s the top device %s alone (all I/O): "
			"read %s MB, wrote %s MB; the figures above sum %u "
			"member disks\n",
			name, run->env.target.block_dev, a, b, io.nleaves);
	}
}

int clyde_tree_text_write(FILE *f, const struct clyde_tree_run *run,
			  const char *version)
{
	char a[CLYDE_FMT_LEN], b[CLYDE_FMT_LEN], c[CLYDE_FMT_LEN];

	errno = 0;
	text_header(f, run, version);
	fputc('\n', f);
	fprintf(f, "%-14s %3s %9s %9s %8s %10s %9s %10s %9s %8s %4s  %s\n",
		"phase", "wrk", "entries", "files", "dirs", "MB", "elapsed_s",
		"entries/s", "files/s", "MB/s", "CPU%", "cache");
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++)
		if (phase_ran(run, p))
			text_phase_row(f, p, &run->phases[p]);

	/* Each worker's own time, as people quote "302+360 s". */
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		const struct clyde_tree_phase_result *r = &run->phases[p];

		if (!r->ran || r->nworkers < 2)
			continue;
		fprintf(f, "\n%s workers (busy s / entries / MB):",
			clyde_tree_phase_name((enum clyde_tree_phase)p));
		for (unsigned i = 0; i < r->nworkers; i++) {
			const struct clyde_tree_worker *w = &r->workers[i];

			fprintf(f, "%s%s/%" PRIu64 "/%s", i ? " + " : " ",
				clyde_fmt_double(a, sizeof(a),
						 (double)w->elapsed_ns / 1e9,
						 2),
				w->entries,
				clyde_fmt_double(b, sizeof(b),
						 (double)w->bytes / MB, 1));
		}
		fputc('\n', f);
	}

	fputc('\n', f);
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		const struct clyde_tree_phase_result *r = &run->phases[p];
		const char *name =
			clyde_tree_phase_name((enum clyde_tree_phase)p);

		if (!r->ran)
			continue;
		if (r->cache_reason[0])
			fprintf(f, "cache    %-14s %s\n", name,
				r->cache_reason);
		write_device(f, run, p, name);
		if (r->settle.busy) {
			char why[256];

			clyde_settle_describe(&r->settle, why, sizeof(why));
			fprintf(f,
				"settle   %-14s %s (waited %s s, --settle): "
				"%s\n",
				name,
				!r->settle.busy_during ||
						r->settle.busy_before ?
					"started on a busy device" :
					"ran on a busy device",
				clyde_fmt_double(
					a, sizeof(a),
					(double)r->settle.waited_ns / 1e9, 2),
				why);
		}
		if (r->symlinks || r->others)
			fprintf(f,
				"entries  %-14s %" PRIu64 " symlinks (not "
				"followed), %" PRIu64 " other\n",
				name, r->symlinks, r->others);
		if (errors_total(&r->errors))
			fprintf(f,
				"errors   %-14s %" PRIu64
				" permission denied, %" PRIu64
				" vanished, %" PRIu64 " loops, %" PRIu64
				" other; first: %s\n",
				name, r->errors.permission_denied,
				r->errors.vanished, r->errors.loops,
				r->errors.other, r->first_error);
		if (r->noatime_refused)
			fprintf(f,
				"atime    %-14s O_NOATIME refused on %" PRIu64
				" opens (not the owner): atimes may change\n",
				name, r->noatime_refused);
		for (int op = 0; op < CLYDE_TREE_OP_COUNT; op++) {
			const struct clyde_hist *h = r->lat[op];

			if (!h || !clyde_hist_count(h))
				continue;
			fprintf(f,
				"latency  %-14s %-7s n=%" PRIu64
				" p50 %s p99 %s max %s\n",
				name,
				clyde_tree_op_name((enum clyde_tree_op)op),
				clyde_hist_count(h),
				fmt_ns(a, sizeof(a),
				       clyde_hist_quantile(h, 0.5)),
				fmt_ns(b, sizeof(b),
				       clyde_hist_quantile(h, 0.99)),
				fmt_ns(c, sizeof(c), clyde_hist_max(h)));
		}
	}
	return clyde_out_finish(f);
}

/* ---- JSON ---------------------------------------------------------------- */

/* A string, or null when s is empty. */
static void jw_str_or_null(struct clyde_jw *w, const char *key, const char *s,
			   size_t max)
{
	clyde_jw_str(w, key, s && s[0] ? s : NULL, max);
}

static void json_phase(struct clyde_jw *w, const struct clyde_tree_run *run,
		       int p, const struct clyde_tree_phase_result *r)
{
	struct clyde_test_io io;

	clyde_jw_open(w, NULL, '{');
	clyde_jw_str(w, "name", clyde_tree_phase_name((enum clyde_tree_phase)p),
		     64);
	clyde_jw_u64(w, "entries", r->entries);
	clyde_jw_u64(w, "files", r->files);
	clyde_jw_u64(w, "dirs", r->dirs);
	clyde_jw_u64(w, "symlinks", r->symlinks);
	clyde_jw_u64(w, "others", r->others);
	clyde_jw_u64(w, "bytes", r->bytes);
	clyde_jw_u64(w, "verified_blocks", r->verified_blocks);
	clyde_jw_u64(w, "elapsed_ns", r->elapsed_ns);
	clyde_jw_u64(w, "cpu_user_ns", r->cpu_user_ns);
	clyde_jw_u64(w, "cpu_sys_ns", r->cpu_sys_ns);
	clyde_jw_num(w, "cpu_pct", cpu_pct(r), 2);
	clyde_jw_num(w, "entries_per_s",
		     clyde_tree_rate(r->entries, r->elapsed_ns), 3);
	clyde_jw_num(w, "files_per_s", clyde_tree_rate(r->files, r->elapsed_ns),
		     3);
	clyde_jw_num(w, "bytes_per_s", clyde_tree_rate(r->bytes, r->elapsed_ns),
		     3);
	clyde_jw_open(w, "latency", '{');
	for (int op = 0; op < CLYDE_TREE_OP_COUNT; op++)
		if (r->lat[op] && clyde_hist_count(r->lat[op]))
			clyde_jw_latency(
				w, clyde_tree_op_name((enum clyde_tree_op)op),
				r->lat[op], 1);
	clyde_jw_close(w, '}');
	clyde_jw_open(w, "cache", '{');
	clyde_jw_bool(w, "dropped", r->cache_dropped);
	jw_str_or_null(w, "reason", r->cache_reason, sizeof(r->cache_reason));
	clyde_jw_loop(w, &r->loop, r->bytes);
	clyde_jw_close(w, '}');
	/* Only extract writes data of its own to compare with. */
	clyde_test_io_of_phase(run, p, &io);
	clyde_jw_device_wa(w, &r->dev, io.wa);
	clyde_jw_io(w, &io, &r->own);
	clyde_jw_settle(w, &r->settle);
	clyde_jw_degraded(w, &r->members);
	clyde_tree_jw_members(w, run, p);
	clyde_jw_open(w, "workers", '[');
	for (unsigned i = 0; i < r->nworkers; i++) {
		const struct clyde_tree_worker *k = &r->workers[i];

		clyde_jw_open(w, NULL, '{');
		clyde_jw_u64(w, "index", i);
		clyde_jw_u64(w, "entries", k->entries);
		clyde_jw_u64(w, "files", k->files);
		clyde_jw_u64(w, "dirs", k->dirs);
		clyde_jw_u64(w, "bytes", k->bytes);
		clyde_jw_u64(w, "elapsed_ns", k->elapsed_ns);
		clyde_jw_u64(w, "start_ns", k->start_ns);
		clyde_jw_u64(w, "end_ns", k->end_ns);
		clyde_jw_u64(w, "cpu_user_ns", k->cpu_user_ns);
		clyde_jw_u64(w, "cpu_sys_ns", k->cpu_sys_ns);
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
	clyde_jw_open(w, "errors", '{');
	clyde_jw_u64(w, "permission_denied", r->errors.permission_denied);
	clyde_jw_u64(w, "vanished", r->errors.vanished);
	clyde_jw_u64(w, "loops", r->errors.loops);
	clyde_jw_u64(w, "other", r->errors.other);
	clyde_jw_close(w, '}');
	clyde_jw_u64(w, "noatime_refused", r->noatime_refused);
	jw_str_or_null(w, "first_error", r->first_error,
		       sizeof(r->first_error));
	clyde_jw_close(w, '}');
}

static void json_config(struct clyde_jw *w, const struct clyde_tree_run *run)
{
	const struct clyde_tree_config *c = &run->cfg;
	char dist[128];

	clyde_jw_open(w, "config", '{');
	jw_str_or_null(w, "preset", c->preset, sizeof(c->preset));
	clyde_jw_u64(w, "files", c->shape.files);
	clyde_jw_u64(w, "dirs", c->shape.dirs);
	clyde_jw_num(w, "files_per_dir", c->shape.files_per_dir, 3);
	clyde_jw_u64(w, "depth", c->shape.depth);
	clyde_jw_u64(w, "fanout", c->shape.fanout);
	clyde_jw_str(w, "size",
		     clyde_size_dist_format(dist, sizeof(dist), &c->shape.size),
		     sizeof(dist));
	clyde_jw_u64(w, "seed", c->seed);
	clyde_jw_open(w, "phases", '[');
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++)
		if (c->phases & CLYDE_TREE_PHASE_BIT(p))
			clyde_jw_str(
				w, NULL,
				clyde_tree_phase_name((enum clyde_tree_phase)p),
				64);
	clyde_jw_close(w, ']');
	clyde_jw_u64(w, "workers", c->workers);
	clyde_jw_str(w, "existing", c->existing, 4096);
	clyde_jw_u64(w, "io_size", c->io_size);
	clyde_jw_bool(w, "drop_caches", c->drop_caches);
	clyde_jw_bool(w, "noatime", c->noatime || c->existing);
	clyde_jw_bool(w, "one_file_system", c->one_fs);
	clyde_jw_str(w, "pattern", pattern_name(c), 16);
	clyde_jw_bool(w, "verify", c->verify);
	clyde_jw_close(w, '}');
}

int clyde_tree_json_write(FILE *f, const struct clyde_tree_run *run,
			  const char *version)
{
	return clyde_tree_json_write_more(f, run, version, NULL, NULL);
}

int clyde_tree_json_write_more(
	FILE *f, const struct clyde_tree_run *run, const char *version,
	void (*more)(struct clyde_jw *w, const void *arg), const void *arg)
{
	struct clyde_jw w = { .f = f };

	errno = 0;
	clyde_jw_run_head(&w, "tree", version, run->cfg.label,
			  sizeof(run->cfg.label), run->started_unix, &run->env);
	clyde_jw_virt(&w, &run->env.virt);
	if (clyde_jw_stack_advice(&w, &run->env.stack, CLYDE_ADVISE_TREE) < 0)
		return -ENOMEM;
	json_config(&w, run);
	clyde_jw_open(&w, "tree", '{');
	clyde_jw_str(&w, "root", run->root, sizeof(run->root));
	clyde_jw_bool(&w, "generated", run->generated);
	clyde_jw_u64(&w, "files", run->plan_files);
	clyde_jw_u64(&w, "dirs", run->plan_dirs);
	clyde_jw_u64(&w, "bytes", run->plan_bytes);
	clyde_jw_u64(&w, "depth", run->plan_depth);
	clyde_jw_u64(&w, "fanout", run->plan_fanout);
	clyde_jw_close(&w, '}');
	clyde_jw_open(&w, "runs", '[');
	clyde_jw_open(&w, NULL, '{');
	clyde_jw_u64(&w, "index", 0);
	clyde_jw_u64(&w, "seed", run->cfg.seed);
	clyde_jw_open(&w, "phases", '[');
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++)
		if (phase_ran(run, p))
			json_phase(&w, run, p, &run->phases[p]);
	clyde_jw_close(&w, ']');
	clyde_jw_close(&w, '}');
	clyde_jw_close(&w, ']');
	/* One run: the mean is the value and there is no spread to give. */
	clyde_jw_open(&w, "summary", '[');
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		const struct clyde_tree_phase_result *r = &run->phases[p];

		if (!r->ran)
			continue;
		clyde_jw_open(&w, NULL, '{');
		clyde_jw_summary_one(
			&w, phase_name(p),
			clyde_tree_phase_in_bytes(p) ? "B/s" : "entries/s",
			clyde_tree_rate(clyde_tree_phase_in_bytes(p) ?
						r->bytes :
						r->entries,
					r->elapsed_ns));
		clyde_jw_null(&w, "ci95_low");
		clyde_jw_null(&w, "ci95_high");
		clyde_jw_null(&w, "settled");
		clyde_jw_close(&w, '}');
	}
	clyde_jw_close(&w, ']');
	clyde_jw_null(&w, "until_stable");
	if (more)
		more(&w, arg);
	clyde_jw_close(&w, '}');
	fputc('\n', f);
	return clyde_out_finish(f);
}

/* ---- CSV ----------------------------------------------------------------- */

static const char *const run_fields[CLYDE_TREE_CSV_RUN_FIELDS] = {
	"format",  "clyde_version", "label",	 "started_unix", "host",
	"kernel",  "ncpu",	    "ram_bytes", "fstype",	 "mount_opts",
	"source",  "root",	    "generated", "seed",	 "preset",
	"size",	   "files",	    "dirs",	 "bytes",	 "workers",
	"io_size", "noatime",
};

static const char *const phase_fields[CLYDE_TREE_CSV_PHASE_FIELDS] = {
	"entries",	 "files",	"bytes",	  "elapsed_ns",
	"entries_per_s", "files_per_s", "mb_per_s",	  "cpu_pct",
	"cache_dropped", "errors",	"dev_read_bytes", "dev_write_bytes",
};

int clyde_tree_csv_header(FILE *f)
{
	return clyde_out_csv_header(f, run_fields, CLYDE_TREE_CSV_RUN_FIELDS,
				    phase_name, CLYDE_TREE_PHASE_COUNT,
				    phase_fields, CLYDE_TREE_CSV_PHASE_FIELDS);
}

/* A text field: ',' -> ';' (mount options keep their separators
 * readable), control characters -> '_'. */
static void csv_text(FILE *f, const char *s, size_t max)
{
	fputc(',', f);
	for (size_t i = 0; i < max && s && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ',')
			c = ';';
		else if (c < 0x20 || c == 0x7f)
			c = '_';
		fputc(c, f);
	}
}

static void csv_u64(FILE *f, uint64_t v)
{
	fprintf(f, ",%" PRIu64, v);
}

static void csv_double(FILE *f, double v, int decimals)
{
	char buf[CLYDE_FMT_LEN];

	fprintf(f, ",%s", clyde_fmt_double(buf, sizeof(buf), v, decimals));
}

int clyde_tree_csv_write(FILE *f, const struct clyde_tree_run *run,
			 const char *version)
{
	const struct clyde_tree_config *c = &run->cfg;
	const struct clyde_env *env = &run->env;
	char dist[128];

	errno = 0;
	fputs(CLYDE_TREE_CSV_FORMAT, f);
	csv_text(f, version, 64);
	csv_text(f, c->label[0] ? c->label : env->machine.host,
		 sizeof(c->label));
	csv_u64(f, run->started_unix);
	csv_text(f, env->machine.host, sizeof(env->machine.host));
	csv_text(f, env->machine.kernel, sizeof(env->machine.kernel));
	csv_u64(f, env->machine.ncpu);
	csv_u64(f, env->machine.ram_bytes);
	csv_text(f, env->target.fstype, sizeof(env->target.fstype));
	csv_text(f, env->target.mount_opts, sizeof(env->target.mount_opts));
	csv_text(f, env->target.source, sizeof(env->target.source));
	csv_text(f, run->root, sizeof(run->root));
	csv_u64(f, run->generated);
	csv_u64(f, c->seed);
	csv_text(f, run->generated ? c->preset : "", sizeof(c->preset));
	csv_text(f,
		 run->generated ? clyde_size_dist_format(dist, sizeof(dist),
							 &c->shape.size) :
				  "",
		 sizeof(dist));
	csv_u64(f, run->plan_files);
	csv_u64(f, run->plan_dirs);
	csv_u64(f, run->plan_bytes);
	csv_u64(f, c->workers);
	csv_u64(f, c->io_size);
	csv_u64(f, c->noatime || c->existing);
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		const struct clyde_tree_phase_result *r = &run->phases[p];
		struct clyde_test_io io;

		if (!r->ran) {
			for (int i = 0; i < CLYDE_TREE_CSV_PHASE_FIELDS; i++)
				fputc(',', f);
			continue;
		}
		csv_u64(f, r->entries);
		csv_u64(f, r->files);
		csv_u64(f, r->bytes);
		csv_u64(f, r->elapsed_ns);
		csv_double(f, clyde_tree_rate(r->entries, r->elapsed_ns), 1);
		csv_double(f, clyde_tree_rate(r->files, r->elapsed_ns), 1);
		csv_double(f, clyde_tree_rate(r->bytes, r->elapsed_ns) / MB, 3);
		csv_double(f, cpu_pct(r), 1);
		csv_u64(f, r->cache_dropped);
		csv_u64(f, errors_total(&r->errors));
		/* The phase's own device bytes, as the text and the JSON's
		 * "io" say them. */
		clyde_test_io_of_phase(run, p, &io);
		csv_u64(f, io.read);
		csv_u64(f, io.write);
	}
	fputc('\n', f);
	return clyde_out_finish(f);
}

/*
 * clyde's own text section, printed after the bonnie++ table (which keeps
 * bonnie++'s layout byte for byte and so has no room for anything new):
 * the measured rate of every test (bonnie++ hides short tests behind
 * "+++++"), how much of its data was already in the page cache, latency
 * percentiles, what reached the block device, warnings where a number is
 * the cache's rather than the storage's, and run-to-run statistics.
 * format.h states the layout and the units.
 */
#include "results/format.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/human.h"
#include "io/engine.h"
#include "results/figures.h"
#include "results/summary.h"
#include "results/testio.h"

/* Column layout of the two tables; rows are at most 96 columns (a rate
 * column fits "1234567 files/s"). */
#define ROW_FMT "%-10s %15s %6s %8s %8s %8s %8s %9s %9s %6s\n"
#define STAT_FMT "%-10s %3s %15s %15s %9s %15s%s%s\n"
/* Where a list of names wraps. */
#define WRAP_COLS 96

char *clyde_fmt_human_rate(char *buf, size_t len, double per_s,
			   enum clyde_test id)
{
	static const char *const units[] = { "B/s",   "KiB/s", "MiB/s",
					     "GiB/s", "TiB/s", "PiB/s" };
	const char *unit = id == CLYDE_SEEKS ? "seeks/s" : "files/s";

	if (!isfinite(per_s) || per_s < 0.0) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (clyde_test_is_io(id))
		return clyde_fmt_binary(buf, len, per_s, units, 6);
	if (per_s >= 99.95)
		snprintf(buf, len, "%.0f %s", per_s, unit);
	else
		clyde_fmt_sig3(buf, len, per_s, unit);
	return clyde_fmt_point(buf);
}

char *clyde_fmt_human_ns(char *buf, size_t len, double ns)
{
	if (!isfinite(ns) || ns < 0.0)
		snprintf(buf, len, "n/a");
	else if (ns < 999.5)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 999.5e3)
		clyde_fmt_sig3(buf, len, ns / 1e3, "us");
	else if (ns < 999.5e6)
		clyde_fmt_sig3(buf, len, ns / 1e6, "ms");
	else
		clyde_fmt_sig3(buf, len, ns / 1e9, "s");
	return clyde_fmt_point(buf);
}

/* One test over all runs, as its row shows it. */
struct row {
	bool done;		 /* in at least one run */
	double residency;	 /* highest measured, < 0 when never measured */
	unsigned res_run;	 /* the run it was seen in */
	bool direct_failed;	 /* -D checked and not honoured in some run */
	const char *cache;	 /* a kind's cache the residency is of */
	bool have_device;	 /* in at least one run */
	bool on_device;		 /* a run's target is on a block device */
	uint64_t bytes;		 /* of the runs with device counters */
	struct clyde_test_io io; /* summed over the runs */
	struct clyde_hist *lat;	 /* all runs' operations; owned */
};

static int gather(const struct clyde_run *runs, unsigned n, enum clyde_test id,
		  struct row *row)
{
	memset(row, 0, sizeof(*row));
	row->residency = -1.0;
	for (unsigned i = 0; i < n; i++) {
		const struct clyde_test_result *t = &runs[i].tests[id];
		struct clyde_test_io io;
		double res;

		if (t->state != CLYDE_DONE)
			continue;
		row->done = true;
		row->on_device |= runs[i].env.target.has_block_device;
		res = clyde_test_residency(t);
		if (res > row->residency) {
			const char *json;

			row->residency = res;
			row->res_run = i;
			clyde_figs_cache(t, &json, &row->cache);
		}
		if (t->cache.direct_checked && !t->cache.direct_honoured)
			row->direct_failed = true;
		clyde_test_io_of_run(&runs[i], id, &io);
		if (io.have) {
			row->have_device = true;
			row->bytes += t->bytes;
			clyde_test_io_add(&row->io, &io,
					  clyde_test_writes_its_bytes(id) ?
						  row->bytes :
						  0);
		}
		if (t->latency && clyde_hist_count(t->latency)) {
			if (!row->lat) {
				row->lat = malloc(sizeof(*row->lat));
				if (!row->lat)
					return -ENOMEM;
				clyde_hist_init(row->lat);
			}
			clyde_hist_merge(row->lat, t->latency);
		}
	}
	return 0;
}

static void write_row(FILE *f, enum clyde_test id, const struct row *row,
		      const struct clyde_summary *s)
{
	char rate[CLYDE_FMT_LEN], res[CLYDE_FMT_LEN], lat[4][CLYDE_FMT_LEN];
	char rd[CLYDE_FMT_LEN], wr[CLYDE_FMT_LEN], wa[CLYDE_FMT_LEN];
	static const double q[3] = { 0.50, 0.99, 0.999 };

	if (s->n)
		clyde_fmt_human_rate(rate, sizeof(rate), s->mean, id);
	else
		snprintf(rate, sizeof(rate), "n/a");
	if (row->residency >= 0.0)
		snprintf(res, sizeof(res), "%.0f%%", row->residency * 100.0);
	else
		snprintf(res, sizeof(res), "n/a");
	for (int k = 0; k < 4; k++) {
		uint64_t v;

		if (!row->lat) {
			snprintf(lat[k], sizeof(lat[k]), "-");
			continue;
		}
		v = k < 3 ? clyde_hist_quantile(row->lat, q[k]) :
			    clyde_hist_max(row->lat);
		clyde_fmt_human_ns(lat[k], sizeof(lat[k]), (double)v);
	}
	if (!row->have_device) {
		/* On a block device without counters: clyde-mpi's aggregate
		 * (one host's counters say nothing about all ranks), or
		 * /sys unreadable. */
		fprintf(f, "%-10s %15s %6s %8s %8s %8s %8s  %s\n",
			clyde_test_name(id), rate, res, lat[0], lat[1], lat[2],
			lat[3],
			row->on_device ? "device not counted" :
					 "no block device");
		return;
	}
	/* clyde's own I/O where the kernel tells it, summed over the
	 * leaves (results/testio.h); the rest is said below the table. */
	clyde_fmt_human_bytes(rd, sizeof(rd), (double)row->io.read);
	clyde_fmt_human_bytes(wr, sizeof(wr), (double)row->io.write);
	/* As in the JSON: only the tests that write all their bytes have a
	 * write amplification. */
	if (row->io.wa >= 0.0) {
		double x = row->io.wa;

		/* three significant digits keep the column 6 wide */
		snprintf(wa, sizeof(wa), "%.*fx",
			 x < 9.995 ? 2 :
			 x < 99.95 ? 1 :
				     0,
			 x);
		clyde_fmt_point(wa);
	} else {
		snprintf(wa, sizeof(wa), "-");
	}
	fprintf(f, ROW_FMT, clyde_test_name(id), rate, res, lat[0], lat[1],
		lat[2], lat[3], rd, wr, wa);
}

/* Whose the device figures are, what else the devices did during each
 * test, and the top device's share when the figures sum the leaves. */
static void write_device_notes(FILE *f, const struct clyde_run *runs,
			       unsigned n,
			       const struct row rows[CLYDE_TEST_COUNT])
{
	char a[CLYDE_FMT_LEN], b[CLYDE_FMT_LEN], c[CLYDE_FMT_LEN],
		d[CLYDE_FMT_LEN];
	bool any = false, unattributed = false, leaves = false, known = false;
	enum clyde_own_source src = CLYDE_OWN_NONE;
	const char *cgroup = "";

	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_test_io *io = &rows[i].io;

		if (!rows[i].done || !io->have)
			continue;
		any = true;
		leaves |= io->on_leaves;
		if (!io->attributed)
			unattributed = true;
		else if (src == CLYDE_OWN_NONE)
			src = io->source;
	}
	/* Was clyde's own I/O read at all (a test may still not be
	 * attributed: a filesystem over several devices)? */
	for (unsigned r = 0; r < n; r++)
		for (int i = 0; i < CLYDE_TEST_COUNT; i++)
			known |= runs[r].tests[i].state == CLYDE_DONE &&
				 runs[r].tests[i].own.source != CLYDE_OWN_NONE;
	for (unsigned r = 0; r < n && src == CLYDE_OWN_CGROUP; r++)
		for (int i = 0; i < CLYDE_TEST_COUNT && !cgroup[0]; i++)
			cgroup = runs[r].tests[i].own.cgroup;
	if (!any)
		return;
	if (src == CLYDE_OWN_CGROUP)
		fprintf(f,
			"clyde: dev read/write are clyde's own I/O (its cgroup "
			"%s, io.stat)%s\n",
			cgroup, leaves ? ", summed over the member disks" : "");
	else if (src == CLYDE_OWN_TASK)
		fprintf(f,
			"clyde: dev read/write are clyde's own I/O (its I/O "
			"accounting, /proc/self/io)%s\n",
			leaves ? ", summed over the member disks" : "");
	if (unattributed && !known)
		fputs("clyde: note: dev read/write are the devices' totals, "
		      "not clyde's own (no I/O accounting)\n",
		      f);
	else if (unattributed)
		fprintf(f,
			"clyde: note: dev read/write %sare the devices' "
			"totals, not clyde's own:\n"
			"clyde: note: a filesystem over several devices; a "
			"cgroup of clyde's own tells (systemd-run --scope)\n",
			src == CLYDE_OWN_NONE ? "" : "of some tests ");
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_test_io *io = &rows[i].io;

		if (!rows[i].done || !clyde_test_io_other_shown(io))
			continue;
		clyde_fmt_human_bytes(a, sizeof(a), (double)io->other_read);
		clyde_fmt_human_bytes(b, sizeof(b), (double)io->other_write);
		clyde_fmt_human_bytes(c, sizeof(c), (double)io->total_read);
		clyde_fmt_human_bytes(d, sizeof(d), (double)io->total_write);
		fprintf(f,
			"clyde: %s: other I/O during the test: %s read, %s "
			"written\n"
			"clyde:   (the devices' total: %s read, %s written)\n",
			clyde_test_name((enum clyde_test)i), a, b, c, d);
	}
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_test_io *io = &rows[i].io;

		if (!rows[i].done || !io->lost)
			continue;
		clyde_fmt_human_bytes(a, sizeof(a), (double)rows[i].bytes);
		fprintf(f,
			"clyde: warning: %s: the devices took %.2fx of the %s "
			"written, less than %.2fx: lost writes? (--verify "
			"reads every block back)\n",
			clyde_test_name((enum clyde_test)i), io->wa, a,
			CLYDE_WA_LOST);
	}
	for (int i = 0, header = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_test_io *io = &rows[i].io;

		if (!rows[i].done || !io->have_top)
			continue;
		if (!header++)
			fprintf(f,
				"clyde: dev read/write sum the %u member disks; "
				"the top device %s alone (all I/O):\n",
				io->nleaves, runs[0].env.target.block_dev);
		clyde_fmt_human_bytes(a, sizeof(a), (double)io->top_read);
		clyde_fmt_human_bytes(b, sizeof(b), (double)io->top_write);
		fprintf(f, "clyde:   %-10s %10s read %10s written\n",
			clyde_test_name((enum clyde_test)i), a, b);
	}
}

/* --verify: what was read back (a wrong block fails the run, so every
 * count here was right). */
static void write_verified(FILE *f, const struct clyde_run *runs, unsigned n)
{
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		uint64_t blocks = 0;

		for (unsigned r = 0; r < n; r++)
			blocks += runs[r].tests[i].verified_blocks;
		if (blocks)
			fprintf(f,
				"clyde: --verify: %s: %" PRIu64 " blocks read "
				"back, every one as written\n",
				clyde_test_name((enum clyde_test)i), blocks);
	}
}

/* Tests that started on a device still busy after --settle. */
static void write_busy(FILE *f, const struct clyde_run *runs, unsigned n)
{
	for (unsigned r = 0; r < n; r++)
		for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
			const struct clyde_test_result *t = &runs[r].tests[i];
			char why[256], where[32] = "", waited[CLYDE_FMT_LEN];

			if (t->state != CLYDE_DONE || !t->settle.busy)
				continue;
			if (n > 1)
				snprintf(where, sizeof(where), " (run %u)",
					 r + 1);
			clyde_settle_describe(&t->settle, why, sizeof(why));
			clyde_fmt_human_ns(waited, sizeof(waited),
					   (double)t->settle.waited_ns);
			if (!t->settle.busy_during || t->settle.busy_before)
				fprintf(f,
					"clyde: warning: %s%s started on a busy "
					"device (waited %s, --settle):\n"
					"clyde: warning: %s\n",
					clyde_test_label((enum clyde_test)i),
					where, waited, why);
			else
				fprintf(f,
					"clyde: warning: %s%s ran on a busy "
					"device: %s\n",
					clyde_test_label((enum clyde_test)i),
					where, why);
		}
}

/* Page-cache residency says nothing of the dentry and inode caches, which
 * only --drop-caches empties: say so when the metadata tests ran warm. */
static void write_metadata_note(FILE *f,
				const struct row rows[CLYDE_TEST_COUNT],
				const struct clyde_run_params *p)
{
	if (p->drop_caches)
		return;
	if (rows[CLYDE_SEQ_STAT].done || rows[CLYDE_SEQ_DEL].done ||
	    rows[CLYDE_RAN_STAT].done || rows[CLYDE_RAN_DEL].done)
		fputs("clyde: note: the stat and delete tests ran with the "
		      "dentry and inode caches warm;\n"
		      "clyde: note: --drop-caches (as root) starts them cold\n",
		      f);
}

/* A queue depth changes what the rates and latencies mean: say which
 * engine and depth the block and seek tests had, unless bonnie++'s. */
static void write_engine_note(FILE *f, const struct row rows[CLYDE_TEST_COUNT],
			      const struct clyde_run_params *p)
{
	bool sync = clyde_engine_name_sync(p->engine);

	if (!p->engine[0] || (sync && p->iodepth <= 1))
		return;
	if (!(rows[CLYDE_PUT_BLOCK].done || rows[CLYDE_REWRITE].done ||
	      rows[CLYDE_GET_BLOCK].done || rows[CLYDE_SEEKS].done))
		return;
	/* A sync engine (psync) performs one request at a time whatever
	 * the depth (the JSON's inflight_max says 1): say so rather than a
	 * depth. */
	if (sync)
		fprintf(f,
			"clyde: note: --iodepth %u on %s: its requests ran "
			"one at a time (use --engine io_uring for a queue "
			"depth)\n",
			p->iodepth, p->engine);
	else
		fprintf(f,
			"clyde: note: block and seek tests ran on %s with up "
			"to %u requests in flight per worker%s\n",
			p->engine, p->iodepth,
			rows[CLYDE_SEEKS].done ? " and seeker" : "");
}

static void write_warnings(FILE *f, const struct row rows[CLYDE_TEST_COUNT],
			   unsigned n)
{
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct row *row = &rows[i];
		char where[32] = "";

		if (!row->done || row->residency < CLYDE_CACHE_WARN_FRACTION)
			continue;
		if (n > 1)
			snprintf(where, sizeof(where), " (run %u)",
				 row->res_run + 1);
		/* At most 99 columns: "sequential create (run 99): 100%". */
		if (row->cache)
			fprintf(f,
				"clyde: warning: %s%s: %s served %.0f%% "
				"of the bytes it read;\n"
				"       the rate is the cache's, not the "
				"storage's\n",
				clyde_test_label((enum clyde_test)i), where,
				row->cache, row->residency * 100.0);
		else
			fprintf(f,
				"clyde: warning: %s%s: %.0f%% of its data was in the page "
				"cache when it started;\n"
				"       the rate is the cache's, not the storage's\n",
				clyde_test_label((enum clyde_test)i), where,
				row->residency * 100.0);
	}
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		if (rows[i].done && rows[i].direct_failed)
			fprintf(f,
				"clyde: note: %s: -D was not honoured: the file's "
				"pages entered the page cache anyway\n",
				clyde_test_label((enum clyde_test)i));
}

/* What clyde spent outside the timed windows (eviction, residency,
 * set-up), over all runs that measured it. */
static void write_overhead(FILE *f, const struct clyde_run *runs, unsigned n)
{
	uint64_t wall = 0, over = 0;
	char a[CLYDE_FMT_LEN], b[CLYDE_FMT_LEN];

	for (unsigned i = 0; i < n; i++) {
		wall += runs[i].wall_ns;
		over += runs[i].overhead_ns;
	}
	if (!wall)
		return;
	clyde_fmt_human_ns(a, sizeof(a), (double)over);
	clyde_fmt_human_ns(b, sizeof(b), (double)wall);
	fprintf(f,
		"clyde: untimed (set-up, cache eviction, checks): %s of %s "
		"(%.1f%%)\n",
		a, b, (double)over * 100.0 / (double)wall);
}

/* "mean" and friends in the test's unit; "n/a" when not finite. */
static char *stat_cell(char *buf, size_t len, double v, enum clyde_test id)
{
	return clyde_fmt_human_rate(buf, len, v, id);
}

static void write_names(FILE *f, const char *lead, const enum clyde_test *t,
			unsigned k)
{
	size_t col = strlen(lead);

	fputs(lead, f);
	for (unsigned i = 0; i < k; i++) {
		const char *name = clyde_test_name(t[i]);

		if (i && col + strlen(name) + 2 > WRAP_COLS) {
			fputs(",\n      ", f);
			col = 6;
		} else if (i) {
			fputs(", ", f);
			col += 2;
		}
		fputs(name, f);
		col += strlen(name);
	}
	fputc('\n', f);
}

static void write_stats(FILE *f, const struct clyde_summary s[CLYDE_TEST_COUNT],
			unsigned n, const struct clyde_json_extra *extra)
{
	bool target = extra && extra->target_pct > 0.0 &&
		      isfinite(extra->target_pct);

	fprintf(f,
		"\nclyde: statistics over %u runs (mean, 95%% confidence "
		"interval of the mean, Student's t)\n",
		n);
	fprintf(f, STAT_FMT, "test", "n", "mean", "+/- 95% CI", "% of mean",
		"stddev", target ? "  " : "", target ? "settled" : "");
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		enum clyde_test id = (enum clyde_test)i;
		char num[16], mean[CLYDE_FMT_LEN], ci[CLYDE_FMT_LEN];
		char pct[CLYDE_FMT_LEN], sd[CLYDE_FMT_LEN];
		const char *settled;

		if (!s[i].n)
			continue;
		snprintf(num, sizeof(num), "%u", s[i].n);
		stat_cell(mean, sizeof(mean), s[i].mean, id);
		if (s[i].n < 2) {
			/* One value says nothing about the spread. */
			snprintf(ci, sizeof(ci), "n/a");
			snprintf(pct, sizeof(pct), "n/a");
			snprintf(sd, sizeof(sd), "n/a");
		} else {
			stat_cell(ci, sizeof(ci), s[i].ci95, id);
			stat_cell(sd, sizeof(sd), s[i].stddev, id);
			if (s[i].mean > 0.0) {
				snprintf(pct, sizeof(pct), "%.1f%%",
					 s[i].ci95 * 100.0 / s[i].mean);
				clyde_fmt_point(pct);
			} else {
				snprintf(pct, sizeof(pct), "n/a");
			}
		}
		if (!target)
			settled = "";
		else if (s[i].settled == CLYDE_SETTLED_YES)
			settled = "yes";
		else
			settled = "no";
		fprintf(f, STAT_FMT, clyde_test_name(id), num, mean, ci, pct,
			sd, target ? "  " : "", settled);
	}
	if (!target)
		return;
	fprintf(f,
		"clyde: until-stable: target +/-%g%% of the mean, %u of at most "
		"%u runs made\n",
		extra->target_pct, extra->runs_done, extra->max_runs);
	if (extra->n_unsettled)
		write_names(f, "clyde: not settled: ", extra->unsettled,
			    extra->n_unsettled < CLYDE_TEST_COUNT ?
				    extra->n_unsettled :
				    CLYDE_TEST_COUNT);
	else
		fputs("clyde: every test settled\n", f);
}

int clyde_text_extra_write(FILE *f, const struct clyde_run *runs, unsigned n,
			   const struct clyde_json_extra *extra)
{
	struct clyde_summary sum[CLYDE_TEST_COUNT];
	struct row rows[CLYDE_TEST_COUNT];
	bool any = false;
	int ret;

	if (!n || !runs)
		return -EINVAL;
	ret = clyde_summary_compute(runs, n, extra ? extra->target_pct : 0.0,
				    sum);
	if (ret < 0)
		return ret;
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < CLYDE_TEST_COUNT && ret >= 0; i++) {
		ret = gather(runs, n, (enum clyde_test)i, &rows[i]);
		any |= rows[i].done;
	}
	if (ret < 0 || !any)
		goto out;

	errno = 0;
	if (n > 1)
		fprintf(f,
			"clyde: latency, cache and device per test (%u runs: "
			"mean rate, all runs' operations)\n",
			n);
	else
		fputs("clyde: latency, cache and device per test\n", f);
	fprintf(f, ROW_FMT, "test", "rate", "cached", "p50", "p99", "p99.9",
		"max", "dev read", "dev write", "WA");
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		if (rows[i].done)
			write_row(f, (enum clyde_test)i, &rows[i], &sum[i]);
	write_warnings(f, rows, n);
	write_device_notes(f, runs, n, rows);
	write_verified(f, runs, n);
	write_busy(f, runs, n);
	write_metadata_note(f, rows, &runs[0].params);
	write_engine_note(f, rows, &runs[0].params);
	write_overhead(f, runs, n);
	if (n > 1)
		write_stats(f, sum, n, extra);
	if (fflush(f) != 0 || ferror(f))
		ret = errno ? -errno : -EIO;
out:
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		free(rows[i].lat);
	return ret < 0 ? ret : 0;
}

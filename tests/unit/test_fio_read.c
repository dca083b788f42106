/* fio's JSON output (results/fio_read.h) and its jobs as loaded runs
 * (results/loaded.h): real output of fio 3.33 in tests/fixtures/fio/
 * (README there says how each was made), checked against itself -- the
 * figures the reader gives back are the ones in the file, json+'s bins
 * give percentiles close to fio's own -- and damaged copies of it: cut
 * short at every few hundred bytes, another fio version, fio's text
 * output.  A missing fixture is a failure, never a skip. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "results/loaded.h"
#include "results/fio_read.h"
#include "tap.h"

/* The fixture `name` read whole (owned, NUL-terminated) or NULL. */
static char *fixture(const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/fio/%s", CLYDE_FIXTURES_DIR, name);
	f = fopen(path, "rb");
	if (!f) {
		printf("not ok - fixture %s missing\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static int parse(const char *data, size_t len, struct clyde_fio_result *res,
		 char *why, unsigned long *line)
{
	size_t off = 0;

	if (clyde_fio_sniff(data, len, &off) != CLYDE_FIO_JSON)
		return -1000;
	return clyde_fio_parse(data, len, off, res, why, CLYDE_FIO_WHY_LEN,
			       line);
}

static void test_sniff(void)
{
	const char *clyde = "{\n  \"schema\": \"clyde-result\"\n}\n";
	const char *csv = "1.98,2.00a,vm,1,1,1G,,8192,5,500,50\n";
	size_t len, off = 99;
	char *t;

	t = fixture("fio-randread.txt", &len);
	CHECK(t && clyde_fio_sniff(t, len, &off) == CLYDE_FIO_TEXT);
	free(t);
	t = fixture("fio-randread.json", &len);
	CHECK(t && clyde_fio_sniff(t, len, &off) == CLYDE_FIO_JSON && off == 0);
	free(t);
	/* fio's note before the JSON on standard output. */
	t = fixture("fio-note-stdout.json", &len);
	CHECK(t && clyde_fio_sniff(t, len, &off) == CLYDE_FIO_JSON && off > 0 &&
	      t[off] == '{' && !strncmp(t, "note: ", 6));
	free(t);
	CHECK(clyde_fio_sniff(clyde, strlen(clyde), &off) == CLYDE_FIO_NOT);
	CHECK(clyde_fio_sniff(csv, strlen(csv), &off) == CLYDE_FIO_NOT);
	CHECK(clyde_fio_sniff("", 0, &off) == CLYDE_FIO_NOT);
}

/* fio's bandwidth is io_bytes over the runtime in ms (its own rounding):
 * the reader gives back consistent figures, not something made up. */
static bool consistent(const struct clyde_fio_dir *d)
{
	double bw;

	if (!d->runtime_ms)
		return false;
	bw = (double)d->io_bytes * 1000.0 / (double)d->runtime_ms;
	return fabs(bw - (double)d->bw_bytes) <= 1.0 + bw * 1e-6 &&
	       fabs(d->iops * (double)d->runtime_ms / 1000.0 -
		    (double)d->total_ios) <= 1.0 + (double)d->total_ios * 1e-3;
}

static void test_two_jobs(void)
{
	struct clyde_fio_result res;
	char why[CLYDE_FIO_WHY_LEN];
	unsigned long line;
	size_t len;
	char *t = fixture("fio-two-jobs.json", &len);

	CHECK(t && parse(t, len, &res, why, &line) == 0);
	if (!t)
		return;
	CHECK_STR(res.version, "fio-3.33");
	CHECK(!res.plus && res.timestamp > 1600000000u);
	CHECK(res.njobs == 2);
	if (res.njobs == 2) {
		const struct clyde_fio_job *w = &res.jobs[0], *r = &res.jobs[1];

		CHECK_STR(w->jobname, "seqwrite");
		CHECK_STR(r->jobname, "seqread");
		/* stonewall: a group each, kept apart. */
		CHECK(w->groupid == 0 && r->groupid == 1);
		CHECK(w->dir[CLYDE_FIO_WRITE].ran &&
		      !w->dir[CLYDE_FIO_READ].ran);
		CHECK(r->dir[CLYDE_FIO_READ].ran &&
		      !r->dir[CLYDE_FIO_WRITE].ran);
		CHECK(!w->dir[CLYDE_FIO_TRIM].ran);
		CHECK(consistent(&w->dir[CLYDE_FIO_WRITE]));
		CHECK(consistent(&r->dir[CLYDE_FIO_READ]));
		/* [global] options, then the job's own. */
		CHECK_STR(clyde_fio_opt(w, "bs"), "64k");
		CHECK_STR(clyde_fio_opt(w, "rw"), "write");
		CHECK_STR(clyde_fio_opt(r, "rw"), "read");
		CHECK_STR(clyde_fio_opt(r, "ioengine"), "psync");
		CHECK(w->has_cpu && w->job_runtime_ms >= 500);
		/* Plain json: fio's clat percentiles, no bins. */
		CHECK_STR(r->dir[CLYDE_FIO_READ].lat.which, "clat");
		CHECK(r->dir[CLYDE_FIO_READ].lat.has_pct &&
		      !r->dir[CLYDE_FIO_READ].lat.hist);
		CHECK(r->dir[CLYDE_FIO_READ].lat.count ==
		      r->dir[CLYDE_FIO_READ].total_ios);
		CHECK(w->line > 1 && r->line > w->line);
	}
	/* One job cut out: a document of its own, with the same figures. */
	if (res.njobs == 2) {
		struct clyde_fio_result one;
		char *doc;
		size_t n;

		CHECK(clyde_fio_job_doc(t, len, &res, 1, &doc, &n) == 0);
		CHECK(n < len && strlen(doc) == n);
		CHECK(parse(doc, n, &one, why, &line) == 0 && one.njobs == 1);
		if (one.njobs == 1) {
			CHECK_STR(one.jobs[0].jobname, "seqread");
			CHECK(one.jobs[0].dir[CLYDE_FIO_READ].bw_bytes ==
			      res.jobs[1].dir[CLYDE_FIO_READ].bw_bytes);
			CHECK(one.timestamp == res.timestamp);
			CHECK_STR(clyde_fio_opt(&one.jobs[0], "bs"), "64k");
		}
		clyde_fio_result_release(&one);
		free(doc);
	}
	clyde_fio_result_release(&res);
	free(t);
}

/* json+: the bins into clyde's histogram, percentiles by clyde's rule,
 * close to fio's own (both are bucketed: a few percent apart at most). */
static void test_plus(void)
{
	static const char *const files[] = { "fio-randread-plus.json",
					     "fio-randrw-plus.json",
					     "fio-randtrim-plus.json" };

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct clyde_fio_result res;
		char why[CLYDE_FIO_WHY_LEN];
		unsigned long line;
		size_t len, nran = 0;
		char *t = fixture(files[f], &len);

		CHECK(t && parse(t, len, &res, why, &line) == 0);
		if (!t)
			continue;
		CHECK(res.plus && res.njobs == 1);
		for (int d = 0; d < CLYDE_FIO_NDDIR && res.njobs; d++) {
			const struct clyde_fio_dir *dir = &res.jobs[0].dir[d];
			const struct clyde_fio_lat *l = &dir->lat;
			uint64_t p99;

			if (!dir->ran)
				continue;
			nran++;
			CHECK(consistent(dir));
			CHECK(l->hist && l->has_pct);
			if (!l->hist)
				continue;
			CHECK(clyde_hist_count(l->hist) == l->count);
			CHECK(l->count == dir->total_ios);
			p99 = clyde_hist_quantile(l->hist, 0.99);
			CHECK(fabs((double)p99 - (double)l->p99_ns) <=
			      0.05 * (double)l->p99_ns);
			CHECK(clyde_hist_max(l->hist) <= l->max_ns * 1.02);
		}
		/* randrw: reads and writes; the others one direction. */
		CHECK(nran == (f == 1 ? 2u : 1u));
		clyde_fio_result_release(&res);
		free(t);
	}
}

/* Cut short anywhere: refused, "ends early", a line inside the file. */
static void test_truncated(void)
{
	struct clyde_fio_result res;
	char why[CLYDE_FIO_WHY_LEN];
	unsigned long line;
	size_t len, cut, bad = 0, tried = 0;
	char *t = fixture("fio-randrw-plus.json", &len);

	if (!t)
		return;
	for (cut = 20; cut + 2 < len; cut += 97) {
		int rc = parse(t, cut, &res, why, &line);

		tried++;
		if (rc != -EINVAL || !strstr(why, "ends early") || !line) {
			bad++;
			printf("# cut at %zu: rc %d, %s\n", cut, rc, why);
		}
		if (rc == 0)
			clyde_fio_result_release(&res);
	}
	CHECK(tried > 100 && bad == 0);
	free(t);
}

/* Text in place of one fio version: refused by name, with its line. */
static void test_versions(void)
{
	static const char *const refused[] = { "fio-2.2.10", "fio-4.0", "fio-3",
					       "3.33" };
	static const char *const taken[] = { "fio-3.36-12-gabcdef0",
					     "fio-3.1" };
	size_t len;
	char *t = fixture("fio-randread.json", &len);
	char *at;

	if (!t)
		return;
	at = strstr(t, "\"fio-3.33\"");
	CHECK(at != NULL);
	for (size_t i = 0; at && i < 6; i++) {
		bool ok = i >= 4;
		const char *v = ok ? taken[i - 4] : refused[i];
		struct clyde_fio_result res;
		char why[CLYDE_FIO_WHY_LEN], *doc;
		unsigned long line;
		int rc, n;

		n = asprintf(&doc, "%.*s\"%s\"%s", (int)(at - t), t, v,
			     at + strlen("\"fio-3.33\""));
		CHECK(n > 0);
		if (n <= 0)
			continue;
		rc = parse(doc, (size_t)n, &res, why, &line);
		if (ok) {
			CHECK(rc == 0);
			clyde_fio_result_release(&res);
		} else {
			CHECK(rc == -EINVAL && strstr(why, v) &&
			      strstr(why, "fio 3.x") && line == 2);
		}
		free(doc);
	}
	free(t);
}

/* A member of the wrong type: the whole file refused, the line named. */
static void test_bad_member(void)
{
	struct clyde_fio_result res;
	char why[CLYDE_FIO_WHY_LEN];
	unsigned long line;
	size_t len;
	char *t = fixture("fio-randread.json", &len);
	char *at;

	if (!t)
		return;
	at = strstr(t, "\"bw_bytes\" : ");
	CHECK(at != NULL);
	if (at) {
		memcpy(at + strlen("\"bw_bytes\" : "), "\"", 1);
		/* now "bw_bytes" : "3377694, -- not JSON any more */
		CHECK(parse(t, len, &res, why, &line) == -EINVAL && line > 2);
	}
	free(t);
	t = fixture("fio-randread.json", &len);
	at = t ? strstr(t, "\"total_ios\" : ") : NULL;
	if (at) {
		/* A string where a number belongs, still valid JSON. */
		at[1] = 'x';
		CHECK(parse(t, len, &res, why, &line) == -EINVAL &&
		      strstr(why, "\"total_ios\"") && line > 2);
	}
	free(t);
}

/* The jobs as loaded runs, and the messages for what is not fio JSON. */
static void test_loaded(void)
{
	struct clyde_loaded_set set;
	struct clyde_ctx ctx;
	size_t len;
	char *t;

	clyde_ctx_init(&ctx);

	clyde_loaded_set_init(&set);
	t = fixture("fio-randrw-plus.json", &len);
	CHECK(t &&
	      clyde_loaded_read_buffer(&ctx, t, len, "mix.json", &set) == 0);
	CHECK(set.nruns == 1 && set.nerrors == 0);
	if (set.nruns == 1) {
		const struct clyde_loaded_run *r = &set.runs[0];

		CHECK(r->kind == CLYDE_LOADED_FIO);
		CHECK_STR(r->label, "mix");
		CHECK_STR(r->format, "fio JSON+");
		CHECK(r->ntests == 4);
		if (r->ntests == 4) {
			CHECK_STR(r->tests[0].name, "randrw read");
			CHECK_STR(r->tests[0].unit, "B/s");
			CHECK_STR(r->tests[1].name, "randrw read IOPS");
			CHECK_STR(r->tests[1].unit, "IO/s");
			CHECK_STR(r->tests[2].name, "randrw write");
			CHECK(r->tests[0].state == CLYDE_LOADED_VALUE);
			CHECK(r->tests[0].has_latency &&
			      r->tests[0].latency.p50_ns <=
				      r->tests[0].latency.p99_ns &&
			      r->tests[0].latency.p99_ns <=
				      r->tests[0].latency.max_ns);
			CHECK(r->tests[0].has_cpu && r->tests[0].cpu_pct > 0);
			CHECK(!r->tests[1].has_latency);
		}
		CHECK_STR(clyde_loaded_kv_get(r, "written by"), "fio-3.33");
		CHECK_STR(clyde_loaded_kv_get(r, "I/O engine"), "psync");
		CHECK_STR(clyde_loaded_kv_get(r, "fio rwmixread"), "70");
		CHECK(clyde_loaded_kv_get(r, "fio name") == NULL);
	}
	clyde_loaded_set_release(&set);
	free(t);

	/* Two groups, two runs; numjobs=2, two runs of one name. */
	clyde_loaded_set_init(&set);
	t = fixture("fio-two-jobs.json", &len);
	CHECK(t && clyde_loaded_read_buffer(&ctx, t, len, "two", &set) == 0);
	CHECK(set.nruns == 2);
	if (set.nruns == 2) {
		CHECK_STR(set.runs[0].tests[0].name, "seqwrite");
		CHECK_STR(set.runs[1].tests[0].name, "seqread");
		CHECK_STR(clyde_loaded_kv_get(&set.runs[1], "fio group"), "1");
		CHECK(strcmp(set.runs[0].source, set.runs[1].source) != 0);
	}
	clyde_loaded_set_release(&set);
	free(t);
	clyde_loaded_set_init(&set);
	t = fixture("fio-numjobs.json", &len);
	CHECK(t && clyde_loaded_read_buffer(&ctx, t, len, "nj", &set) == 0);
	CHECK(set.nruns == 2);
	/* 80 ms each: too fast, the rate kept and marked. */
	if (set.nruns == 2)
		CHECK(set.runs[1].tests[0].state == CLYDE_LOADED_TOO_FAST &&
		      set.runs[1].tests[0].has_rate);
	clyde_loaded_set_release(&set);
	free(t);

	/* Plain json: fio's own percentiles. */
	clyde_loaded_set_init(&set);
	t = fixture("fio-randread.json", &len);
	CHECK(t && clyde_loaded_read_buffer(&ctx, t, len, "rr", &set) == 0);
	CHECK(set.nruns == 1 && set.runs[0].ntests == 2);
	if (set.nruns == 1 && set.runs[0].ntests == 2) {
		CHECK_STR(set.runs[0].tests[0].name, "randread");
		CHECK(set.runs[0].tests[0].has_latency &&
		      strstr(t, "\"99.000000\" : "));
		if (strstr(t, "\"99.000000\" : "))
			CHECK(set.runs[0].tests[0].latency.p99_ns ==
			      strtoull(strstr(t, "\"99.000000\" : ") + 14, NULL,
				       10));
	}
	clyde_loaded_set_release(&set);
	free(t);

	/* fio's text output: one message naming the file, no run. */
	clyde_loaded_set_init(&set);
	t = fixture("fio-randread.txt", &len);
	CHECK(t && clyde_loaded_read_buffer(&ctx, t, len, "rr.txt", &set) == 0);
	CHECK(set.nruns == 0 && set.nerrors == 1);
	if (set.nerrors == 1)
		CHECK(!strncmp(set.errors[0], "rr.txt: fio's normal (text)",
			       27) &&
		      strstr(set.errors[0], "--output-format=json"));
	clyde_loaded_set_release(&set);
	/* Cut short: one message, no run. */
	clyde_loaded_set_init(&set);
	CHECK(t && clyde_loaded_read_buffer(&ctx, t, len, "x", &set) == 0);
	clyde_loaded_set_release(&set);
	free(t);
	clyde_loaded_set_init(&set);
	t = fixture("fio-two-jobs.json", &len);
	CHECK(t && clyde_loaded_read_buffer(&ctx, t, len / 2, "cut.json",
					    &set) == 0);
	CHECK(set.nruns == 0 && set.nerrors == 1);
	if (set.nerrors == 1)
		CHECK(!strncmp(set.errors[0], "cut.json:", 9) &&
		      strstr(set.errors[0], "ends early"));
	clyde_loaded_set_release(&set);
	free(t);
	clyde_ctx_release(&ctx);
}

int main(void)
{
	test_sniff();
	test_two_jobs();
	test_plus();
	test_truncated();
	test_versions();
	test_bad_member();
	test_loaded();
	return tap_done();
}

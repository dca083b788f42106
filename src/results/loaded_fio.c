/*
 * fio's jobs as loaded runs (see loaded.h and results/fio_read.h).
 *
 * A job becomes one run of kind CLYDE_LOADED_FIO, labelled with the
 * job's name.  Per direction that did any I/O it has two rows: the
 * bandwidth (bytes/s) named after the pattern the way clyde dev names
 * its tests -- "seqread", "seqwrite", "randread", "randwrite", "seqtrim",
 * "randtrim"; a mixed job "randrw read", "randrw write" (its reads are
 * not a pure read test, so they get a row of their own) -- and the same
 * name with " IOPS" (IO/s).  Both carry the job's CPU (usr + sys, percent
 * of one CPU, as clyde's); the bandwidth row carries the latency.  A
 * direction that ran for under 0.5 s is "too fast", as clyde's own tests
 * are: its rate is shown marked.
 *
 * The job's options become settings under clyde's names where clyde has
 * the same setting (I/O engine, queue depth, O_DIRECT), else "fio NAME",
 * so the "what differs" table lines a fio job up with a clyde run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "results/loaded_internal.h"
#include "results/fio_read.h"
#include "results/result.h"

/* The row name of direction d of a job with fio's rw value `rw`. */
static void row_name(char *buf, size_t len, const char *rw,
		     enum clyde_fio_ddir d)
{
	static const struct {
		const char *rw, *mixed;
	} mixes[] = {
		{ "rw", "seqrw" },
		{ "readwrite", "seqrw" },
		{ "randrw", "randrw" },
		{ "trimwrite", "trimwrite" },
		{ "randtrimwrite", "randtrimwrite" },
	};
	char base[32];
	size_t n;

	/* "randread:8" (offset modifiers) is "randread". */
	snprintf(base, sizeof(base), "%s", rw ? rw : "read");
	n = strcspn(base, ":");
	base[n] = '\0';
	for (size_t i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++)
		if (!strcmp(base, mixes[i].rw)) {
			snprintf(buf, len, "%s %s", mixes[i].mixed,
				 clyde_fio_ddir_name(d));
			return;
		}
	snprintf(buf, len, "%s%s", strncmp(base, "rand", 4) ? "seq" : "rand",
		 clyde_fio_ddir_name(d));
}

/* Settings that clyde records too, under clyde's name. */
static const struct {
	const char *fio, *clyde;
} same_keys[] = {
	{ "ioengine", "I/O engine" },
	{ "iodepth", "queue depth" },
	{ "direct", "O_DIRECT" },
};

static int job_kv(struct clyde_loaded_run *r, const struct clyde_fio_job *j,
		  const struct clyde_fio_result *res)
{
	char key[96], b[64];
	int rc = 0;

	rc |= clyde_loaded_kv_set(r, "source format", r->format);
	rc |= clyde_loaded_kv_set(r, "written by", res->version);
	snprintf(b, sizeof(b), "%" PRId64, j->groupid);
	rc |= clyde_loaded_kv_set(r, "fio group", b);
	for (size_t i = 0; i < j->nopts; i++) {
		const char *k = j->opts[i].key, *v = j->opts[i].value;
		size_t s;

		if (!strcmp(k, "name"))
			continue; /* the label */
		for (s = 0; s < sizeof(same_keys) / sizeof(same_keys[0]); s++)
			if (!strcmp(k, same_keys[s].fio))
				break;
		if (s < sizeof(same_keys) / sizeof(same_keys[0])) {
			if (!strcmp(k, "direct"))
				v = strcmp(v, "0") ? "yes" : "no";
			rc |= clyde_loaded_kv_set(r, same_keys[s].clyde, v);
			continue;
		}
		snprintf(key, sizeof(key), "fio %s", k);
		rc |= clyde_loaded_kv_set(r, key, v);
	}
	if (j->job_runtime_ms) {
		snprintf(b, sizeof(b), "%.3f s",
			 (double)j->job_runtime_ms / 1e3);
		rc |= clyde_loaded_kv_set(r, "fio job runtime", b);
	}
	for (int d = 0; d < CLYDE_FIO_NDDIR; d++)
		if (j->dir[d].ran && j->dir[d].lat.which) {
			rc |= clyde_loaded_kv_set(
				r, "fio latency",
				!strcmp(j->dir[d].lat.which, "lat") ?
					"lat (submission to completion)" :
					"clat (completion; without "
					"submission)");
			break;
		}
	if (j->error) {
		snprintf(b, sizeof(b), "%" PRId64 " (%s)", j->error,
			 strerror((int)j->error));
		rc |= clyde_loaded_kv_set(r, "fio error", b);
	}
	return rc ? -ENOMEM : 0;
}

/* The latency of a direction into t: percentiles by clyde's rule from
 * json+'s bins, else fio's own percentiles, else only the max. */
static void dir_latency(const struct clyde_fio_lat *l,
			struct clyde_loaded_test *t)
{
	struct clyde_loaded_latency *o = &t->latency;

	if (!l->which || !l->count)
		return;
	t->has_latency_max = true;
	t->latency_max_ns = l->max_ns;
	if (!l->hist && !l->has_pct)
		return;
	t->has_latency = true;
	o->count = l->count;
	o->min_ns = l->min_ns;
	o->mean_ns = (uint64_t)(l->mean_ns + 0.5);
	o->max_ns = l->max_ns;
	if (l->hist) {
		o->p50_ns = clyde_hist_quantile(l->hist, 0.50);
		o->p90_ns = clyde_hist_quantile(l->hist, 0.90);
		o->p99_ns = clyde_hist_quantile(l->hist, 0.99);
		o->p999_ns = clyde_hist_quantile(l->hist, 0.999);
	} else {
		o->p50_ns = l->p50_ns;
		o->p90_ns = l->p90_ns;
		o->p99_ns = l->p99_ns;
		o->p999_ns = l->p999_ns;
	}
}

/* Fill test t with one rate of a direction. */
static int dir_test(struct clyde_loaded_test *t, const char *name,
		    const char *unit, double rate,
		    const struct clyde_fio_dir *dir,
		    const struct clyde_fio_job *j)
{
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->unit, sizeof(t->unit), "%s", unit);
	t->group = CLYDE_GROUP_DEV;
	t->state = dir->runtime_ms * 1000000ull < CLYDE_TOO_FAST_NS ?
			   CLYDE_LOADED_TOO_FAST :
			   CLYDE_LOADED_VALUE;
	t->has_rate = true;
	t->rate = rate;
	if (j->has_cpu) {
		t->has_cpu = true;
		t->cpu_pct = j->usr_cpu + j->sys_cpu;
	}
	return clyde_loaded_add_sample(t, rate);
}

static int add_job(struct clyde_loaded_set *set, const char *name,
		   const struct clyde_fio_result *res, size_t k)
{
	const struct clyde_fio_job *j = &res->jobs[k];
	struct clyde_loaded_run *r;
	size_t nt = 0;
	int rc = 0;

	for (int d = 0; d < CLYDE_FIO_NDDIR; d++)
		nt += j->dir[d].ran ? 2 : 0;
	r = clyde_loaded_new_run(set, name, j->line, nt);
	if (!r)
		return -ENOMEM;
	r->kind = CLYDE_LOADED_FIO;
	snprintf(r->format, sizeof(r->format), "fio JSON%s",
		 res->plus ? "+" : "");
	r->started_unix = res->timestamp;
	rc |= clyde_loaded_set_label(r, j->jobname);
	rc |= job_kv(r, j, res);
	nt = 0;
	for (int d = 0; d < CLYDE_FIO_NDDIR && !rc; d++) {
		const struct clyde_fio_dir *dir = &j->dir[d];
		char row[32], iops[48];

		if (!dir->ran)
			continue;
		row_name(row, sizeof(row),
			 clyde_fio_opt(j, "rw") ? clyde_fio_opt(j, "rw") :
						  clyde_fio_opt(j, "readwrite"),
			 (enum clyde_fio_ddir)d);
		rc |= dir_test(&r->tests[nt], row, "B/s", (double)dir->bw_bytes,
			       dir, j);
		dir_latency(&dir->lat, &r->tests[nt]);
		snprintf(iops, sizeof(iops), "%s IOPS", row);
		rc |= dir_test(&r->tests[nt + 1], iops, "IO/s", dir->iops, dir,
			       j);
		nt += 2;
	}
	if (rc)
		clyde_loaded_drop_last(set);
	return rc ? -ENOMEM : 0;
}

int clyde_loaded_add_fio(struct clyde_ctx *ctx, const char *data, size_t len,
			 size_t json_off, const char *name,
			 struct clyde_loaded_set *set)
{
	struct clyde_fio_result res;
	char why[CLYDE_FIO_WHY_LEN];
	unsigned long line;
	int rc;

	rc = clyde_fio_parse(data, len, json_off, &res, why, sizeof(why),
			     &line);
	if (rc == -EINVAL) {
		if (clyde_loaded_add_error(set, "%s:%lu: %s", name, line, why))
			return clyde_err(ctx, ENOMEM, "reading %s", name);
		return 0;
	}
	if (rc)
		return clyde_err(ctx, ENOMEM, "reading %s", name);
	for (size_t k = 0; k < res.njobs && !rc; k++)
		rc = add_job(set, name, &res, k);
	clyde_fio_result_release(&res);
	if (rc)
		return clyde_err(ctx, ENOMEM, "reading %s", name);
	return 0;
}

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
 * With numjobs=N each job is an entry of its own, and with
 * group_reporting one entry adds the N up: its rows are named "randread
 * (N jobs)", so that a total is never ranked against one job, and its
 * job runtime is per job ("fio jobs in each figure" says N).
 *
 * The job's options become settings under clyde's names where clyde has
 * the same setting (I/O engine, queue depth, O_DIRECT), else "fio NAME",
 * so the "what differs" table lines a fio job up with a clyde run.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/size.h"
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

/*
 * How many jobs one entry's figures add up: numjobs=N reports each job
 * alone (N entries of one name), unless group_reporting sums them into
 * one entry -- which fio's JSON does not list among the options; its
 * job_runtime is then the sum of the N jobs' runtimes, about N times the
 * longest direction's.  1 for an entry of one job.
 */
static unsigned jobs_in_entry(const struct clyde_fio_job *j)
{
	const char *nj = clyde_fio_opt(j, "numjobs");
	uint64_t n = 0, wall = 0;

	if (!nj || clyde_u64_parse(nj, &n) < 0 || n < 2 || n > 100000)
		return 1;
	for (int d = 0; d < CLYDE_FIO_NDDIR; d++)
		if (j->dir[d].ran && j->dir[d].runtime_ms > wall)
			wall = j->dir[d].runtime_ms;
	return wall && j->job_runtime_ms * 2 > wall * 3 ? (unsigned)n : 1;
}

/* A size as fio reads it ("16m", "4k", "4KiB", "512"; k, m, g, t, p are
 * powers of 1024, fio's default kb_base) into *out.  False when it is not
 * one (a range, a percentage, "1.5g"). */
static bool fio_size(const char *v, uint64_t *out)
{
	static const char units[] = "kmgtp";
	uint64_t n = 0;
	const char *c = v;
	const char *u;
	unsigned shift = 0;

	if (*c < '0' || *c > '9')
		return false;
	for (; *c >= '0' && *c <= '9'; c++) {
		if (n > UINT64_MAX / 10 - 9)
			return false;
		n = n * 10 + (uint64_t)(*c - '0');
	}
	if (*c && (u = strchr(units, *c | 0x20)) != NULL) {
		shift = 10 * (unsigned)(u - units + 1);
		c++;
		if (*c == 'i' || *c == 'I')
			c++;
		if (*c == 'b' || *c == 'B')
			c++;
	} else if (*c == 'b' || *c == 'B') {
		c++;
	}
	if (*c || (shift && n > (UINT64_MAX >> shift)))
		return false;
	*out = n << shift;
	return true;
}

/*
 * What fio records, under the keys a clyde dev run records it by (so
 * that "what differs" lines the two up): the file or device ("target
 * path"), the range ("size", "offset") and the request size ("bs" for a
 * sequential job, "rand_bs" for a random one) in bytes.  Returns the key,
 * or NULL when the option is not one of them; the value in buf.
 */
static const char *dev_key(const struct clyde_fio_job *j, const char *k,
			   const char *v, char *buf, size_t len)
{
	const char *rw = clyde_fio_opt(j, "rw");
	uint64_t n;

	if (!rw)
		rw = clyde_fio_opt(j, "readwrite");
	if (!strcmp(k, "filename") && !strchr(v, ':')) {
		snprintf(buf, len, "%s", v);
		return "target path";
	}
	if (strcmp(k, "size") && strcmp(k, "offset") && strcmp(k, "bs"))
		return NULL;
	if (!fio_size(v, &n))
		return NULL;
	snprintf(buf, len, "%" PRIu64, n);
	if (strcmp(k, "bs"))
		return k;
	return rw && !strncmp(rw, "rand", 4) ? "rand_bs" : "bs";
}

static int job_kv(struct clyde_loaded_run *r, const struct clyde_fio_job *j,
		  const struct clyde_fio_result *res)
{
	unsigned njobs = jobs_in_entry(j);
	const char *engine = clyde_fio_opt(j, "ioengine");
	char key[96], b[PATH_MAX];
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
		if ((k = dev_key(j, k, v, b, sizeof(b))) != NULL) {
			rc |= clyde_loaded_kv_set(r, k, b);
			continue;
		}
		snprintf(key, sizeof(key), "fio %s", j->opts[i].key);
		rc |= clyde_loaded_kv_set(r, key, v);
	}
	/* What fio ran without being told: its defaults (psync, depth 1,
	 * buffered), and a sync engine's depth of 1 whatever was asked. */
	if (!engine)
		rc |= clyde_loaded_kv_set(r, "I/O engine", "psync");
	if (!clyde_fio_opt(j, "iodepth") ||
	    clyde_result_engine_sync(engine ? engine : "psync"))
		rc |= clyde_loaded_kv_set(r, "queue depth", "1");
	if (!clyde_fio_opt(j, "direct"))
		rc |= clyde_loaded_kv_set(r, "O_DIRECT", "no");
	/* A group's total: its job_runtime is the sum over its jobs. */
	if (j->job_runtime_ms && njobs > 1) {
		snprintf(b, sizeof(b), "%.3f s each",
			 (double)j->job_runtime_ms / 1e3 / njobs);
		rc |= clyde_loaded_kv_set(r, "fio job runtime", b);
		snprintf(b, sizeof(b), "%u (group_reporting)", njobs);
		rc |= clyde_loaded_kv_set(r, "fio jobs in each figure", b);
	} else if (j->job_runtime_ms) {
		snprintf(b, sizeof(b), "%.3f s",
			 (double)j->job_runtime_ms / 1e3);
		rc |= clyde_loaded_kv_set(r, "fio job runtime", b);
	}
	if (njobs == 1 && clyde_fio_opt(j, "numjobs") &&
	    strcmp(clyde_fio_opt(j, "numjobs"), "1"))
		rc |= clyde_loaded_kv_set(r, "fio jobs in each figure",
					  "1 (each job alone)");
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
		unsigned njobs = jobs_in_entry(j);
		char row[32], iops[48];

		if (!dir->ran)
			continue;
		row_name(row, sizeof(row),
			 clyde_fio_opt(j, "rw") ? clyde_fio_opt(j, "rw") :
						  clyde_fio_opt(j, "readwrite"),
			 (enum clyde_fio_ddir)d);
		/* A group's total is another figure than one job's: a row
		 * of its own, never ranked against a job's. */
		if (njobs > 1) {
			size_t n = strlen(row);

			snprintf(row + n, sizeof(row) - n, " (%u jobs)", njobs);
		}
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

/*
 * fio's JSON output, read into struct clyde_fio_result (see fio_read.h).
 *
 * Two passes over one text: the JSON parser builds the tree the figures
 * are read from, and a small scanner over the raw bytes (valid JSON by
 * then) finds where the "jobs" array and each job are, so that one job
 * can be cut out into a document of its own without writing JSON back.
 */
#include "results/fio_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far into the data the sniffer looks. */
#define SNIFF_BYTES 4096

const char *clyde_fio_ddir_name(enum clyde_fio_ddir d)
{
	static const char *const n[] = { "read", "write", "trim" };

	return (unsigned)d < CLYDE_FIO_NDDIR ? n[d] : "?";
}

/* ---- sniffing -------------------------------------------------------- */

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

/* A line of fio's normal output naming a job: "NAME: (g=N): rw=". */
static bool text_job_line(const char *s, size_t n)
{
	const char *p = memchr(s, ':', n);

	if (!p || p == s)
		return false;
	n -= (size_t)(p - s);
	return starts(p, n, ": (g=") && memmem(p, n, "): rw=", 6);
}

enum clyde_fio_kind clyde_fio_sniff(const char *data, size_t len,
				    size_t *json_off)
{
	size_t i = 0, end = len < SNIFF_BYTES ? len : SNIFF_BYTES;
	bool saw_version_line = false;

	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < end) {
		const char *s = data + i, *nl = memchr(s, '\n', end - i);
		size_t n = nl ? (size_t)(nl - s) : end - i;
		size_t j = 0;

		while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'))
			j++;
		if (j < n && s[j] == '{') {
			size_t k = j + 1;

			/* The first member of fio's envelope. */
			while (i + k < end &&
			       (data[i + k] == ' ' || data[i + k] == '\t' ||
				data[i + k] == '\r' || data[i + k] == '\n'))
				k++;
			if (starts(data + i + k, end - i - k,
				   "\"fio version\"")) {
				*json_off = i + j;
				return CLYDE_FIO_JSON;
			}
			return CLYDE_FIO_NOT;
		}
		if (text_job_line(s + j, n - j))
			return CLYDE_FIO_TEXT;
		if (starts(s + j, n - j, "fio-"))
			saw_version_line = true;
		else if (saw_version_line && starts(s + j, n - j, "Starting "))
			return CLYDE_FIO_TEXT;
		/* fio's notes and messages before the JSON; blank lines. */
		else if (j < n && !starts(s + j, n - j, "note:") &&
			 !starts(s + j, n - j, "fio:"))
			return CLYDE_FIO_NOT;
		if (!nl)
			break;
		i += n + 1;
	}
	return CLYDE_FIO_NOT;
}

/* ---- the raw scanner (over text known to be valid JSON) -------------- */

static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n &&
	       (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

/* i at '"': the index after the closing quote (n when there is none). */
static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}

/* The index after the value at i; n when the text ends inside it. */
static size_t skip_value(const char *s, size_t n, size_t i)
{
	unsigned long depth = 0;

	if (i < n && s[i] == '"')
		return skip_string(s, n, i);
	if (i < n && s[i] != '{' && s[i] != '[') {
		while (i < n && !strchr(",]} \t\r\n", s[i]))
			i++;
		return i;
	}
	while (i < n) {
		if (s[i] == '"') {
			i = skip_string(s, n, i);
			continue;
		}
		if (s[i] == '{' || s[i] == '[')
			depth++;
		else if ((s[i] == '}' || s[i] == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return n;
}

/* Find the top-level "jobs" array of the object at res->json_off (its
 * first "jobs" member, as clyde_json_get() takes) and the span of each of
 * its res->njobs elements (text_off, text_len).  -EINVAL when the text
 * does not hold them where the tree did (a key written with escapes). */
static int scan_jobs(const char *s, size_t n, struct clyde_fio_result *res)
{
	size_t i = skip_ws(s, n, res->json_off) + 1, k = 0;

	for (;;) {
		size_t key;

		i = skip_ws(s, n, i);
		if (i >= n || s[i] != '"')
			return -EINVAL;
		key = i;
		i = skip_ws(s, n, skip_string(s, n, i));
		if (i >= n || s[i] != ':')
			return -EINVAL;
		i = skip_ws(s, n, i + 1);
		if (i - key >= 6 && starts(s + key, n - key, "\"jobs\"") &&
		    s[i] == '[')
			break;
		i = skip_ws(s, n, skip_value(s, n, i));
		if (i >= n || s[i] != ',')
			return -EINVAL;
		i++;
	}
	res->jobs_open = i;
	i = skip_ws(s, n, i + 1);
	while (i < n && s[i] != ']') {
		size_t start = i;

		i = skip_value(s, n, i);
		if (k < res->njobs) {
			res->jobs[k].text_off = start;
			res->jobs[k].text_len = i - start;
		}
		k++;
		i = skip_ws(s, n, i);
		if (i < n && s[i] == ',')
			i = skip_ws(s, n, i + 1);
	}
	if (i >= n || k != res->njobs)
		return -EINVAL;
	res->jobs_close = i;
	return 0;
}

/* Does the text from off end inside an object, array or string (where
 * a file cut short ends)? */
static bool ends_early(const char *s, size_t n, size_t off)
{
	unsigned long depth = 0;
	size_t i = skip_ws(s, n, off);

	while (i < n) {
		if (s[i] == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			if (i >= n)
				return true; /* inside a string */
			i++;
			continue;
		}
		if (s[i] == '{' || s[i] == '[')
			depth++;
		else if ((s[i] == '}' || s[i] == ']') && depth && --depth == 0)
			return false;
		i++;
	}
	return depth > 0;
}

/* ---- reading the tree ------------------------------------------------ */

struct rd {
	char *why;
	size_t whylen;
	unsigned long *line;
	unsigned long base; /* lines before json_off */
	int rc;
};

__attribute__((format(printf, 3, 4))) static void
bad(struct rd *rd, const struct clyde_json *at, const char *fmt, ...)
{
	va_list ap;

	if (rd->rc)
		return;
	va_start(ap, fmt);
	vsnprintf(rd->why, rd->whylen, fmt, ap);
	va_end(ap);
	*rd->line = rd->base + (at ? at->line : 1);
	rd->rc = -EINVAL;
}

static const struct clyde_json *need(struct rd *rd,
				     const struct clyde_json *obj,
				     const char *key, enum clyde_json_type t,
				     const char *where)
{
	const struct clyde_json *v = clyde_json_get(obj, key);

	if (v && v->type == t)
		return v;
	if (!v)
		bad(rd, obj, "%s has no \"%s\" %s", where, key,
		    clyde_json_type_name(t));
	else
		bad(rd, v, "%s: \"%s\" is %s, not %s", where, key,
		    clyde_json_type_name(v->type), clyde_json_type_name(t));
	return NULL;
}

static bool need_u64(struct rd *rd, const struct clyde_json *obj,
		     const char *key, const char *where, uint64_t *out)
{
	const struct clyde_json *v =
		need(rd, obj, key, CLYDE_JSON_NUMBER, where);

	if (!v)
		return false;
	if (!clyde_json_u64(v, out)) {
		bad(rd, v, "%s: \"%s\" is not a whole number >= 0", where, key);
		return false;
	}
	return true;
}

static bool need_num(struct rd *rd, const struct clyde_json *obj,
		     const char *key, const char *where, double *out)
{
	const struct clyde_json *v =
		need(rd, obj, key, CLYDE_JSON_NUMBER, where);

	return v && clyde_json_double(v, out);
}

static bool need_int(struct rd *rd, const struct clyde_json *obj,
		     const char *key, const char *where, int64_t *out)
{
	const struct clyde_json *v =
		need(rd, obj, key, CLYDE_JSON_NUMBER, where);

	if (!v)
		return false;
	if (!v->is_int) {
		bad(rd, v, "%s: \"%s\" is not a whole number", where, key);
		return false;
	}
	*out = v->inum;
	return true;
}

/* fio's percentile map: "99.900000": value.  0 when absent. */
static bool pct(const struct clyde_json *map, const char *key, uint64_t *out)
{
	return clyde_json_u64(clyde_json_get(map, key), out);
}

/* The "bins" of json+ into a new histogram. */
static void read_bins(struct rd *rd, const struct clyde_json *bins,
		      const char *where, struct clyde_fio_lat *l)
{
	l->hist = malloc(sizeof(*l->hist));
	if (!l->hist) {
		rd->rc = -ENOMEM;
		return;
	}
	clyde_hist_init(l->hist);
	for (size_t i = 0; i < bins->n; i++) {
		const struct clyde_json *b = &bins->items[i];
		uint64_t v, c;
		char *end;

		errno = 0;
		v = strtoull(b->key, &end, 10);
		if (errno || end == b->key || *end || !clyde_json_u64(b, &c)) {
			bad(rd, b, "%s: bin \"%.40s\" is not \"ns\": count",
			    where, b->key);
			return;
		}
		clyde_hist_record_n(l->hist, v, c);
	}
}

/* One latency object ("lat_ns" or "clat_ns") of a direction. */
static void read_lat(struct rd *rd, const struct clyde_json *o,
		     const char *which, const char *where,
		     struct clyde_fio_lat *l)
{
	const struct clyde_json *p = clyde_json_get(o, "percentile");
	const struct clyde_json *bins = clyde_json_get(o, "bins");
	char w[96];

	snprintf(w, sizeof(w), "%s.%s_ns", where, which);
	l->which = which;
	if (!need_u64(rd, o, "N", w, &l->count) ||
	    !need_u64(rd, o, "min", w, &l->min_ns) ||
	    !need_u64(rd, o, "max", w, &l->max_ns) ||
	    !need_num(rd, o, "mean", w, &l->mean_ns))
		return;
	if (p && p->type == CLYDE_JSON_OBJECT)
		l->has_pct = pct(p, "50.000000", &l->p50_ns) &&
			     pct(p, "90.000000", &l->p90_ns) &&
			     pct(p, "99.000000", &l->p99_ns) &&
			     pct(p, "99.900000", &l->p999_ns);
	if (bins && bins->type == CLYDE_JSON_OBJECT && bins->n)
		read_bins(rd, bins, w, l);
}

static void read_dir(struct rd *rd, const struct clyde_json *job,
		     enum clyde_fio_ddir d, const char *jw,
		     struct clyde_fio_dir *dir)
{
	const char *name = clyde_fio_ddir_name(d);
	const struct clyde_json *o, *lat, *clat, *use;
	char w[64];

	o = need(rd, job, name, CLYDE_JSON_OBJECT, jw);
	if (!o)
		return;
	snprintf(w, sizeof(w), "%s.%s", jw, name);
	if (!need_u64(rd, o, "io_bytes", w, &dir->io_bytes) ||
	    !need_u64(rd, o, "bw_bytes", w, &dir->bw_bytes) ||
	    !need_num(rd, o, "iops", w, &dir->iops) ||
	    !need_u64(rd, o, "runtime", w, &dir->runtime_ms) ||
	    !need_u64(rd, o, "total_ios", w, &dir->total_ios))
		return;
	dir->ran = dir->total_ios > 0 || dir->io_bytes > 0;
	lat = need(rd, o, "lat_ns", CLYDE_JSON_OBJECT, w);
	clat = need(rd, o, "clat_ns", CLYDE_JSON_OBJECT, w);
	if (!lat || !clat)
		return;
	/* The total latency is what clyde measures (submission to
	 * completion); fio gives its percentiles only with
	 * lat_percentiles=1, and by default those of clat. */
	use = clyde_json_get(lat, "percentile") || clyde_json_get(lat, "bins") ?
		      lat :
		      clat;
	read_lat(rd, use, use == lat ? "lat" : "clat", w, &dir->lat);
}

/* A scalar option value as text (fio writes strings). */
static char *opt_text(const struct clyde_json *v)
{
	char b[64];

	switch (v->type) {
	case CLYDE_JSON_STRING:
		return strdup(v->str);
	case CLYDE_JSON_NUMBER:
		if (v->is_int)
			snprintf(b, sizeof(b), "%" PRId64, v->inum);
		else
			snprintf(b, sizeof(b), "%.17g", v->num);
		return strdup(b);
	case CLYDE_JSON_TRUE:
		return strdup("1");
	case CLYDE_JSON_FALSE:
		return strdup("0");
	default:
		return strdup("");
	}
}

static void add_opts(struct rd *rd, const struct clyde_json *o,
		     struct clyde_fio_job *job)
{
	if (!o || o->type != CLYDE_JSON_OBJECT)
		return;
	for (size_t i = 0; i < o->n && !rd->rc; i++) {
		const struct clyde_json *v = &o->items[i];
		struct clyde_fio_opt *no;
		size_t k;
		char *val = opt_text(v);

		if (!val) {
			rd->rc = -ENOMEM;
			return;
		}
		for (k = 0; k < job->nopts; k++)
			if (!strcmp(job->opts[k].key, v->key))
				break;
		if (k < job->nopts) {
			free(job->opts[k].value);
			job->opts[k].value = val;
			continue;
		}
		no = realloc(job->opts, (job->nopts + 1) * sizeof(*no));
		if (!no) {
			free(val);
			rd->rc = -ENOMEM;
			return;
		}
		job->opts = no;
		no[job->nopts].key = strdup(v->key);
		no[job->nopts].value = val;
		if (!no[job->nopts].key) {
			free(val);
			rd->rc = -ENOMEM;
			return;
		}
		job->nopts++;
	}
}

const char *clyde_fio_opt(const struct clyde_fio_job *job, const char *key)
{
	for (size_t i = 0; i < job->nopts; i++)
		if (!strcmp(job->opts[i].key, key))
			return job->opts[i].value;
	return NULL;
}

static void read_job(struct rd *rd, const struct clyde_json *j, size_t idx,
		     const struct clyde_json *globals,
		     struct clyde_fio_job *job)
{
	const struct clyde_json *name;
	double usr, sys;
	char w[32];

	snprintf(w, sizeof(w), "jobs[%zu]", idx);
	job->line = rd->base + j->line;
	if (j->type != CLYDE_JSON_OBJECT) {
		bad(rd, j, "%s is %s, not an object", w,
		    clyde_json_type_name(j->type));
		return;
	}
	name = need(rd, j, "jobname", CLYDE_JSON_STRING, w);
	if (!name)
		return;
	job->jobname = strdup(name->str);
	if (!job->jobname) {
		rd->rc = -ENOMEM;
		return;
	}
	if (!need_int(rd, j, "groupid", w, &job->groupid) ||
	    !need_int(rd, j, "error", w, &job->error))
		return;
	/* Newer than some 3.x releases: optional. */
	clyde_json_u64(clyde_json_get(j, "job_runtime"), &job->job_runtime_ms);
	if (clyde_json_double(clyde_json_get(j, "usr_cpu"), &usr) &&
	    clyde_json_double(clyde_json_get(j, "sys_cpu"), &sys)) {
		job->has_cpu = true;
		job->usr_cpu = usr;
		job->sys_cpu = sys;
	}
	add_opts(rd, globals, job);
	add_opts(rd, clyde_json_get(j, "job options"), job);
	for (int d = 0; d < CLYDE_FIO_NDDIR && !rd->rc; d++)
		read_dir(rd, j, (enum clyde_fio_ddir)d, w, &job->dir[d]);
}

/* fio 3.x: "fio-3.33", "fio-3.36-12-gdeadbeef". */
static bool version_known(const char *v)
{
	return starts(v, strlen(v), "fio-3.") && v[6] >= '0' && v[6] <= '9';
}

int clyde_fio_parse(const char *data, size_t len, size_t json_off,
		    struct clyde_fio_result *res, char *why, size_t whylen,
		    unsigned long *line)
{
	struct rd rd = { why, whylen, line, 1, 0 };
	struct clyde_json root;
	struct clyde_json_error err;
	const struct clyde_json *v, *jobs;
	uint64_t ts = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	why[0] = '\0';
	*line = 0;
	for (size_t i = 0; i < json_off && i < len; i++)
		if (data[i] == '\n')
			rd.base++;
	rd.base--; /* the JSON's line 1 is line base + 1 of the data */
	rc = clyde_json_parse(data + json_off, len - json_off, NULL, &root,
			      &err);
	if (rc == -ENOMEM) {
		snprintf(why, whylen, "out of memory");
		return rc;
	}
	if (rc) {
		*line = rd.base + (err.line ? err.line : 1);
		if (ends_early(data, len, json_off))
			snprintf(why, whylen,
				 "the fio JSON ends early (a truncated "
				 "file?): %s",
				 err.why);
		else
			snprintf(why, whylen, "not valid fio JSON: %s",
				 err.why);
		return -EINVAL;
	}
	res->json_off = json_off;
	v = need(&rd, &root, "fio version", CLYDE_JSON_STRING, "the document");
	if (v && !version_known(v->str))
		bad(&rd, v,
		    "fio version \"%.40s\" is not one clyde reads (fio 3.x)",
		    v->str);
	if (v && !rd.rc)
		snprintf(res->version, sizeof(res->version), "%s", v->str);
	jobs = rd.rc ? NULL :
		       need(&rd, &root, "jobs", CLYDE_JSON_ARRAY,
			    "the document");
	if (jobs && !jobs->n)
		bad(&rd, jobs, "\"jobs\" is empty: fio ran no job");
	if (!rd.rc && clyde_json_u64(clyde_json_get(&root, "timestamp"), &ts))
		res->timestamp = ts;
	if (!rd.rc) {
		res->jobs = calloc(jobs->n, sizeof(*res->jobs));
		if (!res->jobs)
			rd.rc = -ENOMEM;
		else
			res->njobs = jobs->n;
	}
	for (size_t i = 0; !rd.rc && i < res->njobs; i++)
		read_job(&rd, &jobs->items[i], i,
			 clyde_json_get(&root, "global options"),
			 &res->jobs[i]);
	for (size_t i = 0; !rd.rc && i < res->njobs; i++)
		for (int d = 0; d < CLYDE_FIO_NDDIR; d++)
			if (res->jobs[i].dir[d].lat.hist)
				res->plus = true;
	if (!rd.rc && scan_jobs(data, len, res))
		bad(&rd, jobs, "cannot find the jobs in the text");
	clyde_json_free(&root);
	if (rd.rc) {
		if (rd.rc == -ENOMEM)
			snprintf(why, whylen, "out of memory");
		clyde_fio_result_release(res);
	}
	return rd.rc;
}

void clyde_fio_result_release(struct clyde_fio_result *res)
{
	for (size_t i = 0; i < res->njobs; i++) {
		struct clyde_fio_job *j = &res->jobs[i];

		free(j->jobname);
		for (size_t k = 0; k < j->nopts; k++) {
			free(j->opts[k].key);
			free(j->opts[k].value);
		}
		free(j->opts);
		for (int d = 0; d < CLYDE_FIO_NDDIR; d++)
			free(j->dir[d].lat.hist);
	}
	free(res->jobs);
	memset(res, 0, sizeof(*res));
}

int clyde_fio_job_doc(const char *data, size_t len,
		      const struct clyde_fio_result *res, size_t i, char **doc,
		      size_t *doclen)
{
	const struct clyde_fio_job *j = &res->jobs[i];
	size_t head = res->jobs_open + 1 - res->json_off;
	size_t tail = len - res->jobs_close, n;
	char *p;

	/* The envelope before the array and after it (fio ends its file
	 * with a newline after the closing brace: kept, as it was). */
	n = head + 1 + j->text_len + 1 + tail;
	p = malloc(n + 1);
	if (!p)
		return -ENOMEM;
	memcpy(p, data + res->json_off, head);
	p[head] = '\n';
	memcpy(p + head + 1, data + j->text_off, j->text_len);
	p[head + 1 + j->text_len] = '\n';
	memcpy(p + head + 2 + j->text_len, data + res->jobs_close, tail);
	p[n] = '\0';
	*doc = p;
	*doclen = n;
	return 0;
}

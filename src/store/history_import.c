/*
 * Importing files into the history: one clyde JSON result, or CSV lines
 * each stored as one run.  See history.h (clyde_history_import_file).
 */
#include "store/history.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/slurp.h"
#include "store/history_internal.h"
#include "results/csv_read.h"
#include "results/fio_read.h"

/* Files bigger than this are not imported (a JSON result is far smaller,
 * and a CSV file of this size holds about a million runs). */
#define HISTORY_MAX_FILE (64u << 20)

void clyde_history_import_init(struct clyde_history_import *imp)
{
	memset(imp, 0, sizeof(*imp));
}

void clyde_history_import_release(struct clyde_history_import *imp)
{
	free(imp->ids);
	for (size_t i = 0; i < imp->nerrors; i++)
		free(imp->errors[i]);
	free(imp->errors);
	for (size_t i = 0; i < imp->nskipped; i++)
		free(imp->skipped[i]);
	free(imp->skipped);
	memset(imp, 0, sizeof(*imp));
}

/* Read the whole file (at most HISTORY_MAX_FILE bytes) into *buf. */
static int slurp(struct clyde_ctx *ctx, const char *path, char **buf,
		 size_t *len)
{
	FILE *f = fopen(path, "rbe");
	struct stat sb;
	int rc;

	*buf = NULL;
	if (!f)
		return clyde_err(ctx, errno, "%s: open", path);
	/* Too big to be a result: refused by its size, before reading. */
	if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (uint64_t)sb.st_size > HISTORY_MAX_FILE) {
		fclose(f);
		return clyde_err(ctx, 0,
				 "%s: %llu MiB, larger than the %u MiB a "
				 "result file may be; not read",
				 path, (unsigned long long)(sb.st_size >> 20),
				 HISTORY_MAX_FILE >> 20),
		       -EFBIG;
	}
	rc = clyde_slurp_stream(f, HISTORY_MAX_FILE, buf, len);
	fclose(f);
	if (rc == -EFBIG)
		return clyde_err(ctx, EFBIG, "%s: bigger than %u MiB", path,
				 HISTORY_MAX_FILE >> 20);
	if (rc == -ENOMEM)
		return clyde_err(ctx, ENOMEM, "%s", path);
	if (rc < 0)
		return clyde_err(ctx, -rc, "%s: read", path);
	return 0;
}

/* Is the line s[0..n) a result (see struct clyde_history_import)?  1
 * yes, 0 a header or blank line, -1 malformed (why in why). */
static int csv_result(const char *s, size_t n, struct clyde_csv_line *line,
		      char *why, size_t whylen)
{
	int rc;

	if (n > CLYDE_CSV_LINE_MAX) {
		snprintf(why, whylen, "line too long");
		return -1;
	}
	rc = clyde_csv_parse_line(s, n, line, why, whylen);

	return rc > 0 ? 1 : rc == 0 ? 0 : -1;
}

int clyde_history_count_results(struct clyde_ctx *ctx, const char *path,
				size_t *count)
{
	struct clyde_csv_line *line;
	char why[CLYDE_CSV_WHY_LEN], *buf = NULL;
	size_t len = 0, pos = 0;
	int rc;

	*count = 0;
	rc = slurp(ctx, path, &buf, &len);
	if (rc < 0)
		return rc;
	if (clyde_fio_sniff(buf, len, &pos) == CLYDE_FIO_JSON) {
		struct clyde_fio_result res;
		unsigned long l;

		/* One result per job; a bad file is refused by the import. */
		if (clyde_fio_parse(buf, len, pos, &res, why, sizeof(why),
				    &l) == 0)
			*count = res.njobs;
		else
			*count = 1;
		clyde_fio_result_release(&res);
		free(buf);
		return 0;
	}
	pos = 0;
	if (clyde_history_starts_json(buf, len)) {
		*count = 1;
		free(buf);
		return 0;
	}
	line = malloc(sizeof(*line));
	if (!line) {
		free(buf);
		return clyde_err(ctx, ENOMEM, "%s", path);
	}
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + (nl ? 1 : 0);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (csv_result(s, n, line, why, sizeof(why)) > 0)
			(*count)++;
	}
	free(line);
	free(buf);
	return 0;
}

#ifdef CLYDE_HAVE_SQLITE

static int imp_push_id(struct clyde_history_import *imp, int64_t id)
{
	if (imp->nids == imp->ids_cap) {
		size_t cap = imp->ids_cap ? imp->ids_cap * 2 : 16;
		int64_t *p = realloc(imp->ids, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		imp->ids = p;
		imp->ids_cap = cap;
	}
	imp->ids[imp->nids++] = id;
	return 0;
}

/* Append "path:line: why" (or only why when path is NULL). */
static int imp_push_error(struct clyde_history_import *imp, const char *path,
			  unsigned long lineno, const char *why)
{
	char *msg;
	int n;

	if (imp->nerrors == imp->errors_cap) {
		size_t cap = imp->errors_cap ? imp->errors_cap * 2 : 8;
		char **p = realloc(imp->errors, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		imp->errors = p;
		imp->errors_cap = cap;
	}
	if (path)
		n = asprintf(&msg, "%s:%lu: %s", path, lineno, why);
	else
		n = asprintf(&msg, "%s", why);
	if (n < 0)
		return -ENOMEM;
	imp->errors[imp->nerrors++] = msg;
	return 0;
}

/* Append "path[:line]: already stored as id N" to imp->skipped. */
static int imp_push_skipped(struct clyde_history_import *imp, const char *path,
			    unsigned long lineno, int64_t id)
{
	char *msg;
	int n;

	if (imp->nskipped == imp->skipped_cap) {
		size_t cap = imp->skipped_cap ? imp->skipped_cap * 2 : 8;
		char **p = realloc(imp->skipped, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		imp->skipped = p;
		imp->skipped_cap = cap;
	}
	if (lineno)
		n = asprintf(&msg, "%s:%lu: already stored as id %lld", path,
			     lineno, (long long)id);
	else
		n = asprintf(&msg, "%s: already stored as id %lld", path,
			     (long long)id);
	if (n < 0)
		return -ENOMEM;
	imp->skipped[imp->nskipped++] = msg;
	return 0;
}

/* Store the described result doc[0..n) of path:lineno (lineno 0: the
 * whole file), the imp->nresults-th of the file: with the label the
 * caller chose for it, unless it is stored already (and not forced). */
static int store_result(struct clyde_ctx *ctx, struct clyde_history *h,
			const char *path, unsigned long lineno, const char *doc,
			size_t n, struct clyde_history_entry *e,
			struct clyde_history_import *imp)
{
	size_t k = imp->nresults - 1;
	const char *label = k < imp->nlabels ? imp->labels[k] : imp->label;
	int64_t id;
	int rc;

	if (!imp->force) {
		rc = clyde_history_find_same(ctx, h, doc, n, &id);
		if (rc < 0)
			return rc;
		if (rc == 1)
			return imp_push_skipped(imp, path, lineno, id);
	}
	if (label) {
		char *l = strdup(label);

		if (!l)
			return -ENOMEM;
		free(e->label);
		e->label = l;
	}
	rc = clyde_history_insert_run(ctx, h, doc, n, path, lineno, e, &id);
	if (rc == 0)
		rc = imp_push_id(imp, id);
	return rc;
}

/* Import each CSV data line of buf[0..len) (in a transaction). */
static int import_csv(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *path, const char *buf, size_t len,
		      struct clyde_history_import *imp)
{
	struct clyde_csv_line *line = malloc(sizeof(*line));
	char why[CLYDE_CSV_WHY_LEN];
	unsigned long lineno = 0;
	size_t pos = 0;
	int rc = 0;

	if (!line)
		return clyde_err(ctx, ENOMEM, "%s", path);
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len && rc == 0) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		struct clyde_history_entry e = { 0 };
		char what[PATH_MAX + 32];
		struct clyde_ctx quiet;
		int prc;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n > 0 && s[n - 1] == '\r')
			n--;
		prc = csv_result(s, n, line, why, sizeof(why));
		if (prc == 0)
			continue;
		if (prc < 0) {
			rc = imp_push_error(imp, path, lineno, why);
			continue;
		}
		imp->nresults++;
		snprintf(what, sizeof(what), "%s:%lu", path, lineno);
		/* A scratch context: a line the compare loader refuses is a
		 * malformed line (listed), not a failure of the import. */
		clyde_ctx_init(&quiet);
		rc = clyde_history_describe(&quiet, what, s, n, &e);
		if (rc == -EINVAL)
			rc = imp_push_error(imp, NULL, 0, clyde_errmsg(&quiet));
		else if (rc < 0)
			clyde_err(ctx, 0, "%s", clyde_errmsg(&quiet));
		clyde_ctx_release(&quiet);
		if (rc < 0 || !e.kind)
			continue;
		rc = store_result(ctx, h, path, lineno, s, n, &e, imp);
		clyde_history_entry_release(&e);
	}
	free(line);
	if (rc == -ENOMEM && !clyde_errmsg(ctx)[0])
		clyde_err(ctx, ENOMEM, "%s", path);
	return rc;
}

/* Import fio's JSON output buf[0..len) (JSON at off): one document per
 * job (clyde_fio_job_doc()), each recorded with the line its job starts
 * on.  A bad file is refused whole (-EINVAL, why in ctx). */
static int import_fio(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *path, const char *buf, size_t len, size_t off,
		      struct clyde_history_import *imp)
{
	struct clyde_fio_result res;
	char why[CLYDE_FIO_WHY_LEN];
	unsigned long line;
	int rc;

	rc = clyde_fio_parse(buf, len, off, &res, why, sizeof(why), &line);
	if (rc == -EINVAL)
		return clyde_err(ctx, 0, "%s:%lu: %s", path, line, why),
		       -EINVAL;
	if (rc < 0)
		return clyde_err(ctx, ENOMEM, "%s", path);
	for (size_t k = 0; k < res.njobs && rc == 0; k++) {
		struct clyde_history_entry e;
		char what[PATH_MAX + 32];
		size_t n;
		char *doc;

		rc = clyde_fio_job_doc(buf, len, &res, k, &doc, &n);
		if (rc < 0) {
			rc = clyde_err(ctx, ENOMEM, "%s", path);
			break;
		}
		imp->nresults++;
		snprintf(what, sizeof(what), "%s:%lu", path, res.jobs[k].line);
		rc = clyde_history_describe(ctx, what, doc, n, &e);
		if (rc == 0) {
			rc = store_result(ctx, h, path, res.jobs[k].line, doc,
					  n, &e, imp);
			clyde_history_entry_release(&e);
		}
		free(doc);
	}
	clyde_fio_result_release(&res);
	return rc;
}

int clyde_history_import_file(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *path,
			      struct clyde_history_import *imp)
{
	size_t len = 0, before_ids = imp->nids, before_skipped = imp->nskipped;
	char *buf = NULL;
	int rc;

	rc = slurp(ctx, path, &buf, &len);
	if (rc < 0)
		return rc;
	rc = clyde_db_begin(ctx, h);
	if (rc == 0) {
		size_t off;
		enum clyde_fio_kind fk = clyde_fio_sniff(buf, len, &off);

		if (fk == CLYDE_FIO_TEXT) {
			clyde_err(ctx, 0,
				  "%s: fio's normal (text) output, which clyde "
				  "does not read: run fio with "
				  "--output-format=json (or json+)",
				  path);
			rc = -EINVAL;
		} else if (fk == CLYDE_FIO_JSON) {
			rc = import_fio(ctx, h, path, buf, len, off, imp);
		} else if (clyde_history_starts_json(buf, len)) {
			struct clyde_history_entry e;

			imp->nresults++;
			rc = clyde_history_describe(ctx, path, buf, len, &e);
			if (rc == 0) {
				rc = store_result(ctx, h, path, 0, buf, len, &e,
						  imp);
				clyde_history_entry_release(&e);
			}
		} else {
			rc = import_csv(ctx, h, path, buf, len, imp);
		}
	}
	if (rc == 0)
		rc = clyde_db_commit(ctx, h);
	else
		clyde_db_rollback(h);
	if (rc < 0) {
		/* Nothing of this file is stored. */
		imp->nids = before_ids;
		while (imp->nskipped > before_skipped)
			free(imp->skipped[--imp->nskipped]);
	}
	if (rc == -ENOMEM && !clyde_errmsg(ctx)[0])
		clyde_err(ctx, ENOMEM, "%s", path);
	free(buf);
	return rc;
}

#endif /* CLYDE_HAVE_SQLITE */

/*
 * The results history in SQLite: see history.h for the contract.
 *
 * Opening is the delicate part, because the file at the path may not be
 * ours.  The order is: look at the file's first bytes ourselves (read
 * only), let SQLite read its schema (still no write), decide whether it
 * is a clyde history, a new one, or something to refuse -- and only then
 * switch to WAL mode and migrate, which are the first writes.
 */
#include "report/history.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/exp_store.h"
#include "report/loaded.h"
#include "results/csv_read.h"
#include "results/json_read.h"

#ifdef CLYDE_HAVE_SQLITE
#include <sqlite3.h>
#endif

/* How long a writer waits for another one before giving up. */
#define HISTORY_BUSY_MS 5000
/* Files bigger than this are not imported (a JSON result is far smaller,
 * and a CSV file of this size holds about a million runs). */
#define HISTORY_MAX_FILE (64u << 20)

/* ---- entries and documents: no database needed ------------------------ */

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

void clyde_history_entry_release(struct clyde_history_entry *e)
{
	if (!e)
		return;
	free(e->kind);
	free(e->label);
	free(e->host);
	free(e->target_path);
	free(e->fstype);
	free(e->mount_opts);
	free(e->source);
	memset(e, 0, sizeof(*e));
}

void clyde_history_entries_free(struct clyde_history_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		clyde_history_entry_release(&e[i]);
	free(e);
}

/* Make every string of e non-NULL ("" where unset).  Returns 0 or -1. */
static int entry_fill_strings(struct clyde_history_entry *e)
{
	char **f[] = { &e->kind,   &e->label,	   &e->host,  &e->target_path,
		       &e->fstype, &e->mount_opts, &e->source };

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!*f[i] && !(*f[i] = strdup("")))
			return -1;
	return 0;
}

/* The figures of a loaded bonnie run.  A too-fast test whose rate clyde
 * measured anyway keeps the number (flagged); only a CSV's "+++++" has
 * none. */
static void figures_from_loaded(const struct clyde_loaded_run *run,
				struct clyde_history_figure *fig)
{
	if (run->kind != CLYDE_LOADED_BONNIE)
		return;
	for (size_t i = 0; i < run->ntests && i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_loaded_test *t = &run->tests[i];
		struct clyde_history_figure *f = &fig[i];

		switch (t->state) {
		case CLYDE_LOADED_VALUE:
			f->state = CLYDE_HIST_FIG_VALUE;
			f->value = t->rate;
			break;
		case CLYDE_LOADED_TOO_FAST:
			if (t->has_rate) {
				f->state = CLYDE_HIST_FIG_VALUE;
				f->value = t->rate;
				f->too_fast = true;
			} else {
				f->state = CLYDE_HIST_FIG_TOO_FAST;
			}
			break;
		default:
			continue;
		}
		f->has_cpu = t->has_cpu;
		f->cpu_pct = t->has_cpu ? t->cpu_pct : 0;
	}
}

/* Load doc as one run with the compare loader (so that the history and
 * `clyde compare` read a document the same way).  A document that gives
 * no run is refused with the loader's first message.  One whose run came
 * with complaints about single members is kept: the document is stored
 * whole, and `show` and `compare` repeat the loader's messages. */
static int load_one(struct clyde_ctx *ctx, const char *what, const char *doc,
		    size_t len, struct clyde_loaded_set *set)
{
	int rc;

	clyde_loaded_set_init(set);
	rc = clyde_loaded_read_buffer(ctx, doc, len, what, set);
	if (rc < 0)
		return rc;
	if (set->nruns == 1)
		return 0;
	if (set->nerrors > 0)
		return clyde_err(ctx, 0, "%s", set->errors[0]), -EINVAL;
	return clyde_err(ctx, 0, "%s: holds %zu results, not one", what,
			 set->nruns),
	       -EINVAL;
}

/* The 5th field of a 1.96/1.98 CSV line is the run's start time, which
 * the CSV reader does not keep; -1 when absent or not a number. */
static int64_t csv_started(const char *line, size_t len)
{
	size_t i = 0, field = 1;
	int64_t v = 0;
	bool any = false;

	while (i < len && field < 5)
		if (line[i++] == ',')
			field++;
	if (field < 5)
		return -1;
	for (; i < len && line[i] != ',' && line[i] != '\r' && line[i] != '\n';
	     i++) {
		if (line[i] < '0' || line[i] > '9' || v > INT64_MAX / 10 - 9)
			return -1;
		v = v * 10 + (line[i] - '0');
		any = true;
	}
	return any ? v : -1;
}

static bool starts_json(const char *doc, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(doc, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' ||
			   doc[i] == '\r'))
		i++;
	return i < len && doc[i] == '{';
}

/* Fill e from a clyde JSON result. */
static int describe_json(struct clyde_ctx *ctx, const char *what,
			 const char *doc, size_t len,
			 struct clyde_history_entry *e)
{
	struct clyde_json root;
	struct clyde_json_error jerr;
	struct clyde_loaded_set set;
	const struct clyde_json *target, *machine;
	uint64_t started;
	int rc;

	rc = clyde_json_parse(doc, len, NULL, &root, &jerr);
	if (rc == -ENOMEM)
		return clyde_err(ctx, ENOMEM, "%s", what);
	if (rc < 0)
		return clyde_err(ctx, 0, "%s:%lu: %s", what, jerr.line,
				 jerr.why),
		       -EINVAL;
	if (clyde_json_result_check(&root, &jerr) < 0) {
		clyde_json_free(&root);
		return clyde_err(ctx, 0, "%s:%lu: %s", what, jerr.line,
				 jerr.why),
		       -EINVAL;
	}
	target = clyde_json_get(&root, "target");
	machine = clyde_json_get(&root, "machine");
	e->kind = dup_or_empty(clyde_json_str(clyde_json_get(&root, "kind")));
	e->label = dup_or_empty(clyde_json_str(clyde_json_get(&root, "label")));
	e->host = dup_or_empty(clyde_json_str(clyde_json_get(machine, "host")));
	e->target_path =
		dup_or_empty(clyde_json_str(clyde_json_get(target, "path")));
	e->fstype =
		dup_or_empty(clyde_json_str(clyde_json_get(target, "fstype")));
	e->mount_opts = dup_or_empty(
		clyde_json_str(clyde_json_get(target, "mount_opts")));
	e->started_unix = -1;
	if (clyde_json_u64(clyde_json_get(&root, "started_unix"), &started) &&
	    started <= INT64_MAX)
		e->started_unix = (int64_t)started;
	clyde_json_free(&root);
	if (entry_fill_strings(e) < 0)
		return clyde_err(ctx, ENOMEM, "%s", what);

	rc = load_one(ctx, what, doc, len, &set);
	if (rc == 0)
		figures_from_loaded(&set.runs[0], e->fig);
	clyde_loaded_set_release(&set);
	return rc;
}

/* Fill e from one CSV line. */
static int describe_csv(struct clyde_ctx *ctx, const char *what,
			const char *doc, size_t len,
			struct clyde_history_entry *e)
{
	struct clyde_csv_line *line;
	struct clyde_loaded_set set;
	char why[CLYDE_CSV_WHY_LEN];
	int rc;

	line = calloc(1, sizeof(*line));
	if (!line)
		return clyde_err(ctx, ENOMEM, "%s", what);
	rc = clyde_csv_parse_line(doc, len, line, why, sizeof(why));
	if (rc <= 0) {
		free(line);
		if (rc == 0)
			return clyde_err(ctx, 0,
					 "%s: not a result (a header or "
					 "blank line)",
					 what),
			       -EINVAL;
		return clyde_err(ctx, 0, "%s: %s", what, why), -EINVAL;
	}
	e->kind = strdup("bonnie-csv");
	e->label = strdup(line->params.name);
	e->started_unix = -1;
	if (line->format != CLYDE_CSV_1_03)
		e->started_unix = csv_started(doc, len);
	free(line);
	if (entry_fill_strings(e) < 0)
		return clyde_err(ctx, ENOMEM, "%s", what);

	rc = load_one(ctx, what, doc, len, &set);
	if (rc == 0) {
		figures_from_loaded(&set.runs[0], e->fig);
		if (e->started_unix < 0 && set.runs[0].started_unix > 0 &&
		    set.runs[0].started_unix <= INT64_MAX)
			e->started_unix = (int64_t)set.runs[0].started_unix;
	}
	clyde_loaded_set_release(&set);
	return rc;
}

int clyde_history_describe(struct clyde_ctx *ctx, const char *what,
			   const char *doc, size_t len,
			   struct clyde_history_entry *e)
{
	int rc;

	memset(e, 0, sizeof(*e));
	if (starts_json(doc, len))
		rc = describe_json(ctx, what, doc, len, e);
	else
		rc = describe_csv(ctx, what, doc, len, e);
	if (rc < 0)
		clyde_history_entry_release(e);
	return rc;
}

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
	memset(imp, 0, sizeof(*imp));
}

/* ---- where the database lives ----------------------------------------- */

int clyde_history_default_path(struct clyde_ctx *ctx, char *buf, size_t cap)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home;
	int n;

	/* The XDG spec ignores a relative XDG_DATA_HOME. */
	if (xdg && xdg[0] == '/') {
		n = snprintf(buf, cap, "%s/clyde/results.db", xdg);
	} else {
		home = getenv("HOME");
		if (!home || home[0] != '/') {
			struct passwd pw, *res = NULL;
			char pwbuf[4096];

			if (getpwuid_r(getuid(), &pw, pwbuf, sizeof(pwbuf),
				       &res) ||
			    !res || !pw.pw_dir || pw.pw_dir[0] != '/')
				return clyde_err(ctx, 0,
						 "no home directory for the "
						 "results history (set HOME "
						 "or XDG_DATA_HOME, or give "
						 "--db)"),
				       -ENOENT;
			n = snprintf(buf, cap,
				     "%s/.local/share/clyde/results.db",
				     pw.pw_dir);
		} else {
			n = snprintf(buf, cap,
				     "%s/.local/share/clyde/results.db", home);
		}
	}
	if (n < 0 || (size_t)n >= cap)
		return clyde_err(ctx, ENAMETOOLONG, "results history path"),
		       -ENAMETOOLONG;
	return 0;
}

#ifndef CLYDE_HAVE_SQLITE

/* ---- a build without SQLite ------------------------------------------- */

static int no_sqlite(struct clyde_ctx *ctx)
{
	return clyde_err(ctx, 0,
			 "clyde was built without SQLite: no results history "
			 "(install libsqlite3-dev and rebuild)"),
	       -ENOTSUP;
}

bool clyde_history_available(void)
{
	return false;
}

int clyde_history_open(struct clyde_ctx *ctx, const char *db_path, bool create,
		       struct clyde_history **out)
{
	(void)db_path;
	(void)create;
	*out = NULL;
	return no_sqlite(ctx);
}

int clyde_history_open_readonly(struct clyde_ctx *ctx, const char *db_path,
				struct clyde_history **out)
{
	(void)db_path;
	*out = NULL;
	return no_sqlite(ctx);
}

void clyde_history_close(struct clyde_history *h)
{
	(void)h;
}

int clyde_history_close_discard_empty(struct clyde_history *h)
{
	(void)h;
	return 0;
}

const char *clyde_history_path(const struct clyde_history *h)
{
	(void)h;
	return "";
}

int clyde_history_found_version(const struct clyde_history *h)
{
	(void)h;
	return -1;
}

int clyde_history_add(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *doc, size_t len, const char *source,
		      int64_t *id_out)
{
	(void)h, (void)doc, (void)len, (void)source, (void)id_out;
	return no_sqlite(ctx);
}

int clyde_history_save(struct clyde_ctx *ctx, const char *db_path,
		       const char *json_text, size_t len, int64_t *id_out)
{
	(void)db_path, (void)json_text, (void)len, (void)id_out;
	return no_sqlite(ctx);
}

int clyde_history_import_file(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *path,
			      struct clyde_history_import *imp)
{
	(void)h, (void)path, (void)imp;
	return no_sqlite(ctx);
}

int clyde_history_list(struct clyde_ctx *ctx, struct clyde_history *h,
		       size_t limit, struct clyde_history_entry **out,
		       size_t *n)
{
	(void)h, (void)limit;
	*out = NULL;
	*n = 0;
	return no_sqlite(ctx);
}

int clyde_history_get(struct clyde_ctx *ctx, struct clyde_history *h,
		      int64_t id, struct clyde_history_entry *e, char **doc,
		      size_t *len)
{
	(void)h, (void)id, (void)e, (void)doc, (void)len;
	return no_sqlite(ctx);
}

int clyde_history_delete(struct clyde_ctx *ctx, struct clyde_history *h,
			 int64_t id)
{
	(void)h, (void)id;
	return no_sqlite(ctx);
}

#else /* CLYDE_HAVE_SQLITE */

/* The first 16 bytes of every SQLite 3 database file. */
static const char sqlite_magic[16] = "SQLite format 3";

static const char *fig_unit(enum clyde_test t)
{
	if (clyde_test_is_io(t))
		return "B/s";
	return t == CLYDE_SEEKS ? "seeks/s" : "files/s";
}

struct clyde_history {
	sqlite3 *db;
	char *path;
	int found_version;
};

bool clyde_history_available(void)
{
	return true;
}

const char *clyde_history_path(const struct clyde_history *h)
{
	return h->path;
}

sqlite3 *clyde_history_sqlite(struct clyde_history *h)
{
	return h->db;
}

int clyde_history_found_version(const struct clyde_history *h)
{
	return h->found_version;
}

/* Record "PATH: what: sqlite's message" and return -EIO (-ENOMEM when
 * SQLite ran out of memory). */
static int db_fail(struct clyde_ctx *ctx, struct clyde_history *h,
		   const char *what)
{
	int code = sqlite3_errcode(h->db);

	clyde_err(ctx, 0, "%s: %s: %s", h->path, what, sqlite3_errmsg(h->db));
	return code == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

static int exec(struct clyde_ctx *ctx, struct clyde_history *h, const char *sql)
{
	if (sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(ctx, h, sql);
	return 0;
}

static int prepare(struct clyde_ctx *ctx, struct clyde_history *h,
		   const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(h->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_fail(ctx, h, "prepare");
	return 0;
}

static void rollback(struct clyde_history *h)
{
	if (!sqlite3_get_autocommit(h->db))
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- storing ---------------------------------------------------------- */

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

/* Store e's columns and figures for run `id` (inside a transaction). */
static int store_columns(struct clyde_ctx *ctx, struct clyde_history *h,
			 int64_t id, const struct clyde_history_entry *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = prepare(ctx, h,
		     "UPDATE runs SET started_unix = ?1, kind = ?2, "
		     "label = ?3, host = ?4, target_path = ?5, fstype = ?6, "
		     "mount_opts = ?7 WHERE id = ?8",
		     &st);
	if (rc < 0)
		return rc;
	if (e->started_unix >= 0)
		sqlite3_bind_int64(st, 1, e->started_unix);
	bind_text(st, 2, e->kind);
	bind_text(st, 3, e->label);
	bind_text(st, 4, e->host);
	bind_text(st, 5, e->target_path);
	bind_text(st, 6, e->fstype);
	bind_text(st, 7, e->mount_opts);
	sqlite3_bind_int64(st, 8, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(ctx, h, "store the run's columns");
	sqlite3_finalize(st);
	if (rc < 0)
		return rc;

	rc = prepare(ctx, h,
		     "INSERT OR REPLACE INTO figures (run_id, test, unit, "
		     "state, value, too_fast, cpu_pct) "
		     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		     &st);
	if (rc < 0)
		return rc;
	for (int t = 0; t < CLYDE_TEST_COUNT && rc == 0; t++) {
		const struct clyde_history_figure *f = &e->fig[t];

		if (f->state == CLYDE_HIST_FIG_NONE)
			continue;
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		sqlite3_bind_int64(st, 1, id);
		bind_text(st, 2, clyde_test_name((enum clyde_test)t));
		bind_text(st, 3, fig_unit((enum clyde_test)t));
		sqlite3_bind_int(st, 4, (int)f->state);
		if (f->state == CLYDE_HIST_FIG_VALUE)
			sqlite3_bind_double(st, 5, f->value);
		sqlite3_bind_int(st, 6, f->too_fast);
		if (f->has_cpu)
			sqlite3_bind_double(st, 7, f->cpu_pct);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(ctx, h, "store the run's figures");
	}
	sqlite3_finalize(st);
	return rc;
}

/* Insert one described document (inside a transaction). */
static int insert_run(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *doc, size_t len, const char *source,
		      const struct clyde_history_entry *e, int64_t *id_out)
{
	sqlite3_stmt *st = NULL;
	int64_t id;
	int rc;

	rc = prepare(ctx, h,
		     "INSERT INTO runs (saved_unix, document, source) "
		     "VALUES (?1, ?2, ?3)",
		     &st);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	sqlite3_bind_text64(st, 2, doc, len, SQLITE_TRANSIENT, SQLITE_UTF8);
	bind_text(st, 3, source ? source : "");
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(ctx, h, "store the run");
	sqlite3_finalize(st);
	if (rc < 0)
		return rc;
	id = sqlite3_last_insert_rowid(h->db);
	rc = store_columns(ctx, h, id, e);
	if (rc == 0 && id_out)
		*id_out = id;
	return rc;
}

/* BEGIN IMMEDIATE takes the write lock now, so that two writers queue on
 * the busy timeout instead of one failing when it upgrades a read. */
static int begin(struct clyde_ctx *ctx, struct clyde_history *h)
{
	return exec(ctx, h, "BEGIN IMMEDIATE");
}

static int commit(struct clyde_ctx *ctx, struct clyde_history *h)
{
	int rc = exec(ctx, h, "COMMIT");

	if (rc < 0)
		rollback(h);
	return rc;
}

int clyde_history_add(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *doc, size_t len, const char *source,
		      int64_t *id_out)
{
	struct clyde_history_entry e;
	int rc;

	rc = clyde_history_describe(ctx, source ? source : "result", doc, len,
				    &e);
	if (rc < 0)
		return rc;
	rc = begin(ctx, h);
	if (rc == 0)
		rc = insert_run(ctx, h, doc, len, source, &e, id_out);
	if (rc == 0)
		rc = commit(ctx, h);
	else
		rollback(h);
	clyde_history_entry_release(&e);
	return rc;
}

int clyde_history_save(struct clyde_ctx *ctx, const char *db_path,
		       const char *json_text, size_t len, int64_t *id_out)
{
	struct clyde_history *h;
	int rc;

	if (!starts_json(json_text, len))
		return clyde_err(ctx, 0,
				 "results history: not a clyde JSON result"),
		       -EINVAL;
	rc = clyde_history_open(ctx, db_path, true, &h);
	if (rc < 0)
		return rc;
	rc = clyde_history_add(ctx, h, json_text, len, NULL, id_out);
	clyde_history_close(h);
	return rc;
}

/* ---- importing files -------------------------------------------------- */

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

/* Read the whole file (at most HISTORY_MAX_FILE bytes) into *buf. */
static int slurp(struct clyde_ctx *ctx, const char *path, char **buf,
		 size_t *len)
{
	size_t cap = 65536, n = 0;
	char *p = malloc(cap + 1);
	struct stat sb;
	int fd;

	if (!p)
		return clyde_err(ctx, ENOMEM, "%s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(p);
		return clyde_err(ctx, errno, "%s: open", path);
	}
	/* Too big to be a result: refused by its size, before reading. */
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (uint64_t)sb.st_size > HISTORY_MAX_FILE) {
		close(fd);
		free(p);
		return clyde_err(ctx, 0,
				 "%s: %llu MiB, larger than the %u MiB a "
				 "result file may be; not read",
				 path, (unsigned long long)(sb.st_size >> 20),
				 HISTORY_MAX_FILE >> 20),
		       -EFBIG;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *q;

			if (cap >= HISTORY_MAX_FILE) {
				close(fd);
				free(p);
				return clyde_err(ctx, EFBIG,
						 "%s: bigger than %u MiB", path,
						 HISTORY_MAX_FILE >> 20);
			}
			cap *= 2;
			q = realloc(p, cap + 1);
			if (!q) {
				close(fd);
				free(p);
				return clyde_err(ctx, ENOMEM, "%s", path);
			}
			p = q;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			free(p);
			return clyde_err(ctx, e, "%s: read", path);
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
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
		int64_t id;
		int prc;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (n > CLYDE_CSV_LINE_MAX) {
			rc = imp_push_error(imp, path, lineno, "line too long");
			continue;
		}
		prc = clyde_csv_parse_line(s, n, line, why, sizeof(why));
		if (prc == 0)
			continue;
		if (prc < 0) {
			rc = imp_push_error(imp, path, lineno, why);
			continue;
		}
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
		rc = insert_run(ctx, h, s, n, path, &e, &id);
		if (rc == 0)
			rc = imp_push_id(imp, id);
		clyde_history_entry_release(&e);
	}
	free(line);
	if (rc == -ENOMEM && !clyde_errmsg(ctx)[0])
		clyde_err(ctx, ENOMEM, "%s", path);
	return rc;
}

int clyde_history_import_file(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *path,
			      struct clyde_history_import *imp)
{
	size_t len = 0, before_ids = imp->nids;
	char *buf = NULL;
	int rc;

	rc = slurp(ctx, path, &buf, &len);
	if (rc < 0)
		return rc;
	rc = begin(ctx, h);
	if (rc == 0) {
		if (starts_json(buf, len)) {
			struct clyde_history_entry e;

			rc = clyde_history_describe(ctx, path, buf, len, &e);
			if (rc == 0) {
				int64_t id;

				rc = insert_run(ctx, h, buf, len, path, &e,
						&id);
				if (rc == 0)
					rc = imp_push_id(imp, id);
				clyde_history_entry_release(&e);
			}
		} else {
			rc = import_csv(ctx, h, path, buf, len, imp);
		}
	}
	if (rc == 0)
		rc = commit(ctx, h);
	else
		rollback(h);
	if (rc < 0)
		imp->nids = before_ids; /* nothing of this file is stored */
	if (rc == -ENOMEM && !clyde_errmsg(ctx)[0])
		clyde_err(ctx, ENOMEM, "%s", path);
	free(buf);
	return rc;
}

/* ---- reading ---------------------------------------------------------- */

#define ENTRY_COLUMNS                                                    \
	"id, saved_unix, started_unix, kind, label, host, target_path, " \
	"fstype, mount_opts, source"

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return strdup(s ? (const char *)s : "");
}

/* Fill e from a row of ENTRY_COLUMNS, then its figures. */
static int entry_from_row(struct clyde_ctx *ctx, struct clyde_history *h,
			  sqlite3_stmt *st, sqlite3_stmt *figs,
			  struct clyde_history_entry *e)
{
	int rc = 0, step;

	memset(e, 0, sizeof(*e));
	e->id = sqlite3_column_int64(st, 0);
	e->saved_unix = sqlite3_column_int64(st, 1);
	e->started_unix = sqlite3_column_type(st, 2) == SQLITE_NULL ?
				  -1 :
				  sqlite3_column_int64(st, 2);
	e->kind = col_text(st, 3);
	e->label = col_text(st, 4);
	e->host = col_text(st, 5);
	e->target_path = col_text(st, 6);
	e->fstype = col_text(st, 7);
	e->mount_opts = col_text(st, 8);
	e->source = col_text(st, 9);
	if (entry_fill_strings(e) < 0)
		return clyde_err(ctx, ENOMEM, "%s", h->path);

	sqlite3_reset(figs);
	sqlite3_bind_int64(figs, 1, e->id);
	while ((step = sqlite3_step(figs)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(figs, 0);
		struct clyde_history_figure *f = NULL;

		for (int t = 0; name && t < CLYDE_TEST_COUNT; t++)
			if (!strcmp(name, clyde_test_name((enum clyde_test)t)))
				f = &e->fig[t];
		if (!f)
			continue; /* a figure a later clyde added */
		f->state = (enum clyde_history_fig_state)sqlite3_column_int(
			figs, 1);
		if (f->state != CLYDE_HIST_FIG_VALUE &&
		    f->state != CLYDE_HIST_FIG_TOO_FAST)
			f->state = CLYDE_HIST_FIG_NONE;
		f->value = sqlite3_column_double(figs, 2);
		f->too_fast = sqlite3_column_int(figs, 3) != 0;
		f->has_cpu = sqlite3_column_type(figs, 4) != SQLITE_NULL;
		f->cpu_pct = f->has_cpu ? sqlite3_column_double(figs, 4) : 0;
	}
	if (step != SQLITE_DONE)
		rc = db_fail(ctx, h, "read figures");
	return rc;
}

int clyde_history_list(struct clyde_ctx *ctx, struct clyde_history *h,
		       size_t limit, struct clyde_history_entry **out,
		       size_t *n)
{
	sqlite3_stmt *st = NULL, *figs = NULL;
	struct clyde_history_entry *v = NULL;
	size_t cnt = 0, cap = 0;
	int rc, step;

	*out = NULL;
	*n = 0;
	rc = prepare(ctx, h,
		     "SELECT " ENTRY_COLUMNS " FROM runs "
		     "ORDER BY started_unix IS NULL, started_unix DESC, "
		     "id DESC LIMIT ?1",
		     &st);
	if (rc == 0)
		rc = prepare(ctx, h,
			     "SELECT test, state, value, too_fast, cpu_pct "
			     "FROM figures WHERE run_id = ?1",
			     &figs);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(
		st, 1, limit > 0 && limit < INT64_MAX ? (int64_t)limit : -1);
	/* One read transaction, so the list is one consistent snapshot. */
	rc = exec(ctx, h, "BEGIN");
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct clyde_history_entry *p =
				realloc(v, ncap * sizeof(*p));

			if (!p) {
				rc = clyde_err(ctx, ENOMEM, "%s", h->path);
				break;
			}
			v = p;
			cap = ncap;
		}
		rc = entry_from_row(ctx, h, st, figs, &v[cnt]);
		cnt++;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_fail(ctx, h, "list runs");
	sqlite3_finalize(st);
	st = NULL;
	rollback(h);
out:
	sqlite3_finalize(st);
	sqlite3_finalize(figs);
	if (rc < 0) {
		clyde_history_entries_free(v, cnt);
		return rc;
	}
	*out = v;
	*n = cnt;
	return 0;
}

int clyde_history_get(struct clyde_ctx *ctx, struct clyde_history *h,
		      int64_t id, struct clyde_history_entry *e, char **doc,
		      size_t *len)
{
	sqlite3_stmt *st = NULL, *figs = NULL;
	int rc, step;

	rc = prepare(ctx, h,
		     "SELECT " ENTRY_COLUMNS ", document FROM runs "
		     "WHERE id = ?1",
		     &st);
	if (rc == 0)
		rc = prepare(ctx, h,
			     "SELECT test, state, value, too_fast, cpu_pct "
			     "FROM figures WHERE run_id = ?1",
			     &figs);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_DONE) {
		rc = clyde_err(ctx, 0, "no run with id %lld in %s",
			       (long long)id, h->path);
		rc = -ENOENT;
		goto out;
	}
	if (step != SQLITE_ROW) {
		rc = db_fail(ctx, h, "read run");
		goto out;
	}
	if (doc) {
		const void *p = sqlite3_column_blob(st, 10);
		size_t n = (size_t)sqlite3_column_bytes(st, 10);

		*doc = malloc(n + 1);
		if (!*doc) {
			rc = clyde_err(ctx, ENOMEM, "%s", h->path);
			goto out;
		}
		if (n)
			memcpy(*doc, p, n);
		(*doc)[n] = '\0';
		if (len)
			*len = n;
	}
	if (e) {
		rc = entry_from_row(ctx, h, st, figs, e);
		if (rc < 0) {
			clyde_history_entry_release(e);
			if (doc) {
				free(*doc);
				*doc = NULL;
			}
		}
	}
out:
	sqlite3_finalize(st);
	sqlite3_finalize(figs);
	return rc;
}

int clyde_history_delete(struct clyde_ctx *ctx, struct clyde_history *h,
			 int64_t id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = begin(ctx, h);
	if (rc < 0)
		return rc;
	rc = prepare(ctx, h, "DELETE FROM figures WHERE run_id = ?1", &st);
	if (rc == 0) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(ctx, h, "delete figures");
		sqlite3_finalize(st);
	}
	if (rc == 0)
		rc = prepare(ctx, h, "DELETE FROM runs WHERE id = ?1", &st);
	if (rc == 0) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(ctx, h, "delete run");
		else if (sqlite3_changes(h->db) == 0)
			rc = clyde_err(ctx, 0, "no run with id %lld in %s",
				       (long long)id, h->path),
			rc = -ENOENT;
		sqlite3_finalize(st);
	}
	if (rc == 0)
		return commit(ctx, h);
	rollback(h);
	return rc;
}

/* ---- schema versions -------------------------------------------------- */

/* Version 0, the legacy layout: what the first histories held. */
static int migrate_create_v0(struct clyde_ctx *ctx, struct clyde_history *h)
{
	return exec(ctx, h,
		    "CREATE TABLE meta (key TEXT PRIMARY KEY, "
		    "value TEXT NOT NULL);"
		    "INSERT INTO meta VALUES ('application', 'clyde'), "
		    "('schema_version', '0');"
		    "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, "
		    "saved_unix INTEGER NOT NULL, document TEXT NOT NULL);");
}

/* Version 1: the extracted columns and the figures, filled in for the
 * runs already stored.  A document that cannot be read any more stays,
 * with kind "unreadable" and no figures: a migration never drops data. */
static int migrate_v1(struct clyde_ctx *ctx, struct clyde_history *h)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	rc = exec(ctx, h,
		  "ALTER TABLE runs ADD COLUMN started_unix INTEGER;"
		  "ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT '';"
		  "ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT '';"
		  "ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';"
		  "ALTER TABLE runs ADD COLUMN target_path TEXT NOT NULL "
		  "DEFAULT '';"
		  "ALTER TABLE runs ADD COLUMN fstype TEXT NOT NULL DEFAULT '';"
		  "ALTER TABLE runs ADD COLUMN mount_opts TEXT NOT NULL "
		  "DEFAULT '';"
		  "ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT '';"
		  "CREATE INDEX runs_by_date ON runs (started_unix);"
		  "CREATE TABLE figures (run_id INTEGER NOT NULL, "
		  "test TEXT NOT NULL, unit TEXT NOT NULL, "
		  "state INTEGER NOT NULL, value REAL, "
		  "too_fast INTEGER NOT NULL DEFAULT 0, cpu_pct REAL, "
		  "PRIMARY KEY (run_id, test));");
	if (rc < 0)
		return rc;
	rc = prepare(ctx, h, "SELECT id, document FROM runs", &st);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct clyde_history_entry e;
		int64_t id = sqlite3_column_int64(st, 0);
		const char *doc = (const char *)sqlite3_column_blob(st, 1);
		size_t n = (size_t)sqlite3_column_bytes(st, 1);
		char what[64];
		struct clyde_ctx quiet;

		snprintf(what, sizeof(what), "run %lld", (long long)id);
		/* Describe in a scratch context: an unreadable document is
		 * not this migration's error. */
		clyde_ctx_init(&quiet);
		if (clyde_history_describe(&quiet, what, doc ? doc : "", n,
					   &e) < 0) {
			memset(&e, 0, sizeof(e));
			e.started_unix = -1;
			e.kind = strdup("unreadable");
			if (!e.kind || entry_fill_strings(&e) < 0)
				rc = clyde_err(ctx, ENOMEM, "%s", h->path);
		}
		clyde_ctx_release(&quiet);
		if (rc == 0)
			rc = store_columns(ctx, h, id, &e);
		clyde_history_entry_release(&e);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_fail(ctx, h, "read runs to migrate");
	sqlite3_finalize(st);
	return rc;
}

/*
 * One entry per schema version, in order: entry i brings a database from
 * version i - 1 (-1: an empty file) to version i.  A new version is one
 * function and one line here, and CLYDE_HISTORY_SCHEMA_VERSION + 1.
 */
static const struct migration {
	int to;
	int (*apply)(struct clyde_ctx *ctx, struct clyde_history *h);
} migrations[] = {
	{ 0, migrate_create_v0 },
	{ 1, migrate_v1 },
	{ 2, clyde_exp_store_migrate_v2 }, /* experiments (clyde sweep) */
};

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) ==
		       CLYDE_HISTORY_SCHEMA_VERSION + 1,
	       "one migration per schema version");

/* What the file at the path is, judged by reading only. */
enum db_kind {
	DB_EMPTY = 0, /* no table at all: a new history */
	DB_CLYDE,     /* version in *version */
	DB_REFUSED,   /* the reason is recorded in ctx */
};

static enum db_kind classify(struct clyde_ctx *ctx, struct clyde_history *h,
			     int *version)
{
	sqlite3_stmt *st = NULL;
	int ntables = -1, has_meta = 0, step;
	char app[32] = "", ver[32] = "";
	char *end;
	long v;

	if (sqlite3_prepare_v2(h->db,
			       "SELECT count(*), "
			       "sum(type = 'table' AND name = 'meta') "
			       "FROM sqlite_master",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		clyde_err(ctx, 0,
			  "%s: not a usable SQLite database (%s); left as it "
			  "is",
			  h->path, sqlite3_errmsg(h->db));
		sqlite3_finalize(st);
		return DB_REFUSED;
	}
	ntables = sqlite3_column_int(st, 0);
	has_meta = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	if (ntables == 0)
		return DB_EMPTY;
	if (!has_meta)
		goto foreign;
	if (sqlite3_prepare_v2(h->db,
			       "SELECT key, value FROM meta WHERE key IN "
			       "('application', 'schema_version')",
			       -1, &st, NULL) != SQLITE_OK)
		goto foreign;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *val = (const char *)sqlite3_column_text(st, 1);

		if (!k || !val)
			continue;
		if (!strcmp(k, "application"))
			snprintf(app, sizeof(app), "%s", val);
		else
			snprintf(ver, sizeof(ver), "%s", val);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		clyde_err(ctx, 0,
			  "%s: cannot read its meta table (%s); left as it is",
			  h->path, sqlite3_errmsg(h->db));
		return DB_REFUSED;
	}
	if (strcmp(app, "clyde"))
		goto foreign;
	errno = 0;
	v = strtol(ver, &end, 10);
	if (!ver[0] || *end || errno || v < 0 || v > INT_MAX) {
		clyde_err(ctx, 0,
			  "%s: clyde history with a bad schema_version \"%s\"; "
			  "left as it is",
			  h->path, ver);
		return DB_REFUSED;
	}
	if (v > CLYDE_HISTORY_SCHEMA_VERSION) {
		clyde_err(ctx, 0,
			  "%s: written by a newer clyde (schema version %ld, "
			  "this clyde knows up to %d); left as it is",
			  h->path, v, CLYDE_HISTORY_SCHEMA_VERSION);
		return DB_REFUSED;
	}
	*version = (int)v;
	return DB_CLYDE;
foreign:
	clyde_err(ctx, 0,
		  "%s: an SQLite database of another application (no clyde "
		  "meta table); left as it is",
		  h->path);
	return DB_REFUSED;
}

/* Bring the database to the current version in one write transaction.
 * The version is read again inside it: another clyde may have created or
 * migrated the database since we looked. */
static int migrate(struct clyde_ctx *ctx, struct clyde_history *h)
{
	sqlite3_stmt *st = NULL;
	int version = -1, rc;
	char vbuf[16];

	rc = begin(ctx, h);
	if (rc < 0)
		return rc;
	switch (classify(ctx, h, &version)) {
	case DB_EMPTY:
		version = -1;
		break;
	case DB_CLYDE:
		break;
	default:
		rollback(h);
		return -EINVAL;
	}
	if (version == CLYDE_HISTORY_SCHEMA_VERSION) {
		rollback(h);
		return 0;
	}
	for (size_t i = 0; i < sizeof(migrations) / sizeof(migrations[0]);
	     i++) {
		if (migrations[i].to <= version)
			continue;
		rc = migrations[i].apply(ctx, h);
		if (rc < 0) {
			rollback(h);
			return rc;
		}
	}
	snprintf(vbuf, sizeof(vbuf), "%d", CLYDE_HISTORY_SCHEMA_VERSION);
	rc = prepare(ctx, h,
		     "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
		     &st);
	if (rc == 0) {
		bind_text(st, 1, vbuf);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(ctx, h, "write schema_version");
		sqlite3_finalize(st);
	}
	if (rc < 0) {
		rollback(h);
		return rc;
	}
	return commit(ctx, h);
}

/* ---- opening ---------------------------------------------------------- */

/* mkdir -p the directories above path, each new one 0700. */
static int make_parents(struct clyde_ctx *ctx, const char *path)
{
	char dir[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(dir))
		return clyde_err(ctx, ENAMETOOLONG, "%s", path);
	memcpy(dir, path, n + 1);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			int e = errno;

			*p = '/';
			return clyde_err(ctx, e, "%.*s: mkdir", (int)(p - dir),
					 dir);
		}
		*p = '/';
	}
	return 0;
}

/*
 * Look at the file before SQLite does.  Returns 1 when it does not exist,
 * 0 when it is empty or starts with SQLite's header, or -EINVAL with the
 * reason recorded when it is something else (left untouched).
 */
static int precheck(struct clyde_ctx *ctx, const char *path)
{
	char head[16];
	struct stat sb;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		return clyde_err(ctx, errno, "%s: open results history", path);
	}
	if (fstat(fd, &sb) < 0) {
		int e = errno;

		close(fd);
		return clyde_err(ctx, e, "%s: stat", path);
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return clyde_err(ctx, 0,
				 "%s: not a regular file, so not a clyde "
				 "results history",
				 path),
		       -EINVAL;
	}
	if (sb.st_size == 0) {
		close(fd);
		return 0;
	}
	r = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (r != (ssize_t)sizeof(head) || memcmp(head, sqlite_magic, 16))
		return clyde_err(ctx, 0,
				 "%s: not a clyde results history (not an "
				 "SQLite database); left as it is",
				 path),
		       -EINVAL;
	return 0;
}

/* Switch to WAL: readers never block the writer and the other way round.
 * The switch needs a moment of exclusive access, which SQLite does not
 * always wait for, so wait here (up to the busy timeout). */
static int set_wal(struct clyde_ctx *ctx, struct clyde_history *h)
{
	for (int tries = 0;; tries++) {
		sqlite3_stmt *st = NULL;
		int step = SQLITE_ERROR;
		const char *mode = NULL;

		if (sqlite3_prepare_v2(h->db, "PRAGMA journal_mode = WAL", -1,
				       &st, NULL) == SQLITE_OK) {
			step = sqlite3_step(st);
			if (step == SQLITE_ROW)
				mode = (const char *)sqlite3_column_text(st, 0);
		}
		if (step == SQLITE_ROW && mode && !strcmp(mode, "wal")) {
			sqlite3_finalize(st);
			return 0;
		}
		sqlite3_finalize(st);
		if ((step & 0xff) != SQLITE_BUSY &&
		    (step & 0xff) != SQLITE_LOCKED && step != SQLITE_ROW)
			return db_fail(ctx, h, "switch to WAL mode");
		if (tries * 10 >= HISTORY_BUSY_MS)
			return clyde_err(ctx, 0,
					 "%s: cannot switch to WAL mode "
					 "(busy)",
					 h->path),
			       -EBUSY;
		usleep(10000);
	}
}

/* The files SQLite may put beside a database. */
static const char *const side_sfx[] = { "-wal", "-shm", "-journal" };
#define N_SIDE (sizeof(side_sfx) / sizeof(side_sfx[0]))

/* Which of path's side files exist now: bit i for side_sfx[i]. */
static unsigned side_files(const char *path)
{
	char side[PATH_MAX + 16];
	struct stat sb;
	unsigned had = 0;

	for (size_t i = 0; i < N_SIDE; i++) {
		snprintf(side, sizeof(side), "%s%s", path, side_sfx[i]);
		if (lstat(side, &sb) == 0)
			had |= 1u << i;
	}
	return had;
}

/* An open that created path failed: remove path and the side files that
 * were not there before (`had`, from side_files()), so that a refused
 * open leaves the directory as it was. */
static void remove_created(const char *path, unsigned had)
{
	char side[PATH_MAX + 16];

	(void)unlink(path);
	for (size_t i = 0; i < N_SIDE; i++) {
		if (had & (1u << i))
			continue;
		snprintf(side, sizeof(side), "%s%s", path, side_sfx[i]);
		(void)unlink(side);
	}
}

int clyde_history_open(struct clyde_ctx *ctx, const char *db_path, bool create,
		       struct clyde_history **out)
{
	char defpath[PATH_MAX];
	struct clyde_history *h;
	int rc, version = -1, flags;
	bool is_new;
	unsigned had = 0;

	*out = NULL;
	if (!db_path) {
		rc = clyde_history_default_path(ctx, defpath, sizeof(defpath));
		if (rc < 0)
			return rc;
		db_path = defpath;
		if (create && (rc = make_parents(ctx, db_path)) < 0)
			return rc;
	}
	rc = precheck(ctx, db_path);
	if (rc < 0)
		return rc;
	if (rc == 1 && !create)
		return clyde_err(ctx, 0,
				 "%s: no results history yet (nothing saved)",
				 db_path),
		       -ENOENT;
	is_new = rc == 1;
	if (is_new)
		had = side_files(db_path);

	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(db_path))) {
		free(h);
		return clyde_err(ctx, ENOMEM, "%s", db_path);
	}
	flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(db_path, &h->db, flags, NULL) != SQLITE_OK) {
		rc = clyde_err(ctx, 0, "%s: cannot open: %s", db_path,
			       h->db ? sqlite3_errmsg(h->db) : "out of memory");
		rc = -EIO;
		goto fail;
	}
	sqlite3_extended_result_codes(h->db, 1);
	sqlite3_busy_timeout(h->db, HISTORY_BUSY_MS);

	/* Read-only judgement first: nothing is written to a file that
	 * turns out not to be ours. */
	switch (classify(ctx, h, &version)) {
	case DB_EMPTY:
		version = -1;
		break;
	case DB_CLYDE:
		break;
	default:
		rc = -EINVAL;
		goto fail;
	}
	h->found_version = version;
	rc = set_wal(ctx, h);
	if (rc == 0)
		rc = migrate(ctx, h);
	if (rc < 0)
		goto fail;
	*out = h;
	return 0;
fail:
	clyde_history_close(h);
	if (is_new)
		remove_created(db_path, had);
	return rc;
}

/* A "file:" URI for path with the query q: every byte but the unreserved
 * ones and '/' is %-encoded, so that '?', '#' or '%' in a name stay part
 * of the name.  NULL when out of memory. */
static char *path_uri(const char *path, const char *q)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t cap = 5 + 3 * strlen(path) + 1 + strlen(q) + 1;
	char *u = malloc(cap), *p;

	if (!u)
		return NULL;
	memcpy(u, "file:", 5);
	p = u + 5;
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("/._-~", *c)) {
			*p++ = (char)*c;
		} else {
			*p++ = '%';
			*p++ = hex[*c >> 4];
			*p++ = hex[*c & 15];
		}
	}
	snprintf(p, cap - (size_t)(p - u), "?%s", q);
	return u;
}

/*
 * Reading only.  SQLite's "mode=ro" alone is not enough: on a WAL
 * database it creates the -wal and -shm files beside it (and leaves them),
 * which fails in a read-only directory and writes next to a file the user
 * wanted only read.  So: when no -wal file exists, every committed
 * transaction is in the database file itself and it is opened immutable
 * (no locks, no side files).  When a -wal file with frames exists (a
 * clyde is saving right now, or one was killed), it holds transactions the
 * file does not have yet, and the ordinary read-only open is used: it
 * reads them through the -wal and -shm files that are already there.
 * (A writer that starts while we read only appends to its -wal; the file
 * itself changes only when the -wal is checkpointed at its close, which a
 * read of a few milliseconds would have to overlap.)
 */
int clyde_history_open_readonly(struct clyde_ctx *ctx, const char *db_path,
				struct clyde_history **out)
{
	char defpath[PATH_MAX], wal[PATH_MAX + 8];
	struct clyde_history *h;
	int rc, version = -1;
	struct stat sb;
	char *uri;

	*out = NULL;
	if (!db_path) {
		rc = clyde_history_default_path(ctx, defpath, sizeof(defpath));
		if (rc < 0)
			return rc;
		db_path = defpath;
	}
	rc = precheck(ctx, db_path);
	if (rc < 0)
		return rc;
	if (rc == 1)
		return clyde_err(ctx, 0,
				 "%s: no results history yet (nothing saved)",
				 db_path),
		       -ENOENT;
	/* A -wal file of no more than its 32-byte header holds no
	 * transaction (a save that failed on a full disk leaves one). */
	snprintf(wal, sizeof(wal), "%s-wal", db_path);
	uri = path_uri(db_path, stat(wal, &sb) == 0 && sb.st_size > 32 ?
					"mode=ro" :
					"mode=ro&immutable=1");
	h = calloc(1, sizeof(*h));
	if (!uri || !h || !(h->path = strdup(db_path))) {
		free(uri);
		free(h);
		return clyde_err(ctx, ENOMEM, "%s", db_path);
	}
	rc = sqlite3_open_v2(uri, &h->db,
			     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
				     SQLITE_OPEN_NOMUTEX,
			     NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		clyde_err(ctx, 0, "%s: cannot open: %s", db_path,
			  h->db ? sqlite3_errmsg(h->db) : "out of memory");
		rc = -EIO;
		goto fail;
	}
	sqlite3_extended_result_codes(h->db, 1);
	sqlite3_busy_timeout(h->db, HISTORY_BUSY_MS);
	switch (classify(ctx, h, &version)) {
	case DB_EMPTY:
		clyde_err(ctx, 0, "%s: no results history yet (nothing saved)",
			  db_path);
		rc = -ENOENT;
		goto fail;
	case DB_CLYDE:
		break;
	default:
		rc = -EINVAL;
		goto fail;
	}
	if (version < CLYDE_HISTORY_SCHEMA_VERSION) {
		/* An older schema must be migrated before it can be read,
		 * and migrating writes: open it the ordinary way. */
		clyde_history_close(h);
		return clyde_history_open(ctx, db_path, false, out);
	}
	h->found_version = version;
	*out = h;
	return 0;
fail:
	clyde_history_close(h);
	return rc;
}

int clyde_history_close_discard_empty(struct clyde_history *h)
{
	char side[PATH_MAX + 16], *path;
	sqlite3_stmt *st = NULL;
	int64_t n = 1;

	if (!h)
		return 0;
	if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM runs", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	path = h->path;
	h->path = NULL;
	clyde_history_close(h);
	if (n != 0) {
		free(path);
		return 0;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		n = -errno;
		free(path);
		return (int)n;
	}
	for (size_t i = 0; i < N_SIDE; i++) {
		snprintf(side, sizeof(side), "%s%s", path, side_sfx[i]);
		(void)unlink(side);
	}
	free(path);
	return 1;
}

void clyde_history_close(struct clyde_history *h)
{
	if (!h)
		return;
	if (h->db)
		sqlite3_close(h->db);
	free(h->path);
	free(h);
}

#endif /* CLYDE_HAVE_SQLITE */

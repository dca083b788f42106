/*
 * The results history (src/store/history_*.c) on temporary databases:
 * save / list / get / import round trips, the extracted figures, schema
 * migration from a hand-made legacy database, refusal of files that are
 * not a clyde history (left byte for byte as they were), and concurrent
 * saves from several processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/loaded.h"
#include "store/history.h"
#include "tap.h"

#ifdef CLYDE_HAVE_SQLITE
#include <sqlite3.h>
#endif

static char tmpdir[] = "/tmp/clyde-test-history.XXXXXX";

/* A path below the temporary directory (static buffer per call site is
 * enough: callers copy what they keep). */
static char *tpath(const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", tmpdir, name) < 0)
		abort();
	return p;
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* The whole file, or NULL; *len its size. */
static char *read_all(const char *path, size_t *len)
{
	struct stat sb;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) < 0) {
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf || read(fd, buf, (size_t)sb.st_size) != sb.st_size)
		abort();
	close(fd);
	buf[sb.st_size] = '\0';
	*len = (size_t)sb.st_size;
	return buf;
}

/*
 * A clyde JSON result (schema v1) with put_block, get_block, seeks and
 * seq_create done, the per-char tests skipped and the rest not run;
 * put_block is too fast when `fast` is set.
 */
static char *make_json(const char *label, long long started, double wr,
		       double rd, double seeks, double creates, int fast)
{
	static const char *const names[] = {
		"putc",	     "put_block",  "rewrite",	 "getc",
		"get_block", "seeks",	   "seq_create", "seq_stat",
		"seq_del",   "ran_create", "ran_stat",	 "ran_del",
	};
	char *tests = strdup(""), *doc;

	for (int i = 0; i < 12; i++) {
		char *t, *next;
		double rate = i == 1 ? wr :
			      i == 4 ? rd :
			      i == 5 ? seeks :
			      i == 6 ? creates :
				       -1;
		const char *unit = i < 5  ? "B/s" :
				   i == 5 ? "seeks/s" :
					    "files/s";

		if (rate >= 0)
			t = NULL,
			asprintf(&t,
				 "{\"name\": \"%s\", \"state\": "
				 "\"done\", \"note\": null, "
				 "\"bytes\": 1, \"ops\": 1, "
				 "\"elapsed_ns\": 1000000000, "
				 "\"cpu_user_ns\": 1, \"cpu_sys_ns\": "
				 "1, \"rate_per_s\": %.17g, "
				 "\"rate_unit\": \"%s\", \"cpu_pct\": "
				 "12.5, \"too_fast\": %s, "
				 "\"latency\": null}",
				 names[i], rate, unit,
				 i == 1 && fast ? "true" : "false");
		else
			t = NULL,
			asprintf(&t,
				 "{\"name\": \"%s\", \"state\": "
				 "\"%s\", \"note\": %s}",
				 names[i],
				 i == 0 || i == 3 ? "skipped" : "not_run",
				 i == 0 || i == 3 ? "\"no per-char\"" : "null");
		if (!t ||
		    asprintf(&next, "%s%s%s", tests, i ? ", " : "", t) < 0)
			abort();
		free(t);
		free(tests);
		tests = next;
	}
	if (asprintf(&doc,
		     "{\"schema\": \"clyde-result\", \"schema_version\": 1, "
		     "\"clyde_version\": \"0.1.0\", \"kind\": \"bonnie\", "
		     "\"label\": \"%s\", \"started_unix\": %lld, "
		     "\"machine\": {\"host\": \"box\", \"kernel\": \"6.1\", "
		     "\"cpu_model\": \"\", \"ncpu\": 2, \"ram_bytes\": 1024}, "
		     "\"target\": {\"path\": \"/mnt/x\", \"fstype\": \"xfs\", "
		     "\"mount_point\": \"/mnt\", \"mount_opts\": "
		     "\"rw,noatime | rw\"}, "
		     "\"config\": {\"concurrency\": 1, \"seed\": 7, "
		     "\"file_size_mib\": 16}, "
		     "\"runs\": [{\"index\": 0, \"seed\": 7, \"tests\": [%s]}], "
		     "\"summary\": [], \"until_stable\": null}\n",
		     label, started, tests) < 0)
		abort();
	free(tests);
	return doc;
}

/* Three bonnie++ lines of three formats, a header, a blank line, and one
 * malformed line (line 4). */
static const char csv_text[] =
	"format_version,bonnie_version,name,concurrency,seed\n"
	"1.98,2.00a,vm,1,1795987758,512M,,8192,5,487,95,284814,75,563976,48,"
	"417,76,+++++,+++,+++++,+++,4,,,,,7825,11,+++++,+++,+++++,+++,+++++,"
	"+++,+++++,+++,+++++,+++,43055us,12912us,9054us,76688us,8982us,"
	"84745us,392us,4101us,521us,5358us,4164us,7469us\n"
	"\n"
	"1.98,2.00a,vm,1,nonsense\n"
	"devil2,8G,88390,99,175541,25,88470,17,51515,80,289555,27,389.0,0,16,"
	"2419,15,+++++,+++,1219,5,1502,9,+++++,+++,920,4\r\n"
	"1.96,1.96,ext4,1,1295954392,16G,,248,99,128657,49,61267,49,1026,97,"
	"236552,85,710.9,35,16,,,,,14841,52,+++++,+++,23164,70,20409,78,"
	"+++++,+++,23441,73,78833us,567ms,2586ms,37539us,61572us,88413us,"
	"206us,2384us,2372us,2322us,78us,2335us";

static void test_default_path(void)
{
	struct clyde_ctx ctx;
	char buf[4096];
	char *old_xdg = getenv("XDG_DATA_HOME") ?
				strdup(getenv("XDG_DATA_HOME")) :
				NULL;
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

	clyde_ctx_init(&ctx);
	setenv("XDG_DATA_HOME", "/srv/data", 1);
	CHECK(clyde_history_default_path(&ctx, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "/srv/data/clyde/results.db");
	/* A relative XDG_DATA_HOME is ignored (XDG spec). */
	setenv("XDG_DATA_HOME", "rel/dir", 1);
	setenv("HOME", "/home/someone", 1);
	CHECK(clyde_history_default_path(&ctx, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "/home/someone/.local/share/clyde/results.db");
	unsetenv("XDG_DATA_HOME");
	CHECK(clyde_history_default_path(&ctx, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "/home/someone/.local/share/clyde/results.db");
	CHECK(clyde_history_default_path(&ctx, buf, 10) == -ENAMETOOLONG);

	if (old_xdg)
		setenv("XDG_DATA_HOME", old_xdg, 1);
	if (old_home)
		setenv("HOME", old_home, 1);
	free(old_xdg);
	free(old_home);
	clyde_ctx_release(&ctx);
}

/* Describing a document needs no database: the columns and figures a
 * JSON result and CSV lines give. */
static void test_describe(void)
{
	char *j = make_json("desc", 1234567890, 2e6, 3e6, 4.5, 6, 1);
	const char *l196 = strrchr(csv_text, '\n') + 1;
	struct clyde_history_entry e;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	CHECK(clyde_history_describe(&ctx, "j", j, strlen(j), &e) == 0);
	CHECK_STR(e.kind, "bonnie");
	CHECK_STR(e.label, "desc");
	CHECK_STR(e.host, "box");
	CHECK_STR(e.target_path, "/mnt/x");
	CHECK_STR(e.fstype, "xfs");
	CHECK_STR(e.source, "");
	CHECK(e.started_unix == 1234567890);
	CHECK(e.fig[CLYDE_PUT_BLOCK].state == CLYDE_HIST_FIG_VALUE &&
	      e.fig[CLYDE_PUT_BLOCK].too_fast &&
	      e.fig[CLYDE_PUT_BLOCK].value == 2e6);
	CHECK(e.fig[CLYDE_SEEKS].value == 4.5);
	CHECK(e.fig[CLYDE_GETC].state == CLYDE_HIST_FIG_NONE);
	clyde_history_entry_release(&e);

	CHECK(clyde_history_describe(&ctx, "c", l196, strlen(l196), &e) == 0);
	CHECK_STR(e.kind, "bonnie-csv");
	CHECK_STR(e.label, "ext4");
	CHECK_STR(e.fstype, "");
	CHECK(e.started_unix == 1295954392);
	CHECK(e.fig[CLYDE_PUTC].state == CLYDE_HIST_FIG_VALUE &&
	      e.fig[CLYDE_PUTC].value == 248.0 * 1024);
	CHECK(e.fig[CLYDE_SEQ_STAT].state == CLYDE_HIST_FIG_TOO_FAST);
	CHECK(e.fig[CLYDE_SEQ_STAT].value == 0);
	clyde_history_entry_release(&e);

	/* Not results: a header, a malformed line, a JSON of another kind. */
	CHECK(clyde_history_describe(&ctx, "h", csv_text, 50, &e) == -EINVAL);
	CHECK(e.kind == NULL);
	clyde_err_clear(&ctx);
	CHECK(clyde_history_describe(&ctx, "bad.csv:4", "1.98,2.00a,vm,1,x", 17,
				     &e) == -EINVAL);
	CHECK(!strncmp(clyde_errmsg(&ctx), "bad.csv:4: ", 11));
	clyde_err_clear(&ctx);
	CHECK(clyde_history_describe(&ctx, "o.json", "{\"a\": 1}", 8, &e) ==
	      -EINVAL);
	CHECK(!strncmp(clyde_errmsg(&ctx), "o.json:", 7));
	clyde_ctx_release(&ctx);
	free(j);
}

#ifdef CLYDE_HAVE_SQLITE

/* Run one SQL statement on a database outside the library; returns the
 * first column of the first row as an integer (or -1). */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

static int sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	int rc;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-9;
}

static void test_save_list_get(void)
{
	char *db = tpath("a/b/results.db");
	char *j1 = make_json("first", 1700000000, 300e6, 900e6, 410.5, 2500, 0);
	char *j2 = make_json("second", 1800000000, 100e6, 200e6, 99.5, 1000, 1);
	char *j3 = make_json("third", 1600000000, 1, 2, 3, 4, 0);
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	int64_t id1 = 0, id2 = 0, id3 = 0;
	size_t n = 0, len = 0;
	char *doc = NULL;
	struct stat sb;

	clyde_ctx_init(&ctx);
	/* A named path's missing directories are not made. */
	CHECK(clyde_history_save(&ctx, db, j1, strlen(j1), &id1) < 0);
	CHECK(strstr(clyde_errmsg(&ctx), db) != NULL);
	clyde_err_clear(&ctx);

	/* The default path's are, with mode 0700. */
	{
		char *xdg = tpath("xdg");

		setenv("XDG_DATA_HOME", xdg, 1);
		CHECK(clyde_history_save(&ctx, NULL, j1, strlen(j1), &id1) ==
		      0);
		free(xdg);
		xdg = tpath("xdg/clyde");
		CHECK(stat(xdg, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		      (sb.st_mode & 07777) == 0700);
		free(xdg);
		xdg = tpath("xdg/clyde/results.db");
		CHECK(stat(xdg, &sb) == 0 && S_ISREG(sb.st_mode));
		CHECK(sql_int(xdg, "SELECT count(*) FROM runs") == 1);
		free(xdg);
		unsetenv("XDG_DATA_HOME");
	}

	free(db);
	db = tpath("results.db");
	CHECK(clyde_history_save(&ctx, db, j1, strlen(j1), &id1) == 0);
	CHECK(clyde_history_save(&ctx, db, j2, strlen(j2), &id2) == 0);
	CHECK(clyde_history_save(&ctx, db, j3, strlen(j3), &id3) == 0);
	CHECK(id1 > 0 && id2 > id1 && id3 > id2);
	if (clyde_errmsg(&ctx)[0])
		fprintf(stderr, "save: %s\n", clyde_errmsg(&ctx));
	/* A CSV line is not what a run saves. */
	CHECK(clyde_history_save(&ctx, db, "1.98,2.00a", 10, NULL) == -EINVAL);
	clyde_err_clear(&ctx);

	CHECK(sql_int(db, "SELECT value FROM meta WHERE "
			  "key = 'schema_version'") ==
	      CLYDE_HISTORY_SCHEMA_VERSION);
	CHECK(sql_int(db, "SELECT count(*) FROM meta WHERE "
			  "key = 'application' AND value = 'clyde'") == 1);
	CHECK(sql_int(db, "SELECT count(*) FROM runs") == 3);

	CHECK(clyde_history_open(&ctx, db, false, &h) == 0);
	if (!h)
		goto out;
	CHECK(clyde_history_found_version(h) == CLYDE_HISTORY_SCHEMA_VERSION);
	CHECK(clyde_history_list(&ctx, h, 0, &e, &n) == 0);
	CHECK(n == 3);
	if (n == 3) {
		/* Newest run first, by the run's date. */
		CHECK(e[0].id == id2 && e[1].id == id1 && e[2].id == id3);
		CHECK_STR(e[1].label, "first");
		CHECK_STR(e[1].kind, "bonnie");
		CHECK_STR(e[1].host, "box");
		CHECK_STR(e[1].target_path, "/mnt/x");
		CHECK_STR(e[1].fstype, "xfs");
		CHECK_STR(e[1].mount_opts, "rw,noatime | rw");
		CHECK_STR(e[1].source, "");
		CHECK(e[1].started_unix == 1700000000);
		CHECK(e[1].saved_unix > 1700000000);
		CHECK(e[1].fig[CLYDE_PUT_BLOCK].state == CLYDE_HIST_FIG_VALUE);
		CHECK(near(e[1].fig[CLYDE_PUT_BLOCK].value, 300e6));
		CHECK(!e[1].fig[CLYDE_PUT_BLOCK].too_fast);
		CHECK(e[1].fig[CLYDE_PUT_BLOCK].has_cpu &&
		      near(e[1].fig[CLYDE_PUT_BLOCK].cpu_pct, 12.5));
		CHECK(near(e[1].fig[CLYDE_GET_BLOCK].value, 900e6));
		CHECK(near(e[1].fig[CLYDE_SEEKS].value, 410.5));
		CHECK(near(e[1].fig[CLYDE_SEQ_CREATE].value, 2500));
		CHECK(e[1].fig[CLYDE_PUTC].state == CLYDE_HIST_FIG_NONE);
		CHECK(e[1].fig[CLYDE_RAN_DEL].state == CLYDE_HIST_FIG_NONE);
		/* Too fast, but clyde measured it: the number is kept. */
		CHECK(e[0].fig[CLYDE_PUT_BLOCK].state == CLYDE_HIST_FIG_VALUE);
		CHECK(e[0].fig[CLYDE_PUT_BLOCK].too_fast);
		CHECK(near(e[0].fig[CLYDE_PUT_BLOCK].value, 100e6));
	}
	clyde_history_entries_free(e, n);

	CHECK(clyde_history_list(&ctx, h, 2, &e, &n) == 0);
	CHECK(n == 2 && e[0].id == id2 && e[1].id == id1);
	clyde_history_entries_free(e, n);

	/* The stored document is byte for byte what was saved. */
	{
		struct clyde_history_entry one;

		CHECK(clyde_history_get(&ctx, h, id1, &one, &doc, &len) == 0);
		CHECK(doc && len == strlen(j1) && !memcmp(doc, j1, len));
		CHECK(one.id == id1);
		CHECK_STR(one.label, "first");
		CHECK(near(one.fig[CLYDE_SEEKS].value, 410.5));
		clyde_history_entry_release(&one);
		free(doc);
	}

	/* Unknown ids. */
	CHECK(clyde_history_get(&ctx, h, 999, NULL, &doc, &len) == -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), "no run with id 999") != NULL);
	CHECK(strstr(clyde_errmsg(&ctx), db) != NULL);
	clyde_err_clear(&ctx);
	CHECK(clyde_history_delete(&ctx, h, 999) == -ENOENT);
	clyde_err_clear(&ctx);

	/* Delete removes the run and its figures, and nothing else. */
	CHECK(clyde_history_delete(&ctx, h, id3) == 0);
	CHECK(clyde_history_get(&ctx, h, id3, NULL, &doc, &len) == -ENOENT);
	clyde_err_clear(&ctx);
	clyde_history_close(h);
	CHECK(sql_int(db, "SELECT count(*) FROM runs") == 2);
	CHECK(sql_int(db, "SELECT count(*) FROM figures WHERE run_id NOT IN "
			  "(SELECT id FROM runs)") == 0);
	/* WAL mode, so that readers and a writer do not block each other. */
	CHECK(sql_int(db, "SELECT count(*) FROM pragma_journal_mode "
			  "WHERE journal_mode = 'wal'") == 1);
out:
	clyde_ctx_release(&ctx);
	free(db);
	free(j1);
	free(j2);
	free(j3);
}

static void test_import(void)
{
	char *db = tpath("import.db");
	char *csv = tpath("runs.csv");
	char *json = tpath("run.json");
	char *bad = tpath("bad.json");
	char *j = make_json("imported", 1750000000, 5e6, 6e6, 7, 8, 0);
	struct clyde_history_import imp;
	struct clyde_history_entry e;
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	char *doc = NULL;
	size_t len = 0;

	clyde_ctx_init(&ctx);
	write_file(csv, csv_text, strlen(csv_text));
	write_file(json, j, strlen(j));
	write_file(bad, "{\"schema\": \"clyde-result\", \"schema_vers", 38);

	/* Read-only open of a missing database: nothing saved yet, and
	 * nothing created. */
	CHECK(clyde_history_open(&ctx, db, false, &h) == -ENOENT);
	CHECK(access(db, F_OK) < 0);
	clyde_err_clear(&ctx);

	CHECK(clyde_history_open(&ctx, db, true, &h) == 0);
	if (!h)
		goto out;
	CHECK(clyde_history_found_version(h) == -1);
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, csv, &imp) == 0);
	/* Three data lines stored; the malformed one named, header and
	 * blank line skipped. */
	CHECK(imp.nids == 3);
	CHECK(imp.nerrors == 1);
	if (imp.nerrors == 1) {
		char *want;

		if (asprintf(&want, "%s:4: ", csv) < 0)
			abort();
		CHECK(!strncmp(imp.errors[0], want, strlen(want)));
		free(want);
	}
	if (imp.nids == 3) {
		/* Line 2: the 1.98 line, stored without its line end. */
		CHECK(clyde_history_get(&ctx, h, imp.ids[0], &e, &doc, &len) ==
		      0);
		CHECK(doc && len > 10 && !memcmp(doc, "1.98,2.00a,vm,1,", 16) &&
		      doc[len - 1] == 's');
		CHECK_STR(e.kind, "bonnie-csv");
		CHECK_STR(e.label, "vm");
		CHECK_STR(e.source, csv);
		CHECK(e.started_unix == 1795987758);
		CHECK(e.fig[CLYDE_PUT_BLOCK].state == CLYDE_HIST_FIG_VALUE);
		CHECK(near(e.fig[CLYDE_PUT_BLOCK].value, 284814.0 * 1024));
		CHECK(near(e.fig[CLYDE_PUT_BLOCK].cpu_pct, 75));
		/* "+++++" stays "too fast", never 0. */
		CHECK(e.fig[CLYDE_SEEKS].state == CLYDE_HIST_FIG_TOO_FAST);
		CHECK(e.fig[CLYDE_SEQ_CREATE].state == CLYDE_HIST_FIG_VALUE &&
		      near(e.fig[CLYDE_SEQ_CREATE].value, 7825));
		free(doc);
		clyde_history_entry_release(&e);

		/* Line 5: bonnie++ 1.03 (no date), its "\r\n" dropped. */
		CHECK(clyde_history_get(&ctx, h, imp.ids[1], &e, &doc, &len) ==
		      0);
		CHECK(doc && len > 0 && doc[len - 1] == '4');
		CHECK(e.started_unix == -1);
		CHECK_STR(e.label, "devil2");
		CHECK(near(e.fig[CLYDE_SEEKS].value, 389.0));
		CHECK(near(e.fig[CLYDE_GET_BLOCK].value, 289555.0 * 1024));
		free(doc);
		clyde_history_entry_release(&e);

		/* Line 6: 1.96, the last line without a line end. */
		CHECK(clyde_history_get(&ctx, h, imp.ids[2], &e, &doc, &len) ==
		      0);
		CHECK(doc && len == strlen(strrchr(csv_text, '\n') + 1));
		CHECK(e.started_unix == 1295954392);
		CHECK(near(e.fig[CLYDE_SEEKS].value, 710.9));
		free(doc);
		clyde_history_entry_release(&e);
	}
	clyde_history_import_release(&imp);

	/* A JSON file is one run, stored as it was. */
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, json, &imp) == 0);
	CHECK(imp.nids == 1 && imp.nerrors == 0);
	if (imp.nids == 1) {
		CHECK(clyde_history_get(&ctx, h, imp.ids[0], &e, &doc, &len) ==
		      0);
		CHECK(doc && len == strlen(j) && !memcmp(doc, j, len));
		CHECK_STR(e.source, json);
		CHECK_STR(e.label, "imported");
		free(doc);
		clyde_history_entry_release(&e);
	}
	clyde_history_import_release(&imp);

	/* A malformed JSON file: an error naming it, nothing stored. */
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, bad, &imp) == -EINVAL);
	CHECK(imp.nids == 0);
	CHECK(!strncmp(clyde_errmsg(&ctx), bad, strlen(bad)));
	if (strncmp(clyde_errmsg(&ctx), bad, strlen(bad)))
		fprintf(stderr, "  message: %s\n", clyde_errmsg(&ctx));
	clyde_err_clear(&ctx);
	clyde_history_import_release(&imp);

	/* A missing file. */
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, "/nonexistent/x.csv", &imp) ==
	      -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), "/nonexistent/x.csv") != NULL);
	clyde_err_clear(&ctx);
	clyde_history_import_release(&imp);
	clyde_history_close(h);
	CHECK(sql_int(db, "SELECT count(*) FROM runs") == 4);
out:
	clyde_ctx_release(&ctx);
	free(db);
	free(csv);
	free(json);
	free(bad);
	free(j);
}

/* Labels from the import (per result, and for all), notes and labels set
 * afterwards, the settings columns, the source line, and duplicates:
 * skipped with the id they are stored as, stored again with force. */
static void test_names_and_duplicates(void)
{
	static const char *const labels[] = { "a", "b", "c" };
	char *db = tpath("names.db");
	char *csv = tpath("names.csv");
	char *crlf = tpath("names-crlf.csv");
	char *json = tpath("names.json");
	char *j = make_json("named", 1750000000, 5e6, 6e6, 7, 8, 0);
	struct clyde_history_import imp;
	struct clyde_history_entry e;
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	int64_t first[3] = { 0 }, id = 0;
	size_t n = 0;
	char *s;

	clyde_ctx_init(&ctx);
	write_file(csv, csv_text, strlen(csv_text));
	write_file(json, j, strlen(j));
	CHECK(clyde_history_count_results(&ctx, csv, &n) == 0 && n == 3);
	CHECK(clyde_history_count_results(&ctx, json, &n) == 0 && n == 1);
	CHECK(clyde_history_open(&ctx, db, true, &h) == 0);
	if (!h)
		goto out;

	clyde_history_import_init(&imp);
	imp.labels = labels;
	imp.nlabels = 3;
	CHECK(clyde_history_import_file(&ctx, h, csv, &imp) == 0);
	CHECK(imp.nids == 3 && imp.nresults == 3 && imp.nskipped == 0);
	for (size_t i = 0; i < imp.nids && i < 3; i++) {
		static const unsigned long lines[] = { 2, 5, 6 };

		first[i] = imp.ids[i];
		CHECK(clyde_history_get(&ctx, h, imp.ids[i], &e, NULL, NULL) ==
		      0);
		CHECK_STR(e.label, labels[i]);
		CHECK(e.source_line == lines[i]);
		CHECK_STR(e.note, "");
		clyde_history_entry_release(&e);
	}
	/* The 1.96 line: 16G, 16 (x 1024) files. */
	CHECK(clyde_history_get(&ctx, h, first[2], &e, NULL, NULL) == 0);
	CHECK(e.file_size[0] != '\0' && strstr(e.file_size, "16") != NULL);
	CHECK_STR(e.files, "16384");
	clyde_history_entry_release(&e);
	clyde_history_import_release(&imp);

	/* The same file again: every line already stored, nothing new. */
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, csv, &imp) == 0);
	CHECK(imp.nids == 0 && imp.nskipped == 3);
	if (imp.nskipped == 3) {
		if (asprintf(&s, "%s:2: already stored as id %lld", csv,
			     (long long)first[0]) < 0)
			abort();
		CHECK_STR(imp.skipped[0], s);
		free(s);
	}
	clyde_history_import_release(&imp);

	/* Other line ends are the same document. */
	s = strdup(csv_text);
	if (!s)
		abort();
	{
		char *c = s;
		FILE *f = fopen(crlf, "w");

		if (!f)
			abort();
		for (; *c; c++)
			fputs(*c == '\n' ? "\r\n" : (char[]){ *c, 0 }, f);
		fclose(f);
	}
	free(s);
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, crlf, &imp) == 0);
	CHECK(imp.nids == 0 && imp.nskipped == 3);
	clyde_history_import_release(&imp);

	/* With force they are stored again, under a label for all. */
	clyde_history_import_init(&imp);
	imp.force = true;
	imp.label = "again";
	CHECK(clyde_history_import_file(&ctx, h, csv, &imp) == 0);
	CHECK(imp.nids == 3 && imp.nskipped == 0);
	if (imp.nids == 3) {
		CHECK(imp.ids[0] > first[2]);
		CHECK(clyde_history_get(&ctx, h, imp.ids[1], &e, NULL, NULL) ==
		      0);
		CHECK_STR(e.label, "again");
		clyde_history_entry_release(&e);
	}
	clyde_history_import_release(&imp);

	/* A JSON file: stored once, then "already stored". */
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, json, &imp) == 0);
	CHECK(imp.nids == 1);
	id = imp.nids ? imp.ids[0] : 0;
	clyde_history_import_release(&imp);
	clyde_history_import_init(&imp);
	CHECK(clyde_history_import_file(&ctx, h, json, &imp) == 0);
	CHECK(imp.nids == 0 && imp.nskipped == 1);
	if (imp.nskipped == 1) {
		if (asprintf(&s, "%s: already stored as id %lld", json,
			     (long long)id) < 0)
			abort();
		CHECK_STR(imp.skipped[0], s);
		free(s);
	}
	clyde_history_import_release(&imp);
	/* A run saved by clyde itself is found too (the -o JSON file). */
	{
		int64_t same = 0;

		CHECK(clyde_history_find_same(&ctx, h, j, strlen(j), &same) ==
		      1);
		CHECK(same == id);
		CHECK(clyde_history_find_same(&ctx, h, "x", 1, &same) == 0);
	}
	/* A hash of the normalised bytes: blanks around do not count. */
	CHECK(clyde_history_doc_hash("a,b\r\n", 5) ==
	      clyde_history_doc_hash("  a,b", 5));
	CHECK(clyde_history_doc_hash("a,b", 3) !=
	      clyde_history_doc_hash("a,c", 3));

	/* Label and note afterwards. */
	CHECK(clyde_history_set_label(&ctx, h, first[0], "devil2 4k") == 0);
	CHECK(clyde_history_set_note(&ctx, h, first[0], "after fstrim") == 0);
	CHECK(clyde_history_get(&ctx, h, first[0], &e, NULL, NULL) == 0);
	CHECK_STR(e.label, "devil2 4k");
	CHECK_STR(e.note, "after fstrim");
	clyde_history_entry_release(&e);
	CHECK(clyde_history_set_note(&ctx, h, first[0], "") == 0);
	CHECK(clyde_history_get(&ctx, h, first[0], &e, NULL, NULL) == 0);
	CHECK_STR(e.note, "");
	clyde_history_entry_release(&e);
	CHECK(clyde_history_set_label(&ctx, h, 99999, "x") == -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), "no run with id 99999") != NULL);
	clyde_err_clear(&ctx);
	CHECK(clyde_history_set_note(&ctx, h, 99999, "x") == -ENOENT);
	clyde_err_clear(&ctx);
	clyde_history_close(h);
out:
	clyde_ctx_release(&ctx);
	free(db);
	free(csv);
	free(crlf);
	free(json);
	free(j);
}

/* Make a database of schema `version` (1 or 2) from a current one by
 * taking away what the later versions added, with one run whose label the
 * user changed.  Returns the run's id, or -1. */
static int64_t make_old_history(const char *db, int version, const char *doc)
{
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	int64_t id = -1;
	char *sql;

	clyde_ctx_init(&ctx);
	if (clyde_history_open(&ctx, db, true, &h) == 0 &&
	    clyde_history_add(&ctx, h, doc, strlen(doc), "/old/runs.csv", &id) <
		    0)
		id = -1;
	clyde_history_close(h);
	clyde_ctx_release(&ctx);
	if (id < 0)
		return -1;
	if (asprintf(&sql,
		     "DROP INDEX runs_by_hash;"
		     "ALTER TABLE runs DROP COLUMN note;"
		     "ALTER TABLE runs DROP COLUMN source_line;"
		     "ALTER TABLE runs DROP COLUMN file_size;"
		     "ALTER TABLE runs DROP COLUMN files;"
		     "ALTER TABLE runs DROP COLUMN io_chunk;"
		     "ALTER TABLE runs DROP COLUMN doc_hash;"
		     "ALTER TABLE figures DROP COLUMN flags;"
		     "UPDATE runs SET label = 'mine';"
		     "UPDATE meta SET value = '%d' WHERE "
		     "key = 'schema_version';",
		     version) < 0)
		abort();
	if (sql_exec(db, sql) < 0)
		id = -1;
	free(sql);
	/* Version 1 had no experiment tables (clyde sweep, v2). */
	if (version == 1 && id >= 0) {
		sqlite3 *s;
		sqlite3_stmt *st;
		char names[16][64];
		int n = 0;

		if (sqlite3_open(db, &s) != SQLITE_OK)
			abort();
		if (sqlite3_prepare_v2(s,
				       "SELECT name FROM sqlite_master WHERE "
				       "type = 'table' AND name NOT IN "
				       "('meta', 'runs', 'figures', "
				       "'sqlite_sequence')",
				       -1, &st, NULL) != SQLITE_OK)
			abort();
		while (sqlite3_step(st) == SQLITE_ROW && n < 16)
			snprintf(names[n++], sizeof(names[0]), "%s",
				 (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		sqlite3_close(s);
		for (int i = 0; i < n; i++) {
			if (asprintf(&sql, "DROP TABLE \"%s\";", names[i]) < 0)
				abort();
			if (sql_exec(db, sql) < 0)
				id = -1;
			free(sql);
		}
	}
	return id;
}

/* Histories of schema 1 and 2 are brought to 3: the user's label stays,
 * the settings and the hash are filled in (so a duplicate is found), the
 * note is empty and the source line unknown. */
static void test_migration_v3(void)
{
	for (int v = 1; v <= 2; v++) {
		char name[32], *db;
		char *j = make_json("old", 1600000000, 1e6, 2e6, 3, 4, 0);
		struct clyde_history_entry e;
		struct clyde_history *h = NULL;
		struct clyde_ctx ctx;
		int64_t id, same = 0;

		snprintf(name, sizeof(name), "v%d.db", v);
		db = tpath(name);
		clyde_ctx_init(&ctx);
		id = make_old_history(db, v, j);
		CHECK(id > 0);
		CHECK(sql_int(db, "SELECT value FROM meta WHERE "
				  "key = 'schema_version'") == v);
		CHECK(clyde_history_open(&ctx, db, false, &h) == 0);
		if (!h) {
			fprintf(stderr, "  v%d: %s\n", v, clyde_errmsg(&ctx));
			goto next;
		}
		CHECK(clyde_history_found_version(h) == v);
		CHECK(clyde_history_get(&ctx, h, id, &e, NULL, NULL) == 0);
		CHECK_STR(e.label, "mine");
		CHECK_STR(e.note, "");
		CHECK(e.source_line == 0);
		CHECK_STR(e.source, "/old/runs.csv");
		CHECK_STR(e.files, "");
		CHECK(e.file_size[0] != '\0');
		clyde_history_entry_release(&e);
		CHECK(clyde_history_find_same(&ctx, h, j, strlen(j), &same) ==
		      1);
		CHECK(same == id);
		/* Version 2's experiment tables are there after either. */
		CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE "
				  "type = 'table' AND name NOT IN ('meta', "
				  "'runs', 'figures', 'sqlite_sequence')") > 0);
		clyde_history_close(h);
		CHECK(sql_int(db, "SELECT value FROM meta WHERE "
				  "key = 'schema_version'") ==
		      CLYDE_HISTORY_SCHEMA_VERSION);
next:
		clyde_ctx_release(&ctx);
		free(db);
		free(j);
	}
}

/* Each figure keeps its flags (results/loaded.h): a test that started on
 * a busy device is listed so, and a history of version 3, which had no
 * flags, gets them from its documents when it is opened; a test measured
 * on a degraded array is flagged degraded. */
static void test_figure_flags(void)
{
	char *db = tpath("flags.db");
	char *j = make_json("busy", 1600000000, 1e6, 2e6, 3, 4, 0);
	const char *at = strstr(j, "\"latency\": null}");
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	size_t n = 0;
	int64_t id = 0;
	char *doc = NULL;

	/* The first test with a rate (put_block) started on a busy device. */
	if (!at ||
	    asprintf(&doc,
		     "%.*s\"latency\": null, \"settle\": "
		     "{\"busy\": true}}%s",
		     (int)(at - j), j, at + strlen("\"latency\": null}")) < 0)
		abort();
	clyde_ctx_init(&ctx);
	CHECK(clyde_history_open(&ctx, db, true, &h) == 0);
	CHECK(clyde_history_add(&ctx, h, doc, strlen(doc), NULL, &id) == 0);
	clyde_history_close(h);
	CHECK(sql_int(db, "SELECT flags FROM figures WHERE test = "
			  "'put_block'") == CLYDE_LOADED_FLAG_BUSY);
	CHECK(sql_int(db, "SELECT flags FROM figures WHERE test = "
			  "'get_block'") == 0);
	/* Version 3: no flags column. */
	CHECK(sql_exec(db, "ALTER TABLE figures DROP COLUMN flags;"
			   "UPDATE meta SET value = '3' WHERE key = "
			   "'schema_version';") == 0);
	h = NULL;
	CHECK(clyde_history_open(&ctx, db, false, &h) == 0);
	CHECK(h && clyde_history_found_version(h) == 3);
	CHECK(h && clyde_history_list(&ctx, h, 0, &e, &n) == 0 && n == 1);
	if (n == 1) {
		CHECK(e[0].fig[CLYDE_PUT_BLOCK].flags ==
		      CLYDE_LOADED_FLAG_BUSY);
		CHECK(e[0].fig[CLYDE_GET_BLOCK].flags == 0);
	}
	clyde_history_entries_free(e, n);
	clyde_history_close(h);
	free(doc);
	doc = NULL;
	/* A test measured while an md array lost members is degraded. */
	free(db);
	db = tpath("flags_degraded.db");
	if (asprintf(&doc,
		     "%.*s\"latency\": null, \"degraded_during\": "
		     "\"md0 lost vdb\"}%s",
		     (int)(at - j), j, at + strlen("\"latency\": null}")) < 0)
		abort();
	h = NULL;
	CHECK(clyde_history_open(&ctx, db, true, &h) == 0);
	CHECK(clyde_history_add(&ctx, h, doc, strlen(doc), NULL, &id) == 0);
	clyde_history_close(h);
	CHECK(sql_int(db, "SELECT flags FROM figures WHERE test = "
			  "'put_block'") == CLYDE_LOADED_FLAG_DEGRADED);
	CHECK(sql_int(db, "SELECT flags FROM figures WHERE test = "
			  "'get_block'") == 0);
	clyde_ctx_release(&ctx);
	free(doc);
	free(j);
	free(db);
}

/* A database at the legacy version 0, made by hand, is migrated: the new
 * columns and figures are filled from the stored documents, the documents
 * and ids are kept, and an unreadable document stays. */
static void test_migration(void)
{
	char *db = tpath("legacy.db");
	char *j = make_json("old run", 1500000000, 42e6, 43e6, 44, 45, 0);
	char *sql;
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	size_t n = 0, len = 0;
	char *doc = NULL;

	clyde_ctx_init(&ctx);
	if (asprintf(&sql,
		     "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT "
		     "NOT NULL);"
		     "INSERT INTO meta VALUES ('application', 'clyde'), "
		     "('schema_version', '0');"
		     "CREATE TABLE runs (id INTEGER PRIMARY KEY "
		     "AUTOINCREMENT, saved_unix INTEGER NOT NULL, document "
		     "TEXT NOT NULL);"
		     "INSERT INTO runs VALUES (7, 1400000000, '%s');"
		     "INSERT INTO runs VALUES (9, 1400000001, 'devil2,8G,88390,"
		     "99,175541,25,88470,17,51515,80,289555,27,389.0,0,16,2419,"
		     "15,+++++,+++,1219,5,1502,9,+++++,+++,920,4');"
		     "INSERT INTO runs VALUES (11, 1400000002, 'garbage');",
		     j) < 0)
		abort();
	CHECK(sql_exec(db, sql) == 0);
	free(sql);

	CHECK(clyde_history_open(&ctx, db, false, &h) == 0);
	if (!h) {
		fprintf(stderr, "open: %s\n", clyde_errmsg(&ctx));
		goto out;
	}
	CHECK(clyde_history_found_version(h) == 0);
	CHECK(clyde_history_list(&ctx, h, 0, &e, &n) == 0);
	CHECK(n == 3);
	if (n == 3) {
		CHECK(e[0].id == 7);
		CHECK_STR(e[0].label, "old run");
		CHECK_STR(e[0].fstype, "xfs");
		CHECK(e[0].started_unix == 1500000000);
		CHECK(e[0].saved_unix == 1400000000);
		CHECK(near(e[0].fig[CLYDE_PUT_BLOCK].value, 42e6));
		/* No dates: newest stored first. */
		CHECK(e[1].id == 11);
		CHECK_STR(e[1].kind, "unreadable");
		CHECK(e[2].id == 9);
		CHECK_STR(e[2].kind, "bonnie-csv");
		CHECK(near(e[2].fig[CLYDE_SEEKS].value, 389.0));
	}
	clyde_history_entries_free(e, n);
	CHECK(clyde_history_get(&ctx, h, 7, NULL, &doc, &len) == 0);
	CHECK(doc && len == strlen(j) && !memcmp(doc, j, len));
	free(doc);
	clyde_history_close(h);
	CHECK(sql_int(db, "SELECT value FROM meta WHERE "
			  "key = 'schema_version'") ==
	      CLYDE_HISTORY_SCHEMA_VERSION);

	/* Opening again finds the current version: no second migration. */
	CHECK(clyde_history_open(&ctx, db, false, &h) == 0);
	if (h)
		CHECK(clyde_history_found_version(h) ==
		      CLYDE_HISTORY_SCHEMA_VERSION);
	clyde_history_close(h);
	h = NULL;

	/* A history from a newer clyde is refused and left alone. */
	CHECK(sql_exec(db, "UPDATE meta SET value = '99' WHERE "
			   "key = 'schema_version'") == 0);
	{
		size_t l1 = 0, l2 = 0;
		char *before = read_all(db, &l1), *after;

		CHECK(clyde_history_open(&ctx, db, true, &h) == -EINVAL);
		CHECK(h == NULL);
		CHECK(strstr(clyde_errmsg(&ctx), "newer clyde") != NULL);
		CHECK(strstr(clyde_errmsg(&ctx), db) != NULL);
		clyde_err_clear(&ctx);
		after = read_all(db, &l2);
		CHECK(before && after && l1 == l2 &&
		      !memcmp(before, after, l1));
		free(before);
		free(after);
	}
out:
	clyde_ctx_release(&ctx);
	free(db);
	free(j);
}

/* Open (with create) a file that is not a clyde history: refused with a
 * message naming it, and the file is byte for byte unchanged. */
static void check_refused(const char *path, const char *what)
{
	char *j = make_json("x", 1, 1, 1, 1, 1, 0);
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	size_t l1 = 0, l2 = 0;
	char *before = read_all(path, &l1), *after, *side;
	int rc;

	clyde_ctx_init(&ctx);
	rc = clyde_history_open(&ctx, path, true, &h);
	CHECK(rc == -EINVAL);
	CHECK(h == NULL);
	if (rc != -EINVAL)
		fprintf(stderr, "  (%s: open gave %d)\n", what, rc);
	clyde_history_close(h);
	CHECK(strstr(clyde_errmsg(&ctx), path) != NULL);
	CHECK(strchr(clyde_errmsg(&ctx), '\n') == NULL);
	clyde_err_clear(&ctx);
	/* Nor does a save write to it. */
	CHECK(clyde_history_save(&ctx, path, j, strlen(j), NULL) == -EINVAL);
	CHECK(strstr(clyde_errmsg(&ctx), path) != NULL);
	after = read_all(path, &l2);
	CHECK(before && after && l1 == l2 && !memcmp(before, after, l1));
	if (asprintf(&side, "%s-wal", path) < 0)
		abort();
	CHECK(access(side, F_OK) < 0);
	free(side);
	free(before);
	free(after);
	free(j);
	clyde_ctx_release(&ctx);
}

static void test_refuse_foreign(void)
{
	char *p;
	unsigned char rnd[8192];
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < sizeof(rnd); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		rnd[i] = (unsigned char)x;
	}
	p = tpath("random.db");
	write_file(p, rnd, sizeof(rnd));
	check_refused(p, "random bytes");
	free(p);

	p = tpath("text.db");
	write_file(p, "my notes\nabout disks\n", 21);
	check_refused(p, "a text file");
	free(p);

	/* A real SQLite database of some other program. */
	p = tpath("other.db");
	CHECK(sql_exec(p, "CREATE TABLE songs (title TEXT);"
			  "INSERT INTO songs VALUES ('x');") == 0);
	check_refused(p, "another application's database");
	free(p);

	/* One with a meta table of its own. */
	p = tpath("meta.db");
	CHECK(sql_exec(p, "CREATE TABLE meta (key TEXT, value TEXT);"
			  "INSERT INTO meta VALUES ('schema_version', '1');") ==
	      0);
	check_refused(p, "a foreign meta table");
	free(p);

	/* SQLite's header followed by garbage. */
	p = tpath("corrupt.db");
	memcpy(rnd, "SQLite format 3", 16);
	write_file(p, rnd, sizeof(rnd));
	check_refused(p, "a corrupt database");
	free(p);

	/* A directory. */
	p = tpath("dir.db");
	CHECK(mkdir(p, 0700) == 0);
	{
		struct clyde_history *h = NULL;
		struct clyde_ctx ctx;

		clyde_ctx_init(&ctx);
		CHECK(clyde_history_open(&ctx, p, true, &h) < 0);
		CHECK(strstr(clyde_errmsg(&ctx), p) != NULL);
		clyde_ctx_release(&ctx);
	}
	free(p);

	/* An empty file is a new history. */
	p = tpath("empty.db");
	write_file(p, "", 0);
	{
		struct clyde_history *h = NULL;
		struct clyde_ctx ctx;

		clyde_ctx_init(&ctx);
		CHECK(clyde_history_open(&ctx, p, true, &h) == 0);
		clyde_history_close(h);
		CHECK(sql_int(p, "SELECT value FROM meta WHERE "
				 "key = 'schema_version'") ==
		      CLYDE_HISTORY_SCHEMA_VERSION);
		clyde_ctx_release(&ctx);
	}
	free(p);
}

/* Several processes save into one database at once, starting before it
 * exists: every save succeeds and every row is there. */
static void test_concurrent(void)
{
	enum {
		PROCS = 4,
		SAVES = 20
	};
	char *db = tpath("concurrent.db");
	pid_t pids[PROCS];
	int failed = 0;

	for (int p = 0; p < PROCS; p++) {
		pids[p] = fork();
		if (pids[p] < 0)
			abort();
		if (pids[p] == 0) {
			struct clyde_ctx ctx;
			int bad = 0;

			clyde_ctx_init(&ctx);
			for (int i = 0; i < SAVES; i++) {
				char label[32];
				char *j;

				snprintf(label, sizeof(label), "p%d-%d", p, i);
				j = make_json(label, 1000 + i, 1, 2, 3, 4, 0);
				if (clyde_history_save(&ctx, db, j, strlen(j),
						       NULL) < 0) {
					fprintf(stderr, "child %d: %s\n", p,
						clyde_errmsg(&ctx));
					clyde_err_clear(&ctx);
					bad++;
				}
				free(j);
			}
			_exit(bad ? 1 : 0);
		}
	}
	for (int p = 0; p < PROCS; p++) {
		int st;

		if (waitpid(pids[p], &st, 0) != pids[p] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			failed++;
	}
	CHECK(failed == 0);
	CHECK(sql_int(db, "SELECT count(*) FROM runs") == PROCS * SAVES);
	CHECK(sql_int(db, "SELECT count(DISTINCT label) FROM runs") ==
	      PROCS * SAVES);
	CHECK(sql_int(db, "SELECT count(*) FROM figures") == PROCS * SAVES * 4);
	free(db);
}

/* Entries in directory `dir` (without . and ..). */
static int count_entries(const char *dir)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return -1;
	while ((d = readdir(dp)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			n++;
	closedir(dp);
	return n;
}

/* Runs listed through a read-only open, or -1. */
static int ro_count(struct clyde_ctx *ctx, const char *db)
{
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h = NULL;
	size_t n = 0;

	if (clyde_history_open_readonly(ctx, db, &h) < 0)
		return -1;
	if (clyde_history_list(ctx, h, 0, &e, &n) < 0)
		n = (size_t)-1;
	clyde_history_entries_free(e, n == (size_t)-1 ? 0 : n);
	clyde_history_close(h);
	return (int)n;
}

/*
 * Reading never writes: no -wal, -shm or -journal appears beside the
 * database, whether a writer is busy or not; a missing or empty file is
 * "nothing saved" and stays missing or empty; a name with URI characters
 * is still the name.  And a history created and left empty can be
 * discarded.
 */
static void test_readonly(void)
{
	char *dir = tpath("ro"), *db = tpath("ro/h.db");
	char *odd = tpath("ro/we?ird#n%61me.db"), *none = tpath("ro/none.db");
	char *j1 = make_json("one", 1700000000, 1, 2, 3, 4, 0);
	char *j2 = make_json("two", 1700000100, 1, 2, 3, 4, 0);
	struct clyde_history *w = NULL, *h = NULL;
	struct clyde_history_entry e;
	struct clyde_ctx ctx;
	char *doc = NULL;
	size_t len = 0;
	struct stat sb;

	clyde_ctx_init(&ctx);
	CHECK(mkdir(dir, 0755) == 0);
	CHECK(clyde_history_save(&ctx, db, j1, strlen(j1), NULL) == 0);
	CHECK(clyde_history_save(&ctx, db, j2, strlen(j2), NULL) == 0);
	CHECK(count_entries(dir) == 1);

	CHECK(ro_count(&ctx, db) == 2);
	CHECK(clyde_history_open_readonly(&ctx, db, &h) == 0);
	memset(&e, 0, sizeof(e));
	CHECK(h && clyde_history_get(&ctx, h, 2, &e, &doc, &len) == 0);
	CHECK(len == strlen(j2) && doc && !memcmp(doc, j2, len));
	CHECK_STR(e.label, "two");
	clyde_history_entry_release(&e);
	free(doc);
	clyde_history_close(h);
	CHECK(count_entries(dir) == 1);

	/* A writer with a transaction only in its -wal: the reader sees it
	 * and adds no file of its own. */
	CHECK(clyde_history_open(&ctx, db, false, &w) == 0);
	CHECK(w && clyde_history_add(&ctx, w, j1, strlen(j1), NULL, NULL) == 0);
	{
		char *wal = tpath("ro/h.db-wal");

		CHECK(stat(wal, &sb) == 0 && sb.st_size > 32);
		free(wal);
	}
	CHECK(ro_count(&ctx, db) == 3);
	CHECK(count_entries(dir) == 3); /* h.db and the writer's two */
	clyde_history_close(w);
	CHECK(count_entries(dir) == 1);
	CHECK(ro_count(&ctx, db) == 3);

	/* Missing and empty files are "nothing saved", and stay so. */
	CHECK(clyde_history_open_readonly(&ctx, none, &h) == -ENOENT);
	CHECK(h == NULL && stat(none, &sb) < 0);
	CHECK(strstr(clyde_errmsg(&ctx), "nothing saved") != NULL);
	clyde_err_clear(&ctx);
	write_file(none, "", 0);
	CHECK(clyde_history_open_readonly(&ctx, none, &h) == -ENOENT);
	CHECK(stat(none, &sb) == 0 && sb.st_size == 0);
	clyde_err_clear(&ctx);
	unlink(none);

	/* '?', '#' and '%' are part of the file name, not of a URI. */
	CHECK(clyde_history_save(&ctx, odd, j1, strlen(j1), NULL) == 0);
	CHECK(ro_count(&ctx, odd) == 1);
	unlink(odd);

	/* A new history left empty is removed with its side files; one
	 * holding a run is kept. */
	CHECK(clyde_history_open(&ctx, none, true, &w) == 0);
	CHECK(clyde_history_close_discard_empty(w) == 1);
	CHECK(count_entries(dir) == 1);
	CHECK(clyde_history_open(&ctx, db, false, &w) == 0);
	CHECK(clyde_history_close_discard_empty(w) == 0);
	CHECK(ro_count(&ctx, db) == 3);
	if (clyde_errmsg(&ctx)[0])
		fprintf(stderr, "readonly: %s\n", clyde_errmsg(&ctx));

	clyde_ctx_release(&ctx);
	free(j1);
	free(j2);
	free(none);
	free(odd);
	free(db);
	free(dir);
}

#else /* !CLYDE_HAVE_SQLITE */

static void test_no_sqlite(void)
{
	char *db = tpath("results.db"), *j = make_json("x", 1, 1, 1, 1, 1, 0);
	struct clyde_history *h = NULL;
	struct clyde_ctx ctx;
	size_t len = 0;
	char *after;

	clyde_ctx_init(&ctx);
	CHECK(!clyde_history_available());
	CHECK(clyde_history_open(&ctx, db, true, &h) == -ENOTSUP);
	CHECK(strstr(clyde_errmsg(&ctx), "without SQLite") != NULL);
	clyde_err_clear(&ctx);
	/* A save says so too, and writes nothing. */
	write_file(db, "keep", 4);
	CHECK(clyde_history_save(&ctx, db, j, strlen(j), NULL) == -ENOTSUP);
	after = read_all(db, &len);
	CHECK(after && len == 4 && !memcmp(after, "keep", 4));
	free(after);
	free(db);
	free(j);
	clyde_ctx_release(&ctx);
}

#endif

int main(void)
{
	char *cmd;

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_default_path();
	test_describe();
#ifdef CLYDE_HAVE_SQLITE
	CHECK(clyde_history_available());
	test_save_list_get();
	test_import();
	test_migration();
	test_names_and_duplicates();
	test_migration_v3();
	test_figure_flags();
	test_refuse_foreign();
	test_concurrent();
	test_readonly();
#else
	test_no_sqlite();
#endif
	if (asprintf(&cmd, "rm -rf '%s'", tmpdir) >= 0) {
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
		free(cmd);
	}
	return tap_done();
}

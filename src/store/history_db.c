/*
 * Opening the results history: where it lives, and judging, opening and
 * migrating the file.  See history.h for the contract.
 *
 * Opening is the delicate part, because the file at the path may not be
 * ours.  The order is: look at the file's first bytes ourselves (read
 * only), let SQLite read its schema (still no write), decide whether it
 * is a clyde history, a new one, or something to refuse -- and only then
 * switch to WAL mode and migrate, which are the first writes.
 */
#include "store/history.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "store/history_internal.h"

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

/* The directory a missing file would be created in (into dir): its
 * parent, or with `walk_up` the nearest existing ancestor (the history
 * makes the directories on the way).  Returns 0 when it is a directory
 * this process may create files in, or -errno. */
static int creatable(const char *path, bool walk_up, char *dir, size_t cap)
{
	struct stat st;
	char *copy = strdup(path), *d;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	d = dirname(copy);
	for (;;) {
		snprintf(dir, cap, "%s", d);
		if (stat(d, &st) == 0)
			break;
		if (errno != ENOENT || !walk_up || !strcmp(d, "/") ||
		    !strcmp(d, ".")) {
			rc = -errno;
			break;
		}
		d = dirname(d);
	}
	if (!rc && !S_ISDIR(st.st_mode))
		rc = -ENOTDIR;
	if (!rc && access(dir, W_OK | X_OK) < 0)
		rc = -errno;
	free(copy);
	return rc;
}

/* May this process write the existing history at path, and make the
 * -wal and -shm files beside it?  (SQLite would open a file it cannot
 * write read-only and fail only at the first write.)  0, or -1 with
 * "PATH: user NAME (uid N) cannot write it: why" in ctx. */
static int writable(struct clyde_ctx *ctx, const char *path)
{
	char *copy = strdup(path);
	const char *what = path;
	struct passwd *pw;
	int e = 0;

	if (!copy)
		return clyde_err(ctx, ENOMEM, "%s", path), -1;
	if (faccessat(AT_FDCWD, path, R_OK | W_OK, AT_EACCESS) < 0) {
		e = errno;
	} else if (faccessat(AT_FDCWD, dirname(copy), W_OK | X_OK, AT_EACCESS) <
		   0) {
		e = errno;
		what = "the directory it is in";
	}
	if (e) {
		pw = getpwuid(geteuid());
		clyde_err(ctx, e, "%s: user %s (uid %u) cannot write %s", path,
			  pw ? pw->pw_name : "?", (unsigned)geteuid(),
			  what == path ? "it" : what);
	}
	free(copy);
	return e ? -1 : 0;
}

int clyde_history_check(struct clyde_ctx *ctx, const char *db_path)
{
	char def[4096], dir[4096];
	struct clyde_history *h = NULL;
	const char *path = db_path;
	struct stat st;
	int rc;

	if (!path) {
		if (clyde_history_default_path(ctx, def, sizeof(def)) < 0)
			return 1;
		path = def;
	}
	if (stat(path, &st) == 0) {
		/* Busy now is not unusable: a glance, not a wait. */
		static const struct clyde_history_wait glance = { 100, NULL,
								  NULL };

		if (writable(ctx, path) < 0)
			return -1;
		rc = clyde_history_open_waiting(ctx, path, false, &glance, &h);
		if (rc == -EBUSY) {
			clyde_err_clear(ctx);
			return 0;
		}
		if (rc < 0)
			return -1;
		clyde_history_close(h);
		return 0;
	}
	rc = errno == ENOENT ? creatable(path, !db_path, dir, sizeof(dir)) :
			       -errno;
	if (rc < 0) {
		clyde_err(ctx, 0, "cannot create %s: %s", path, strerror(-rc));
		return -1;
	}
	return 0;
}

int clyde_history_spill(struct clyde_ctx *ctx, const char *db_path,
			const char *json_text, size_t len, char *out,
			size_t cap)
{
	char def[PATH_MAX];
	const char *path = db_path;
	size_t done = 0;
	int fd, rc = 0;

	if (!path) {
		if (clyde_history_default_path(ctx, def, sizeof(def)) < 0)
			return -EINVAL;
		path = def;
	}
	if ((size_t)snprintf(out, cap, "%s.unsaved-%lld-%ld.json", path,
			     (long long)time(NULL), (long)getpid()) >= cap)
		return clyde_err(ctx, 0, "%s: the path is too long", path),
		       -ENAMETOOLONG;
	fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return clyde_err(ctx, errno, "cannot create %s", out);
	while (done < len && rc == 0) {
		ssize_t n = write(fd, json_text + done, len - done);

		if (n > 0)
			done += (size_t)n;
		else if (n < 0 && errno != EINTR)
			rc = clyde_err(ctx, errno, "%s: write", out);
	}
	if (rc == 0 && fsync(fd) < 0)
		rc = clyde_err(ctx, errno, "%s: fsync", out);
	if (close(fd) < 0 && rc == 0)
		rc = clyde_err(ctx, errno, "%s: close", out);
	if (rc < 0)
		unlink(out);
	return rc;
}

#ifdef CLYDE_HAVE_SQLITE

#include <sqlite3.h>

/* How long a writer waits for another one before giving up. */
#define HISTORY_BUSY_MS 5000

/* The first 16 bytes of every SQLite 3 database file. */
static const char sqlite_magic[16] = "SQLite format 3";

bool clyde_history_available(void)
{
	return true;
}

const char *clyde_history_path(const struct clyde_history *h)
{
	return h->path;
}

int clyde_history_found_version(const struct clyde_history *h)
{
	return h->found_version;
}

/* Did the last call on db fail for lack of space?  SQLite says
 * SQLITE_FULL when a write came short, but a -shm or -wal file that
 * cannot be grown is an I/O error whose errno says ENOSPC. */
static bool db_full(sqlite3 *db)
{
	int e = sqlite3_system_errno(db);

	return (sqlite3_errcode(db) & 0xff) == SQLITE_FULL || e == ENOSPC ||
	       e == EDQUOT;
}

/* Did the last call on db fail because the filesystem under the history
 * is mounted read-only?  SQLite then says only "unable to open database
 * file" (its -wal or -shm file cannot be made). */
static bool read_only_fs(struct clyde_history *h)
{
	struct statvfs v;
	int code = sqlite3_errcode(h->db) & 0xff;

	if (code != SQLITE_CANTOPEN && code != SQLITE_READONLY &&
	    code != SQLITE_IOERR)
		return false; /* a garbage file on a read-only disk */
	return sqlite3_system_errno(h->db) == EROFS ||
	       (statvfs(h->path, &v) == 0 && (v.f_flag & ST_RDONLY));
}

/* Record "PATH: what: sqlite's message" and return -EIO (-ENOMEM when
 * SQLite ran out of memory, -ENOSPC with "the disk is full" when the
 * filesystem is). */
int clyde_db_fail(struct clyde_ctx *ctx, struct clyde_history *h,
		  const char *what)
{
	int code = sqlite3_errcode(h->db);

	if (db_full(h->db)) {
		clyde_err(ctx, 0, "%s: %s: the disk is full (%s)", h->path,
			  what, sqlite3_errmsg(h->db));
		return -ENOSPC;
	}
	clyde_err(ctx, 0, "%s: %s: %s", h->path, what, sqlite3_errmsg(h->db));
	if ((code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED)
		return -EBUSY;
	return code == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

int clyde_db_exec(struct clyde_ctx *ctx, struct clyde_history *h,
		  const char *sql)
{
	if (sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return clyde_db_fail(ctx, h, sql);
	return 0;
}

int clyde_db_prepare(struct clyde_ctx *ctx, struct clyde_history *h,
		     const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(h->db, sql, -1, st, NULL) != SQLITE_OK)
		return clyde_db_fail(ctx, h, "prepare");
	return 0;
}

/* NULL binds "": every text column of the store is NOT NULL. */
int clyde_db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

void clyde_db_rollback(struct clyde_history *h)
{
	if (!sqlite3_get_autocommit(h->db))
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

/* BEGIN IMMEDIATE takes the write lock now, so that two writers queue on
 * the busy timeout instead of one failing when it upgrades a read. */
int clyde_db_begin(struct clyde_ctx *ctx, struct clyde_history *h)
{
	return clyde_db_exec(ctx, h, "BEGIN IMMEDIATE");
}

int clyde_db_commit(struct clyde_ctx *ctx, struct clyde_history *h)
{
	int rc = clyde_db_exec(ctx, h, "COMMIT");

	if (rc < 0)
		clyde_db_rollback(h);
	return rc;
}

/* What the file at the path is, judged by reading only. */
enum db_kind {
	DB_EMPTY = 0, /* no table at all: a new history */
	DB_CLYDE,     /* version in *version */
	DB_REFUSED,   /* the reason is recorded in ctx */
	DB_FULL,      /* cannot even be read: the disk is full (recorded) */
};

/* The errno of an open refused as `kind`. */
static int refused_rc(enum db_kind kind)
{
	return kind == DB_FULL ? -ENOSPC : -EINVAL;
}

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
		bool full = db_full(h->db);

		if (full)
			clyde_err(ctx, 0,
				  "%s: cannot open the results history: the "
				  "disk is full (%s); nothing was written",
				  h->path, sqlite3_errmsg(h->db));
		else if (read_only_fs(h))
			clyde_err(ctx, 0,
				  "%s: cannot open the results history for "
				  "writing: its filesystem is read-only "
				  "(EROFS); left as it is",
				  h->path);
		else
			clyde_err(ctx, 0,
				  "%s: not a usable SQLite database (%s); "
				  "left as it is",
				  h->path, sqlite3_errmsg(h->db));
		sqlite3_finalize(st);
		return full ? DB_FULL : DB_REFUSED;
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
	int version = -1, rc;
	enum db_kind kind;

	rc = clyde_db_begin(ctx, h);
	if (rc < 0)
		return rc;
	switch ((kind = classify(ctx, h, &version))) {
	case DB_EMPTY:
		version = -1;
		break;
	case DB_CLYDE:
		break;
	default:
		clyde_db_rollback(h);
		return refused_rc(kind);
	}
	if (version == CLYDE_HISTORY_SCHEMA_VERSION) {
		clyde_db_rollback(h);
		return 0;
	}
	rc = clyde_db_apply_migrations(ctx, h, version);
	if (rc < 0) {
		clyde_db_rollback(h);
		return rc;
	}
	return clyde_db_commit(ctx, h);
}

/*
 * A damaged page must stop clyde before it writes: SQLite reads what it
 * can of a damaged file, and a save would go on writing pages into it
 * (the run is then "saved" into a file that fails integrity_check, or
 * not saved at all after the benchmark has run).  quick_check reads every
 * page of every b-tree once (the checks of integrity_check less the
 * index-against-table comparison), which is fast beside a benchmark, and
 * (1) stops at the first error.  Returns 0, or -EUCLEAN with the first
 * finding recorded.
 */
/* How quick_check heads its findings in the main database. */
#define DB_MAIN_HEADING "*** in database main ***"

static int check_intact(struct clyde_ctx *ctx, struct clyde_history *h)
{
	sqlite3_stmt *st = NULL;
	const char *res = NULL;
	char found[256] = "";
	int step = SQLITE_ERROR;

	if (sqlite3_prepare_v2(h->db, "PRAGMA quick_check(1)", -1, &st, NULL) ==
	    SQLITE_OK)
		step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		res = (const char *)sqlite3_column_text(st, 0);
	if (step == SQLITE_ROW && res && !strcmp(res, "ok")) {
		sqlite3_finalize(st);
		return 0;
	}
	if (step != SQLITE_ROW &&
	    (sqlite3_errcode(h->db) & 0xff) != SQLITE_CORRUPT &&
	    (sqlite3_errcode(h->db) & 0xff) != SQLITE_NOTADB) {
		int rc = clyde_db_fail(ctx, h, "check the database");

		sqlite3_finalize(st);
		return rc;
	}
	/* One line: the finding may hold line ends (a heading, then "On
	 * tree page ..."). */
	if (!res)
		res = sqlite3_errmsg(h->db);
	if (!strncmp(res, DB_MAIN_HEADING, strlen(DB_MAIN_HEADING)))
		res += strlen(DB_MAIN_HEADING);
	snprintf(found, sizeof(found), "%s", res + strspn(res, " \n"));
	for (char *p = found; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	sqlite3_finalize(st);
	clyde_err(ctx, 0,
		  "%s: the database is damaged (quick_check: %s); left as it "
		  "is, nothing is written to it",
		  h->path, found);
	return -EUCLEAN;
}

/* What SQLite needs free to open a history for writing: the 32 KiB
 * -shm index and the first pages of a -wal file. */
#define HISTORY_MIN_FREE (64u * 1024)

/*
 * Refuse to open path for writing on a full filesystem, before SQLite
 * makes its -wal and -shm files beside it (which it does even to read a
 * WAL database).  The space is what this user may use (root: the blocks
 * reserved for root too).  Returns 0, or -ENOSPC with the reason recorded.
 */
static int check_room(struct clyde_ctx *ctx, const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct statvfs sv;
	unsigned long long avail;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	/* A filesystem that does not say (f_blocks 0) is let through. */
	if (statvfs(dir, &sv) < 0 || sv.f_blocks == 0)
		return 0;
	avail = (unsigned long long)(geteuid() == 0 ? sv.f_bfree :
						      sv.f_bavail) *
		sv.f_frsize;
	if (avail >= HISTORY_MIN_FREE)
		return 0;
	return clyde_err(ctx, 0,
			 "%s: cannot open the results history: the disk is "
			 "full (%llu KiB free in %s); nothing was written",
			 path, avail / 1024, dir),
	       -ENOSPC;
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
			return clyde_db_fail(ctx, h, "switch to WAL mode");
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

/* The byte of the -shm file every connection to a WAL database holds a
 * read lock on while it has the database open (SQLite's unix VFS: the
 * "DMS" lock, after the 120-byte index header and 8 lock bytes). */
#define SHM_DMS_BYTE 128

/*
 * An open of an existing database failed (a full disk): remove the -shm
 * file and an empty -wal file this open made (not in `had`), so that the
 * directory is as it was.  Only when no other process has the database
 * open: SQLite's -shm lock says so, and holding it while removing keeps a
 * process that opens the database now waiting.  A -wal file with frames
 * in it is never removed (it may hold another process's commits).
 */
static void remove_side_created(const char *path, unsigned had)
{
	char wal[PATH_MAX + 16], shm[PATH_MAX + 16];
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat sb;
	int fd;

	if ((had & 3u) == 3u) /* -wal and -shm were both there */
		return;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	snprintf(shm, sizeof(shm), "%s-shm", path);
	fd = open(shm, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno != ENOENT)
		return;
	fl.l_start = SHM_DMS_BYTE;
	fl.l_len = 1;
	if (fd >= 0 && fcntl(fd, F_SETLK, &fl) < 0) {
		close(fd); /* someone has the database open */
		return;
	}
	if (!(had & 1u) && lstat(wal, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_size <= 32)
		(void)unlink(wal);
	if (fd >= 0) {
		if (!(had & 2u))
			(void)unlink(shm);
		close(fd);
	}
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* SQLite's busy handler for a writer with a wait (clyde_history_wait):
 * keep trying every 20 ms up to max_ms of this busy spell, saying once
 * after a second what it waits for.  0 gives up (SQLITE_BUSY). */
static int busy_wait(void *arg, int count)
{
	struct clyde_history *h = arg;
	uint64_t waited;

	if (count == 0)
		h->wait_start_ns = now_ns();
	waited = (now_ns() - h->wait_start_ns) / 1000000u;
	if (waited >= h->wait.max_ms)
		return 0;
	if (waited >= 1000 && !h->wait_said) {
		h->wait_said = true;
		if (h->wait.waiting)
			h->wait.waiting(h->wait.arg, h->path, h->wait.max_ms);
	}
	usleep(20000);
	return 1;
}

/* Open h->db from `name` (the path, or a file: URI for it) with sqlite's
 * `flags`, with extended result codes and the busy timeout both openers
 * want; the error names h->path. */
static int db_open(struct clyde_ctx *ctx, struct clyde_history *h,
		   const char *name, int flags)
{
	if (sqlite3_open_v2(name, &h->db, flags, NULL) != SQLITE_OK) {
		clyde_err(ctx, 0, "%s: cannot open: %s", h->path,
			  h->db ? sqlite3_errmsg(h->db) : "out of memory");
		return -EIO;
	}
	sqlite3_extended_result_codes(h->db, 1);
	sqlite3_busy_timeout(h->db, HISTORY_BUSY_MS);
	return 0;
}

void clyde_history_set_wait(struct clyde_history *h,
			    const struct clyde_history_wait *wait)
{
	h->wait = *wait;
	h->wait_said = false;
	sqlite3_busy_handler(h->db, busy_wait, h);
}

int clyde_history_open(struct clyde_ctx *ctx, const char *db_path, bool create,
		       struct clyde_history **out)
{
	return clyde_history_open_waiting(ctx, db_path, create, NULL, out);
}

int clyde_history_open_waiting(struct clyde_ctx *ctx, const char *db_path,
			       bool create,
			       const struct clyde_history_wait *wait,
			       struct clyde_history **out)
{
	char defpath[PATH_MAX];
	struct clyde_history *h;
	int rc, version = -1, flags;
	enum db_kind kind;
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
	had = side_files(db_path);
	rc = check_room(ctx, db_path);
	if (rc < 0)
		return rc;

	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(db_path))) {
		free(h);
		return clyde_err(ctx, ENOMEM, "%s", db_path);
	}
	flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	rc = db_open(ctx, h, db_path, flags);
	if (rc < 0)
		goto fail;
	if (wait)
		clyde_history_set_wait(h, wait);

	/* Read-only judgement first: nothing is written to a file that
	 * turns out not to be ours, or damaged. */
	switch ((kind = classify(ctx, h, &version))) {
	case DB_EMPTY:
		version = -1;
		break;
	case DB_CLYDE:
		break;
	default:
		rc = refused_rc(kind);
		goto fail;
	}
	h->found_version = version;
	rc = is_new ? 0 : check_intact(ctx, h);
	if (rc == 0)
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
	else
		remove_side_created(db_path, had);
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
	enum db_kind kind;
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
	rc = db_open(ctx, h, uri,
		     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
			     SQLITE_OPEN_NOMUTEX);
	free(uri);
	if (rc < 0)
		goto fail;
	switch ((kind = classify(ctx, h, &version))) {
	case DB_EMPTY:
		clyde_err(ctx, 0, "%s: no results history yet (nothing saved)",
			  db_path);
		rc = -ENOENT;
		goto fail;
	case DB_CLYDE:
		break;
	default:
		rc = refused_rc(kind);
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

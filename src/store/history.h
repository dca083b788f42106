/*
 * The results history: every result kept in one SQLite database, so that
 * runs made weeks apart can be listed, shown, exported and compared.
 *
 * Where.  The default database is $XDG_DATA_HOME/clyde/results.db, or
 * ~/.local/share/clyde/results.db when XDG_DATA_HOME is unset, empty or
 * relative (the XDG rule).  Missing directories on the way to the default
 * path are made with mode 0700; a path the caller names is used as given.
 *
 * What is stored.  One row per result in `runs`: the whole document as it
 * was handed in (a clyde JSON result, or one bonnie++/clyde CSV line
 * without its line end) and columns extracted from it: the run's date,
 * label, kind ("bonnie" or "tree" for clyde JSON, "bonnie-csv" for a CSV
 * line), host, target path, filesystem, mount options, file size, file
 * count and IO chunk (as the compare table shows them), the file it was
 * imported from and the line in it; and what the user added: a label of
 * their choice (which replaces the document's) and a free-text note.
 * Beside it, `figures` holds one row per test of the
 * bonnie++ suite that the result carries: its rate (the mean over the
 * result's repeats), unit and CPU share, so that a list needs no parsing.
 *
 * Schema versions.  The `meta` table holds application = "clyde" and
 * schema_version.  Opening a database brings it forward to
 * CLYDE_HISTORY_SCHEMA_VERSION in one transaction, one step per version
 * (history_schema.c: the `migrations` table); a new version is one function and
 * one entry there.  Version 0 is the legacy layout: meta plus
 * runs(id, saved_unix, document) and nothing else.
 *
 * What is never touched.  A file at the path that is not a clyde history
 * (not SQLite at all, a corrupt database, another application's database,
 * or one from a newer clyde) is refused with one message naming the path,
 * and nothing is written to it: the checks are made before the first
 * write.  Only a missing file, an empty file or an SQLite database without
 * any table becomes a new history.
 *
 * Several processes.  The database is in WAL mode with a 5 s busy timeout
 * and every write transaction starts with BEGIN IMMEDIATE, so clyde
 * processes saving at the same time each wait their turn instead of
 * failing.
 *
 * A damaged database.  Every open for writing runs SQLite's quick_check
 * before its first write; a database with a damaged page is refused
 * (-EUCLEAN) and never written to.  Reading opens do not check: they read
 * what can be read.
 *
 * A full disk.  An open for writing on a filesystem with less than 64 KiB
 * free is refused (-ENOSPC) before SQLite makes its -wal and -shm files;
 * an open that fails after SQLite made them removes them again (unless
 * another process has the database open).  A write that fails for lack
 * of space is -ENOSPC with "the disk is full" in the message.
 *
 * Nothing here prints.  Errors are recorded in the context (naming the
 * database path) and returned as negative errno values: -ENOENT for a
 * missing database (read-only opens) or an unknown id, -EINVAL for a file
 * that is not a usable clyde history or a document that cannot be read,
 * -EUCLEAN for a damaged database, -ENOSPC for a full disk, -EIO for
 * other SQLite failures, -ENOMEM.
 *
 * Without SQLite at build time (no CLYDE_HAVE_SQLITE) every function that
 * needs the database records "built without SQLite" and returns -ENOTSUP.
 */
#ifndef CLYDE_STORE_HISTORY_H
#define CLYDE_STORE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "results/result.h"

/* The schema this code writes; older databases are migrated to it. */
#define CLYDE_HISTORY_SCHEMA_VERSION 4

/* True when this build can keep a history (SQLite was found). */
bool clyde_history_available(void);

/*
 * Write the default database path into buf (cap bytes): see "Where"
 * above.  Makes no directory.  Returns 0, -ENOENT when no home directory
 * can be found, or -ENAMETOOLONG.
 */
int clyde_history_default_path(struct clyde_ctx *ctx, char *buf, size_t cap);

/*
 * Is the history at db_path (NULL: the default path) usable, before a run
 * that will save in it?  Nothing is created: an existing file must be a
 * clyde history this user can open; for a missing one the directory it
 * would be made in (for the default path: its nearest existing ancestor,
 * as clyde_history_open() makes the directories on the way) must be one
 * this process may create files in.  A history another process holds
 * right now is usable: the save waits for it (clyde_history_wait).
 * Returns 0; 1 when the default path is
 * not known (no home directory); or -1 (the reason in ctx: the open's
 * message, or "cannot create PATH: WHY").
 */
int clyde_history_check(struct clyde_ctx *ctx, const char *db_path);

/* An open history (one SQLite connection).  Not for use by two threads. */
struct clyde_history;

/*
 * Open the history at db_path (NULL: the default path, whose directories
 * are made as needed).  With `create` a missing or empty file becomes a
 * new history; without it a missing file is -ENOENT ("nothing saved
 * yet").  An existing history is migrated to the current schema.  On
 * success *out owns the connection: clyde_history_close() it.  When the
 * file did not exist and the open fails (a full disk), the file and the
 * -wal, -shm or -journal files this call made are removed again.
 */
/*
 * How a writer waits while another process holds the history (a sweep
 * saving, a `sqlite3` shell in a transaction): up to max_ms, and once
 * the wait has lasted a second it calls waiting() (which may be NULL),
 * so that the caller can say what it waits for.  Without one a writer
 * waits 5 s and says nothing.
 */
struct clyde_history_wait {
	unsigned max_ms;
	void (*waiting)(void *arg, const char *path, unsigned max_ms);
	void *arg;
};

/* The wait of an open history's next writes (copied). */
void clyde_history_set_wait(struct clyde_history *h,
			    const struct clyde_history_wait *wait);

/* clyde_history_open() with a writer's wait (NULL: the default). */
int clyde_history_open_waiting(struct clyde_ctx *ctx, const char *db_path,
			       bool create,
			       const struct clyde_history_wait *wait,
			       struct clyde_history **out);

int clyde_history_open(struct clyde_ctx *ctx, const char *db_path, bool create,
		       struct clyde_history **out);
void clyde_history_close(struct clyde_history *h);

/*
 * Close h and, when it holds no run at all, remove the database file (and
 * any -wal, -shm or -journal beside it).  For a command that created the
 * history and then stored nothing (a failed import, a failed run), so
 * that no empty database is left behind.  Only for a history the caller
 * created: an existing empty one would go too.  Returns 1 when removed, 0
 * when kept, or a negative errno when the file could not be removed.
 */
int clyde_history_close_discard_empty(struct clyde_history *h);

/*
 * Open the history at db_path (NULL: the default path; no directory is
 * made) for reading only, writing nothing at all: not to the file, and no
 * -wal, -shm or -journal file beside it, so that a history on a read-only
 * filesystem, in a read-only directory or in someone else's home can be
 * listed, shown and exported.  A missing file, or one without any table,
 * is -ENOENT ("nothing saved yet").  Only a history of an older schema,
 * which must be migrated before it can be read, is opened as by
 * clyde_history_open() (without `create`).  Only the reading functions may
 * be used on it.
 */
int clyde_history_open_readonly(struct clyde_ctx *ctx, const char *db_path,
				struct clyde_history **out);

/* The database path (owned by h). */
const char *clyde_history_path(const struct clyde_history *h);

/* The schema version found in the file when it was opened, before any
 * migration (-1 for a new history). */
int clyde_history_found_version(const struct clyde_history *h);

/* What a result says about one test of the bonnie++ suite. */
enum clyde_history_fig_state {
	CLYDE_HIST_FIG_NONE = 0, /* not run, skipped, or not in the result */
	CLYDE_HIST_FIG_TOO_FAST, /* "+++++" in a CSV line: no number */
	CLYDE_HIST_FIG_VALUE,
};

struct clyde_history_figure {
	enum clyde_history_fig_state state;
	double value;  /* bytes/s (putc .. get_block), seeks/s or files/s */
	bool too_fast; /* a VALUE measured in under 0.5 s (clyde JSON) */
	bool has_cpu;
	double cpu_pct;
	unsigned flags; /* CLYDE_LOADED_FLAG_* (results/loaded.h) */
};

/* One stored result without its document.  Strings are owned, never NULL
 * ("" when the result does not say). */
struct clyde_history_entry {
	int64_t id;
	int64_t saved_unix;   /* when it entered the history */
	int64_t started_unix; /* when the run started; -1 unknown (1.03) */
	char *kind;	      /* "bonnie", "tree", "bonnie-csv" */
	char *label;
	char *host;
	char *target_path;
	char *fstype;
	char *mount_opts;
	char *source; /* the imported file; "" when saved by a run */
	unsigned long source_line; /* its CSV line; 0 for a whole file */
	char *note;		   /* the user's note, "" for none */
	char *file_size;	   /* "1.00 GiB" as compare shows it, or "" */
	char *files;		   /* the file tests' file count, or "" */
	char *io_chunk;		   /* "8.00 KiB", or "" */
	/* Filled by clyde_history_list() and clyde_history_get() only
	 * (read from the stored document and the experiment tables; ""
	 * from clyde_history_describe() and when the result does not say):
	 * "yes"/"no" for O_DIRECT, the I/O engine, the queue depth (with
	 * clyde's psync engine the depth that ran, 1, whatever was asked),
	 * and for a run of a clyde sweep the experiment's id, the point's
	 * axis values ("sz=8m ch=4k") and the workload's name when the
	 * experiment has several ("" when it has one). */
	char *direct;
	char *engine;
	char *iodepth;
	char *experiment;
	char *point;
	char *workload;
	struct clyde_history_figure fig[CLYDE_TEST_COUNT];
};

void clyde_history_entry_release(struct clyde_history_entry *e);
void clyde_history_entries_free(struct clyde_history_entry *e, size_t n);

/*
 * Fill *e (which the caller then releases) from a document without
 * storing it: a clyde JSON result (first non-blank byte '{') or one CSV
 * line.  id and saved_unix are 0, source is "".  Returns 0, or -EINVAL
 * with the reason in ctx (naming `what`, e.g. a file name) when the
 * document is not a clyde result / a bonnie++ line, or -ENOMEM.
 */
int clyde_history_describe(struct clyde_ctx *ctx, const char *what,
			   const char *doc, size_t len,
			   struct clyde_history_entry *e);

/*
 * Store one document in an open history (one transaction); see
 * clyde_history_describe() for what it may be.  `source` names the file
 * it came from (NULL: saved by a run).  Returns 0 with the new id in
 * *id_out (may be NULL), or a negative errno; nothing is stored then.
 */
int clyde_history_add(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *doc, size_t len, const char *source,
		      int64_t *id_out);

/*
 * "Already stored" (what import refuses without --force): two documents
 * are the same when their normalised bytes are equal.  Normalised means:
 * a leading UTF-8 byte order mark, and leading and trailing white space
 * (spaces, tabs, CR, LF) removed -- so a CSV line is the same whatever its
 * line end, and a JSON result is the same file byte for byte (a JSON file
 * re-indented by hand is a different document).  The database keeps a
 * 64-bit FNV-1a hash of the normalised bytes to find candidates and then
 * compares the bytes themselves, so a hash collision is never taken for a
 * duplicate.
 */
uint64_t clyde_history_doc_hash(const char *doc, size_t len);

/* Is the document stored already?  Returns 1 with the lowest such id in
 * *id, 0 when not, or a negative errno. */
int clyde_history_find_same(struct clyde_ctx *ctx, struct clyde_history *h,
			    const char *doc, size_t len, int64_t *id);

/* Set run `id`'s label (replacing the document's name in list, show,
 * compare and report) or its note ("" removes it).  Returns 0, -ENOENT
 * for an unknown id, or an error. */
int clyde_history_set_label(struct clyde_ctx *ctx, struct clyde_history *h,
			    int64_t id, const char *label);
int clyde_history_set_note(struct clyde_ctx *ctx, struct clyde_history *h,
			   int64_t id, const char *note);

/*
 * What the run command calls after each run: open the history at db_path
 * (NULL: the default, created as needed), store the clyde JSON document
 * json_text[0..len) and close it.  Returns 0 with the new id in *id_out
 * (may be NULL), or a negative errno with the message in ctx.
 */
int clyde_history_save(struct clyde_ctx *ctx, const char *db_path,
		       const char *json_text, size_t len, int64_t *id_out);

/* clyde_history_save() with a writer's wait (NULL: the default).  A
 * history still busy after it is -EBUSY. */
int clyde_history_save_waiting(struct clyde_ctx *ctx, const char *db_path,
			       const struct clyde_history_wait *wait,
			       const char *json_text, size_t len,
			       int64_t *id_out);

/*
 * A result that could not be saved (the history stayed busy) written
 * beside the history at db_path (NULL: the default) instead, as
 * "HISTORY.unsaved-UNIXTIME-PID.json", created new (O_EXCL, O_NOFOLLOW)
 * and synced, so that `clyde history import` stores it later.  Its path
 * goes into out (cap bytes).  Returns 0 or a negative errno (recorded);
 * nothing is left behind on failure.
 */
int clyde_history_spill(struct clyde_ctx *ctx, const char *db_path,
			const char *json_text, size_t len, char *out,
			size_t cap);

/* What importing one file did.  Owns every array and string, except the
 * inputs the caller sets after clyde_history_import_init(). */
struct clyde_history_import {
	/* Inputs.  A run's label is labels[k] for the k-th result of the
	 * file (k < nlabels), else `label` when set, else its own name.  A
	 * result is a JSON file or a CSV line the CSV parser accepts,
	 * whether it is then stored, skipped or refused; nresults counts
	 * them.  With `force` a document already stored is stored again. */
	const char *label;
	const char *const *labels;
	size_t nlabels;
	bool force;
	/* Outputs. */
	size_t nresults;
	int64_t *ids; /* the runs stored, in file order */
	size_t nids, ids_cap;
	char **errors; /* "path:line: reason" for each malformed line */
	size_t nerrors, errors_cap;
	/* "path:line: already stored as id N" for each document skipped */
	char **skipped;
	size_t nskipped, skipped_cap;
};

void clyde_history_import_init(struct clyde_history_import *imp);
void clyde_history_import_release(struct clyde_history_import *imp);

/*
 * Import the file at `path` into h, appending to *imp.  A file whose first
 * non-blank byte is '{' is one clyde JSON result; anything else is read
 * as CSV lines (bonnie++ 1.03, 1.96/1.97, 1.98..2.00a or clyde), each data
 * line one run, headers and blank lines skipped.  A malformed CSV line is
 * listed in imp->errors and the other lines are still imported.  A
 * result already stored (clyde_history_find_same()) is listed in
 * imp->skipped instead of stored, unless imp->force.  An imported CSV
 * line keeps its line number (entry.source_line).  All runs
 * of one file are stored in one transaction.  Returns 0 when the file was
 * read (look at imp->errors too), or a negative errno (nothing of this
 * file stored) when it cannot be read, is not a usable JSON result, or
 * the database fails.
 */
int clyde_history_import_file(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *path,
			      struct clyde_history_import *imp);

/* How many results (see struct clyde_history_import) the file at path
 * holds, without storing anything: for matching a list of labels to them
 * before the import.  Returns 0 with *n, or a negative errno (in ctx). */
int clyde_history_count_results(struct clyde_ctx *ctx, const char *path,
				size_t *n);

/*
 * The stored runs, ordered by run date, newest first (runs without a date
 * after those with one, newest stored first); at most `limit` of them when
 * limit > 0.  *out (an array of *n entries) is the caller's:
 * clyde_history_entries_free().
 */
int clyde_history_list(struct clyde_ctx *ctx, struct clyde_history *h,
		       size_t limit, struct clyde_history_entry **out,
		       size_t *n);

/*
 * Run `id`: its entry (when e is not NULL; the caller releases it) and its
 * document (when doc is not NULL: a malloc'ed copy, NUL-terminated, with
 * its length in *len).  Returns 0, -ENOENT (recorded: "no run with id N
 * in PATH") for an unknown id, or another negative errno.
 */
int clyde_history_get(struct clyde_ctx *ctx, struct clyde_history *h,
		      int64_t id, struct clyde_history_entry *e, char **doc,
		      size_t *len);

struct clyde_loaded_set;

/*
 * Run `id` read back by the results loader (results/loaded.h) and added
 * to set, named by the history's label and carrying the user's note as
 * the setting "note": what `history show`, `compare` and `report` show.
 * The buffer is named after the file the run was imported from when
 * by_file (so that clyde_loaded_merge_repeats() folds the runs of one
 * file), else "history:ID".  *e gets the entry (the caller releases
 * it).  What the loader could not read is in set->errors.  Returns 0,
 * -ENOENT for an unknown id, -EINVAL when the document gives no run
 * ("run N cannot be read back"), or another negative errno (recorded).
 */
int clyde_history_load(struct clyde_ctx *ctx, struct clyde_history *h,
		       int64_t id, bool by_file, struct clyde_history_entry *e,
		       struct clyde_loaded_set *set);

/* clyde_history_load() of ids[0..n) in order; names[i] (n slots, each
 * the caller's to free) gets the column name "#ID label".  Stops at the
 * first failure. */
int clyde_history_load_all(struct clyde_ctx *ctx, struct clyde_history *h,
			   const int64_t *ids, size_t n, bool by_file,
			   struct clyde_loaded_set *set, char **names);

/* Every stored id, in the order stored (oldest first); *ids is the
 * caller's to free (never NULL on success). */
int clyde_history_all_ids(struct clyde_ctx *ctx, struct clyde_history *h,
			  int64_t **ids, size_t *n);

/* Is a stored document a JSON result (else a CSV line)? */
bool clyde_history_doc_is_json(const char *doc, size_t len);

/* Delete run `id`.  A sweep's rows that held it are marked "deleted"
 * (no run id): `sweep --show` counts them as deleted samples, and `sweep
 * --resume` measures them again.  Returns 0, -ENOENT for an unknown id,
 * or an error. */
int clyde_history_delete(struct clyde_ctx *ctx, struct clyde_history *h,
			 int64_t id);

#endif

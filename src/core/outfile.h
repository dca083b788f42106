/*
 * Output files that are never half-written.
 *
 * Every file clyde writes for the user (--json, tree --json/--csv, history
 * export -o, report -o) goes through this module: the data is written to a
 * temporary file in the destination's directory and renamed over the
 * destination only once it is complete and flushed to the disk.  A full
 * disk, an interruption or a crash leaves the old content (or no file) in
 * place, never a truncated one.
 *
 * "-" means standard output, written directly; commit then only flushes
 * and reports a write error (EPIPE, ENOSPC on /dev/full, ...).  So is an
 * existing path that is neither a regular file nor a directory (a device
 * such as /dev/null or /dev/full, a FIFO): it is opened and written in
 * place, never replaced.  A symlink to a regular file stays a symlink: the
 * new content replaces its target.
 *
 * Typical use, which also lets a caller check a destination before any
 * work is done (and before dropping privileges):
 *
 *	struct clyde_outfile o;
 *	if (clyde_outfile_open(&o, path) < 0) ... refuse, nothing written
 *	... run ...
 *	fwrite(doc, 1, len, o.f);
 *	if (clyde_outfile_commit(&o) < 0) ... report, old content kept
 *
 * and clyde_outfile_abort(&o) on every path that does not commit (it removes
 * the temporary file).  Not thread safe; one writer per outfile.
 */
#ifndef CLYDE_CORE_OUTFILE_H
#define CLYDE_CORE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct clyde_outfile {
	FILE *f;    /* write here; stdout for "-" */
	char *path; /* the destination (owned copy) */
	char *tmp;  /* the temporary file, NULL for "-" or once done */
	int is_stdout;
	int is_direct; /* an existing device or FIFO, written in place */
};

/*
 * Create the temporary file beside `path` (mode 0666 less the umask, as a
 * plain fopen() would give).  Fails with -EISDIR when path is a directory,
 * -ENOENT when its directory does not exist, -EACCES when it cannot be
 * written.  Returns 0 or a negative errno; on failure nothing is left.
 */
int clyde_outfile_open(struct clyde_outfile *o, const char *path);

/*
 * Flush, fsync and close the temporary file, then rename it over the
 * destination.  On any failure the temporary file is removed and the
 * destination is untouched.  Returns 0 or a negative errno.  The outfile is
 * released either way.
 */
int clyde_outfile_commit(struct clyde_outfile *o);

/* Drop what was written: close and remove the temporary file.  Safe to call
 * on a committed, aborted or zeroed outfile. */
void clyde_outfile_abort(struct clyde_outfile *o);

/*
 * Appending through the temporary file: copy what the destination holds now
 * (when it exists) into o's temporary file, ending with a line end, and give
 * the temporary file the destination's mode.  Returns the number of bytes
 * copied (0 when there is no file yet), or -1 with errno set.
 */
long long clyde_outfile_copy_old(struct clyde_outfile *o);

/*
 * The temporary files of earlier writes to `path` that never finished (a
 * clyde killed with SIGKILL, a crash: nothing removed them): the regular
 * files ".NAME.tmp.XXXXXX" beside it, as clyde_outfile_open() names them.
 * Nothing is removed: a clyde writing `path` right now has one too, and
 * which is which cannot be told, so the caller names them to the user.
 * Call it before opening path.  On return *names holds *n paths the
 * caller frees with clyde_outfile_free_names().  Returns 0 or -errno.
 */
int clyde_outfile_find_stale(const char *path, char ***names, size_t *n);
void clyde_outfile_free_names(char **names, size_t n);

/* Convenience: write buf[0..len) to path atomically.  0 or -errno. */
int clyde_outfile_write_all(const char *path, const void *buf, size_t len);

/*
 * A destination opened before a privilege drop (clyde run --json with
 * -u/-g).  It is opened before the first test, so that a destination that
 * cannot be written costs nothing, and before -u/-g drop privileges, so
 * that root may name a file only root can write.  Without a drop (`drop`
 * false) it is an outfile as above.  Under a privilege drop the rename
 * would be made by the new user, who may not write the directory; there
 * the destination itself is opened now (without truncating it) and at the
 * end its space is reserved with posix_fallocate() before the old content
 * is overwritten, which keeps the old content on a full disk too
 * (wherever fallocate works).
 */
struct clyde_outdest {
	const char *path;	 /* borrowed */
	struct clyde_outfile of; /* used unless fd >= 0 */
	int fd;			 /* under a privilege drop: the file itself */
	bool created;		 /* fd mode: this run created the file */
	bool open;
};

/* Open path (0 or a negative errno; -EISDIR for a directory). */
int clyde_outdest_open(struct clyde_outdest *d, const char *path, bool drop);

/* Write doc (len bytes) and close: 0 or a negative errno (-EPIPE: the
 * reader went away). */
int clyde_outdest_commit(struct clyde_outdest *d, const char *doc, size_t len);

/* Drop it unwritten (a file this run created is removed).  Safe on a
 * committed or aborted one. */
void clyde_outdest_abort(struct clyde_outdest *d);

/* True when a failed commit leaves the old content (a temporary file was
 * to be renamed over it). */
bool clyde_outdest_atomic(const struct clyde_outdest *d);

#endif

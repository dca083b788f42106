/*
 * The scratch directory that confines every write.  clyde creates it itself
 * (mkdir of a fresh name: an existing name, a planted symlink included, is
 * never reused), opens it with O_NOFOLLOW|O_DIRECTORY, and from then on
 * reaches everything inside through that descriptor (openat, mkdirat,
 * unlinkat), so no later rename or symlink outside can redirect a write.
 */
#ifndef CLYDE_IO_SCRATCH_H
#define CLYDE_IO_SCRATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"

struct clyde_scratch {
	int dirfd;		/* the scratch directory itself */
	char *path;		/* for messages: parent/name */
	int parentfd;		/* the parent the user named */
	char *name;		/* entry name in the parent */
	char *parent;		/* the parent as the user named it */
	unsigned long long ino; /* the directory's, checked on reopen */
};

/*
 * Create parent/clyde.<pid> (or clyde.<pid>.<n> when that name is taken) and
 * open it.  On success *out is a new scratch the caller must hand to
 * clyde_scratch_remove().  Errors name the parent and the operation.
 */
int clyde_scratch_create(struct clyde_ctx *ctx, const char *parent,
			 struct clyde_scratch **out);

/*
 * Remove everything below the scratch directory (without following any
 * symlink), the directory itself, and free it.  Safe to call from the
 * interrupted path.  Returns 0 or a negative errno (the scratch is freed
 * either way).
 */
int clyde_scratch_remove(struct clyde_ctx *ctx, struct clyde_scratch *s);

/*
 * Close the scratch directory and its parent (dirfd and parentfd are -1
 * after), so that its filesystem can be unmounted and mounted again (ZFS's
 * export and import, io/target_zfs.c) ...
 */
void clyde_scratch_release(struct clyde_scratch *s);
/* ... and open them again by their names: the directory must be the one
 * created (same inode, not a symlink, ours), or nothing is opened and the
 * error names it.  Returns 0 or a negative errno. */
int clyde_scratch_reopen(struct clyde_ctx *ctx, struct clyde_scratch *s);

/* Remove every entry below directory fd `dirfd`, not the directory itself,
 * never following symlinks.  `what` names it in messages. */
int clyde_rm_contents(struct clyde_ctx *ctx, int dirfd, const char *what);

/* A file in a scratch directory that was kept on purpose (clyde tree
 * --keep): such a directory is not a leftover. */
#define CLYDE_SCRATCH_KEPT ".clyde-kept"

/* --keep (clyde tree): let go of s without removing the directory, marked
 * with a CLYDE_SCRATCH_KEPT file so that later runs do not call it the
 * leftover of a killed run.  Frees s. */
void clyde_scratch_keep(struct clyde_scratch *s);

/*
 * The leftovers of killed runs in the directory `parentfd`: the entries
 * named clyde.<pid> or clyde.<pid>.<n> that are directories (not symlinks),
 * hold no CLYDE_SCRATCH_KEPT file, and whose process <pid> no longer
 * exists.  Nothing is removed: the
 * caller names them to the user.  On return *names is an array of *n
 * names the caller frees with clyde_scratch_free_names().  Returns 0 or a
 * negative errno.
 */
int clyde_scratch_find_stale(struct clyde_ctx *ctx, int parentfd, char ***names,
			     size_t *n);
void clyde_scratch_free_names(char **names, size_t n);

/*
 * Whether `need` more inodes fit in the filesystem of directory fd
 * `dirfd`: false with *avail the free count when they do not; true when
 * they do, or when the filesystem does not count inodes (btrfs: f_files
 * is 0) or cannot say.  clyde tree and clyde run -n refuse a tree or file
 * set that would run out before anything is written.
 */
bool clyde_scratch_inodes_fit(int dirfd, uint64_t need, uint64_t *avail);

#endif

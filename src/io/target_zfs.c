/*
 * A ZFS dataset: the page cache is not what serves its reads, the ARC is.
 * The pool's leaves (the stack's devices below, env/fs_zfs.c) are counted
 * per member as a block device's are; what the ARC served comes from its
 * own counters (arcstats) over the test, never from mincore; and before a
 * read-side test the test's data is put out of the ARC by the first way
 * that works (docs/zfs.md has the measurements):
 *
 *  1. `zpool export` and `zpool import` of the pool: every buffer of the
 *     pool leaves the ARC.  It needs the pool unmounted, so the runner's
 *     descriptors on it are closed around it (struct clyde_target_hold);
 *     anything else holding the pool (a shell's working directory, a root
 *     pool) makes the export fail with nothing changed;
 *  2. `zinject -a` (OpenZFS's own performance suite): the whole ARC
 *     flushed, less what the dbuf cache holds (about 2 MiB measured);
 *  3. /proc/sys/vm/drop_caches: the ARC's shrinker, as far as it goes.
 *
 * The pool is synced first (`zpool sync`): dirty data cannot leave the
 * ARC.  After a test that wrote the pool is synced again before the
 * leaves' counters are read, so that the transaction group holding the
 * test's data is this test's writes, not the next test's.
 *
 * A test's figures (env/zfs.h's struct clyde_zfs_test) go into its JSON
 * as "zfs" after "cache", and the ARC's share of its reads becomes the
 * test's cached share (zfs_figs at the end of this file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env/members_virt.h"
#include "env/stack_probe.h"
#include "env/zfs.h"
#include "io/target.h"

struct zfs {
	struct clyde_member_watch members; /* the pool's leaves */
	struct clyde_settle_watch settle;
	struct clyde_zfs_arc arc0; /* at begin */
	bool have_arc;
	char pool[CLYDE_ZFS_NAME_MAX];
	char dataset[1024]; /* the mount source */
	uint64_t record;    /* recordsize or volblocksize */
	double raidz_wa;
	bool compresses;
	/* For the export and import: the pool's cache file and altroot
	 * options ("" unset), its mounted filesystems (zfs list), and
	 * whether an export failed (busy) and is not tried again. */
	bool prepared, export_failed;
	char cachefile[600], altroot[600];
	char *mounted;
	/* The leaves' paths, for `zpool import -d` (no scan of /dev). */
	char leaves[CLYDE_ZFS_MAX_VDEVS][CLYDE_ZFS_NAME_MAX];
	int nleaves;
};

static bool zfs_claims(const struct clyde_stack *s,
		       const struct clyde_target *t)
{
	(void)t;
	return s && s->has_fs &&
	       clyde_stack_fs_kind_of(s->fs.type) == &clyde_fs_zfs &&
	       s->fs.zfs_pool[0];
}

/* The pool's leaves as the probe found them ("vda1 vdb1"), as paths for
 * `zpool import -d` (no scan of all of /dev). */
static void find_leaves(struct zfs *z, const char *names)
{
	char buf[sizeof(((struct clyde_stack_fs *)0)->zfs_leaves)],
		*save = NULL;

	snprintf(buf, sizeof(buf), "%s", names);
	for (char *t = strtok_r(buf, " ", &save);
	     t && z->nleaves < CLYDE_ZFS_MAX_VDEVS;
	     t = strtok_r(NULL, " ", &save))
		snprintf(z->leaves[z->nleaves++], sizeof(z->leaves[0]),
			 "/dev/%s", t);
}

static int zfs_open(struct clyde_target_watch *w,
		    const struct clyde_target_setup *setup)
{
	const struct clyde_stack_fs *fs = &setup->stack->fs;
	struct zfs *z = calloc(1, sizeof(*z));
	struct clyde_virt unused;

	if (!z)
		return -ENOMEM;
	w->priv = z;
	snprintf(z->pool, sizeof(z->pool), "%s", fs->zfs_pool);
	snprintf(z->dataset, sizeof(z->dataset), "%s", fs->source);
	z->record = fs->zfs_recordsize ? fs->zfs_recordsize :
					 fs->zfs_volblocksize;
	if (fs->zfs_raidz_parity && fs->zfs_ashift > 0)
		z->raidz_wa = clyde_zfs_raidz_cost(z->record,
						   (unsigned)fs->zfs_ashift,
						   fs->zfs_raidz_width,
						   fs->zfs_raidz_parity);
	z->compresses = fs->zfs_compression[0] &&
			strcmp(fs->zfs_compression, "off") != 0;
	find_leaves(z, fs->zfs_leaves);
	clyde_members_init(&z->members, NULL);
	if (w->what & CLYDE_TARGET_MEMBERS)
		clyde_members_setup(&z->members, setup->stack,
				    setup->virt ? setup->virt : &unused);
	/* clyde's own share is not counted: the pool's writes are issued by
	 * ZFS's own threads (the txg sync), never by the writer. */
	if (w->what & CLYDE_TARGET_SETTLE) {
		clyde_settle_init(&z->settle, NULL, setup->settle_ns);
		for (unsigned i = 0; i < z->members.n; i++)
			clyde_settle_add(&z->settle, z->members.name[i]);
	}
	return 0;
}

static void zfs_close(struct clyde_target_watch *w)
{
	struct zfs *z = w->priv;

	if (z)
		free(z->mounted);
	free(z);
}

/* Run a zpool/zfs/zinject command; its output is not wanted.  0 or a
 * negative errno (the message in ctx). */
static int run_quiet(struct clyde_ctx *ctx, const char *const argv[])
{
	char *out = NULL;
	int rc = clyde_zfs_run_exec(NULL, ctx, argv, &out);

	free(out);
	return rc;
}

static void pool_sync(struct zfs *z)
{
	const char *argv[] = { "zpool", "sync", z->pool, NULL };
	struct clyde_ctx quiet;

	clyde_ctx_init(&quiet);
	(void)run_quiet(&quiet, argv);
	clyde_ctx_release(&quiet);
}

static void zfs_settle(struct clyde_ctx *ctx, struct clyde_target_watch *w,
		       struct clyde_settle *out)
{
	struct zfs *z = w->priv;

	if (w->what & CLYDE_TARGET_SETTLE)
		clyde_settle_wait(ctx, &z->settle, out);
}

static void zfs_begin(struct clyde_target_watch *w)
{
	struct zfs *z = w->priv;
	struct clyde_ctx quiet;

	clyde_ctx_init(&quiet);
	z->have_arc = clyde_zfs_arc_read(&quiet, NULL, &z->arc0) == 0;
	clyde_ctx_release(&quiet);
	if (w->what & CLYDE_TARGET_MEMBERS)
		clyde_members_begin(&z->members);
}

/* A property of the dataset, as `zfs get -H -p -o value` prints it. */
static double dataset_ratio(struct zfs *z)
{
	const char *argv[] = { "zfs",	"get",		 "-H",	     "-p", "-o",
			       "value", "compressratio", z->dataset, NULL };
	struct clyde_ctx quiet;
	char *out = NULL;
	double v = 0;

	clyde_ctx_init(&quiet);
	if (clyde_zfs_run_exec(NULL, &quiet, argv, &out) == 0)
		v = strtod(out, NULL);
	clyde_ctx_release(&quiet);
	free(out);
	return v;
}

static void zfs_end(struct clyde_target_watch *w,
		    const struct clyde_target_moved *out)
{
	struct clyde_zfs_test *zt = out->figs;
	struct zfs *z = w->priv;
	struct clyde_zfs_arc arc1;
	struct clyde_ctx quiet;

	/* The test's data on the leaves before they are read. */
	if (out->wrote)
		pool_sync(z);
	if ((w->what & CLYDE_TARGET_MEMBERS) && out->members)
		clyde_members_end(&z->members, out->members);
	if (out->dev)
		out->dev->have_device = false;
	if (!zt)
		return;
	zt->have = true;
	zt->record_bytes = z->record;
	zt->raidz_wa = z->raidz_wa;
	clyde_ctx_init(&quiet);
	if (z->have_arc && clyde_zfs_arc_read(&quiet, NULL, &arc1) == 0) {
		clyde_zfs_arc_diff(&z->arc0, &arc1, &zt->arc);
		zt->arc_known = true;
		zt->missed_bytes = (zt->arc.demand_data_misses +
				    zt->arc.prefetch_data_misses) *
				   z->record;
	}
	clyde_ctx_release(&quiet);
	if (out->wrote && z->compresses)
		zt->compressratio = dataset_ratio(z);
}

static char *mounted_list(struct zfs *z);

/* Once, before the first export: the pool's cache file and altroot
 * (the import brings it back with them) and its mounted filesystems. */
static void prepare_export(struct zfs *z)
{
	const char *get[] = { "zpool",
			      "get",
			      "-H",
			      "-p",
			      "-o",
			      "property,value",
			      "cachefile,altroot",
			      z->pool,
			      NULL };
	struct clyde_ctx quiet;
	char *out = NULL, *save = NULL;

	z->prepared = true;
	clyde_ctx_init(&quiet);
	if (clyde_zfs_run_exec(NULL, &quiet, get, &out) == 0) {
		for (char *line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *tab = strchr(line, '\t');

			if (!tab || !strcmp(tab + 1, "-") || !tab[1])
				continue;
			*tab = '\0';
			if (!strcmp(line, "cachefile"))
				snprintf(z->cachefile, sizeof(z->cachefile),
					 "cachefile=%s", tab + 1);
			else if (!strcmp(line, "altroot"))
				snprintf(z->altroot, sizeof(z->altroot),
					 "altroot=%s", tab + 1);
		}
	}
	clyde_ctx_release(&quiet);
	free(out);
	z->mounted = mounted_list(z);
}

/* The pool's filesystems that are mounted now ("name\tyes" lines of
 * `zfs list`), to mount again any that a failed export left unmounted. */
static char *mounted_list(struct zfs *z)
{
	const char *argv[] = { "zfs",	       "list", "-H",	     "-o",
			       "name,mounted", "-t",   "filesystem", "-r",
			       z->pool,	       NULL };
	struct clyde_ctx quiet;
	char *out = NULL;

	clyde_ctx_init(&quiet);
	(void)clyde_zfs_run_exec(NULL, &quiet, argv, &out);
	clyde_ctx_release(&quiet);
	return out;
}

/* `zpool export` unmounts the pool's filesystems one by one and stops at
 * the first that is busy, leaving those before it unmounted: mount them
 * again. */
static void remount(char *list)
{
	char *save = NULL;

	for (char *line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		const char *argv[] = { "zfs", "mount", line, NULL };
		struct clyde_ctx quiet;

		if (!tab || strcmp(tab + 1, "yes") != 0)
			continue;
		*tab = '\0';
		clyde_ctx_init(&quiet);
		(void)run_quiet(&quiet, argv); /* mounted already: fails */
		clyde_ctx_release(&quiet);
	}
}

/*
 * Export and import the pool with the runner's descriptors closed.
 * Returns 1 when done, 0 when the export did not happen (nothing
 * changed: the pool is busy, or no permission), or a negative errno when
 * the pool could not be imported again or the runner's files reopened.
 */
static int export_import(struct clyde_ctx *ctx, struct zfs *z,
			 const struct clyde_target_hold *hold)
{
	const char *exp[] = { "zpool", "export", z->pool, NULL };
	const char *imp[8 + 2 * CLYDE_ZFS_MAX_VDEVS];
	struct clyde_ctx quiet;
	char *list;
	int n = 0, rc;

	if (!z->nleaves || z->export_failed)
		return 0;
	if (!z->prepared)
		prepare_export(z);
	imp[n++] = "zpool";
	imp[n++] = "import";
	if (z->cachefile[0]) {
		imp[n++] = "-o";
		imp[n++] = z->cachefile;
	}
	if (z->altroot[0]) {
		imp[n++] = "-o";
		imp[n++] = z->altroot;
	}
	for (int i = 0; i < z->nleaves; i++) {
		imp[n++] = "-d";
		imp[n++] = z->leaves[i];
	}
	imp[n++] = z->pool;
	imp[n] = NULL;

	if (hold && hold->release)
		hold->release(hold->arg);
	clyde_ctx_init(&quiet);
	rc = run_quiet(&quiet, exp);
	clyde_ctx_release(&quiet);
	if (rc < 0) {
		/* Busy (or not allowed): not tried again in this run. */
		z->export_failed = true;
		list = z->mounted ? strdup(z->mounted) : NULL;
		if (list)
			remount(list);
		free(list);
	} else {
		rc = run_quiet(ctx, imp);
		if (rc < 0)
			return clyde_err(ctx, -rc,
					 "pool %s exported to drop its data "
					 "from the ARC and not imported again: "
					 "run zpool import %s",
					 z->pool, z->pool);
	}
	if (hold && hold->reacquire) {
		int r2 = hold->reacquire(ctx, hold->arg);

		if (r2 < 0)
			return r2;
	}
	return rc == 0;
}

static bool drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, "3\n", 2) == 2;
	close(fd);
	return ok;
}

static int zfs_evict_all(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 const struct clyde_target_hold *hold, void *figs)
{
	struct clyde_zfs_test *out = figs;
	struct zfs *z = w->priv;
	const char *zinject[] = { "zinject", "-a", NULL };
	struct clyde_zfs_arc arc;
	struct clyde_ctx quiet;
	int rc;

	rc = export_import(ctx, z, hold);
	if (rc < 0)
		return rc;
	if (!out)
		return 0;
	out->have = true;
	if (rc == 1) {
		snprintf(out->evict, sizeof(out->evict), "export-import");
		out->left_known = true;
		out->left_bytes = 0;
		return 0;
	}
	/* Dirty data cannot leave the ARC (an export syncs by itself). */
	pool_sync(z);
	clyde_ctx_init(&quiet);
	if (run_quiet(&quiet, zinject) == 0)
		snprintf(out->evict, sizeof(out->evict), "zinject");
	else if (drop_caches())
		snprintf(out->evict, sizeof(out->evict), "drop-caches");
	/* What file data the ARC still holds, of every pool: at most that
	 * much of the test's is left. */
	if (out->evict[0] && clyde_zfs_arc_read(&quiet, NULL, &arc) == 0) {
		out->left_known = true;
		out->left_bytes = arc.data_size;
	}
	clyde_ctx_release(&quiet);
	return 0;
}

/* "zfs": {...} of a test in the JSON, after "cache": how the ARC was
 * emptied before it and what the ARC served during it (docs/zfs.md);
 * nothing off ZFS. */
static void zfs_json(struct clyde_jw *w, const struct clyde_stack *s,
		     const struct clyde_figs_test *t)
{
	const struct clyde_zfs_test *z = t->figs;

	(void)s;
	if (!z || !z->have)
		return;
	clyde_jw_open(w, "zfs", '{');
	if (z->evict[0])
		clyde_jw_str(w, "evict", z->evict, 16);
	else
		clyde_jw_null(w, "evict");
	if (z->left_known)
		clyde_jw_u64(w, "left_bytes", z->left_bytes);
	else
		clyde_jw_null(w, "left_bytes");
	clyde_jw_bool(w, "arc_known", z->arc_known);
	clyde_jw_u64(w, "demand_data_hits", z->arc.demand_data_hits);
	clyde_jw_u64(w, "demand_data_misses", z->arc.demand_data_misses);
	clyde_jw_u64(w, "prefetch_data_hits", z->arc.prefetch_data_hits);
	clyde_jw_u64(w, "prefetch_data_misses", z->arc.prefetch_data_misses);
	clyde_jw_u64(w, "demand_metadata_hits", z->arc.demand_metadata_hits);
	clyde_jw_u64(w, "demand_metadata_misses",
		     z->arc.demand_metadata_misses);
	clyde_jw_u64(w, "record_bytes", z->record_bytes);
	clyde_jw_u64(w, "missed_bytes", z->missed_bytes);
	if (z->raidz_wa > 0)
		clyde_jw_num(w, "raidz_wa", z->raidz_wa, 4);
	else
		clyde_jw_null(w, "raidz_wa");
	if (z->compressratio > 0)
		clyde_jw_num(w, "compressratio", z->compressratio, 2);
	else
		clyde_jw_null(w, "compressratio");
	clyde_jw_close(w, '}');
}

/* Is the test's cached share the ARC's (its counters read, a residency
 * measured)? */
static bool zfs_cache(const struct clyde_figs_test *t, const void *figs,
		      const char **json, const char **text)
{
	const struct clyde_zfs_test *z = figs;

	if (!z->have || !z->arc_known || !t->cache_measured)
		return false;
	*json = "arc";
	*text = "ZFS's ARC";
	return true;
}

/* The cached share of a read-side test is what the ARC served of the
 * bytes it read: those it did not miss (missed_bytes), in place of the
 * page cache's residency at its start, so that a test the ARC served is
 * flagged as one the page cache served.  Nothing changes for a test that
 * measured no residency. */
static void zfs_finish(struct clyde_figs_test *t, void *figs)
{
	const struct clyde_zfs_test *z = figs;
	const char *json, *text;
	uint64_t missed, served;

	if (!zfs_cache(t, figs, &json, &text) || !t->total_bytes || !t->bytes)
		return;
	missed = z->missed_bytes < t->bytes ? z->missed_bytes : t->bytes;
	served = t->bytes - missed;
	t->resident_bytes = (uint64_t)((double)t->total_bytes * (double)served /
				       (double)t->bytes);
}

static const struct clyde_target_figs zfs_figs = {
	.json_at = CLYDE_FIGS_AT_CACHE,
	.json = zfs_json,
	.finish = zfs_finish,
	.cache = zfs_cache,
};

const struct clyde_target_ops clyde_target_zfs = {
	.name = "zfs",
	.figs_size = sizeof(struct clyde_zfs_test),
	.figs = &zfs_figs,
	.claims = zfs_claims,
	.open = zfs_open,
	.close = zfs_close,
	.settle = zfs_settle,
	.begin = zfs_begin,
	.end = zfs_end,
	.evict_all = zfs_evict_all,
};

/*
 * A test on a ZFS dataset in the outputs: how the ARC was emptied before
 * it and what the ARC served during it (env/zfs.h's struct
 * clyde_zfs_test, recorded by the ZFS target, io/target_zfs.c, as the
 * test's figures; docs/zfs.md).  The kind's entry of figures.c.
 */
#include "env/zfs.h"
#include "results/figures.h"

/* "zfs": {...}: what the ZFS target saw, or nothing off ZFS. */
static void zfs_json(struct clyde_jw *w, const struct clyde_run *r,
		     enum clyde_test id, const void *figs)
{
	const struct clyde_zfs_test *z = figs;

	(void)r;
	(void)id;
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

/* Is t's cached share the ARC's (its counters read, a residency
 * measured)? */
static bool zfs_cache(const struct clyde_test_result *t, const void *figs,
		      const char **json, const char **text)
{
	const struct clyde_zfs_test *z = figs;

	if (!z->have || !z->arc_known || !t->cache.measured)
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
static void zfs_finish(struct clyde_test_result *t, void *figs)
{
	const struct clyde_zfs_test *z = figs;
	const char *json, *text;
	uint64_t missed, served;

	if (!zfs_cache(t, figs, &json, &text) || !t->cache.total_bytes ||
	    !t->bytes)
		return;
	missed = z->missed_bytes < t->bytes ? z->missed_bytes : t->bytes;
	served = t->bytes - missed;
	t->cache.resident_bytes = (uint64_t)((double)t->cache.total_bytes *
					     (double)served / (double)t->bytes);
}

const struct clyde_figs_kind clyde_figs_zfs = {
	.target = &clyde_target_zfs,
	.json_at = CLYDE_FIGS_AT_CACHE,
	.json = zfs_json,
	.finish = zfs_finish,
	.cache = zfs_cache,
};

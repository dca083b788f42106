/*
 * The JSON of what lies below the filesystem, for the run and tree
 * documents (docs/members.md): each member disk's counters per test with
 * the read-modify-write, write-amplification and imbalance verdict, the
 * loop devices' backing-file cache, and whether the disk is virtual.
 */
#ifndef CLYDE_RESULTS_MEMBERS_JSON_H
#define CLYDE_RESULTS_MEMBERS_JSON_H

#include "results/json_out.h"
#include "results/result.h"

/* "members": [...] and "members_check": {...} of test id of run r. */
void clyde_jw_members(struct clyde_jw *w, const struct clyde_run *r,
		      enum clyde_test id);

/* "loop_backing": {...} (null when no loop device without dio was
 * measured); `data_bytes` is the test's data, the fraction's base. */
void clyde_jw_loop(struct clyde_jw *w, const struct clyde_loopcache_seen *l,
		   uint64_t data_bytes);

/* "virtual_disk": {...}, or null when no member is virtual. */
void clyde_jw_virt(struct clyde_jw *w, const struct clyde_virt *v);

/* The share of the test's data (`data_bytes`, else the ranges) that the
 * backing files held in the page cache at its start, at most 1; < 0 when
 * not measured. */
double clyde_loop_fraction(const struct clyde_loopcache_seen *l,
			   uint64_t data_bytes);

#endif

/*
 * The JSON of what lies below the filesystem, for the run and tree
 * documents (docs/members.md): each member disk's counters per test with
 * the read-modify-write, write-amplification and imbalance verdict, the
 * loop devices' backing-file cache, and whether the disk is virtual.
 */
#ifndef CLYDE_RESULTS_MEMBERS_JSON_H
#define CLYDE_RESULTS_MEMBERS_JSON_H

#include "core/json_out.h"
#include "results/result.h"

struct clyde_members_verdict;

/* "members": [...] and "members_check": {...} of one test or phase: its
 * members, their verdict and the verdict's sentences (one per line). */
void clyde_jw_members_of(struct clyde_jw *w, const struct clyde_members *m,
			 const struct clyde_members_verdict *v,
			 const char *findings);

/* "degraded_during": the md array that lost members while the test or
 * phase ran ("md0: 0 -> 1 of 4 members missing"), or null: the same key
 * for clyde run's tests, clyde tree's phases and clyde dev's tests. */
void clyde_jw_degraded(struct clyde_jw *w, const struct clyde_members *m);

/* The same for test id of run r. */
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

struct clyde_stack;
struct clyde_tree_run;
struct clyde_test_io;

/* "io": {...}: the test's device figures (results/testio.h): the totals
 * on the leaves or the device, clyde's own and the other I/O, the top
 * device's share and the write amplification; `own` says where clyde's
 * own figures came from. */
void clyde_jw_io(struct clyde_jw *w, const struct clyde_test_io *io,
		 const struct clyde_ownio *own);

/* "settle": {...}: what the devices were doing before the test. */
void clyde_jw_settle(struct clyde_jw *w, const struct clyde_settle *s);

/* "members" and "members_check" of phase p of a tree run: extract only
 * writes (its bytes and -io-size chunks), the walks read. */
void clyde_tree_jw_members(struct clyde_jw *w, const struct clyde_tree_run *run,
			   int p);

/* "stack": {...} (results/stack_out.h) and "advice": [...] for it
 * (env/advise.h, `workload` a CLYDE_ADVISE_* mask).  Returns 0 or
 * -ENOMEM. */
int clyde_jw_stack_advice(struct clyde_jw *w, const struct clyde_stack *s,
			  unsigned workload);

#endif

/*
 * A target kind's own figures of a test, in the outputs: the table of
 * figures.c has one entry per kind that has figures (io/target.h's
 * figs_size), which says where its JSON goes, writes it and its text,
 * and what it does to the test's other figures.  json.c, members_text.c,
 * text_extra.c, the workloads and dist/ call the functions below and
 * name no kind.  An SMB mount's entry is in cifs_out.c, NFS's in
 * nfs_out.c, ZFS's in zfs_out.c.
 */
#ifndef CLYDE_RESULTS_FIGURES_H
#define CLYDE_RESULTS_FIGURES_H

#include <stdbool.h>
#include <stdio.h>

#include "core/json_out.h"
#include "io/target.h"
#include "results/result.h"

/* Where in a test's JSON object a kind's member goes. */
enum clyde_figs_at {
	CLYDE_FIGS_AT_CACHE,   /* after "cache" (ZFS's "zfs") */
	CLYDE_FIGS_AT_MEMBERS, /* after "members", before "series" */
};

struct clyde_figs_kind {
	const struct clyde_target_ops *target; /* whose figures */
	enum clyde_figs_at json_at;
	/* The test's member(s) under the kind's key; figs are the test's
	 * when they are this kind's, else NULL (then write nothing, or a
	 * null the schema keeps for every test). */
	void (*json)(struct clyde_jw *w, const struct clyde_run *r,
		     enum clyde_test id, const void *figs);
	/* Its section of the text after the members' (runs[0..n)); may be
	 * NULL. */
	void (*text)(FILE *f, const struct clyde_run *runs, unsigned n);
	/* Once the test's spans are summed: change the test's other
	 * figures by the kind's (ZFS: the ARC's share of the reads as the
	 * cache's); may be NULL. */
	void (*finish)(struct clyde_test_result *t, void *figs);
	/* The cache whose share cache.resident_bytes is, when the kind's
	 * and not the page cache's: its JSON name ("arc") and its name in
	 * the text ("ZFS's ARC") into *json and *text; false when it is
	 * the page cache's.  May be NULL. */
	bool (*cache)(const struct clyde_test_result *t, const void *figs,
		      const char **json, const char **text);
	/* Under MPI, on rank 0 once the ranks' spans are merged: keep of
	 * figs what holds for every rank (rank 0's wire counters are its
	 * mount's only); return whether the test's members (rank 0's
	 * devices) stay.  NULL: the figures stay as rank 0's, the members
	 * go. */
	bool (*all_ranks)(void *figs);
};

extern const struct clyde_figs_kind clyde_figs_nfs;
extern const struct clyde_figs_kind clyde_figs_cifs;
extern const struct clyde_figs_kind clyde_figs_zfs;

/* The kinds' members at `at` of test id's JSON object, in table order. */
void clyde_figs_json(struct clyde_jw *w, const struct clyde_run *r,
		     enum clyde_test id, enum clyde_figs_at at);
/* The kinds' text sections, in table order. */
void clyde_figs_text(FILE *f, const struct clyde_run *runs, unsigned n);
/* After the test's spans are summed (the kind's finish). */
void clyde_figs_finish(struct clyde_test_result *t);
/* The cache of t's residency: *json "page_cache" and *text NULL unless
 * its kind's cache says otherwise; true when it is the kind's. */
bool clyde_figs_cache(const struct clyde_test_result *t, const char **json,
		      const char **text);
/* MPI (the kind's all_ranks): whether the test's members stay. */
bool clyde_figs_all_ranks(struct clyde_test_result *t);

#endif

/*
 * A tree run (workloads/tree.h) merged over the ranks (dist.h): every
 * phase's counts summed, its time from the first rank's start to the last
 * rank's end on rank 0's clock, its latency histograms merged bucket by
 * bucket and every rank's workers kept.
 */
#include "dist/dist.h"

#include <stdlib.h>
#include <string.h>

#include "results/tree_result.h"

/* One rank's phase as it travels: plain integers. */
struct wire_phase {
	uint64_t start_ns, end_ns;
	uint64_t entries, files, dirs, symlinks, others, bytes;
	uint64_t cpu_user_ns, cpu_sys_ns;
	uint64_t permission_denied, vanished, loops, other, noatime_refused;
	uint64_t nworkers;
};

struct tree_merge {
	struct clyde_tree_run *run;
	const uint64_t *start_ns;
};

static const char *phase_name(int item)
{
	return clyde_tree_phase_name((enum clyde_tree_phase)item);
}

static void to_wire(const struct clyde_tree_phase_result *r, uint64_t start,
		    struct wire_phase *w)
{
	*w = (struct wire_phase){
		.start_ns = start,
		.end_ns = start + r->elapsed_ns,
		.entries = r->entries,
		.files = r->files,
		.dirs = r->dirs,
		.symlinks = r->symlinks,
		.others = r->others,
		.bytes = r->bytes,
		.cpu_user_ns = r->cpu_user_ns,
		.cpu_sys_ns = r->cpu_sys_ns,
		.permission_denied = r->errors.permission_denied,
		.vanished = r->errors.vanished,
		.loops = r->errors.loops,
		.other = r->errors.other,
		.noatime_refused = r->noatime_refused,
		.nworkers = r->nworkers,
	};
}

/* Rank 0: the ranks' phases folded into r (rank 0's own, replaced). */
static int fold_phase(struct clyde_dist *d, enum clyde_tree_phase p,
		      struct clyde_tree_phase_result *r,
		      const struct wire_phase *wp, const struct clyde_hist *hs,
		      const struct clyde_tree_worker *ws, unsigned per_rank,
		      struct clyde_dist_share *sh)
{
	const struct clyde_comm *c = d->comm;
	unsigned n = (unsigned)c->size;
	struct clyde_tree_worker *workers =
		calloc(per_rank * n + 1, sizeof(*workers));
	uint64_t first = UINT64_MAX, last = 0;

	if (!workers)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		sh[i].start_ns =
			(uint64_t)((int64_t)wp[i].start_ns - c->offset_ns[i]);
		sh[i].end_ns =
			(uint64_t)((int64_t)wp[i].end_ns - c->offset_ns[i]);
		sh[i].bytes = wp[i].bytes;
		sh[i].ops = wp[i].entries;
		sh[i].in_bytes = clyde_tree_phase_in_bytes(p);
		if (sh[i].start_ns < first)
			first = sh[i].start_ns;
		if (sh[i].end_ns > last)
			last = sh[i].end_ns;
	}
	r->entries = r->files = r->dirs = r->symlinks = r->others = 0;
	r->bytes = r->cpu_user_ns = r->cpu_sys_ns = r->noatime_refused = 0;
	memset(&r->errors, 0, sizeof(r->errors));
	/* Block-device counters of one host say nothing about all ranks. */
	memset(&r->dev, 0, sizeof(r->dev));
	memset(&r->members, 0, sizeof(r->members));
	memset(&r->own, 0, sizeof(r->own));
	for (unsigned i = 0; i < n; i++) {
		const struct wire_phase *w = &wp[i];

		r->entries += w->entries;
		r->files += w->files;
		r->dirs += w->dirs;
		r->symlinks += w->symlinks;
		r->others += w->others;
		r->bytes += w->bytes;
		r->cpu_user_ns += w->cpu_user_ns;
		r->cpu_sys_ns += w->cpu_sys_ns;
		r->errors.permission_denied += w->permission_denied;
		r->errors.vanished += w->vanished;
		r->errors.loops += w->loops;
		r->errors.other += w->other;
		r->noatime_refused += w->noatime_refused;
		/* A worker's times count from its rank's phase start: from
		 * the first rank's start now. */
		for (unsigned k = 0; k < per_rank; k++) {
			struct clyde_tree_worker *t =
				&workers[i * per_rank + k];

			*t = ws[i * per_rank + k];
			if (k < w->nworkers) {
				t->start_ns += sh[i].start_ns - first;
				t->end_ns += sh[i].start_ns - first;
			}
		}
	}
	r->elapsed_ns = last > first ? last - first : 0;
	for (int op = 0; op < CLYDE_TREE_OP_COUNT; op++) {
		if (!r->lat[op])
			continue;
		clyde_hist_reset(r->lat[op]);
		for (unsigned i = 0; i < n; i++)
			clyde_hist_merge(r->lat[op],
					 &hs[(size_t)i * CLYDE_TREE_OP_COUNT +
					     (size_t)op]);
	}
	free(r->workers);
	r->workers = workers;
	r->nworkers = per_rank * n;
	return 0;
}

/* Move one phase to rank 0 (collective). */
static int merge_phase(struct clyde_dist *d, enum clyde_tree_phase p,
		       struct clyde_tree_phase_result *r, uint64_t start,
		       struct clyde_dist_share **out)
{
	struct clyde_comm *c = d->comm;
	size_t n = (size_t)c->size;
	int64_t per = r->nworkers;
	struct wire_phase mine, *wp = NULL;
	struct clyde_hist *h = calloc(CLYDE_TREE_OP_COUNT, sizeof(*h));
	struct clyde_hist *hs = NULL;
	struct clyde_tree_worker *w = NULL, *ws = NULL;
	int ret, rc;

	/* Every rank sends as many worker slots as the rank with most. */
	ret = clyde_dist_agree(d, 0, &per);
	if (ret)
		return ret < 0 ? ret : -EIO;
	w = calloc((size_t)per + 1, sizeof(*w));
	if (c->rank == 0) {
		wp = calloc(n, sizeof(*wp));
		hs = calloc(n * CLYDE_TREE_OP_COUNT, sizeof(*hs));
		ws = calloc(n * (size_t)per + 1, sizeof(*ws));
		*out = calloc(n, sizeof(**out));
	}
	/* Every rank takes part even without memory (the others would wait
	 * for it); the failure is reported after. */
	if (!h || !w || (c->rank == 0 && (!wp || !hs || !ws || !*out)))
		ret = -ENOMEM;
	to_wire(r, start, &mine);
	for (int op = 0; h && op < CLYDE_TREE_OP_COUNT; op++)
		if (r->lat[op])
			memcpy(&h[op], r->lat[op], sizeof(*h));
		else
			clyde_hist_init(&h[op]);
	if (w && r->workers)
		memcpy(w, r->workers, r->nworkers * sizeof(*w));
	rc = c->ops->gather(c, &mine, sizeof(mine), wp);
	if (!rc)
		rc = c->ops->gather(
			c, h, h ? CLYDE_TREE_OP_COUNT * sizeof(*h) : 0, hs);
	if (!rc)
		rc = c->ops->gather(c, w, w ? (size_t)per * sizeof(*w) : 0, ws);
	if (!ret)
		ret = rc;
	if (!ret && c->rank == 0)
		ret = fold_phase(d, p, r, wp, hs, ws, (unsigned)per, *out);
	free(h);
	free(w);
	free(wp);
	free(hs);
	free(ws);
	return ret;
}

static int merge_tree(struct clyde_dist *d, void *arg)
{
	struct tree_merge *m = arg;
	int ret = clyde_dist_add_run(d);
	bool keep = d->comm->rank == 0 && !ret;

	d->item_name = phase_name;
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		struct clyde_dist_share *sh = NULL;
		int r;

		if (!m->run->phases[p].ran)
			continue;
		r = merge_phase(d, (enum clyde_tree_phase)p, &m->run->phases[p],
				m->start_ns[p], &sh);
		if (keep)
			d->shares[d->nruns - 1][p] = sh;
		else
			free(sh);
		if (!ret)
			ret = r;
	}
	return ret;
}

int clyde_dist_end_tree(struct clyde_dist *d, int ret,
			struct clyde_tree_run *run, const uint64_t *start_ns)
{
	struct tree_merge m = { run, start_ns };

	return clyde_dist_end(d, ret, merge_tree, &m);
}

/*
 * clyde-mpi: the ranks' own figures of a test merged by their target
 * kind (dist_wire.h).
 */
#include "dist/dist_wire.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"

/* What precedes a rank's figures in its record. */
struct head {
	int32_t kind; /* place in clyde_target_kinds; -1 none */
	int32_t pad;
};

/* Does kind k's figures go to rank 0 (a merge hook, room in a record)? */
static bool sent(const struct clyde_target_ops *k)
{
	return k->figs && k->figs->merge && k->figs_size &&
	       k->figs_size <= CLYDE_DIST_FIGS_MAX - sizeof(struct head);
}

/* The size of one record: the largest kind's that is sent, rounded up to
 * 8 bytes, after the head. */
static size_t record_size(void)
{
	size_t n, most = 0;
	const struct clyde_target_ops *const *kinds = clyde_target_kinds(&n);

	for (size_t i = 0; i < n; i++)
		if (sent(kinds[i]) && kinds[i]->figs_size > most)
			most = kinds[i]->figs_size;
	return sizeof(struct head) + (most + 7) / 8 * 8;
}

/* This rank's record of t into rec (zeroed). */
static void record_of(const struct clyde_test_result *t, unsigned char *rec)
{
	struct head h = { .kind = -1 };
	size_t n;
	const struct clyde_target_ops *const *kinds = clyde_target_kinds(&n);

	for (size_t i = 0; i < n && t->figs.kind && t->figs.data; i++)
		if (kinds[i] == t->figs.kind && sent(kinds[i])) {
			h.kind = (int32_t)i;
			memcpy(rec + sizeof(h), t->figs.data,
			       kinds[i]->figs_size);
		}
	memcpy(rec, &h, sizeof(h));
}

int clyde_dist_figs_gather(struct clyde_comm *c,
			   const struct clyde_test_result *t,
			   unsigned char **all, size_t *stride)
{
	static unsigned char none[CLYDE_DIST_FIGS_MAX];
	size_t size = record_size();
	unsigned char *mine = calloc(1, size);
	int ret;

	*stride = size;
	if (c->rank == 0)
		*all = calloc((size_t)c->size, size);
	if (mine)
		record_of(t, mine);
	/* Without the memory the others must not wait: send zeros and
	 * fail after. */
	if (!mine || (c->rank == 0 && !*all)) {
		ret = c->ops->gather(c, mine ? mine : none, size,
				     c->rank == 0 && !*all ? NULL : *all);
		free(mine);
		return ret < 0 ? ret : -ENOMEM;
	}
	ret = c->ops->gather(c, mine, size, *all);
	free(mine);
	return ret;
}

static int32_t kind_at(const unsigned char *all, size_t stride, size_t r)
{
	struct head h;

	memcpy(&h, all + r * stride, sizeof(h));
	return h.kind;
}

/* The n ranks' figures of kind k (index i) merged into t; whether its
 * merge took them. */
static bool fold_kind(struct clyde_test_result *t,
		      const struct clyde_target_ops *k, int32_t i,
		      const unsigned char *all, size_t stride, size_t n)
{
	unsigned char *ranks = calloc(n, k->figs_size);
	unsigned char *sum = calloc(1, k->figs_size);
	bool merged = false;
	void *figs;

	if (ranks && sum) {
		for (size_t r = 0; r < n; r++)
			if (kind_at(all, stride, r) == i)
				memcpy(ranks + r * k->figs_size,
				       all + r * stride + sizeof(struct head),
				       k->figs_size);
		/* Into the test's figures of that kind (rank 0's, its
		 * server side kept by the kind's all_ranks), made when rank
		 * 0 had none. */
		if (t->figs.kind == k)
			memcpy(sum, t->figs.data, k->figs_size);
		merged = k->figs->merge(sum, ranks, n);
		figs = !merged		 ? NULL :
		       t->figs.kind == k ? t->figs.data :
					   clyde_test_figs_alloc(t, k);
		if (figs)
			memcpy(figs, sum, k->figs_size);
	}
	free(ranks);
	free(sum);
	return merged;
}

void clyde_dist_figs_fold(struct clyde_test_result *t, const unsigned char *all,
			  size_t stride, size_t n,
			  struct clyde_dist_share *shares)
{
	size_t nk;
	const struct clyde_target_ops *const *kinds = clyde_target_kinds(&nk);
	bool merged = false;

	/* A test has one kind's figures: the first kind some rank's are. */
	for (size_t i = 0; i < nk && !merged; i++) {
		bool some = false;

		for (size_t r = 0; r < n; r++)
			some = some || kind_at(all, stride, r) == (int32_t)i;
		if (some && sent(kinds[i]))
			merged = fold_kind(t, kinds[i], (int32_t)i, all, stride,
					   n);
	}
	if (!merged)
		return;
	for (size_t r = 0; r < n; r++) {
		struct clyde_dist_figs *f = &shares[r].figs;
		int32_t i = kind_at(all, stride, r);

		if (i < 0 || (size_t)i >= nk) {
			f->kept = true;
			continue;
		}
		f->data = malloc(kinds[i]->figs_size);
		if (!f->data)
			continue;
		memcpy(f->data, all + r * stride + sizeof(struct head),
		       kinds[i]->figs_size);
		f->kind = kinds[i];
		f->kept = true;
	}
}

void clyde_dist_figs_json(struct clyde_jw *w, const struct clyde_dist_figs *f)
{
	size_t n;
	const struct clyde_target_ops *const *kinds = clyde_target_kinds(&n);

	if (!f->kept)
		return;
	for (size_t i = 0; i < n; i++)
		if (kinds[i]->figs && kinds[i]->figs->rank_json)
			kinds[i]->figs->rank_json(
				w, f->kind == kinds[i] ? f->data : NULL);
}

void clyde_dist_figs_free(struct clyde_dist_figs *f)
{
	free(f->data);
	memset(f, 0, sizeof(*f));
}

/*
 * The table of target kinds with figures of their own (figures.h).  A
 * kind is one line here; the order is that of their JSON members and
 * text sections.
 */
#include "results/figures.h"

static const struct clyde_figs_kind *const kinds[] = {
	&clyde_figs_nfs,
	&clyde_figs_cifs,
	&clyde_figs_zfs,
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* The entry of t's figures' kind, or NULL. */
static const struct clyde_figs_kind *kind_of(const struct clyde_test_result *t)
{
	for (size_t i = 0; t->figs.kind && i < NKINDS; i++)
		if (kinds[i]->target == t->figs.kind)
			return kinds[i];
	return NULL;
}

void clyde_figs_json(struct clyde_jw *w, const struct clyde_run *r,
		     enum clyde_test id, enum clyde_figs_at at)
{
	const struct clyde_test_result *t = &r->tests[id];

	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i]->json_at == at && kinds[i]->json)
			kinds[i]->json(w, r, id,
				       clyde_test_figs(t, kinds[i]->target));
}

void clyde_figs_text(FILE *f, const struct clyde_run *runs, unsigned n)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i]->text)
			kinds[i]->text(f, runs, n);
}

void clyde_figs_finish(struct clyde_test_result *t)
{
	const struct clyde_figs_kind *k = kind_of(t);

	if (k && k->finish)
		k->finish(t, t->figs.data);
}

bool clyde_figs_cache(const struct clyde_test_result *t, const char **json,
		      const char **text)
{
	const struct clyde_figs_kind *k = kind_of(t);

	if (k && k->cache && k->cache(t, t->figs.data, json, text))
		return true;
	*json = "page_cache";
	*text = NULL;
	return false;
}

bool clyde_figs_all_ranks(struct clyde_test_result *t)
{
	const struct clyde_figs_kind *k = kind_of(t);

	return k && k->all_ranks ? k->all_ranks(t->figs.data) : false;
}

/*
 * `clyde sweep --dry-run`: the plan as it would run (cmd_sweep.c prints
 * it; the listing is made here, from the plan alone).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "exp/exp.h"
#include "exp/plan.h"

/* The dry run's state: the plan, where the listing goes. */
struct dry {
	struct clyde_ctx *ctx;
	struct clyde_sweep *s;
	FILE *out;
};

/* Expand a template for the listing (NULL with the message in ctx). */
static char *expand(struct dry *x, size_t p, unsigned r, const char *t,
		    unsigned line)
{
	char *out = NULL;

	if (!t || clyde_sweep_expand(x->ctx, x->s, p, r, t, line, &out) < 0)
		return NULL;
	return out;
}

int clyde_sweep_dry_run(struct clyde_ctx *ctx, struct clyde_sweep *plan,
			FILE *out)
{
	struct dry dx = { .ctx = ctx, .s = plan, .out = out }, *x = &dx;
	const struct clyde_sweep *s = x->s;
	unsigned rounds = s->repeat;
	size_t *order = calloc(s->npoints, sizeof(size_t));
	FILE *f = x->out;
	char label[512];

	if (!order)
		return clyde_err(x->ctx, ENOMEM, "dry run");
	/* A captured variable shows as <NAME>. */
	for (size_t i = 0; i < x->s->nvars; i++) {
		char mark[160];

		if (!x->s->vars[i].captured)
			continue;
		snprintf(mark, sizeof(mark), "<%s>", x->s->vars[i].name);
		clyde_sweep_set_var(x->s, x->s->vars[i].name, mark);
	}
	fprintf(f, "# experiment %s: %zu point%s x %u repeat%s, %s order\n",
		s->name, s->npoints, s->npoints == 1 ? "" : "s", rounds,
		rounds == 1 ? "" : "s",
		s->order == CLYDE_SWEEP_RANDOM ? "random" : "interleaved");
	if (s->until_stable > 0)
		fprintf(f,
			"# then more rounds, up to %u, for points whose 95%% "
			"CI is wider than %g%% of the mean\n",
			s->max_runs, s->until_stable);
	if (s->until_decided > 0)
		fprintf(f,
			"# then more rounds, up to %u, for points whose rank "
			"against the best is open (not significantly worse, "
			"not within %g%%)\n",
			s->max_runs, s->until_decided);
	for (unsigned r = 1; r <= rounds; r++) {
		clyde_sweep_round_order(s, r - 1, order);
		for (size_t i = 0; i < s->npoints; i++) {
			size_t p = order[i];

			clyde_sweep_point_label(s, p, label, sizeof(label));
			fprintf(f, "\n# point %zu/%zu (%s), repeat %u\n", p + 1,
				s->npoints, label, r);
			for (size_t k = 0; k < s->nsetup; k++) {
				const struct clyde_sweep_step *st =
					&s->setup[k];
				char *t = expand(x, p, r, st->text, st->line);
				char *v = st->value ? expand(x, p, r, st->value,
							     st->line) :
						      NULL;

				if (!t || (st->value && !v)) {
					free(t);
					free(order);
					return -1;
				}
				if (st->kind == CLYDE_SWEEP_SET)
					fprintf(f, "set %s = %s\n", t, v);
				else if (st->kind == CLYDE_SWEEP_CAPTURE)
					fprintf(f, "capture <%s>: %s\n", v, t);
				else
					fprintf(f, "setup: %s\n", t);
				free(t);
				free(v);
			}
			for (size_t k = 0; k < s->nworkloads; k++) {
				const struct clyde_sweep_workload *w =
					&s->workloads[k];
				char *a = expand(x, p, r, w->args, w->line);
				const char *dt = w->device ? w->device :
							     w->path;
				char *d = dt ? expand(x, p, r, dt, w->line) :
					       NULL;

				if (!a || (dt && !d)) {
					free(a);
					free(order);
					return -1;
				}
				if (w->before) {
					char *b = expand(x, p, r, w->before,
							 w->line);

					if (!b) {
						free(a);
						free(d);
						free(order);
						return -1;
					}
					fprintf(f, "before %s: %s\n", w->name,
						b);
					free(b);
				}
				clyde_exp_wl_builtin(w->kind)->show(f, w->name,
								    a, d);
				free(a);
				free(d);
			}
			for (size_t k = s->nsetup; k-- > 0;)
				if (s->setup[k].kind == CLYDE_SWEEP_SET) {
					char *t = expand(x, p, r,
							 s->setup[k].text,
							 s->setup[k].line);

					fprintf(f, "restore %s\n", t ? t : "?");
					free(t);
				}
			for (size_t k = 0; k < s->nteardown; k++) {
				char *t = expand(x, p, r, s->teardown[k].text,
						 s->teardown[k].line);

				if (!t) {
					free(order);
					return -1;
				}
				fprintf(f, "teardown: %s\n", t);
				free(t);
			}
		}
	}
	free(order);
	return 0;
}

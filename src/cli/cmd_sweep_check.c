/*
 * `clyde sweep`'s checks before anything runs (cmd_sweep.h): the
 * experiment file, the options of run, tree and dev workloads (with those
 * commands' own parsers), the metric keys.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wordexp.h>

#include "cli/cmd_sweep.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "results/kinds.h"

/* The most an experiment file may hold: it is written by hand. */
#define EXPERIMENT_MAX (1 << 20)

/* An experiment file is a regular file of a sane size: a directory would
 * read as empty and /dev/zero would never end.  Returns 0, or -1 after
 * printing one line. */
int clyde_sweep_cli_check_file(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "clyde sweep: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr,
			"clyde sweep: %s: not a regular file; an experiment "
			"file is a text file (see docs/sweep.md)\n",
			path);
		return -1;
	}
	if (st.st_size > EXPERIMENT_MAX) {
		fprintf(stderr,
			"clyde sweep: %s: %lld bytes, larger than the %d an "
			"experiment file may be; not read\n",
			path, (long long)st.st_size, EXPERIMENT_MAX);
		return -1;
	}
	return 0;
}

/*
 * Is key k[0..l) a metric of workload w?  WORKLOAD.TEST for a kind whose
 * results have rows (run, tree, fio), RESULT.WORKLOAD[.SUFFIX] for one
 * whose result kind has fixed metrics (time.NAME: results/kinds.h).
 */
static bool is_metric_of(const struct clyde_sweep_workload *w, const char *k,
			 size_t l)
{
	const struct clyde_exp_wl_ops *ops = clyde_exp_wl_builtin(w->kind);
	const struct clyde_result_kind *rk =
		ops ? clyde_result_kind_find(ops->result) : NULL;
	const char *dot = memchr(k, '.', l), *t, *tend;
	size_t nl = strlen(w->name), pl, tl;

	if (!dot || dot + 1 >= k + l)
		return false;
	pl = (size_t)(dot - k);
	if (!rk || !rk->nmetrics)
		return pl == nl && !strncmp(k, w->name, nl);
	t = dot + 1;
	tend = memchr(t, '.', l - (size_t)(t - k));
	tl = (size_t)((tend ? tend : k + l) - t);
	return pl == strlen(rk->name) && !strncmp(k, rk->name, pl) &&
	       tl == nl && !strncmp(t, w->name, nl);
}

/*
 * Check the options of a run, tree or dev workload with that command's own
 * parser, running nothing.  Returns 0 (with *dir, when dir is not NULL,
 * the directory its scratch directory goes in, resolved, malloc'ed, or
 * NULL), 1 when the options need the shell (quotes, variables) and cannot
 * be checked, or -1 with the message in err.
 */
static int check_wl_args(enum clyde_sweep_wl_kind kind, const char *args,
			 char **dir, char *err, size_t len)
{
	const char *d = NULL;
	wordexp_t we;
	char **argv;
	int rc = 0;

	if (dir)
		*dir = NULL;
	if (kind == CLYDE_SWEEP_TIME)
		return 1;
	if (wordexp(args, &we, WRDE_NOCMD | WRDE_UNDEF) != 0)
		return 1;
	/* argv[0] is the program name. */
	argv = calloc(we.we_wordc + 2, sizeof(*argv));
	if (!argv) {
		wordfree(&we);
		return 1;
	}
	argv[0] = (char *)"clyde";
	for (size_t i = 0; i < we.we_wordc; i++)
		argv[i + 1] = we.we_wordv[i];
	if (kind == CLYDE_SWEEP_RUN) {
		struct clyde_bonnie_config cfg;
		struct clyde_cli_extra extra;

		if (clyde_opts_parse((int)we.we_wordc + 1, argv, &cfg, &extra,
				     err, len) == CLYDE_OPTS_ERROR)
			rc = -1;
		else
			d = cfg.dir ? cfg.dir : ".";
	} else if (kind == CLYDE_SWEEP_DEV) {
		/* Its device is not a scratch directory's parent. */
		rc = clyde_dev_check_args((int)we.we_wordc + 1, argv, err, len);
	} else if (clyde_tree_check_args((int)we.we_wordc + 1, argv, &d, err,
					 len) < 0) {
		rc = -1;
	}
	if (rc == 0 && dir && d) {
		char real[PATH_MAX];

		/* The journal holds it on one line between tabs. */
		if (realpath(d, real) && !strpbrk(real, "\t\n"))
			*dir = strdup(real);
	}
	free(argv);
	wordfree(&we);
	return rc;
}

static int check_run(const char *args, char **dir, char *err, size_t len)
{
	return check_wl_args(CLYDE_SWEEP_RUN, args, dir, err, len);
}

static int check_tree(const char *args, char **dir, char *err, size_t len)
{
	return check_wl_args(CLYDE_SWEEP_TREE, args, dir, err, len);
}

static int check_dev(const char *args, char **dir, char *err, size_t len)
{
	return check_wl_args(CLYDE_SWEEP_DEV, args, dir, err, len);
}

void clyde_sweep_cli_ops_init(struct sweep_ops *o)
{
	for (int k = 0; k < CLYDE_SWEEP_KINDS; k++) {
		o->kinds[k] =
			*clyde_exp_wl_builtin((enum clyde_sweep_wl_kind)k);
		o->v[k] = &o->kinds[k];
	}
	o->kinds[CLYDE_SWEEP_RUN].check = check_run;
	o->kinds[CLYDE_SWEEP_TREE].check = check_tree;
	o->kinds[CLYDE_SWEEP_DEV].check = check_dev;
}

/*
 * The metric keys can only be checked against the results once the runs
 * exist; their workload part is checked now, before anything runs, so a
 * mistyped key is not found after an hour of runs.  A key is
 * WORKLOAD.TEST for run, tree, fio and dev, time.WORKLOAD[.SUFFIX] for timed
 * commands (docs/sweep.md).  Returns 0, or -1 after printing one line.
 */
int clyde_sweep_cli_check_metrics(const struct clyde_sweep *s, const char *keys,
				  const char *where, const char *what)
{
	const char *k = keys;

	if (!keys || !strcmp(keys, "all"))
		return 0;
	while (*k) {
		const char *end;
		size_t l, w;

		while (*k == ' ' || *k == ',')
			k++;
		if (!*k)
			break;
		end = strchr(k, ',');
		if (!end)
			end = k + strlen(k);
		l = (size_t)(end - k);
		while (l && k[l - 1] == ' ')
			l--;
		for (w = 0; w < s->nworkloads; w++)
			if (is_metric_of(&s->workloads[w], k, l))
				break;
		if (w < s->nworkloads) {
			k = end;
			continue;
		}
		fprintf(stderr,
			"clyde sweep: %s%s%s \"%.*s\": not a metric of this experiment "
			"(WORKLOAD.TEST for run, tree, fio and dev, time.WORKLOAD "
			"for timed commands, or all)\n",
			where ? where : "", where ? ": " : "", what, (int)l, k);
		return -1;
	}
	return 0;
}

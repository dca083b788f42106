/*
 * `clyde compare RESULT...`: read clyde JSON results and bonnie++ CSV
 * files (any format, any mix) and print them side by side.
 *
 * Exit status: 0 when a table was printed (even if some lines or files
 * were malformed: each got one "path:line: reason" message on stderr), 1
 * for a usage error or when nothing could be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "core/ctx.h"
#include "report/compare.h"
#include "report/loaded.h"

static void usage(FILE *f)
{
	fputs("usage: clyde compare [options] RESULT...\n"
	      "  RESULT: a clyde JSON result, or a file of bonnie++/clyde CSV\n"
	      "          lines (formats 1.03, 1.96, 1.98; one run per line),\n"
	      "          or - for standard input\n"
	      "  --format FMT      text (default), markdown or csv\n"
	      "  --label A,B,...   name the results in order (else their run\n"
	      "                    names, made unique: vm, vm#2)\n"
	      "  --baseline N      add each result's change in % against "
	      "result N\n"
	      "  --merge-repeats   fold consecutive CSV lines of one file "
	      "with the\n"
	      "                    same name and settings (bonnie++ -x) into "
	      "one\n"
	      "                    result with repeats\n"
	      "  -h, --help        this text\n",
	      f);
}

/* "--opt=value" or "--opt value": the value, advancing *i; NULL when the
 * argument is not this option. */
static const char *opt_value(int argc, char **argv, int *i, const char *lng,
			     const char *shrt, bool *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(lng);

	*missing = false;
	if (!strncmp(a, lng, n) && a[n] == '=')
		return a + n + 1;
	if (strcmp(a, lng) && (!shrt || strcmp(a, shrt)))
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

/* Split "A,B,C" into labels appended to *v (the strings point into a copy
 * owned by *store). */
static int split_labels(const char *s, char ***v, size_t *n, char ***store,
			size_t *nstore)
{
	char *copy = strdup(s), *p, **ns, **nv;

	if (!copy)
		return -ENOMEM;
	ns = realloc(*store, (*nstore + 1) * sizeof(*ns));
	if (!ns) {
		free(copy);
		return -ENOMEM;
	}
	*store = ns;
	(*store)[(*nstore)++] = copy;
	for (p = copy;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		nv = realloc(*v, (*n + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		*v = nv;
		(*v)[(*n)++] = p;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

int clyde_cmd_compare(int argc, char **argv)
{
	enum clyde_compare_format fmt = CLYDE_COMPARE_TEXT;
	struct clyde_compare_opts o = { NULL, 0, 0 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	char **labels = NULL, **store = NULL, **files = NULL;
	size_t nlabels = 0, nstore = 0, nfiles = 0, i;
	bool merge = false, opts_done = false;
	int status = CLYDE_EXIT_USAGE, rc, a;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	files = calloc((size_t)argc + 1, sizeof(*files));
	if (!files) {
		fprintf(stderr, "clyde compare: out of memory\n");
		goto out;
	}
	for (a = 1; a < argc; a++) {
		const char *arg = argv[a], *v;
		bool missing;
		char *end;

		if (opts_done || arg[0] != '-' || !strcmp(arg, "-")) {
			files[nfiles++] = argv[a];
			continue;
		}
		if (!strcmp(arg, "--")) {
			opts_done = true;
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			status = CLYDE_EXIT_OK;
			goto out;
		} else if (!strcmp(arg, "--merge-repeats")) {
			merge = true;
		} else if ((v = opt_value(argc, argv, &a, "--format", NULL,
					  &missing))) {
			if (clyde_compare_parse_format(v, &fmt)) {
				fprintf(stderr,
					"clyde compare: unknown format '%s' "
					"(text, markdown or csv)\n",
					v);
				goto out;
			}
		} else if (!missing && (v = opt_value(argc, argv, &a, "--label",
						      NULL, &missing))) {
			if (split_labels(v, &labels, &nlabels, &store,
					 &nstore)) {
				fprintf(stderr, "clyde compare: out of "
						"memory\n");
				goto out;
			}
		} else if (!missing &&
			   (v = opt_value(argc, argv, &a, "--baseline", NULL,
					  &missing))) {
			errno = 0;
			o.baseline = strtol(v, &end, 10);
			if (errno || end == v || *end || o.baseline < 1) {
				fprintf(stderr,
					"clyde compare: --baseline wants a "
					"result number from 1, not '%s'\n",
					v);
				goto out;
			}
		} else {
			if (missing)
				fprintf(stderr,
					"clyde compare: %s needs a value\n",
					arg);
			else
				fprintf(stderr,
					"clyde compare: unknown option '%s'\n",
					arg);
			usage(stderr);
			goto out;
		}
	}
	if (!nfiles) {
		fprintf(stderr, "clyde compare: no result files given\n");
		usage(stderr);
		goto out;
	}
	if (clyde_cli_load_results(&ctx, "compare", files, nfiles, merge,
				   &set) < 0)
		goto out;
	o.labels = (const char *const *)labels;
	o.nlabels = nlabels;
	if (clyde_compare_build(&ctx, &set, &o, &cmp)) {
		fprintf(stderr, "clyde compare: %s\n", clyde_errmsg(&ctx));
		goto out;
	}
	rc = clyde_compare_write(stdout, &cmp, fmt);
	clyde_compare_release(&cmp);
	if (rc) {
		fprintf(stderr, "clyde compare: writing the table: %s\n",
			strerror(-rc));
		goto out;
	}
	status = CLYDE_EXIT_OK;
out:
	clyde_loaded_set_release(&set);
	for (i = 0; i < nstore; i++)
		free(store[i]);
	free(store);
	free(labels);
	free(files);
	clyde_ctx_release(&ctx);
	return status;
}

/*
 * `clyde report RESULT... -o report.html`: the same inputs as `clyde
 * compare`, written as one self-contained HTML page (src/report/html.h).
 *
 * The page is written to a temporary file next to the output and renamed
 * over it at the end, so a failed report never leaves half a page where
 * a good one was.  Exit status as `clyde compare`: 0 when a report was
 * written, 1 for a usage error, when nothing could be read or the output
 * could not be written.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "core/ctx.h"
#include "report/compare.h"
#include "report/html.h"
#include "report/loaded.h"

static void usage(FILE *f)
{
	fputs("usage: clyde report [options] RESULT... -o FILE.html\n"
	      "  RESULT: a clyde JSON result, or a file of bonnie++/clyde CSV\n"
	      "          lines (formats 1.03, 1.96, 1.98), or - for stdin\n"
	      "  -o, --output FILE the HTML file to write (- for stdout)\n"
	      "  --title TEXT      the page title (default \"clyde report\")\n"
	      "  --label A,B,...   name the results in order\n"
	      "  --baseline N      add each result's change in % against "
	      "result N\n"
	      "  --merge-repeats   fold consecutive identical CSV lines "
	      "(bonnie++ -x)\n"
	      "                    into one result with repeats\n"
	      "  -h, --help        this text\n",
	      f);
}

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

/* Write the report to `out` through a temporary file in its directory. */
static int write_report(const struct clyde_compare *cmp, const char *title,
			const char *out)
{
	char *tmp = NULL;
	mode_t mask;
	FILE *f;
	int fd, rc;

	if (!strcmp(out, "-"))
		return clyde_html_write(stdout, cmp, title);
	if (asprintf(&tmp, "%s.tmp.XXXXXX", out) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		free(tmp);
		return rc;
	}
	/* mkstemp makes it 0600; a report is for sharing, so give it the
	 * mode a plain fopen() would (0666 less the umask). */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		/* Not fatal: the report is still readable by its owner. */
	}
	f = fdopen(fd, "w");
	if (!f) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return rc;
	}
	rc = clyde_html_write(f, cmp, title);
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, out))
		rc = -errno;
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

int clyde_cmd_report(int argc, char **argv)
{
	struct clyde_compare_opts o = { NULL, 0, 0 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	const char *out = NULL, *title = NULL;
	char **labels = NULL, **files = NULL, **store = NULL;
	size_t nlabels = 0, nfiles = 0, nstore = 0, i;
	bool merge = false, opts_done = false;
	int status = CLYDE_EXIT_USAGE, rc, a;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	files = calloc((size_t)argc + 1, sizeof(*files));
	if (!files) {
		fprintf(stderr, "clyde report: out of memory\n");
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
		} else if ((v = opt_value(argc, argv, &a, "--output", "-o",
					  &missing))) {
			out = v;
		} else if (!missing && (v = opt_value(argc, argv, &a, "--title",
						      NULL, &missing))) {
			title = v;
		} else if (!missing && (v = opt_value(argc, argv, &a, "--label",
						      NULL, &missing))) {
			char *p, *copy = strdup(v), **nl, **ns;

			/* Repeated --label options add to the list. */
			if (!copy)
				goto nomem;
			ns = realloc(store, (nstore + 1) * sizeof(*ns));
			if (!ns) {
				free(copy);
				goto nomem;
			}
			store = ns;
			store[nstore++] = copy;
			for (p = copy;;) {
				char *comma = strchr(p, ',');

				if (comma)
					*comma = '\0';
				nl = realloc(labels,
					     (nlabels + 1) * sizeof(*nl));
				if (!nl)
					goto nomem;
				labels = nl;
				labels[nlabels++] = p;
				if (!comma)
					break;
				p = comma + 1;
			}
		} else if (!missing &&
			   (v = opt_value(argc, argv, &a, "--baseline", NULL,
					  &missing))) {
			errno = 0;
			o.baseline = strtol(v, &end, 10);
			if (errno || end == v || *end || o.baseline < 1) {
				fprintf(stderr,
					"clyde report: --baseline wants a "
					"result number from 1, not '%s'\n",
					v);
				goto out;
			}
		} else {
			if (missing)
				fprintf(stderr,
					"clyde report: %s needs a value\n",
					arg);
			else
				fprintf(stderr,
					"clyde report: unknown option '%s'\n",
					arg);
			usage(stderr);
			goto out;
		}
	}
	if (!out) {
		fprintf(stderr,
			"clyde report: no output file (-o FILE.html)\n");
		usage(stderr);
		goto out;
	}
	if (!nfiles) {
		fprintf(stderr, "clyde report: no result files given\n");
		usage(stderr);
		goto out;
	}
	if (clyde_cli_load_results(&ctx, "report", files, nfiles, merge, &set) <
	    0)
		goto out;
	o.labels = (const char *const *)labels;
	o.nlabels = nlabels;
	if (clyde_compare_build(&ctx, &set, &o, &cmp)) {
		fprintf(stderr, "clyde report: %s\n", clyde_errmsg(&ctx));
		goto out;
	}
	rc = write_report(&cmp, title, out);
	clyde_compare_release(&cmp);
	if (rc) {
		fprintf(stderr, "clyde report: writing %s: %s\n", out,
			strerror(-rc));
		goto out;
	}
	status = CLYDE_EXIT_OK;
	goto out;
nomem:
	fprintf(stderr, "clyde report: out of memory\n");
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

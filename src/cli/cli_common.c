#include "cli/cli_common.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/outfile.h"
#include "core/vis.h"
#include "results/format.h"

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t output_closed;

static void on_signal(int sig)
{
	if (sig == SIGPIPE)
		output_closed = 1;
	interrupted = 1;
}

volatile sig_atomic_t *clyde_cli_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	return &interrupted;
}

bool clyde_cli_interrupted(void)
{
	return interrupted != 0;
}

/* A job's statuses are the exit statuses. */
_Static_assert((int)CLYDE_JOB_OK == (int)CLYDE_EXIT_OK &&
		       (int)CLYDE_JOB_USAGE == (int)CLYDE_EXIT_USAGE &&
		       (int)CLYDE_JOB_FAILED == (int)CLYDE_EXIT_TEST_FAILED &&
		       (int)CLYDE_JOB_INTERRUPTED ==
			       (int)CLYDE_EXIT_INTERRUPTED,
	       "job statuses are exit statuses");

static void job_say(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "%s\n", line);
}

void clyde_cli_job_ui(struct clyde_job_ui *ui)
{
	ui->say = job_say;
	ui->interrupted = clyde_cli_catch_signals();
	ui->closed = &output_closed;
}

/* After merging: say which merged repeats disagree wildly (loaded.h), as
 * their mean describes none of them. */
static void warn_disagree(const char *cmd, const struct clyde_loaded_set *set)
{
	for (size_t i = 0; i < set->nruns; i++) {
		const struct clyde_loaded_run *r = &set->runs[i];

		for (size_t k = 0; k < r->ntests && r->nrepeats > 1; k++) {
			const struct clyde_loaded_test *t = &r->tests[k];
			double lo, hi, div;
			const char *unit;
			char buf[64], vl[256], vs[PATH_MAX + 64], vt[256];

			if (!clyde_loaded_test_disagree(t, &lo, &hi))
				continue;
			unit = clyde_fmt_pick_unit(t->unit, hi, &div);
			fprintf(stderr,
				"clyde %s: warning: %s (%s): the %zu repeats of "
				"%s disagree (the largest is %.1f times the "
				"smallest), their mean ",
				cmd,
				clyde_vis(vl, sizeof(vl),
					  r->label[0] ? r->label : "(no name)",
					  0),
				clyde_vis(vs, sizeof(vs), r->source, 0),
				t->nsamples,
				clyde_vis(vt, sizeof(vt), t->name, 0),
				lo > 0 ? hi / lo : INFINITY);
			fputs(clyde_fmt_readable(buf, sizeof(buf),
						 t->rate / div, false),
			      stderr);
			fprintf(stderr, " %s hides:", unit);
			for (size_t j = 0; j < t->nsamples; j++)
				fprintf(stderr, "%s %s", j ? "," : "",
					clyde_fmt_readable(
						buf, sizeof(buf),
						t->samples[j] / div,
						t->samples[j] / div ==
							floor(t->samples[j] /
							      div)));
			fputc('\n', stderr);
		}
	}
}

/* "clyde CMD: MSG" on stderr, MSG escaped (core/vis.h): the messages of
 * reading results quote names and values from the files. */
static void say(const char *cmd, const char *msg)
{
	char vis[PATH_MAX + 256];

	fprintf(stderr, "clyde %s: %s\n", cmd,
		clyde_vis(vis, sizeof(vis), msg, 0));
}

int clyde_cli_load_results(struct clyde_ctx *ctx, const char *cmd, char **files,
			   size_t nfiles, bool merge,
			   struct clyde_loaded_set *set)
{
	size_t unread = 0;

	for (size_t i = 0; i < nfiles; i++) {
		size_t before = set->nruns;
		int rc = clyde_loaded_read_file(ctx, files[i], set);

		if (rc) {
			say(cmd, clyde_errmsg(ctx));
			clyde_err_clear(ctx);
			if (rc == -ENOMEM)
				return -1;
		}
		/* A file that gives no result would silently drop its
		 * column: that is an error, not a table with one less. */
		if (rc || set->nruns == before)
			unread++;
	}
	for (size_t i = 0; i < set->nerrors; i++)
		say(cmd, set->errors[i]);
	if (set->nmalformed > set->nerrors)
		fprintf(stderr,
			"clyde %s: %zu more malformed lines not shown\n", cmd,
			set->nmalformed - set->nerrors);
	if (unread) {
		fprintf(stderr,
			"clyde %s: %zu of %zu input%s gave no result; nothing "
			"written\n",
			cmd, unread, nfiles, nfiles == 1 ? "" : "s");
		return -1;
	}
	if (merge && clyde_loaded_merge_repeats(ctx, set)) {
		say(cmd, clyde_errmsg(ctx));
		return -1;
	}
	if (merge)
		warn_disagree(cmd, set);
	if (!set->nruns) {
		fprintf(stderr, "clyde %s: nothing could be read\n", cmd);
		return -1;
	}
	return 0;
}

/* Set once a failed standard output has been reported, so that the
 * dispatcher's check at exit does not say it twice. */
static bool stdout_reported;

/* The errno of the first write to standard output that failed (0: none
 * failed), kept by stdout_write: stdio forgets it (a printf that failed
 * drops its buffer, so the flush at exit has nothing left to fail on). */
static int stdout_errno;

/* Standard output's writer once clyde_cli_stdout_open() installed it:
 * write(2) to fd 1, the first failure's errno kept. */
static ssize_t stdout_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;

	(void)cookie;
	while (done < len) {
		ssize_t n = write(STDOUT_FILENO, buf + done, len - done);

		if (n <= 0) {
			if (n < 0 && !stdout_errno)
				stdout_errno = errno;
			/* 0 is stdio's "error" (fopencookie(3)). */
			return (ssize_t)done;
		}
		done += (size_t)n;
	}
	return (ssize_t)len;
}

static int stdout_close(void *cookie)
{
	(void)cookie;
	if (close(STDOUT_FILENO) == 0 || errno == EINTR)
		return 0;
	if (!stdout_errno)
		stdout_errno = errno;
	return -1;
}

void clyde_cli_stdout_open(void)
{
	static const cookie_io_functions_t io = { .write = stdout_write,
						  .close = stdout_close };
	FILE *f = fopencookie(NULL, "w", io);

	/* Without it, stdio's own stdout: only the reason may be lost. */
	if (!f)
		return;
	/* Buffered as stdio buffers a terminal or a file. */
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	fflush(stdout);
	stdout = f;
}

int clyde_cli_stdout_errno(void)
{
	return stdout_errno;
}

void clyde_cli_stdout_failed(const char *prog, int err)
{
	/* The writer's own errno beats a caller's guess (stdio's EIO). */
	if (stdout_errno)
		err = stdout_errno;
	if (err > 0)
		fprintf(stderr, "%s: standard output: write error: %s\n", prog,
			strerror(err));
	else
		fprintf(stderr, "%s: standard output: write error\n", prog);
	stdout_reported = true;
}

/* Flush stdout; 0, or the errno of the failure (-1 when it is gone). */
static int flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return stdout_errno ? stdout_errno : errno ? errno : -1;
}

int clyde_cli_stdout_done(const char *cmd)
{
	char prog[64];
	int err = flush_stdout();

	if (!err)
		return 0;
	snprintf(prog, sizeof(prog), "clyde %s", cmd);
	clyde_cli_stdout_failed(prog, err > 0 ? err : 0);
	return -1;
}

int clyde_cli_stdout_close(const char *prog, int status, int failed)
{
	int err = flush_stdout();

	/* fclose() may report what a flush did not (a delayed write error
	 * of a file on NFS); nothing writes to stdout after this. */
	errno = 0;
	if (fclose(stdout) != 0 && !err)
		err = stdout_errno ? stdout_errno : errno ? errno : -1;
	if (!err)
		return status;
	if (!stdout_reported)
		clyde_cli_stdout_failed(prog, err > 0 ? err : 0);
	return status == CLYDE_EXIT_OK ? failed : status;
}

void clyde_cli_put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

void clyde_cli_note_stale_tmp(const char *prog, const char *path)
{
	char **names = NULL;
	size_t n = 0;

	if (clyde_outfile_find_stale(path, &names, &n) == 0)
		for (size_t i = 0; i < n; i++) {
			/* The names come from the command line: escaped. */
			fprintf(stderr, "%s: note: ", prog);
			clyde_vis_fputs(names[i], stderr, 0);
			fputs(" is the temporary file of a write to ", stderr);
			clyde_vis_fputs(path, stderr, 0);
			fputs(" that never finished (a killed clyde), unless "
			      "another clyde writes it now; remove it with: "
			      "rm -- ",
			      stderr);
			clyde_cli_put_quoted(stderr, names[i]);
			fputc('\n', stderr);
		}
	clyde_outfile_free_names(names, n);
}

int clyde_cli_results_add_labels(struct clyde_cli_results *r, const char *s)
{
	char *copy = strdup(s), *p, **ns, **nl;

	if (!copy)
		return -ENOMEM;
	ns = realloc(r->store, (r->nstore + 1) * sizeof(*ns));
	if (!ns) {
		free(copy);
		return -ENOMEM;
	}
	r->store = ns;
	r->store[r->nstore++] = copy;
	for (p = copy;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		nl = realloc(r->labels, (r->nlabels + 1) * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		r->labels = nl;
		r->labels[r->nlabels++] = p;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

const struct clyde_opt_choice clyde_cli_compare_formats[] = {
	{ "text", CLYDE_COMPARE_TEXT },
	{ "markdown", CLYDE_COMPARE_MARKDOWN },
	{ "md", CLYDE_COMPARE_MARKDOWN },
	{ "csv", CLYDE_COMPARE_CSV },
	{ NULL, 0 },
};

int clyde_cli_results_label_opt(void *base, const struct clyde_opt *o,
				const char *name, const char *arg, char *err,
				size_t len)
{
	struct clyde_cli_results *r =
		(struct clyde_cli_results *)((char *)base + o->off);

	if (clyde_cli_results_add_labels(r, arg) < 0) {
		snprintf(err, len, "%s: out of memory", name);
		return -1;
	}
	return 0;
}

int clyde_cli_results_parse(const char *cmd, const struct clyde_optset *set,
			    int argc, char **argv, void *base,
			    struct clyde_cli_results *r, void (*usage)(FILE *f))
{
	struct clyde_optset s = *set;
	char err[512];
	int n = 0, rc;

	memset(r, 0, sizeof(*r));
	r->files = calloc((size_t)argc + 1, sizeof(*r->files));
	if (!r->files) {
		fprintf(stderr, "clyde %s: out of memory\n", cmd);
		return -1;
	}
	s.max_operands = argc;
	rc = clyde_opt_parse(&s, argc, argv, base, (const char **)r->files, &n,
			     err, sizeof(err));
	r->nfiles = (size_t)n;
	if (rc == CLYDE_OPT_STOP_HELP) {
		usage(stdout);
		return 1;
	}
	if (rc != CLYDE_OPT_PARSED) {
		fprintf(stderr, "clyde %s: %s\n", cmd, err);
		return -1;
	}
	if (!r->nfiles) {
		fprintf(stderr, "clyde %s: no result files given\n", cmd);
		return -1;
	}
	return 0;
}

void clyde_cli_results_release(struct clyde_cli_results *r)
{
	for (size_t i = 0; i < r->nstore; i++)
		free(r->store[i]);
	free(r->store);
	free(r->labels);
	free(r->files);
	memset(r, 0, sizeof(*r));
}

int clyde_cli_results_table(struct clyde_ctx *ctx, const char *cmd,
			    const struct clyde_cli_results *r,
			    struct clyde_loaded_set *set,
			    struct clyde_compare *cmp)
{
	struct clyde_compare_opts o = { NULL, 0, 0 };

	if (clyde_cli_load_results(ctx, cmd, r->files, r->nfiles, r->merge,
				   set) < 0)
		return -1;
	o.labels = (const char *const *)r->labels;
	o.nlabels = r->nlabels;
	o.baseline = r->baseline;
	if (clyde_compare_build(ctx, set, &o, cmp)) {
		say(cmd, clyde_errmsg(ctx));
		return -1;
	}
	return 0;
}

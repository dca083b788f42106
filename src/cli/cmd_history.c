/*
 * `clyde history`: the results kept in the SQLite history (see
 * report/history.h): list, show, compare, export, import, delete.
 *
 *   clyde history [--db PATH] COMMAND [OPTION]... [ARG]...
 *
 * Every message is one line on stderr starting "clyde history"; exit 0
 * when everything asked for was done, 1 for a bad command line, an
 * unknown id, an unusable database or an input that was not (fully)
 * imported.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "core/outfile.h"
#include "report/compare.h"
#include "report/history.h"
#include "report/loaded.h"

static const char usage_text[] =
	"Usage: clyde history [--db PATH] COMMAND [OPTION]... [ARG]...\n"
	"Keep, list and compare results in an SQLite database.\n"
	"\n"
	"Commands:\n"
	"  list [--limit N]       stored runs, newest first: id, date, label,\n"
	"                         target, filesystem, key figures\n"
	"  show ID                one run: where, how, and every figure\n"
	"  compare ID...          the compare table of stored runs\n"
	"      --format FMT       text (default), markdown or csv\n"
	"      --baseline ID      change in percent against run ID\n"
	"      --label NAME       a column's label (repeat, in order)\n"
	"  export ID [-o FILE]    the stored result as it was saved\n"
	"  import FILE...         bonnie++ CSV lines (each one run) or a\n"
	"                         clyde JSON result\n"
	"  delete ID              remove a run\n"
	"\n"
	"Options:\n"
	"      --db PATH          the database (default:\n"
	"                         $XDG_DATA_HOME/clyde/results.db or\n"
	"                         ~/.local/share/clyde/results.db)\n"
	"  -h, --help             this help\n";

/* What every subcommand gets. */
struct hist_cli {
	struct clyde_ctx ctx;
	const char *db; /* NULL: the default path */
	const char *cmd;
};

static int usage_error(const struct hist_cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(const struct hist_cli *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "clyde history%s%s: ", c->cmd ? " " : "",
		c->cmd ? c->cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("; see clyde history --help\n", stderr);
	return CLYDE_EXIT_USAGE;
}

/* Print the context's message and return exit status 1. */
static int fail(struct hist_cli *c)
{
	const char *m = clyde_errmsg(&c->ctx);

	fprintf(stderr, "clyde history %s: %s\n", c->cmd, m[0] ? m : "failed");
	return CLYDE_EXIT_USAGE;
}

/* Writing the result on standard output failed with -err. */
static int stdout_failed(struct hist_cli *c, int err)
{
	fprintf(stderr, "clyde history %s: standard output: write: %s\n",
		c->cmd, strerror(-err));
	return CLYDE_EXIT_USAGE;
}

/* A run id: a positive decimal integer. */
static int parse_id(const char *s, int64_t *id)
{
	char *end;
	long long v;

	if (!s || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v <= 0)
		return -EINVAL;
	*id = v;
	return 0;
}

/* Parse the positional ids argv[first..argc); at least `min`. */
static int parse_ids(struct hist_cli *c, int argc, char **argv, int first,
		     int min, int max, int64_t **ids, size_t *n)
{
	int cnt = argc - first;

	if (cnt < min)
		return usage_error(c, "%s",
				   min == 1 ? "a run id is missing" :
					      "give two or more run "
					      "ids");
	if (max > 0 && cnt > max)
		return usage_error(c, "unexpected argument \"%s\"",
				   argv[first + max]);
	*ids = calloc((size_t)cnt, sizeof(**ids));
	if (!*ids)
		return fprintf(stderr, "clyde history: out of memory\n"),
		       CLYDE_EXIT_USAGE;
	for (int i = 0; i < cnt; i++)
		if (parse_id(argv[first + i], &(*ids)[i]) < 0) {
			free(*ids);
			*ids = NULL;
			return usage_error(c, "\"%s\" is not a run id",
					   argv[first + i]);
		}
	*n = (size_t)cnt;
	return 0;
}

enum {
	OPT_DB = 256,
	OPT_LIMIT,
	OPT_FORMAT,
	OPT_BASELINE,
	OPT_LABEL
};

/* getopt_long with clyde's message for an unknown option or a missing
 * argument.  Returns the option, -1 at the end, or '?' after printing. */
static int next_opt(struct hist_cli *c, int argc, char **argv,
		    const char *shortopts, const struct option *longopts)
{
	int o = getopt_long(argc, argv, shortopts, longopts, NULL);

	if (o == '?' || o == ':') {
		const char *bad = argv[optind - 1];

		if (o == ':' || (optopt && strchr(shortopts, optopt)))
			usage_error(c, "%s needs an argument", bad);
		else if (optopt)
			usage_error(c, "unknown option \"-%c\"", optopt);
		else
			usage_error(c, "unknown option \"%s\"", bad);
		return '?';
	}
	return o;
}

static int open_db(struct hist_cli *c, bool create, struct clyde_history **h)
{
	if (clyde_history_open(&c->ctx, c->db, create, h) < 0)
		return fail(c);
	return 0;
}

/* list, show, compare and export only read: nothing is written to the
 * database or beside it (it may be read-only, or someone else's). */
static int open_db_ro(struct hist_cli *c, struct clyde_history **h)
{
	if (clyde_history_open_readonly(&c->ctx, c->db, h) < 0)
		return fail(c);
	return 0;
}

/* ---- list ------------------------------------------------------------ */

static void fmt_date(char *buf, size_t len, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t < 0 || !localtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "-");
}

/* One key figure as the list shows it: MiB/s for the IO rates. */
static void fmt_fig(char *buf, size_t len, const struct clyde_history_figure *f,
		    double divisor, int decimals)
{
	switch (f->state) {
	case CLYDE_HIST_FIG_VALUE:
		snprintf(buf, len, "%s%.*f", f->too_fast ? "~" : "", decimals,
			 f->value / divisor);
		break;
	case CLYDE_HIST_FIG_TOO_FAST:
		snprintf(buf, len, "+++++");
		break;
	default:
		snprintf(buf, len, "-");
	}
}

#define LIST_COLS 10

static const struct {
	const char *head;
	int right; /* right-aligned (numbers) */
} list_cols[LIST_COLS] = {
	{ "ID", 1 },	      { "DATE", 0 },	   { "LABEL", 0 },
	{ "KIND", 0 },	      { "TARGET", 0 },	   { "FS", 0 },
	{ "WRITE MiB/s", 1 }, { "READ MiB/s", 1 }, { "SEEKS/s", 1 },
	{ "CREATE/s", 1 },
};

static int cmd_list(struct hist_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ NULL, 0, NULL, 0 },
	};
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h;
	char *cells = NULL;
	size_t n = 0, limit = 0, w[LIST_COLS];
	int o, rc;

	optind = 0;
	while ((o = next_opt(c, argc, argv, ":", longopts)) != -1) {
		if (o == '?')
			return CLYDE_EXIT_USAGE;
		if (o == OPT_DB) {
			c->db = optarg;
		} else if (o == OPT_LIMIT) {
			int64_t v;

			if (parse_id(optarg, &v) < 0)
				return usage_error(c,
						   "--limit \"%s\": must be a "
						   "positive number",
						   optarg);
			limit = (size_t)v;
		}
	}
	if (optind < argc)
		return usage_error(c, "unexpected argument \"%s\"",
				   argv[optind]);

	rc = clyde_history_open_readonly(&c->ctx, c->db, &h);
	if (rc == -ENOENT) {
		/* Nothing saved yet is not an error of `list`. */
		fprintf(stderr, "clyde history list: %s\n",
			clyde_errmsg(&c->ctx));
		return CLYDE_EXIT_OK;
	}
	if (rc < 0)
		return fail(c);
	rc = clyde_history_list(&c->ctx, h, limit, &e, &n);
	clyde_history_close(h);
	if (rc < 0)
		return fail(c);

	/* Render every cell first: the columns are as wide as their
	 * widest cell. */
	cells = calloc((n + 1) * LIST_COLS, 256);
	if (!cells) {
		clyde_history_entries_free(e, n);
		fprintf(stderr, "clyde history list: out of memory\n");
		return CLYDE_EXIT_USAGE;
	}
	for (int j = 0; j < LIST_COLS; j++)
		snprintf(cells + j * 256, 256, "%s", list_cols[j].head);
	for (size_t i = 0; i < n; i++) {
		char *r = cells + (i + 1) * LIST_COLS * 256;

		snprintf(r, 256, "%" PRId64, e[i].id);
		fmt_date(r + 256, 256, e[i].started_unix);
		snprintf(r + 2 * 256, 256, "%s",
			 e[i].label[0] ? e[i].label : "-");
		snprintf(r + 3 * 256, 256, "%s", e[i].kind);
		snprintf(r + 4 * 256, 256, "%s",
			 e[i].target_path[0] ? e[i].target_path : "-");
		snprintf(r + 5 * 256, 256, "%s",
			 e[i].fstype[0] ? e[i].fstype : "-");
		fmt_fig(r + 6 * 256, 256, &e[i].fig[CLYDE_PUT_BLOCK], 1048576.0,
			1);
		fmt_fig(r + 7 * 256, 256, &e[i].fig[CLYDE_GET_BLOCK], 1048576.0,
			1);
		fmt_fig(r + 8 * 256, 256, &e[i].fig[CLYDE_SEEKS], 1.0, 1);
		fmt_fig(r + 9 * 256, 256, &e[i].fig[CLYDE_SEQ_CREATE], 1.0, 0);
	}
	for (int j = 0; j < LIST_COLS; j++) {
		w[j] = 0;
		for (size_t i = 0; i <= n; i++) {
			size_t l = strlen(cells + (i * LIST_COLS + j) * 256);

			if (l > w[j])
				w[j] = l;
		}
	}
	for (size_t i = 0; i <= n; i++) {
		for (int j = 0; j < LIST_COLS; j++) {
			const char *s = cells + (i * LIST_COLS + j) * 256;
			int last = j == LIST_COLS - 1;

			if (list_cols[j].right)
				printf("%*s", (int)w[j], s);
			else if (last)
				printf("%s", s);
			else
				printf("%-*s", (int)w[j], s);
			if (!last)
				fputs("  ", stdout);
		}
		putchar('\n');
	}
	free(cells);
	clyde_history_entries_free(e, n);
	return CLYDE_EXIT_OK;
}

/* ---- loading stored runs for show and compare ------------------------ */

/* Append the stored run `id` to set.  Returns 0 or prints and returns 1. */
static int load_stored(struct hist_cli *c, struct clyde_history *h, int64_t id,
		       struct clyde_history_entry *e,
		       struct clyde_loaded_set *set)
{
	char name[64], *doc = NULL;
	size_t len = 0, before = set->nruns, errs = set->nerrors;

	if (clyde_history_get(&c->ctx, h, id, e, &doc, &len) < 0)
		return fail(c);
	snprintf(name, sizeof(name), "history:%" PRId64, id);
	if (clyde_loaded_read_buffer(&c->ctx, doc, len, name, set) < 0) {
		free(doc);
		return fail(c);
	}
	free(doc);
	/* What the loader could not read is said, not dropped in silence. */
	for (size_t i = errs; i < set->nerrors; i++)
		fprintf(stderr, "clyde history %s: %s\n", c->cmd,
			set->errors[i]);
	if (set->nruns != before + 1) {
		fprintf(stderr,
			"clyde history %s: run %" PRId64
			" cannot be read back\n",
			c->cmd, id);
		return CLYDE_EXIT_USAGE;
	}
	return 0;
}

/* ---- show ------------------------------------------------------------ */

static int cmd_show(struct hist_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ NULL, 0, NULL, 0 },
	};
	struct clyde_history_entry e = { 0 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_compare_opts copts = { 0 };
	struct clyde_history *h = NULL;
	int64_t *ids = NULL;
	char date[64], saved[64];
	size_t n, w;
	int o, rc;

	optind = 0;
	while ((o = next_opt(c, argc, argv, ":", longopts)) != -1) {
		if (o == '?')
			return CLYDE_EXIT_USAGE;
		c->db = optarg;
	}
	rc = parse_ids(c, argc, argv, optind, 1, 1, &ids, &n);
	if (rc)
		return rc;
	if (open_db_ro(c, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	clyde_loaded_set_init(&set);
	rc = load_stored(c, h, ids[0], &e, &set);
	clyde_history_close(h);
	if (rc)
		goto out;

	fmt_date(date, sizeof(date), e.started_unix);
	fmt_date(saved, sizeof(saved), e.saved_unix);
	/* Keys in one column as wide as the longest. */
	w = strlen("imported from");
	for (size_t i = 0; i < set.runs[0].nkv; i++)
		if (strlen(set.runs[0].kv[i].key) > w)
			w = strlen(set.runs[0].kv[i].key);
	printf("Run %" PRId64 ": %s\n", e.id, e.label[0] ? e.label : "-");
	printf("  %-*s  %s\n", (int)w, "date", date);
	printf("  %-*s  %s\n", (int)w, "kind", e.kind);
	printf("  %-*s  %s\n", (int)w, "saved", saved);
	printf("  %-*s  %s\n", (int)w, "imported from",
	       e.source[0] ? e.source : "- (saved by a run)");
	/* What the run recorded about itself: machine, target, options. */
	for (size_t i = 0; i < set.runs[0].nkv; i++)
		printf("  %-*s  %s\n", (int)w, set.runs[0].kv[i].key,
		       set.runs[0].kv[i].value);
	putchar('\n');

	rc = clyde_compare_build(&c->ctx, &set, &copts, &cmp);
	if (rc < 0) {
		rc = fail(c);
		goto out;
	}
	rc = clyde_compare_write(stdout, &cmp, CLYDE_COMPARE_TEXT);
	if (rc < 0)
		rc = stdout_failed(c, rc);
	clyde_compare_release(&cmp);
out:
	clyde_loaded_set_release(&set);
	clyde_history_entry_release(&e);
	free(ids);
	return rc;
}

/* ---- compare --------------------------------------------------------- */

static int cmd_compare(struct hist_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ NULL, 0, NULL, 0 },
	};
	enum clyde_compare_format fmt = CLYDE_COMPARE_TEXT;
	struct clyde_compare_opts copts = { 0 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_history *h = NULL;
	const char **labels = NULL;
	char **deflabels = NULL;
	size_t nlabels = 0, n = 0;
	int64_t *ids = NULL, baseline = 0;
	int o, rc;

	labels = calloc((size_t)argc, sizeof(*labels));
	if (!labels)
		return fprintf(stderr, "clyde history: out of memory\n"),
		       CLYDE_EXIT_USAGE;
	optind = 0;
	while ((o = next_opt(c, argc, argv, ":", longopts)) != -1) {
		switch (o) {
		case OPT_DB:
			c->db = optarg;
			break;
		case OPT_FORMAT:
			if (clyde_compare_parse_format(optarg, &fmt) < 0) {
				free(labels);
				return usage_error(c,
						   "--format \"%s\": text, "
						   "markdown or csv",
						   optarg);
			}
			break;
		case OPT_BASELINE:
			if (parse_id(optarg, &baseline) < 0) {
				free(labels);
				return usage_error(c,
						   "--baseline \"%s\" is not "
						   "a run id",
						   optarg);
			}
			break;
		case OPT_LABEL:
			labels[nlabels++] = optarg;
			break;
		default:
			free(labels);
			return CLYDE_EXIT_USAGE;
		}
	}
	rc = parse_ids(c, argc, argv, optind, 1, 0, &ids, &n);
	if (rc) {
		free(labels);
		return rc;
	}
	if (nlabels > n) {
		free(labels);
		free(ids);
		return usage_error(c, "%zu labels for %zu runs", nlabels, n);
	}
	if (baseline) {
		for (size_t i = 0; i < n && !copts.baseline; i++)
			if (ids[i] == baseline)
				copts.baseline = (long)i + 1;
		if (!copts.baseline) {
			free(labels);
			free(ids);
			return usage_error(c,
					   "--baseline %" PRId64
					   " is not one of the runs compared",
					   baseline);
		}
	}
	if (open_db_ro(c, &h)) {
		free(labels);
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	clyde_loaded_set_init(&set);
	deflabels = calloc(n, sizeof(*deflabels));
	rc = deflabels ? 0 : CLYDE_EXIT_USAGE;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct clyde_history_entry e = { 0 };

		rc = load_stored(c, h, ids[i], &e, &set);
		/* A column is "#ID label" unless --label says otherwise: ids
		 * are what the user typed, labels are often all the host. */
		if (rc == 0 && i >= nlabels) {
			if (asprintf(&deflabels[i], "#%" PRId64 "%s%s", e.id,
				     e.label[0] ? " " : "", e.label) < 0) {
				deflabels[i] = NULL;
				rc = CLYDE_EXIT_USAGE;
			} else {
				labels[i] = deflabels[i];
			}
		}
		clyde_history_entry_release(&e);
	}
	clyde_history_close(h);
	if (rc)
		goto out;
	copts.labels = labels;
	copts.nlabels = n;
	if (clyde_compare_build(&c->ctx, &set, &copts, &cmp) < 0) {
		rc = fail(c);
		goto out;
	}
	rc = clyde_compare_write(stdout, &cmp, fmt);
	if (rc < 0)
		rc = stdout_failed(c, rc);
	clyde_compare_release(&cmp);
out:
	for (size_t i = 0; deflabels && i < n; i++)
		free(deflabels[i]);
	free(deflabels);
	clyde_loaded_set_release(&set);
	free(labels);
	free(ids);
	return rc;
}

/* ---- export ---------------------------------------------------------- */

static int cmd_export(struct hist_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct clyde_history *h = NULL;
	struct clyde_outfile of;
	const char *out = "-";
	int64_t *ids = NULL;
	char *doc = NULL;
	size_t n, len = 0;
	int o, rc;

	optind = 0;
	while ((o = next_opt(c, argc, argv, ":o:", longopts)) != -1) {
		if (o == '?')
			return CLYDE_EXIT_USAGE;
		if (o == 'o')
			out = optarg;
		else
			c->db = optarg;
	}
	rc = parse_ids(c, argc, argv, optind, 1, 1, &ids, &n);
	if (rc)
		return rc;
	if (open_db_ro(c, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	rc = clyde_history_get(&c->ctx, h, ids[0], NULL, &doc, &len) < 0 ?
		     fail(c) :
		     0;
	clyde_history_close(h);
	free(ids);
	if (rc)
		return rc;
	/* A temporary file renamed over FILE: a full disk keeps the old
	 * content of FILE, never half a result. */
	rc = clyde_outfile_open(&of, out);
	if (rc < 0) {
		fprintf(stderr, "clyde history export: %s: %s\n", out,
			strerror(-rc));
		free(doc);
		return CLYDE_EXIT_USAGE;
	}
	fwrite(doc, 1, len, of.f);
	/* A CSV line is stored without its line end. */
	if (len == 0 || doc[len - 1] != '\n')
		fputc('\n', of.f);
	free(doc);
	rc = clyde_outfile_commit(&of);
	if (rc < 0) {
		fprintf(stderr, "clyde history export: %s: write: %s\n",
			strcmp(out, "-") ? out : "standard output",
			strerror(-rc));
		return CLYDE_EXIT_USAGE;
	}
	return 0;
}

/* ---- import ---------------------------------------------------------- */

static int cmd_import(struct hist_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ NULL, 0, NULL, 0 },
	};
	struct clyde_history *h = NULL;
	char path[PATH_MAX];
	struct stat st;
	size_t nstored = 0;
	bool existed;
	int o, status = CLYDE_EXIT_OK;

	optind = 0;
	while ((o = next_opt(c, argc, argv, ":", longopts)) != -1) {
		if (o == '?')
			return CLYDE_EXIT_USAGE;
		c->db = optarg;
	}
	if (optind >= argc)
		return usage_error(c, "no file to import");
	if (c->db)
		snprintf(path, sizeof(path), "%s", c->db);
	else if (clyde_history_default_path(&c->ctx, path, sizeof(path)) < 0)
		return fail(c);
	existed = lstat(path, &st) == 0;
	if (open_db(c, true, &h))
		return CLYDE_EXIT_USAGE;
	for (int i = optind; i < argc; i++) {
		struct clyde_history_import imp;

		clyde_history_import_init(&imp);
		if (clyde_history_import_file(&c->ctx, h, argv[i], &imp) < 0) {
			fail(c);
			clyde_err_clear(&c->ctx);
			status = CLYDE_EXIT_USAGE;
		} else {
			for (size_t j = 0; j < imp.nerrors; j++)
				fprintf(stderr, "clyde history import: %s\n",
					imp.errors[j]);
			if (imp.nerrors)
				status = CLYDE_EXIT_USAGE;
			if (imp.nids == 0) {
				fprintf(stderr,
					"clyde history import: %s: no "
					"results in it\n",
					argv[i]);
				status = CLYDE_EXIT_USAGE;
			} else {
				nstored += imp.nids;
				printf("%s: %zu run%s imported, id%s", argv[i],
				       imp.nids, imp.nids == 1 ? "" : "s",
				       imp.nids == 1 ? "" : "s");
				for (size_t j = 0; j < imp.nids; j++)
					printf("%s%" PRId64, j ? ", " : " ",
					       imp.ids[j]);
				putchar('\n');
			}
		}
		clyde_history_import_release(&imp);
	}
	/* An import that stored nothing in a database it created removes
	 * it again: a mistyped file name leaves no empty history behind. */
	if (!existed && nstored == 0)
		clyde_history_close_discard_empty(h);
	else
		clyde_history_close(h);
	return status;
}

/* ---- delete ---------------------------------------------------------- */

static int cmd_delete(struct hist_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ NULL, 0, NULL, 0 },
	};
	struct clyde_history *h = NULL;
	int64_t *ids = NULL;
	size_t n;
	int o, rc = 0;

	optind = 0;
	while ((o = next_opt(c, argc, argv, ":", longopts)) != -1) {
		if (o == '?')
			return CLYDE_EXIT_USAGE;
		c->db = optarg;
	}
	rc = parse_ids(c, argc, argv, optind, 1, 0, &ids, &n);
	if (rc)
		return rc;
	if (open_db(c, false, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (clyde_history_delete(&c->ctx, h, ids[i]) < 0)
			rc = fail(c);
	clyde_history_close(h);
	free(ids);
	return rc;
}

/* ---- dispatch -------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(struct hist_cli *c, int argc, char **argv);
} subcommands[] = {
	{ "list", cmd_list },	    { "show", cmd_show },
	{ "compare", cmd_compare }, { "export", cmd_export },
	{ "import", cmd_import },   { "delete", cmd_delete },
};

int clyde_cmd_history(int argc, char **argv)
{
	struct hist_cli c = { .db = NULL, .cmd = NULL };
	char name[32];
	int i = 1, rc = CLYDE_EXIT_USAGE;

	/* Options before the command: --db and --help. */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return CLYDE_EXIT_OK;
		} else if (!strcmp(argv[i], "--db")) {
			if (++i >= argc)
				return usage_error(&c, "--db needs a path");
			c.db = argv[i];
		} else if (!strncmp(argv[i], "--db=", 5)) {
			c.db = argv[i] + 5;
		} else {
			return usage_error(&c, "unknown option \"%s\"",
					   argv[i]);
		}
	}
	if (i >= argc)
		return usage_error(&c, "no command (list, show, compare, "
				       "export, import, delete)");
	if (!clyde_history_available()) {
		fprintf(stderr, "clyde history: clyde was built without "
				"SQLite, so there is no results history\n");
		return CLYDE_EXIT_USAGE;
	}
	for (size_t k = 0; k < sizeof(subcommands) / sizeof(subcommands[0]);
	     k++) {
		if (strcmp(argv[i], subcommands[k].name))
			continue;
		if (c.db && !c.db[0])
			return usage_error(&c, "--db needs a path");
		for (int k2 = i + 1; k2 < argc; k2++)
			if (!strcmp(argv[k2], "--help") ||
			    !strcmp(argv[k2], "-h")) {
				fputs(usage_text, stdout);
				return CLYDE_EXIT_OK;
			}
		clyde_ctx_init(&c.ctx);
		c.cmd = subcommands[k].name;
		opterr = 0;
		rc = subcommands[k].fn(&c, argc - i, argv + i);
		clyde_ctx_release(&c.ctx);
		/* What was printed must have reached its reader
		 * (`history list > /dev/full` is a failure).  A command that
		 * failed has said why, a failed write included: once is
		 * enough. */
		snprintf(name, sizeof(name), "history %s", c.cmd);
		if (rc == 0 && clyde_cli_stdout_done(name) < 0)
			rc = CLYDE_EXIT_USAGE;
		return rc;
	}
	return usage_error(&c, "unknown command \"%s\"", argv[i]);
}

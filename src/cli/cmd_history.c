/*
 * `clyde history`: the results kept in the SQLite history (see
 * store/history.h): list, show, compare, report, export, import, label,
 * note, delete.
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
#include <math.h>
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
#include "cli/hist_changes.h"
#include "cli/optmodel.h"
#include "core/outfile.h"
#include "core/vis.h"
#include "report/compare.h"
#include "store/history.h"
#include "report/html.h"
#include "results/loaded.h"

/* What every subcommand gets. */
struct hist_cli {
	struct clyde_ctx ctx;
	const char *db; /* NULL: the default path */
	const char *cmd;
	char **operands; /* hist_parse's argv of operands; freed at the end */
};

static int usage_error(const struct hist_cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(const struct hist_cli *c, const char *fmt, ...)
{
	char msg[1024], vis[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The message may quote an argument: escaped (core/vis.h). */
	fprintf(stderr, "clyde history%s%s: %s; see clyde history --help\n",
		c->cmd ? " " : "", c->cmd ? c->cmd : "",
		clyde_vis(vis, sizeof(vis), msg, 0));
	return CLYDE_EXIT_USAGE;
}

/* Print the context's message and return exit status 1. */
static int fail(struct hist_cli *c)
{
	const char *m = clyde_errmsg(&c->ctx);
	char vis[1024];

	fprintf(stderr, "clyde history %s: %s\n", c->cmd,
		m[0] ? clyde_vis(vis, sizeof(vis), m, 0) : "failed");
	return CLYDE_EXIT_USAGE;
}

/* Writing the result on standard output failed with -err. */
static int stdout_failed(struct hist_cli *c, int err)
{
	char prog[64];

	snprintf(prog, sizeof(prog), "clyde history %s", c->cmd);
	clyde_cli_stdout_failed(prog, -err);
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

/* The options of the subcommands, as fields of one struct. */
struct hist_opts {
	const char *db;
	uint64_t limit;
	const char *output;
	bool all;
	const char *label;
	bool force;
	struct clyde_cli_results labels; /* --labels, split at commas */
	bool labels_failed;		 /* out of memory in --labels */
};

/* --labels A,B,...: repeatable, split as compare's --label. */
static int opt_labels(void *base, const struct clyde_opt *o, const char *name,
		      const char *arg, char *err, size_t len)
{
	struct hist_opts *h = base;

	(void)o;
	if (clyde_cli_results_add_labels(&h->labels, arg) < 0) {
		snprintf(err, len, "%s: out of memory", name);
		return -1;
	}
	return 0;
}

#define HIST_FIELD(M) CLYDE_OPT_FIELD(struct hist_opts, M)

/*
 * Each subcommand's options, one entry each (cli/optmodel.h), listed per
 * subcommand below.  To add one: a field in struct hist_opts, an entry
 * here, its name in the subcommand's table (hist_help shows it) and a
 * line in docs/clyde.1 (HISTORY).
 */
#define OPT_H_DB                                                       \
	{                                                              \
		.name = "db", .type = CLYDE_OPT_STRING, .arg = "PATH", \
		HIST_FIELD(db), .kind = "path", .help = "the database" \
	}
#define OPT_H_LIMIT                                                  \
	{                                                            \
		.name = "limit", .type = CLYDE_OPT_UINT, .arg = "N", \
		HIST_FIELD(limit), .min = 1, .max = INT64_MAX,       \
		.help = "the newest N runs only"                     \
	}
#define OPT_H_OUTPUT                                                           \
	{                                                                      \
		.short_name = 'o', .name = "output", .type = CLYDE_OPT_STRING, \
		.arg = "FILE", HIST_FIELD(output), .kind = "file name",        \
		.help = "the file, or the directory for several JSON results"  \
	}
#define OPT_H_ALL                                                       \
	{                                                               \
		.name = "all", .type = CLYDE_OPT_FLAG, HIST_FIELD(all), \
		.help = "every stored run, oldest first"                \
	}
#define OPT_H_LABEL                                                       \
	{                                                                 \
		.name = "label", .type = CLYDE_OPT_STRING, .arg = "NAME", \
		HIST_FIELD(label), .kind = "label", .empty_ok = true,     \
		.help = "label every imported run NAME"                   \
	}
#define OPT_H_LABELS                                                          \
	{                                                                     \
		.name = "labels", .type = CLYDE_OPT_CALL, .arg = "A,B,...",   \
		.call = opt_labels,                                           \
		.help = "label the results in order (one per CSV line, JSON " \
			"file or fio job; the count must match)"              \
	}
#define OPT_H_FORCE                                                         \
	{                                                                   \
		.name = "force", .type = CLYDE_OPT_FLAG, HIST_FIELD(force), \
		.help = "store results that are stored already"             \
	}

static const struct clyde_opt list_opts[] = { OPT_H_DB, OPT_H_LIMIT };
static const struct clyde_opt db_opts[] = { OPT_H_DB };
static const struct clyde_opt export_opts[] = { OPT_H_DB, OPT_H_OUTPUT,
						OPT_H_ALL };
static const struct clyde_opt import_opts[] = { OPT_H_DB, OPT_H_LABEL,
						OPT_H_LABELS, OPT_H_FORCE };

#define HIST_OPTS(T) (T), sizeof(T) / sizeof((T)[0])

/*
 * Parse a subcommand's argv with its table into o; --db goes to c->db.
 * On success *argc and *argv are replaced by the command name and the
 * operands alone (c->operands, freed by clyde_cmd_history), so that the
 * operands start at index 1.  Returns 0, or an exit status after the
 * message.
 */
static int hist_parse(struct hist_cli *c, const struct clyde_opt *table,
		      size_t n, int *argc, char ***argv, struct hist_opts *o)
{
	const struct clyde_optset set = { .prog = "clyde history",
					  .opts = table,
					  .nopts = n,
					  .max_operands = *argc };
	char err[512];
	int nops = 0, rc;

	memset(o, 0, sizeof(*o));
	o->db = c->db;
	free(c->operands);
	c->operands = calloc((size_t)*argc + 1, sizeof(char *));
	if (!c->operands)
		return fprintf(stderr, "clyde history: out of memory\n"),
		       CLYDE_EXIT_USAGE;
	rc = clyde_opt_parse(&set, *argc, *argv, o,
			     (const char **)c->operands + 1, &nops, err,
			     sizeof(err));
	if (rc != CLYDE_OPT_PARSED) {
		clyde_cli_results_release(&o->labels);
		fprintf(stderr, "clyde history %s: %s\n", c->cmd, err);
		return CLYDE_EXIT_USAGE;
	}
	c->db = o->db;
	c->operands[0] = (*argv)[0];
	*argc = nops + 1;
	*argv = c->operands;
	return 0;
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

/* A column of key figures: its test and unit. */
struct fig_col {
	enum clyde_test test;
	const char *base_unit; /* of the stored value */
	double divisor;	       /* to the unit in the header */
};

/* One key figure as the list shows it, rounded by the compare table's
 * own function (clyde_compare_cell_text(), clyde_fmt_readable()), so that
 * one value reads alike in both; "+++++" for a bonnie++ "too fast"
 * without a number. */
static void fmt_fig(char *buf, size_t len, const struct clyde_history_figure *f,
		    const struct fig_col *col)
{
	double v = f->value / col->divisor;
	struct clyde_cmp_row row = { .metric = CLYDE_CMP_RATE,
				     .divisor = col->divisor };
	struct clyde_cmp_cell cell = { .n = 1 };

	snprintf(row.base_unit, sizeof(row.base_unit), "%s", col->base_unit);
	switch (f->state) {
	case CLYDE_HIST_FIG_VALUE:
		cell.state = f->too_fast ? CLYDE_LOADED_TOO_FAST :
					   CLYDE_LOADED_VALUE;
		cell.has_value = true;
		cell.value = f->value;
		/* A whole number (a CSV's 888 files/s) is a row of whole
		 * numbers to compare: no false decimals. */
		row.whole = !f->too_fast && v == floor(v);
		clyde_compare_cell_text(buf, len, &row, &cell);
		break;
	case CLYDE_HIST_FIG_TOO_FAST:
		snprintf(buf, len, "+++++");
		break;
	default:
		snprintf(buf, len, "-");
	}
}

static const struct fig_col fig_cols[] = {
	{ CLYDE_PUT_BLOCK, "B/s", 1048576.0 },
	{ CLYDE_GET_BLOCK, "B/s", 1048576.0 },
	{ CLYDE_SEEKS, "seeks/s", 1.0 },
	{ CLYDE_SEQ_CREATE, "files/s", 1.0 },
};

#define LIST_COLS 17
#define CELL 256

static const struct {
	const char *head;
	int right; /* right-aligned (numbers) */
} list_cols[LIST_COLS] = {
	{ "ID", 1 },	      { "DATE", 0 },	   { "LABEL", 0 },
	{ "KIND", 0 },	      { "TARGET", 0 },	   { "FS", 0 },
	{ "SIZE", 1 },	      { "FILES", 1 },	   { "CHUNK", 1 },
	{ "O_DIRECT", 0 },    { "ENGINE", 0 },	   { "DEPTH", 1 },
	{ "WRITE MiB/s", 1 }, { "READ MiB/s", 1 }, { "SEEKS/s", 1 },
	{ "CREATE/s", 1 },    { "NOTE", 0 },
};

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

/* The label column in buf: a sweep's run that kept the default label
 * (the host name, which every run of the sweep shares) is named by its
 * point's axis values instead ("b: sz=8m ch=4k" when the experiment has
 * several workloads); a label of the user's stays. */
static const char *list_label(char *buf, size_t len,
			      const struct clyde_history_entry *e)
{
	if (!e->point[0] || (e->label[0] && strcmp(e->label, e->host)))
		return e->label;
	snprintf(buf, len, "%s%s%s", e->workload, e->workload[0] ? ": " : "",
		 e->point);
	return buf;
}

/* Fill the cells of one list row. */
static void list_row(char *r, const struct clyde_history_entry *e)
{
	char label[CELL];
	const char *text[] = { list_label(label, sizeof(label), e),
			       e->kind,
			       e->target_path,
			       e->fstype,
			       e->file_size,
			       e->files,
			       e->io_chunk,
			       e->direct,
			       e->engine,
			       e->iodepth };
	const size_t ntext = sizeof(text) / sizeof(text[0]);

	snprintf(r, CELL, "%" PRId64, e->id);
	fmt_date(r + CELL, CELL, e->started_unix);
	/* Labels, notes, paths and host names are the user's or a file's
	 * text: a control character would move the cursor or end the row. */
	for (size_t j = 0; j < ntext; j++)
		clyde_vis(r + (2 + j) * CELL, CELL, or_dash(text[j]), 0);
	for (size_t j = 0; j < sizeof(fig_cols) / sizeof(fig_cols[0]); j++)
		fmt_fig(r + (2 + ntext + j) * CELL, CELL,
			&e->fig[fig_cols[j].test], &fig_cols[j]);
	clyde_vis(r + (LIST_COLS - 1) * CELL, CELL, e->note, 0);
}

static int cmd_list(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts o;
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h;
	char *cells = NULL;
	size_t n = 0, limit = 0, w[LIST_COLS];
	int rc;

	rc = hist_parse(c, HIST_OPTS(list_opts), &argc, &argv, &o);
	if (rc)
		return rc;
	limit = (size_t)o.limit;
	if (argc > 1)
		return usage_error(c, "unexpected argument \"%s\"", argv[1]);

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
	cells = calloc((n + 1) * LIST_COLS, CELL);
	if (!cells) {
		clyde_history_entries_free(e, n);
		fprintf(stderr, "clyde history list: out of memory\n");
		return CLYDE_EXIT_USAGE;
	}
	for (int j = 0; j < LIST_COLS; j++)
		snprintf(cells + j * CELL, CELL, "%s", list_cols[j].head);
	for (size_t i = 0; i < n; i++)
		list_row(cells + (i + 1) * LIST_COLS * CELL, &e[i]);
	for (int j = 0; j < LIST_COLS; j++) {
		w[j] = 0;
		for (size_t i = 0; i <= n; i++) {
			size_t l = strlen(cells + (i * LIST_COLS + j) * CELL);

			if (l > w[j])
				w[j] = l;
		}
	}
	for (size_t i = 0; i <= n; i++) {
		for (int j = 0; j < LIST_COLS; j++) {
			const char *s = cells + (i * LIST_COLS + j) * CELL;
			int last = j == LIST_COLS - 1;

			if (list_cols[j].right)
				printf("%*s", (int)w[j], s);
			else if (last)
				printf("%s", s);
			else
				printf("%-*s", (int)w[j], s);
			/* No trailing blanks before an empty note. */
			if (!last && !(j == LIST_COLS - 2 &&
				       !cells[(i * LIST_COLS + j + 1) * CELL]))
				fputs("  ", stdout);
		}
		putchar('\n');
	}
	free(cells);
	clyde_history_entries_free(e, n);
	return CLYDE_EXIT_OK;
}

/* ---- loading stored runs for show, compare and report ---------------- */

/* Add the key "note" to a loaded run, so that the compare legend and the
 * report's "what differs" table show the user's note. */
static int add_note_kv(struct clyde_loaded_run *r, const char *note)
{
	struct clyde_loaded_kv *kv;

	if (!note[0])
		return 0;
	kv = realloc(r->kv, (r->nkv + 1) * sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	r->kv = kv;
	kv[r->nkv].key = strdup("note");
	kv[r->nkv].value = strdup(note);
	if (!kv[r->nkv].key || !kv[r->nkv].value) {
		free(kv[r->nkv].key);
		free(kv[r->nkv].value);
		return -ENOMEM;
	}
	r->nkv++;
	return 0;
}

/* Append the stored run `id` to set, named by the history's label and
 * carrying its note.  `by_file` names the buffer after the file the run
 * was imported from (so that --merge-repeats can fold the runs of one
 * file), else "history:ID".  Returns 0 or prints and returns 1. */
static int load_stored(struct hist_cli *c, struct clyde_history *h, int64_t id,
		       bool by_file, struct clyde_history_entry *e,
		       struct clyde_loaded_set *set)
{
	char name[PATH_MAX + 32], *doc = NULL;
	size_t len = 0, before = set->nruns, errs = set->nerrors;
	struct clyde_loaded_run *r;

	if (clyde_history_get(&c->ctx, h, id, e, &doc, &len) < 0)
		return fail(c);
	if (by_file && e->source[0])
		snprintf(name, sizeof(name), "%s", e->source);
	else
		snprintf(name, sizeof(name), "history:%" PRId64, id);
	if (clyde_loaded_read_buffer(&c->ctx, doc, len, name, set) < 0) {
		free(doc);
		return fail(c);
	}
	free(doc);
	/* What the loader could not read is said, not dropped in silence. */
	for (size_t i = errs; i < set->nerrors; i++) {
		char vis[1024];

		fprintf(stderr, "clyde history %s: %s\n", c->cmd,
			clyde_vis(vis, sizeof(vis), set->errors[i], 0));
	}
	if (set->nruns != before + 1) {
		fprintf(stderr,
			"clyde history %s: run %" PRId64
			" cannot be read back\n",
			c->cmd, id);
		return CLYDE_EXIT_USAGE;
	}
	r = &set->runs[before];
	if (e->label[0] && strcmp(r->label, e->label)) {
		char *l = strdup(e->label);

		if (!l)
			return fprintf(stderr,
				       "clyde history: out of memory\n"),
			       CLYDE_EXIT_USAGE;
		free(r->label);
		r->label = l;
	}
	if (add_note_kv(r, e->note) < 0)
		return fprintf(stderr, "clyde history: out of memory\n"),
		       CLYDE_EXIT_USAGE;
	return 0;
}

/* "file:line" (or "file") of an imported run into buf. */
static const char *source_text(char *buf, size_t len,
			       const struct clyde_history_entry *e)
{
	if (!e->source[0])
		snprintf(buf, len, "- (saved by a run)");
	else if (e->source_line)
		snprintf(buf, len, "%s:%lu", e->source, e->source_line);
	else
		snprintf(buf, len, "%s", e->source);
	return buf;
}

/* ---- show ------------------------------------------------------------ */

static int cmd_show(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts ho;
	struct clyde_history_entry e = { 0 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_compare_opts copts = { 0 };
	struct clyde_history *h = NULL;
	int64_t *ids = NULL;
	char date[64], saved[64], src[PATH_MAX + 32], v[PATH_MAX + 64], k[256];
	size_t n, w;
	int rc;

	rc = hist_parse(c, HIST_OPTS(db_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	rc = parse_ids(c, argc, argv, 1, 1, 1, &ids, &n);
	if (rc)
		return rc;
	if (open_db_ro(c, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	clyde_loaded_set_init(&set);
	rc = load_stored(c, h, ids[0], false, &e, &set);
	clyde_history_close(h);
	if (rc)
		goto out;

	fmt_date(date, sizeof(date), e.started_unix);
	fmt_date(saved, sizeof(saved), e.saved_unix);
	/* Keys in one column as wide as the longest. */
	w = strlen("imported from");
	for (size_t i = 0; i < set.runs[0].nkv; i++) {
		clyde_vis(k, sizeof(k), set.runs[0].kv[i].key, 0);
		if (strlen(k) > w)
			w = strlen(k);
	}
	/* Every text below is the user's or a file's: escaped (vis.h), so
	 * that a label cannot set the window title or add a line. */
	printf("Run %" PRId64 ": %s\n", e.id,
	       clyde_vis(v, sizeof(v), e.label[0] ? e.label : "-", 0));
	printf("  %-*s  %s\n", (int)w, "date", date);
	printf("  %-*s  %s\n", (int)w, "kind",
	       clyde_vis(v, sizeof(v), e.kind, 0));
	printf("  %-*s  %s\n", (int)w, "saved", saved);
	printf("  %-*s  %s\n", (int)w, "imported from",
	       clyde_vis(v, sizeof(v), source_text(src, sizeof(src), &e), 0));
	if (e.experiment[0]) {
		snprintf(src, sizeof(src), "%s, point %s%s%s", e.experiment,
			 e.point, e.workload[0] ? ", workload " : "",
			 e.workload);
		printf("  %-*s  %s\n", (int)w, "sweep",
		       clyde_vis(v, sizeof(v), src, 0));
	}
	/* What the run recorded about itself (machine, target, options),
	 * and the user's note last. */
	for (size_t i = 0; i < set.runs[0].nkv; i++) {
		clyde_vis(k, sizeof(k), set.runs[0].kv[i].key, 0);
		printf("  %-*s  %s\n", (int)w, k,
		       clyde_vis(v, sizeof(v), set.runs[0].kv[i].value, 0));
	}
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

/* ---- compare and report ---------------------------------------------- */

/* The options of history compare and report: clyde compare's
 * (CLYDE_CLI_RESULTS_OPTS: --label, --baseline, --merge-repeats) and
 * --db; --format (compare); -o/--output and --title (report). */
struct table_opts {
	struct clyde_cli_results r;
	struct hist_cli *c;
	bool report;
	enum clyde_compare_format fmt;
	const char *db, *out, *title;
};

#define TABLE_FIELD(M) CLYDE_OPT_FIELD(struct table_opts, M)
#define OPT_T_DB                                                        \
	{                                                               \
		.name = "db", .type = CLYDE_OPT_STRING, .arg = "PATH",  \
		TABLE_FIELD(db), .kind = "path", .help = "the database" \
	}

/* clyde compare's --label, --baseline and --merge-repeats
 * (CLYDE_CLI_RESULTS_OPTS) in the words of stored runs: --baseline names
 * a run id. */
#define OPT_T_RESULTS                                                      \
	{ .name = "baseline",                                              \
	  .type = CLYDE_OPT_UINT,                                          \
	  .arg = "ID",                                                     \
	  TABLE_FIELD(r.baseline),                                         \
	  .min = 1,                                                        \
	  .max = INT64_MAX,                                                \
	  .kind = "a run id",                                              \
	  .form = "use a run id from clyde history list",                  \
	  .help = "change in percent against run ID" },                    \
		{ .name = "label",                                         \
		  .type = CLYDE_OPT_CALL,                                  \
		  .arg = "A,B,...",                                        \
		  .call = clyde_cli_results_label_opt,                     \
		  TABLE_FIELD(r),                                          \
		  .help = "name the columns in order (repeatable)" },      \
		{ .name = "merge-repeats",                                 \
		  .type = CLYDE_OPT_FLAG,                                  \
		  TABLE_FIELD(r.merge),                                    \
		  .help = "fold runs of one file with the same name and "  \
			  "settings into one column" },                    \
	{                                                                  \
		.short_name = 'h', .name = "help", .type = CLYDE_OPT_HELP, \
		.help = "this help"                                        \
	}

static const struct clyde_opt compare_opts[] = {
	OPT_T_DB,
	{ .name = "format",
	  .type = CLYDE_OPT_ENUM,
	  .arg = "FMT",
	  .choices = clyde_cli_compare_formats,
	  TABLE_FIELD(fmt),
	  .kind = "a format",
	  .help = "the table as text (default), markdown or csv" },
	OPT_T_RESULTS,
};

static const struct clyde_opt report_opts[] = {
	OPT_T_DB,
	{ .short_name = 'o',
	  .name = "output",
	  .type = CLYDE_OPT_STRING,
	  .arg = "FILE",
	  TABLE_FIELD(out),
	  .kind = "file name",
	  .help = "the HTML file (- for standard output)" },
	{ .name = "title",
	  .type = CLYDE_OPT_STRING,
	  .arg = "TEXT",
	  TABLE_FIELD(title),
	  .empty_ok = true,
	  .help = "the page title" },
	OPT_T_RESULTS,
};

/* The options before the subcommand (clyde_opt_parse_head). */
static const struct clyde_opt head_opts[] = {
	{ .name = "db",
	  .type = CLYDE_OPT_STRING,
	  .arg = "PATH",
	  CLYDE_OPT_FIELD(struct hist_cli, db),
	  .kind = "path",
	  .help = "the database (default: $XDG_DATA_HOME/clyde/results.db or "
		  "~/.local/share/clyde/results.db); also after COMMAND" },
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "this help; also after COMMAND" },
};

static const struct clyde_optset head_set = {
	.prog = "clyde history",
	.opts = head_opts,
	.nopts = sizeof(head_opts) / sizeof(head_opts[0]),
};

/* The subcommands in --help: the line, what it does, its options (their
 * tables, without --db and --help: those are head_opts'). */
static const struct {
	const char *spec, *text;
	const struct clyde_opt *opts;
	size_t nopts;
} hist_help[] = {
	{ "list",
	  "stored runs, newest first: id, date, label (a sweep's run: "
	  "its point), target, filesystem, size, files, chunk, O_DIRECT, "
	  "engine, depth, key figures and note",
	  HIST_OPTS(list_opts) },
	{ "show ID", "one run: where, how, and every figure",
	  HIST_OPTS(db_opts) },
	{ "compare ID...", "the compare table of stored runs, as clyde compare",
	  HIST_OPTS(compare_opts) },
	{ "report ID... -o FILE",
	  "the HTML report of clyde report over stored runs",
	  HIST_OPTS(report_opts) },
	{ "export ID...|--all", "the stored results as they were saved",
	  HIST_OPTS(export_opts) },
	{ "import FILE...",
	  "bonnie++ CSV lines (each one run), a clyde JSON result, or fio's "
	  "JSON output (each job one run); one already stored is skipped "
	  "(\"already stored as id N\")",
	  HIST_OPTS(import_opts) },
	{ "label ID NAME", "rename run ID", HIST_OPTS(db_opts) },
	{ "note ID TEXT...", "a note on run ID (\"\" removes it)",
	  HIST_OPTS(db_opts) },
	{ "delete ID...", "remove runs (each is named)", HIST_OPTS(db_opts) },
};

/* --help, made from the tables above. */
static void hist_usage(FILE *f)
{
	fputs("Usage: clyde history [--db PATH] COMMAND [OPTION]... [ARG]...\n"
	      "Keep, list and compare results in an SQLite database.\n"
	      "\n"
	      "Commands:\n",
	      f);
	for (size_t i = 0; i < sizeof(hist_help) / sizeof(hist_help[0]); i++) {
		struct clyde_opt own[16];
		struct clyde_optset set = { .prog = "clyde history",
					    .opts = own };

		clyde_opt_help_line(f, hist_help[i].spec, hist_help[i].text);
		for (size_t k = 0; k < hist_help[i].nopts; k++) {
			const struct clyde_opt *o = &hist_help[i].opts[k];

			if (o->type != CLYDE_OPT_HELP &&
			    strcmp(o->name, "db") &&
			    set.nopts < sizeof(own) / sizeof(own[0]))
				own[set.nopts++] = *o;
		}
		clyde_opt_help(&set, NULL, f);
	}
	clyde_history_changes_help(f);
	fputs("\nOptions:\n", f);
	clyde_opt_help(&head_set, NULL, f);
}

/* The usage for --help; after a usage error the one line that named it
 * is enough. */
static void table_usage(FILE *f)
{
	if (f == stdout)
		hist_usage(f);
}

/*
 * Parse the command line of compare or report, load the stored runs it
 * names and build the table: the same command line as `clyde compare`
 * (clyde_cli_results_parse(): --label split at commas, --baseline,
 * --merge-repeats) with ids for files.  --baseline names a run id.
 * Columns are "#ID label" unless --label names them; with --merge-repeats
 * they keep the runs' labels (folded runs share one).  Returns 0 with
 * *cmp built over *set, 2 after --help, or an exit status (printed).
 */
static int stored_table(struct hist_cli *c, int argc, char **argv,
			struct table_opts *t, struct clyde_loaded_set *set,
			struct clyde_compare *cmp)
{
	struct clyde_compare_opts copts = { 0 };
	struct clyde_cli_results r;
	struct clyde_history *h = NULL;
	const char **labels = NULL;
	char **deflabels = NULL;
	char name[64];
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	snprintf(name, sizeof(name), "history %s", c->cmd);
	{
		const struct clyde_optset oset = {
			.prog = "clyde history",
			.opts = t->report ? report_opts : compare_opts,
			.nopts = t->report ? sizeof(report_opts) /
						     sizeof(report_opts[0]) :
					     sizeof(compare_opts) /
						     sizeof(compare_opts[0]),
		};

		t->db = c->db;
		rc = clyde_cli_results_parse(name, &oset, argc, argv, t, &t->r,
					     table_usage);
		c->db = t->db;
	}
	r = t->r;
	memset(&t->r, 0, sizeof(t->r));
	if (rc != 0) {
		clyde_cli_results_release(&r);
		return rc > 0 ? 2 : CLYDE_EXIT_USAGE;
	}
	rc = parse_ids(c, (int)r.nfiles, r.files, 0, 1, 0, &ids, &n);
	if (rc)
		goto out;
	rc = CLYDE_EXIT_USAGE;
	if (r.nlabels > n) {
		usage_error(c, "%zu labels for %zu runs", r.nlabels, n);
		goto out;
	}
	if (r.baseline && r.merge) {
		usage_error(c, "--baseline and --merge-repeats together: "
			       "compare the merged runs without a baseline");
		goto out;
	}
	for (size_t i = 0; i < n && r.baseline && !copts.baseline; i++)
		if (ids[i] == r.baseline)
			copts.baseline = (long)i + 1;
	if (r.baseline && !copts.baseline) {
		usage_error(c, "--baseline %ld is not one of the runs compared",
			    r.baseline);
		goto out;
	}
	if (open_db_ro(c, &h))
		goto out;
	labels = calloc(n, sizeof(*labels));
	deflabels = calloc(n, sizeof(*deflabels));
	rc = labels && deflabels ? 0 : CLYDE_EXIT_USAGE;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct clyde_history_entry e = { 0 };

		rc = load_stored(c, h, ids[i], r.merge, &e, set);
		/* A column is "#ID label" unless --label says otherwise: ids
		 * are what the user typed, labels are often all the host. */
		if (rc == 0 && i < r.nlabels) {
			labels[i] = r.labels[i];
		} else if (rc == 0) {
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
	if (r.merge) {
		if (clyde_loaded_merge_repeats(&c->ctx, set) < 0) {
			rc = fail(c);
			goto out;
		}
		copts.labels = (const char *const *)r.labels;
		/* More labels than merged columns: compare refuses it. */
		copts.nlabels = r.nlabels;
	} else {
		copts.labels = labels;
		copts.nlabels = n;
	}
	if (clyde_compare_build(&c->ctx, set, &copts, cmp) < 0)
		rc = fail(c);
out:
	for (size_t i = 0; deflabels && i < n; i++)
		free(deflabels[i]);
	free(deflabels);
	free(labels);
	free(ids);
	clyde_cli_results_release(&r);
	return rc;
}

static int cmd_compare(struct hist_cli *c, int argc, char **argv)
{
	struct table_opts t = { .c = c, .fmt = CLYDE_COMPARE_TEXT };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	int rc;

	clyde_loaded_set_init(&set);
	rc = stored_table(c, argc, argv, &t, &set, &cmp);
	if (rc == 0) {
		rc = clyde_compare_write(stdout, &cmp, t.fmt);
		if (rc < 0)
			rc = stdout_failed(c, rc);
		clyde_compare_release(&cmp);
	}
	clyde_loaded_set_release(&set);
	return rc == 2 ? CLYDE_EXIT_OK : rc;
}

/* The report, through a temporary file renamed over `out`: a failure
 * keeps what was there. */
static int cmd_report(struct hist_cli *c, int argc, char **argv)
{
	struct table_opts t = { .c = c, .report = true };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_outfile of;
	int rc;

	clyde_loaded_set_init(&set);
	rc = stored_table(c, argc, argv, &t, &set, &cmp);
	if (rc) {
		clyde_loaded_set_release(&set);
		return rc == 2 ? CLYDE_EXIT_OK : rc;
	}
	if (!t.out) {
		rc = usage_error(c, "no output file (-o FILE.html)");
	} else if ((rc = clyde_outfile_open(&of, t.out)) < 0) {
		fprintf(stderr, "clyde history report: %s: %s\n", t.out,
			strerror(-rc));
		rc = CLYDE_EXIT_USAGE;
	} else if ((rc = clyde_history_report_write(&c->ctx, of.f, &cmp,
						    t.title)) < 0) {
		clyde_outfile_abort(&of);
		fprintf(stderr, "clyde history report: %s: write: %s\n", t.out,
			strerror(-rc));
		rc = CLYDE_EXIT_USAGE;
	} else if ((rc = clyde_outfile_commit(&of)) < 0) {
		fprintf(stderr, "clyde history report: %s: write: %s\n",
			strcmp(t.out, "-") ? t.out : "standard output",
			strerror(-rc));
		rc = CLYDE_EXIT_USAGE;
	}
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	return rc;
}

/* ---- export ---------------------------------------------------------- */

/* Write one document to `path` (- for standard output) through a
 * temporary file: a full disk keeps the old content, never half of it. */
static int export_docs(const char *path, char **docs, size_t *lens, size_t n)
{
	struct clyde_outfile of;
	int rc = clyde_outfile_open(&of, path);

	if (rc < 0) {
		fprintf(stderr, "clyde history export: %s: %s\n", path,
			strerror(-rc));
		return CLYDE_EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		fwrite(docs[i], 1, lens[i], of.f);
		/* A CSV line is stored without its line end. */
		if (lens[i] == 0 || docs[i][lens[i] - 1] != '\n')
			fputc('\n', of.f);
	}
	rc = clyde_outfile_commit(&of);
	if (rc < 0 && !strcmp(path, "-")) {
		clyde_cli_stdout_failed("clyde history export", -rc);
		return CLYDE_EXIT_USAGE;
	}
	if (rc < 0) {
		fprintf(stderr, "clyde history export: %s: write: %s\n", path,
			strerror(-rc));
		return CLYDE_EXIT_USAGE;
	}
	return 0;
}

/* Every stored id, oldest first. */
static int all_ids(struct hist_cli *c, struct clyde_history *h, int64_t **ids,
		   size_t *n)
{
	struct clyde_history_entry *e = NULL;
	size_t cnt = 0;

	if (clyde_history_list(&c->ctx, h, 0, &e, &cnt) < 0)
		return fail(c);
	*ids = calloc(cnt ? cnt : 1, sizeof(**ids));
	if (!*ids) {
		clyde_history_entries_free(e, cnt);
		return fprintf(stderr, "clyde history: out of memory\n"),
		       CLYDE_EXIT_USAGE;
	}
	for (size_t i = 0; i < cnt; i++)
		(*ids)[i] = e[i].id;
	clyde_history_entries_free(e, cnt);
	/* The list is newest first by run date; export in the order the
	 * runs were stored. */
	for (size_t i = 1; i < cnt; i++)
		for (size_t j = i; j > 0 && (*ids)[j - 1] > (*ids)[j]; j--) {
			int64_t t = (*ids)[j];

			(*ids)[j] = (*ids)[j - 1];
			(*ids)[j - 1] = t;
		}
	*n = cnt;
	return 0;
}

static int cmd_export(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts ho;
	struct clyde_history *h = NULL;
	const char *out = "-";
	int64_t *ids = NULL;
	char **docs = NULL;
	size_t n = 0, *lens = NULL, njson = 0;
	bool all = false, dir;
	struct stat sb;
	int rc;

	rc = hist_parse(c, HIST_OPTS(export_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	if (ho.output)
		out = ho.output;
	all = ho.all;
	if (all && argc > 1)
		return usage_error(c, "--all and run ids: give one or the "
				      "other");
	if (!all) {
		rc = parse_ids(c, argc, argv, 1, 1, 0, &ids, &n);
		if (rc)
			return rc;
	}
	if (open_db_ro(c, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	rc = all ? all_ids(c, h, &ids, &n) : 0;
	if (rc == 0 && n == 0) {
		fprintf(stderr, "clyde history export: %s: no runs stored\n",
			clyde_history_path(h));
		rc = CLYDE_EXIT_USAGE;
	}
	if (rc == 0) {
		docs = calloc(n, sizeof(*docs));
		lens = calloc(n, sizeof(*lens));
		if (!docs || !lens) {
			fprintf(stderr, "clyde history: out of memory\n");
			rc = CLYDE_EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (clyde_history_get(&c->ctx, h, ids[i], NULL, &docs[i],
				      &lens[i]) < 0)
			rc = fail(c);
		else if (docs[i][strspn(docs[i], " \t\r\n")] == '{')
			njson++;
	}
	clyde_history_close(h);
	dir = strcmp(out, "-") && stat(out, &sb) == 0 && S_ISDIR(sb.st_mode);
	if (rc) {
		/* said */
	} else if (dir) {
		/* One file per run: DIR/ID.json or DIR/ID.csv. */
		for (size_t i = 0; i < n && rc == 0; i++) {
			char path[PATH_MAX];
			bool json = docs[i][strspn(docs[i], " \t\r\n")] == '{';

			snprintf(path, sizeof(path), "%s/%" PRId64 ".%s", out,
				 ids[i], json ? "json" : "csv");
			rc = export_docs(path, &docs[i], &lens[i], 1);
			if (rc == 0)
				printf("%s\n", path);
		}
	} else if (njson > 0 && n > 1) {
		/* JSON results one after the other are not one JSON file. */
		rc = usage_error(c,
				 "%zu of the %zu runs are JSON results: export "
				 "several runs with JSON results into a "
				 "directory (-o DIR)",
				 njson, n);
	} else {
		rc = export_docs(out, docs, lens, n);
	}
	for (size_t i = 0; docs && i < n; i++)
		free(docs[i]);
	free(docs);
	free(lens);
	free(ids);
	return rc;
}

/* ---- import ---------------------------------------------------------- */

/* Print what importing one file did; returns its exit status. */
static int import_report(const char *path,
			 const struct clyde_history_import *imp)
{
	int status = CLYDE_EXIT_OK;

	char vis[PATH_MAX + 64];

	for (size_t j = 0; j < imp->nerrors; j++)
		fprintf(stderr, "clyde history import: %s\n",
			clyde_vis(vis, sizeof(vis), imp->errors[j], 0));
	if (imp->nerrors)
		status = CLYDE_EXIT_USAGE;
	/* A duplicate skipped is not an error: it is there already. */
	for (size_t j = 0; j < imp->nskipped; j++)
		printf("%s, skipped (--force stores it again)\n",
		       clyde_vis(vis, sizeof(vis), imp->skipped[j], 0));
	if (imp->nids == 0 && imp->nskipped == 0) {
		fprintf(stderr, "clyde history import: %s: no results in it\n",
			clyde_vis(vis, sizeof(vis), path, 0));
		return CLYDE_EXIT_USAGE;
	}
	if (imp->nids == 0)
		return status;
	printf("%s: %zu run%s imported, id%s",
	       clyde_vis(vis, sizeof(vis), path, 0), imp->nids,
	       imp->nids == 1 ? "" : "s", imp->nids == 1 ? "" : "s");
	for (size_t j = 0; j < imp->nids; j++)
		printf("%s%" PRId64, j ? ", " : " ", imp->ids[j]);
	putchar('\n');
	return status;
}

static int cmd_import(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts ho;
	struct clyde_cli_results lab = { 0 };
	struct clyde_history *h = NULL;
	const char *label = NULL;
	char path[PATH_MAX];
	struct stat st;
	size_t nstored = 0, used = 0, nresults = 0;
	bool existed, force = false;
	int o, status = CLYDE_EXIT_OK;

	o = hist_parse(c, HIST_OPTS(import_opts), &argc, &argv, &ho);
	if (o)
		return o;
	lab = ho.labels;
	label = ho.label;
	force = ho.force;
	if (argc <= 1) {
		clyde_cli_results_release(&lab);
		return usage_error(c, "no file to import");
	}
	/* --labels must match the results one for one: counted before
	 * anything is stored, so that a mismatch stores nothing. */
	for (int i = 1; lab.nlabels && i < argc; i++) {
		size_t k;

		if (clyde_history_count_results(&c->ctx, argv[i], &k) < 0) {
			clyde_cli_results_release(&lab);
			return fail(c);
		}
		nresults += k;
	}
	if (lab.nlabels && lab.nlabels != nresults) {
		size_t nl = lab.nlabels;

		clyde_cli_results_release(&lab);
		return usage_error(
			c,
			"--labels: %zu label%s for %zu result%s (one "
			"per CSV line, JSON file or fio job, in "
			"order); nothing imported",
			nl, nl == 1 ? "" : "s", nresults,
			nresults == 1 ? "" : "s");
	}
	if (c->db)
		snprintf(path, sizeof(path), "%s", c->db);
	else if (clyde_history_default_path(&c->ctx, path, sizeof(path)) < 0) {
		clyde_cli_results_release(&lab);
		return fail(c);
	}
	existed = lstat(path, &st) == 0;
	if (open_db(c, true, &h)) {
		clyde_cli_results_release(&lab);
		return CLYDE_EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++) {
		struct clyde_history_import imp;

		clyde_history_import_init(&imp);
		imp.label = label;
		imp.force = force;
		if (used < lab.nlabels) {
			imp.labels = (const char *const *)lab.labels + used;
			imp.nlabels = lab.nlabels - used;
		}
		if (clyde_history_import_file(&c->ctx, h, argv[i], &imp) < 0) {
			fail(c);
			clyde_err_clear(&c->ctx);
			status = CLYDE_EXIT_USAGE;
		} else {
			if (import_report(argv[i], &imp))
				status = CLYDE_EXIT_USAGE;
			nstored += imp.nids;
		}
		used += imp.nresults;
		clyde_history_import_release(&imp);
	}
	clyde_cli_results_release(&lab);
	/* An import that stored nothing in a database it created removes
	 * it again: a mistyped file name leaves no empty history behind. */
	if (!existed && nstored == 0)
		clyde_history_close_discard_empty(h);
	else
		clyde_history_close(h);
	return status;
}

/* ---- label and note -------------------------------------------------- */

/* `label ID NAME` and `note ID TEXT...` (the words joined by spaces). */
static int set_text(struct hist_cli *c, int argc, char **argv, bool note)
{
	struct hist_opts ho;
	struct clyde_history *h = NULL;
	char *text = NULL, vis[1024];
	size_t tlen = 0;
	int64_t id;
	int rc;

	rc = hist_parse(c, HIST_OPTS(db_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	if (1 >= argc)
		return usage_error(c, "a run id is missing");
	if (parse_id(argv[1], &id) < 0)
		return usage_error(c, "\"%s\" is not a run id", argv[1]);
	if (1 + 1 >= argc)
		return usage_error(c, "%s",
				   note ? "the note is missing (\"\" "
					  "removes it)" :
					  "the new label is missing");
	if (!note && 1 + 2 < argc)
		return usage_error(c,
				   "unexpected argument \"%s\" (quote a "
				   "label with spaces)",
				   argv[1 + 2]);
	for (int i = 1 + 1; i < argc; i++)
		tlen += strlen(argv[i]) + 1;
	text = calloc(1, tlen + 1);
	if (!text)
		return fprintf(stderr, "clyde history: out of memory\n"),
		       CLYDE_EXIT_USAGE;
	tlen = 0;
	for (int i = 1 + 1; i < argc; i++) {
		size_t l = strlen(argv[i]);

		if (i > 1 + 1)
			text[tlen++] = ' ';
		memcpy(text + tlen, argv[i], l);
		tlen += l;
	}
	if (!note && !text[0]) {
		free(text);
		return usage_error(c, "the new label is empty");
	}
	if (open_db(c, false, &h)) {
		free(text);
		return CLYDE_EXIT_USAGE;
	}
	rc = note ? clyde_history_set_note(&c->ctx, h, id, text) :
		    clyde_history_set_label(&c->ctx, h, id, text);
	clyde_history_close(h);
	if (rc < 0)
		rc = fail(c);
	else if (note)
		printf(text[0] ? "run %" PRId64 ": note set\n" :
				 "run %" PRId64 ": note removed\n",
		       id);
	else
		printf("run %" PRId64 ": label set to \"%s\"\n", id,
		       clyde_vis(vis, sizeof(vis), text, 0));
	free(text);
	return rc;
}

static int cmd_label(struct hist_cli *c, int argc, char **argv)
{
	return set_text(c, argc, argv, false);
}

static int cmd_note(struct hist_cli *c, int argc, char **argv)
{
	return set_text(c, argc, argv, true);
}

/* ---- delete ---------------------------------------------------------- */

static int cmd_delete(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts ho;
	struct clyde_history *h = NULL;
	int64_t *ids = NULL;
	size_t n;
	int rc = 0;

	rc = hist_parse(c, HIST_OPTS(db_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	rc = parse_ids(c, argc, argv, 1, 1, 0, &ids, &n);
	if (rc)
		return rc;
	if (open_db(c, false, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		struct clyde_history_entry e = { 0 };
		char date[64], src[PATH_MAX + 32];

		/* Say what went: the id alone is easy to mistype. */
		if (clyde_history_get(&c->ctx, h, ids[i], &e, NULL, NULL) < 0 ||
		    clyde_history_delete(&c->ctx, h, ids[i]) < 0) {
			rc = fail(c);
		} else {
			fmt_date(date, sizeof(date), e.started_unix);
			char vl[1024], vs[PATH_MAX + 64];

			printf("deleted run %" PRId64
			       ": %s (%s, %s, from %s)\n",
			       e.id,
			       clyde_vis(vl, sizeof(vl), or_dash(e.label), 0),
			       e.kind, date,
			       clyde_vis(vs, sizeof(vs),
					 source_text(src, sizeof(src), &e), 0));
			if (e.experiment[0])
				printf("  it was a sample of sweep %s: its "
				       "table says so, and clyde sweep "
				       "--resume %s measures it again\n",
				       clyde_vis(vl, sizeof(vl), e.experiment,
						 0),
				       clyde_vis(vs, sizeof(vs), e.experiment,
						 0));
		}
		clyde_history_entry_release(&e);
	}
	clyde_history_close(h);
	free(ids);
	return rc;
}

/* ---- dispatch -------------------------------------------------------- */

/* changes: cmd_history_changes.c */
static int cmd_changes(struct hist_cli *c, int argc, char **argv)
{
	return clyde_history_changes_main(&c->ctx, c->db, argc, argv);
}

static const struct {
	const char *name;
	int (*fn)(struct hist_cli *c, int argc, char **argv);
} subcommands[] = {
	{ "list", cmd_list },	    { "show", cmd_show },
	{ "compare", cmd_compare }, { "report", cmd_report },
	{ "export", cmd_export },   { "import", cmd_import },
	{ "label", cmd_label },	    { "note", cmd_note },
	{ "delete", cmd_delete },   { "changes", cmd_changes },
};

int clyde_cmd_history(int argc, char **argv)
{
	struct hist_cli c = { .db = NULL, .cmd = NULL };
	char name[32], err[512];
	int i = 1, rc;

	/* Options before the command: --db and --help. */
	rc = clyde_opt_parse_head(&head_set, argc, argv, &c, &i, err,
				  sizeof(err));
	if (rc == CLYDE_OPT_STOP_HELP) {
		hist_usage(stdout);
		return CLYDE_EXIT_OK;
	}
	if (rc != CLYDE_OPT_PARSED) {
		fprintf(stderr, "clyde history: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	rc = CLYDE_EXIT_USAGE;
	if (i >= argc)
		return usage_error(&c, "no command (list, show, compare, "
				       "report, export, import, label, note, "
				       "delete, changes)");
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
				hist_usage(stdout);
				return CLYDE_EXIT_OK;
			}
		clyde_ctx_init(&c.ctx);
		c.cmd = subcommands[k].name;
		rc = subcommands[k].fn(&c, argc - i, argv + i);
		clyde_ctx_release(&c.ctx);
		free(c.operands);
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

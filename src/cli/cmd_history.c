/*
 * `clyde history`: the results kept in the SQLite history (see
 * store/history.h): list, show, compare, report, export, import, label,
 * note, delete.  This file: the dispatcher, the options and --help, what
 * the subcommands share (cmd_history.h), label, note and delete; list
 * and show are in cmd_history_show.c, compare, report, export and import
 * in cmd_history_table.c.  Each parses, calls the store and prints.
 *
 *   clyde history [--db PATH] COMMAND [OPTION]... [ARG]...
 *
 * Every message is one line on stderr starting "clyde history"; exit 0
 * when everything asked for was done, 1 for a bad command line, an
 * unknown id, an unusable database or an input that was not (fully)
 * imported.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_args.h"
#include "cli/cmd_history.h"
#include "cli/hist_changes.h"
#include "core/vis.h"
#include "results/loaded.h"

int hist_usage_error(const struct hist_cli *c, const char *fmt, ...)
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
int hist_fail(struct hist_cli *c)
{
	const char *m = clyde_errmsg(&c->ctx);
	char vis[1024];

	fprintf(stderr, "clyde history %s: %s\n", c->cmd,
		m[0] ? clyde_vis(vis, sizeof(vis), m, 0) : "failed");
	return CLYDE_EXIT_USAGE;
}

/* Writing the result on standard output failed with -err. */
int hist_stdout_failed(struct hist_cli *c, int err)
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
int hist_parse_ids(struct hist_cli *c, int argc, char **argv, int first,
		   int min, int max, int64_t **ids, size_t *n)
{
	int cnt = argc - first;

	if (cnt < min)
		return hist_usage_error(c, "%s",
					min == 1 ? "a run id is missing" :
						   "give two or more run "
						   "ids");
	if (max > 0 && cnt > max)
		return hist_usage_error(c, "unexpected argument \"%s\"",
					argv[first + max]);
	*ids = calloc((size_t)cnt, sizeof(**ids));
	if (!*ids)
		return fprintf(stderr, "clyde history: out of memory\n"),
		       CLYDE_EXIT_USAGE;
	for (int i = 0; i < cnt; i++)
		if (parse_id(argv[first + i], &(*ids)[i]) < 0) {
			free(*ids);
			*ids = NULL;
			return hist_usage_error(c, "\"%s\" is not a run id",
						argv[first + i]);
		}
	*n = (size_t)cnt;
	return 0;
}

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
#define OPT_H_DB CLYDE_CLI_OPT_DB(0, "the database", HIST_FIELD(db))
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

const struct clyde_opt hist_list_opts[] = { OPT_H_DB, OPT_H_LIMIT };
const struct clyde_opt hist_db_opts[] = { OPT_H_DB };
const struct clyde_opt hist_export_opts[] = { OPT_H_DB, OPT_H_OUTPUT,
					      OPT_H_ALL };
const struct clyde_opt hist_import_opts[] = { OPT_H_DB, OPT_H_LABEL,
					      OPT_H_LABELS, OPT_H_FORCE };

/*
 * Parse a subcommand's argv with its table into o; --db goes to c->db.
 * On success *argc and *argv are replaced by the command name and the
 * operands alone (c->operands, freed by clyde_cmd_history), so that the
 * operands start at index 1.  Returns 0, or an exit status after the
 * message.
 */
int hist_parse(struct hist_cli *c, const struct clyde_opt *table, size_t n,
	       int *argc, char ***argv, struct hist_opts *o)
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

int hist_open_db(struct hist_cli *c, bool create, struct clyde_history **h)
{
	if (clyde_history_open(&c->ctx, c->db, create, h) < 0)
		return hist_fail(c);
	return 0;
}

/* list, show, compare and export only read: nothing is written to the
 * database or beside it (it may be read-only, or someone else's). */
int hist_open_db_ro(struct hist_cli *c, struct clyde_history **h)
{
	if (clyde_history_open_readonly(&c->ctx, c->db, h) < 0)
		return hist_fail(c);
	return 0;
}

void hist_fmt_date(char *buf, size_t len, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t < 0 || !localtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "-");
}

const char *hist_or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

/* "file:line" (or "file") of an imported run into buf. */
const char *hist_source_text(char *buf, size_t len,
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

int hist_loaded(struct hist_cli *c, const struct clyde_loaded_set *set, int rc)
{
	char vis[1024];

	/* What the loader could not read is said, not dropped in silence. */
	for (size_t i = 0; i < set->nerrors; i++)
		fprintf(stderr, "clyde history %s: %s\n", c->cmd,
			clyde_vis(vis, sizeof(vis), set->errors[i], 0));
	return rc < 0 ? hist_fail(c) : 0;
}

/* The options before the subcommand (clyde_opt_parse_head). */
static const struct clyde_opt head_opts[] = {
	CLYDE_CLI_OPT_DB(0,
			 "the database (default: "
			 "$XDG_DATA_HOME/clyde/results.db or "
			 "~/.local/share/clyde/results.db); also after COMMAND",
			 CLYDE_OPT_FIELD(struct hist_cli, db)),
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
	  HIST_OPTS(hist_list_opts) },
	{ "show ID", "one run: where, how, and every figure",
	  HIST_OPTS(hist_db_opts) },
	{ "compare ID...", "the compare table of stored runs, as clyde compare",
	  HIST_OPTS(hist_compare_opts) },
	{ "report ID... -o FILE",
	  "the HTML report of clyde report over stored runs",
	  HIST_OPTS(hist_report_opts) },
	{ "export ID...|--all", "the stored results as they were saved",
	  HIST_OPTS(hist_export_opts) },
	{ "import FILE...",
	  "bonnie++ CSV lines (each one run), a clyde JSON result, or fio's "
	  "JSON output (each job one run); one already stored is skipped "
	  "(\"already stored as id N\")",
	  HIST_OPTS(hist_import_opts) },
	{ "label ID NAME", "rename run ID", HIST_OPTS(hist_db_opts) },
	{ "note ID TEXT...", "a note on run ID (\"\" removes it)",
	  HIST_OPTS(hist_db_opts) },
	{ "delete ID...", "remove runs (each is named)",
	  HIST_OPTS(hist_db_opts) },
};

/* --help, made from the tables above. */
void hist_usage(FILE *f)
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

/* ---- export ---------------------------------------------------------- */

/* ---- import ---------------------------------------------------------- */

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

	rc = hist_parse(c, HIST_OPTS(hist_db_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	if (1 >= argc)
		return hist_usage_error(c, "a run id is missing");
	if (parse_id(argv[1], &id) < 0)
		return hist_usage_error(c, "\"%s\" is not a run id", argv[1]);
	if (1 + 1 >= argc)
		return hist_usage_error(c, "%s",
					note ? "the note is missing (\"\" "
					       "removes it)" :
					       "the new label is missing");
	if (!note && 1 + 2 < argc)
		return hist_usage_error(c,
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
		return hist_usage_error(c, "the new label is empty");
	}
	if (hist_open_db(c, false, &h)) {
		free(text);
		return CLYDE_EXIT_USAGE;
	}
	rc = note ? clyde_history_set_note(&c->ctx, h, id, text) :
		    clyde_history_set_label(&c->ctx, h, id, text);
	clyde_history_close(h);
	if (rc < 0)
		rc = hist_fail(c);
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

	rc = hist_parse(c, HIST_OPTS(hist_db_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	rc = hist_parse_ids(c, argc, argv, 1, 1, 0, &ids, &n);
	if (rc)
		return rc;
	if (hist_open_db(c, false, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		struct clyde_history_entry e = { 0 };
		char date[64], src[PATH_MAX + 32];

		/* Say what went: the id alone is easy to mistype. */
		if (clyde_history_get(&c->ctx, h, ids[i], &e, NULL, NULL) < 0 ||
		    clyde_history_delete(&c->ctx, h, ids[i]) < 0) {
			rc = hist_fail(c);
		} else {
			hist_fmt_date(date, sizeof(date), e.started_unix);
			char vl[1024], vs[PATH_MAX + 64];

			printf("deleted run %" PRId64
			       ": %s (%s, %s, from %s)\n",
			       e.id,
			       clyde_vis(vl, sizeof(vl), hist_or_dash(e.label),
					 0),
			       e.kind, date,
			       clyde_vis(vs, sizeof(vs),
					 hist_source_text(src, sizeof(src), &e),
					 0));
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
	{ "list", hist_cmd_list },	 { "show", hist_cmd_show },
	{ "compare", hist_cmd_compare }, { "report", hist_cmd_report },
	{ "export", hist_cmd_export },	 { "import", hist_cmd_import },
	{ "label", cmd_label },		 { "note", cmd_note },
	{ "delete", cmd_delete },	 { "changes", cmd_changes },
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
		return hist_usage_error(&c,
					"no command (list, show, compare, "
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
			return hist_usage_error(&c, "--db needs a path");
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
	return hist_usage_error(&c, "unknown command \"%s\"", argv[i]);
}

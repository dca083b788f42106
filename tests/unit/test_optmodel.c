/*
 * cli/optmodel: one small table of every option type, parsed and shown.
 * Each message and --help line is checked to come from the entry (the
 * bounds, the choices, the engine table, the defaults struct), so that a
 * bound typed once reaches the parser, the message and the help alike.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/optmodel.h"
#include "io/engine.h"
#include "tap.h"

struct conf {
	unsigned depth;
	uint64_t size;
	bool size_given;
	bool quiet;
	bool drop; /* --no-drop clears it */
	double pct;
	uint64_t runtime_ns;
	const char *dir;
	char label[8];
	int mode;
	const struct clyde_engine_ops *engine;
	uint32_t calls;
};

enum {
	MODE_A = 3,
	MODE_B = 7
};

static const struct clyde_opt_choice modes[] = {
	{ "a", MODE_A },
	{ "b", MODE_B },
	{ NULL, 0 },
};

/* A CALL entry: adds its argument, checked with the entry's own bounds. */
static int count_call(void *base, const struct clyde_opt *o, const char *name,
		      const char *arg, char *err, size_t len)
{
	uint64_t v = 1;

	/* A bare -c adds one. */
	if (arg && clyde_opt_number(o, name, NULL, arg, &v, err, len))
		return -1;
	((struct conf *)base)->calls += (uint32_t)v;
	return 0;
}

#define F(M) CLYDE_OPT_FIELD(struct conf, M)

static const struct clyde_opt table[] = {
	{ .short_name = 'i',
	  .name = "iodepth",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  F(depth),
	  .min = 1,
	  .max = 1024,
	  .show_range = true,
	  .show_default = true,
	  .help = "queue depth" },
	{ .short_name = 's',
	  .name = "size",
	  .type = CLYDE_OPT_UINT,
	  .arg = "SIZE",
	  F(size),
	  CLYDE_OPT_GIVEN(struct conf, size_given),
	  .suffixes = "kmg",
	  .shift = 10,
	  .min = 512,
	  .max = 1u << 30,
	  .help = "bytes" },
	{ .short_name = 'q',
	  .name = "quiet",
	  .type = CLYDE_OPT_FLAG,
	  F(quiet),
	  .help = "quiet" },
	{ .name = "no-drop",
	  .type = CLYDE_OPT_FLAG,
	  .invert = true,
	  F(drop),
	  .help = "keep caches" },
	{ .name = "pct",
	  .type = CLYDE_OPT_DOUBLE,
	  .arg = "PCT",
	  F(pct),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 100,
	  .kind = "a percentage",
	  .help = "percent" },
	{ .name = "runtime",
	  .type = CLYDE_OPT_SECONDS,
	  .arg = "S",
	  F(runtime_ns),
	  .dmax = 1e6,
	  .help = "seconds" },
	{ .short_name = 'd',
	  .name = "dir",
	  .type = CLYDE_OPT_STRING,
	  .arg = "DIR",
	  F(dir),
	  .kind = "directory name",
	  .show_default = true,
	  .help = "where" },
	{ .name = "label",
	  .type = CLYDE_OPT_BUF,
	  .arg = "L",
	  F(label),
	  .kind = "label",
	  .help = "a label" },
	{ .name = "mode",
	  .type = CLYDE_OPT_ENUM,
	  .choices = modes,
	  F(mode),
	  .kind = "a mode",
	  .show_default = true,
	  .help = "mode" },
	{ .name = "engine",
	  .type = CLYDE_OPT_ENGINE,
	  F(engine),
	  .show_default = true,
	  .help = "engine" },
	{ .short_name = 'c',
	  .name = "count",
	  .type = CLYDE_OPT_CALL,
	  .has_arg = CLYDE_ARG_OPTIONAL,
	  .arg = "N",
	  .call = count_call,
	  .min = 1,
	  .max = 9,
	  .help = "add N" },
	{ .short_name = 'D',
	  .name = "old",
	  .type = CLYDE_OPT_REFUSE,
	  .help = "means O_DIRECT elsewhere; use --dir" },
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "help" },
};

static const struct clyde_optset set = {
	.prog = "clyde test",
	.opts = table,
	.nopts = sizeof(table) / sizeof(table[0]),
	.max_operands = 1,
};

static struct conf c;
static const char *ops[1];
static int nops;
static char err[256];

static void conf_init(struct conf *x)
{
	memset(x, 0, sizeof(*x));
	x->depth = 4;
	x->drop = true;
	x->dir = ".";
	x->mode = MODE_B;
	x->engine = &clyde_engine_psync;
}

static int parse_v(const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"test";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	conf_init(&c);
	nops = -1;
	return clyde_opt_parse(&set, argc, argv, &c, ops, &nops, err,
			       sizeof(err));
}

#define P(...) parse_v((const char *const[]){ __VA_ARGS__, NULL })
#define BAD(msg, ...)                                      \
	do {                                               \
		CHECK(P(__VA_ARGS__) == CLYDE_OPT_FAILED); \
		CHECK_STR(err, msg);                       \
	} while (0)

static void test_types(void)
{
	CHECK(P("-i", "32", "-s64k", "-q", "--no-drop", "--pct=2.5",
		"--runtime", "1.5", "-d", "/tmp", "--label", "abc", "--mode",
		"a", "--engine", "io_uring", "dev0") == CLYDE_OPT_PARSED);
	CHECK(c.depth == 32);
	CHECK(c.size == 65536 && c.size_given);
	CHECK(c.quiet && !c.drop);
	CHECK(c.pct == 2.5);
	CHECK(c.runtime_ns == 1500000000ull);
	CHECK_STR(c.dir, "/tmp");
	CHECK_STR(c.label, "abc");
	CHECK(c.mode == MODE_A);
	CHECK(c.engine == &clyde_engine_io_uring);
	CHECK(nops == 1);
	CHECK_STR(ops[0], "dev0");

	/* Nothing given: the defaults stay, the given flag stays false. */
	CHECK(P("-q") == CLYDE_OPT_PARSED);
	CHECK(c.depth == 4 && !c.size_given && c.drop && nops == 0);

	/* Grouped short options; the last of a repeated option wins. */
	CHECK(P("-qi8", "-i", "9") == CLYDE_OPT_PARSED);
	CHECK(c.quiet && c.depth == 9);

	/* The CALL entry: optional argument attached, bounds its own. */
	CHECK(P("-c3", "--count=4") == CLYDE_OPT_PARSED);
	CHECK(c.calls == 7);
	CHECK(P("-h", "--bogus") == CLYDE_OPT_STOP_HELP);
}

static void test_messages(void)
{
	/* Ranges come from the entry's min and max. */
	BAD("--iodepth 0: must be from 1 to 1024", "--iodepth", "0");
	BAD("-i 1025: must be from 1 to 1024", "-i1025");
	BAD("-i: \"x\" is not a number; use a whole number from 1 to 1024",
	    "-i", "x");
	BAD("-s 256: must be from 512 to 1g", "-s", "256");
	BAD("-s: \"1t\" is not a size; use a number with an optional k, m or "
	    "g suffix",
	    "-s", "1t");
	BAD("--pct 0: must be above 0 and at most 100", "--pct", "0");
	BAD("--pct: \"x\" is not a percentage; use a number above 0 and at "
	    "most 100",
	    "--pct", "x");
	BAD("--runtime 2000000: must be at least 0 and at most 1000000",
	    "--runtime", "2000000");
	BAD("-d: the directory name is empty; give a directory name", "-d", "");
	BAD("--label: the label is longer than 7 bytes; use a shorter one",
	    "--label", "abcdefgh");
	BAD("--mode: \"c\" is not a mode; use a or b", "--mode", "c");
	/* The engine names are the engine table's. */
	{
		char want[128];

		snprintf(want, sizeof(want),
			 "--engine: \"aio\" is not an engine; use one of %s|%s",
			 clyde_engine_psync.name, clyde_engine_io_uring.name);
		BAD(want, "--engine", "aio");
	}
	BAD("-c 10: must be from 1 to 9", "-c10");
	BAD("unexpected argument \"8\": -c takes its N attached, as in -c8 or "
	    "--count=8",
	    "dev", "-c", "8");
	BAD("unknown option \"--bogus\"; see clyde test --help", "--bogus");
	BAD("unknown option \"-k\"; see clyde test --help", "-qk");
	/* A REFUSE entry: its own message, whichever way it is spelled,
	 * also inside a group; it takes no argument. */
	BAD("-D: means O_DIRECT elsewhere; use --dir", "-qD", "x");
	BAD("--old: means O_DIRECT elsewhere; use --dir", "--old");
	BAD("--iodepth needs an argument: --iodepth N", "--iodepth");
	BAD("--quiet takes no argument", "--quiet=1");
	BAD("unexpected argument \"two\": clyde test takes at most 1 operand; "
	    "see clyde test --help",
	    "one", "two");
	/* "--" ends the options: "-q" is then an operand. */
	CHECK(P("--", "-q") == CLYDE_OPT_PARSED);
	CHECK(nops == 1 && !c.quiet);
	CHECK_STR(ops[0], "-q");
}

/* getopt's "+": the options before the first operand, the rest left. */
static int head_v(const char *const *args, int *first)
{
	static char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"test";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	conf_init(&c);
	*first = -1;
	return clyde_opt_parse_head(&set, argc, argv, &c, first, err,
				    sizeof(err));
}

#define HEAD(first, ...) \
	head_v((const char *const[]){ __VA_ARGS__, NULL }, (first))

static void test_head(void)
{
	int first;

	/* "sub" ends the options: its -i is not read. */
	CHECK(HEAD(&first, "-q", "--dir", "x", "sub", "-i", "3") ==
	      CLYDE_OPT_PARSED);
	CHECK(first == 4 && c.quiet && c.depth == 4);
	CHECK_STR(c.dir, "x");
	/* "--" ends them too and is not the subcommand. */
	CHECK(HEAD(&first, "-q", "--", "-i") == CLYDE_OPT_PARSED);
	CHECK(first == 3 && c.depth == 4);
	/* No operand: first is argc. */
	CHECK(HEAD(&first, "-i", "7") == CLYDE_OPT_PARSED);
	CHECK(first == 3 && c.depth == 7);
	/* The model's messages and stops, as in a whole parse. */
	CHECK(HEAD(&first, "--bogus", "sub") == CLYDE_OPT_FAILED);
	CHECK_STR(err, "unknown option \"--bogus\"; see clyde test --help");
	CHECK(HEAD(&first, "--dir") == CLYDE_OPT_FAILED);
	CHECK_STR(err, "--dir needs an argument: --dir DIR");
	CHECK(HEAD(&first, "-h", "sub") == CLYDE_OPT_STOP_HELP);
}

static void test_help(void)
{
	struct conf d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	conf_init(&d);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(clyde_opt_help(&set, &d, f) == 0);
	fclose(f);
	/* The range and the default are made from the entry and d. */
	CHECK(strstr(buf, "  -i, --iodepth N         queue depth (1..1024, "
			  "default 4)\n") != NULL);
	CHECK(strstr(buf, "  -d, --dir DIR           where (default .)\n") !=
	      NULL);
	CHECK(strstr(buf, "      --mode a|b          mode (default b)\n") !=
	      NULL);
	CHECK(strstr(buf, "-c[N], --count[=N]") != NULL);
	/* A refused name is not offered. */
	CHECK(strstr(buf, "--old") == NULL && strstr(buf, "-D") == NULL);
	{
		char want[128];

		snprintf(want, sizeof(want), "      --engine %s|%s",
			 clyde_engine_psync.name, clyde_engine_io_uring.name);
		CHECK(strstr(buf, want) != NULL);
		CHECK(strstr(buf, "engine (default psync)\n") != NULL);
	}
	for (const char *l = buf; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		CHECK(n <= 80);
		l += n + (nl != NULL);
	}
	free(buf);
}

int main(void)
{
	test_types();
	test_messages();
	test_head();
	test_help();
	return tap_done();
}

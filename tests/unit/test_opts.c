/*
 * cli/opts: every bonnie++ 2.00a option form, the long forms, clyde's own
 * options, and the malformed command lines, each with the one-line message
 * that must name the option.  The parser is called many times in one
 * process, which is itself a test: it must keep no state between calls.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream, strtok_r */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "tap.h"

static struct clyde_bonnie_config cfg;
static struct clyde_cli_extra ex;
static char err[512];

static int parse_v(const char *const *args)
{
	char *argv[64];
	int argc = 0;

	argv[argc++] = (char *)"clyde";
	while (*args && argc < 63)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return clyde_opts_parse(argc, argv, &cfg, &ex, err, sizeof(err));
}

#define P(...) parse_v((const char *const[]){ __VA_ARGS__, NULL })
#define P0() parse_v((const char *const[]){ NULL })

/* Expect CLYDE_OPTS_RUN. */
#define OK(...)                                                         \
	do {                                                            \
		int r_ = P(__VA_ARGS__);                                \
		CHECK(r_ == CLYDE_OPTS_RUN);                            \
		if (r_ != CLYDE_OPTS_RUN)                               \
			fprintf(stderr, "  rc %d, err: %s\n", r_, err); \
	} while (0)

/* Expect an error whose one-line message starts with `prefix`. */
#define BAD(prefix, ...)                                                      \
	do {                                                                  \
		int r_ = P(__VA_ARGS__);                                      \
		CHECK(r_ == CLYDE_OPTS_ERROR);                                \
		CHECK(strncmp(err, prefix, strlen(prefix)) == 0);             \
		CHECK(strchr(err, '\n') == NULL);                             \
		if (r_ != CLYDE_OPTS_ERROR ||                                 \
		    strncmp(err, prefix, strlen(prefix)))                     \
			fprintf(stderr,                                       \
				"  rc %d, err: \"%s\", want \"%s...\"\n", r_, \
				err, prefix);                                 \
	} while (0)

static void check_defaults(void)
{
	CHECK(cfg.file_size_mib == 0);
	CHECK(!cfg.size_given);
	CHECK(cfg.io_chunk == 8192);
	CHECK(cfg.seeks == 8192);
	CHECK(cfg.seekers == 5);
	CHECK(cfg.num_files == 16 * 1024);
	CHECK(cfg.max_size == 0);
	CHECK(cfg.min_size == 0);
	CHECK(cfg.num_dirs == 1);
	CHECK(cfg.file_chunk == 8192);
	CHECK(cfg.ram_mib == -1);
	CHECK(cfg.runs == 0);
	CHECK(!cfg.quiet);
	CHECK(!cfg.skip_perchar);
	CHECK(cfg.perchar_mib == 3);
	CHECK(!cfg.fsync_each);
	CHECK(!cfg.direct);
	CHECK(cfg.concurrency == 1);
	CHECK(cfg.sync_procs == 0);
	CHECK(cfg.sync_mode == CLYDE_SYNC_NONE);
	CHECK(!cfg.seed_given);
	CHECK(cfg.random_file == NULL);
	CHECK(cfg.user == NULL);
	CHECK(cfg.group == NULL);
	CHECK(cfg.machine == NULL);
	CHECK(cfg.pattern == CLYDE_PATTERN_RANDOM);
	CHECK_STR(cfg.dir, ".");
	CHECK(ex.json_path == NULL);
}

static void test_defaults(void)
{
	struct clyde_bonnie_config c;

	clyde_bonnie_config_init(&c);
	CHECK(c.io_chunk == 8192 && c.num_files == 16384 && c.ram_mib == -1);
	CHECK(P0() == CLYDE_OPTS_RUN);
	check_defaults();
	/* -l takes an argument and does nothing, as in bonnie++ 2.00a. */
	OK("-l", "/tmp/whatever");
	check_defaults();
	OK("-lx");
	check_defaults();
}

static void test_size(void)
{
	OK("-s", "64");
	CHECK(cfg.file_size_mib == 64 && cfg.size_given);
	OK("-s", "64m");
	CHECK(cfg.file_size_mib == 64);
	OK("-s", "64M");
	CHECK(cfg.file_size_mib == 64);
	OK("-s", "2g");
	CHECK(cfg.file_size_mib == 2048);
	OK("-s", "1T");
	CHECK(cfg.file_size_mib == 1048576);
	OK("-s64m");
	CHECK(cfg.file_size_mib == 64);
	OK("-s", "64m:4k");
	CHECK(cfg.io_chunk == 4096 && cfg.seeks == 8192 && cfg.seekers == 5);
	OK("-s", "64m:256");
	CHECK(cfg.io_chunk == 256);
	OK("-s", "64m:1024k");
	CHECK(cfg.io_chunk == 1048576);
	OK("-s", "64m:1048576");
	CHECK(cfg.io_chunk == 1048576);
	OK("-s", "1g:64K:16k:3");
	CHECK(cfg.file_size_mib == 1024 && cfg.io_chunk == 65536 &&
	      cfg.seeks == 16384 && cfg.seekers == 3);
	OK("-s", "64:8192:1000:1");
	CHECK(cfg.seeks == 1000 && cfg.seekers == 1);
	/* A later -s replaces the earlier one entirely. */
	OK("-s", "64m:4k:1k:2", "-s", "128");
	CHECK(cfg.file_size_mib == 128 && cfg.io_chunk == 8192 &&
	      cfg.seeks == 8192 && cfg.seekers == 5);
	OK("-s", "0");
	CHECK(cfg.file_size_mib == 0 && cfg.size_given);
	OK("--size", "64m");
	CHECK(cfg.file_size_mib == 64 && cfg.size_given);
	OK("--size=3g:512");
	CHECK(cfg.file_size_mib == 3072 && cfg.io_chunk == 512);

	BAD("-s: \"12x\" is not a size; use MiB with an optional m, g or t "
	    "suffix, e.g. 512m or 4g[:chunk[:seeks[:seekers]]]",
	    "-s", "12x");
	BAD("-s chunk 100: must be a power of two from 256 to 1024k", "-s",
	    "64m:100");
	BAD("-s chunk 128: ", "-s", "64m:128");
	BAD("-s chunk 2048k: ", "-s", "64m:2048k");
	BAD("-s chunk 3k: ", "-s", "64m:3k");
	BAD("-s chunk: \"1m\" is not a number of bytes", "-s", "64m:1m");
	BAD("-s seeks 0: ", "-s", "64m:8k:0");
	BAD("-s seeks: \"8q\"", "-s", "64m:8k:8q");
	BAD("-s seekers 0: ", "-s", "64m:8k:8k:0");
	BAD("-s seekers: \"2k\"", "-s", "64m:8k:8k:2k");
	BAD("-s seekers 1025: ", "-s", "64m:8k:8k:1025");
	BAD("-s: \"64m:8k:1:2:3\" has too many fields", "-s", "64m:8k:1:2:3");
	BAD("-s: \"64m::4\" has an empty field", "-s", "64m::4");
	BAD("-s: \"64m:\" has an empty field", "-s", "64m:");
	BAD("-s: \"\" has an empty field", "-s", "");
	BAD("-s: \"-5\" is not a size", "-s", "-5");
	BAD("-s: \"1.5g\" is not a size", "-s", "1.5g");
	BAD("-s: \"64k\" is not a size", "-s", "64k");
	BAD("-s 99999999999999999999: must be at most", "-s",
	    "99999999999999999999");
	BAD("-s 8388608t: must be at most 8796093022207", "-s", "8388608t");
	OK("-s", "8388607t");
	BAD("--size: \"12x\" is not a size", "--size", "12x");
	BAD("--size chunk 100: ", "--size=64m:100");
	BAD("-s needs an argument", "-s");
	BAD("--size needs an argument", "--size");
}

static void test_files(void)
{
	OK("-n", "16");
	CHECK(cfg.num_files == 16384);
	OK("-n", "1m");
	CHECK(cfg.num_files == 1024u * 1024u);
	OK("-n", "2M");
	CHECK(cfg.num_files == 2u * 1024u * 1024u);
	OK("-n", "0", "-s", "1");
	CHECK(cfg.num_files == 0);
	OK("-n", "1:64k:1k:10:4k");
	CHECK(cfg.num_files == 1024 && cfg.max_size == 65536 &&
	      cfg.min_size == 1024 && cfg.num_dirs == 10 &&
	      cfg.file_chunk == 4096);
	OK("-n", "1:1m");
	CHECK(cfg.max_size == 1048576 && cfg.min_size == 0);
	OK("-n", "1:1G:1M");
	CHECK(cfg.max_size == 1073741824 && cfg.min_size == 1048576);
	OK("-n", "1:100:100");
	CHECK(cfg.max_size == 100 && cfg.min_size == 100);
	OK("-n", "1:-1");
	CHECK(cfg.max_size == -1);
	OK("-n", "1:-2");
	CHECK(cfg.max_size == -2);
	OK("-n", "1:-1:0:5");
	CHECK(cfg.max_size == -1 && cfg.num_dirs == 5);
	OK("-n", "1:0:0:99999");
	CHECK(cfg.num_dirs == 99999);
	OK("-n", "1:0:0:1k");
	CHECK(cfg.num_dirs == 1024);
	OK("-n", "1:0:0:1:256");
	CHECK(cfg.file_chunk == 256);
	OK("-n", "4194303");
	CHECK(cfg.num_files == 4194303ull * 1024);
	/* A later -n replaces the earlier one entirely. */
	OK("-n", "1:4k:1k:3:512", "-n", "2");
	CHECK(cfg.num_files == 2048 && cfg.max_size == 0 && cfg.min_size == 0 &&
	      cfg.num_dirs == 1 && cfg.file_chunk == 8192);
	OK("--files", "4:1k");
	CHECK(cfg.num_files == 4096 && cfg.max_size == 1024);
	OK("--files=4");
	CHECK(cfg.num_files == 4096);

	BAD("-n: max 10 is less than min 20", "-n", "1:10:20");
	BAD("-n: min 5 makes no sense", "-n", "1:-1:5");
	BAD("-n max: \"-3\" is not a size in bytes", "-n", "1:-3");
	BAD("-n max: \"10x\"", "-n", "1:10x");
	BAD("-n min: \"-1\"", "-n", "1:10:-1");
	BAD("-n dirs 0: must be from 1 to 99999", "-n", "1:0:0:0");
	BAD("-n dirs 100000: ", "-n", "1:0:0:100000");
	BAD("-n dirs 100k: ", "-n", "1:0:0:100k");
	BAD("-n chunk 100: must be a power of two", "-n", "1:0:0:1:100");
	BAD("-n chunk 2048k: ", "-n", "1:0:0:1:2048k");
	BAD("-n: \"1:0:0:1:8k:9\" has too many fields", "-n", "1:0:0:1:8k:9");
	BAD("-n: \"x\" is not a number", "-n", "x");
	BAD("-n: \"1k\" is not a number", "-n", "1k");
	BAD("-n 4194304: ", "-n", "4194304");
	BAD("-n: \"1::5\" has an empty field", "-n", "1::5");
	BAD("--files: max 1 is less than min 2", "--files", "1:1:2");
}

/* -s and -n together, and bonnie++'s whole-line checks. */
static void test_combined(void)
{
	BAD("-s 0 and -n 0 leave no test to run", "-s", "0", "-n", "0");
	BAD("-s 0 and -n 0", "-n", "0", "-s", "0");
	/* Without -s the size comes from the RAM later: -n 0 alone runs. */
	OK("-n", "0");
	CHECK(!cfg.size_given && cfg.num_files == 0);
	OK("-r", "0", "-n", "0");
	CHECK(cfg.ram_mib == 0 && !cfg.size_given);
	/* -p only makes or removes the semaphores: nothing else is checked. */
	OK("-p", "2", "-s", "0", "-n", "0");
	CHECK(cfg.sync_procs == 2);
	BAD("-p and -y cannot be combined", "-p", "2", "-y", "s");
	BAD("-p and -y cannot be combined", "-y", "p", "-p", "-1");
	BAD("-z and -Z cannot be combined", "-z", "1", "-Z", "/dev/null");
}

static void test_simple_options(void)
{
	OK("-d", "/tmp/x");
	CHECK_STR(cfg.dir, "/tmp/x");
	OK("-d/tmp/y");
	CHECK_STR(cfg.dir, "/tmp/y");
	OK("--dir", "/a");
	CHECK_STR(cfg.dir, "/a");
	OK("--dir=/b");
	CHECK_STR(cfg.dir, "/b");
	BAD("-d: the directory name is empty", "-d", "");

	OK("-m", "box 1");
	CHECK_STR(cfg.machine, "box 1");
	OK("--machine=vm");
	CHECK_STR(cfg.machine, "vm");
	BAD("-m: \"a,b\" contains a comma", "-m", "a,b");
	BAD("-m: the machine name is empty", "-m", "");
	BAD("--machine: the machine name contains a control", "--machine",
	    "a\nb");

	OK("-r", "0");
	CHECK(cfg.ram_mib == 0);
	OK("-r", "2048");
	CHECK(cfg.ram_mib == 2048);
	OK("--ram", "4g");
	CHECK(cfg.ram_mib == 4096);
	OK("--ram=512m");
	CHECK(cfg.ram_mib == 512);
	BAD("-r: \"-1\" is not a size", "-r", "-1");
	BAD("-r: \"lots\" is not a size", "-r", "lots");

	OK("-x", "3");
	CHECK(cfg.runs == 3);
	OK("--runs", "1");
	CHECK(cfg.runs == 1);
	BAD("-x 0: ", "-x", "0");
	BAD("-x: \"two\" is not a number", "-x", "two");
	BAD("--runs 0: ", "--runs=0");

	OK("-u", "nobody");
	CHECK_STR(cfg.user, "nobody");
	CHECK(cfg.group == NULL);
	OK("-u", "nobody:nogroup");
	CHECK_STR(cfg.user, "nobody:nogroup");
	OK("--user=65534:65534");
	CHECK_STR(cfg.user, "65534:65534");
	BAD("-u: \":g\" has no user name", "-u", ":g");
	BAD("-u: \"\" has no user name", "-u", "");
	BAD("-u: \"a:\" is not user[:group]", "-u", "a:");
	BAD("-u: \"a:b:c\" is not user[:group]", "-u", "a:b:c");
	OK("-g", "disk");
	CHECK_STR(cfg.group, "disk");
	OK("--group", "0");
	CHECK_STR(cfg.group, "0");
	BAD("-g: the group name is empty", "-g", "");

	OK("-q");
	CHECK(cfg.quiet);
	OK("--quiet");
	CHECK(cfg.quiet);
	OK("-b");
	CHECK(cfg.fsync_each);
	OK("--fsync");
	CHECK(cfg.fsync_each);
	OK("-D");
	CHECK(cfg.direct);
	OK("--direct");
	CHECK(cfg.direct);
	BAD("--quiet takes no argument", "--quiet=yes");

	OK("-c", "1");
	CHECK(cfg.concurrency == 1);
	OK("-c", "200");
	CHECK(cfg.concurrency == 200);
	OK("-c8");
	CHECK(cfg.concurrency == 8);
	OK("--concurrency", "4");
	CHECK(cfg.concurrency == 4);
	BAD("-c 0: must be from 1 to 200", "-c", "0");
	BAD("-c 201: must be from 1 to 200", "-c", "201");
	BAD("-c: \"x\" is not a number", "-c", "x");
	BAD("-c 99999999999999999999: ", "-c", "99999999999999999999");
	BAD("--concurrency 0: ", "--concurrency=0");

	OK("-p", "4");
	CHECK(cfg.sync_procs == 4);
	OK("-p", "-1");
	CHECK(cfg.sync_procs == -1);
	OK("--processes=-1");
	CHECK(cfg.sync_procs == -1);
	BAD("-p 0: ", "-p", "0");
	BAD("-p: \"-2\" is not a number", "-p", "-2");
	BAD("-p 32768: ", "-p", "32768");

	OK("-y", "s");
	CHECK(cfg.sync_mode == CLYDE_SYNC_SEM);
	OK("-y", "p");
	CHECK(cfg.sync_mode == CLYDE_SYNC_PROMPT);
	OK("--sync=s");
	CHECK(cfg.sync_mode == CLYDE_SYNC_SEM);
	BAD("-y: \"q\" is not a sync mode", "-y", "q");
	BAD("-y: \"sp\" is not a sync mode", "-y", "sp");
	BAD("--sync: \"\" is not a sync mode", "--sync=");

	OK("-z", "12345");
	CHECK(cfg.seed_given && cfg.seed == 12345);
	OK("--seed", "18446744073709551615");
	CHECK(cfg.seed == UINT64_MAX);
	OK("-z", "0");
	CHECK(cfg.seed_given && cfg.seed == 0);
	BAD("-z: \"abc\" is not a number", "-z", "abc");
	BAD("-z 18446744073709551616: ", "-z", "18446744073709551616");
	OK("-Z", "/tmp/rand");
	CHECK_STR(cfg.random_file, "/tmp/rand");
	OK("--random-file=/r");
	CHECK_STR(cfg.random_file, "/r");
	BAD("-Z: the file name is empty", "-Z", "");
}

static void test_fast(void)
{
	OK("-f");
	CHECK(cfg.skip_perchar);
	OK("-f8");
	CHECK(!cfg.skip_perchar && cfg.perchar_mib == 8);
	OK("-f1g");
	CHECK(cfg.perchar_mib == 1024);
	OK("--fast");
	CHECK(cfg.skip_perchar);
	OK("--fast=20");
	CHECK(!cfg.skip_perchar && cfg.perchar_mib == 20);
	/* -f's argument must be attached: "-f 8" is -f and a stray "8". */
	BAD("unexpected argument \"8\": -f takes its MiB attached", "-f", "8");
	BAD("unexpected argument \"8\": --fast takes its MiB attached",
	    "--fast", "8");
	BAD("-f 0: ", "-f0");
	BAD("-f: \"x\" is not a size", "-fx");
	BAD("--fast: \"\" is not a size", "--fast=");
	/* A bare -f followed by another option is fine. */
	OK("-f", "-s", "64");
	CHECK(cfg.skip_perchar && cfg.file_size_mib == 64);
}

static void test_clyde_options(void)
{
	OK("--pattern", "zeros");
	CHECK(cfg.pattern == CLYDE_PATTERN_ZEROS);
	OK("--pattern=random");
	CHECK(cfg.pattern == CLYDE_PATTERN_RANDOM);
	BAD("--pattern: \"ones\" is not a pattern", "--pattern", "ones");
	OK("--json", "out.json");
	CHECK_STR(ex.json_path, "out.json");
	OK("--json=-");
	CHECK_STR(ex.json_path, "-");
	BAD("--json: the file name is empty", "--json=");
	BAD("--json needs an argument", "--json");

	CHECK(P("-h") == CLYDE_OPTS_HELP);
	CHECK(P("--help") == CLYDE_OPTS_HELP);
	CHECK(P("-V") == CLYDE_OPTS_VERSION);
	CHECK(P("--version") == CLYDE_OPTS_VERSION);
	/* Read left to right: help stops the parse... */
	CHECK(P("--help", "-s", "12x") == CLYDE_OPTS_HELP);
	CHECK(P("-qh") == CLYDE_OPTS_HELP);
	/* ...but an error before it is reported. */
	BAD("-s: \"12x\"", "-s", "12x", "--help");
	BAD("--help takes no argument", "--help=x");
}

static void test_syntax(void)
{
	/* Grouped short options, attached arguments. */
	OK("-qbD");
	CHECK(cfg.quiet && cfg.fsync_each && cfg.direct);
	OK("-qs64m");
	CHECK(cfg.quiet && cfg.file_size_mib == 64);
	OK("-qs", "64m");
	CHECK(cfg.quiet && cfg.file_size_mib == 64);
	OK("-bf");
	CHECK(cfg.fsync_each && cfg.skip_perchar);
	OK("-qf8");
	CHECK(cfg.quiet && cfg.perchar_mib == 8);
	/* An argument may start with a dash. */
	OK("-n", "1:-2");
	CHECK(cfg.max_size == -2);
	/* Every bonnie++ option at once. */
	OK("-d", "/tmp", "-s", "64m:4k:2k:2", "-n", "2:4k:1k:2:1k", "-m", "m",
	   "-r", "32", "-x", "2", "-u", "root", "-g", "root", "-q", "-f4", "-b",
	   "-D", "-c", "3", "-y", "s", "-z", "7", "-l", "x");
	CHECK(cfg.file_size_mib == 64 && cfg.io_chunk == 4096 &&
	      cfg.seeks == 2048 && cfg.seekers == 2 && cfg.num_files == 2048 &&
	      cfg.max_size == 4096 && cfg.min_size == 1024 &&
	      cfg.num_dirs == 2 && cfg.file_chunk == 1024 &&
	      cfg.ram_mib == 32 && cfg.runs == 2 && cfg.quiet &&
	      cfg.perchar_mib == 4 && cfg.fsync_each && cfg.direct &&
	      cfg.concurrency == 3 && cfg.sync_mode == CLYDE_SYNC_SEM &&
	      cfg.seed == 7);

	BAD("unexpected argument \"extra\"", "extra");
	BAD("unexpected argument \"extra\"", "-s", "1", "extra", "-q");
	BAD("unexpected argument \"-\"", "-");
	BAD("unexpected argument \"-s\"", "--", "-s", "1");
	BAD("unknown option \"-k\"", "-k");
	BAD("unknown option \"-k\"", "-qk");
	BAD("unknown option \"--foo\"", "--foo");
	BAD("unknown option \"--siz\"", "--siz", "1");
	BAD("unknown option \"--size-x=1\"", "--size-x=1");
	BAD("-c needs an argument", "-c");
	BAD("-p needs an argument", "-p");
}

/* The parser keeps no state: each call starts from the defaults. */
static void test_repeatable(void)
{
	int i;

	for (i = 0; i < 3; i++) {
		OK("-s", "64m:4k", "-n", "1:1k", "-q", "--json", "j");
		CHECK(cfg.io_chunk == 4096 && ex.json_path);
		BAD("-c 0", "-c", "0");
		CHECK(P0() == CLYDE_OPTS_RUN);
		check_defaults();
		CHECK(err[0] == '\0');
	}
}

/* errlen 0 must not write; a short buffer is truncated, terminated. */
static void test_err_buffer(void)
{
	char small[8] = "zzzzzzz";
	char *argv[] = { (char *)"clyde", (char *)"-c", (char *)"0", NULL };

	CHECK(clyde_opts_parse(3, argv, &cfg, &ex, small, 0) ==
	      CLYDE_OPTS_ERROR);
	CHECK(memcmp(small, "zzzzzzz", 8) == 0);
	CHECK(clyde_opts_parse(3, argv, &cfg, &ex, small, sizeof(small)) ==
	      CLYDE_OPTS_ERROR);
	CHECK_STR(small, "-c 0: m");
	CHECK(clyde_opts_parse(1, argv, &cfg, &ex, NULL, 0) == CLYDE_OPTS_RUN);
}

static void test_auto_size(void)
{
	CHECK(clyde_opts_auto_size_mib(-1) == 300);
	CHECK(clyde_opts_auto_size_mib(0) == 300);
	CHECK(clyde_opts_auto_size_mib(100) == 300);
	CHECK(clyde_opts_auto_size_mib(150) == 300);
	CHECK(clyde_opts_auto_size_mib(151) == 302);
	CHECK(clyde_opts_auto_size_mib(24105) == 48210);
	CHECK(clyde_opts_auto_size_mib(INT64_MAX) == (uint64_t)INT64_MAX >> 20);
}

/*
 * --help and the parser agree: every option named in --help is known to
 * the parser, and the parser knows no option --help leaves out (checked
 * for every letter and for the long names bonnie++ users might guess).
 */
static void test_help_matches_parser(void)
{
	char *text = NULL, *line, *save, *tok;
	size_t len = 0, nopts = 0;
	char shorts[128] = "";
	FILE *f = open_memstream(&text, &len);
	int c;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(clyde_opts_help(f) == 0);
	fclose(f);
	CHECK(strstr(text, "Usage: clyde [run] [OPTION]...") != NULL);
	CHECK(strstr(text, "-f[MiB], --fast[=MiB]") != NULL);
	CHECK(strstr(text, "-s, --size SIZE[:CHUNK[:SEEKS[:SEEKERS]]]"));
	CHECK(strstr(text,
		     "\nbonnie++ options (bonnie++'s letters and meanings):\n") !=
	      NULL);
	CHECK(strstr(text, "\nclyde options:\n") != NULL);

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char spec[128], *p, *s2;

		CHECK(strlen(line) <= 80);
		if (strlen(line) > 80)
			fprintf(stderr, "  too long: %s\n", line);
		if (strncmp(line, "  -", 3) && strncmp(line, "      --", 8))
			continue;
		/* The option part ends at the two-space gap. */
		snprintf(spec, sizeof(spec), "%s", line + strspn(line, " "));
		p = strstr(spec, "  ");
		if (p)
			*p = '\0';
		for (tok = strtok_r(spec, ", ", &s2); tok;
		     tok = strtok_r(NULL, ", ", &s2)) {
			char opt[64];
			size_t n;

			if (tok[0] != '-')
				continue;
			n = strcspn(tok, "[=");
			snprintf(opt, sizeof(opt), "%.*s", (int)n, tok);
			nopts++;
			P(opt);
			CHECK(strncmp(err, "unknown option", 14) != 0);
			if (!strncmp(err, "unknown option", 14))
				fprintf(stderr, "  --help names %s\n", opt);
			if (opt[1] != '-' && strlen(shorts) < 120) {
				size_t k = strlen(shorts);

				shorts[k] = opt[1];
				shorts[k + 1] = '\0';
			}
		}
	}
	free(text);
	/* 21 short names (-l has no long form), 40 long (--pattern,
	 * --compress-percentage, --verify, --json,
	 * --no-evict, --drop-caches, --settle, --until-stable, --max-runs,
	 * --until-decided, --baseline, --db, --no-save, --no-advice,
	 * --engine, --iodepth, --iodepth-batch, --runtime, --stonewall and
	 * --log-interval have no short form). */
	CHECK(nopts == 21 + 40);
	if (nopts != 21 + 40)
		fprintf(stderr, "  --help names %zu options\n", nopts);
	for (c = 33; c < 127; c++) {
		char opt[3] = { '-', (char)c, 0 };

		if (c == '-')
			continue;
		P(opt);
		if (strchr(shorts, c))
			CHECK(strncmp(err, "unknown option", 14) != 0);
		else
			CHECK(strncmp(err, "unknown option", 14) == 0);
	}
}

/*
 * Every range a message states is what the parser accepts: for each
 * numeric field, an out-of-range value gives "from MIN to MAX" or "at most
 * MAX", and MIN and MAX, given back in the same place, are accepted.  (The
 * messages used to be hand-written: "-s 64m:100" said "256 to 1m", and
 * "1m" is not a chunk size the parser takes.)
 */
struct range_case {
	const char *opt; /* the option */
	const char *pre; /* its argument up to the field */
	const char *bad; /* a well-formed value out of range */
};

static void check_bound(const struct range_case *c, const char *v)
{
	char arg[256];
	int r;

	snprintf(arg, sizeof(arg), "%s%s", c->pre, v);
	r = P(c->opt, arg, "-d", ".");
	CHECK(r == CLYDE_OPTS_RUN);
	if (r != CLYDE_OPTS_RUN)
		fprintf(stderr, "  %s %s (a bound the message gave): %s\n",
			c->opt, arg, err);
}

/* Copy the token at s (up to a blank, comma or semicolon) into out. */
static void token(const char *s, char *out, size_t len)
{
	size_t n = strcspn(s, " ,;");

	snprintf(out, len, "%.*s", (int)n, s);
}

static void test_ranges_match_parser(void)
{
	static const struct range_case cases[] = {
		{ "-s", "", "8796093022208" },
		{ "-s", "64m:", "100" },
		{ "-s", "64m:", "2048k" },
		{ "-s", "64m:8k:", "0" },
		{ "-s", "64m:8k:8k:", "1025" },
		{ "-n", "", "4194304" },
		{ "-n", "1:", "9223372036854775808" },
		{ "-n", "1:9223372036854775807:", "9223372036854775808" },
		{ "-n", "1:0:0:", "0" },
		{ "-n", "1:0:0:", "100000" },
		{ "-n", "1:0:0:1:", "100" },
		{ "-c", "", "201" },
		{ "-x", "", "0" },
		{ "-p", "", "32768" },
		{ "-r", "", "8796093022208" },
		{ "--max-runs", "", "1001" },
		{ "-z", "", "18446744073709551616" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct range_case *c = &cases[i];
		char arg[256], lo[64], hi[64];
		const char *from, *to, *most;
		int r;

		snprintf(arg, sizeof(arg), "%s%s", c->pre, c->bad);
		r = P(c->opt, arg, "-d", ".");
		CHECK(r == CLYDE_OPTS_ERROR);
		from = strstr(err, "from ");
		to = from ? strstr(from, " to ") : NULL;
		most = strstr(err, "at most ");
		CHECK((from && to) || most);
		if (!((from && to) || most)) {
			fprintf(stderr, "  %s %s: no range in \"%s\"\n", c->opt,
				arg, err);
			continue;
		}
		if (from && to) {
			token(from + 5, lo, sizeof(lo));
			token(to + 4, hi, sizeof(hi));
			check_bound(c, lo);
		} else {
			token(most + 8, hi, sizeof(hi));
			check_bound(c, "0");
		}
		check_bound(c, hi);
	}
	/* -f takes its value attached. */
	CHECK(P("-f0", "-d", ".") == CLYDE_OPTS_ERROR);
	CHECK(strstr(err, "from 1 to 8796093022207") != NULL);
	CHECK(P("-f8796093022207", "-d", ".") == CLYDE_OPTS_RUN);
}

/* --settle SECONDS: a bound in seconds, 0 only looks. */
static void test_settle(void)
{
	OK("-d", ".");
	CHECK(cfg.settle_ns == 5000000000ull);
	/* cmd_run.c: clyde-mpi and -y wait 0 unless --settle was given. */
	CHECK(!cfg.settle_given);
	OK("--settle", "0");
	CHECK(cfg.settle_ns == 0);
	CHECK(cfg.settle_given);
	OK("--settle=0.25");
	CHECK(cfg.settle_ns == 250000000ull);
	OK("--settle", "3600");
	CHECK(cfg.settle_ns == 3600000000000ull);
	BAD("--settle: \"x\" is not a number of seconds; use seconds from 0 "
	    "to 3600",
	    "--settle", "x");
	BAD("--settle -1: must be at least 0 and at most 3600", "--settle",
	    "-1");
	BAD("--settle 3601: must be at least 0 and at most 3600", "--settle",
	    "3601");
	BAD("--settle: \"nan\" is not a number of seconds", "--settle", "nan");
	BAD("--settle: \"\" is not a number of seconds", "--settle=");
}

int main(void)
{
	test_defaults();
	test_settle();
	test_size();
	test_files();
	test_combined();
	test_simple_options();
	test_fast();
	test_clyde_options();
	test_syntax();
	test_repeatable();
	test_err_buffer();
	test_auto_size();
	test_help_matches_parser();
	test_ranges_match_parser();
	return tap_done();
}

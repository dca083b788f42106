/*
 * The command line of clyde's bonnie++ suite (`clyde [run] [options]`).
 *
 * Every bonnie++ 2.00a option is accepted with bonnie++'s own syntax
 * (getopt string "bc:d:f::g:l:m:n:p:qr:s:u:x:y:z:Z:D"), most also under a
 * long name, plus clyde's own options.  One table in opts.c drives the
 * parser and the --help text, so the two cannot disagree.
 *
 * The parser keeps no state between calls (it does not use getopt), so it
 * may be called any number of times in one process.  It never prints and
 * never exits: an invalid command line gives one line in `err` that names
 * the option as the user typed it and the form it accepts.
 */
#ifndef CLYDE_CLI_OPTS_H
#define CLYDE_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "workloads/bonnie.h"

enum clyde_opts_result {
	CLYDE_OPTS_RUN = 0,   /* cfg and extra are filled: run the suite */
	CLYDE_OPTS_HELP,      /* -h/--help: print clyde_opts_help(), exit 0 */
	CLYDE_OPTS_VERSION,   /* -V/--version: print the version, exit 0 */
	CLYDE_OPTS_ERROR = -1 /* err holds one line; exit 1 */
};

/* Settings that belong to clyde's front end rather than to the suite. */
struct clyde_cli_extra {
	const char *json_path; /* --json FILE, "-" = stdout; NULL when absent */
	const char *db_path;   /* --db PATH: the results history */
	bool no_save;	       /* --no-save: keep this run out of the history */
	bool verbose;	       /* -v: the per-member table */
	bool no_advice;	       /* --no-advice: no advice after the table */
	double until_decided_pct; /* --until-decided PCT; 0: off */
	const char *baseline;	  /* --baseline RESULT; NULL when absent */
};

/*
 * Parse argv[1..argc) into cfg and extra.  argv[0] is the program name (the
 * caller has already removed a `run` subcommand).  cfg is reset with
 * clyde_bonnie_config_init() and extra zeroed first.  String fields of cfg
 * and extra point into argv, which must outlive them.
 *
 * cfg->user holds -u's argument verbatim ("user" or "user:group"; both
 * parts are checked to be non-empty); the caller resolves the names.
 *
 * When -s is not given, cfg->file_size_mib stays 0 with size_given false:
 * the caller sets it with clyde_opts_auto_size_mib() once it knows the RAM.
 * sync_procs != 0 (-p) means "create or remove the semaphores and exit";
 * the checks that only matter for a run are skipped then, as in bonnie++.
 *
 * Returns a clyde_opts_result.  On CLYDE_OPTS_ERROR, err (errlen bytes,
 * may be 0) holds one line without a newline.  Options are read left to
 * right; the last of a repeated option wins; -h or -V ends the parse.
 */
int clyde_opts_parse(int argc, char **argv, struct clyde_bonnie_config *cfg,
		     struct clyde_cli_extra *extra, char *err, size_t errlen);

/* Write the --help text to f.  Returns 0, or -EIO when f reports an error. */
int clyde_opts_help(FILE *f);

/*
 * bonnie++'s file size when -s is not given: max(300, 2 * ram_mib) MiB.
 * ram_mib is -r's value, or the machine's RAM when -r was not given; -r 0
 * therefore gives 300 MiB, as bonnie++ 2.00a does.  A negative ram_mib
 * (unknown) also gives 300.
 */
uint64_t clyde_opts_auto_size_mib(int64_t ram_mib);

#endif

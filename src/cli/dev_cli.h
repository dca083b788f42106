/*
 * What `clyde dev` and `clyde zcav` share once their command lines are
 * read: run the tests, print, write the JSON and CSV, save to the history.
 */
#ifndef CLYDE_CLI_DEV_CLI_H
#define CLYDE_CLI_DEV_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/optmodel.h"
#include "results/dev_result.h"

struct clyde_dev_cli {
	struct clyde_dev_config cfg;
	const char *json;
	const char *csv;
	const char *db;	      /* NULL: the default history */
	const char *zcav_log; /* zcav -l: its text goes there, not stdout */
	bool no_save;
	bool quiet;
	bool table; /* print clyde's table (clyde dev) */
	bool seed_given;
	bool rand_ops_given; /* --rand-ops (a cap with --runtime) */
	bool loops_given;    /* -c (a cap with --runtime) */
	/* Option fields the commands turn into cfg after parsing. */
	const struct clyde_engine_ops *engine; /* --engine */
	int pattern;			       /* --pattern: 1 zeros */
	const char *device;		       /* zcav -f DEVICE */
};

/* --pattern's choices (random, zeros), for the option tables. */
extern const struct clyde_opt_choice clyde_dev_patterns[];

/* zcav's -b "block-MiB[:chunk]" (the chunk: a plain number is MiB, or a
 * size with k or m), as an option of the model (cli/optmodel.h) on a
 * struct clyde_dev_cli. */
int clyde_dev_zcav_block_opt(void *base, const struct clyde_opt *o,
			     const char *name, const char *arg, char *err,
			     size_t len);

/* Fill c with the defaults of `clyde dev` (zcav changes its tests). */
void clyde_dev_cli_init(struct clyde_dev_cli *c);

/* After parsing: the engine and pattern options into c->cfg. */
void clyde_dev_cli_apply(struct clyde_dev_cli *c);

/* Reads `clyde CMD`'s arguments into c; --help sets *help.  0, or -1
 * with the message in err. */
typedef int (*clyde_dev_cli_parse_fn)(int argc, char **argv,
				      struct clyde_dev_cli *c, bool *help,
				      char *err, size_t len);

/* The whole of `clyde CMD` ("dev", "zcav"): read the command line with
 * parse, printing a mistake ("clyde CMD: ...") or the help (print_help,
 * which returns the exit status), then run c's tests on the device and
 * report.  Returns the exit status (enum clyde_exit). */
int clyde_dev_cli_main(const char *cmd, int (*print_help)(void),
		       clyde_dev_cli_parse_fn parse, int argc, char **argv);

/* Take the device path; 0, or -1 with the message in err. */
int clyde_dev_cli_set_path(struct clyde_dev_cli *c, const char *path, char *err,
			   size_t len);

#endif

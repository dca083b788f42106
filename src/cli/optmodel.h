/*
 * One option model for every clyde command, in the style of fio's
 * `struct fio_option`: each option is one table entry that says its long
 * and short name, its type, the field it sets (an offset into the
 * command's own config struct), its bounds, its argument's name and its
 * help line.  The parser, the range and enum messages and the --help text
 * are all made from the entry, so a bound is typed once and what --help
 * shows is what the parser accepts.
 *
 * Defaults are not in the table: they stay in the library's config_init
 * functions (the library uses them without a command line).  --help reads
 * them from a struct the caller initialised, so they are typed once too.
 *
 * Parsing follows getopt's conventions without getopt's globals (the
 * parser keeps its state on the stack, so any number of parses may run in
 * one process): short options group (-qb), an argument may be attached
 * (-s64m) or the next word (-s 64m), an optional argument must be attached
 * (-f8, --fast=8), long options take "--size 64m" or "--size=64m", long
 * names match exactly (no abbreviations, so a new option never changes
 * what an old command line means), operands may come between options, and
 * "--" ends the options.  The parser never prints and never exits: an
 * invalid command line gives one line in err that names the option as
 * the user typed it and what it accepts.
 *
 * Adding an option is one entry in the command's table, e.g.
 *
 *	{ .name = "settle", .type = CLYDE_OPT_SECONDS, .arg = "SECONDS",
 *	  CLYDE_OPT_FIELD(struct tree_cli, cfg.settle_ns),
 *	  .dmax = 3600, .help = "wait until the device is idle first" },
 *
 * with the field in the config struct; nothing else changes.
 */
#ifndef CLYDE_CLI_OPTMODEL_H
#define CLYDE_CLI_OPTMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum clyde_opt_type {
	CLYDE_OPT_FLAG,	   /* bool field := !.invert; takes no argument */
	CLYDE_OPT_UINT,	   /* unsigned field (1, 2, 4 or 8 bytes) */
	CLYDE_OPT_DOUBLE,  /* double field */
	CLYDE_OPT_SECONDS, /* uint64_t nanoseconds from decimal seconds */
	CLYDE_OPT_STRING,  /* const char * into argv (non-empty unless
			    * .empty_ok) */
	CLYDE_OPT_BUF,	   /* char[] field: the argument copied, must fit */
	CLYDE_OPT_ENUM,	   /* int field := the value of the named choice */
	CLYDE_OPT_ENGINE,  /* const struct clyde_engine_ops * from the
			    * engine table (io/engine.h) */
	CLYDE_OPT_IGNORE,  /* argument read and dropped (bonnie++'s -l) */
	CLYDE_OPT_HELP,	   /* stop: the caller prints --help */
	CLYDE_OPT_VERSION, /* stop: the caller prints the version */
	CLYDE_OPT_CALL,	   /* only for an argument with an inner syntax of
			    * its own (-s size:chunk:seeks:seekers): .call */
	CLYDE_OPT_REFUSE,  /* a name this command does not take because it
			    * means something else in another (sweep's -D,
			    * O_DIRECT in run): giving it is the error
			    * "NAME: .help"; never in --help */
};

/* Whether the option takes an argument (FLAG, HELP, VERSION never do;
 * the others default to REQUIRED). */
enum clyde_opt_arg {
	CLYDE_ARG_DEFAULT = 0,
	CLYDE_ARG_NONE,
	CLYDE_ARG_REQUIRED,
	CLYDE_ARG_OPTIONAL, /* attached only: -f8, --fast=8 */
};

struct clyde_opt_choice {
	const char *name;
	int value;
};

struct clyde_opt;

/* Apply a CLYDE_OPT_CALL option.  name is the option as typed ("-s" or
 * "--size"), arg its argument (NULL when an optional one was not given).
 * Returns 0, or -1 with one line in err. */
typedef int (*clyde_opt_call_fn)(void *base, const struct clyde_opt *o,
				 const char *name, const char *arg, char *err,
				 size_t errlen);

struct clyde_opt {
	const char *name; /* long name without "--", or NULL */
	char short_name;  /* 0 when there is none */
	enum clyde_opt_type type;
	enum clyde_opt_arg has_arg;
	int group;	 /* index into clyde_optset.groups */
	const char *arg; /* the argument's name in --help ("N", "FILE") */
	const char *help;

	/* The field, as CLYDE_OPT_FIELD sets them. */
	size_t off, width;
	/* A bool set to true when the option is given, or none. */
	bool has_given;
	size_t given_off;

	/* UINT: the suffixes clyde_size_parse takes ("" for none, "kmgt"
	 * for sizes), the shift of the first, and the bounds after the
	 * suffix's factor.  max 0 means the field's own maximum. */
	const char *suffixes;
	unsigned shift;
	uint64_t min, max;
	bool pow2;
	/* DOUBLE, SECONDS: the bounds; above dmin when dmin_open, else from
	 * it; below dmax when dmax_open, else up to it; dmax 0 means no
	 * upper bound. */
	double dmin, dmax;
	bool dmin_open, dmax_open;
	/* FLAG: store false instead of true (--no-drop-caches). */
	bool invert;
	/* STRING: an empty argument is accepted. */
	bool empty_ok;
	/* ENUM: the choices, ending with { NULL, 0 }. */
	const struct clyde_opt_choice *choices;

	/* Messages: "NAME: "TEXT" is not KIND; FORM".  Made from the entry
	 * when NULL ("a number", "use a whole number from 1 to 1024"). */
	const char *kind;
	const char *form;
	/* After a range in messages and --help: "(units of 1024 files)". */
	const char *note;
	/* --help appends "(MIN..MAX, default D)" from the entry and the
	 * defaults struct; show_range false leaves the range out (it is in
	 * the help text's own words, or too large to be useful). */
	bool show_range;
	bool show_default;

	clyde_opt_call_fn call;
	const void *call_data; /* for .call's own use */
};

/* The field of an entry: its offset and size in TYPE. */
#define CLYDE_OPT_FIELD(TYPE, MEMBER) \
	.off = offsetof(TYPE, MEMBER), .width = sizeof(((TYPE *)0)->MEMBER)
/* The bool field set when the option is given. */
#define CLYDE_OPT_GIVEN(TYPE, MEMBER) \
	.has_given = true, .given_off = offsetof(TYPE, MEMBER)

/* A command's options. */
struct clyde_optset {
	const char *prog; /* "clyde", "clyde tree": for the messages */
	const struct clyde_opt *opts;
	size_t nopts;
	const char *const *groups; /* headings by .group; NULL: none */
	size_t ngroups;
	/* The most operands the command takes (0: options only). */
	int max_operands;
};

enum clyde_opt_result {
	CLYDE_OPT_PARSED = 0,
	CLYDE_OPT_STOP_HELP = 1,
	CLYDE_OPT_STOP_VERSION = 2,
	CLYDE_OPT_FAILED = -1,
};

/*
 * Parse argv[1..argc) into base (the command's struct, already holding
 * its defaults).  Operands go, in order, into operands (set->max_operands
 * slots; may be NULL when that is 0) and their count into *noperands
 * (may be NULL).  More operands than that is an error naming the first
 * extra one.  Returns a clyde_opt_result; -h or -V ends the parse at once,
 * the rest is read left to right and the last of a repeated option wins.
 * Pointers stored point into argv, which must outlive base.
 */
int clyde_opt_parse(const struct clyde_optset *set, int argc, char **argv,
		    void *base, const char **operands, int *noperands,
		    char *err, size_t errlen);

/*
 * getopt's "+" mode, for a command whose options come before a
 * subcommand (clyde history [--db PATH] COMMAND ...): parse the options
 * of argv[1..) up to the first operand, or up to and without "--", and
 * set *first to that operand's index (argc when there is none).  The
 * words from there on are not read: they are the subcommand's.
 */
int clyde_opt_parse_head(const struct clyde_optset *set, int argc, char **argv,
			 void *base, int *first, char *err, size_t errlen);

/*
 * Parse text as option o's number (UINT rules: suffixes, bounds, pow2)
 * into *out, with the messages of the model; field is a sub-field's name
 * for the messages ("chunk" of -s) or NULL.  For CALL options that hold
 * numbers.  Returns 0 or -1 with err set.
 */
int clyde_opt_number(const struct clyde_opt *o, const char *name,
		     const char *field, const char *text, uint64_t *out,
		     char *err, size_t errlen);

/* "must be from 1 to 1024", made from o's bounds; for a CALL option's
 * messages. */
void clyde_opt_range_text(const struct clyde_opt *o, char *buf, size_t len);

/*
 * Write the option lines of set to f, under their group headings:
 * "  -c, --concurrency N   HELP (1..200, default 1)", wrapped to 80
 * columns.  defaults is a struct of the same type as the parser's base
 * holding the defaults (NULL: none shown).  Returns 0 or -EIO.
 */
int clyde_opt_help(const struct clyde_optset *set, const void *defaults,
		   FILE *f);

/* One line in the layout of clyde_opt_help, for what is not an option
 * (a subcommand, an operand): "  SPEC  TEXT", TEXT wrapped to 80 columns
 * from the help column (from the next line when SPEC is too wide). */
void clyde_opt_help_line(FILE *f, const char *spec, const char *text);

#endif

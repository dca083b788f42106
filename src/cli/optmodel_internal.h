/*
 * What the parser of the option model (optmodel.c) and its --help
 * (optmodel_help.c) share.  Internal to them.
 */
#ifndef CLYDE_CLI_OPTMODEL_INTERNAL_H
#define CLYDE_CLI_OPTMODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cli/optmodel.h"

/* Whether o takes an argument: none, required or optional. */
enum clyde_opt_arg clyde_optm_arg_of(const struct clyde_opt *o);

/* The unsigned value of o's field in base. */
uint64_t clyde_optm_load_uint(const void *base, const struct clyde_opt *o);

/* The largest value o's field can hold. */
uint64_t clyde_optm_field_max(const struct clyde_opt *o);

/* The largest value o accepts: its max, else its field's. */
uint64_t clyde_optm_max_of(const struct clyde_opt *o);

/* v as the option would accept it: with the largest suffix that divides
 * it exactly, else as plain digits. */
void clyde_optm_num_text(const struct clyde_opt *o, uint64_t v, char *buf,
			 size_t len);

/* A bound of a decimal option: "100", "0.5", never "1e+06". */
void clyde_optm_dbl_text(double v, char *buf, size_t len);

/* The name of o's argument in messages and --help ("N", "FILE"). */
const char *clyde_optm_arg_name(const struct clyde_opt *o, char *buf,
				size_t len);

/* o's choices, "a, b or c" (separators sep and last_sep), into buf. */
void clyde_optm_choices_text(const struct clyde_opt *o, const char *last_sep,
			     const char *sep, char *buf, size_t len);

/* What o's argument is, in a message ("number", "file name"). */
const char *clyde_optm_kind_of(const struct clyde_opt *o);

/* How to write o's argument: its range and suffixes, into buf. */
void clyde_optm_form_text(const struct clyde_opt *o, char *buf, size_t len);

#endif

/*
 * What clyde run's option table (opts.c) and the parsers of its
 * compound options (opts_fields.c) share.  Internal to them.
 */
#ifndef CLYDE_CLI_OPTS_INTERNAL_H
#define CLYDE_CLI_OPTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/optmodel.h"
#include "cli/opts.h"

/* The largest MiB count whose size in bytes still fits an off_t. */
#define MAX_MIB ((uint64_t)INT64_MAX >> 20)
/* Seekers are threads, each with its own file descriptor. */
#define MAX_SEEKERS 1024u
/* -p N is the value of a SysV semaphore, which cannot exceed SEMVMX. */
#define MAX_SYNC_PROCS 32767u
/* -n counts in units of 1024 files; keep the total below 2^32 files. */
#define MAX_NUM_UNITS ((uint64_t)UINT32_MAX / 1024u)
/* Longest -s/-n argument: every valid one is far shorter. */
#define FIELDS_MAX_LEN 256
/* The result model keeps the machine name in a char[256]. */
#define MAX_MACHINE_LEN 255u

/* What the table's offsets are relative to. */
struct run_opts {
	struct clyde_bonnie_config cfg;
	struct clyde_cli_extra extra;
	bool sync_mode_given; /* -y */
};

/*
 * The options with an inner syntax or bonnie++'s special values, as
 * CLYDE_OPT_CALL entries (cli/optmodel.h) over a struct run_opts: -s
 * SIZE[:CHUNK[:SEEKS[:SEEKERS]]], -n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]], -m
 * (the machine name), -u USER[:GROUP], -f (bare or with a size) and -p.
 */
int clyde_opts_size_opt(void *base, const struct clyde_opt *o, const char *name,
			const char *arg, char *err, size_t len);
int clyde_opts_files_opt(void *base, const struct clyde_opt *o,
			 const char *name, const char *arg, char *err,
			 size_t len);
int clyde_opts_machine_opt(void *base, const struct clyde_opt *o,
			   const char *name, const char *arg, char *err,
			   size_t len);
int clyde_opts_user_opt(void *base, const struct clyde_opt *o, const char *name,
			const char *arg, char *err, size_t len);
int clyde_opts_fast_opt(void *base, const struct clyde_opt *o, const char *name,
			const char *arg, char *err, size_t len);
int clyde_opts_processes_opt(void *base, const struct clyde_opt *o,
			     const char *name, const char *arg, char *err,
			     size_t len);

#endif

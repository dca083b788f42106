/*
 * The job of `clyde tree` (job.h), on one process or on every rank of
 * clyde-mpi: the destinations opened first, the scratch directory (none
 * for --existing), the set-up agreement, the phases (each rank's started
 * together), the run handed to the command to render, --json, --csv and
 * the history written, the tree removed or kept.
 */
#ifndef CLYDE_JOB_JOB_TREE_H
#define CLYDE_JOB_JOB_TREE_H

#include <stdbool.h>

#include "job/job.h"
#include "workloads/tree.h"

struct clyde_job_tree {
	struct clyde_tree_config *cfg;
	const char *dir; /* -d: where the scratch directory is made */
	bool seed_given; /* else cfg->seed is made from the time */
	const char *json, *csv;
	const char *db; /* NULL: the default history */
	bool no_save;
	bool keep; /* --keep: the generated tree stays */
	/* The command's hooks, called with the ui's arg on the rank that
	 * prints (rank 0, or plain clyde) only; each may be NULL. */
	void (*phase_begin)(void *arg, enum clyde_tree_phase p);
	void (*phase_end)(void *arg, enum clyde_tree_phase p,
			  const struct clyde_tree_phase_result *r);
	/* A phase stopped before its end: its progress line is left open. */
	void (*phase_broken)(void *arg);
	/* Render the run; 0, or -1 when an output could not be written. */
	int (*show)(void *arg, const struct clyde_tree_run *run);
};

/* Run the tree workload; returns the status (enum clyde_job_status).
 * dist: clyde-mpi's ranks, NULL for plain clyde. */
int clyde_job_tree_run(const struct clyde_job_tree *a,
		       const struct clyde_job_ui *ui, struct clyde_dist *dist);

#endif

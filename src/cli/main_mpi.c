/*
 * clyde-mpi: clyde run on every rank of an MPI job (docs/mpi.md).
 *
 *   mpirun -np N [--hostfile F] clyde-mpi [--shared] run|tree [options]
 *
 * Every rank runs the suite (or the tree phases) on its own files, in -d
 * with %r (rank) and %h (host) replaced; all start each test together, and
 * rank 0 prints, writes --json and saves the one history entry for all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "dist/dist.h"
#include "dist/mpi_comm.h"

static const char usage[] =
	"usage: mpirun -np N [--hostfile FILE] clyde-mpi [--shared]\n"
	"       [--stonewall SECONDS] run|tree [options]\n"
	"\n"
	"Runs `clyde run` (or `clyde tree`) on every rank of the MPI job,\n"
	"every test started together on all ranks; rank 0 prints the\n"
	"aggregate (total work over the last end minus the first start,\n"
	"latency histograms merged) and saves it, with every rank's and\n"
	"host's share in the JSON.\n"
	"\n"
	"  --shared    one scratch directory for all ranks (made by rank 0 in\n"
	"              -d, which must then name the same directory on every\n"
	"              rank, e.g. on a shared filesystem); the file tests of\n"
	"              all ranks then create in one directory\n"
	"  --stonewall SECONDS\n"
	"              (run only) every rank ends each test that long after\n"
	"              the ranks started it, the work done so far its result\n"
	"              (IOR's stonewall)\n"
	"  -d DIR      (of run and tree) %r is the rank, %h the host name,\n"
	"              %% a percent sign; a missing DIR is made, and removed\n"
	"              at the end\n"
	"  --help      this text; `clyde-mpi run --help` lists run's options,\n"
	"              `clyde-mpi tree --help` tree's\n"
	"\n"
	"Exit status: 0 done, 1 bad options or set-up, 3 a rank failed (rank\n"
	"0 names it, its host and why) or was lost (killed: the others stop\n"
	"at once and name the scratch directory it leaves), 5 interrupted.\n";

int main(int argc, char **argv)
{
	struct clyde_comm comm;
	struct clyde_dist dist;
	volatile sig_atomic_t *intr;
	bool shared = false;
	double wall = 0;
	char err[256];
	int i = 1, status;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--shared")) {
			shared = true;
		} else if (!strcmp(argv[i], "--stonewall")) {
			char *end = NULL;

			if (i + 1 < argc)
				wall = strtod(argv[i + 1], &end);
			if (!end || end == argv[i + 1] || *end ||
			    !isfinite(wall) || wall <= 0 || wall > 1e6) {
				fprintf(stderr,
					"clyde-mpi: --stonewall needs a positive "
					"number of seconds (up to 1000000), "
					"got %s\n",
					i + 1 < argc ? argv[i + 1] : "nothing");
				return CLYDE_EXIT_USAGE;
			}
			i++;
		} else if (!strcmp(argv[i], "--help") ||
			   !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return CLYDE_EXIT_OK;
		} else {
			fprintf(stderr,
				"clyde-mpi: unknown option %s (accepted: "
				"--shared, --stonewall, --help, then run or "
				"tree)\n",
				argv[i]);
			return CLYDE_EXIT_USAGE;
		}
	}
	if (i >= argc || (strcmp(argv[i], "run") && strcmp(argv[i], "tree"))) {
		fprintf(stderr, "clyde-mpi: give the subcommand run or tree "
				"(see clyde-mpi --help)\n");
		return CLYDE_EXIT_USAGE;
	}
	if (wall > 0 && strcmp(argv[i], "run")) {
		fprintf(stderr, "clyde-mpi: --stonewall applies to run only "
				"(tree phases run to their end)\n");
		return CLYDE_EXIT_USAGE;
	}
	intr = clyde_cli_catch_signals();
	if (clyde_mpi_init(&comm, &argc, &argv, intr, err, sizeof(err)) < 0) {
		fprintf(stderr, "clyde-mpi: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (comm.rank == 0 && clyde_mpi_watch_note(&comm))
		fprintf(stderr,
			"clyde-mpi: warning: no watch on lost ranks (%s): a "
			"killed rank is noticed only when mpirun signals the "
			"others\n",
			clyde_mpi_watch_note(&comm));
	if (clyde_dist_init(&dist, &comm) < 0) {
		fprintf(stderr, "clyde-mpi: rank %d: cannot start\n",
			comm.rank);
		comm.ops->abort(&comm, CLYDE_EXIT_USAGE);
	}
	dist.shared = shared;
	dist.stonewall_s = wall;
	status = !strcmp(argv[i], "run") ?
			 clyde_cmd_run_dist(argc - i, argv + i, &dist) :
			 clyde_cmd_tree_dist(argc - i, argv + i, &dist);
	clyde_dist_release(&dist);
	if (clyde_mpi_broken(&comm)) {
		/* MPI cannot finish with a peer gone; the clean-up is done. */
		fflush(NULL);
		_exit(status);
	}
	clyde_mpi_finalize(&comm);
	return status;
}

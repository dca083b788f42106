/*
 * clyde-mpi: clyde run on every rank of an MPI job (docs/mpi.md).
 *
 *   mpirun -np N [--hostfile F] clyde-mpi [--shared] run [clyde run options]
 *
 * Every rank runs the suite on its own files, in -d with %r (rank) and %h
 * (host) replaced; all start each test together, and rank 0 prints,
 * writes --json and saves the one history entry for all of them.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "dist/dist.h"
#include "dist/mpi_comm.h"

static const char usage[] =
	"usage: mpirun -np N [--hostfile FILE] clyde-mpi [--shared] run "
	"[options]\n"
	"\n"
	"Runs `clyde run` on every rank of the MPI job, every test started\n"
	"together on all ranks; rank 0 prints the aggregate (total work over\n"
	"the last end minus the first start, latency histograms merged) and\n"
	"saves it, with every rank's and host's share in the JSON.\n"
	"\n"
	"  --shared    one scratch directory for all ranks (made by rank 0 in\n"
	"              -d, which must then name the same directory on every\n"
	"              rank, e.g. on a shared filesystem)\n"
	"  -d DIR      (of clyde run) %r is the rank, %h the host name, %% a\n"
	"              percent sign; a missing DIR is made, and removed at\n"
	"              the end\n"
	"  --help      this text; `clyde-mpi run --help` lists run's options\n"
	"\n"
	"Exit status: 0 done, 1 bad options or set-up, 3 a rank failed (rank\n"
	"0 names it, its host and why), 5 interrupted.\n";

int main(int argc, char **argv)
{
	struct clyde_comm comm;
	struct clyde_dist dist;
	volatile sig_atomic_t *intr;
	bool shared = false;
	char err[256];
	int i = 1, status;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--shared")) {
			shared = true;
		} else if (!strcmp(argv[i], "--help") ||
			   !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return CLYDE_EXIT_OK;
		} else {
			fprintf(stderr,
				"clyde-mpi: unknown option %s (accepted: "
				"--shared, --help, then run)\n",
				argv[i]);
			return CLYDE_EXIT_USAGE;
		}
	}
	if (i >= argc || strcmp(argv[i], "run")) {
		fprintf(stderr, "clyde-mpi: give the subcommand run (see "
				"clyde-mpi --help)\n");
		return CLYDE_EXIT_USAGE;
	}
	intr = clyde_cli_catch_signals();
	if (clyde_mpi_init(&comm, &argc, &argv, intr, err, sizeof(err)) < 0) {
		fprintf(stderr, "clyde-mpi: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (clyde_dist_init(&dist, &comm) < 0) {
		fprintf(stderr, "clyde-mpi: rank %d: cannot start\n",
			comm.rank);
		comm.ops->abort(&comm, CLYDE_EXIT_USAGE);
	}
	dist.shared = shared;
	status = clyde_cmd_run_dist(argc - i, argv + i, &dist);
	clyde_dist_release(&dist);
	if (clyde_mpi_broken(&comm)) {
		/* MPI cannot finish with a peer gone; the clean-up is done. */
		fflush(NULL);
		_exit(status);
	}
	clyde_mpi_finalize(&comm);
	return status;
}

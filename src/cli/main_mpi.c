/*
 * clyde-mpi: clyde run on every rank of an MPI job (docs/mpi.md).
 *
 *   mpirun -np N [--hostfile F] clyde-mpi [--shared] run|tree [options]
 *
 * Every rank runs the suite (or the tree phases) on its own files, in -d
 * with %r (rank) and %h (host) replaced; all start each test together, and
 * rank 0 prints, writes --json and saves the one history entry for all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/optmodel.h"
#include "dist/dist.h"
#include "dist/mpi_comm.h"

/* clyde-mpi's own options, before run or tree (cli/optmodel.h). */
struct mpi_cli {
	bool shared;
	double stonewall_s; /* 0: none */
	unsigned read_shift;
	bool read_shift_given;
};

static const struct clyde_opt mpi_table[] = {
	{ .name = "shared",
	  .type = CLYDE_OPT_FLAG,
	  CLYDE_OPT_FIELD(struct mpi_cli, shared),
	  .help = "one scratch directory for all ranks (made by rank 0 in -d, "
		  "which must then name the same directory on every rank, "
		  "e.g. on a shared filesystem); the file tests of all ranks "
		  "then create in one directory" },
	{ .name = "stonewall",
	  .type = CLYDE_OPT_DOUBLE,
	  .arg = "SECONDS",
	  CLYDE_OPT_FIELD(struct mpi_cli, stonewall_s),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 1e6,
	  .kind = "a number of seconds",
	  .show_range = true,
	  .help = "(run only) every rank ends each test that long after the "
		  "ranks started it, the work done so far its result (IOR's "
		  "stonewall)" },
	{ .name = "read-shift",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  CLYDE_OPT_FIELD(struct mpi_cli, read_shift),
	  CLYDE_OPT_GIVEN(struct mpi_cli, read_shift_given),
	  .suffixes = "",
	  .min = 0,
	  .max = 1000000,
	  .kind = "a number of ranks",
	  .show_range = true,
	  .help = "(run only) the per-char read, block read and seeks of rank "
		  "r read the files rank (r + N) mod ranks wrote (IOR's -C and "
		  "-Q, elbencho's --rotatehosts), found through rank r's own "
		  "-d (one export mounted once per client) or at the other "
		  "rank's path (one shared filesystem); N a multiple of the "
		  "ranks: each its own" },
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "this text; `clyde-mpi run --help` lists run's options, "
		  "`clyde-mpi tree --help` tree's" },
};

static const struct clyde_optset mpi_set = {
	.prog = "clyde-mpi",
	.opts = mpi_table,
	.nopts = sizeof(mpi_table) / sizeof(mpi_table[0]),
};

/* --help, its option lines made from mpi_table. */
static void usage(void)
{
	fputs("usage: mpirun -np N [--hostfile FILE] clyde-mpi [--shared]\n"
	      "       [--stonewall SECONDS] [--read-shift N] run|tree [options]\n"
	      "\n"
	      "Runs `clyde run` (or `clyde tree`) on every rank of the MPI job,\n"
	      "every test started together on all ranks; rank 0 prints the\n"
	      "aggregate (total work over the last end minus the first start,\n"
	      "latency histograms merged) and saves it, with every rank's and\n"
	      "host's share in the JSON.\n"
	      "\n",
	      stdout);
	clyde_opt_help(&mpi_set, NULL, stdout);
	clyde_opt_help_line(stdout, "-d DIR",
			    "(of run and tree) %r is the rank, %h the host "
			    "name, %% a percent sign; a missing DIR is made, "
			    "and removed at the end");
	fputs("\n"
	      "Exit status: 0 done, 1 bad options or set-up, 3 a rank failed (rank\n"
	      "0 names it, its host and why) or was lost (killed: the others stop\n"
	      "at once and name the scratch directory it leaves), 5 interrupted.\n",
	      stdout);
}

/* What rank 0 printed must have reached its reader, as in clyde's
 * dispatcher (main.c): checked once, at exit, for run and tree. */
static int stdout_close(const char *prog, int status)
{
	return clyde_cli_stdout_close(prog, status, CLYDE_EXIT_TEST_FAILED);
}

int main(int argc, char **argv)
{
	struct clyde_comm comm;
	struct clyde_dist dist;
	volatile sig_atomic_t *intr;
	struct mpi_cli cli = { .shared = false, .stonewall_s = 0 };
	char err[512];
	const char *prog;
	int i, rc, status;

	clyde_cli_stdout_open();
	rc = clyde_opt_parse_head(&mpi_set, argc, argv, &cli, &i, err,
				  sizeof(err));
	if (rc == CLYDE_OPT_STOP_HELP) {
		usage();
		return clyde_cli_stdout_close("clyde-mpi", CLYDE_EXIT_OK,
					      CLYDE_EXIT_USAGE);
	}
	if (rc != CLYDE_OPT_PARSED) {
		fprintf(stderr, "clyde-mpi: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (i >= argc || (strcmp(argv[i], "run") && strcmp(argv[i], "tree"))) {
		fprintf(stderr, "clyde-mpi: give the subcommand run or tree "
				"(see clyde-mpi --help)\n");
		return CLYDE_EXIT_USAGE;
	}
	if (cli.read_shift_given && strcmp(argv[i], "run")) {
		fprintf(stderr, "clyde-mpi: --read-shift applies to run only "
				"(tree phases read their own trees)\n");
		return CLYDE_EXIT_USAGE;
	}
	if (cli.stonewall_s > 0 && strcmp(argv[i], "run")) {
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
	dist.shared = cli.shared;
	dist.stonewall_s = cli.stonewall_s;
	dist.read_shift = cli.read_shift_given ? (long)cli.read_shift : -1;
	prog = !strcmp(argv[i], "run") ? "clyde-mpi run" : "clyde-mpi tree";
	status = !strcmp(argv[i], "run") ?
			 clyde_cmd_run_dist(argc - i, argv + i, &dist) :
			 clyde_cmd_tree_dist(argc - i, argv + i, &dist);
	clyde_dist_release(&dist);
	if (clyde_mpi_broken(&comm)) {
		/* MPI cannot finish with a peer gone; the clean-up is done. */
		fflush(NULL);
		_exit(stdout_close(prog, status));
	}
	clyde_mpi_finalize(&comm);
	return stdout_close(prog, status);
}

# Helpers shared by the clyde-mpi tests (t_mpi.sh, t_mpi_tree.sh,
# t_mpi_stonewall.sh); sourced after lib.sh.
#
# shellcheck shell=bash

require_cmd mpirun
[[ -n ${CLYDE_MPI:-} && -x $CLYDE_MPI ]] ||
	fail "no clyde-mpi binary (CLYDE_MPI); the build found no MPI"

# mpi ARGS...: clyde-mpi ARGS on 4 ranks of this host; its status in RC,
# its standard output in $T/out and its errors in $T/err.
mpi()
{
	# shellcheck disable=SC2034 # read by the tests
	RC=0
	# shellcheck disable=SC2034
	timeout -k 10 120 mpirun --allow-run-as-root --oversubscribe -np 4 \
		"$CLYDE_MPI" "$@" >"$T/out" 2>"$T/err" || RC=$?
}

# The host name as clyde-mpi records it.
# shellcheck disable=SC2034 # read by the tests
host=$(hostname)
host=${host:0:63}

#!/usr/bin/env bash
# clyde-mpi when something goes wrong: a rank that runs out of space stops
# every rank (exit 3, rank 0 names the rank, its host and why); SIGINT to
# mpirun and SIGTERM to the ranks stop them all.  No scratch directory is
# left on any rank; a rank killed with SIGKILL leaves only its own, which
# the lowest surviving rank names, and the survivors notice the loss
# themselves (not waiting for mpirun's SIGTERM) and end within 3 s, under
# mpirun's default kill timeout and under a long one.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

require_cmd mpirun
need_root
[[ -n ${CLYDE_MPI:-} && -x $CLYDE_MPI ]] ||
	fail "no clyde-mpi binary (CLYDE_MPI); the build found no MPI"

host=$(hostname)
host=${host:0:63}

# ENOSPC on rank 2 only, during the file tests: its directory is a 1 MiB
# tmpfs, and the file tests create 1024 files of 1 byte.  The checks
# before the first test pass (1 KiB of data, inodes enough), but tmpfs
# gives each file a page: the 256th fills it.
d=$(new_dir enospc)
for r in 0 1 2 3; do mkdir "$d/r$r"; done
mount -t tmpfs -o size=1M,mode=755 tmpfs "$d/r2" ||
	fail "cannot mount a tmpfs on $d/r2"
at_exit "umount -l '$d/r2'"
RC=0
timeout -k 10 120 mpirun --allow-run-as-root --oversubscribe -np 4 \
	"$CLYDE_MPI" run -d "$d/r%r" -s 0 -n 1:1:1 --no-save -q \
	>"$T/out" 2>"$T/err" || RC=$?
expect_rc 3 "a rank out of space: exit 3"
assert_match "$(cat "$T/err")" \
	"clyde-mpi: rank 2 on $host: .*No space left on device" \
	"rank 0 names the rank, its host and the reason"
for r in 0 1 2 3; do
	assert_empty_dir "$d/r$r" "nothing left in rank $r's directory"
done

# live_ranks PID: how many of mpirun's children are running (not zombies).
live_ranks()
{
	local n=0 p
	for p in $(pgrep -P "$1"); do
		[[ $(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null) == Z ]] ||
			n=$((n + 1))
	done
	echo "$n"
}

# interrupt HOW [MCA...]: start a long run (50 runs in a row: one alone
# ends within a second on a quiet machine), signal it once every rank has
# its scratch directory, wait for the end.  HOW kill0 / kill1 SIGKILL rank
# 0 / 1 and leave in $ranks_s how many seconds the other ranks lived on.
interrupt()
{
	local how=$1 i pid t0 mca=()
	shift
	dir=$(new_dir "int-$how-$#")
	# mpirun kills the ranks a second after its own SIGTERM unless told
	# to wait longer; a loaded machine needs longer to remove the files
	# (10 s: ten times the default).  When the ranks end by themselves
	# (SIGTERM to the ranks) the setting is not wanted: OpenMPI's mpirun
	# then waits out that timeout (twice: before its SIGTERM and before
	# its SIGKILL) before it exits, although every rank has ended; so it
	# is no longer than it needs to be.
	[[ $how != mpirun ]] || mca=(--mca odls_base_sigkill_timeout 10)
	(($# == 0)) || mca=("$@")
	set -m
	mpirun --allow-run-as-root --oversubscribe -np 4 ${mca[@]+"${mca[@]}"} \
		"$CLYDE_MPI" run -d "$dir/r%r" -s 512 -x 50 -f --no-save -q \
		>"$T/out" 2>"$T/err" &
	pid=$!
	set +m
	for ((i = 0; i < 300; i++)); do
		[[ $(find "$dir" -mindepth 2 -maxdepth 2 -name 'clyde.*' |
			wc -l) -eq 4 ]] && break
		sleep 0.05
	done
	[[ $i -lt 300 ]] || fail "$how: the ranks did not start"
	sleep 1
	# The ranks are mpirun's children on one host.
	t0=$(date +%s%N)
	case $how in
	mpirun) kill -INT "$pid" ;;
	ranks) kill -TERM $(pgrep -P "$pid") ;;
	kill*)
		# The rank is in its scratch directory's name: r<rank>/clyde.<pid>.
		victim=$(find "$dir/r${how#kill}" -mindepth 1 -maxdepth 1 \
			-name 'clyde.*' -printf '%f\n' | sed 's/^clyde\.//')
		kill -KILL "$victim"
		for ((i = 0; i < 1200; i++)); do
			(($(live_ranks "$pid") == 0)) && break
			sleep 0.05
		done
		ranks_s=$((($(date +%s%N) - t0) / 1000000000))
		;;
	esac
	# mpirun itself may wait out odls_base_sigkill_timeout (twice) after
	# the ranks have ended.
	for ((i = 0; i < 1200; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		fail "$how: still running 60 s after the signal"
	fi
	RC=0
	wait "$pid" || RC=$?
}

interrupt ranks
expect_rc 5 "SIGTERM to the ranks: exit 5"
assert_match "$(cat "$T/err")" "clyde-mpi: interrupted" "rank 0 says so"
assert_empty_dir "$dir" "SIGTERM: nothing left (the made directories too)"

interrupt mpirun
# OpenMPI's mpirun exits 1 after a SIGINT whatever the ranks return.
[[ $RC -ne 0 ]] || fail "SIGINT to mpirun: exit status 0"
ok "SIGINT to mpirun: non-zero exit ($RC)"
assert_match "$(cat "$T/err")" "clyde-mpi: interrupted" "rank 0 says so"
assert_empty_dir "$dir" "SIGINT: nothing left (the made directories too)"

# A rank killed outright: the others notice at once (their connection to
# rank 0, or rank 0's to it, ends), stop, remove their scratch and exit;
# only the killed rank's scratch directory is left, and named.  With a
# kill timeout of 6 s mpirun signals nobody for 6 s: the ranks must end
# by themselves within 3 s, or they live on to mpirun's SIGTERM (6 s and
# more) and the test fails.  (mpirun forwards their output and exits only
# after twice that timeout: each second of it is paid twice per case.)
for who in 1 0; do
	what="rank $who killed"
	interrupt "kill$who" --mca odls_base_sigkill_timeout 6
	[[ $RC -ne 0 ]] || fail "$what: exit status 0"
	ok "$what: non-zero exit ($RC)"
	((ranks_s <= 3)) || fail "$what: the other ranks lived on ${ranks_s}s"
	ok "$what: the other ranks ended within 3 s (${ranks_s}s), not waiting for mpirun"
	assert_eq "$(find "$dir" -name 'clyde.*')" "$dir/r$who/clyde.$victim" \
		"$what: only the killed rank's scratch directory is left"
	assert_file_match "$T/err" \
		"^clyde-mpi: rank $who was lost \(killed, or its node went down\); the other ranks stop and remove their scratch directories; left: $host:$dir/r$who/clyde\.$victim\$" \
		"$what: one line names the killed rank and its directory"
done
# Under mpirun's default timeout (SIGTERM 1 s after the loss, SIGKILL a
# second later) the ranks end as soon.  mpirun's SIGKILL may come before a
# survivor has removed a large file or even printed its line (seen on a
# machine at load 10 and more), so only the end is required here, and a
# line, when there is one, must name the killed rank and its directory;
# the line itself is required above, with the longer timeout.
interrupt kill1
((ranks_s <= 3)) || fail "default timeout: the other ranks lived on ${ranks_s}s"
ok "default timeout: the other ranks ended within 3 s (${ranks_s}s)"
if grep -q '^clyde-mpi: rank [0-9]* was lost' "$T/err"; then
	assert_file_match "$T/err" "^clyde-mpi: rank 1 was lost .*left: $host:$dir/r1/clyde\.$victim\$" \
		"default timeout: the line names the killed rank and its directory"
else
	ok "default timeout: mpirun ended the survivors before their line"
fi

done_testing

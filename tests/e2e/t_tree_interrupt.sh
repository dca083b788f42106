#!/bin/bash
# Ctrl-C (SIGINT) while the tree is being extracted, and SIGTERM during a
# walk: clyde tree stops, removes the generated tree and its scratch
# directory, says so, and exits 5.
# shellcheck source=tests/e2e/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"

# start_tree DIR ARGS...: clyde tree in the background; pid in $PID.
start_tree()
{
	local d=$1
	shift
	"$CLYDE" tree -d "$d" "$@" >"$T/out" 2>"$T/err" &
	PID=$!
}

# stop_and_wait SIG: send SIG, wait for the exit status (in $RC).
stop_and_wait()
{
	local i
	kill -"$1" "$PID"
	RC=0
	for ((i = 0; i < CLYDE_TIMEOUT * 10; i++)); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$PID" 2>/dev/null; then
		kill -KILL "$PID"
		fail "clyde tree did not stop after SIG$1"
	fi
	wait "$PID" || RC=$?
}

has_files()
{
	[[ $(find "$1" -mindepth 3 -type f 2>/dev/null | head -n 50 | wc -l) -ge 50 ]]
}

# --- SIGINT during extract -------------------------------------------------
D=$(new_dir int)
start_tree "$D" --files 400000 --size fixed:0 --seed 1 --no-drop-caches
wait_for 60 has_files "$D" || {
	kill -KILL "$PID"
	fail "no files appeared"
}
ok "the tree is being extracted"
stop_and_wait INT
assert_eq "$RC" 5 "SIGINT during extract: exit 5"
assert_file_match "$T/err" 'interrupted; removing' "says it removes the scratch directory"
assert_empty_dir "$D" "nothing left after SIGINT"

# --- SIGTERM during a walk ----------------------------------------------------
D=$(new_dir term)
start_tree "$D" --files 60000 --size fixed:0 --seed 2 --no-drop-caches \
	--phases stat_walk,read_walk,par_stat_walk,par_read_walk,stat_walk
in_walk()
{
	grep -q 'stat_walk\.\.\.' "$T/err"
}
wait_for 120 in_walk || {
	kill -KILL "$PID"
	fail "the walks never started"
}
ok "a walk is running"
stop_and_wait TERM
assert_eq "$RC" 5 "SIGTERM during a walk: exit 5"
assert_empty_dir "$D" "nothing left after SIGTERM"

done_testing

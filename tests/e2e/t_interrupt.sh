#!/usr/bin/env bash
# SIGINT and SIGTERM in the middle of a run: clyde stops, removes its
# scratch directory (files and subdirectories included) and exits 5.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

# interrupt SIGNAL DIR ARGS...: start clyde on DIR, wait until its scratch
# directory exists and it has worked a little, send SIGNAL, wait for it.
interrupt()
{
	local sig=$1 dir=$2 pid i rc=0
	shift 2
	# Job control gives the background job its own process group and,
	# unlike a plain `&`, does not make it ignore SIGINT.
	set -m
	"$CLYDE" -d "$dir" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	set +m
	for ((i = 0; i < 100; i++)); do
		[[ -n $(find "$dir" -mindepth 1 -maxdepth 1 -name 'clyde.*') ]] &&
			break
		sleep 0.05
	done
	[[ $i -lt 100 ]] || fail "no scratch directory appeared in $dir"
	sleep 1
	kill -0 "$pid" 2>/dev/null ||
		fail "clyde $* finished before the $sig (make the run bigger)"
	[[ $(count_files "$dir") -gt 1 ]] ||
		fail "nothing was written in the scratch before the $sig"
	kill "-$sig" "$pid"
	for ((i = 0; i < 600; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		fail "clyde still running 30 s after $sig"
	fi
	wait "$pid" || rc=$?
	RC=$rc
}

d=$(new_dir d)
interrupt INT "$d" -s 2g -n 0 -f -r 0
expect_rc 5 "SIGINT during the IO tests: exit status 5"
assert_empty_dir "$d" "SIGINT: the scratch directory and its file are gone"

interrupt TERM "$d" -s 2g -n 0 -f -r 0
expect_rc 5 "SIGTERM during the IO tests: exit status 5"
assert_empty_dir "$d" "SIGTERM: the scratch directory and its file are gone"

# Many small files in 16 subdirectories: cleanup must remove them all.
interrupt INT "$d" -s 0 -n 256:0:0:16 -r 0
expect_rc 5 "SIGINT during the file tests: exit status 5"
assert_empty_dir "$d" "SIGINT: the scratch tree is gone"
assert_file_no_match "$T/out" '^1\.98,' "no CSV line for an interrupted run"
assert_file_match "$T/err" "interrupt" "stderr says it was interrupted"

# A SIGINT once the JSON is written and the run saved (no timing reaches
# that point: CLYDE_TEST_SIGINT_KEPT raises it there): exit 5, and the
# message says where the results are, so a script does not run it again
# and store a duplicate.
if "$CLYDE" history list --db "$T/probe.db" >/dev/null 2>&1; then
	RC=0
	CLYDE_TEST_SIGINT_KEPT=1 "$CLYDE" -d "$d" -s 0 -n 1 -r 0 \
		--json "$T/kept.json" --db "$T/kept.db" >"$T/out" 2>"$T/err" ||
		RC=$?
	expect_rc 5 "SIGINT after the run was saved: exit status 5"
	assert_file_match "$T/err" '^clyde: interrupted after the run was complete$' \
		"SIGINT after the save: says the run was complete"
	assert_file_match "$T/err" "^clyde: the results are kept in $T/kept.json and in the history as run 1 " \
		"SIGINT after the save: names the JSON and the saved run id"
	[[ -s $T/kept.json ]] || fail "SIGINT after the save: no JSON"
	ok "SIGINT after the save: the JSON is there"
	assert_empty_dir "$d" "SIGINT after the save: the scratch is gone"
else
	skip_part "SIGINT after the save: clyde was built without SQLite"
fi

# SIGKILL while the --json file is open (its temporary file is made before
# the first test) leaves the hidden .NAME.tmp.XXXXXX beside it; the next
# write to the same destination names it and says how to remove it.
k=$(new_dir killed)
start_paused -d "$k" -s 0 -n 1 -r 0 --no-save --json "$T/k.json"
# shellcheck disable=SC2317 # called by wait_for
tmp_made()
{
	compgen -G "$T/.k.json.tmp.??????" >/dev/null
}
wait_for 10 tmp_made || { finish_paused; fail "no temporary file for --json"; }
kill -KILL "$CLYDE_PID"
wait "$CLYDE_PID" 2>/dev/null || true
exec 7>&-
stale=$(compgen -G "$T/.k.json.tmp.??????")
rm -rf "${k:?}"/clyde.*
run_clyde -d "$k" -s 0 -n 1 -r 0 --no-save --json "$T/k.json"
expect_rc 0 "the run after the SIGKILL"
assert_file_match "$T/err" "^clyde: note: $stale is the temporary file of a write to $T/k.json that never finished .*rm -- '$stale'\$" \
	"the next --json write names the stale temporary file"
[[ -s $T/k.json ]] || fail "no JSON after the note"
ok "the JSON is written beside it"

done_testing

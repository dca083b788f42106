#!/bin/bash
# SIGKILL of a clyde sweep while its `clyde run` child runs (issue 17,
# section 1.2): the child goes on without it.  The journal records the
# child's process group; --resume ends that group and waits for it before
# anything else (the resumed visit must not run beside it, in the same
# directory), and removes the scratch directory the killed run left, as
# docs/sweep.md promises.
# shellcheck source=tests/e2e/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_root
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi

DB=$T/h.db
D=$(new_dir d)
# Whatever happens, no clyde run of ours goes on after the test: every
# pid seen is noted and killed at exit.
kill_seen()
{
	local p
	while read -r p; do
		kill -KILL "$p" 2>/dev/null
	done < <(tr ' ' '\n' <"$T/pids" 2>/dev/null)
	return 0
}
at_exit kill_seen

# A run that lasts (1000 rounds of the file tests), so that it is running
# when the sweep is killed.
cat >"$T/exp.ini" <<INI
[experiment]
name = kill
repeat = 1
axis a = 1
[workload b]
run = -d $D -s 0 -n 1 -x 1000 -r 0
INI

# scratch_pid: the pid in the name of the one clyde.PID in $D.
scratch_pid()
{
	find "$D" -mindepth 1 -maxdepth 1 -name 'clyde.*' -printf '%f\n' |
		sed -n 's/^clyde\.\([0-9]*\).*/\1/p' | head -n 1
}

has_scratch()
{
	[[ -n $(scratch_pid) ]]
}

"$CLYDE" sweep -q --db "$DB" "$T/exp.ini" >"$T/out" 2>"$T/err" &
pid=$!
wait_for 30 has_scratch || fail "the run never started"
old=$(scratch_pid)
echo "$pid $old" >>"$T/pids"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
id=$(sweep_id)
[[ -n $id ]] || fail "no experiment id"
sleep 0.5
kill -0 "$old" 2>/dev/null || fail "the child died with the sweep: nothing to test"
ok "the killed sweep's clyde run ($old) goes on"
J=$DB.sweep-$id.journal
assert_file_match "$J" "^child	$old:[0-9]+	$D\$" \
	"the journal records its process group and directory"
# Its record still says "running"; no sweep holds its lock any more, so
# the list says what happened (the orphaned clyde run does not count).
run_clyde sweep --db "$DB" --list
expect_rc 0 "sweep --list"
assert_file_match "$T/out" "^$id +interrupted " \
	"the killed sweep is listed as interrupted, not running"

"$CLYDE" sweep -q --db "$DB" --resume "$id" >"$T/out" 2>"$T/err" &
rpid=$!
echo "$rpid" >>"$T/pids"
new=
for ((i = 0; i < 300; i++)); do
	new=$(scratch_pid)
	[[ -n $new && $new != "$old" ]] && break
	new=
	sleep 0.1
done
[[ -n $new ]] || fail "the resumed visit never started its run"
echo "$new" >>"$T/pids"
# When the resumed run has its scratch directory, the old one is gone.
if kill -0 "$old" 2>/dev/null; then
	fail "the old run ($old) still runs beside the resumed one ($new)"
fi
ok "--resume ended the old run's group before starting the visit again"
[[ ! -e $D/clyde.$old ]] || fail "$D/clyde.$old is left"
ok "  and removed its scratch directory"
assert_file_match "$T/err" "ending process group $old" "  it says so"
assert_file_match "$T/err" "removed $D/clyde.$old" "  and names what it removed"
run_clyde sweep --db "$DB" --list
assert_file_match "$T/out" "^$id +running " "the resumed sweep is listed as running"
run_clyde sweep -q --db "$DB" --resume "$id"
expect_rc 1 "a second --resume of a running experiment is refused"
assert_file_match "$T/err" "experiment $id is being run by another clyde sweep, pid $rpid \(lock .*sweep-$id\.lock held\)" \
	"  naming the sweep that runs it"
kill -INT "$rpid"
RC=0
wait "$rpid" || RC=$?
expect_rc 5 "the resumed sweep, interrupted, exits 5"
assert_no_leftovers "$D"
kill -0 "$new" 2>/dev/null && fail "the resumed run ($new) goes on"
ok "nothing of either run is left"
run_clyde sweep --db "$DB" --list
assert_file_match "$T/out" "^$id +stopped " "the interrupted resume is listed as stopped"
[[ ! -e $DB.sweep-$id.lock ]] || fail "the experiment's lock file is left"
ok "the experiment's lock file is removed at the end"

done_testing

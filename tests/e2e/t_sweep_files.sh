#!/bin/bash
# The files a sweep keeps beside the history (issue 30, 3.4):
#  - a FIFO where an experiment's lock goes does not hang `sweep --list`
#    (the experiment shows as interrupted) and --resume refuses it;
#  - two sweeps of one file started in the same second, with two databases
#    in one directory, get one experiment id each and both run: their lock
#    and journal are named after their database too;
#  - a sweep whose TMPDIR cannot hold its work directory fails before it
#    makes the history: no empty database is left.
# shellcheck source=tests/e2e/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
need_cmd mkfifo
need_cmd sqlite3

cat >"$T/exp.ini" <<INI
[experiment]
name = files
repeat = 1

[vars]
crash = true

[point]
setup = {crash}

[workload w]
time = sleep 0.5
INI

# ---- a FIFO where the lock goes ---------------------------------------------
DB=$T/h.db
RC=0
timeout -k 10 "$CLYDE_TIMEOUT" "$CLYDE" sweep -q --db "$DB" \
	--define "crash=kill -KILL \$CLYDE_SWEEP_PID; sleep 5" \
	"$T/exp.ini" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 137 "the sweep was killed inside its first visit"
id=$(sweep_id)
[[ -n $id ]] || fail "no experiment id on stderr"
for f in "$DB.sweep-$id.lock" "$T/sweep-$id.lock"; do
	rm -f "$f"
	mkfifo "$f"
done
RC=0
timeout -k 5 20 "$CLYDE" sweep --list --db "$DB" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 0 "sweep --list with a FIFO as the lock finishes"
assert_file_match "$T/out" "^$id +interrupted " "  and shows the experiment interrupted"
RC=0
timeout -k 5 20 "$CLYDE" sweep -q --resume "$id" --db "$DB" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 1 "--resume refuses a FIFO as its lock"
assert_file_match "$T/err" "sweep-$id\\.lock: not a regular file" "  saying what it is"

# ---- one file, one second, two databases in one directory --------------------
# Started together just after a second begins, so that both ids are made in
# the same second (tried up to three times).
same=
for try in 1 2 3; do
	rm -f "$T"/a.db* "$T"/b.db*
	while (($(date +%N | sed 's/^0*//;s/^$/0/') > 200000000)); do
		sleep 0.05
	done
	"$CLYDE" sweep -q --db "$T/a.db" "$T/exp.ini" >"$T/a.out" 2>"$T/a.err" &
	pa=$!
	"$CLYDE" sweep -q --db "$T/b.db" "$T/exp.ini" >"$T/b.out" 2>"$T/b.err" &
	pb=$!
	ra=0 rb=0
	wait "$pa" || ra=$?
	wait "$pb" || rb=$?
	ia=$(sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/a.err")
	ib=$(sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/b.err")
	if [[ $ra -ne 0 || $rb -ne 0 ]]; then
		cat "$T/a.err" "$T/b.err" >&2
		fail "two sweeps of one file with two databases: exit $ra and $rb, want 0 and 0 (ids $ia $ib, try $try)"
	fi
	if [[ -n $ia && $ia == "$ib" ]]; then
		same=1
		break
	fi
done
[[ -n $same ]] || fail "could not start two sweeps in the same second (busy machine?)"
ok "two sweeps with one id ($ia) in two databases of one directory both ran"
assert_eq "$(sqlite3 "$T/a.db" "SELECT state FROM experiments WHERE id = '$ia'")" \
	finished "  the first is finished"
assert_eq "$(sqlite3 "$T/b.db" "SELECT state FROM experiments WHERE id = '$ib'")" \
	finished "  the second is finished"

# ---- a TMPDIR that cannot hold the work directory -------------------------------
TMPDIR=$T/no-such-dir run_clyde sweep -q --db "$T/t.db" "$T/exp.ini"
expect_rc 1 "a sweep whose TMPDIR does not exist is refused"
assert_file_match "$T/err" "^clyde sweep: $T/no-such-dir: cannot make the sweep's work directory there \\(TMPDIR\\): No such file" \
	"  naming the directory"
[[ ! -e $T/t.db ]] || fail "the refused sweep left a history behind"
ok "  before it made the history"
done_testing

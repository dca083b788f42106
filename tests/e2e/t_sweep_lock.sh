#!/bin/bash
# Two clyde sweeps at once (issue 17, section 1.1): a sweep locks every path
# it writes, so a second sweep that sets the same knob is refused with a
# line naming the holder, and the knob ends as it was (two sweeps that
# both wrote it each restored the other's value: 500 -> 111); two sweeps on
# different knobs both run.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_root
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
KA=/proc/sys/vm/dirty_writeback_centisecs
KB=/proc/sys/vm/dirty_expire_centisecs
[[ -w $KA && -w $KB ]] || skip "$KA and $KB are not writable here"
A0=$(cat "$KA")
B0=$(cat "$KB")
# Whatever happens, the machine keeps its values.
at_exit "echo $A0 > $KA; echo $B0 > $KB"

DB=$T/h.db

# exp NAME KNOB VALUE...: a sweep that writes KNOB at each point and holds
# it a while (the first point waits for $T/go-NAME to exist, so that the
# other sweep starts while this one holds the value).
exp()
{
	local name=$1 knob=$2
	shift 2
	cat >"$T/$name.ini" <<INI
[experiment]
name = $name
repeat = 1
axis v = $*
[point]
set $knob = {v}
setup = for i in \$(seq 100); do [ -e $T/go-$name ] && break; sleep 0.1; done
[workload hold]
time = sleep 0.3
INI
}

exp one "$KA" 111 222
exp two "$KA" 333
exp other "$KB" 444 555

# Same knob: the second is refused while the first holds it.
"$CLYDE" sweep -q --db "$DB" "$T/one.ini" >"$T/one.out" 2>"$T/one.err" &
pid=$!
wait_for 20 grep -q '^111$' "$KA" || fail "the first sweep never wrote $KA"
run_clyde sweep -q --db "$DB" "$T/two.ini"
expect_rc 1 "a second sweep on the same knob is refused"
assert_file_match "$T/err" "$KA is in use by clyde sweep pid $pid \\($T/one.ini\\)" \
	"  with a line naming the holder (pid and file)"
assert_eq "$(cat "$KA")" 111 "  and it wrote nothing"
touch "$T/go-one"
RC=0
wait "$pid" || RC=$?
expect_rc 0 "the first sweep finished"
assert_eq "$(cat "$KA")" "$A0" "$KA as it was before both"

# Different knobs: both run at once, and both values come back.
rm -f "$T/go-one"
"$CLYDE" sweep -q --db "$DB" "$T/one.ini" >"$T/one.out" 2>"$T/one.err" &
pid=$!
wait_for 20 grep -q '^111$' "$KA" || fail "the first sweep never wrote $KA"
touch "$T/go-other"
run_clyde sweep -q --db "$DB" "$T/other.ini"
expect_rc 0 "a sweep on another knob runs meanwhile"
kill -0 "$pid" 2>/dev/null || fail "the first sweep ended before the second ran"
ok "  while the first is running"
touch "$T/go-one"
RC=0
wait "$pid" || RC=$?
expect_rc 0 "the first sweep finished too"
assert_eq "$(cat "$KA")" "$A0" "$KA as it was"
assert_eq "$(cat "$KB")" "$B0" "$KB as it was"

# A killed sweep holds nothing: the lock goes with the process.
rm -f "$T/go-one"
"$CLYDE" sweep -q --db "$DB" "$T/one.ini" >"$T/one.out" 2>"$T/one.err" &
pid=$!
wait_for 20 grep -q '^111$' "$KA" || fail "the sweep never wrote $KA"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
id=$(sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/one.err")
touch "$T/go-one"
run_clyde sweep -q --db "$DB" --resume "$id"
expect_rc 0 "after a SIGKILL, --resume takes the lock and finishes"
assert_file_match "$T/err" "restored $KA = $A0" "  restoring $KA from the journal"
assert_eq "$(cat "$KA")" "$A0" "  $KA as it was"

# No lock file outlives its sweep (issue 30, 3.4): the ones in /run/clyde
# named this test's sweeps, with pids long dead.
left=$(grep -l "($T/" /run/clyde/*.lock 2>/dev/null || true)
[[ -z $left ]] || fail "lock files of ended sweeps are left: $left"
ok "no lock file of an ended sweep is left in /run/clyde"

# One knob by two paths (issue 30, 3.1): a loop device's read-ahead is
# queue/read_ahead_kb and bdi/read_ahead_kb; the lock is the device's and
# the attribute's, not the path's.
if ! command -v losetup >/dev/null || ! truncate -s 8m "$T/ra.img" ||
	! L=$(losetup -f --show "$T/ra.img" 2>/dev/null); then
	skip_part "one knob by two paths: no loop device"
	done_testing
fi
at_exit "losetup -d $L"
N=${L#/dev/}
RA0=$(cat "/sys/block/$N/queue/read_ahead_kb")
exp q "/sys/block/$N/queue/read_ahead_kb" 512
exp b "/sys/block/$N/bdi/read_ahead_kb" 1024
"$CLYDE" sweep -q --db "$DB" "$T/q.ini" >"$T/q.out" 2>"$T/q.err" &
pid=$!
wait_for 20 grep -q '^512$' "/sys/block/$N/queue/read_ahead_kb" ||
	fail "the first sweep never wrote queue/read_ahead_kb"
touch "$T/go-b"
run_clyde sweep -q --db "$DB" "$T/b.ini"
expect_rc 1 "bdi/read_ahead_kb is refused while another sweep holds queue/read_ahead_kb"
assert_file_match "$T/err" "is in use by clyde sweep pid $pid \\($T/q.ini\\)" \
	"  naming the holder"
assert_eq "$(cat "/sys/block/$N/queue/read_ahead_kb")" 512 "  and it wrote nothing"
touch "$T/go-q"
RC=0
wait "$pid" || RC=$?
expect_rc 0 "the first sweep finished"
assert_eq "$(cat "/sys/block/$N/queue/read_ahead_kb")" "$RA0" \
	"  the read-ahead is back to $RA0"
done_testing

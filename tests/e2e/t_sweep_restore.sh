#!/bin/bash
# clyde sweep puts back what a `set` wrote, with a value nothing else puts
# back: a /proc/sys knob (fs/lease-break-time) keeps whatever was last
# written, unlike a loop device's read_ahead_kb, which the kernel resets on
# detach and so hides a restore that never happened.
#  - after each visit: the value the sweep found is there again when it
#    exits, although every point wrote another one;
#  - after a crash (SIGKILL right after the write) the journal's undo on
#    --resume writes the old value back before the resumed visits read
#    their "old" value (else they would put back the crash's).
# The knob is put back at exit whatever happens.
# shellcheck source=tests/e2e/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_root
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
KNOB=/proc/sys/fs/lease-break-time
[[ -r $KNOB && -w $KNOB ]] || skip "cannot write $KNOB"
ORIG=$(cat "$KNOB")
at_exit "echo '$ORIG' > $KNOB"
V1=$((ORIG + 7))
V2=$((ORIG + 11))
DB=$T/h.db

cat >"$T/exp.ini" <<INI
[experiment]
name = restore
axis v = $V1 $V2

[vars]
dir = /tmp/unset
crash = true

[point]
set $KNOB = {v}
setup = {crash}

[workload seen]
time = cat $KNOB >> {dir}/seen
INI

# ---- the restore after every visit ------------------------------------------
mkdir "$T/a"
run_clyde sweep -q --db "$DB" --define "dir=$T/a" "$T/exp.ini"
expect_rc 0 "the sweep finished"
assert_eq "$(sort -u "$T/a/seen" | tr '\n' ' ')" "$V1 $V2 " \
	"each point's workload saw the value its set wrote"
assert_eq "$(cat "$KNOB")" "$ORIG" "$KNOB is back to $ORIG after the sweep"
id=$(sweep_id)
[[ -n $id && ! -e $DB.sweep-$id.journal ]] || fail "the journal of $id was left"
ok "no journal left after a finished sweep"

# ---- a crash right after the write: the journal's undo on --resume ----------
mkdir "$T/b"
RC=0
timeout -k 10 "$CLYDE_TIMEOUT" "$CLYDE" sweep -q --db "$DB" --define "dir=$T/b" \
	--define "crash=[ -e {dir}/fired ] || { touch {dir}/fired; kill -KILL \$CLYDE_SWEEP_PID; sleep 5; }" \
	"$T/exp.ini" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 137 "the sweep was killed after its first write"
id=$(sweep_id)
[[ -n $id ]] || fail "no experiment id on stderr"
assert_eq "$(cat "$KNOB")" "$V1" "the crash left $KNOB at the point's $V1"
[[ -e $DB.sweep-$id.journal ]] || fail "no restore journal after the crash"
ok "the restore journal is there"
run_clyde sweep -q --db "$DB" --resume "$id"
expect_rc 0 "--resume $id finished"
assert_file_match "$T/err" "restored $KNOB = $ORIG\$" \
	"--resume says it put back the value the crash left written"
assert_eq "$(cat "$KNOB")" "$ORIG" "$KNOB is back to $ORIG after --resume"
assert_eq "$(sort -u "$T/b/seen" | tr '\n' ' ')" "$V1 $V2 " \
	"the resumed sweep visited its points"
[[ ! -e $DB.sweep-$id.journal ]] || fail "the journal was left after --resume"
ok "no journal left after --resume"

# ---- a teardown that fails after the value was restored (issue 30, 3.2) -------
# The value is back, so the journal goes: a later --resume must not write
# the old value over one set since (the old code kept the journal and did).
cat >"$T/td.ini" <<INI
[experiment]
name = teardown
axis v = $V1

[point]
set $KNOB = {v}
teardown = false

[workload w]
time = true
INI
run_clyde sweep -q --db "$DB" "$T/td.ini"
expect_rc 3 "a sweep whose teardown fails stops"
id=$(sweep_id)
assert_eq "$(cat "$KNOB")" "$ORIG" "  with $KNOB restored"
[[ ! -e $DB.sweep-$id.journal ]] ||
	fail "the journal was left although its value was restored"
ok "  and no journal left"
echo "$V2" >"$KNOB"
run_clyde sweep -q --db "$DB" --resume "$id"
assert_eq "$(cat "$KNOB")" "$V2" \
	"--resume did not write the old value over $V2, set since"
echo "$ORIG" >"$KNOB"
done_testing

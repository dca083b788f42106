#!/bin/bash
# A sweep file or a journal cannot make root run code (issue 30, 1.1 and
# 1.2).  The history is in a directory another user can write (group
# nogroup, 0770, no sticky bit: the kernel's protected_symlinks does not
# apply there), and that user (nobody) plants files beside it:
#  - a captured value that holds shell code is passed to the commands as
#    data: root's setup echoes it, nothing runs;
#  - a symbolic link sweep-ID.lock to a file of root's: --resume refuses
#    it, naming it, and the file keeps its content;
#  - a journal of nobody's with a capture holding `"; id > FILE; echo "`
#    (the teardown echoes it), a `set` of a /proc/sys knob and a `child`
#    line naming a process group of root's: --resume refuses it with one
#    line naming the journal; no FILE, the knob and the process untouched.
# Each planted file is put under the name this clyde reads
# (DB.sweep-ID.*) and the name clyde read before (sweep-ID.*).
# shellcheck source=tests/e2e/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_root
need_cmd setpriv
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
KNOB=/proc/sys/kernel/printk_ratelimit_burst
[[ -r $KNOB && -w $KNOB ]] || skip "cannot write $KNOB"
ORIG=$(cat "$KNOB")
at_exit "echo '$ORIG' > $KNOB"

PUB=$T/pub
mkdir "$PUB"
chgrp nogroup "$PUB"
chmod 0770 "$PUB"
DB=$PUB/h.db
as_nobody()
{
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
as_nobody test -w "$PUB" || fail "nobody cannot write $PUB"

cat >"$T/exp.ini" <<INI
[experiment]
name = trust
repeat = 1

[point]
capture dev = printf '%s\\n' '"; touch $T/injected; echo "'
setup = echo "{dev}" > $T/captured
teardown = echo "{dev}" > /dev/null

[workload w]
time = true
INI

# ---- a captured value is data -------------------------------------------------
run_clyde sweep -q --db "$DB" "$T/exp.ini"
expect_rc 0 "the sweep with a captured value full of quotes ran"
[[ ! -e $T/injected ]] || fail "the captured value ran as shell code"
ok "  the shell did not run the captured value"
assert_eq "$(cat "$T/captured")" "\"; touch $T/injected; echo \"" \
	"  the command got the value as it was captured"
id=$(sweep_id)
[[ -n $id ]] || fail "no experiment id on stderr"

# plant NAME TARGET|-: as nobody, put FILE (from stdin) or a symbolic link
# at both names of the experiment's NAME (lock, journal).
plant_link()
{
	as_nobody ln -sf "$2" "$DB.sweep-$id.$1"
	as_nobody ln -sf "$2" "$PUB/sweep-$id.$1"
}
plant_file()
{
	local f
	for f in "$DB.sweep-$id.$1" "$PUB/sweep-$id.$1"; do
		as_nobody tee "$f" >/dev/null <"$T/planted"
	done
}
unplant()
{
	as_nobody rm -f "$DB.sweep-$id.$1" "$PUB/sweep-$id.$1"
}

# ---- a link where the lock goes -------------------------------------------------
echo precious >"$T/victim"
plant_link lock "$T/victim"
run_clyde sweep -q --db "$DB" --resume "$id"
[[ $RC -ne 0 ]] || fail "--resume took a lock that is nobody's link"
ok "--resume refuses a symbolic link as its lock (exit $RC)"
assert_file_match "$T/err" "sweep-$id\\.lock: a symbolic link" \
	"  naming the link"
assert_eq "$(cat "$T/victim")" precious "  the file it points to is untouched"
unplant lock

# ---- a journal of nobody's --------------------------------------------------------
setsid sleep 300 &
victim=$!
at_exit "kill $victim"
start=$(awk '{ print $22 }' "/proc/$victim/stat")
printf 'visit\t0\t1\ncapture\tdev\t"; id > %s; echo "\nset\t%s\t%s\nchild\t%s:%s\t-\n' \
	"$T/pwned" "$KNOB" "$((ORIG + 5))" "$victim" "$start" >"$T/planted"
plant_file journal
run_clyde sweep -q --db "$DB" --resume "$id"
expect_rc 1 "--resume refuses a journal nobody wrote"
assert_file_match "$T/err" "^clyde sweep: $PUB/(h\\.db\\.)?sweep-$id\\.journal: owned by uid [0-9]+, not by uid 0 that runs clyde; not trusted" \
	"  with one line naming the journal and why"
assert_eq "$(wc -l <"$T/err")" 1 "  one line"
[[ ! -e $T/pwned ]] || fail "the journal's capture ran as root: $(cat "$T/pwned")"
ok "  its captured value ran nothing"
assert_eq "$(cat "$KNOB")" "$ORIG" "  its set wrote nothing to $KNOB"
kill -0 "$victim" 2>/dev/null || fail "the journal's child line killed process group $victim"
ok "  its child line killed nothing"
[[ -e $DB.sweep-$id.journal ]] || fail "the planted journal was removed"
ok "  and it is left where it is"

# The same journal written by root (clyde's own): the capture is data.
unplant journal
for f in "$DB.sweep-$id.journal" "$PUB/sweep-$id.journal"; do
	cp "$T/planted" "$f"
	chmod 600 "$f"
done
kill "$victim"
wait "$victim" 2>/dev/null || true
run_clyde sweep -q --db "$DB" --resume "$id"
expect_rc 0 "--resume undoes root's own journal"
[[ ! -e $T/pwned ]] || fail "a journalled capture ran in the teardown"
ok "  the teardown got its captured value as data"
assert_eq "$(cat "$KNOB")" "$ORIG" "  the knob holds what it held"
done_testing

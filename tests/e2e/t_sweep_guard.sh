#!/bin/bash
# clyde sweep refuses what it must not do, before it does it, and says so
# on one line that a terminal shows as it is (issue 17, section 1):
# - `set` only below /sys and /proc/sys, symlinks resolved, refused at parse
#   time (--dry-run catches it, exit 1): /proc/self/root/..., /proc/self/cwd/...,
#   /etc/hostname, and a captured value that leads out;
# - a write that failed is not "restored", and its journal is removed;
# - a failing capture's output and a long command line are shown bounded,
#   the journal removed;
# - the resume hint after a failed point names --db;
# - tree (and run) options are checked at parse time;
# - a 199-character line is accepted, a missing "]" reported on its line;
# - terminal escapes in keys and newlines in paths are shown escaped.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_root
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi

DB=$T/h.db
JDIR=$T

# exp NAME SET-LINE [MORE]: a one-point experiment that writes SET-LINE.
exp()
{
	printf '[experiment]\nname = %s\nrepeat = 1\naxis a = 1\n[point]\n%s\n%s\n[workload w]\ntime = true\n' \
		"$1" "$2" "${3:-}" >"$T/$1.ini"
}

# ---- set paths, refused at parse time ------------------------------------
echo original >"$T/victim"
cd "$T"
for spec in "root:set /proc/self/root$T/victim = hello" \
	"cwd:set /proc/self/cwd/victim = hello" \
	"hostname:set /etc/hostname = hello" \
	"dotdot:set /proc/sys/../self/cwd/victim = hello" \
	"version:set /proc/version = hello"; do
	name=${spec%%:*}
	exp "$name" "${spec#*:}"
	run_clyde sweep --dry-run "$T/$name.ini"
	expect_rc 1 "set ($name): the dry run refuses it"
	assert_file_match "$T/err" "$name.ini:6: set .*only files below /sys and /proc/sys" \
		"set ($name): the message names the file, line and what is accepted"
	run_clyde sweep -q --db "$DB" "$T/$name.ini"
	expect_rc 1 "set ($name): refused before anything runs"
	assert_eq "$(cat "$T/victim")" original "set ($name): nothing written"
done
# A path that is only known at the visit (a captured value) and leads out
# is refused there, and nothing is written.
exp captured 'capture p = echo ../../../proc/self/cwd/victim' 'set /sys/{p} = hello'
run_clyde sweep -q --db "$DB" "$T/captured.ini"
expect_rc 3 "set from a captured value that leads out: the point fails"
assert_file_match "$T/err" "only files below /sys and /proc/sys" "  and says why"
assert_eq "$(cat "$T/victim")" original "  nothing written"
cd /

# ---- a failed write is not restored; the journal goes ----------------------
exp failwrite 'set /proc/sys/kernel/osrelease = hello'
run_clyde sweep -q --db "$DB" "$T/failwrite.ini"
expect_rc 3 "a write that fails fails the point"
assert_file_match "$T/err" 'osrelease: open for writing' "  the failed write is named"
assert_file_no_match "$T/err" 'restore' "  and nothing is \"restored\""
assert_eq "$(find "$JDIR" -maxdepth 1 -name 'sweep-*.journal' | wc -l)" 0 \
	"  no journal left"
# The hint after a failed point names the history it used.
assert_file_match "$T/err" "continue with: clyde sweep --resume [^ ]+ --db $DB\$" \
	"the resume hint after a failed point has --db"

# ---- bounded output of a failing capture, long command lines ---------------
cat >"$T/capture.ini" <<'INI'
[experiment]
name = capture
repeat = 1
axis a = 1
[vars]
w = 0123456789012345678901234567890123456789
w2 = {w}{w}{w}{w}{w}{w}{w}{w}{w}{w}
w3 = {w2}{w2}{w2}{w2}{w2}{w2}{w2}{w2}{w2}{w2}
w4 = {w3}{w3}{w3}{w3}{w3}{w3}{w3}{w3}{w3}{w3}
[point]
capture x = head -c 50000000 /dev/zero | tr '\0' y; exit 1; : {w4}
teardown = echo {x} > /dev/null
[workload w]
time = true
INI
run_clyde sweep -q --db "$DB" "$T/capture.ini"
expect_rc 3 "a failing capture fails the point"
size=$(wc -c <"$T/err")
((size < 8000)) || fail "a 50 MB capture and a 40 kB command line: $size bytes of messages"
ok "  the messages are bounded ($size bytes)"
assert_file_match "$T/err" '\.\.\. \([0-9]+ bytes\)' "  the command line is cut, its length said"
assert_eq "$(find "$JDIR" -maxdepth 1 -name 'sweep-*.journal' | wc -l)" 0 \
	"  no journal left"
# A capture that succeeds with more than a value may hold.
sed -i 's/; exit 1; : {w4}//' "$T/capture.ini"
run_clyde sweep -q --db "$DB" "$T/capture.ini"
expect_rc 3 "a 50 MB captured value fails the point"
assert_file_match "$T/err" 'capture x: 50000000 bytes of output, more than the 4096' \
	"  and says how much it was"
((size < 8000)) || fail "  bounded"
assert_eq "$(find "$JDIR" -maxdepth 1 -name 'sweep-*.journal' | wc -l)" 0 \
	"  no journal left"

# ---- workload options checked before the first visit -----------------------
mkdir -p "$T/d"
printf '[experiment]\nname = opts\nrepeat = 1\naxis a = 1\n[point]\nsetup = touch %s/setup-ran\n[workload w]\ntree = -d %s --files -5\n' \
	"$T" "$T/d" >"$T/tree.ini"
run_clyde sweep --dry-run "$T/tree.ini"
expect_rc 1 "tree = --files -5: the dry run refuses it"
assert_file_match "$T/err" 'tree.ini:8: workload w, point 1: --files: "-5"' \
	"  naming the file, line and option"
run_clyde sweep -q --db "$DB" "$T/tree.ini"
expect_rc 1 "  and the sweep exits 1 at parse time"
[[ ! -e $T/setup-ran ]] || fail "  a setup command ran"
ok "  before any setup command"
sed -i 's/^tree = .*/run = --bogus/' "$T/tree.ini"
run_clyde sweep --dry-run "$T/tree.ini"
expect_rc 1 "run = --bogus: refused at parse time too"

# ---- line length, missing ] ------------------------------------------------
line="time = true $(printf '%*s' 187 '' | tr ' ' '#')"
assert_eq "${#line}" 199 "(a line of 199 characters)"
printf '[experiment]\nname = long\nrepeat = 1\naxis a = 1\n[workload w]\n%s\n' "$line" >"$T/long.ini"
run_clyde sweep --dry-run "$T/long.ini"
expect_rc 0 "a 199-character line is accepted"
printf '[experiment]\nname = long\nrepeat = 1\naxis a = 1\n[workload w]\n%s#\n' "$line" >"$T/long.ini"
run_clyde sweep --dry-run "$T/long.ini"
expect_rc 1 "a 200-character line is refused"
assert_file_match "$T/err" 'long.ini:6: line longer than 199 characters' "  at most 199, it says"
printf '[experiment\nname = x\nrepeat = 1\naxis a = 1\n[workload w]\ntime = true\n' >"$T/bracket.ini"
run_clyde sweep --dry-run "$T/bracket.ini"
expect_rc 1 "a section header without ]"
assert_file_match "$T/err" 'bracket.ini:1: \[experiment: a section header needs its "\]"' \
	"  reported on its own line"

# ---- escapes ------------------------------------------------------------------
printf '[experiment]\nname = esc\nrepeat = 1\naxis a = 1\n\033[31mred\033[0m = 1\n[workload w]\ntime = true\n' >"$T/esc.ini"
run_clyde sweep --dry-run "$T/esc.ini"
expect_rc 1 "an unknown key with terminal escapes"
assert_file_no_match "$T/err" $'\033' "  no escape reaches the terminal"
assert_file_match "$T/err" 'unknown key "\\x1b\[31mred\\x1b\[0m"' "  it is shown escaped"
mnt="$T/mnt
dir"
mkdir -p "$mnt"
printf '[experiment]\nname = nl\nrepeat = 1\naxis a = 1\n[vars]\nmnt = x\n[point]\nsetup = test -z "{mnt}"\n[workload w]\ntime = true\npath = {mnt}\n' >"$T/nl.ini"
# A --define value is a point's label and goes into commands: one with a
# control character (a newline here) is refused before anything runs.
run_clyde sweep -q --db "$DB" --define "mnt=$mnt" "$T/nl.ini"
expect_rc 1 "a mount path with a newline (-D): refused"
assert_eq "$(wc -l <"$T/err")" 1 "  in one line"
assert_file_match "$T/err" '^clyde sweep: --define: "mnt=.*/mnt\\ndir" contains a control character' \
	"  naming --define and the value, the newline shown as \\n"

done_testing

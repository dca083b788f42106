#!/usr/bin/env bash
# bench/freshfs.sh through bench/bonnie_wall.sh -F: every run of the file
# tests gets a fresh ext4 of its own (a loop device over a sparse file in
# the directory under test), both tools run on it, and nothing is left
# behind: no image, no mount point, no loop device, also when the run
# fails; a bad -F value is one line, exit 2, nothing made.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd bonnie++ python3 losetup mkfs.ext4
script=$CLYDE_SRC/bench/bonnie_wall.sh
d=$(new_dir d)

# The loop devices whose backing file is in $d (none may be left).
loops_in_d()
{
	losetup -n -O NAME,BACK-FILE 2>/dev/null | awk -v d="$d/" 'index($2, d) == 1 { print $1 }'
}

RC=0
bash "$script" -n 1 -F 256m -b "$CLYDE" -o "$T/keep" "$d" 1 >"$T/out" 2>"$T/err" || RC=$?
# 0 or 1: the runs were made (1 is issue 8's ratio target missed, which at
# 1024 files depends on how long bonnie++'s machine-wide sync() waits for
# the other tests' writeback); 2 would be an error.
[[ $RC -eq 0 || $RC -eq 1 ]] || { cat "$T/err" >&2; fail "bonnie_wall.sh -F 256m -n 1: exit $RC, want 0 or 1"; }
ok "bonnie_wall.sh -F 256m -n 1 (1024 files) made its runs (exit $RC)"
assert_file_match "$T/out" "^target \(ratio <= 1.2" "it printed its verdict after both runs"
assert_file_match "$T/out" "a fresh 256m ext4 on a loop device there for every run" \
	"the header says each run has a fresh filesystem"
assert_file_match "$T/out" "^bonnie\+\+ run 1: " "bonnie++ ran"
assert_file_match "$T/out" "^clyde    run 1: " "clyde ran"
# clyde's JSON names the filesystem it ran on: ext4 on a loop device, not
# the directory's own.
run_checker "$T/keep/clyde.1.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["target"]
print(("ok " if "/freshfs-mnt." in json.dumps(t) else "FAIL ") +
      "clyde ran in the fresh filesystem's mount point")
s = json.dumps(doc["stack"]) + json.dumps(t)
print(("ok " if "/dev/loop" in s and '"ext4"' in s else "FAIL ") +
      "clyde's target and stack: ext4 on a loop device")
PY
assert_eq "$(find "$d" -mindepth 1 | wc -l)" 0 "nothing left in the directory"
assert_eq "$(loops_in_d | wc -l)" 0 "no loop device left over a file in the directory"

# A run that fails (no such clyde) still removes what it made.
RC=0
bash "$script" -n 1 -F 256m -b /bin/false "$d" 1 >"$T/out" 2>"$T/err" || RC=$?
expect_rc 2 "a run whose clyde fails exits 2"
assert_eq "$(find "$d" -mindepth 1 | wc -l)" 0 "nothing left after the failure"
assert_eq "$(loops_in_d | wc -l)" 0 "no loop device left after the failure"

RC=0
bash "$script" -n 1 -F lots -b "$CLYDE" "$d" 1 >"$T/out" 2>"$T/err" || RC=$?
expect_rc 2 "-F lots is refused"
assert_eq "$(wc -l <"$T/err")" 1 "-F lots: one line"
assert_file_match "$T/err" "^bonnie_wall: -F lots: " "-F lots: the line names the option"
assert_eq "$(find "$d" -mindepth 1 | wc -l)" 0 "-F lots: nothing made"
done_testing

#!/usr/bin/env bash
# A device busy during the test (issue 32, section 3): --settle looks
# before a test only, so a writer that starts once the test is under way
# left it "busy: false" while its figure fell.  Other processes' bytes
# during the test (their /proc/PID/io, env/others.h) against the device's:
#   - a block write with a dd oflag=dsync writer started on the same
#     filesystem after the settle is flagged busy (settle.busy_during, a
#     sentence in the text naming how much others moved);
#   - the same filesystem quiet (ext4 data=journal, so the journal writes
#     as much as clyde): nothing flagged, and the journal's writes for
#     clyde are the filesystem's work for clyde, not "other I/O".
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 mkfs.ext4 losetup mount umount dd findmnt
[[ -r /proc/self/io ]] || skip "no per-task I/O accounting (/proc/self/io)"
unset CLYDE_SETTLE

mount_loop ext4 400
# data=journal: every block clyde writes goes to the journal too, so the
# filesystem's own writes for clyde are as many as clyde's.
dev=$(findmnt -n -o SOURCE --target "$MNT")
umount "$MNT"
mount -o data=journal "$dev" "$MNT" || skip "ext4 data=journal not mounted"
mkdir "$MNT/work" "$MNT/other"

# ---- quiet: no other I/O shown, the journal is clyde's ------------------
run_clyde -d "$MNT/work" -s 32m -f -n 0 -r 0 --no-save --settle 1 \
	-m quiet --json "$T/quiet.json"
expect_rc 0 "clyde run on the quiet filesystem"
cp "$T/out" "$T/quiet.out"
run_checker "$T/quiet.json" "$T/quiet.out" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
tests = {t["name"]: t for t in doc["runs"][0]["tests"] if t["state"] == "done"}
busy = [n for n, t in tests.items() if t["settle"]["busy"]]
check(not busy, f"no test flagged on the quiet filesystem: {busy}")
shown = [n for n, t in tests.items() if t["io"]["other_shown"]]
check(not shown, f"no other I/O shown on the quiet filesystem: {shown}")
check("other I/O during the test" not in text, "the text says no other I/O")
io = tests["put_block"]["io"]
check(io.get("fs_for_clyde_write_bytes") is not None and
      io["fs_for_clyde_write_bytes"] >= 0.5 * io["own_write_bytes"] and
      io["own_write_bytes"] + io["other_write_bytes"] +
      io["fs_for_clyde_write_bytes"] == io["total_write_bytes"],
      "put_block: own + others' + the filesystem's for clyde = the device's "
      f"({io.get('fs_for_clyde_write_bytes')} for clyde)")
PY

# ---- a dsync writer starting once the block write is under way ----------
CLYDE_BG_OUT=$T/busy.out
timeout -k 10 "$CLYDE_TIMEOUT" "$CLYDE" -d "$MNT/work" -s 200m -f -n 0 -r 0 \
	--no-save --settle 1 -m busy --json "$T/busy.json" \
	>"$CLYDE_BG_OUT" 2>"$T/busy.err" &
CPID=$!
at_exit "kill $CPID 2>/dev/null"
# The block write has passed its settle once its file holds 4 MiB.
for _ in $(seq 1 300); do
	sz=$(find "$MNT/work" -name 'io.*' -type f -printf '%s\n' 2>/dev/null |
		head -n 1)
	[[ -n $sz && $sz -ge 4194304 ]] && break
	sleep 0.02
done
[[ -n $sz && $sz -ge 4194304 ]] || fail "the block write did not start"
(
	cd /
	while :; do
		dd if=/dev/zero of="$MNT/other/f" bs=1M count=20 oflag=dsync \
			conv=notrunc status=none 2>/dev/null || sleep 0.1
	done
) &
WRITER=$!
at_exit "kill $WRITER 2>/dev/null"
RC=0
wait "$CPID" || RC=$?
kill "$WRITER" 2>/dev/null || true
wait "$WRITER" 2>/dev/null || true
expect_rc 0 "clyde run with a writer started during the block write"
run_checker "$T/busy.json" "$CLYDE_BG_OUT" "$T/busy.err" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read() + open(sys.argv[3]).read()
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
t = {t["name"]: t for t in doc["runs"][0]["tests"]}["put_block"]
s = t["settle"]
check(s["busy"], f"put_block: flagged busy (the writer started after its settle): {s.get('still_going_on')}, others {s.get('others_bytes')} of {s.get('device_bytes')}, io {t['io']}")
check(s.get("busy_during") is True and s.get("busy_before") is False,
      f"put_block: busy during the test, not before it: {s}")
check(s.get("others_bytes") and s["device_bytes"] and
      s["others_bytes"] >= 0.1 * s["device_bytes"],
      f"put_block: others moved >= 10% of the device's bytes: "
      f"{s.get('others_bytes')} of {s.get('device_bytes')}")
check(re.search(r"^clyde: warning: block write ran on a busy device: during "
                r"the test other processes \(\d+\) moved [\d.]+ MiB of the "
                r"device's [\d.]+ MiB \(\d+%\)$", text, re.M),
      "the text says how much others moved during the block write")
PY

# ---- the flag reaches compare's tables and history list (issue 32, 1) ---
# (the two runs' file sizes differ: each is its own settings group, so the
# ranking of a flagged figure is e2e/t_flags' with the memory flag; the quiet
# run's 32 MiB may take under 0.5 s on a fast machine: '~148.0')
cd "$T"
run_clyde compare quiet.json busy.json
expect_rc 0 "compare of the quiet and the busy run"
assert_file_match out '^put_block +rate +[KMG]iB/s +~?[0-9.]+ .*[0-9] \(busy\)' \
	"compare: the busy run's block write is marked (busy)"
assert_file_no_match out '\(busy\) \*' "compare: no busy figure is starred"
assert_file_match out '^\(busy\) the device was busy with other I/O' \
	"compare: the legend says what (busy) means"
run_clyde compare --format csv quiet.json busy.json
expect_rc 0 "compare --format csv"
run_checker out <<'PY'
import csv, sys
by = {r["run"]: r for r in csv.DictReader(open(sys.argv[1]))}
def check(c, what):
    print(("ok " if c else "FAIL ") + what)
check(by["busy"]["put_block flags"] == "busy", "csv: busy's put_block flags")
check(by["quiet"]["put_block flags"] == "", "csv: quiet has no flag")
PY
run_clyde history --db "$T/h.db" import quiet.json busy.json
expect_rc 0 "history import"
run_clyde history --db "$T/h.db" list
expect_rc 0 "history list"
assert_file_match out ' busy .* [0-9.]+ \(busy\)' \
	"history list: the busy run's write figure is marked (busy)"
assert_file_no_match out ' quiet .*\(busy\)' "history list: the quiet run is not"

done_testing

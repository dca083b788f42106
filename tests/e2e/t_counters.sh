#!/usr/bin/env bash
# Device counters belong to the test (docs/members.md, "Whose I/O"):
#   - with another writer on the same loop device during the run, the
#     tests' device figures and write amplification are clyde's own
#     (/proc/self/io), the rest is "other I/O during the test", and the
#     tests that started while it was writing are flagged as started on a
#     busy device (--settle);
#   - a read-only tree walk beside that writer wrote nothing of its own;
#   - an xfs external log and an ext4 external journal are members in
#     their role, never "unbalanced" against the data device, and no slow
#     member is named on loop devices whose files share one disk.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/stack_lib.sh
. "$(dirname "$0")/stack_lib.sh"
need_root
need_cmd python3 mkfs.ext4 mke2fs losetup mount umount dd
[[ -r /proc/self/io ]] || skip "no per-task I/O accounting (/proc/self/io)"
# lib.sh sets the suite's default to 0: this test is about the waiting.
unset CLYDE_SETTLE

# writer FILE: rewrite 16 MiB of FILE with O_DIRECT until killed.
writer()
{
	while :; do
		dd if=/dev/zero of="$1" bs=1M count=16 oflag=direct \
			conv=notrunc status=none 2>/dev/null || sleep 0.1
	done &
	WRITER=$!
	at_exit "kill $WRITER"
}

stop_writer()
{
	kill "$WRITER" 2>/dev/null || true
	wait "$WRITER" 2>/dev/null || true
}

# ---- clyde run beside another writer ------------------------------------
mount_loop ext4 300
mkdir "$MNT/work" "$MNT/other"
writer "$MNT/other/f"
run_clyde -d "$MNT/work" -s 32m -n 0 -r 0 --no-save --settle 0.3 \
	--json "$T/run.json"
stop_writer
expect_rc 0 "clyde run on ext4 over a loop device, another writer beside it"
cp "$T/out" "$T/run.out"
run_checker "$T/run.json" "$T/run.out" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
tests = {t["name"]: t for t in doc["runs"][0]["tests"] if t["state"] == "done"}
for name in ("putc", "put_block", "rewrite"):
    t = tests[name]
    io = t["io"]
    check(io["attributed"] and io["own_source"] == "task",
          f"{name}: the figures are clyde's own (/proc/self/io)")
    check(io["own_write_bytes"] + io["other_write_bytes"] +
          io["fs_for_clyde_write_bytes"] == io["total_write_bytes"],
          f"{name}: own + others' + the filesystem's for clyde = the device's total")
    wa = io["write_amplification"]
    check(wa is not None and 0.9 <= wa <= 1.3,
          f"{name}: write amplification {wa} is its own, not the writer's")
    check(t["device"]["write_amplification"] == wa,
          f"{name}: device.write_amplification is the test's")
    m = re.search(r"^%s .* (\S+)x$" % name, text, re.M)
    check(m and abs(float(m.group(1)) - wa) < 0.01,
          f"{name}: the text's WA {m and m.group(1)} is the JSON's")
other = [n for n, t in tests.items() if t["io"]["other_shown"]]
check(other, f"the writer's I/O is other I/O during some tests: {other}")
for n in other:
    check(re.search(r"^clyde: %s: other I/O during the test: " % n, text, re.M),
          f"{n}: the text says the other I/O")
check("clyde's own I/O (its I/O accounting, /proc/self/io)" in text,
      "the text says whose the figures are")
busy = [n for n, t in tests.items() if t["settle"]["busy"]]
check(busy, f"tests that started on the busy device are flagged: {busy}")
for n in busy:
    s = tests[n]["settle"]
    if not s["busy_before"]:
        check(s["busy_during"] and "during the test other processes" in s["still_going_on"],
              f"{n}: busy during the test and says why: {s['still_going_on']}")
        continue
    check(s["looked"] and s["limit_ns"] == 300000000 and s["waited_ns"] >= 300000000
          and s["still_going_on"], f"{n}: waited the bound and says why: {s['still_going_on']}")
# Each flagged test has its line: "started on a busy device (waited" when
# the device was busy before it, "ran on a busy device" when only during
# it (which of the two depends on the writer's timing: a busy machine saw
# every test busy during only).
label = {"putc": "per-char write", "put_block": "block write",
         "rewrite": "rewrite", "getc": "per-char read",
         "get_block": "block read", "seeks": "random seeks"}
flagged = []
for n in busy:
    s = tests[n]["settle"]
    kind = ("started on a busy device \\(waited "
            if s["busy_before"] or not s["busy_during"] else "ran on a busy device: ")
    if re.search(r"^clyde: warning: %s %s" % (re.escape(label.get(n, n)), kind), text, re.M):
        flagged.append(n)
check(busy and flagged == busy,
      f"the text flags each test that started or ran on a busy device: {flagged} of {busy}")
PY

# The same device quiet: nothing flagged, one look before each test.
run_clyde -d "$MNT/work" -s 16m -n 0 -f -r 0 --no-save --json "$T/quiet.json"
expect_rc 0 "clyde run on the quiet device"
run_checker "$T/quiet.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
tests = [t for t in doc["runs"][0]["tests"] if t["state"] == "done"]
busy = [t["name"] for t in tests if t["settle"]["busy"]]
print(("ok " if not busy else "FAIL ") + f"no test flagged on a quiet device: {busy}")
print(("ok " if all(t["settle"]["limit_ns"] == 5 * 10**9 for t in tests) else "FAIL ")
      + "the default --settle is 5 s")
PY
# CLYDE_SETTLE gives the default; --settle wins over it.
CLYDE_SETTLE=0.2 run_clyde -d "$MNT/work" -s 0 -n 1:0:0 -r 0 --no-save \
	--json "$T/env.json"
expect_rc 0 "CLYDE_SETTLE=0.2"
CLYDE_SETTLE=0.2 run_clyde -d "$MNT/work" -s 0 -n 1:0:0 -r 0 --no-save \
	--settle 0 --json "$T/opt.json"
expect_rc 0 "CLYDE_SETTLE=0.2 --settle 0"
run_checker "$T/env.json" "$T/opt.json" <<'PY'
import json, sys
for path, want in zip(sys.argv[1:], (200000000, 0)):
    tests = [t for t in json.load(open(path))["runs"][0]["tests"] if t["state"] == "done"]
    print(("ok " if tests and all(t["settle"]["limit_ns"] == want for t in tests)
           else "FAIL ") + f"{path.split('/')[-1]}: --settle limit {want} ns")
PY
CLYDE_SETTLE=soon run_clyde -d "$MNT/work" -s 0 -n 1 --no-save
expect_rc 1 "CLYDE_SETTLE=soon is refused"
assert_file_match "$T/err" '^clyde: CLYDE_SETTLE "soon": want seconds from 0 to 3600' \
	"... in one line naming CLYDE_SETTLE"

# ---- a read-only tree walk beside the writer ---------------------------
run_clyde tree -d "$MNT/work" --files 300 --phases extract --keep \
	--no-drop-caches -q
expect_rc 0 "a tree kept for the walk"
tree=$(sed -n 's/^clyde tree: kept \(.*\)$/\1/p' "$T/err" | head -n 1)
[[ -n $tree && -d $tree ]] || fail "the kept tree is not found: $(cat "$T/err")"
writer "$MNT/other/f"
run_clyde tree --existing "$tree" --phases read_walk,stat_walk --settle 0.2 \
	--json "$T/tree.json"
stop_writer
expect_rc 0 "a read-only walk beside the writer"
cp "$T/out" "$T/tree.out"
run_checker "$T/tree.json" "$T/tree.out" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
phases = {p["name"]: p for p in doc["runs"][0]["phases"]}
for name in ("read_walk", "stat_walk"):
    io = phases[name]["io"]
    check(io["attributed"] and io["write_bytes"] == 0,
          f"{name}: clyde wrote nothing of its own ({io['write_bytes']})")
    check(io["total_write_bytes"] == io["other_write_bytes"],
          f"{name}: the device's writes ({io['total_write_bytes']}) are other I/O")
    m = re.search(r"^device   %s +read \S+ MB, wrote (\S+) MB \(clyde's own" % name,
                  text, re.M)
    check(m and m.group(1) == "0.0", f"{name}: the text says it wrote 0.0 MB")
walk = phases["read_walk"]["io"]
if walk["other_shown"]:
    check(re.search(r"^device   read_walk .*other I/O during the test: ", text, re.M),
          "read_walk: the text says the other I/O beside")
else:
    print("ok # read_walk: the writer moved too little during the walk to say")
PY

# ---- roles: an xfs external log and an ext4 external journal -----------
if command -v mkfs.xfs >/dev/null; then
	attach 320
	DX=$DEV
	attach 80
	DL=$DEV
	mkfs.xfs -q -f -l logdev="$DL",size=64m "$DX" >/dev/null 2>&1 ||
		fail "mkfs.xfs -l logdev"
	mount_dev "$DX" -o logdev="$DL"
	mkdir "$MNT/work"
	run_clyde -d "$MNT/work" -s 0 -n 2:4096:4096 -r 0 --no-save \
		--json "$T/xfs.json"
	expect_rc 0 "clyde run on xfs with an external log"
	assert_file_no_match "$T/out" "members unbalanced" \
		"xfs: the log device is never unbalanced against the data device"
	run_checker "$T/xfs.json" "${DX##*/}" "${DL##*/}" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
dx, dl = sys.argv[2:4]
for t in doc["runs"][0]["tests"]:
    if t["state"] != "done":
        continue
    roles = {m["device"]: m["role"] for m in t["members"]}
    ok = roles.get(dx) == "data" and roles.get(dl) == "log"
    print(("ok " if ok else "FAIL ") + f"xfs {t['name']}: members in their roles: {roles}")
    print(("ok " if not t["members_check"]["unbalanced"] else "FAIL ")
          + f"xfs {t['name']}: not unbalanced")
PY
else
	ok "# mkfs.xfs missing: the xfs log role is not checked"
fi

attach 300
DE=$DEV
attach 64
DJ=$DEV
mke2fs -q -F -O journal_dev -b 4096 "$DJ" || fail "mke2fs -O journal_dev"
mkfs.ext4 -q -F -b 4096 -J device="$DJ" "$DE" || fail "mkfs.ext4 -J device="
mount_dev "$DE" -o data=journal
mkdir "$MNT/work"
run_clyde -d "$MNT/work" -s 16m -n 1:4096:4096 -f -r 0 --no-save -v \
	--json "$T/ext4j.json"
expect_rc 0 "clyde run on ext4 with an external journal"
assert_file_no_match "$T/out" "members unbalanced" \
	"ext4: the journal device is never unbalanced against the data device"
assert_file_no_match "$T/out" "times longer per byte" \
	"ext4: no slow member named on loop devices over one disk"
assert_file_match "$T/out" "${DJ##*/} \\(journal\\)" \
	"ext4: the -v table names the journal device in its role"
run_checker "$T/ext4j.json" "${DE##*/}" "${DJ##*/}" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
de, dj = sys.argv[2:4]
t = {t["name"]: t for t in doc["runs"][0]["tests"]}["put_block"]
roles = {m["device"]: m["role"] for m in t["members"]}
print(("ok " if roles == {de: "data", dj: "journal"} else "FAIL ")
      + f"ext4: members in their roles: {roles}")
print(("ok " if all(m["stored_on"] for m in t["members"]) and
       len({m["stored_on"] for m in t["members"]}) == 1 else "FAIL ")
      + "ext4: both loop devices are stored on one disk: "
      + str({m["device"]: m["stored_on"] for m in t["members"]}))
jw = [m["write_bytes"] for m in t["members"] if m["device"] == dj][0]
print(("ok " if jw > 0 else "FAIL ") + f"ext4 data=journal: the journal device wrote {jw}")
PY
done_testing

#!/usr/bin/env bash
# clyde compare: a key that does not change what is measured (the log
# interval) neither makes two runs unlike nor explains their difference
# (issue 32 §1).  Two real results that differ only in --log-interval, one
# of them with put_block's rate made 4x: the "!!" stays, and "what
# differs" names log_interval_ns as not changing the measurement.  And
# the kernel's writeback tunables are recorded (machine.vm) and a
# different vm.dirty_background_ratio shows in "what differs".
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
cd "$T" || exit 1
d=$(new_dir d)

run_clyde -d "$d" -s 8 -n 0 -f1 -r 0 --no-save -q --json a.json
expect_rc 0 "a tiny run, log interval 1 s"
run_clyde -d "$d" -s 8 -n 0 -f1 -r 0 --no-save -q --log-interval 200 \
	--json b.json
expect_rc 0 "the same run, log interval 200 ms"
# The rule under test is the log interval's, not the machine's: a test
# that found the device busy (other tests' I/O in ctest's other slot) is
# flagged and not ranked, so both runs are made quiet (a2.json, c.json).
python3 - <<'PY'
import json
def quiet(d):
    for r in d["runs"]:
        for t in r["tests"]:
            s = t.get("settle")
            if s:
                s["busy"] = s["busy_before"] = s["busy_during"] = False
    return d
json.dump(quiet(json.load(open("a.json"))), open("a2.json", "w"))
d = quiet(json.load(open("b.json")))
for r in d["runs"]:
    for t in r["tests"]:
        if t["name"] == "put_block":
            t["rate_per_s"] *= 4
json.dump(d, open("c.json", "w"))
PY

run_clyde compare a2.json c.json
expect_rc 0 "compare of the two"
assert_file_match out '^put_block +rate .* !! ' \
	"put_block 4x apart is flagged !! despite the log interval"
assert_file_match out '^!! runs made alike' "the legend names the !!"
assert_file_match out '^  log_interval_ns \(does not change the measurement\): 1000000000 \(vm\), 200000000 \(vm#2\)$' \
	"what differs names log_interval_ns as not changing the measurement"
assert_file_no_match out 'settings group' "no settings groups"

# --- The writeback tunables, as /proc/sys/vm has them.
if [[ -r /proc/sys/vm/dirty_background_ratio ]]; then
	run_checker a.json <<'PY'
import json, sys
vm = json.load(open(sys.argv[1]))["machine"]["vm"]
def say(c, what): print(("ok " if c else "FAIL ") + what)
for k in ("dirty_ratio", "dirty_background_ratio", "dirty_bytes",
          "dirty_background_bytes", "dirty_expire_centisecs",
          "dirty_writeback_centisecs"):
    want = int(open("/proc/sys/vm/" + k).read())
    say(vm.get(k) == want, "machine.vm.%s is %d" % (k, want))
PY
else
	skip_part "no /proc/sys/vm to check the recorded tunables against"
fi
python3 - <<'PY'
import json
d = json.load(open("a.json"))
vm = d["machine"].setdefault("vm", {})
vm["dirty_background_ratio"] = 3
json.dump(d, open("v3.json", "w"))
vm["dirty_background_ratio"] = 9
json.dump(d, open("v9.json", "w"))
PY
run_clyde compare v3.json v9.json
expect_rc 0 "compare of two runs with other dirty_background_ratio"
assert_file_match out '^  vm\.dirty_background_ratio: 3 \(vm\), 9 \(vm#2\)$' \
	"what differs names vm.dirty_background_ratio"
done_testing

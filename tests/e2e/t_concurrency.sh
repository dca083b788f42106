#!/usr/bin/env bash
# -c 2 really runs two workers at once (bonnie++ only printed the number):
# in the JSON, every IO test has two workers whose [start, end] intervals
# overlap, and each of them did the whole test's work.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3

d=$(new_dir d)
# Big enough that every test lasts well over a scheduler time slice, so
# the overlap cannot be missed by chance.
run_clyde -d "$d" -s 128m:8192:16384 -n 1 -r 0 -f1 -c 2 -q --json "$T/run.json"
expect_rc 0 "clyde -c 2 --json succeeds"
assert_empty_dir "$d" "the -d directory is left empty"
[[ -s $T/run.json ]] || fail "no JSON written to $T/run.json"
ok "JSON file written"

# The checker prints one "ok <what>" or "FAIL <what>" line per assertion.
run_checker "$T/run.json" <<'EOF'
import json, sys

MIB = 1 << 20
doc = json.load(open(sys.argv[1]))
tests = {t["name"]: t for t in doc["runs"][0]["tests"]}

def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)

check(doc["config"]["concurrency"] == 2, "config.concurrency is 2")
check(len(doc["runs"]) == 1, "one run in the document")
# per worker: bytes for the IO tests, ops for seeks and the file tests
want = {
    "putc": ("bytes", 1 * MIB),
    "put_block": ("bytes", 128 * MIB),
    "rewrite": ("bytes", 128 * MIB),
    "getc": ("bytes", 1 * MIB),
    "get_block": ("bytes", 128 * MIB),
    "seeks": ("ops", 16384),
    "seq_create": ("ops", 1024),
    "seq_stat": ("ops", 1024),
    "seq_del": ("ops", 1024),
    "ran_create": ("ops", 1024),
    "ran_stat": ("ops", 1024),
    "ran_del": ("ops", 1024),
}
for name, (field, amount) in want.items():
    t = tests.get(name)
    if t is None:
        check(False, name + ": in the JSON")
        continue
    check(t["state"] == "done", name + ": state done")
    ws = t["workers"]
    check(len(ws) == 2, name + ": two workers")
    if len(ws) != 2:
        continue
    check(sorted(w["index"] for w in ws) == [0, 1], name + ": indexes 0 and 1")
    for w in ws:
        check(w[field] == amount,
              "%s: worker %d %s %d == %d" % (name, w["index"], field,
                                            w[field], amount))
        check(w["start_ns"] < w["end_ns"],
              "%s: worker %d starts before it ends" % (name, w["index"]))
    check(t[field] == 2 * amount, "%s: total %s is the sum" % (name, field))
    if name in ("putc", "put_block", "rewrite", "getc", "get_block", "seeks"):
        latest_start = max(w["start_ns"] for w in ws)
        earliest_end = min(w["end_ns"] for w in ws)
        check(latest_start < earliest_end,
              "%s: the workers ran at the same time (overlap %d ns)"
              % (name, earliest_end - latest_start))
    # elapsed_ns is the test's wall time: from the first worker's start
    # to the last one's end, so never shorter than any worker's own
    # interval (not the fastest worker's time, not a mean) and never their
    # sum.
    first = min(w["start_ns"] for w in ws)
    last = max(w["end_ns"] for w in ws)
    longest = max(w["end_ns"] - w["start_ns"] for w in ws)
    check(t["elapsed_ns"] >= longest,
          "%s: elapsed %d ns >= the longest worker's %d ns"
          % (name, t["elapsed_ns"], longest))
    check(last - first - 1000000 <= t["elapsed_ns"] <= last - first + 1000000,
          "%s: elapsed is the last end - the first start (%d ns, %d ns)"
          % (name, t["elapsed_ns"], last - first))
EOF
[[ $E2E_PASSED -gt 60 ]] || fail "the JSON checker did not run to the end"

done_testing

#!/usr/bin/env bash
# clyde compare: a key that does not change what is measured (the log
# interval) neither makes two runs unlike nor explains their difference
# (issue 32 §1).  Two real results that differ only in --log-interval, one
# of them with put_block's rate made 4x: the "!!" stays, and "what
# differs" names log_interval_ns as not changing the measurement.
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
python3 - <<'PY'
import json
d = json.load(open("b.json"))
for r in d["runs"]:
    for t in r["tests"]:
        if t["name"] == "put_block":
            t["rate_per_s"] *= 4
json.dump(d, open("c.json", "w"))
PY

run_clyde compare a.json c.json
expect_rc 0 "compare of the two"
assert_file_match out '^put_block +rate .* !! ' \
	"put_block 4x apart is flagged !! despite the log interval"
assert_file_match out '^!! runs made alike' "the legend names the !!"
assert_file_match out '^  log_interval_ns \(does not change the measurement\): 1000000000 \(vm\), 200000000 \(vm#2\)$' \
	"what differs names log_interval_ns as not changing the measurement"
assert_file_no_match out 'settings group' "no settings groups"
done_testing

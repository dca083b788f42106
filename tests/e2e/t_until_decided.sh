#!/usr/bin/env bash
# clyde run -x N --until-decided PCT --baseline RESULT: repeats until every
# test's difference to the baseline is decided by the sweep's rule
# (significantly worse or better, or equivalent within +-PCT%), saying
# each decision; the baseline is a result file or a history id; a baseline
# of one run, a missing --baseline or -x are refused before any test.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
d=$(new_dir d)
opts=(-d "$d" -s 16m -n 0 -r 0 -f)

run_clyde "${opts[@]}" -x 2 --no-save --json "$T/base.json"
expect_rc 0 "a baseline of two runs"

# Baselines no real run can be near: 1e250 times faster (the test is on
# log values, so a wide spread of the runs needs a huge ratio), or 1 B/s,
# each with a spread of a millionth, so that two runs decide every test.
python3 - "$T/base.json" "$T/high.json" "$T/low.json" <<'PY'
import json, sys
for out, rate in ((sys.argv[2], 1e250), (sys.argv[3], 1.0)):
    doc = json.load(open(sys.argv[1]))
    for k, run in enumerate(doc["runs"]):
        for t in run["tests"]:
            if t.get("rate_per_s") is not None:
                t["rate_per_s"] = rate * (1 + k * 1e-6)
    json.dump(doc, open(out, "w"))
PY

run_clyde "${opts[@]}" -x 6 --no-save --until-decided 5 --baseline "$T/high.json"
expect_rc 0 "--until-decided against a faster baseline"
assert_eq "$(grep -c '^1\.98,' "$T/out")" 2 "it stopped after two runs of the six"
assert_file_match "$T/err" "until-decided: block write decided after 2 runs: significantly worse than the baseline" \
	"block write is significantly worse, said with its figures"
assert_file_match "$T/err" "until-decided: every test decided against $T/high.json after 2 runs" \
	"and every test is decided"
assert_file_match "$T/err" "statistics over 2 runs" "the statistics of the runs made follow"

run_clyde "${opts[@]}" -x 6 --no-save --until-decided 5 --baseline "$T/low.json"
expect_rc 0 "--until-decided against a slower baseline"
# Here the runs' own spread decides how soon (the baseline has none).
assert_file_match "$T/err" "decided after [0-9] runs: significantly better than the baseline" \
	"a test is significantly better"

# A history id: the faster baseline imported into a history.
if "$CLYDE" history list --db "$T/probe.db" >/dev/null 2>&1; then
	run_clyde history --db "$T/h.db" import "$T/high.json"
	expect_rc 0 "the baseline imported"
	id=$(sed -n 's/.*imported, id \([0-9]*\).*/\1/p' "$T/out" | head -n 1)
	[[ -n $id ]] || fail "no id in: $(cat "$T/out")"
	run_clyde "${opts[@]}" -x 4 --db "$T/h.db" --no-save --until-decided 5 --baseline "$id"
	expect_rc 0 "--baseline as a history id"
	assert_file_match "$T/err" "every test decided against history:$id after 2 runs" \
		"the history's result is the baseline"
else
	skip_part "clyde was built without SQLite: no history id as --baseline"
fi

# Refused before any test, nothing written.
run_clyde "${opts[@]}" -x 3 --no-save --until-decided 5
expect_rc 1 "--until-decided without --baseline"
assert_file_match "$T/err" "--until-decided needs --baseline" "the message names what is missing"
run_clyde "${opts[@]}" --no-save --until-decided 5 --baseline "$T/high.json"
expect_rc 1 "--until-decided without -x"
assert_file_match "$T/err" "needs -x N" "the message asks for -x"
run_clyde "${opts[@]}" -x 3 --no-save --baseline "$T/high.json"
expect_rc 1 "--baseline without --until-decided"
run_clyde "${opts[@]}" -x 1 --no-save --json "$T/one.json"
expect_rc 0 "a result of one run"
run_clyde "${opts[@]}" -x 3 --no-save --until-decided 5 --baseline "$T/one.json"
expect_rc 1 "a baseline of one run is refused"
assert_file_match "$T/err" "it holds one run; deciding needs two runs" "and says why"
assert_eq "$(grep -c '^1\.98,' "$T/out")" 0 "no test ran"
run_clyde "${opts[@]}" -x 3 --no-save --until-decided 5 --baseline "$T/missing.json"
expect_rc 1 "a missing baseline is refused"
assert_file_match "$T/err" "missing.json" "naming the file"
assert_empty_dir "$d" "nothing left behind"
done_testing

#!/usr/bin/env bash
# Repeats: -x N keeps bonnie++'s CSV (a header, N lines) and adds the mean,
# standard deviation and 95% confidence interval per test, in the text on
# stderr and in the JSON's summary; --until-stable PCT stops once every
# interval is within PCT% of its mean (or at --max-runs) and names the tests
# that never settled.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
d=$(new_dir d)

run_clyde -d "$d" -s 16m -n 1 -r 0 -f -x 3 --no-save --json "$T/x3.json"
expect_rc 0 "-x 3 succeeds"
assert_eq "$(head -n 1 "$T/out" | cut -d, -f1-3)" "format_version,bonnie_version,name" \
	"stdout starts with the CSV header"
assert_eq "$(grep -c '^1\.98,' "$T/out")" 3 "three CSV lines"
assert_eq "$(wc -l <"$T/out")" 4 "nothing else on stdout"
assert_file_match "$T/err" "statistics over 3 runs" "stderr has the statistics table"
assert_file_match "$T/err" "^put_block +3 " "a row per test with n = 3"

run_checker "$T/x3.json" <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
check(len(doc["runs"]) == 3, "three runs in the JSON")
seeds = {r["seed"] for r in doc["runs"]}
check(len(seeds) == 1, "every run starts from the same seed")
s = {x["name"]: x for x in doc["summary"]}
for name in ("put_block", "get_block", "seeks", "seq_create"):
    rates = [next(t for t in r["tests"] if t["name"] == name)["rate_per_s"]
             for r in doc["runs"]]
    x = s[name]
    check(x["n"] == 3, f"{name}: n = 3")
    check(abs(x["mean"] - statistics.mean(rates)) <= 1e-6 * max(1, x["mean"]) + 2e-3,
          f"{name}: mean of the three rates")
    # The JSON rounds every figure to 3 decimals: each rate is off by up to
    # 0.0005, which moves the stddev by up to about 0.0007 and the half-width
    # (t = 4.30 over sqrt 3) by 2.5 times that, before its own rounding.
    check(abs(x["stddev"] - statistics.stdev(rates)) <= 1e-6 * max(1, x["stddev"]) + 2e-3,
          f"{name}: sample standard deviation")
    half = 4.302652729911275 * statistics.stdev(rates) / 3 ** 0.5
    check(abs(x["ci95_halfwidth"] - half) <= 1e-6 * max(1, half) + 5e-3,
          f"{name}: 95% CI half-width with Student's t (df 2)")
    check(x["settled"] is None, f"{name}: settled is null without a target")
check(doc["until_stable"] is None, "until_stable null without the option")
PY
[[ $(wc -l <"$T/check") -ge 20 ]] || fail "the JSON checker did not finish"

# A target no short run can meet: all --max-runs runs are made and the
# unsettled tests are named; a loose one stops after three runs.
run_clyde -d "$d" -s 16m -n 0 -r 0 -f --until-stable 0.001 --max-runs 4 \
	--no-save --json "$T/us.json"
expect_rc 0 "--until-stable with a strict target succeeds"
assert_eq "$(grep -c '^1\.98,' "$T/out")" 4 "it made --max-runs runs"
assert_file_match "$T/err" "not settled: " "the unsettled tests are named"
python3 -c 'import json,sys
u=json.load(open(sys.argv[1]))["until_stable"]
sys.exit(0 if u and u["runs_done"] == 4 and u["max_runs"] == 4 and u["target_pct"] == 0.001 and u["unsettled"] else 1)' "$T/us.json" ||
	fail "until_stable in the JSON does not record 4 runs and the unsettled tests"
ok "the JSON records the runs made and the unsettled tests"

run_clyde -d "$d" -s 32m -n 0 -r 0 -f --until-stable 100 --max-runs 12 --no-save
expect_rc 0 "--until-stable with a loose target succeeds"
runs=$(grep -c '^1\.98,' "$T/out")
# Three runs at least (two give no usable interval); on a steady machine
# three are enough for +/-100%, and the bound must not be reached.
[[ $runs -ge 3 && $runs -lt 12 ]] || fail "$runs runs for a +/-100% target"
ok "it stopped early ($runs runs)"
assert_file_match "$T/err" "every test settled" "and says every test settled"

run_clyde -d "$d" -s 16m --until-stable 0
expect_rc 1 "--until-stable 0 is refused"
assert_file_match "$T/err" "until-stable" "the message names the option"
assert_empty_dir "$d" "nothing left behind"
done_testing

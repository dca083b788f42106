#!/usr/bin/env bash
# clyde dev's load options (issue 33, part 1) on a file standing in for a
# device (a tmpfs when root, where it is memory's, which is what the
# limiter needs: a maximum far above the rates asked):
#  - --rate N far below the maximum achieves N within 3%; 4m/s of 4 KiB
#    requests is 1024 a second;
#  - coordinated omission: --rate far above the maximum falls behind its
#    schedule, and the latencies, timed from each request's due time,
#    grow with the test (the median at least a quarter of its time), and
#    the rate is reported as not reached;
#  - --curve=10,20,40 gives 3 rows, asked and achieved rates increasing,
#    each reached;
#  - --latency-target p99=1ns is reported as not met, p99=100s as met
#    (the answer the highest probe that reached its rate);
#  - bad values: one line naming the option, exit 1, no JSON written;
#  - compare has "randread rate at p99 100 s" as a rate row (the higher
#    best; "not met" for a target no rate met), as has the history; the
#    report draws latency against achieved load, a line per result.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3

new_tmpfs_dir load
img=$DIR/dev.img
head -c $((64 << 20)) /dev/urandom >"$img"
run_clyde dev "$img" --no-save --tests randread --rand-ops 100
[[ $RC -eq 0 ]] || skip "O_DIRECT on $DIR: $(head -n 1 "$T/err")"

for args in "--rate 0" "--rate abc" "--rate 5x/s" "--rate -3" \
	"--curve=50,10" "--curve=0" "--curve=10,,20" "--curve=101" \
	"--latency-target p99" "--latency-target p99=5" \
	"--latency-target p100=5ms" "--latency-target 99=5ms" \
	"--target-probes 0" "--rate 100 --curve" \
	"--rate 100 --latency-target p99=5ms" "--tests zcav --curve"; do
	# shellcheck disable=SC2086
	run_clyde dev "$img" --no-save --tests randread --json "$T/bad.json" $args
	expect_rc 1 "clyde dev $args: exit 1"
	assert_eq "$(wc -l <"$T/err")" 1 "clyde dev $args: one line"
	opt=${args%% *}
	opt=${opt%%=*}
	[[ $args == --tests* ]] && opt=--curve
	assert_file_match "$T/err" "^clyde dev: .*${opt}" "clyde dev $args: names $opt"
	[[ ! -e $T/bad.json ]] || fail "clyde dev $args wrote $T/bad.json"
done

# The maximum, at full speed.
run_clyde dev "$img" --no-save --tests randread --rand-ops 20000 \
	--json "$T/max.json"
expect_rc 0 "randread at full speed"
max=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["runs"][0]["tests"][0]["iops"]))' "$T/max.json")
[[ $max -ge 5000 ]] || skip "randread reaches only $max IOPS here"
# A rate far below it: a tenth, at most 4000 a second, for 2 s.
rate=$((max / 10 < 4000 ? max / 10 : 4000))
run_clyde dev "$img" --no-save --tests randread --rate "$rate" \
	--rand-ops $((rate * 2)) --json "$T/rate.json"
expect_rc 0 "randread --rate $rate"
assert_file_match "$T/out" "^randread: --rate $rate requests/s asked, [0-9]+ achieved .*latency from each request's due time" \
	"the text says the rate asked and achieved"
assert_file_no_match "$T/out" "NOT reached" "a rate far below the maximum is reached"
run_clyde dev "$img" --no-save --tests randread --rate 4m/s \
	--rand-ops 1024 --json "$T/bytes.json"
expect_rc 0 "randread --rate 4m/s"
# Far above it: the schedule runs away from the device.
run_clyde dev "$img" --no-save --tests randread --rate 1000000000 \
	--rand-ops 20000 --json "$T/over.json"
expect_rc 0 "randread --rate 1e9"
assert_file_match "$T/out" "the rate asked was NOT reached" "a rate above the maximum is reported as not reached"

# An interrupt while waiting for a due time (one request every 100 s)
# stops the test at once.
start=$(date +%s)
timeout -s INT -k 20 2 "$CLYDE" dev "$img" --no-save --tests randread \
	--rate 0.01 --rand-ops 5 >"$T/out" 2>"$T/err" || true
took=$(($(date +%s) - start))
[[ $took -le 8 ]] || fail "--rate 0.01 interrupted after 2 s took ${took} s"
ok "--rate 0.01: an interrupt ends the wait for a due time (${took} s)"
assert_file_match "$T/err" "interrupted" "--rate 0.01: says interrupted"

run_clyde dev "$img" --no-save --tests randread --curve=10,20,40 \
	--rand-ops 5000 --json "$T/curve.json"
expect_rc 0 "randread --curve=10,20,40"
assert_eq "$(grep -cE '^  (10|20|40)% ' "$T/out")" 3 "the curve's table has 3 rows"

run_clyde dev "$img" --no-save --tests randread --latency-target p99=1ns \
	--target-probes 3 --rand-ops 2000 --json "$T/never.json"
expect_rc 0 "an absurd latency target runs"
assert_file_match "$T/out" "^randread: rate at p99 1 ns: NOT MET at any rate tried; searched 0 to [0-9]+ .* in 3 runs" \
	"an absurd latency target is reported as not met"
run_clyde dev "$img" --no-save --tests randread --latency-target p99=100s \
	--target-probes 2 --rand-ops 2000 --json "$T/easy.json"
expect_rc 0 "a generous latency target runs"
assert_file_match "$T/out" "^randread: rate at p99 100 s: [0-9]+ requests/s \(p99 .*\); searched 0 to [0-9]+ .* down to the bracket [0-9]+ to [0-9]+ in 2 runs" \
	"a generous target: the answer and the bracket"

# compare: the latency target is a row with a direction (higher is
# better), a target not met says so; the history keeps it.
# Two results whose rates at the target are 1000 and 1500 (made from
# easy.json), so that which one compare marks does not hang on noise.
python3 - "$T" <<'PY'
import json, sys
T = sys.argv[1]
for name, iops in (("lo", 1000.0), ("hi", 1500.0)):
    d = json.load(open(f"{T}/easy.json"))
    d["label"] = name
    d["runs"][0]["tests"][0]["latency_target"]["met"] = True
    d["runs"][0]["tests"][0]["latency_target"]["iops"] = iops
    json.dump(d, open(f"{T}/easy_{name}.json", "w"))
PY
run_clyde compare "$T/easy_hi.json" "$T/easy_lo.json" "$T/never.json"
expect_rc 0 "clyde compare of the latency targets"
cp "$T/out" "$T/cmp.txt"
assert_file_match "$T/out" "^randread rate at p99 1 ns +rate +IO/s +not met" \
	"compare: a target not met is 'not met'"
run_clyde dev "$img" --tests randread --latency-target p99=100s \
	--rand-ops 2000 --db "$T/h.db" -q
expect_rc 0 "a latency target saved in the history"
run_clyde history --db "$T/h.db" compare 1
expect_rc 0 "clyde history compare of it"
assert_file_match "$T/out" "^randread rate at p99 100 s +rate +IO/s +([0-9]+|not met)" \
	"the history has the rate at the latency target"
# report: latency against achieved load, one line per result and test.
run_clyde report "$T/curve.json" "$T/curve.json" -o "$T/r.html"
expect_rc 0 "clyde report of a curve"

run_checker "$T" "$rate" <<'PY'
import json, sys
T, rate = sys.argv[1], float(sys.argv[2])
def test(name):
    return json.load(open(f"{T}/{name}.json"))["runs"][0]["tests"][0]
def say(cond, what):
    print(("ok " if cond else "bad ") + what)

r = test("rate")
say(r["rate"]["asked_iops"] == rate, f"rate.asked_iops is {rate}")
say(abs(r["iops"] / rate - 1) < 0.03,
    f"--rate {rate:.0f} achieved within 3% ({r['iops']:.1f})")
say(r["rate"]["reached"] and r["rate"]["latency_from"] == "due",
    "rate.reached, latency from the due time")
b = test("bytes")
say(b["rate"]["asked_iops"] == 1024, "4m/s of 4 KiB requests is 1024 a second")
say(abs(b["iops"] / 1024 - 1) < 0.03, f"4m/s achieved within 3% ({b['iops']:.1f})")

o = test("over")
el = o["elapsed_ns"]
p50 = o["latency"]["p50_ns"]
say(not o["rate"]["reached"], "--rate 1e9: rate.reached false")
# Every request was due at the start: a request's latency is its wait
# behind the others, so the median is about half the test's time.  Timed
# from its submission it would be a single request's time.
say(p50 >= el / 4,
    f"--rate 1e9: latency from the due time (p50 {p50} ns of {el} ns)")
say(o["rate"]["late_max_ns"] >= el / 2,
    "--rate 1e9: the last requests were sent long after their due time")

c = test("curve")
pts = c["curve"]
say(len(pts) == 3 and [p["pct"] for p in pts] == [10, 20, 40],
    "the curve has 3 steps, 10, 20, 40%")
say(all(pts[i]["asked_iops"] < pts[i + 1]["asked_iops"] and
        pts[i]["iops"] < pts[i + 1]["iops"] for i in range(2)),
    "asked and achieved rates increase")
say(all(abs(p["asked_iops"] - c["iops"] * p["pct"] / 100) < 1 for p in pts),
    "each step asks its share of the maximum")
# On a busy machine a step near the maximum may fall short: it must say
# so.  The lowest step (10% of the maximum) is reached.
steps = [(round(p['asked_iops']), round(p['iops'])) for p in pts]
say(pts[0]["reached"] and abs(pts[0]["iops"] / pts[0]["asked_iops"] - 1) < 0.05,
    f"the 10% step achieved within 5% of its rate ({steps})")
say(all(p["reached"] == (p["iops"] >= 0.95 * p["asked_iops"]) and
        (not p["reached"] or p["iops"] / p["asked_iops"] < 1.05)
        for p in pts),
    f"each step within 5% of its rate or marked not reached ({steps})")
say(all(p["p50_ns"] <= p["p99_ns"] <= p["p999_ns"] and
        "read_bytes" in p["device"] for p in pts),
    "each step has p50 <= p99 <= p99.9 and the device's counters")

n = test("never")["latency_target"]
say(n["met"] is False and n["iops"] is None and len(n["probes"]) == 3,
    "p99=1ns: met false, no rate, 3 probes")
say(n["bracket_lo"] == 0 and abs(n["bracket_hi"] - n["max_iops"] / 8) < 1,
    "p99=1ns: the bracket came down to a eighth of the maximum")
import re
row = [l for l in open(f"{T}/cmp.txt") if l.startswith("randread rate at p99 100 s ")]
vals = re.findall(r"([0-9]+)(?: \(memory\))?( \*)?", row[0].split("IO/s", 1)[1]) if row else []
nums = [int(v[0]) for v in vals]
starred = [int(v[0]) for v in vals if v[1]]
say(nums == [1500, 1000] and starred == [1500],
    f"compare: rate at p99 100 s is a rate row, the higher marked best "
    f"({row[0].strip() if row else None})")
html = open(f"{T}/r.html").read()
say('<h2 id="load">' in html, "the report has the load chart")
lines = re.findall(r'<polyline class="load-line"[^>]*points="([^"]*)"', html)
say(len(lines) == 2 and all(len(l.split()) == 3 for l in lines),
    "one line per result, a point per step")
xs = [float(p.split(",")[0]) for p in lines[0].split()]
say(xs == sorted(xs), "the line goes right as the achieved load grows")
say(len(re.findall('class="load-step"', html)) == 6, "a mark per step")
e = test("easy")["latency_target"]
m = e["max_iops"]
pr = e["probes"]
# p99 stays under 100 s, so a probe meets the target when it reaches its
# rate (95%): on a busy machine one at half the maximum may not.
reached = [p["asked_iops"] for p in pr if p["reached"]]
def near(a, b):  # the JSON's 3 decimals
    return abs(a - b) < 0.01
say(len(pr) == 2 and near(pr[0]["asked_iops"], m / 2) and
    near(pr[1]["asked_iops"], m * 3 / 4 if pr[0]["reached"] else m / 4) and
    e["met"] == bool(reached) and
    (e["iops"] == e["bracket_lo"] == max(reached) if reached else
     e["iops"] is None and e["bracket_lo"] == 0),
    "p99=100s: bisection by the probes that reached their rate; the "
    "answer the highest of them, the bracket's low end")
PY
done_testing

#!/bin/bash
# clyde sweep with until-decided (issue 22 section 4): two points whose
# timed commands differ by 8x (sleep 0.4 against sleep 0.05, a few ms of
# jitter, more on a loaded machine) are decided after two to five rounds
# (each look is made at 0.05 / 5; usually two or three), so the sweep stops
# there instead of running its six rounds; each stop is said with its
# reason.  A point that is not decided early runs its six rounds and stops
# at max-runs, with that reason: every check below then fails.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

run_clyde sweep --dry-run /dev/null
if grep -q "without libinih" "$T/err"; then
	skip "built without libinih"
fi
need_cmd sqlite3

cat >"$T/d.ini" <<'EOF_INI'
[experiment]
name = decided
until-decided = 10
max-runs = 6
axis s = 0.4 0.05

[workload nap]
time = sleep {s}
EOF_INI

run_clyde sweep --db "$T/h.db" -q "$T/d.ini"
expect_rc 0 "the until-decided sweep runs"
assert_file_match "$T/err" '^clyde sweep: point 1 \(s=0\.4\) stops after [2-5] runs: significantly worse than s 0\.05 for nap time \(\+[0-9]+% \.\. \+[0-9]+%, p [<=] ' \
	"the slow point stops after two to five runs, worse"
assert_file_match "$T/err" '^clyde sweep: point 2 \(s=0\.05\) stops after [2-5] runs: the best; every other point is decided' \
	"the fast one stops as the best"
n=$(sed -n 's/^clyde sweep: point 1 .* stops after \([0-9]*\) runs.*/\1/p' "$T/err")
assert_eq "$(sqlite3 "$T/h.db" "SELECT count(*) FROM experiment_runs")" \
	"$((2 * n))" "$n rounds of two points ran, not 6"
# Flags may stand before the mark: "!" (the repeats 2x apart or more, as a
# loaded machine makes the 0.05 s nap), "?".
assert_file_match "$T/out" '^0\.05 +[0-9.]+ ± [0-9.]+ ([?!]+ )?★' \
	"the table stars the fast point"

# The best point first in the file: its "every other point is decided"
# still comes after the stop of the point it decided (issue 32, 4).
sed 's/axis s = 0.4 0.05/axis s = 0.05 0.4/' "$T/d.ini" >"$T/first.ini"
run_clyde sweep --db "$T/h2.db" "$T/first.ini"
expect_rc 0 "the sweep with the best point first runs"
grep '^clyde sweep: point [12] ' "$T/err" >"$T/stops" || true
assert_eq "$(sed -n 's/^clyde sweep: point \([12]\) .*/\1/p' "$T/stops" | tr '\n' ' ')" \
	"2 1 " "the other point's stop is said before the best's"
assert_file_match "$T/err" '\(2 points, 6 rounds at most\)' \
	"the start names the points and rounds"

# One point, one repeat: singular, and the dry run names the point once.
printf '[experiment]\nname = one\nrepeat = 1\n[workload w]\ntime = true\n' >"$T/one.ini"
run_clyde sweep --db "$T/h3.db" "$T/one.ini"
expect_rc 0 "a sweep of one point"
assert_file_match "$T/err" '\(1 point, 1 repeat\)' "1 point, 1 repeat: singular"
run_clyde sweep --dry-run "$T/one.ini"
expect_rc 0 "dry run of one point"
assert_file_match "$T/out" '^# point 1/1 \(single point\), repeat 1$' \
	"the dry run says (single point), one pair of parentheses"

# The dry run says what the rule is.
run_clyde sweep --dry-run "$T/d.ini"
expect_rc 0 "dry run"
assert_file_match "$T/out" 'for points whose rank against the best is open' \
	"the dry run names until-decided"

# until-stable and until-decided together: refused with one line.
printf '[experiment]\nuntil-decided = 5\nuntil-stable = 5\n[workload w]\ntime = true\n' \
	>"$T/both.ini"
run_clyde sweep --dry-run "$T/both.ini"
expect_rc 1 "both keys: exit 1"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "one line"
assert_file_match "$T/err" 'until-stable and until-decided: give one' "says why"
done_testing

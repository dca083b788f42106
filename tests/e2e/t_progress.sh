#!/usr/bin/env bash
# The live progress line: on a terminal, stderr carries a redrawn line per
# running test ("\r\e[K<test>: ... of ... (..%), .../s"), erased when the
# test ends; nothing of it when stderr is not a terminal, or with -q.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd script

d=$(new_dir d)
esc=$'\e\\[K'

# Under a pseudo-terminal (script(1) gives clyde one and logs it).  The
# per-char tests of 8 MiB run longer than 2 s anywhere (2 MiB took 7.6 s
# at load 10), and --stonewall 2 ends them at 2 s: several redraws (one
# each 250 ms), and one after the first second, with the current rate.
script -qec "'$CLYDE' -d '$d' -s 16m:8192:4096 -n 0 -f8 -r 0 --stonewall 2" "$T/tty.log" \
	>/dev/null 2>&1 || fail "clyde under a terminal failed"
grep -aq "${esc}per-char write: .* of .*(.*%)" "$T/tty.log" ||
	fail "no live line for the per-char write on a terminal"
ok "a live line is drawn on a terminal"
grep -aq "Writing a byte at a time...done" "$T/tty.log" ||
	fail "the finished test's line is missing"
ok "a finished test leaves its ...done line"
grep -aq "ETA" "$T/tty.log" || fail "the live line has no ETA"
ok "the live line shows an ETA"
# The current rate (over the last second) beside the mean (issue 20).
grep -aq "now [0-9.]* [KMG]*i*B/s, mean [0-9.]* [KMG]*i*B/s" "$T/tty.log" ||
	fail "the live line shows no current rate ('now .../s, mean .../s')"
ok "the live line shows the current rate beside the mean"

# By time (--runtime): no amount to reach, so no percentage or ETA.
script -qec "'$CLYDE' -d '$d' -s 16m -n 0 -f -r 0 --runtime 2 --no-save" \
	"$T/tty-rt.log" >/dev/null 2>&1 || fail "clyde --runtime under a terminal failed"
grep -aq "${esc}block write: [0-9.]* [KMG]*i*B, now .*/s, mean .*/s" "$T/tty-rt.log" ||
	fail "--runtime: no live line 'block write: N B, now R/s, mean R/s'"
if grep -aq "${esc}block write: .*ETA" "$T/tty-rt.log"; then
	fail "--runtime: the live line shows an ETA it cannot know"
fi
ok "--runtime: the live line shows the amount, the current and mean rates, no ETA"

# The runs without a live line: each test runs 0.5 s (--runtime), twice
# the redraw period, so a line would be drawn if one were wanted.
script -qec "'$CLYDE' -d '$d' -s 16m -n 0 -f -r 0 --runtime 0.5 -q" \
	"$T/tty-q.log" >/dev/null 2>&1 || fail "clyde -q under a terminal failed"
if grep -aq "$esc" "$T/tty-q.log"; then
	fail "-q still draws the live line"
fi
ok "no live line with -q"

run_clyde -d "$d" -s 16m -n 0 -f -r 0 --runtime 0.5
expect_rc 0 "clyde with stderr not a terminal succeeds"
if grep -aq $'\e' "$T/err" "$T/out"; then
	fail "escape sequences written although stderr is not a terminal"
fi
ok "no live line when stderr is not a terminal"
assert_empty_dir "$d" "nothing left behind"
done_testing

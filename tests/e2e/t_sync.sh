#!/usr/bin/env bash
# -p N creates the SysV semaphores that -y s uses to start every test of N
# clyde processes together; -p -1 removes them.

# SysV semaphores are machine-wide (one key): a clyde -p/-y s of the user's,
# or another checkout's test suite, running at the same time would share
# them, and this test's -p -1 would remove theirs.  As root, run in a
# private IPC namespace (before lib.sh makes its directory: exec would
# skip its cleanup).
if [[ -z ${CLYDE_T_SYNC_NS:-} && $(id -u) -eq 0 ]] &&
	command -v unshare >/dev/null 2>&1 &&
	unshare --ipc true 2>/dev/null; then
	CLYDE_T_SYNC_NS=1 exec unshare --ipc bash "$0" "$@"
fi

# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd ipcs python3

# Semaphore arrays, one "key nsems" line each.
sems()
{
	ipcs -s | awk '$1 ~ /^0x/ { print $1, $5 }' | sort
}
now_ns()
{
	python3 -c 'import time; print(time.monotonic_ns())'
}

# A leftover from an earlier run would mask what -p does.
"$CLYDE" -p -1 >/dev/null 2>&1 || true
at_exit "'$CLYDE' -p -1"
sems >"$T/sems.0"

run_clyde -p 2
expect_rc 0 "-p 2 succeeds"
sems >"$T/sems.1"
new=$(comm -13 "$T/sems.0" "$T/sems.1")
[[ -n $new ]] || fail "-p 2 created no semaphore array"
ok "-p 2 created a semaphore array ($new)"

# Without its partner, a -y s process waits before its first test.
# The two processes write files of different sizes, so their tests take
# different times: only the semaphores can keep each test starting
# together (unsynchronised, the 16m process would run ahead).
d=$(new_dir d)
args=(-n 0 -f -r 0 -y s -q)
"$CLYDE" -d "$d" -s 16m "${args[@]}" --json "$T/1.json" >"$T/1.out" 2>"$T/1.err" &
pid1=$!
at_exit "kill -KILL $pid1"
sleep 2
kill -0 "$pid1" 2>/dev/null || fail "the first -y s process did not wait"
ok "the first -y s process waits for the second"
[[ -z $(find "$d" -mindepth 2 -type f) ]] ||
	fail "the first process started a test alone"
ok "no test ran before the second process came"

t2=$(now_ns)
run_clyde -d "$d" -s 96m "${args[@]}" --json "$T/2.json"
expect_rc 0 "the second -y s process finishes"
# shellcheck disable=SC2317 # called by wait_for
gone()
{
	! kill -0 "$pid1" 2>/dev/null
}
wait_for 60 gone || fail "the first -y s process still runs 60 s later"
RC=0
wait "$pid1" || RC=$?
expect_rc 0 "the first -y s process finishes"
assert_empty_dir "$d" "both scratch directories are removed"

# Each test started in both processes only once the previous test had
# ended in both: the barrier the semaphores make.  The 96m process's tests
# last several times longer than the 16m one's, so without the barrier the
# 16m process would begin its next test while the other still ran.
run_checker "$T/1.json" "$T/2.json" "$t2" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
t2 = int(sys.argv[3])
names = ("put_block", "rewrite", "get_block", "seeks")
def span(run, name):
    t = [t for t in run["runs"][0]["tests"] if t["name"] == name][0]
    return (min(w["start_ns"] for w in t["workers"]),
            max(w["end_ns"] for w in t["workers"]))
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
check(span(a, "put_block")[0] > t2,
      "the first process's block write began after the second started")
for prev, name in zip(names, names[1:]):
    for x, y, xn, yn in ((a, b, "first", "second"), (b, a, "second", "first")):
        check(span(x, name)[0] >= span(y, prev)[1],
              "%s began in the %s process after %s ended in the %s"
              % (name, xn, prev, yn))
    prev_a = span(a, prev)[1] - span(a, prev)[0]
    prev_b = span(b, prev)[1] - span(b, prev)[0]
    check(prev_b > 1.5 * prev_a,
          "%s lasted longer in the 96m process (%.3f s, %.3f s), so the "
          "order above is the barrier's doing" % (prev, prev_b / 1e9,
                                                  prev_a / 1e9))
EOF
[[ $(wc -l <"$T/check") -eq 10 ]] || fail "the JSON checker did not finish"

run_clyde -p -1
expect_rc 0 "-p -1 succeeds"
sems >"$T/sems.2"
assert_eq "$(cat "$T/sems.2")" "$(cat "$T/sems.0")" "-p -1 removed the semaphores"
run_clyde -d "$d" -s 16m "${args[@]}"
expect_rc 1 "-y s without semaphores is refused"
assert_file_match "$T/err" '-y' "the message names -y"
assert_empty_dir "$d" "nothing created"

done_testing

#!/usr/bin/env bash
# %CP is measured over exactly the timed window (issue 8, section 4).
#
# The metadata tests make their subdirectories before the clock starts:
# with -n 1:0:0:1000 that set-up costs more CPU than the create itself, and
# clyde once counted it (seq_create at 428% CPU for one worker).  Now every
# worker's CPU is its own threads' over its own window, the test's CPU is
# the sum over the workers, and no test shows more CPU than its threads
# could use: one thread per worker, at most every CPU of the machine.
#
# The seeks run in seeker threads while the worker thread only waits for
# them: the worker's CPU must include theirs.  On tmpfs the seeks are pure
# CPU, and with many small seeks they are most of the CPU the whole
# process used (as its parent sees it), however busy the machine; the
# worker thread alone would show almost none of it.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3

# check_cpu JSON MODE: the checker prints "ok ..." / "FAIL ..." lines and
# exits non-zero when any check failed or it could not check.
check_cpu()
{
	local rc=0
	python3 - "$@" >"$T/check" <<'PY' || rc=$?
import json, sys

path, mode = sys.argv[1], sys.argv[2]
process_cpu = int(sys.argv[3]) if len(sys.argv) > 3 else 0
doc = json.load(open(path))
ncpu = doc["machine"]["ncpu"]
nworkers = doc["config"]["concurrency"]
tests = {t["name"]: t for t in doc["runs"][0]["tests"]}
bad = 0

def check(cond, what):
    global bad
    bad += not cond
    print(("ok " if cond else "FAIL ") + what)

def cpu(x):
    return x["cpu_user_ns"] + x["cpu_sys_ns"]

done = [t for t in tests.values() if t["state"] == "done"]
check(len(done) > 0, "some tests ran")
for t in done:
    name = t["name"]
    check(t["cpu_user_ns"] == sum(w["cpu_user_ns"] for w in t["workers"])
          and t["cpu_sys_ns"] == sum(w["cpu_sys_ns"] for w in t["workers"]),
          f"{name}: test CPU is the sum of its workers' CPU")
    check(t["cpu_pct"] <= 100.0 * ncpu + 1.0,
          f"{name}: {t['cpu_pct']}% CPU <= 100 x {ncpu} CPUs")
    if name == "seeks":
        continue
    # One thread per worker: never more CPU than its own window.
    for w in t["workers"]:
        window = w["end_ns"] - w["start_ns"]
        check(cpu(w) <= window + 1000000,
              f"{name} worker {w['index']}: CPU {cpu(w)} ns "
              f"<= its window {window} ns")
    check(t["cpu_pct"] <= 100.0 * nworkers + 1.0,
          f"{name}: {t['cpu_pct']}% CPU <= 100 x {nworkers} workers")

if mode == "seeks":
    seeks = cpu(tests["seeks"]["workers"][0])
    others = sum(cpu(t) for t in done if t["name"] != "seeks")
    check(process_cpu > 0, f"the process used {process_cpu} ns of CPU")
    check(seeks + others <= process_cpu + 20000000,
          f"the tests' CPU ({seeks + others} ns) is within the process's "
          f"({process_cpu} ns)")
    check(seeks >= 0.5 * (process_cpu - others),
          f"seeks worker CPU {seeks} ns includes its seekers' (>= half of "
          f"the {process_cpu - others} ns the process used outside the "
          f"other tests)")
sys.exit(1 if bad else 0)
PY
	while read -r verdict what; do
		[[ $verdict == ok ]] || fail "$what"
		ok "$what"
	done <"$T/check"
	[[ $rc -eq 0 ]] || fail "the CPU checker failed (exit $rc)"
}

d=$(new_dir d)
run_clyde -d "$d" -s 0 -n 1:0:0:1000 -r 0 --no-save --json "$T/files.json"
expect_rc 0 "-n 1:0:0:1000 (1000 subdirectories made untimed) succeeds"
check_cpu "$T/files.json" files

run_clyde -d "$d" -s 0 -n 1 -c 2 -r 0 --no-save --json "$T/files2.json"
expect_rc 0 "-n 1 -c 2 succeeds"
check_cpu "$T/files2.json" files

# Seeks on a memory filesystem: mount one as root, else /dev/shm.
if [[ $(id -u) -eq 0 ]]; then
	mount_tmpfs 96m
	m=$MNT
elif [[ -d /dev/shm && -w /dev/shm && $(stat -f -c %T /dev/shm) == tmpfs ]]; then
	m=$(mktemp -d /dev/shm/clyde-e2e-cpu.XXXXXX)
	at_exit "rm -rf '$m'"
else
	skip "no tmpfs for the seek test (not root, no /dev/shm)"
fi
# Run by python, which reads the CPU its (waited-for) children used.
RC=0
# (A difference: python3 may be a wrapper whose own children count.)
python3 -c 'import resource, subprocess, sys
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
c0 = cpu()
rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL)
open(sys.argv[1], "w").write("%d\n" % int((cpu() - c0) * 1e9))
sys.exit(rc)' "$T/proc_cpu" timeout -k 10 "$CLYDE_TIMEOUT" "$CLYDE" -d "$m" \
	-s 8m:4096:200000:2 -n 0 -f -r 0 --no-save --json "$T/seeks.json" \
	2>"$T/err" || RC=$?
expect_rc 0 "seeks with 2 seekers on tmpfs succeed"
check_cpu "$T/seeks.json" seeks "$(cat "$T/proc_cpu")"
assert_empty_dir "$d" "nothing left behind"
done_testing

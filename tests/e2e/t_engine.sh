#!/usr/bin/env bash
# --engine and --iodepth: bad values (psync at a depth above 1 too) are
# one-line errors that write nothing; the defaults stay bonnie++'s (psync, depth 1, no note, 50 CSV
# fields); with --engine io_uring --iodepth 32 the block and seek tests
# really go through io_uring, each request submitted as it is queued (strace
# sees io_uring_enter submitting one at a time and no pread64/pwrite64 at
# all) and with --iodepth-batch 8 eight at once, and the JSON records the
# engine, the depth and the batch.  Without liburing
# (or where the kernel refuses io_uring) the io_uring part is a skip, after
# checking the one-line refusal.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
d=$(new_dir d)
small=(-d "$d" -s 32m:65536:2000:1 -n 0 -f -r 0 --no-save)

# One line on stderr naming the option, nothing on stdout, status 1,
# nothing left in -d.
bad()
{
	local what=$1
	shift
	run_clyde "${small[@]}" "$@"
	expect_rc 1 "$what: status 1"
	assert_eq "$(wc -l <"$T/err")" 1 "$what: one line on stderr"
	assert_eq "$(wc -c <"$T/out")" 0 "$what: nothing on stdout"
	assert_empty_dir "$d" "$what: nothing written"
}
bad "unknown engine" --engine aio
assert_file_match "$T/err" '^clyde: --engine: "aio" is not an engine; use one of psync\|io_uring$' \
	"the line names --engine and the engines"
bad "empty engine" --engine=
bad "depth 0" --iodepth 0
assert_file_match "$T/err" '^clyde: --iodepth 0: must be from 1 to 1024$' \
	"the line names --iodepth and its range"
bad "depth 1025" --iodepth 1025
assert_file_match "$T/err" '--iodepth 1025: must be from 1 to 1024' "1025 is out of range"
bad "depth garbage" --iodepth 8x
assert_file_match "$T/err" '--iodepth: "8x" is not a queue depth' "8x is refused"
bad "depth missing" --iodepth

# The defaults: psync at depth 1, recorded; no engine note; bonnie++'s CSV.
run_clyde "${small[@]}" --json "$T/def.json"
expect_rc 0 "a default run succeeds"
# (The engine note's own words: a settle warning on a device busy with
# other tests' I/O also says "requests in flight".)
assert_file_no_match "$T/out" '^clyde: note: (block and seek tests ran on|--iodepth)' \
	"no engine note at the defaults"
line=$(grep -E '^1\.98,' "$T/out") || fail "no CSV line"
assert_eq "$(csv_nfields "$line")" 50 "the CSV line keeps 50 fields"
run_checker "$T/def.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["config"]
print(("ok" if c["engine"] == "psync" else "FAIL"), "default engine psync")
print(("ok" if c["iodepth"] == 1 else "FAIL"), "default iodepth 1")
t = {x["name"]: x for x in json.load(open(sys.argv[1]))["runs"][0]["tests"]}
# 64 KiB chunks: ordinary pages, said per test and per worker; the
# per-char tests did not run and have no buffers.
ok = all(t[n]["buffer_pages"] == "small" and t[n]["workers"][0]["buffer_pages"] == "small"
         for n in ("put_block", "rewrite", "get_block", "seeks"))
print(("ok" if ok else "FAIL"), "64 KiB buffers: small pages, per test and per worker")
print(("ok" if t["putc"]["buffer_pages"] is None else "FAIL"), "a test that did not run: buffer_pages null")
PY

# 1 MiB chunks: huge pages (the reserved pool's when it has pages, else
# transparent ones wherever THP is not "never").
run_clyde -d "$d" -s 16m:1024k:100:1 -n 0 -f -r 0 --no-save \
	--json "$T/big.json"
expect_rc 0 "1 MiB chunks"
run_checker "$T/big.json" <<'PY'
import json, sys
thp = "[never]" not in open("/sys/kernel/mm/transparent_hugepage/enabled").read()
pool = int(open("/proc/sys/vm/nr_hugepages").read()) > 0
want = ("hugetlb", "thp") if pool else (("thp",) if thp else ("small",))
t = {x["name"]: x for x in json.load(open(sys.argv[1]))["runs"][0]["tests"]}
for n in ("put_block", "rewrite", "get_block", "seeks"):
    print(("ok" if t[n]["buffer_pages"] in want else "FAIL"), "1 MiB buffers of %s: %s" % (n, t[n]["buffer_pages"]))
PY

# psync at a depth: it performs one request at a time, so the depth is
# refused (as clyde dev refuses it) rather than recorded and not run.
bad "psync at depth 4" --engine psync --iodepth 4 --json "$T/p4.json"
assert_file_match "$T/err" '^clyde: --iodepth 4: the psync engine performs one request at a time; use --engine io_uring for a queue depth$' \
	"the line names --iodepth and --engine io_uring"
[[ ! -e $T/p4.json ]] || fail "psync at depth 4 wrote $T/p4.json"
ok "  and no JSON file"
bad "the default engine (psync) at depth 2" --iodepth 2
assert_file_match "$T/err" '^clyde: --iodepth 2: the psync engine' "  also without --engine"

# psync performs one request at a time: the measured depth says so.
run_clyde "${small[@]}" --engine psync --json "$T/p1.json"
expect_rc 0 "psync at depth 1 succeeds"
run_checker "$T/p1.json" <<'PY'
import json, sys
t = {x["name"]: x for x in json.load(open(sys.argv[1]))["runs"][0]["tests"]}
for n in ("put_block", "rewrite", "get_block", "seeks"):
    print(("ok" if t[n]["inflight_max"] == 1 and t[n]["workers"][0]["inflight_max"] == 1 else "FAIL"),
          n, "on psync: inflight_max 1 (%s)" % t[n]["inflight_max"])
    print(("ok" if t[n]["inflight_mean"] == 1 else "FAIL"),
          n, "on psync: inflight_mean 1 (%s)" % t[n]["inflight_mean"])
print(("ok" if t["putc"]["inflight_max"] is None else "FAIL"), "a test that did not run: inflight_max null")
print(("ok" if t["putc"]["inflight_mean"] is None else "FAIL"), "a test that did not run: inflight_mean null")
PY

# io_uring: where it cannot run, the refusal is one line, then a skip.
run_clyde "${small[@]}" --engine io_uring --iodepth 32
if [[ $RC -ne 0 ]]; then
	expect_rc 1 "io_uring refused with status 1"
	assert_eq "$(wc -l <"$T/err")" 1 "the refusal is one line"
	assert_file_match "$T/err" '^clyde: io_uring: (not built in|not permitted \()' \
		"the refusal says why"
	assert_empty_dir "$d" "nothing written before the refusal"
	skip "io_uring is not available here: $(cat "$T/err")"
fi
ok "io_uring at depth 32 runs"

require_cmd "checking the system calls" strace
RC=0
timeout -k 10 "$CLYDE_TIMEOUT" strace -f -o "$T/strace" \
	-e trace=io_uring_setup,io_uring_enter,pread64,pwrite64,preadv,pwritev \
	"$CLYDE" "${small[@]}" --engine io_uring --iodepth 32 \
	--json "$T/u.json" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 0 "clyde --engine io_uring --iodepth 32 under strace succeeds"
assert_file_match "$T/strace" 'io_uring_setup\(32,' "rings of 32 entries"
# The dynamic loader preads the libraries before main: look only after
# the first ring was set up (clyde checks the engine before any test).
sed -n '/io_uring_setup(/,$p' "$T/strace" >"$T/strace.run"
assert_file_match "$T/strace.run" 'io_uring_enter\(' "io_uring_enter is called"
assert_file_no_match "$T/strace.run" '(pread64|pwrite64|preadv|pwritev)\(' \
	"no pread64/pwrite64: every transfer went through io_uring"
# io_uring_enter(fd, to_submit, min_complete, ...): by default each
# request goes to the kernel as soon as it is queued (fio's default
# iodepth_batch_submit=1): no call submits more than one.
most=$(sed -nE 's/.*io_uring_enter\([0-9]+, ([0-9]+),.*/\1/p' "$T/strace.run" |
	sort -n | tail -n 1)
assert_eq "${most:-none}" 1 "by default io_uring_enter submits one request at a time (most: ${most:-none})"
# Every submitting call also runs the completions already due, as fio's
# commit does (IORING_ENTER_GETEVENTS; without it, under DEFER_TASKRUN they
# waited for the next call): no io_uring_enter submits with flags 0.
nsub=$(grep -cE 'io_uring_enter\([0-9]+, [1-9][0-9]*, ' "$T/strace.run" || true)
nbare=$(grep -cE 'io_uring_enter\([0-9]+, [1-9][0-9]*, [0-9]+, 0,' "$T/strace.run" || true)
assert_match "$nsub" '^[1-9][0-9]*$' "io_uring_enter submitted ($nsub calls)"
assert_eq "$nbare" 0 "every submitting io_uring_enter asks for the completions due (GETEVENTS)"
line=$(grep -E '^1\.98,' "$T/out") || fail "no CSV line"
assert_eq "$(csv_nfields "$line")" 50 "the CSV line keeps 50 fields"
run_checker "$T/u.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
c = doc["config"]
print(("ok" if c["engine"] == "io_uring" else "FAIL"), "engine io_uring recorded")
print(("ok" if c["iodepth"] == 32 else "FAIL"), "iodepth 32 recorded")
tests = {t["name"]: t for t in doc["runs"][0]["tests"]}
for n, ops in (("put_block", 512), ("rewrite", 512), ("get_block", 512),
               ("seeks", 2000)):
    t = tests[n]
    print(("ok" if t["state"] == "done" and t["ops"] == ops else "FAIL"),
          n, "done,", ops, "operations")
    # The depth that ran, measured by the engine: a driver or engine that
    # keeps fewer requests in flight than asked is caught here.
    print(("ok" if t["inflight_max"] == 32 else "FAIL"),
          n, "had 32 requests in flight at once (%s)" % t["inflight_max"])
    # How full the queue was kept: a mean, measured, never above the most.
    m = t["inflight_mean"]
    print(("ok" if isinstance(m, (int, float)) and 1 <= m <= 32 else "FAIL"),
          n, "mean in flight between 1 and 32 (%s)" % m)
print(("ok" if c["iodepth_batch"] == 1 else "FAIL"), "iodepth_batch 1 recorded (%s)" % c.get("iodepth_batch"))
PY

# --iodepth-batch 8: eight requests go to the kernel in one call, and the
# JSON says so; 0 and 1025 are one-line errors that write nothing.
bad "batch 0" --engine io_uring --iodepth 32 --iodepth-batch 0
assert_file_match "$T/err" '^clyde: --iodepth-batch 0: must be from 1 to 1024$' \
	"the line names --iodepth-batch and its range"
bad "batch 1025" --engine io_uring --iodepth 32 --iodepth-batch 1025
RC=0
timeout -k 10 "$CLYDE_TIMEOUT" strace -f -o "$T/strace8" -e trace=io_uring_setup,io_uring_enter \
	"$CLYDE" "${small[@]}" --engine io_uring --iodepth 32 --iodepth-batch 8 \
	--json "$T/u8.json" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 0 "--iodepth-batch 8 under strace succeeds"
sed -n '/io_uring_setup(/,$p' "$T/strace8" >"$T/strace8.run"
most=$(sed -nE 's/.*io_uring_enter\([0-9]+, ([0-9]+),.*/\1/p' "$T/strace8.run" |
	sort -n | tail -n 1)
assert_eq "${most:-none}" 8 "with --iodepth-batch 8 io_uring_enter submits up to 8 at once (most: ${most:-none})"
run_checker "$T/u8.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["config"]
print(("ok" if c["iodepth_batch"] == 8 else "FAIL"), "iodepth_batch 8 recorded (%s)" % c.get("iodepth_batch"))
PY
assert_empty_dir "$d" "-d is left empty"
done_testing

#!/usr/bin/env bash
# The per-char tests spend little in user space around their one system
# call per byte (issue 21, item 1).  At well under a microsecond per call,
# every instruction around it shows in the rate: callgrind counted 176
# (write) and 162 (read) user-space instructions per byte when each byte
# went through clyde_engine_do and glibc's pwrite/pread (whose
# cancellation wrapping a process with threads pays on every call), and
# 20 in bonnie++ 2.00a's loop.  The bare syscall(2) loop, with clyde's
# data byte inline, takes about 69 and 57.  callgrind counts instructions, so the check does not depend on the
# machine's load.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd valgrind callgrind_annotate python3
d=$(new_dir d)

RC=0
timeout -k 10 280 valgrind --tool=callgrind \
	--callgrind-out-file="$T/cg.out" "$CLYDE" -d "$d" -s 1 -f1 -n 0 -r 0 \
	-q --no-save --json "$T/run.json" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 0 "clyde -s 1 -f1 -n 0 runs under callgrind"

callgrind_annotate --inclusive=yes "$T/cg.out" >"$T/annotate" 2>&1 ||
	fail "callgrind_annotate failed: $(head -n 3 "$T/annotate")"
python3 - "$T/annotate" "$T/run.json" >"$T/check" <<'PY' || true
import json, re, sys

ir = {}
for l in open(sys.argv[1]):
    m = re.match(r"\s*([0-9,]+) .*:(clyde_test_putc|clyde_test_getc) ", l)
    if m and m.group(2) not in ir:
        ir[m.group(2)] = int(m.group(1).replace(",", ""))
tests = {t["name"]: t for t in json.load(open(sys.argv[2]))["runs"][0]["tests"]}
# The bound sits between the old cost (162-176) and the new (57-76).
BOUND = 110
for fn, name in (("clyde_test_putc", "putc"), ("clyde_test_getc", "getc")):
    t = tests[name]
    if fn not in ir or not t.get("ops"):
        print(f"FAIL {name}: no instruction count or no operations")
        continue
    per = ir[fn] / t["ops"]
    print(("ok" if per <= BOUND else "FAIL") +
          f" {name}: {per:.1f} user-space instructions per byte (<= {BOUND})")
PY
[[ -s $T/check ]] || fail "the checker printed nothing"
while read -r verdict what; do
	[[ $verdict == ok ]] || fail "$what"
	ok "$what"
done <"$T/check"
done_testing

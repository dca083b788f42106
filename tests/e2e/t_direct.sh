#!/usr/bin/env bash
# -D: every IO test opens its file with O_DIRECT (reads too, unlike
# bonnie++), the per-char tests are skipped with a note instead of failing,
# and their CSV fields are empty.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
mount_loop ext4 160
mkdir "$MNT/d"

run_clyde -d "$MNT/d" -D -s 64m -n 0 -r 0 --json "$T/run.json"
expect_rc 0 "clyde -D on ext4 succeeds"
assert_empty_dir "$MNT/d" "the -d directory is left empty"
line=$(grep -E '^1\.98,' "$T/out") || fail "no CSV line on stdout"
assert_eq "$(csv_nfields "$line")" 50 "50 fields"
assert_eq "$(csv_field "$line" 10)$(csv_field "$line" 11)" "" "putc fields empty"
assert_eq "$(csv_field "$line" 16)$(csv_field "$line" 17)" "" "getc fields empty"
assert_eq "$(csv_field "$line" 39)$(csv_field "$line" 42)" "" \
	"per-char latencies empty"
for i in 12 14 18; do
	assert_match "$(csv_field "$line" "$i")" '^([0-9]+|\+{5})$' \
		"field $i (block write/rewrite/block read) has a rate"
done
# Seeks under 1000/s carry one decimal, as bonnie++'s do (a loaded
# machine gets there).
assert_match "$(csv_field "$line" 20)" '^([0-9]+(\.[0-9])?|\+{5})$' \
	"field 20 (seeks) has a rate"
for i in 40 41 43 44; do
	assert_match "$(csv_field "$line" "$i")" '^[0-9]+(us|ms|s)$' \
		"field $i has a latency"
done
assert_file_match "$T/err" 'putc|[Pp]er.?[Cc]ha' "stderr has a note on the per-char tests"
assert_file_match "$T/err" 'skip' "the note says they were skipped"
assert_file_match "$T/err" 'Writing intelligently' "block write ran"

run_checker "$T/run.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
tests = {t["name"]: t for t in doc["runs"][0]["tests"]}
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
check(doc["config"]["direct"] is True, "config.direct is true")
for n in ("putc", "getc"):
    check(tests[n]["state"] == "skipped", n + ": state skipped")
    check(bool(tests[n]["note"]), n + ": has a note")
for n in ("put_block", "rewrite", "get_block", "seeks"):
    check(tests[n]["state"] == "done", n + ": state done")
    check(tests[n]["bytes"] >= 64 << 20 or n == "seeks", n + ": did the work")
    # O_DIRECT kept the data out of the page cache, and clyde checked it.
    check(tests[n]["cache"]["direct_checked"] is True, n + ": O_DIRECT checked")
    check(tests[n]["cache"]["direct_honoured"] is True, n + ": O_DIRECT honoured")
EOF
[[ $(wc -l <"$T/check") -ge 20 ]] || fail "the JSON checker did not finish"

# Every open of the test file carries O_DIRECT, the read-only ones too.
require_cmd "checking the open flags" strace
RC=0
timeout -k 10 "$CLYDE_TIMEOUT" strace -f -e trace=open,openat \
	-o "$T/strace" "$CLYDE" -d "$MNT/d" -D -s 16m -n 0 -r 0 -q --no-save \
	>"$T/out" 2>"$T/err" || RC=$?
expect_rc 0 "clyde -D under strace succeeds"
# The loop device's backing image is opened read-only to measure and
# evict its cache (docs/members.md): it is not a test file.
grep -E 'open(at)?\(' "$T/strace" |
	grep -Ev 'O_DIRECTORY|"/(lib|usr|etc|proc|sys|dev)|= -1' |
	grep -Fv "\"$T/img." >"$T/opens" || true
n=$(wc -l <"$T/opens")
if [[ $n -lt 4 ]]; then
	cat "$T/strace" >&2
	fail "only $n opens of test files seen"
fi
ok "$n opens of the test file seen"
if grep -v O_DIRECT "$T/opens" >&2; then
	fail "opens of test files without O_DIRECT (above)"
fi
ok "every one of them has O_DIRECT"
assert_file_match "$T/opens" 'O_RDONLY.*O_DIRECT|O_DIRECT.*O_RDONLY' \
	"the reads use O_DIRECT too"

done_testing

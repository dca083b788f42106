#!/usr/bin/env bash
# Honest numbers: before a read-side test clyde evicts the file from the
# page cache, so a block read right after the write starts cold (low
# residency, no warning); with --no-evict a small file stays cached, the
# residency says so and the cache warning appears in the text and JSON.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3

# A real disk filesystem: tmpfs pages cannot be evicted.
disk_dir
d=$DISK_DIR

check_json()
{
	run_checker "$@" <<'PY'
import json, sys
path, mode = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
tests = {t["name"]: t for t in doc["runs"][0]["tests"]}
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
for name in ("get_block", "rewrite", "seeks"):
    c = tests[name]["cache"]
    check(tests[name]["state"] == "done", f"{name} ran")
    check(c["residency"] is not None, f"{name}: residency measured")
    r = c["residency"] or 0.0
    if mode == "evict":
        check(c["evicted"] is True, f"{name}: evicted")
        check(r < 0.10, f"{name}: residency {r:.3f} < 0.10 after eviction")
        check(c["warning"] is False, f"{name}: no cache warning")
    else:
        check(c["evicted"] is False, f"{name}: not evicted with --no-evict")
        check(r > 0.5, f"{name}: residency {r:.3f} > 0.5 with --no-evict")
        check(c["warning"] is True, f"{name}: cache warning set")
check(doc["config"]["evict"] == (mode == "evict"), "config.evict recorded")
PY
}

run_clyde -d "$d" -s 64m -n 0 -f -r 0 -m cold --json "$T/evict.json"
expect_rc 0 "default run (eviction on) succeeds"
check_json "$T/evict.json" evict
assert_file_no_match "$T/out" "page cache when the test started" \
	"no cache warning in the text after eviction"

run_clyde -d "$d" -s 16m -n 0 -f -r 0 -m warm --no-evict --json "$T/warm.json"
expect_rc 0 "--no-evict run succeeds"
check_json "$T/warm.json" warm
assert_file_match "$T/out" "warning: block read" \
	"the text output warns that the block read came from the cache"
# The metadata tests: page-cache residency says nothing of the dentry and
# inode caches, so the text says they ran warm unless --drop-caches (root)
# emptied them, which the JSON records per test.
run_clyde -d "$d" -s 0 -n 1 -r 0 --no-save
expect_rc 0 "a file-test run succeeds"
assert_file_match "$T/out" "stat and delete tests ran with the dentry and inode caches warm" \
	"the text notes the warm metadata caches"
if [[ $(id -u) -eq 0 ]]; then
	run_clyde -d "$d" -s 0 -n 1 -r 0 --no-save --drop-caches --json "$T/drop.json"
	expect_rc 0 "--drop-caches as root succeeds"
	assert_file_no_match "$T/out" "caches warm" "no warm-cache note with --drop-caches"
	python3 -c 'import json,sys
t={x["name"]: x for x in json.load(open(sys.argv[1]))["runs"][0]["tests"]}
sys.exit(0 if all(t[n]["cache"]["dropped"] for n in ("seq_stat","seq_del","ran_stat","ran_del")) and not t["seq_create"]["cache"]["dropped"] else 1)' "$T/drop.json" ||
		fail "cache.dropped is not true for exactly the stat and delete tests"
	ok "cache.dropped marks the stat and delete tests"
fi
run_clyde -d "$d" -s 0 -n 1 -r 0 --drop-caches -u nobody
expect_rc 1 "--drop-caches with -u is refused"
assert_empty_dir "$d" "nothing left behind"
done_testing

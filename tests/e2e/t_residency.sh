#!/usr/bin/env bash
# Honest numbers: before a read-side test clyde evicts the file from the
# page cache, so a block read right after the write starts cold (low
# residency, no warning); with --no-evict a small file stays cached, the
# residency says so and the cache warning appears in the text and JSON.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3

# A real disk filesystem: tmpfs pages are the storage and cannot be evicted.
if [[ $(id -u) -eq 0 ]]; then
	mount_loop ext4 400
	d=$MNT/work
	mkdir "$d"
else
	d=$(new_dir d)
	[[ $(stat -f -c %T "$d") != tmpfs ]] || skip "$d is on tmpfs"
fi

check_json()
{
	python3 - "$@" >"$T/check" <<'PY' || true
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
	while read -r verdict what; do
		[[ $verdict == ok ]] || fail "$what"
		ok "$what"
	done <"$T/check"
	[[ -s $T/check ]] || fail "the JSON checker printed nothing"
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
assert_empty_dir "$d" "nothing left behind"
done_testing

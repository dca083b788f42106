#!/usr/bin/env bash
# Cache truth below the filesystem: on ext4 over a loop device without
# direct I/O, the data of a "cold" read can come from the page cache of
# the loop's backing file.  clyde evicts that file's range before each
# read-side test (the JSON shows how much was cached before and that
# nothing is left), marks the test as served from memory when it is not
# evicted (--no-evict), with the hint `losetup --direct-io=on`; with
# --direct-io=on there is nothing to mark.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 mkfs.ext4 losetup mount umount

# An ext4 image over a loop device with direct I/O as asked ($1: on|off);
# the mount point is printed into $MNT, the device into $DEV.
loop_ext4()
{
	local img=$T/img.$1
	truncate -s 300M "$img"
	mkfs.ext4 -F -q "$img" >/dev/null 2>&1 || fail "mkfs.ext4 failed"
	DEV=$(losetup -f --show --direct-io="$1" "$img" 2>/dev/null) ||
		skip "no loop device with --direct-io=$1"
	at_exit "losetup -d '$DEV'"
	MNT=$T/mnt.$1
	mkdir "$MNT"
	mount "$DEV" "$MNT" || skip "cannot mount ext4"
	at_exit "umount -l '$MNT'"
	mkdir "$MNT/work"
}

check_json()
{
	run_checker "$@" <<'PY'
import json, sys
path, mode, dev = sys.argv[1], sys.argv[2], sys.argv[3]
doc = json.load(open(path))
tests = {t["name"]: t for t in doc["runs"][0]["tests"]}
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
check(dev in doc["stack"]["leaves"], f"the stack's leaves name {dev}")
for name in ("get_block", "rewrite", "seeks"):
    lb = tests[name]["cache"]["loop_backing"]
    data = tests[name]["cache"]["total_bytes"]
    if mode == "dio":
        check(lb is None, f"{name}: no backing-file cache with direct I/O")
        continue
    check(lb is not None and lb["device"] == dev, f"{name}: {dev} measured")
    if mode == "evict":
        check(lb["evicted"] is True, f"{name}: backing file evicted")
        check(lb["resident_before_bytes"] >= data // 2,
              f"{name}: {lb['resident_before_bytes']} bytes of the backing "
              f"file were cached before eviction (data {data})")
        check(lb["resident_bytes"] <= data // 20,
              f"{name}: {lb['resident_bytes']} left: the read starts cold")
        check(lb["warning"] is False, f"{name}: no mark after eviction")
    else:
        check(lb["evicted"] is False, f"{name}: not evicted (--no-evict)")
        check(lb["residency"] >= 0.5 and lb["warning"] is True,
              f"{name}: marked as served from memory ({lb['residency']})")
        check(lb["hint"] == "losetup --direct-io=on", f"{name}: hint")
PY
}

# Without direct I/O, eviction on: cold for real, said in a note.
loop_ext4 off
[[ $(cat "/sys/block/${DEV#/dev/}/loop/dio") == 0 ]] ||
	fail "the loop device has direct I/O although --direct-io=off"
run_clyde -d "$MNT/work" -s 48m -n 0 -f -r 0 --no-save --json "$T/evict.json"
expect_rc 0 "a run on ext4 over a loop device without direct I/O"
check_json "$T/evict.json" evict "${DEV#/dev/}"
assert_file_match "$T/out" "${DEV#/dev/} has no direct I/O: its backing file's pages were evicted" \
	"the text says the backing file was evicted"
assert_file_no_match "$T/out" "backing file (no direct I/O)" \
	"no served-from-memory mark after eviction"

# --no-evict: the backing file stays cached and the mark fires.
run_clyde -d "$MNT/work" -s 16m -n 0 -f -r 0 --no-save --no-evict \
	--json "$T/warm.json"
expect_rc 0 "a --no-evict run"
check_json "$T/warm.json" warm "${DEV#/dev/}"
assert_file_match "$T/out" "warning: block read: .* page cache of ${DEV#/dev/}'s backing file" \
	"the text marks the block read as served from the backing file's cache"
assert_file_match "$T/out" "losetup --direct-io=on /dev/${DEV#/dev/}" \
	"the text gives the losetup hint"

# With direct I/O the loop device bypasses the backing file's cache.
loop_ext4 on
[[ $(cat "/sys/block/${DEV#/dev/}/loop/dio") == 1 ]] ||
	skip "the backing filesystem does not take --direct-io=on"
run_clyde -d "$MNT/work" -s 16m -n 0 -f -r 0 --no-save --no-evict \
	--json "$T/dio.json"
expect_rc 0 "a run over a loop device with direct I/O"
check_json "$T/dio.json" dio "${DEV#/dev/}"
assert_file_no_match "$T/out" "backing file" \
	"nothing about a backing file's cache with direct I/O"
done_testing

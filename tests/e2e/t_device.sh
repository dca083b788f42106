#!/usr/bin/env bash
# What reached the device: on a loop-mounted ext4 the block write's device
# counters show at least the file's bytes written (and write amplification
# about 1); on tmpfs the target is reported as having no block device, not
# as an error.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3

mount_loop ext4 300
mkdir "$MNT/d"
run_clyde -d "$MNT/d" -s 64m -n 0 -f -r 0 -x 1 --no-save --json "$T/ext4.json"
expect_rc 0 "a run on a loop-mounted ext4 succeeds"
mount_tmpfs 128m
run_clyde -d "$MNT" -s 32m -n 0 -f -r 0 -x 1 --no-save --json "$T/tmpfs.json"
expect_rc 0 "a run on tmpfs succeeds"

run_checker "$T/ext4.json" "$T/tmpfs.json" <<'PY'
import json, sys
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
e = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in e["runs"][0]["tests"]}
check(e["target"]["has_block_device"] is True, "ext4: has a block device")
check(e["target"]["block_dev"].startswith("loop"), "ext4: the device is the loop device")
d = t["put_block"]["device"]
check(d["present"] is True, "put_block: device counters present")
check(d["write_bytes"] >= 64 << 20, f"put_block: device wrote {d['write_bytes']} >= 64 MiB")
check(d["write_ios"] > 0, "put_block: write requests counted")
wa = d["write_amplification"]
check(wa is not None and 0.99 <= wa < 1.5, f"put_block: write amplification {wa} about 1")
g = t["get_block"]["device"]
check(g["read_bytes"] >= 60 << 20, f"get_block: device read {g['read_bytes']} (cold data)")
m = json.load(open(sys.argv[2]))
check(m["target"]["fstype"] == "tmpfs", "tmpfs: fstype tmpfs")
check(m["target"]["has_block_device"] is False, "tmpfs: no block device")
check("tmpfs" in m["target"]["no_device_reason"], "tmpfs: the reason names tmpfs")
for x in m["runs"][0]["tests"]:
    if x["state"] == "done":
        check(x["device"]["present"] is False, f"tmpfs {x['name']}: no device counters")
        check(x["device"]["write_amplification"] is None, f"tmpfs {x['name']}: no write amplification")
PY
[[ $(wc -l <"$T/check") -ge 12 ]] || fail "the JSON checker did not finish"
done_testing

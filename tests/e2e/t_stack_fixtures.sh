#!/bin/bash
# clyde stack over the sysfs fixture trees (tests/fixtures/sysfs/, see its
# README): md, dm/LVM and partitions of arrays, which this kernel cannot
# build.  CLYDE_TEST_SYSROOT (for tests only) points the walker at a tree.
# The text tree, the JSON and the advice must describe what the tree holds;
# advice must fire where the tree is wrong and stay quiet on a plain disk.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

FIX=$CLYDE_SRC/tests/fixtures/sysfs
[[ -d $FIX/md-raid5-degraded ]] || fail "no fixture trees in $FIX"

# in TREE ARGS...: clyde stack ARGS with the fixture TREE as root.
in_tree()
{
	local tree=$1
	shift
	CLYDE_TEST_SYSROOT=$FIX/$tree run_clyde stack "$@"
	expect_rc 0 "clyde stack $* in $tree"
}

# ---- md RAID5, one member missing ----------------------------------------
in_tree md-raid5-degraded --advise /dev/md0
assert_file_match "$T/out" '^  md0: md raid5, 4 disks, chunk 512 KiB, layout left-symmetric, 3 data disks, full stripe 1.50 MiB, stripe_cache_size 256, clean, sync idle, DEGRADED \(1 missing\)' \
	"md0: level, disks, chunk, layout, stripe cache, state"
assert_file_match "$T/out" '^    sda1: partition 1, start 1 MiB \(sector 2048\), .*slot 0 in_sync$' \
	"md0: member sda1 with its start and slot"
assert_file_match "$T/out" '^      sda: disk "WDC WD40EFRX-68N"' "md0: sda1's disk with its model"
assert_file_match "$T/out" '^  \[bad\] md0: md0 is degraded: 1 of 4 members missing' \
	"advice: degraded array, first"
assert_file_match "$T/out" '^    fix: echo 4096 > /sys/block/md0/md/stripe_cache_size$' \
	"advice: stripe_cache_size with its fix"
assert_file_match "$T/out" '^  \[warning\] md0: md0 reads ahead 128 KiB, less than one full stripe of md0 \(1.50 MiB\)' \
	"advice: read-ahead below a full stripe"

in_tree md-raid5-degraded --json --advise md0
cp "$T/out" "$T/md.json"
run_checker "$T/md.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["stack"]
say = lambda c, w: print(("ok " if c else "FAIL ") + w)
say(d["schema"] == "clyde-stack" and d["schema_version"] == 1, "json: schema")
say(s["filesystem"] is None, "json: no filesystem for a bare device")
say(s["top"] == ["md0"] and s["leaves"] == ["sda1", "sdb1", "sdc1"], "json: top and leaves")
md = [x for x in s["devices"] if x["name"] == "md0"][0]
say(md["kind"] == "md" and md["level"] == "raid5" and md["chunk_bytes"] == 524288
    and md["raid_disks"] == 4 and md["stripe_cache_size"] == 256 and md["degraded"] == 1,
    "json: md0's fields")
say(md["children"] == ["sda1", "sdb1", "sdc1"], "json: md0's members")
say(s["stripe"] == {"layer": "md0", "level": "raid5", "chunk_bytes": 524288, "data_disks": 3,
                    "disks": 4, "stripe_bytes": 1572864, "parity": True}, "json: the stripe")
say([a["id"] for a in d["advice"]] == ["md-degraded", "md-stripe-cache", "read-ahead"],
    "json: the advice ids, most severe first")
say([a["severity"] for a in d["advice"]] == ["bad", "warning", "warning"], "json: severities")
PY

# ---- md RAID6 and RAID10: the data disks of the full stripe -------------
# raid6 keeps two disks of parity (5 disks: 3 data); raid10 n2 keeps two
# copies (4 disks: 2 data).  The kernel's optimal_io_size in the trees is
# chunk x data disks, as the kernel sets it.
in_tree md-raid6 --advise md0
assert_file_match "$T/out" '^  md0: md raid6, 5 disks, chunk 64 KiB, layout left-symmetric, 3 data disks, full stripe 192 KiB, stripe_cache_size 4096, clean, sync idle' \
	"md raid6: level, disks, chunk, layout, data disks and full stripe"
assert_file_match "$T/out" '^advice: none$' "md raid6: two stripes of read-ahead, nothing to say"
in_tree md-raid6 --json md0
cp "$T/out" "$T/raid6.json"
in_tree md-raid10 --advise md0
assert_file_match "$T/out" '^  md0: md raid10, 4 disks, chunk 512 KiB, layout n2 f1, 2 data disks, full stripe 1 MiB, clean, sync idle' \
	"md raid10: level, disks, chunk, near and far copies, data disks and full stripe"
in_tree md-raid10 --json md0
cp "$T/out" "$T/raid10.json"
run_checker "$T/raid6.json" "$T/raid10.json" <<'PY'
import json, sys
say = lambda c, w: print(("ok " if c else "FAIL ") + w)
r6 = json.load(open(sys.argv[1]))["stack"]
r10 = json.load(open(sys.argv[2]))["stack"]
say(r6["stripe"] == {"layer": "md0", "level": "raid6", "chunk_bytes": 65536, "data_disks": 3,
                     "disks": 5, "stripe_bytes": 196608, "parity": True},
    "json: md raid6 over 5 disks stripes over 3 data disks (192 KiB)")
say(r10["stripe"] == {"layer": "md0", "level": "raid10", "chunk_bytes": 524288, "data_disks": 2,
                      "disks": 4, "stripe_bytes": 1048576, "parity": False},
    "json: md raid10 n2 over 4 disks stripes over 2 data disks (1 MiB)")
for name, st in (("raid6", r6), ("raid10", r10)):
    md = [x for x in st["devices"] if x["name"] == "md0"][0]
    say(md["optimal_io_size"] == st["stripe"]["stripe_bytes"],
        f"json: md {name}'s stripe is the kernel's optimal_io_size")
PY

# ---- LVM striped over two md arrays; a linear LV off the stripe ----------
in_tree lvm-striped-md --advise dm-0
assert_file_match "$T/out" '^  dm-0: dm vg0-striped \(LVM: LV striped in VG vg0\), striped 2 x 64 KiB' "dm-0: striped LV, named as LVM's LV and VG"
assert_file_match "$T/out" '^    md1: md raid5, 3 disks, chunk 64 KiB' "dm-0: md1 below it"
assert_file_match "$T/out" '^  \[warning\] dm-0: dm-0 stripes 64 KiB chunks over 2 devices, but md0.s full stripe is 128 KiB' \
	"advice: LV stripe smaller than the arrays' full stripe"
assert_file_match "$T/out" '^  \[warning\] sda: the members mix rotational \(sda\) and non-rotational \(sdf\)' \
	"advice: mixed rotational members"
in_tree lvm-striped-md --advise /dev/dm-1
assert_file_match "$T/out" '^    fix: pvcreate --dataalignment 128k /dev/md0' "advice: LV alignment fix"

# ---- partitions: sector 63 on a 4K disk; on an array ---------------------
in_tree misaligned-part --advise sda1
assert_file_match "$T/out" '^  \[warning\] sda1: partition sda1 starts at 31.5 KiB \(sector 63\), not on a multiple of sda.s physical block \(4 KiB\)' \
	"advice: partition off the physical block"
in_tree misaligned-part --advise md0p2
assert_file_match "$T/out" "not on a multiple of md0's full stripe \(512 KiB\)" \
	"advice: partition off the array's stripe"
in_tree misaligned-part --advise md0p1
assert_file_match "$T/out" '^advice: none$' "advice: an aligned partition of an array is quiet"

# ---- a plain disk: nothing to say ----------------------------------------
in_tree plain-disk --advise nvme0n1
assert_file_match "$T/out" '^  nvme0n1: disk "Samsung SSD 980 PRO 1TB", 32 GiB$' "plain disk: the tree"
assert_file_match "$T/out" '^advice: none$' "plain disk: no advice"
in_tree plain-disk --json --advise nvme0n1
assert_file_match "$T/out" '"advice": \[\]' "plain disk: empty advice in JSON"

# ---- a device the tree does not have -------------------------------------
CLYDE_TEST_SYSROOT=$FIX/plain-disk run_clyde stack sdq
expect_rc 1 "a missing fixture device exits 1"
assert_file_match "$T/err" '^clyde stack: sdq: not in .*/sys/class/block' "and says where it looked"

done_testing

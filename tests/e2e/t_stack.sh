#!/bin/bash
# clyde stack on real configurations built from loop devices, each checked
# against what the system's own tools say: lsblk (sizes, queue settings,
# partition start), losetup (backing file, direct I/O), dumpe2fs -h (ext4
# stride, stripe width, journal) and xfs_info (sunit, swidth, log):
#   - ext4 made with -E stride=16,stripe_width=48 on a loop device without
#     direct I/O (the loop-dio advice fires), then with --direct-io=on (it
#     does not);
#   - xfs made with su=64k,sw=3 and an external log on a second loop device;
#   - ext4 with an external journal device (mke2fs -O journal_dev), mounted
#     data=journal;
#   - a partition of a loop device attached with losetup -P;
#   - zram, tmpfs (no block device) and the usage errors.
# btrfs profiles are in t_stack_btrfs.sh, md/dm fixtures in
# t_stack_fixtures.sh.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/stack_lib.sh
. "$(dirname "$0")/stack_lib.sh"

need_root
need_cmd losetup mount umount
require_cmd "the stack checks" lsblk blkid dumpe2fs xfs_info mkfs.ext4 mke2fs \
	mkfs.xfs python3

# ---- usage errors: one line, exit 1, nothing on stdout ------------------
bad_usage()
{
	local want=$1
	shift
	run_clyde stack "$@"
	expect_rc 1 "clyde stack $* exits 1"
	[[ $(wc -l <"$T/err") -eq 1 ]] ||
		fail "clyde stack $*: want one line on stderr: $(cat "$T/err")"
	assert_file_match "$T/err" "$want" "clyde stack $* says why"
	[[ ! -s $T/out ]] || fail "clyde stack $* wrote to stdout"
}
bad_usage 'which PATH or DEVICE'
bad_usage 'unknown option "--frobnicate"; see clyde stack --help' --frobnicate /
bad_usage "one PATH or DEVICE, not also 'b'" a b
bad_usage "stat $T/missing" "$T/missing"

run_clyde stack --help
expect_rc 0 "clyde stack --help exits 0"
assert_file_match "$T/out" '^usage: clyde stack' "--help prints the usage"
assert_file_match "$T/out" '--advise' "--help names --advise"

# ---- ext4 with a stripe geometry, loop without direct I/O --------------
attach 128
D1=$DEV
mkfs.ext4 -q -F -b 4096 -E stride=16,stripe_width=48 "$D1" ||
	fail "mkfs.ext4 -E stride=16,stripe_width=48"
mount_dev "$D1"
M1=$MNT
mkdir "$M1/dir"
stack_json "$M1/dir" "$T/ext4.json"
dumpe2fs -h "$D1" >"$T/ext4.dumpe2fs" 2>/dev/null
lsblk -J -b -d -o "NAME,DIO" "$D1" >"$T/ext4.lsblk-dio" 2>/dev/null || true
run_checker "$STACK_PY" "$T/ext4.json" "$T/ext4.dumpe2fs" "$D1" "$M1" \
	"$(losetup -n -O BACK-FILE "$D1")" <<'PY'
import sys
exec(open(sys.argv[1]).read())
stack, advice = load(sys.argv[2])
dump = dict(l.split(":", 1) for l in open(sys.argv[3]) if ":" in l)
dump = {k.strip(): v.strip() for k, v in dump.items()}
dev, mnt, backing = sys.argv[4], sys.argv[5], sys.argv[6]
name = dev.split("/")[-1]
fs = stack["filesystem"]
say(fs["type"] == "ext4", "ext4: type")
say(fs["mount_point"] == mnt, "ext4: mount point")
say(fs["source"] == dev, "ext4: source")
say(fs["block_size"] == int(dump["Block size"]), "ext4: block size as dumpe2fs")
say(fs["stride_blocks"] == int(dump["RAID stride"]) == 16, "ext4: stride as dumpe2fs (16)")
say(fs["stripe_width_blocks"] == int(dump["RAID stripe width"]) == 48,
    "ext4: stripe width as dumpe2fs (48)")
say(fs["stripe_unit_bytes"] == 16 * fs["block_size"], "ext4: stripe unit in bytes")
say(fs["uuid"] == dump["Filesystem UUID"], "ext4: uuid as dumpe2fs")
say(fs["journal"] == "internal" and dump.get("Journal inode") == "8",
    "ext4: internal journal (dumpe2fs: journal inode 8)")
say(fs["data_mode"] == "ordered", "ext4: data=ordered")
say(stack["top"] == [name] and stack["leaves"] == [name], "ext4: the loop device is top and leaf")
d = device(stack, name)
say(d["kind"] == "loop", "ext4: the device is a loop device")
say(d["backing_file"] == backing, "ext4: backing file as losetup")
say(d["dio"] == 0, "ext4: loop without direct I/O")
compare_lsblk(stack, name, lsblk(dev))
say("loop-dio" in ids(advice), "ext4: the loop-dio advice fires without direct I/O")
say(all(a["fix"] for a in advice if a["id"] == "loop-dio") and
    any(a["fix"] == "losetup --direct-io=on " + dev for a in advice),
    "ext4: the loop-dio advice says losetup --direct-io=on")
PY
# The text tree says the same.
run_clyde stack "$M1"
expect_rc 0 "clyde stack (text) on ext4"
assert_file_match "$T/out" '^  stride 16 \(64 KiB\), stripe_width 48 \(192 KiB\)$' \
	"the tree shows stride and stripe width"
assert_file_match "$T/out" "^  $(basename "$D1"): loop, backing file .*, dio off" \
	"the tree shows the loop device without dio"
# The device node gives the same stack as the mount.
run_clyde stack --json "$D1"
expect_rc 0 "clyde stack --json on the device node"
assert_file_match "$T/out" '"stride_blocks": 16' "the node's stack has the stride"

# ---- the same with direct I/O on: no loop-dio advice --------------------
attach 64 --direct-io=on
D2=$DEV
mkfs.ext4 -q -F "$D2" || fail "mkfs.ext4"
mount_dev "$D2" -o noatime
stack_json "$MNT" "$T/dio.json"
run_checker "$STACK_PY" "$T/dio.json" "$DEV" <<'PY'
import sys
exec(open(sys.argv[1]).read())
stack, advice = load(sys.argv[2])
name = sys.argv[3].split("/")[-1]
dio = subprocess.run(["losetup", "-n", "-O", "DIO", sys.argv[3]],
                     capture_output=True, text=True).stdout.strip()
say(device(stack, name)["dio"] == 1 and dio == "1", "dio: loop with direct I/O, as losetup")
say("loop-dio" not in ids(advice), "dio: no loop-dio advice with direct I/O")
say(stack["filesystem"]["stride_blocks"] == 0, "dio: no stride")
say(advice == [], "dio: no advice at all on a plain ext4 with noatime")
PY

# ---- xfs with su/sw and an external log ---------------------------------
attach 320
DX=$DEV
attach 80 --direct-io=on
DL=$DEV
mkfs.xfs -q -f -d su=64k,sw=3 -l logdev="$DL",size=64m "$DX" ||
	fail "mkfs.xfs -d su=64k,sw=3 -l logdev"
mount_dev "$DX" -o logdev="$DL",logbsize=256k
MX=$MNT
stack_json "$MX" "$T/xfs.json"
xfs_info "$MX" >"$T/xfs.info"
run_checker "$STACK_PY" "$T/xfs.json" "$T/xfs.info" "$DX" "$DL" <<'PY'
import re, sys
exec(open(sys.argv[1]).read())
stack, advice = load(sys.argv[2])
info = open(sys.argv[3]).read()
dx, dl = (a.split("/")[-1] for a in sys.argv[4:6])
fs = stack["filesystem"]
bsize = int(re.search(r"^data\s+=\s+bsize=(\d+)", info, re.M).group(1))
sunit, swidth = map(int, re.search(r"sunit=(\d+)\s+swidth=(\d+) blks", info).groups())
logm = re.search(r"^log\s+=(\S+)\s+bsize=(\d+)\s+blocks=(\d+)", info, re.M)
say(fs["type"] == "xfs", "xfs: type")
say(fs["block_size"] == bsize, "xfs: block size as xfs_info")
say(fs["stride_blocks"] == sunit == 16 and fs["stripe_width_blocks"] == swidth == 48,
    f"xfs: sunit/swidth {fs['stride_blocks']}/{fs['stripe_width_blocks']} as xfs_info {sunit}/{swidth}")
say(fs["stripe_unit_bytes"] == 65536 and fs["stripe_width_bytes"] == 3 * 65536,
    "xfs: su 64 KiB, sw 3")
say(fs["log_bytes"] == int(logm.group(2)) * int(logm.group(3)), "xfs: log size as xfs_info")
say(logm.group(1) == "/dev/" + dl and fs["journal"] == "external" and fs["journal_dev"] == dl,
    f"xfs: external log on {fs['journal_dev']} as xfs_info ({logm.group(1)})")
say(fs["logbsize"] == 262144, "xfs: logbsize 256k from the mount")
say(stack["top"] == [dx], "xfs: the data device is the top")
say(sorted(stack["leaves"]) == sorted([dx, dl]), "xfs: data and log devices are the leaves")
compare_lsblk(stack, dl, lsblk("/dev/" + dl))
PY
run_clyde stack "$MX"
assert_file_match "$T/out" '^  sunit 16 \(64 KiB\), swidth 48 \(192 KiB\)$' "the tree shows sunit and swidth"
assert_file_match "$T/out" "^  log external on $(basename "$DL")$" "the tree shows the external log"
assert_file_match "$T/out" '^  log device:$' "the tree shows the log device's stack"

# ---- ext4 with an external journal, data=journal ------------------------
attach 128
DE=$DEV
attach 16
DJ=$DEV
mke2fs -q -F -O journal_dev -b 4096 "$DJ" || fail "mke2fs -O journal_dev"
mkfs.ext4 -q -F -b 4096 -J device="$DJ" "$DE" || fail "mkfs.ext4 -J device="
mount_dev "$DE" -o data=journal
stack_json "$MNT" "$T/extj.json"
dumpe2fs -h "$DE" >"$T/extj.dumpe2fs" 2>/dev/null
run_checker "$STACK_PY" "$T/extj.json" "$T/extj.dumpe2fs" "$DE" "$DJ" <<'PY'
import sys
exec(open(sys.argv[1]).read())
stack, advice = load(sys.argv[2])
dump = {k.strip(): v.strip() for k, v in
        (l.split(":", 1) for l in open(sys.argv[3]) if ":" in l)}
de, dj = (a.split("/")[-1] for a in sys.argv[4:6])
fs = stack["filesystem"]
say(fs["journal"] == "external", "ext4 -J device: external journal")
say(fs["journal_uuid"] == dump["Journal UUID"], "ext4 -J device: journal UUID as dumpe2fs")
say(fs["journal_dev"] == dj, f"ext4 -J device: journal on {fs['journal_dev']} ({dj})")
say(fs["data_mode"] == "journal", "ext4 -J device: data=journal")
say(sorted(stack["leaves"]) == sorted([de, dj]), "ext4 -J device: both devices are leaves")
say("data-journal" in ids(advice), "ext4 -J device: the data=journal advice fires")
say("journal-shared" not in ids(advice), "ext4 -J device: separate disks, no journal-shared")
PY

# ---- a partition of a loop device (losetup -P) --------------------------
attach 64
DP=$DEV
losetup -d "$DP"
# An MBR with one Linux partition at sector 2048 (1 MiB), 32 MiB long.
python3 - "$T/img.$E2E_SEQ" <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    entry = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048, 65536)
    f.seek(446); f.write(entry)
    f.seek(510); f.write(b"\x55\xaa")
PY
DP=$(losetup -f --show -P "$T/img.$E2E_SEQ") || skip "no loop device available"
at_exit "losetup -d '$DP'"
PART=${DP}p1
if [[ ! -e $PART ]] && command -v partx >/dev/null; then
	partx -a "$DP" 2>/dev/null || true
fi
wait_for 5 test -b "$PART" || fail "partition $PART did not appear"
mkfs.ext4 -q -F "$PART" || fail "mkfs.ext4 on $PART"
mount_dev "$PART"
stack_json "$MNT" "$T/part.json"
run_checker "$STACK_PY" "$T/part.json" "$PART" "$DP" <<'PY'
import sys
exec(open(sys.argv[1]).read())
stack, advice = load(sys.argv[2])
part, disk = sys.argv[3], sys.argv[4]
p, d = part.split("/")[-1], disk.split("/")[-1]
lp = lsblk(part)
node = device(stack, p)
say(node["kind"] == "partition" and node["partition"] == 1, "partition: kind and number")
say(node["start_bytes"] == int(lp["start"]) * 512 == 1048576,
    f"partition: start {node['start_bytes']} as lsblk START {lp['start']}")
say([device(stack, c)["name"] for c in node["children"]] == [d], "partition: its disk below it")
say(stack["top"] == [p] and stack["leaves"] == [p], "partition: it is the top and stands for its disk as leaf")
compare_lsblk(stack, p, lp, queue=False)
compare_lsblk(stack, d, lsblk(disk))
say("part-align" not in ids(advice), "partition: 1 MiB start, no alignment advice")
PY

# The whole disk is not mounted: what it holds is its partition table.
run_clyde stack "$DP"
expect_rc 0 "clyde stack on the partitioned disk"
pttype=$(blkid -p -o value -s PTTYPE "$DP")
assert_eq "$(head -n 1 "$T/out")" "$DP (not mounted; holds $pttype)" \
	"the unmounted disk holds a $pttype partition table, as blkid -p says"

# ---- zram: the device itself ---------------------------------------------
# zram0 when there is one; else one of our own from zram-control (loading
# the module first if it is one), removed at exit.
ZRAM=
if [[ -b /dev/zram0 ]]; then
	ZRAM=zram0
else
	[[ -e /sys/class/zram-control ]] || modprobe zram num_devices=0 2>/dev/null || true
	if [[ -w /sys/class/zram-control/hot_add ]] &&
		zid=$(cat /sys/class/zram-control/hot_add 2>/dev/null); then
		at_exit "echo $zid > /sys/class/zram-control/hot_remove"
		for _ in $(seq 50); do [[ -b /dev/zram$zid ]] && break; sleep 0.1; done
		[[ -b /dev/zram$zid ]] && ZRAM=zram$zid
	fi
fi
if [[ -n $ZRAM ]]; then
	run_clyde stack --json "/dev/$ZRAM"
	expect_rc 0 "clyde stack /dev/$ZRAM"
	cp "$T/out" "$T/zram.json"
	run_checker "$STACK_PY" "$T/zram.json" "$ZRAM" <<'PY'
import sys, re
exec(open(sys.argv[1]).read())
stack, _ = load(sys.argv[2])
name = sys.argv[3]
z = device(stack, name)
alg = open(f"/sys/block/{name}/comp_algorithm").read()
m = re.search(r"\[(\S+)\]", alg)
say(z["kind"] == "zram", "zram: kind")
say(z["zram_algorithm"] == (m.group(1) if m else alg.strip()), "zram: the selected algorithm")
compare_lsblk(stack, name, lsblk("/dev/" + name))
PY
else
	skip_part "zram: no /dev/zram0, and no zram-control to add one (kernel without zram)"
fi

# ---- tmpfs: no block device, said plainly --------------------------------
mount_tmpfs 8m
run_clyde stack "$MNT"
expect_rc 0 "clyde stack on tmpfs exits 0"
assert_file_match "$T/out" '^tmpfs on ' "tmpfs: the filesystem is named"
assert_file_match "$T/out" 'note: tmpfs has no block device' "tmpfs: no block device, said"

done_testing

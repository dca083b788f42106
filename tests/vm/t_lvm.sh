#!/usr/bin/env bash
# LVM on a real kernel (post B): a striped LV over four PVs.  `clyde stack`
# names the LV, the VG, the segment type, the stripe count and size and the
# PVs under it, as `lvs` says; then the post's experiment
# examples/posts/xfs-vs-ext4-striped.ini runs end to end at small sizes.
#
# vm-disks: 4
# vm-disk-size: 512M
# vm-timeout: 420
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 4
require_cmd "LVM" pvcreate vgcreate lvcreate lvs python3
pvs=("${VDS[@]:0:4}")

pvcreate -q "${pvs[@]}" >/dev/null 2>&1 || fail "pvcreate ${pvs[*]}"
vgcreate -q vg0 "${pvs[@]}" >/dev/null 2>&1 || fail "vgcreate vg0"
lvcreate -q -y -i 4 -I 64k -L 1g -n bench vg0 >"$T/lvcreate" 2>&1 || {
	cat "$T/lvcreate" >&2
	fail "lvcreate -i 4 -I 64k"
}
at_exit "vgremove -ff -y vg0"
LV=/dev/vg0/bench
[[ -b $LV ]] || fail "no $LV after lvcreate"

# What LVM says: name, VG, segment type, stripes, stripe size, PVs.
lvs --noheadings --separator '|' --units b --nosuffix \
	-o lv_name,vg_name,segtype,stripes,stripe_size,devices vg0/bench \
	>"$T/lvs" || fail "lvs vg0/bench"
IFS='|' read -r lv_name vg_name segtype stripes stripe_size devices <"$T/lvs"
lv_name=${lv_name// /}
# "/dev/vda(0),/dev/vdb(0),..." -> "vda vdb ..."
devices=$(echo "$devices" | sed 's|/dev/||g; s|([0-9]*)||g; s|,| |g')

run_clyde stack --json $LV
expect_rc 0 "clyde stack --json $LV"
got=$(jq_py "$T/out" '(lambda d: "|".join(str(x) for x in (d["lvm_lv"], d["lvm_vg"], d["dm_target"], d["dm_stripes"], d["dm_stripe_bytes"], " ".join(d["children"]))))([d for d in j["stack"]["devices"] if d["kind"] == "dm"][0])')
assert_eq "$got" "$lv_name|$vg_name|$segtype|$stripes|$stripe_size|$devices" \
	"clyde stack's LV|VG|segment|stripes|stripe size|PVs = lvs's"
assert_eq "$(jq_py "$T/out" '(j["stack"]["stripe"]["data_disks"], j["stack"]["stripe"]["chunk_bytes"])')" \
	"(4, 65536)" "the stack's stripe: 4 x 64 KiB"
run_clyde stack $LV
assert_file_match "$T/out" \
	"dm vg0-bench \(LVM: LV bench in VG vg0\), striped 4 x 64 KiB" \
	"the text names LV, VG, segment type, stripe count and size"
for d in "${pvs[@]}"; do
	assert_file_match "$T/out" "^    ${d#/dev/}: disk" \
		"the text lists PV ${d#/dev/} under the LV"
done
evidence stack-lvm.txt "$T/out"

# Post B at small sizes: XFS vs ext4, log options; every run saved.
export XDG_DATA_HOME=$T/xdg
RC=0
timeout -k 10 280 "$CLYDE" sweep -q -k --define lv=$LV --define repeats=1 \
	--define "run_opts=-s 4m:8k:200:1 -n 0 -r 0 -f" --define "files_opts=-s 0 -n 1:0:0:1 -r 0" \
	"$CLYDE_SRC/examples/posts/xfs-vs-ext4-striped.ini" >"$T/out" 2>"$T/err" ||
	RC=$?
cp "$T/out" "$VM_OUT/sweep-xfs-vs-ext4.txt"
cp "$T/err" "$VM_OUT/sweep-xfs-vs-ext4.err"
# XFS lost nobarrier in Linux 4.19: that point's mount fails, the others
# run (-k), and the sweep says so with exit 3.
expect_rc 3 "xfs-vs-ext4-striped.ini: every point but xfs nobarrier ran (exit 3 for it)"
assert_file_match "$T/err" "xfs-log-nobarrier" "the failed point is named"
for c in xfs xfs-log ext4 ext4-nobarrier; do
	assert_file_match "$T/out" "^ *${c}[ |]" "the table has a row for $c"
done
done_testing

#!/usr/bin/env bash
# md on a real kernel: for RAID0/1/5/6/10 with two chunk sizes each, and
# RAID10 far=2 and offset=2 over 4 disks and near=2 over 3 and 5,
# `clyde stack` (text and JSON) agrees with `mdadm --detail` (level, chunk,
# disks, layout, data disks, stripe width, stripe_cache_size, member slots
# and states); the stripe unit and width mkfs.xfs and mkfs.ext4 choose match
# clyde's stripe, and a filesystem made for another stripe gets the fs-stripe
# advice whose fix, applied, makes it go away.  Then a degraded array
# (mdadm --fail) and a resync in progress are reported.
#
# 800M disks: raid10 n2 over 3 is then 1.2 GiB, above the 1 GiB under
# which mkfs.xfs ignores the stripe md reports ("small data volume").
#
# vm-disks: 6
# vm-disk-size: 800M
# vm-timeout: 360
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 6
require_cmd "mkfs checks" mkfs.xfs mkfs.ext4 dumpe2fs python3
MD=/dev/md0
CHECK=$(dirname "$0")/md_detail_check.py

# stack_vs_detail WHAT [TEXT XFS EXT4]: clyde stack --json agrees with
# mdadm --detail (and the text and mkfs's choices, when given).
stack_vs_detail()
{
	local what=$1
	shift
	mdadm --detail $MD >"$T/detail"
	run_clyde stack --json --advise $MD
	expect_rc 0 "$what: clyde stack --json --advise $MD"
	cp "$T/out" "$T/stack.json"
	if ! python3 -S "$CHECK" "$T/detail" "$T/stack.json" md0 "$@" >"$T/check"; then
		cat "$T/detail" "$T/check" >&2
		fail "$what: clyde stack disagrees with mdadm --detail or mkfs"
	fi
	ok "$what: stack agrees with mdadm --detail${1:+, with its text and the stripe of mkfs.xfs and mkfs.ext4} ($(cat "$T/check"))"
}

# one LEVEL CHUNK_KIB N [LAYOUT]: create, compare (text, JSON, mkfs.xfs -N,
# mkfs.ext4's stride and stripe width), stop.  With a LAYOUT (raid10's
# n2, f2, o2), the ext4 made with mkfs's defaults is mounted too: clyde
# takes the stripe mkfs took from md and says nothing of its alignment.
one()
{
	local level=$1 chunk=$2 n=$3 layout=${4:-} what opts=()
	what="raid$level chunk ${chunk}k over $n"
	[[ $chunk -eq 0 ]] && what="raid$level over $n"
	[[ -n $layout ]] && what+=" layout $layout" && opts=(--layout="$layout")
	md_create $MD "$level" "$chunk" "$n" "${opts[@]}"
	"$CLYDE" stack $MD >"$T/text" 2>&1 || fail "clyde stack $MD"
	[[ $level == 6 && $chunk == 64 ]] && evidence stack-raid6.txt "$T/text"
	mkfs.xfs -N -f $MD >"$T/xfs" 2>&1 || fail "mkfs.xfs -N $MD"
	mkfs.ext4 -F -q -E nodiscard,lazy_itable_init=1,lazy_journal_init=1 $MD \
		>/dev/null 2>&1 || fail "mkfs.ext4 $MD"
	dumpe2fs -h $MD >"$T/ext4" 2>/dev/null || fail "dumpe2fs -h $MD"
	stack_vs_detail "$what" "$T/text" "$T/xfs" "$T/ext4"
	if [[ -n $layout ]]; then
		mkdir -p /mnt/md
		mount $MD /mnt/md || fail "mount $MD ($what)"
		run_clyde stack --json --advise /mnt/md
		mapfile -t v < <(jq_py "$T/out" '[a["id"] for a in j["advice"]]' \
			'j["stack"]["stripe"]["data_disks"], j["stack"]["filesystem"]["stripe_width_bytes"]')
		assert_no_match "${v[0]}" "fs-stripe" \
			"$what: ext4 made with defaults, no fs-stripe advice (${v[0]}; data disks, ext4's width: ${v[1]})"
		umount /mnt/md
	fi
	md_stop $MD "$n"
}

for chunk in 64 256; do
	one 0 $chunk 4
	one 5 $chunk 4
	one 6 $chunk 6
	one 10 $chunk 4
done
one 1 0 2
# raid10's far and offset layouts and odd disk counts: md's full stripe
# (optimal_io_size) is 4 chunks for f2 and o2 over 4 disks, 3 and 5 for
# n2 over 3 and 5.
one 10 64 4 f2
one 10 64 4 o2
one 10 64 3 n2
one 10 128 5 n2
# wipe_disks (wipefs alone) left no md superblock behind: mdadm's own scan
# of every device finds none.
left=$(mdadm --examine --scan 2>/dev/null)
assert_eq "$left" "" "wipe_disks left no md superblock on the disks (mdadm --examine --scan)"

# A filesystem made for another stripe: the advice, and its fix works.
md_create $MD 5 64 4
mkfs.xfs -q -f -K -d su=32k,sw=2 $MD || fail "mkfs.xfs -d su=32k,sw=2"
mkdir -p /mnt/md
mount $MD /mnt/md || fail "mount $MD"
run_clyde stack --json --advise /mnt/md
expect_rc 0 "clyde stack --advise on xfs su=32k,sw=2 over raid5 64k x 3"
fix=$(jq_py "$T/out" '[a["fix"] for a in j["advice"] if a["id"] == "fs-stripe"]')
assert_eq "$fix" "['mkfs.xfs -d su=64k,sw=3 /dev/md0']" \
	"xfs made for 32k x 2 on raid5 64k x 3: fs-stripe advice with the right mkfs.xfs"
umount /mnt/md
mkfs.xfs -q -f -K -d su=64k,sw=3 $MD || fail "mkfs.xfs -d su=64k,sw=3"
mount $MD /mnt/md || fail "mount $MD"
run_clyde stack --json --advise /mnt/md
mapfile -t v < <(jq_py "$T/out" '[a["id"] for a in j["advice"]]' \
	'j["stack"]["filesystem"]["stripe_unit_bytes"], j["stack"]["filesystem"]["stripe_width_bytes"]')
assert_no_match "${v[0]}" "fs-stripe" "after the advised mkfs.xfs: no fs-stripe advice (${v[0]})"
assert_eq "${v[1]}" \
	"(65536, 196608)" "xfs's stripe unit and width read back from the mounted filesystem"

# Degraded: one member failed.
mdadm $MD --fail "${VDS[1]}" >/dev/null 2>&1 || fail "mdadm --fail ${VDS[1]}"
stack_vs_detail "raid5 with ${VDS[1]} failed"
mapfile -t v < <(jq_py "$T/stack.json" \
	'[d["md_state"] for d in j["stack"]["devices"] if d["name"] == "vdb"][0]' \
	'[a["id"] for a in j["advice"]]')
assert_eq "${v[0]}" "faulty" "the failed member's state is faulty"
assert_match "${v[1]}" "md-degraded" \
	"a degraded array gets the md-degraded advice"
run_clyde stack /mnt/md
assert_file_match "$T/out" "DEGRADED \(1 missing\)" "the text says DEGRADED (1 missing)"
umount /mnt/md
md_stop $MD 4

# A resync in progress: held slow so it is still going when clyde looks.
# RAID5 made without --assume-clean recovers onto its last disk (mdadm's
# way of building one); RAID1 resyncs.
sysfs_set /proc/sys/dev/raid/speed_limit_max 1000
sysfs_set /proc/sys/dev/raid/speed_limit_min 100
mdadm --create $MD --run --quiet --metadata=1.2 --level=5 --chunk=64 \
	--raid-devices=4 "${VDS[@]:0:4}" >/dev/null 2>&1 ||
	fail "mdadm --create raid5 (building)"
stack_vs_detail "raid5 building (recovering onto its last disk)"
assert_match "$(jq_py "$T/stack.json" '[a["id"] for a in j["advice"]]')" "md-sync" \
	"an array recovering gets the md-sync advice"
md_stop $MD 4
mdadm --create $MD --run --quiet --metadata=1.2 --level=1 \
	--raid-devices=2 "${VDS[@]:0:2}" >/dev/null 2>&1 ||
	fail "mdadm --create raid1 (resyncing)"
stack_vs_detail "raid1 resyncing"
run_clyde stack $MD
assert_file_match "$T/out" "md0: md raid1, 2 disks, .*sync resync" \
	"the text says sync resync"
md_stop $MD 2
done_testing

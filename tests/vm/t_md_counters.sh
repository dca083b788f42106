#!/usr/bin/env bash
# md's per-member counters on a real kernel, through `clyde dev`: the
# members' sum matches the array's traffic; a full-stripe sequential write
# on RAID5 reads nothing from the members and writes n/(n-1); a 4 KiB
# random write reads from them and gets the read-modify-write finding;
# RAID1 writes 2x; RAID6 writes n/(n-2).  clyde run on XFS over the RAID6
# (320M disks: above 1 GiB, where mkfs.xfs takes md's stripe): a
# buffered block write gets no partial-stripe finding, and with O_DIRECT
# quarter-stripe writes the members' parity reads are clyde's.
#
# vm-disks: 6
# vm-disk-size: 320M
# vm-timeout: 300
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 6
require_cmd "JSON checks" python3
MD=/dev/md0

# dev LABEL ARGS...: clyde dev on $MD, the JSON in $T/LABEL.json, the text
# in $T/LABEL.txt.
dev()
{
	local label=$1
	shift
	run_clyde dev $MD --destroy-data --no-save --seed 1 \
		--json "$T/$label.json" "$@"
	expect_rc 0 "$label: clyde dev $MD $*"
	cp "$T/out" "$T/$label.txt"
}

# members LABEL EXPR...: each EXPR over the first test of LABEL's JSON, with
# t the test, m its members_check and r/w the members' read and write bytes,
# into the array V (one python3 for all: each start costs the guest seconds).
members()
{
	local label=$1 e exprs=()
	shift
	for e in "$@"; do
		exprs+=("(lambda t: (lambda m, r, w: $e)(t['members_check'], sum(x['read_bytes'] for x in t['members']), sum(x['write_bytes'] for x in t['members'])))(j['runs'][0]['tests'][0])")
	done
	mapfile -t V < <(jq_py "$T/$label.json" "${exprs[@]}")
	[[ ${#V[@]} -eq $# ]] || fail "$label: cannot read $T/$label.json"
}

# RAID5 over 4, chunk 64k: a stripe is 192 KiB of data.
md_create $MD 5 64 4
dev r5-seq --tests seqwrite --bs 768k --size 48m
members r5-seq 'len(t["members"])' 'r' 'round(w / t["bytes"], 2)' \
	'm["read_modify_write"]' 'round(t["device"]["write_bytes"] / t["bytes"], 2)'
assert_eq "${V[0]}" 4 "raid5: four members counted"
assert_eq "${V[1]}" 0 \
	"raid5 full-stripe sequential write (768k = 4 stripes): no member reads"
assert_eq "${V[2]}" 1.33 \
	"raid5 full-stripe write: members wrote 4/3 of the data"
assert_eq "${V[3]}" false \
	"raid5 full-stripe write: no read-modify-write finding"
assert_eq "${V[4]}" 1.0 \
	"raid5: the array itself wrote the data once"
dev r5-read --tests seqread --bs 768k --size 48m
members r5-read 'round(r / t["bytes"], 2)'
assert_eq "${V[0]}" 1.0 \
	"raid5 sequential read: the members' reads sum to the array's"
dev r5-rand --tests randwrite --rand-bs 4k --rand-ops 2000 --size 96m
members r5-rand 'r > t["bytes"] // 2' 'm["read_modify_write"]'
assert_eq "${V[0]}" true \
	"raid5 4 KiB random write: the members read (read-modify-write)"
assert_eq "${V[1]}" true \
	"raid5 4 KiB random write: read_modify_write in the JSON"
assert_file_match "$T/r5-rand.txt" \
	"^finding: randwrite read .* from the members: partial-stripe writes \(stripe = 64 KiB x 3 data disks = 192 KiB; this test writes 4 KiB chunks, the array received 4.00 KiB requests on average\); it costs the members [0-9.]+% more I/O than the .* they wrote" \
	"raid5 4 KiB random write: the text names the partial-stripe writes, the array's requests and the cost"
cp "$T/r5-rand.txt" "$VM_OUT/dev-raid5-randwrite.txt"
md_stop $MD 4

# RAID1 over 2: every byte twice.
md_create $MD 1 0 2
dev r1-seq --tests seqwrite --bs 1m --size 32m
members r1-seq 'round(w / t["bytes"], 2)' \
	'[round(x["write_bytes"] / t["bytes"], 2) for x in t["members"]]' \
	'm["read_modify_write"]'
assert_eq "${V[0]}" 2.0 "raid1 writes 2x"
assert_eq "${V[1]}" "[1.0, 1.0]" "raid1: each member wrote all of it"
assert_eq "${V[2]}" false "raid1: no read-modify-write finding"
md_stop $MD 2

# RAID6 over 6, chunk 64k: 4 data disks, a stripe is 256 KiB.
md_create $MD 6 64 6
dev r6-seq --tests seqwrite --bs 1m --size 48m
members r6-seq 'round(w / t["bytes"], 2)' 'r'
assert_eq "${V[0]}" 1.5 "raid6 over 6 writes 6/4 = n/(n-2)"
assert_eq "${V[1]}" 0 "raid6 full-stripe write: no member reads"

# clyde run on XFS made with defaults (aligned: 64k x 4) on that RAID6.
# A buffered block write reaches md as large requests: whatever the
# members read is no partial-stripe finding.  With O_DIRECT 64 KiB
# writes (a quarter stripe) md reads old data and parity for each: those
# reads serve clyde's writes, so they are clyde's, not "other I/O".
mkfs.xfs -q -f $MD || fail "mkfs.xfs $MD"
mkdir -p /mnt/md
mount $MD /mnt/md || fail "mount $MD"
# brun LABEL ARGS...: clyde run on /mnt/md, block write only (-f, -n 0).
brun()
{
	local label=$1
	shift
	run_clyde run -d /mnt/md -r 0 -n 0 -f -q --no-save \
		--json "$T/$label.json" "$@"
	expect_rc 0 "$label: clyde run -d /mnt/md $*"
	cp "$T/out" "$T/$label.txt"
}
pb='[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]'
brun r6-xfs -s 64m
mapfile -t V < <(jq_py "$T/r6-xfs.json" "${pb}[\"members_check\"][\"read_modify_write\"]" \
	"${pb}[\"members_check\"][\"array_request_bytes\"] or 0" "${pb}[\"members_check\"][\"read_bytes\"]")
assert_eq "${V[0]}" false \
	"raid6 + aligned xfs, buffered block write: no partial-stripe finding (the array's requests ${V[1]} B on average, the members read ${V[2]} B)"
assert_file_no_match "$T/r6-xfs.txt" "partial-stripe" \
	"raid6 + aligned xfs, buffered block write: the text has no partial-stripe finding"
brun r6-direct -D -s 16m:64k
mapfile -t V < <(jq_py "$T/r6-direct.json" "${pb}[\"io\"][\"total_read_bytes\"]" \
	"${pb}[\"io\"][\"read_bytes\"]" "${pb}[\"io\"][\"other_read_bytes\"]")
[[ ${V[0]} -ge $((1 << 20)) ]] ||
	fail "raid6 O_DIRECT 64k writes: the members read ${V[0]} B, expected partial-stripe reads"
assert_eq "$((V[1] * 100 / V[0] >= 95))" 1 \
	"raid6 O_DIRECT 64k writes: the members' parity reads (${V[0]} B) are clyde's (${V[1]} B), not other I/O (${V[2]} B)"
assert_file_no_match "$T/r6-direct.txt" "put_block: other I/O" \
	"raid6 O_DIRECT 64k writes: no 'other I/O' line for the block write"
umount /mnt/md
md_stop $MD 6
done_testing

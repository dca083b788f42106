#!/usr/bin/env bash
# Post D on a real kernel: examples/posts/md-raid-chunk.ini end to end at
# small sizes (RAID5 and RAID6 over six disks, chunk 64k..512k, XFS, a
# small clyde run at each point, one repeat): every point runs and is
# saved, the table has all eight, and no array is left behind.
#
# vm-disks: 6
# vm-disk-size: 128M
# vm-timeout: 300
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 6
export XDG_DATA_HOME=$T/xdg
CLYDE_TIMEOUT=280
run_clyde sweep -q --define "disks=${VDS[*]:0:6}" --define ndisks=6 --define repeats=1 \
	--define "run_opts=-s 8m:8k:200:1 -n 0 -r 0 -f -m md{level}-{chunk}k" \
	"$CLYDE_SRC/examples/posts/md-raid-chunk.ini"
evidence sweep-md-raid-chunk.txt "$T/out"
cp "$T/err" "$VM_OUT/sweep-md-raid-chunk.err"
expect_rc 0 "md-raid-chunk.ini ran every point"
for level in 5 6; do
	for chunk in 64 128 256 512; do
		assert_file_match "$T/out" "^ *$level +$chunk " \
			"the table has raid$level chunk ${chunk}k"
	done
done
assert_file_no_match /proc/mdstat "^md" "no md array left running"
done_testing

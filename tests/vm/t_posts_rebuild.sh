#!/usr/bin/env bash
# Post A on a real kernel, at small sizes: examples/posts/extract-rebuild.ini
# (the timed mdadm --wait of each chunk's initial RAID5 resync over five
# disks, then a tarball extracted onto ext4 on it): every point runs, the
# rebuild is timed, no array is left.
#
# vm-disks: 5
# vm-disk-size: 64M
# vm-timeout: 300
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 5
export XDG_DATA_HOME=$T/xdg
CLYDE_TIMEOUT=250
# A small tree (the timing of the rebuild is the subject, not the tarball).
tar czf /tmp/src.tgz -C "$CLYDE_SRC" src/env || fail "tar czf /tmp/src.tgz"
run_clyde sweep -q --define "disks=${VDS[*]:0:5}" --define repeats=1 --define tarball=/tmp/src.tgz \
	"$CLYDE_SRC/examples/posts/extract-rebuild.ini"
cp "$T/out" "$VM_OUT/sweep-extract-rebuild.txt"
cp "$T/err" "$VM_OUT/sweep-extract-rebuild.err"
expect_rc 0 "extract-rebuild.ini ran every point"
for chunk in 4 16 64; do
	assert_file_match "$T/out" "^ *$chunk " "the table has chunk ${chunk}k"
done
# mdadm --wait waited for a real resync: seconds, not nothing.
assert_eq "$(awk '$1 ~ /^(4|16|64)$/ && $2 + 0 < 0.5 { print $1 }' "$T/out")" "" \
	"every chunk's rebuild took a measurable time (mdadm --wait waited)"
assert_file_no_match /proc/mdstat "^md" "no md array left running"
done_testing

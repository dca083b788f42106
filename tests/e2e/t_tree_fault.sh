#!/usr/bin/env bash
# A clyde tree phase that fails with an I/O error names the device under
# the mount after the file on it (issue 32, 2), as clyde run does: the
# ext4 under the tree is shut down (xfs_io's shutdown, FS_IOC_GOINGDOWN)
# while extract writes, so its next write or create gets EIO, or EROFS
# when the create comes after ext4 has marked itself read-only (the kernel
# decides which; CI saw both).  The guest
# test vm/t_faults does the same for clyde run on dm-flakey.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_cmd xfs_io find findmnt
cd "$T"
mount_loop ext4 200
D=$MNT/work
mkdir "$D"
dev=$(findmnt -n -o SOURCE --target "$MNT")
[[ $dev == /dev/loop* ]] || skip "the mount's source is $dev"

"$CLYDE" tree -d "$D" --files 20000 --size fixed:4k --phases extract \
	--no-save --seed 1 --settle 0 -q >"$T/out" 2>"$T/err" &
pid=$!
at_exit "kill $pid 2>/dev/null"
# shellcheck disable=SC2317 # called by wait_for
files()
{
	[[ $(find "$D" -type f 2>/dev/null | head -n 50 | wc -l) -ge 50 ]]
}
wait_for 60 files || fail "extract wrote no 50 files in 60 s"
xfs_io -x -c shutdown "$MNT" 2>"$T/xfs_io.err" ||
	skip "cannot shut ext4 down: $(cat "$T/xfs_io.err")"
rc=0
wait "$pid" || rc=$?
[[ $rc -ne 0 ]] || fail "extract on a shut down ext4 succeeded"
ok "extract failed (exit $rc)"

assert_file_match err \
	"^clyde tree: extract: .*: (Input/output error|Read-only file system) \(device $dev, ${dev#/dev/}, under $MNT\)\$" \
	"the message names the device under the mount"

done_testing

#!/usr/bin/env bash
# A full filesystem stops the run: exit status 3, a message naming the test
# and the path, and nothing left behind on the filesystem.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root

# check_enospc WHAT TEST_RE DIR: the last run failed cleanly on DIR, and
# its message names the test (matching TEST_RE) and a path inside DIR.
check_enospc()
{
	local what=$1 test_re=$2 dir=$3
	expect_rc 3 "$what: exit status 3"
	assert_file_match "$T/err" "$test_re" "$what: stderr names the test"
	assert_file_match "$T/err" "$dir/clyde\.[0-9]+" \
		"$what: stderr names the path"
	assert_file_match "$T/err" "[Nn]o space left" "$what: stderr says why"
	assert_file_no_match "$T/out" '^1\.98,' "$what: no CSV line"
	assert_empty_dir "$dir" "$what: nothing left on the filesystem"
}

# full_during_run DIR FILL: clyde checks the free space before it writes
# (a -s beyond it is refused, see t_safety), so the disk fills up behind
# its back: start a run that fits, paused before its first test, fill DIR's
# filesystem but for nothing, then let it go on.
full_during_run()
{
	local dir=$1
	start_paused -d "$dir" -s 16m -n 0 -f -r 0
	# shellcheck disable=SC2317 # called by wait_for
	made()
	{
		[[ -n $(find "$dir" -mindepth 1 -maxdepth 1 -name 'clyde.*') ]]
	}
	wait_for 10 made || { finish_paused; fail "no scratch made in $dir"; }
	dd if=/dev/zero of="$dir/fill" bs=64k 2>/dev/null || true
	finish_paused
	rm -f "$dir/fill"
}

# Data: the disk fills up during the block write.
mount_tmpfs 32m
full_during_run "$MNT"
check_enospc "tmpfs 32 MiB filled during -s 16m" 'block write' "$MNT"
used=$(df -k --output=used "$MNT" | tail -n 1 | tr -d ' ')
[[ $used -lt 1024 ]] || fail "tmpfs still has ${used} KiB in use"
ok "tmpfs space given back (${used} KiB in use)"

# Inodes: 1024 files on a tmpfs with room for 200.
mkdir "$T/ino"
mount -t tmpfs -o size=32m,nr_inodes=200,mode=755 tmpfs "$T/ino" ||
	fail "cannot mount a tmpfs with nr_inodes=200 (the first one mounted)"
at_exit "umount -l '$T/ino'"
run_clyde -d "$T/ino" -s 0 -n 1 -r 0
check_enospc "tmpfs of 200 inodes, -n 1" 'create' "$T/ino"

# ext4 reports a full disk at write or at fsync (delayed allocation): both
# must end the same way.
require_cmd "the ext4 case" mkfs.ext4 losetup
mount_loop ext4 32
mkdir "$MNT/d"
full_during_run "$MNT/d"
check_enospc "ext4 32 MiB filled during -s 16m" 'block write' "$MNT/d"

done_testing

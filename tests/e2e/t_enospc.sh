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

# full_during_run DIR [FILL [ARGS...]]: clyde checks the free space and
# inodes before it writes (a -s or -n beyond them is refused, see
# t_safety and below), so the disk fills up behind its back: start a run
# that fits (ARGS, default -s 16m -n 0 -f -r 0), paused before its first
# test, fill DIR's filesystem but for nothing (FILL DIR: fill_space, or
# fill_inodes), then let it go on.
# shellcheck disable=SC2317 # called as full_during_run's FILL
fill_space()
{
	dd if=/dev/zero of="$1/fill" bs=64k 2>/dev/null || true
}
# shellcheck disable=SC2317 # called as full_during_run's FILL
fill_inodes()
{
	mkdir "$1/fill"
	local i
	for ((i = 0; i < 100000; i++)); do
		: >"$1/fill/$i" 2>/dev/null || break
	done
}
full_during_run()
{
	local dir=$1 fill=${2:-fill_space}
	shift 2 || shift $#
	(($#)) || set -- -s 16m -n 0 -f -r 0
	start_paused -d "$dir" "$@"
	# shellcheck disable=SC2317 # called by wait_for
	made()
	{
		[[ -n $(find "$dir" -mindepth 1 -maxdepth 1 -name 'clyde.*') ]]
	}
	wait_for 10 made || { finish_paused; fail "no scratch made in $dir"; }
	"$fill" "$dir"
	finish_paused
	rm -rf "$dir/fill"
}

# Data: the disk fills up during the block write.
mount_tmpfs 32m
full_during_run "$MNT" fill_space
check_enospc "tmpfs 32 MiB filled during -s 16m" 'block write' "$MNT"
used=$(df -k --output=used "$MNT" | tail -n 1 | tr -d ' ')
[[ $used -lt 1024 ]] || fail "tmpfs still has ${used} KiB in use"
ok "tmpfs space given back (${used} KiB in use)"

# Inodes: 1024 files on a tmpfs with room for 200 are refused before the
# first test, as clyde tree refuses a tree (exit 1, one line, nothing
# written); a tmpfs whose inodes run out during the run stops it.
mkdir "$T/ino"
mount -t tmpfs -o size=32m,nr_inodes=200,mode=755 tmpfs "$T/ino" ||
	fail "cannot mount a tmpfs with nr_inodes=200 (the first one mounted)"
at_exit "umount -l '$T/ino'"
run_clyde -d "$T/ino" -s 0 -n 1 -r 0
expect_rc 1 "-n 1 on 200 inodes: refused, exit 1"
assert_eq "$(wc -l <"$T/err")" 1 "-n 1 on 200 inodes: one line"
assert_file_match "$T/err" "^clyde: the -n files need 10[0-9][0-9] inodes but $T/ino has only [0-9]+ free$" \
	"-n 1 on 200 inodes: names -n, the inodes needed and free"
assert_file_no_match "$T/out" '^1\.98,' "-n 1 on 200 inodes: nothing run"
assert_empty_dir "$T/ino" "-n 1 on 200 inodes: nothing written"
mkdir "$T/ino2"
mount -t tmpfs -o size=32m,nr_inodes=2000,mode=755 tmpfs "$T/ino2" ||
	fail "cannot mount a tmpfs with nr_inodes=2000"
at_exit "umount -l '$T/ino2'"
full_during_run "$T/ino2" fill_inodes -s 0 -n 1 -r 0
check_enospc "tmpfs of 2000 inodes filled during -n 1" 'create' "$T/ino2"

# ext4 reports a full disk at write or at fsync (delayed allocation): both
# must end the same way.
require_cmd "the ext4 case" mkfs.ext4 losetup
mount_loop ext4 32
mkdir "$MNT/d"
full_during_run "$MNT/d" fill_space
check_enospc "ext4 32 MiB filled during -s 16m" 'block write' "$MNT/d"

done_testing

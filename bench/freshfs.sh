# freshfs.sh: sourced by the bench scripts whose file tests (create, stat,
# delete) must start from the same filesystem state on both sides: a fresh
# ext4 (with its journal, mkfs's defaults) on a loop device over a sparse
# image in the directory under test, made before a run and removed after.
#
# Why: a filesystem that has just deleted many files is not the one it
# was.  On this project's VM the root ext4 has no journal, and ext4 then
# skips, at every inode allocation, the inodes deleted in the last 60 s
# (300 s while their table block is dirty): `perf record` of a 1M-file
# create showed 40% of the CPU in recently_deleted() and
# find_get_block_common() under it, and the create rate of one tool went
# 1610-6786 files/s depending on what the run before it had deleted.
# Interleaved runs on one directory measure each other's deletes.
#
#   fresh_up DIR SIZE INODES   sets FRESH_MNT (the mounted filesystem)
#   fresh_down                 unmounts and removes it (safe to call twice,
#                              and with nothing made)
#   fresh_place SIZE DIR INODES PLAIN
#                              sets FRESH_DIR: with SIZE, a fresh filesystem
#                              in DIR (fresh_up); without, PLAIN
#   fresh_size_ok SIZE         SIZE is empty or a size for -F/-X (4g, 512m)
#
# Root only (losetup, mount).  Callers set `trap fresh_down EXIT` or call it
# from their own exit trap.
#
# shellcheck shell=bash

FRESH_IMG='' FRESH_LOOP='' FRESH_MNT='' FRESH_DIR=''

fresh_down()
{
	if [[ -n $FRESH_MNT ]]; then
		umount "$FRESH_MNT" 2>/dev/null || umount -l "$FRESH_MNT" 2>/dev/null || true
		rmdir "$FRESH_MNT" 2>/dev/null || true
	fi
	[[ -z $FRESH_LOOP ]] || losetup -d "$FRESH_LOOP" 2>/dev/null || true
	[[ -z $FRESH_IMG ]] || rm -f -- "$FRESH_IMG"
	FRESH_IMG='' FRESH_LOOP='' FRESH_MNT=''
}

# fresh_up DIR SIZE INODES: SIZE as truncate -s takes it; INODES at least
# the files a run keeps at once (mkfs -N).  The inode tables are written by
# mkfs (lazy_itable_init=0), not by the kernel's lazy-init thread in the
# background of the run.  On failure: a message on stderr, status 1,
# nothing left behind.
fresh_up()
{
	local dir=$1 size=$2 inodes=$3
	fresh_down
	if [[ $(id -u) -ne 0 ]]; then
		echo "freshfs: a fresh filesystem per run needs root (losetup, mount)" >&2
		return 1
	fi
	for c in losetup mkfs.ext4 mount umount; do
		command -v "$c" >/dev/null 2>&1 || {
			echo "freshfs: $c not found" >&2
			return 1
		}
	done
	if ! {
		FRESH_IMG=$(mktemp "$dir/freshfs.XXXXXX") &&
			truncate -s "$size" "$FRESH_IMG" &&
			FRESH_LOOP=$(losetup --find --show --direct-io=on "$FRESH_IMG") &&
			mkfs.ext4 -q -F -N "$inodes" \
				-E nodiscard,lazy_itable_init=0,lazy_journal_init=0 \
				"$FRESH_LOOP" >/dev/null &&
			FRESH_MNT=$(mktemp -d "$dir/freshfs-mnt.XXXXXX") &&
			mount "$FRESH_LOOP" "$FRESH_MNT"
	}; then
		echo "freshfs: cannot make an ext4 of $size on a loop device in $dir" >&2
		# A directory made but nothing mounted on it: remove it first.
		if [[ -n $FRESH_MNT ]] && ! mountpoint -q "$FRESH_MNT"; then
			rmdir "$FRESH_MNT" 2>/dev/null
			FRESH_MNT=''
		fi
		fresh_down
		return 1
	fi
	chmod 1777 "$FRESH_MNT"
}

# fresh_size_ok SIZE: empty (no fresh filesystem) or a number with an
# optional k/m/g/t, as the scripts' -F/-X take it.
fresh_size_ok()
{
	[[ -z $1 || $1 =~ ^[1-9][0-9]*[kKmMgGtT]?$ ]]
}

# fresh_place SIZE DIR INODES PLAIN: where a run of the file tests goes,
# in FRESH_DIR: a fresh filesystem of SIZE in DIR when SIZE is given, else
# PLAIN.  fresh_down after the run (a no-op without SIZE).
# shellcheck disable=SC2034 # FRESH_DIR is for the sourcing script
fresh_place()
{
	FRESH_DIR=$4
	[[ -n $1 ]] || return 0
	fresh_up "$2" "$1" "$3" || return 1
	FRESH_DIR=$FRESH_MNT
}

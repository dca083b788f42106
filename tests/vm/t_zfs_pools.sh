#!/usr/bin/env bash
# ZFS on a real kernel: a pool of each vdev kind (stripe, mirror, raidz1,
# raidz2, raidz3, draid, and one with log, cache and special vdevs), each
# with a dataset of its own properties and a file written and read back;
# for each, what ZFS says of it is kept in $VM_OUT/KIND/ (vm.sh --keep):
# zpool status -P -p, zpool list -v -H -P -p, zpool get -H -p all, zfs get
# -H -p all of the dataset (and of a zvol), zdb -l of each leaf, the ARC's
# arcstats, the pool's kstats under /proc/spl/kstat/zfs/POOL and
# /proc/self/mountinfo.  tests/fixtures/zfs/ are such outputs (the unit
# tests of src/env/zfs.c read them).
#
# vm-disks: 5
# vm-disk-size: 160M
# vm-timeout: 480
# vm-zfs: yes
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 5
zfs_setup
P=("${ZFS_PARTS[@]}")

# record KIND POOL: ZFS's own view of POOL and its dataset POOL/fs into
# $VM_OUT/KIND/.
record()
{
	local kind=$1 pool=$2 o=$VM_OUT/$1 f
	mkdir -p "$o/kstat"
	zpool status -P -p "$pool" >"$o/status" || fail "$kind: zpool status $pool"
	zpool list -v -H -P -p "$pool" >"$o/list" || fail "$kind: zpool list $pool"
	zpool get -H -p all "$pool" >"$o/pool-get" || fail "$kind: zpool get $pool"
	zfs get -H -p all "$pool/fs" >"$o/get" || fail "$kind: zfs get $pool/fs"
	# zdb -l of every leaf: the label has its top-level vdev's ashift
	# (a cache device's has none: zdb exits 1 there).
	while read -r f; do
		zdb -l "$f" >"$o/zdb-l.${f##*/}" 2>&1 || true
	done < <(sed -n 's|^\t *\(/dev/[^ \t]*\).*|\1|p' "$o/status")
	cp /proc/spl/kstat/zfs/arcstats "$o/arcstats"
	for f in /proc/spl/kstat/zfs/"$pool"/*; do
		[[ -f $f ]] || continue
		cp "$f" "$o/kstat/" || fail "$kind: cannot read $f"
	done
	cp /proc/self/mountinfo "$o/mountinfo"
	local ks=("$o"/kstat/*)
	ok "$kind: $(awk 'NR == 1 { print $1, $2 " bytes" }' "$o/list"), $(grep -c . "$o/get") properties, ${#ks[@]} kstats recorded"
}

# one KIND DATASET_PROPS -- VDEV_SPEC...: create pool zt, its dataset
# zt/fs with the properties, a file written, synced and read back, record,
# destroy.
one()
{
	local kind=$1 props=() o
	shift
	while [[ $1 != -- ]]; do
		props+=(-o "$1")
		shift
	done
	shift
	zpool_make zt "$@"
	zfs create "${props[@]}" zt/fs || fail "$kind: zfs create ${props[*]} zt/fs"
	# Half random, half text: a compressing dataset's ratio is above 1
	# (zeros would not do: ZFS stores a block of zeros as a hole).
	head -c 2M /dev/urandom >/mnt/zt/fs/f
	head -c 2M < <(yes 'a line of text that compresses well') >>/mnt/zt/fs/f
	zpool sync zt || fail "$kind: zpool sync"
	cat /mnt/zt/fs/f >/dev/null
	if [[ $kind == mirror ]]; then
		zfs create -V 16M -o volblocksize=16384 zt/vol || fail "zfs create -V zt/vol"
		o=$VM_OUT/$kind
		mkdir -p "$o"
		zfs get -H -p all zt/vol >"$o/get-vol" || fail "zfs get zt/vol"
	fi
	record "$kind" zt
	zpool destroy -f zt || fail "$kind: zpool destroy"
}

one stripe compression=lz4 -- "${P[0]}" "${P[1]}"
one mirror recordsize=16384 compression=off atime=off sync=always \
	primarycache=metadata logbias=throughput checksum=sha256 -- \
	mirror "${P[0]}" "${P[1]}"
one raidz1 compression=zstd recordsize=1048576 -- raidz1 "${P[@]:0:3}"
one raidz2 compression=gzip-6 sync=disabled -- raidz2 "${P[@]:0:4}"
one raidz3 primarycache=none checksum=off -- raidz3 "${P[@]:0:5}"
one draid compression=lz4 atime=on -- draid1:2d:4c:1s "${P[@]:0:4}"
one special compression=lz4 -- -o ashift=12 "${P[0]}" log "${P[1]}" \
	cache "${P[2]}" special "${P[3]}"
done_testing

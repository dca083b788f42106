#!/usr/bin/env bash
# NFS on a real kernel (issue 34): this guest serves an ext4 on /dev/vda
# over its loopback and mounts it with vers=3 and vers=4.2.  `clyde stack
# --json` on each mount says what nfsstat -m, /proc/mounts and the
# server's exportfs -v say (version, rsize, wsize, sync or async), and
# that the server is this machine with the export's ext4 on vda under it;
# an async export is named by --advise.  The kernel's mountstats,
# mountinfo and etab text are kept (vm.sh --keep) for the unit fixtures.
#
# vm-disks: 1
# vm-disk-size: 128M
# vm-timeout: 300
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 1
require_cmd "NFS" nfsstat mount.nfs mkfs.ext4 python3
VD=${VDS[0]}

mkfs.ext4 -q -F "$VD" >/dev/null 2>&1 || fail "mkfs.ext4 $VD"
mkdir -p /mnt/export
mount "$VD" /mnt/export || fail "mount $VD /mnt/export"
at_exit "umount /mnt/export"
nfs_server_start /mnt/export
nfs_mount 3 /mnt/c3 /mnt/export
nfs_mount 4.2 /mnt/c42

exportfs -v >"$T/exportfs"
evidence exportfs-v "$T/exportfs"
# "/mnt/export  127.0.0.1(sync,wdelay,...)": sync or async.
export_sync=$(grep -o '(\(a\)\?sync,' "$T/exportfs" | tr -d '(,' | sed -n 1p)
[[ -n $export_sync ]] || fail "exportfs -v names neither sync nor async"
nfsstat -m >"$T/nfsstat" || fail "nfsstat -m"
evidence nfsstat-m "$T/nfsstat"

for v in 3 4.2; do
	mp=/mnt/c${v//./}
	# nfsstat -m: "/mnt/c42 from 127.0.0.1:/" then " Flags: rw,...,vers=4.2,...".
	flags=$(grep -A1 "^$mp from" "$T/nfsstat" | sed -n 's/^ *Flags:[[:space:]]*//p')
	[[ -n $flags ]] || fail "nfsstat -m has no $mp"
	opt() { tr ',' '\n' <<<"$flags" | sed -n "s/^$1=//p"; }
	mnt=$(awk -v mp="$mp" '$2 == mp { print $4 }' /proc/mounts)
	[[ $mnt == *"rsize=$(opt rsize)"* ]] || fail "/proc/mounts and nfsstat -m disagree on $mp's rsize"

	run_clyde stack --json --advise "$mp"
	expect_rc 0 "clyde stack --json --advise $mp"
	mapfile -t got < <(jq_py "$T/out" \
		'j["stack"]["filesystem"]["nfs_version"]' \
		'j["stack"]["filesystem"]["nfs_rsize"]' \
		'j["stack"]["filesystem"]["nfs_wsize"]' \
		'j["stack"]["filesystem"]["nfs_proto"]' \
		'j["stack"]["filesystem"]["nfs_local"]' \
		'j["stack"]["filesystem"]["nfs_export_dir"]' \
		'j["stack"]["filesystem"]["nfs_export_sync"]' \
		'j["stack"]["filesystem"]["nfs_export_fstype"]' \
		'" ".join(j["stack"]["top"])' \
		'" ".join(a["id"] for a in j.get("advice", []))')
	assert_eq "${got[0]}" "$(opt vers)" "$mp: clyde's NFS version = nfsstat -m's"
	assert_eq "${got[1]}|${got[2]}|${got[3]}" "$(opt rsize)|$(opt wsize)|$(opt proto)" \
		"$mp: clyde's rsize|wsize|proto = nfsstat -m's"
	assert_eq "${got[4]}|${got[5]}|${got[6]}|${got[7]}" "1|/mnt/export|$export_sync|ext4" \
		"$mp: served by this machine from /mnt/export ($export_sync, ext4) as exportfs -v says"
	assert_eq "${got[8]}" "${VD#/dev/}" "$mp: the device under the mount is the export's"
	assert_no_match "${got[9]}" 'nfs-async' "$mp: a sync export is not advised against"
done

# The same export made async: the stack says so and --advise names it.
exportfs -o rw,no_root_squash,async,no_subtree_check,fsid=0 127.0.0.1:/mnt/export \
	>/dev/null 2>&1 || fail "exportfs async"
exportfs -v | grep -q '(async,' || fail "exportfs -v does not say async after re-export"
run_clyde stack --json --advise /mnt/c42
expect_rc 0 "clyde stack --json --advise /mnt/c42 (async export)"
mapfile -t got < <(jq_py "$T/out" \
	'j["stack"]["filesystem"]["nfs_export_sync"]' \
	'" ".join(a["id"] for a in j.get("advice", []))')
assert_eq "${got[0]}" async "an async export: clyde stack says async"
assert_match "${got[1]}" 'nfs-async' "an async export: --advise names it"

cp /proc/self/mountstats "$VM_OUT/mountstats"
cp /proc/self/mountinfo "$VM_OUT/mountinfo"
cp /var/lib/nfs/etab "$VM_OUT/etab"
cp /proc/fs/nfsd/max_block_size "$VM_OUT/max_block_size"
done_testing

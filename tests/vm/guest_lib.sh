# Helpers for the guest tests (tests/vm/t_*.sh), which run inside the qemu
# guest of tests/vm/vm.sh.  Sourced first:
#
#   . "$(dirname "$0")/guest_lib.sh"
#
# It brings the e2e helpers (tests/e2e/lib.sh: strict mode, $T on the
# guest's /tmp, ok/fail/skip, run_clyde), refuses to run outside a guest
# (the tests create md arrays and LVM volumes over /dev/vd*), and stops
# whatever md array, LVM volume group or dm device is left at exit.
#
# shellcheck shell=bash

# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

if [[ -z ${VM_OUT:-} || ! -d /run/vm ]]; then
	echo "FAIL: $E2E_NAME runs inside the guest: tests/vm/vm.sh $0" >&2
	exit 1
fi
mkdir -p "$VM_OUT"

# The virtio disks, /dev/vda first.
mapfile -t VDS < <(ls /dev/vd[a-z] 2>/dev/null)

vm_cleanup()
{
	local md vg
	for md in /dev/md[0-9]*; do
		[[ -b $md ]] && mdadm --stop "$md" >/dev/null 2>&1
	done
	for vg in $(vgs --noheadings -o vg_name 2>/dev/null); do
		vgchange -an "$vg" >/dev/null 2>&1
	done
	dmsetup remove_all >/dev/null 2>&1
	return 0
}
at_exit vm_cleanup

# need_disks N: the test needs N virtio disks.
need_disks()
{
	[[ ${#VDS[@]} -ge $1 ]] ||
		fail "needs $1 disks, the guest has ${#VDS[@]} (# vm-disks: $1)"
}

# wipe_disks DEV...: no md superblock or filesystem signature left, in one
# command (every exec costs the guest up to a second): wipefs -a erases
# every signature libblkid finds, md's superblock (linux_raid_member) too,
# so mdadm --zero-superblock would add nothing.  Checked: no md superblock
# is left for mdadm --examine.
wipe_disks()
{
	wipefs -q -a "$@" >/dev/null 2>&1 || true
}

# md_create MD LEVEL CHUNK_KIB N [MDADM_OPTION...]: an array of the first
# N disks with --assume-clean (no resync), unless the options say otherwise.
# CHUNK_KIB 0: none (raid1).
md_create()
{
	local md=$1 level=$2 chunk=$3 n=$4 opts=()
	shift 4
	[[ $chunk -gt 0 ]] && opts+=(--chunk="$chunk")
	mdadm --create "$md" --run --quiet --metadata=1.2 --assume-clean \
		--level="$level" \
		"${opts[@]}" --raid-devices="$n" "$@" "${VDS[@]:0:n}" \
		>"$T/mdadm.out" 2>&1 || {
		cat "$T/mdadm.out" >&2
		fail "mdadm --create $md --level=$level --chunk=$chunk over $n disks"
	}
}

# md_stop MD N: stop it and wipe its N disks.
md_stop()
{
	mdadm --stop "$1" >/dev/null 2>&1 || fail "mdadm --stop $1"
	wipe_disks "${VDS[@]:0:$2}"
}

# evidence NAME FILE: keep FILE as $VM_OUT/NAME (vm.sh --keep) and print
# it to the test's log as TAP comments ("# | ..."), under "# NAME:": what
# the real kernel printed, for the reader of a ctest log.
evidence()
{
	cp "$2" "$VM_OUT/$1"
	echo "# $1:"
	sed 's/^/# | /' "$2"
}

# jq_py FILE EXPR...: print each Python expression EXPR over the JSON in
# FILE (bound to j), one a line; True/False print as true/false.  One
# python3 (-S: no site scan; each start costs the guest a second or two)
# for all of them: mapfile -t v < <(jq_py FILE E1 E2) reads them back.
jq_py()
{
	python3 -S - "$@" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
for e in sys.argv[2:]:
    v = eval(e, {"j": j})
    print({True: "true", False: "false"}.get(v, v) if isinstance(v, bool) else v)
EOF
}

# nap SECONDS: sleep without an exec (each costs the guest up to a second,
# and a busy loop takes the one vCPU from the clyde it waits on): read -t on
# a FIFO nobody writes to, opened read-write so that the open does not block.
nap()
{
	if [[ -z ${NAP_FD:-} ]]; then
		mkfifo "$T/.nap" || fail "mkfifo $T/.nap"
		exec {NAP_FD}<>"$T/.nap"
	fi
	read -r -t "$1" -u "$NAP_FD" _ || true
}

# sysfs_set FILE VALUE: write VALUE, restored at exit.
sysfs_set()
{
	local old
	old=$(cat "$1")
	at_exit "echo '$old' > '$1'"
	echo "$2" >"$1"
}

# zfs_setup: ZFS in the guest (tests with "# vm-zfs: yes", whose modules
# and userland tests/vm/zfs.sh built on the host into $VM_ZFS): insmod the
# nine modules in order (zlib_deflate and zlib_inflate are in the
# initramfs), zpool, zfs and zdb on PATH with their libraries on
# LD_LIBRARY_PATH, and every pool destroyed at exit.  ZFS_PARTS: one
# partition over each virtio disk (/dev/vda1, ...), since zpool create on a
# whole disk wants udev to find the partition it makes.
zfs_setup()
{
	local m d
	[[ -n ${VM_ZFS:-} && -e $VM_ZFS/modules/order ]] ||
		fail "no ZFS build in VM_ZFS='${VM_ZFS:-}' (the test's header wants # vm-zfs: yes)"
	while read -r m; do
		[[ -d /sys/module/$m ]] && continue
		insmod "$VM_ZFS/modules/$m.ko" || fail "insmod $VM_ZFS/modules/$m.ko"
	done <"$VM_ZFS/modules/order"
	[[ -c /dev/zfs ]] || fail "the ZFS modules loaded and there is no /dev/zfs"
	PATH=$VM_ZFS/root/sbin:$VM_ZFS/root/usr/sbin:$PATH
	LD_LIBRARY_PATH=$VM_ZFS/root/lib/x86_64-linux-gnu
	export PATH LD_LIBRARY_PATH
	at_exit zfs_cleanup
	ZFS_PARTS=()
	for d in "${VDS[@]}"; do
		echo ',,' | sfdisk -q "$d" >/dev/null 2>&1 || fail "sfdisk $d"
		ZFS_PARTS+=("${d}1")
	done
	for d in "${ZFS_PARTS[@]}"; do
		[[ -b $d ]] || fail "no $d after sfdisk"
	done
}

# zfs_cleanup: every pool destroyed (at exit).
zfs_cleanup()
{
	local p
	for p in $(zpool list -H -o name 2>/dev/null); do
		zpool destroy -f "$p" >/dev/null 2>&1
	done
	return 0
}

# zpool_make POOL [-o PROP=VALUE...] VDEV_SPEC...: zpool create -f with no
# cache file (the root is read-only) and the pool's dataset mounted on
# /mnt/POOL.
zpool_make()
{
	local pool=$1 opts=()
	shift
	while [[ ${1:-} == -o ]]; do
		opts+=(-o "$2")
		shift 2
	done
	zpool create -f -o cachefile=none "${opts[@]}" -m "/mnt/$pool" "$pool" "$@" \
		>"$T/zpool.out" 2>&1 || {
		cat "$T/zpool.out" >&2
		fail "zpool create $pool $*"
	}
}

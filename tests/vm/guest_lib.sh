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
	# No udev runs here: for every leaf with a label a zpool import
	# without -d (libblkid's list of devices) waits until udev has set the
	# device up (libzutil's zpool_label_disk_wait, 30 s a leaf by default,
	# polling every 10 ms), which never happens.  (With -d, as clyde's
	# ZFS target and t_zfs_arc import, it does not wait: t_zfs_arc took
	# 145 s with and without.)
	# An export and import of a raidz1 over nine took 187 s of the 305 s
	# of t_zfs_raidz_post's sweep, of a one-disk pool 36 s (2026-12-07,
	# load 7).  With 0 it looks once; the import scans /dev as before.
	ZPOOL_IMPORT_UDEV_TIMEOUT_MS=0
	export PATH LD_LIBRARY_PATH ZPOOL_IMPORT_UDEV_TIMEOUT_MS
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

# nfs_server_start DIR [OPTIONS]: this guest serves DIR over NFS (v3 and
# v4, the export marked fsid=0, so a v4 client mounts it as "/") to
# 127.0.0.1 with OPTIONS (default rw,no_root_squash,sync,no_subtree_check),
# as docs/testing.md describes: the
# modules from the kernel package (modprobe -d $VM_KROOT), a tmpfs on
# /var/lib/nfs (the root is read-only) with rpc_pipefs in it, nfsd's
# filesystem, rpcbind, exportfs, mountd and two nfsd threads.  Stopped at
# exit (nfs_server_stop).
nfs_server_start()
{
	local dir=$1 eopts=${2:-rw,no_root_squash,sync,no_subtree_check} m
	require_cmd "NFS server" exportfs rpc.nfsd rpc.mountd rpcbind ip
	NFS_DIR=$dir NFS_EOPTS=$eopts
	[[ -n ${VM_KROOT:-} ]] || fail "no VM_KROOT: vm.sh gives the kernel's modules"
	for m in sunrpc grace lockd nfs_acl auth_rpcgss nfsd nfs nfsv3 nfsv4; do
		[[ -d /sys/module/$m ]] && continue
		modprobe -d "$VM_KROOT" "$m" || fail "modprobe -d $VM_KROOT $m"
	done
	ip link set lo up || fail "ip link set lo up"
	at_exit nfs_server_stop
	mount -t tmpfs nfs-state /var/lib/nfs || fail "tmpfs on /var/lib/nfs"
	mkdir -p /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery
	: >/var/lib/nfs/etab
	: >/var/lib/nfs/rmtab
	mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs ||
		fail "mount rpc_pipefs"
	mount -t nfsd nfsd /proc/fs/nfsd || fail "mount nfsd on /proc/fs/nfsd"
	rpcbind -w || fail "rpcbind"
	exportfs -o "$eopts,fsid=0" "127.0.0.1:$dir" >"$T/exportfs.out" 2>&1 || {
		cat "$T/exportfs.out" >&2
		fail "exportfs -o $eopts 127.0.0.1:$dir"
	}
	rpc.mountd || fail "rpc.mountd"
	# NFSv4's grace period (90 s by default) refuses every new OPEN
	# after nfsd starts, and the client retries: a first clyde run spent
	# 70 s of set-up there.  10 s is the shortest nfsd takes.
	echo 10 >/proc/fs/nfsd/nfsv4leasetime 2>/dev/null
	echo 10 >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null
	rpc.nfsd 2 || fail "rpc.nfsd 2"
}

# nfs_server_stop: every NFS mount detached (umount -l), nfsd's threads
# stopped (at exit); mountd and rpcbind go with the guest.  Each step has
# 10 seconds: a cleanup must not hold the guest until vm.sh kills it.
nfs_server_stop()
{
	local mp type mps=()
	while read -r _ mp type _; do
		[[ $type == nfs* ]] && mps+=("$mp")
	done </proc/mounts
	for mp in "${mps[@]}"; do
		timeout -s KILL 10 umount -l "$mp" >/dev/null 2>&1
	done
	timeout -s KILL 10 rpc.nfsd 0 >/dev/null 2>&1
	return 0
}

# nfs_clients N VERS PREFIX: N clients of nfs_server_start's export that
# the server tells apart, mounted at PREFIX0 .. PREFIX(N-1) (visible to
# every process: the mount namespace is the guest's).  Client K has a
# network namespace of its own (ip netns clyde-cK) joined to this one by
# a veth pair (it is 10.34.K.2, the server's end 10.34.K.1), so its own
# connection, address and superblock (no cache shared with the others),
# and a UTS name of its own (clyde-cK), which NFSv4 makes its client
# identity: with one name the server would take each mount for the one
# before it rebooting.  The export is given to each address.  Undone with
# the server at exit (the mounts by nfs_server_stop, the namespaces go
# with the guest).
nfs_clients()
{
	local n=$1 vers=$2 prefix=$3 k ns mopts=vers=$2
	[[ $vers == 3 ]] && mopts+=,nolock
	require_cmd "NFS clients in network namespaces" nsenter unshare
	[[ -d /sys/module/veth ]] || modprobe -d "$VM_KROOT" veth ||
		fail "modprobe -d $VM_KROOT veth"
	for ((k = 0; k < n; k++)); do
		ns=clyde-c$k
		{
			ip netns add "$ns" &&
				ip link add "nfsh$k" type veth peer name "nfsc$k" netns "$ns" &&
				ip addr add "10.34.$k.1/24" dev "nfsh$k" &&
				ip link set "nfsh$k" up &&
				ip -n "$ns" addr add "10.34.$k.2/24" dev "nfsc$k" &&
				ip -n "$ns" link set "nfsc$k" up &&
				ip -n "$ns" link set lo up
		} >"$T/netns.out" 2>&1 || {
			cat "$T/netns.out" >&2
			fail "network namespace $ns with a veth pair"
		}
		exportfs -o "$NFS_EOPTS,fsid=0" "10.34.$k.2:$NFS_DIR" >"$T/exportfs.out" 2>&1 || {
			cat "$T/exportfs.out" >&2
			fail "exportfs to 10.34.$k.2"
		}
		mkdir -p "$prefix$k"
		# shellcheck disable=SC2016 # expanded by the inner shell
		nsenter --net="/run/netns/$ns" unshare --uts sh -c \
			'hostname "$1" && exec mount -t nfs -o "$2" "$3" "$4"' \
			sh "$ns" "$mopts" "10.34.$k.1:/" "$prefix$k" >"$T/mount.nfs" 2>&1 || {
			cat "$T/mount.nfs" >&2
			fail "mount -t nfs -o $mopts 10.34.$k.1:/ $prefix$k in $ns"
		}
	done
}

# nfs_mount VERS MOUNTPOINT [PATH]: mount the export of nfs_server_start
# with vers=VERS (v3 without locking: no statd runs; PATH, the exported
# directory, is needed for v3, v4 mounts "/").
nfs_mount()
{
	local vers=$1 mp=$2 path=${3:-/} opts
	opts=vers=$vers
	[[ $vers == 3 ]] && opts+=,nolock
	mkdir -p "$mp"
	mount -t nfs -o "$opts" "127.0.0.1:$path" "$mp" >"$T/mount.nfs" 2>&1 || {
		cat "$T/mount.nfs" >&2
		fail "mount -t nfs -o $opts 127.0.0.1:$path $mp"
	}
}

# smb_server_start DIR [SHARE_OPTION...]: this guest serves DIR over SMB as
# the share "share" to its loopback: smbd (no nmbd, no NetBIOS) with a
# private smb.conf, state, lock, cache and private directories and log
# under $SMB_DIR (the root is read-only), one user (root, password
# $SMB_PASS in a tdbsam of its own) and each SHARE_OPTION ("strict sync =
# yes") a line of the share's section.  The cifs module and the crypto it
# signs with come from the kernel package (modprobe -d $VM_KROOT: the
# guest's modprobe would look in the machine's own /lib/modules, so the
# kernel's request_module cannot load them).  SMB_CONF is the
# configuration smbd runs with.  Stopped at exit (smb_server_stop).
smb_server_start()
{
	local dir=$1 d o
	shift
	require_cmd "SMB server" smbd smbpasswd testparm mount.cifs ip
	[[ -n ${VM_KROOT:-} ]] || fail "no VM_KROOT: vm.sh gives the kernel's modules"
	if [[ ! -d /sys/module/cifs ]]; then
		modprobe -d "$VM_KROOT" -a ecb ctr cmac sha512_generic ghash_generic \
			gcm ccm nls_utf8 cifs >"$T/modprobe.out" 2>&1 || {
			cat "$T/modprobe.out" >&2
			fail "modprobe -d $VM_KROOT cifs and its crypto"
		}
	fi
	ip link set lo up || fail "ip link set lo up"
	SMB_DIR=$T/smb
	SMB_CONF=$SMB_DIR/smb.conf
	SMB_PASS=clyde-test
	mkdir -p "$SMB_DIR"/{state,lock,cache,private,pid,ncalrpc,log} ||
		fail "mkdir $SMB_DIR"
	{
		echo "[global]"
		for d in state lock cache pid; do
			echo "$d directory = $SMB_DIR/$d"
		done
		echo "private dir = $SMB_DIR/private"
		echo "ncalrpc dir = $SMB_DIR/ncalrpc"
		echo "log file = $SMB_DIR/log/%m.log"
		echo "passdb backend = tdbsam:$SMB_DIR/private/passdb.tdb"
		echo "interfaces = lo"
		echo "bind interfaces only = yes"
		echo "smb ports = 445"
		echo "disable netbios = yes"
		echo "load printers = no"
		echo "printcap name = /dev/null"
		echo "disable spoolss = yes"
		echo "server min protocol = SMB2_02"
		echo "[share]"
		echo "path = $dir"
		echo "read only = no"
		echo "valid users = root"
		for o in "$@"; do
			echo "$o"
		done
	} >"$SMB_CONF"
	at_exit smb_server_stop
	printf '%s\n%s\n' "$SMB_PASS" "$SMB_PASS" |
		smbpasswd -c "$SMB_CONF" -s -a root >"$T/smbpasswd.out" 2>&1 || {
		cat "$T/smbpasswd.out" >&2
		fail "smbpasswd -a root (tdbsam in $SMB_DIR)"
	}
	smbd -D -s "$SMB_CONF" >"$T/smbd.out" 2>&1 || {
		cat "$T/smbd.out" "$SMB_DIR"/log/* >&2
		fail "smbd -D -s $SMB_CONF"
	}
}

# smb_server_stop: every CIFS mount detached (umount -l), smbd stopped by
# its pid file (at exit).  Each step has 10 seconds.
smb_server_stop()
{
	local mp type mps=() pid
	while read -r _ mp type _; do
		[[ $type == cifs || $type == smb3 ]] && mps+=("$mp")
	done </proc/mounts
	for mp in "${mps[@]}"; do
		timeout -s KILL 10 umount -l "$mp" >/dev/null 2>&1
	done
	pid=$(cat "$SMB_DIR/pid/smbd.pid" 2>/dev/null) &&
		[[ -n $pid ]] && kill "$pid" 2>/dev/null
	return 0
}

# smb_mount MOUNTPOINT [OPTIONS]: mount smb_server_start's share over the
# loopback as root, with OPTIONS (default vers=3.1.1) after the
# credentials.  smbd may take a moment to listen: up to 10 tries.
smb_mount()
{
	local mp=$1 opts=${2:-vers=3.1.1} i
	mkdir -p "$mp"
	for i in 1 2 3 4 5 6 7 8 9 10; do
		mount -t cifs -o "username=root,password=$SMB_PASS,$opts" \
			//127.0.0.1/share "$mp" >"$T/mount.cifs" 2>&1 && return 0
		nap 1
	done
	cat "$T/mount.cifs" "$SMB_DIR"/log/* >&2
	fail "mount -t cifs -o $opts //127.0.0.1/share $mp (10 tries)"
}

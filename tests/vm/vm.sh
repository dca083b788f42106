#!/usr/bin/env bash
# Run one script inside a qemu guest booted from Debian's stock kernel, which
# has md, device-mapper and the filesystems as modules (the machine's own
# kernel may have neither).  The host's root is the guest's root, read-only
# over 9p, so the script runs with the machine's own tools and the clyde
# binary of the build directory.
#
#   tests/vm/vm.sh [OPTION...] SCRIPT [ARG...]   run SCRIPT (bash) in a guest
#   tests/vm/vm.sh [OPTION...] --shell           an interactive shell instead
#
# Options (defaults from the script's "# vm-disks: N", "# vm-disk-size: S",
# "# vm-timeout: SEC", "# vm-mem: MB" and "# vm-zfs: yes" header lines):
#   --disks N         N sparse virtio disks (/dev/vda, /dev/vdb, ...), 4
#   --disk-size S     their size (truncate -s syntax), 256M
#   --timeout SEC     the guest is killed after SEC seconds (the run fails,
#                     with the tail of the guest's console), 300
#   --mem MB          guest memory, 2048
#   --zfs             the guest gets ZFS: tests/vm/zfs.sh builds OpenZFS's
#                     modules for the guest's kernel (once, cached outside
#                     the clone; CLYDE_ZFS_CACHE) and the script finds them
#                     in $VM_ZFS (guest_lib.sh's zfs_setup loads them)
#   --keep DIR        copy the guest's output, console, dmesg and the files
#                     the script left in $VM_OUT into DIR
#
# Environment: CLYDE (the binary, default build/clyde), CLYDE_VM_CACHE (where
# the kernel package is downloaded and unpacked and the initramfs kept,
# default BUILD_DIR/vm-cache), CLYDE_VM_KERNEL_DEB (a linux-image .deb to use
# instead of downloading one), CLYDE_VM_ACCEL (tcg, the default, or kvm where
# it boots), CLYDE_VM_QEMU (the qemu binary, qemu-system-x86_64),
# CLYDE_VM_SMP (the guest's vCPUs, 1),
# CLYDE_VM_TRACE=1 (the script runs under bash -x with a time stamp on every
# command: where the guest's time goes).
#
# In the guest the script sees tmpfs on /tmp, /run, /var/tmp and /mnt (the
# rest of the tree is read-only), CLYDE and CLYDE_SRC set, VM_KROOT (the
# unpacked kernel package: `modprobe -d $VM_KROOT` loads a module that is
# not in the initramfs, as guest_lib.sh's nfs_server_start does), and VM_OUT, a
# directory whose files come back to the host (--keep).  SQLite does not work
# on the 9p share: keep databases on /tmp.
#
# Exit status: the script's; 77 (skip) when qemu or the kernel package (or
# for --zfs, a ZFS package) is not available; 1 when the guest did not finish (timeout, panic).
set -euo pipefail

# The whole script is one function, read before it runs: editing this file
# while a guest runs does not change what the running copy does next.
main()
{

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLYDE_SRC=${CLYDE_SRC:-$(cd "$VM_DIR/../.." && pwd)}
CLYDE=${CLYDE:-$CLYDE_SRC/build/clyde}
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

# The modules every guest gets (their dependencies are added): virtio disks
# and 9p, md's personalities, device-mapper's targets, the filesystems.
# crc32c_generic first: libcrc32c (raid456, xfs) does not load without it.
# zlib_deflate and zlib_inflate for ZFS (tests/vm/zfs.sh), whose modules
# are not the kernel package's and are loaded by the test.
VM_MODULES=(crc32c_generic virtio_pci virtio_blk 9pnet_virtio 9p
	md_mod raid0 raid1 raid10 raid456 dm_mod dm_flakey dm_delay
	xfs ext4 zlib_deflate zlib_inflate)

die()
{
	echo "vm: $*" >&2
	exit 1
}

skip()
{
	echo "SKIP: $*"
	exit 77
}

disks='' disk_size='' timeout='' mem='' keep='' shell=0 zfs=
while [[ $# -gt 0 ]]; do
	case $1 in
	--disks) disks=${2:?--disks needs a number}; shift 2 ;;
	--disk-size) disk_size=${2:?--disk-size needs a size}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--mem) mem=${2:?--mem needs megabytes}; shift 2 ;;
	--keep) keep=${2:?--keep needs a directory}; shift 2 ;;
	--zfs) zfs=yes; shift ;;
	--shell) shell=1; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
if [[ $shell -eq 0 ]]; then
	[[ $# -ge 1 ]] || die "no script given (or --shell); see --help"
	script=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	[[ -r $script ]] || die "cannot read the script $1"
	shift
	header()
	{
		sed -n "s/^# vm-$1: *\([^ ]*\).*/\1/p" "$script" | sed -n 1p
	}
	disks=${disks:-$(header disks)}
	disk_size=${disk_size:-$(header disk-size)}
	timeout=${timeout:-$(header timeout)}
	mem=${mem:-$(header mem)}
	zfs=${zfs:-$(header zfs)}
fi
disks=${disks:-4}
disk_size=${disk_size:-256M}
timeout=${timeout:-300}
mem=${mem:-2048}
[[ $disks =~ ^[0-9]+$ && $disks -le 20 ]] ||
	die "--disks $disks: want a number from 0 to 20"
[[ $timeout =~ ^[0-9]+$ && $timeout -gt 0 ]] ||
	die "--timeout $timeout: want seconds, more than 0"
[[ $mem =~ ^[0-9]+$ && $mem -ge 256 ]] ||
	die "--mem $mem: want megabytes, at least 256"

QEMU=${CLYDE_VM_QEMU:-qemu-system-x86_64}
command -v "$QEMU" >/dev/null 2>&1 ||
	skip "no $QEMU (scripts/deps.sh test installs qemu-system-x86)"
for c in cpio depmod modprobe gzip; do
	command -v $c >/dev/null 2>&1 ||
		skip "no $c (scripts/deps.sh test installs cpio and kmod)"
done
if [[ ! -x /bin/busybox ]] || ! /bin/busybox --list | grep -x cttyhack >/dev/null; then
	skip "no static busybox in /bin/busybox (scripts/deps.sh test installs busybox-static)"
fi
[[ -x $CLYDE ]] || die "no clyde binary at $CLYDE (build first, or set CLYDE)"
CLYDE=$(cd "$(dirname "$CLYDE")" && pwd)/$(basename "$CLYDE")

cache=${CLYDE_VM_CACHE:-$(dirname "$CLYDE")/vm-cache}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# The kernel: downloaded and unpacked once into $cache/kernel (never
# installed); two tests starting together wait on the lock.
exec 9>"$cache/lock"
flock 9
if ! compgen -G "$cache/kernel/boot/vmlinuz-*" >/dev/null; then
	deb=${CLYDE_VM_KERNEL_DEB:-}
	if [[ -z $deb ]]; then
		command -v apt-get >/dev/null 2>&1 ||
			skip "no apt-get to download Debian's kernel (set CLYDE_VM_KERNEL_DEB)"
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-image-[0-9].*\)/\1/p' | sed -n 1p)
		[[ -n $pkg ]] ||
			skip "apt-cache does not know linux-image-amd64 (apt-get update?)"
		rm -rf "$cache/deb"
		mkdir -p "$cache/deb"
		echo "vm: downloading $pkg into $cache/deb" >&2
		(cd "$cache/deb" && apt-get download "$pkg" >/dev/null 2>&1) ||
			skip "apt-get download $pkg failed (no network?)"
		deb=$(compgen -G "$cache/deb/$pkg*.deb" | sed -n 1p)
	fi
	[[ -r $deb ]] || skip "no kernel package at $deb"
	rm -rf "$cache/kernel.new"
	dpkg -x "$deb" "$cache/kernel.new" ||
		die "dpkg -x $deb into $cache/kernel.new failed"
	rm -rf "$cache/deb" "$cache/kernel"
	mv "$cache/kernel.new" "$cache/kernel"
fi
kroot=$cache/kernel
vmlinuz=$(compgen -G "$kroot/boot/vmlinuz-*" | sed -n 1p)
kver=${vmlinuz##*/vmlinuz-}
[[ -d $kroot/lib/modules/$kver ]] || die "no modules for $kver in $kroot"
[[ -e $kroot/lib/modules/$kver/modules.dep ]] ||
	depmod -b "$kroot" "$kver" || die "depmod -b $kroot $kver failed"

# The kernel uncompressed (an ELF vmlinux, booted through its PVH entry):
# under software emulation the bzImage's own xz decompressor takes 10-12 s
# of every boot; xz on the host takes one second, once.  Without xz, or
# when the image is not xz, the bzImage is booted as it is.
vmlinux=$kroot/vmlinux-$kver
if [[ ! -s $vmlinux ]] && command -v xz >/dev/null 2>&1; then
	off=$(LC_ALL=C grep -abo -m 1 -P '\xfd7zXZ\x00' "$vmlinuz" 2>/dev/null |
		LC_ALL=C cut -d: -f1 | sed -n 1p)
	if [[ -n $off ]]; then
		# xz stops at the end of its stream and complains of what follows.
		tail -c +"$((off + 1))" "$vmlinuz" | xz -dc >"$vmlinux.new" 2>/dev/null || true
		if [[ $(head -c 4 "$vmlinux.new" | od -An -tx1 | tr -d ' ') == 7f454c46 ]]; then
			mv "$vmlinux.new" "$vmlinux"
		fi
		rm -f "$vmlinux.new"
	fi
fi
boot_kernel=$vmlinuz
[[ -s $vmlinux ]] && boot_kernel=$vmlinux
# qboot starts in a fraction of a second where SeaBIOS takes seconds.
bios=()
[[ -r /usr/share/qemu/qboot.rom ]] && bios=(-bios /usr/share/qemu/qboot.rom)

# The initramfs: busybox, /init and the modules above with their
# dependencies, in load order; rebuilt when one of those changes.
# A module's signature (Debian signs them; the kernel does not insist,
# CONFIG_MODULE_SIG_FORCE is off) is cut off once here: checking it costs
# a SHA-256 over the module and an RSA verify at every boot under
# emulation.  The signature is the module's tail: the signature bytes, a
# 12-byte struct module_signature ending in their length (big-endian) and
# the 28-byte marker.
unsign()
{
	local ko=$1 size len
	size=$(stat -c %s "$ko")
	((size > 40)) || return 0
	[[ $(tail -c 28 "$ko") == "~Module signature appended~" ]] || return 0
	len=$(tail -c 32 "$ko" | head -c 4 | od -An -tu1 |
		awk '{print (($1 * 256 + $2) * 256 + $3) * 256 + $4}')
	((len > 0 && len + 40 < size)) || return 0
	truncate -s "$((size - 40 - len))" "$ko"
}

key=$(
	{
		echo "initrd v2: cpio, unsigned modules"
		cat "$VM_DIR/init"
		echo "$kver ${VM_MODULES[*]}"
		{ /bin/busybox 2>&1 || true; } | sed -n 1p
	} | sha256sum | cut -c1-16
)
initrd=$cache/initrd-$key.cpio
if [[ ! -e $initrd ]]; then
	stage=$(mktemp -d "$cache/stage.XXXXXX")
	mkdir -p "$stage/bin"
	cp /bin/busybox "$stage/bin/"
	for a in $(/bin/busybox --list); do
		[[ $a == busybox ]] || ln -s busybox "$stage/bin/$a"
	done
	cp "$VM_DIR/init" "$stage/init"
	chmod 755 "$stage/init"
	: >"$stage/modules.list"
	for m in "${VM_MODULES[@]}"; do
		modprobe -d "$kroot" -S "$kver" --show-depends "$m" ||
			die "module $m not in $kver"
	done | sed -n 's/^insmod \([^ ]*\).*/\1/p' | while read -r ko; do
		rel=${ko#"$kroot"}
		grep -qxF "$rel" "$stage/modules.list" && continue
		mkdir -p "$stage$(dirname "$rel")"
		cp "$ko" "$stage$rel"
		unsign "$stage$rel"
		echo "$rel" >>"$stage/modules.list"
	done
	cp "$kroot/lib/modules/$kver/modules.order" \
		"$kroot/lib/modules/$kver/modules.builtin" \
		"$kroot/lib/modules/$kver/modules.builtin.modinfo" \
		"$stage/lib/modules/$kver/" 2>/dev/null || true
	depmod -b "$stage" "$kver" || die "depmod -b $stage $kver failed"
	# Not compressed: the guest's kernel would unpack it under emulation.
	(cd "$stage" && find . | cpio -o -H newc --quiet) \
		>"$initrd.new" || die "cpio of $stage failed"
	mv "$initrd.new" "$initrd"
	rm -rf "$stage"
fi
flock -u 9
exec 9>&-

# ZFS: built (or found built) for this kernel before the guest boots.
zfs_dir=''
if [[ $zfs == yes ]]; then
	zrc=0
	zout=$(bash "$VM_DIR/zfs.sh" "$kver") || zrc=$?
	[[ $zrc -eq 77 ]] && skip "${zout#SKIP: }"
	[[ $zrc -eq 0 ]] || die "tests/vm/zfs.sh $kver failed (exit $zrc)"
	zfs_dir=$(printf '%s\n' "$zout" | tail -n 1)
	[[ -e $zfs_dir/ok ]] || die "tests/vm/zfs.sh $kver left no build in '$zfs_dir'"
fi

# The run: a private directory with the results share and the disks.
W=$(mktemp -d "${TMPDIR:-/tmp}/clyde-vm.XXXXXX")
qpid=''
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup()
{
	[[ -n $qpid ]] && kill -KILL "$qpid" 2>/dev/null
	rm -rf -- "$W"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$W/share/files"
drives=()
for ((i = 0; i < disks; i++)); do
	truncate -s "$disk_size" "$W/disk$i.img"
	drives+=(-drive "file=$W/disk$i.img,format=raw,if=virtio,cache=none")
done
q()
{
	printf '%q ' "$@"
}
{
	echo "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "HOME=/tmp TMPDIR=/tmp LANG=C.UTF-8 TERM=${TERM:-dumb}"
	echo "CLYDE=$(q "$CLYDE") CLYDE_SRC=$(q "$CLYDE_SRC") VM_OUT=/run/vm/files"
	echo "VM_ZFS=$(q "$zfs_dir") VM_KROOT=$(q "$kroot")"
	echo "export PATH HOME TMPDIR LANG TERM CLYDE CLYDE_SRC VM_OUT VM_ZFS VM_KROOT"
	# No udev in the guest: libdevmapper makes the /dev nodes itself; LVM
	# gets a writable copy of /etc/lvm (it writes backups and archives).
	echo "DM_DISABLE_UDEV=1 LVM_SYSTEM_DIR=/run/lvm/etc"
	echo "export DM_DISABLE_UDEV LVM_SYSTEM_DIR"
	echo "mkdir -p /run/lvm/etc && cp -r /etc/lvm/. /run/lvm/etc/ 2>/dev/null"
	echo "cd $(q "$PWD") 2>/dev/null || cd /"
	if [[ $shell -eq 1 ]]; then
		echo "exec /bin/bash -i"
	else
		if [[ -n ${CLYDE_VM_TRACE:-} ]]; then
			# Every command with the guest's time stamp (where time goes).
			# (bash takes no PS4 from the environment when run as root.)
			# shellcheck disable=SC2016 # expanded by the guest's bash
			echo "exec /bin/bash -c 'PS4=\"+ \\\${EPOCHREALTIME} \"; set -x; . \"\$0\"' $(q "$script" "$@")"
		else
			echo "exec /bin/bash $(q "$script" "$@")"
		fi
	fi
} >"$W/share/run.sh"
[[ $shell -eq 1 ]] && : >"$W/share/shell"
# The guest puts tmpfs on /tmp, /run, /var/tmp and /mnt; a source tree or
# binary there (a clone under /tmp, as .ci/run makes) is bound back into
# the guest's view by /init.
for kp in "$CLYDE_SRC" "$(dirname "$CLYDE")" "$(dirname "$script")"; do
	case $kp in
	/tmp/* | /run/* | /var/tmp/* | /mnt/*) echo "$kp" ;;
	esac
done | sort -u >"$W/share/keep"

accel=${CLYDE_VM_ACCEL:-tcg}
case $accel in
tcg) accel_opts=(-accel "tcg,thread=multi" -cpu max) ;;
kvm) accel_opts=(-accel kvm -cpu "${CLYDE_VM_CPU:-host}") ;;
*) die "CLYDE_VM_ACCEL=$accel: want tcg or kvm" ;;
esac
# One vCPU: under TCG a second one costs more than it gives (cross-vCPU TLB
# flushes and exclusive sections), and it takes the host core the suite's
# other tests run on.  t_md_counters, 2026-12-02 on the 2-core project VM,
# three runs each: with a busy loop on one host core (as beside ctest's
# other slot) 20.7-24.2 s with -smp 1 against 37.5-45.3 s with -smp 2;
# calm, 28.8-37.4 s against 24.9-37.6 s; the whole ctest -j2, 476 s
# against 563 s.  CLYDE_VM_SMP sets another count.
# no_timer_check: under TCG on a loaded host the kernel's check that the
# IO-APIC timer ticks can time out and panic the guest at boot ("IO-APIC +
# timer doesn't work!", vm/t_zfs_pools with a load of 20, 2026-12-05);
# the check proves nothing about an emulated timer.
smp=${CLYDE_VM_SMP:-1}
[[ $smp =~ ^[1-8]$ ]] || die "CLYDE_VM_SMP=$smp: want a number from 1 to 8"
qemu=("$QEMU" "${accel_opts[@]}" -m "$mem" -smp "$smp"
	"${bios[@]}" -no-reboot -kernel "$boot_kernel" -initrd "$initrd"
	-append "console=ttyS0 quiet panic=-1 acpi=noirq no_timer_check ${CLYDE_VM_APPEND:-}"
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$W/share,mount_tag=results,security_model=none,multidevs=remap"
	"${drives[@]}")

if [[ $shell -eq 1 ]]; then
	"${qemu[@]}" -nographic
	exit 0
fi

start=$SECONDS
qrc=0
timeout -k 5 "$timeout" "${qemu[@]}" -display none -monitor none \
	-serial "file:$W/console" </dev/null >"$W/qemu.out" 2>&1 &
qpid=$!
wait "$qpid" || qrc=$?
qpid=''

if [[ -n $keep ]]; then
	mkdir -p "$keep"
	cp -r "$W/share/files/." "$keep/" 2>/dev/null || true
	for f in out dmesg; do
		[[ -e $W/share/$f ]] && cp "$W/share/$f" "$keep/guest.$f"
	done
	cp "$W/console" "$keep/guest.console" 2>/dev/null || true
fi
if [[ ! -s $W/share/rc ]]; then
	if [[ $qrc -eq 124 || $qrc -eq 137 ]]; then
		echo "vm: the guest did not finish within ${timeout}s: killed" >&2
	else
		echo "vm: the guest stopped without an exit status (qemu exit $qrc)" >&2
		cat "$W/qemu.out" >&2
	fi
	echo "--- guest console (last 40 lines):" >&2
	tail -n 40 "$W/console" >&2 2>/dev/null || true
	echo "--- script output (last 40 lines):" >&2
	tail -n 40 "$W/share/out" >&2 2>/dev/null || true
	exit 1
fi
cat "$W/share/out"
# Where the boot's time went (/init's uptimes), for the log.
grep -a '^vm-init: running the script' "$W/console" 2>/dev/null | sed 's/^/# /' || true
rc=$(cat "$W/share/rc")
echo "vm: guest script exit $rc after $((SECONDS - start))s"
exit "$rc"
}
main "$@"
# shellcheck disable=SC2317 # main exits; this guards against a file grown meanwhile
exit

#!/usr/bin/env bash
# Check that the commands clyde's build (or its test suite) needs are present,
# and install the Debian packages that provide the missing ones.
#
#   scripts/deps.sh build   cmake, make, a C compiler, SQLite's headers
#                           (libsqlite3-dev, for clyde history), libinih
#                           (libinih-dev, for clyde sweep), libblkid-dev
#                           (clyde stack, clyde dev's guards),
#                           xfslibs-dev (for clyde stack), liburing
#                           (liburing-dev, for --engine io_uring) and OpenMPI
#                           (libopenmpi-dev, openmpi-bin, for clyde-mpi)
#   scripts/deps.sh test    also every command a test runs: clang,
#                           clang-format, shellcheck, git, python3, bonnie++
#                           (bon_csv2txt, bon_csv2html, zcav), e2fsprogs
#                           (mkfs.ext4, mke2fs, dumpe2fs), xfsprogs
#                           (mkfs.xfs, xfs_info), btrfs-progs (mkfs.btrfs,
#                           btrfs), util-linux (findmnt, lsblk, blkid,
#                           partx, setpriv, runuser, unshare, ipcs), mount
#                           (mount, umount, losetup), fdisk (sfdisk:
#                           t_dev_guard's partition table), sqlite3 (the
#                           sweep tests read the history), bsdutils
#                           (script), groff/man, strace, fio (t_fio), valgrind
#                           (t_perchar_cost counts instructions), chromium
#                           (the HTML report's test renders the page), zstd
#                           and xz (t_pattern compresses clyde's data); for
#                           the real-kernel tests (tests/vm/): qemu-system-x86
#                           (without its recommends), cpio, kmod,
#                           busybox-static, mdadm, lvm2, for NFS
#                           nfs-kernel-server, nfs-common and rpcbind,
#                           for SMB samba and samba-common-bin (smbd,
#                           smbpasswd, testparm: the guest's server) and cifs-utils
#                           (mount.cifs: the guest's client)
#
# The list is checked against the tests: tests/e2e/t_deps.sh fails when a
# command a test needs is not in it.
#
# As root it runs apt-get; otherwise it prints the apt-get line to run and
# exits 1.  Exit 0 means everything is there.
set -euo pipefail

mode=${1:-build}
case $mode in
build | test) ;;
*)
	echo "usage: $0 build|test" >&2
	exit 2
	;;
esac

# command:package pairs (Debian 12 package names).
want=(cmake:cmake make:make gcc:gcc mpicc:libopenmpi-dev mpirun:openmpi-bin)
if [[ $mode == test ]]; then
	want+=(
		clang:clang
		clang-format:clang-format
		shellcheck:shellcheck
		git:git
		ctest:cmake
		python3:python3
		bonnie++:bonnie++
		bon_csv2txt:bonnie++
		bon_csv2html:bonnie++
		zcav:bonnie++
		mkfs.ext4:e2fsprogs
		mke2fs:e2fsprogs
		dumpe2fs:e2fsprogs
		mkfs.xfs:xfsprogs
		xfs_info:xfsprogs
		xfs_io:xfsprogs
		mkfs.btrfs:btrfs-progs
		btrfs:btrfs-progs
		findmnt:util-linux
		script:bsdutils
		chromium:chromium
		losetup:mount
		mount:mount
		umount:mount
		ipcs:util-linux
		lsblk:util-linux
		blkid:util-linux
		partx:util-linux
		setpriv:util-linux
		runuser:util-linux
		unshare:util-linux
		sfdisk:fdisk
		sqlite3:sqlite3
		groff:groff-base
		man:man-db
		strace:strace
		/usr/bin/time:time
		fio:fio
		valgrind:valgrind
		callgrind_annotate:valgrind
		dd:coreutils
		zstd:zstd
		xz:xz-utils
		split:coreutils
		sha256sum:coreutils
		mkfifo:coreutils
		touch:coreutils
		find:findutils
		timeout:coreutils
		cpio:cpio
		depmod:kmod
		mdadm:mdadm
		lvcreate:lvm2
		exportfs:nfs-kernel-server
		rpc.nfsd:nfs-kernel-server
		nfsstat:nfs-common
		mount.nfs:nfs-common
		rpcbind:rpcbind
		smbd:samba
		testparm:samba-common-bin
		smbpasswd:samba-common-bin
		mount.cifs:cifs-utils
	)
fi

# Tools in sbin are not on a normal user's PATH; look there too.
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

missing=()
for pair in "${want[@]}"; do
	cmd=${pair%%:*}
	pkg=${pair#*:}
	if ! command -v "$cmd" >/dev/null 2>&1; then
		case " ${missing[*]-} " in
		*" $pkg "*) ;;
		*) missing+=("$pkg") ;;
		esac
	fi
done

# SQLite (clyde history) is a library, not a command: look for its header.
if [[ ! -e /usr/include/sqlite3.h ]]; then
	missing+=(libsqlite3-dev)
fi
# libinih (clyde sweep reads experiment files with it): its header too.
if [[ ! -e /usr/include/ini.h ]]; then
	missing+=(libinih-dev)
fi
# libblkid (clyde stack names an ext4 external journal's device; clyde dev
# checks devices for signatures before writing) and the
# xfs headers (clyde stack reads xfs stripe geometry): headers too.
if [[ ! -e /usr/include/blkid/blkid.h ]]; then
	missing+=(libblkid-dev)
fi
if [[ ! -e /usr/include/xfs/xfs.h ]]; then
	missing+=(xfslibs-dev)
fi
# liburing (the io_uring engine, --engine io_uring): its header too.
if [[ ! -e /usr/include/liburing.h ]]; then
	missing+=(liburing-dev)
fi

# The real-kernel tests: a static busybox for the guest's initramfs, and
# qemu, whose recommends (a GUI, firmware for other machines) they do not
# need: installed on its own with --no-install-recommends.
norec=()
if [[ $mode == test ]]; then
	if [[ ! -x /bin/busybox ]] || ! /bin/busybox --list 2>/dev/null | grep -x cttyhack >/dev/null; then
		missing+=(busybox-static)
	fi
	command -v qemu-system-x86_64 >/dev/null 2>&1 || norec+=(qemu-system-x86)
fi

if [[ ${#missing[@]} -eq 0 && ${#norec[@]} -eq 0 ]]; then
	exit 0
fi

echo "deps.sh: missing packages: ${missing[*]} ${norec[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
	echo "deps.sh: run as root:" >&2
	if [[ ${#missing[@]} -gt 0 ]]; then
		echo "  apt-get update && DEBIAN_FRONTEND=noninteractive" \
			"apt-get install -y ${missing[*]}" >&2
	fi
	if [[ ${#norec[@]} -gt 0 ]]; then
		echo "  apt-get install -y --no-install-recommends ${norec[*]}" >&2
	fi
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: no apt-get here; install ${missing[*]} ${norec[*]} by hand" >&2
	exit 1
fi
apt-get update
if [[ ${#missing[@]} -gt 0 ]]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y \
		"${missing[@]}"
fi
if [[ ${#norec[@]} -gt 0 ]]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends "${norec[@]}"
fi

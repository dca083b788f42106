#!/usr/bin/env bash
# ZFS for the guest of tests/vm/vm.sh: OpenZFS's kernel modules built from
# Debian's zfs-dkms source for the guest's kernel, and the matching
# zfsutils-linux userland with its libraries, all unpacked with dpkg -x
# (nothing installed, the machine's apt configuration untouched: a private
# sources list with the archive's contrib component, private lists).
#
#   tests/vm/zfs.sh KVER
#
# KVER is the guest kernel's version (6.1.0-57-amd64; vm.sh's initramfs
# has the kernel's zlib_deflate and zlib_inflate that ZFS needs).  Prints
# the directory that holds the result on its last line:
#
#   DIR/modules/*.ko   the nine ZFS modules
#   DIR/modules/order  their load order
#   DIR/root           the userland (sbin/zpool, sbin/zfs, lib/...), and
#                      sbin/zinject out of zfs-test (zinject -a flushes
#                      the ARC)
#   DIR/build-seconds  what the build took (configure and make)
#
# DIR is $CLYDE_ZFS_CACHE/zfs-KVER-ZFSVERSION (CLYDE_ZFS_CACHE defaults to
# /var/cache/clyde-vm, or ~/.cache/clyde-vm where that is not writable):
# outside the clone, so that a new build directory or clone does not build
# again, and not under /tmp, /run, /var/tmp or /mnt, which the guest covers
# with its own tmpfs.  Two runs starting together build once (a lock); a
# second run finds the result and builds nothing.  CLYDE_ZFS_SUITE picks
# the suite (bookworm, the default; bookworm-backports has 2.3, with
# Direct I/O); CLYDE_ZFS_MIRROR the archive (http://deb.debian.org/debian).
#
# Exit status: 0; 77 (skip) when a package cannot be had (no network, no
# apt-get); 1 when the build fails (its log is in DIR.new/build.log).
set -euo pipefail

# The whole script is one function, read before it runs (as vm.sh).
main()
{

die()
{
	echo "zfs: $*" >&2
	exit 1
}

skip()
{
	echo "SKIP: $*"
	exit 77
}

kver=${1:?usage: tests/vm/zfs.sh KVER}
kbase=${kver%-*}
[[ $kbase =~ ^([0-9]+\.[0-9]+)\. ]] || die "cannot read the kernel version $kver"
kmajor=${BASH_REMATCH[1]}

if [[ -n ${CLYDE_ZFS_CACHE:-} ]]; then
	base=$CLYDE_ZFS_CACHE
elif [[ -w /var/cache ]]; then
	base=/var/cache/clyde-vm
else
	base=${XDG_CACHE_HOME:-$HOME/.cache}/clyde-vm
fi
mkdir -p "$base" || die "cannot make $base (CLYDE_ZFS_CACHE)"
base=$(cd "$base" && pwd -P)
case $base/ in
/tmp/* | /run/* | /var/tmp/* | /mnt/*)
	die "CLYDE_ZFS_CACHE=$base: the guest has its own tmpfs on /tmp, /run, /var/tmp and /mnt; want a directory elsewhere"
	;;
esac
command -v apt-get >/dev/null 2>&1 || skip "no apt-get to download zfs-dkms"
command -v dpkg >/dev/null 2>&1 || skip "no dpkg to unpack zfs-dkms"

suite=${CLYDE_ZFS_SUITE:-bookworm}
mirror=${CLYDE_ZFS_MIRROR:-http://deb.debian.org/debian}

exec 8>"$base/lock"
flock 8

# The private apt state: a deb822 source with contrib (for ZFS) and main
# (for the kernel headers), its own lists and cache; refreshed when older
# than a week or when a package is not found.
apt_dir=$base/apt-$suite
apt_opts=(-o "Dir::Etc::sourcelist=/dev/null"
	-o "Dir::Etc::sourceparts=$apt_dir/sources.list.d"
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "Dir::State::status=/var/lib/dpkg/status"
	-o "Dir::Cache=$apt_dir/cache")
apt_update()
{
	mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" \
		"$apt_dir/cache/archives/partial"
	local suites=$suite
	[[ $suite == *-backports ]] && suites="${suite%-backports} $suite"
	cat >"$apt_dir/sources.list.d/clyde-zfs.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suites ${suite%-backports}-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: ${suite%-backports}-security
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	echo "zfs: apt-get update into $apt_dir/lists" >&2
	apt-get "${apt_opts[@]}" update >"$apt_dir/update.log" 2>&1 ||
		skip "apt-get update of the private lists failed (no network?); see $apt_dir/update.log"
	touch "$apt_dir/updated"
}
# candidate PKG: the version apt would take from the private lists.
candidate()
{
	apt-cache "${apt_opts[@]}" policy "$1" 2>/dev/null |
		sed -n '/^ *Candidate: (none)/d; s/^ *Candidate: //p' | sed -n 1p
}
if [[ ! -e $apt_dir/updated ]] || [[ -n $(find "$apt_dir/updated" -mtime +7 2>/dev/null) ]]; then
	apt_update
fi
zver=$(candidate zfs-dkms)
if [[ -z $zver ]]; then
	apt_update
	zver=$(candidate zfs-dkms)
fi
[[ -n $zver ]] || skip "no zfs-dkms in $mirror $suite contrib"
# The module source is /usr/src/zfs-UPSTREAM (2.1.11 of 2.1.11-1+deb12u1).
zup=${zver#*:}
zup=${zup%%-*}

dir=$base/zfs-$kver-$zup
if [[ -e $dir/ok ]]; then
	echo "zfs: $dir (built before, in $(cat "$dir/build-seconds" 2>/dev/null || echo '?') s)" >&2
	echo "$dir"
	exit 0
fi

# The packages: the ZFS ones at the candidate version, the libraries
# zfsutils-linux depends on (libzfs4linux, libzpool5linux, ... in 2.1;
# their names change with the soname), the kernel's headers.
libs=$(apt-cache "${apt_opts[@]}" show "zfsutils-linux=$zver" 2>/dev/null |
	sed -n '1,/^$/s/^Depends: //p' | tr ',' '\n' |
	sed -n 's/^ *\(lib[a-z0-9]*linux\)\( .*\)\{0,1\}$/\1/p' | sort -u)
[[ -n $libs ]] || libs="libzfs4linux libzpool5linux libnvpair3linux libuutil3linux"
pkgs=("zfs-dkms=$zver" "zfsutils-linux=$zver")
for l in $libs; do
	pkgs+=("$l=$zver")
done
pkgs+=("zfs-test=$zver")
pkgs+=("linux-headers-$kver" "linux-headers-$kbase-common" "linux-kbuild-$kmajor")

rm -rf "$dir.new"
mkdir -p "$dir.new/debs" "$dir.new/src" "$dir.new/root" "$dir.new/modules"
echo "zfs: downloading ${pkgs[*]}" >&2
(cd "$dir.new/debs" && apt-get "${apt_opts[@]}" download "${pkgs[@]}") \
	>"$dir.new/download.log" 2>&1 ||
	skip "apt-get download ${pkgs[*]} failed; see $dir.new/download.log"

for d in "$dir.new"/debs/*.deb; do
	case ${d##*/} in
	zfs-dkms_* | linux-headers-* | linux-kbuild-*) dpkg -x "$d" "$dir.new/src" ;;
	# Of the test suite (27 MB), only zinject.
	zfs-test_*) dpkg --fsys-tarfile "$d" | tar -x -C "$dir.new/root" ./sbin/zinject ;;
	*) dpkg -x "$d" "$dir.new/root" ;;
	esac || die "dpkg -x $d failed"
done
zsrc=$dir.new/src/usr/src/zfs-$zup
common=$dir.new/src/usr/src/linux-headers-$kbase-common
obj=$dir.new/src/usr/src/linux-headers-$kver
[[ -d $zsrc ]] || die "no $zsrc in zfs-dkms"
[[ -d $common && -d $obj ]] || die "no kernel headers for $kver under $dir.new/src"
# The -amd64 headers' Makefile includes the -common one by its absolute
# path (/usr/src/linux-headers-...-common/Makefile): point it at the copy.
sed -i "s|/usr/src/linux-headers-$kbase-common|$common|g" "$obj/Makefile"

echo "zfs: building OpenZFS $zup for $kver in $dir.new (build.log; about 12 minutes on 2 cores)" >&2
start=$SECONDS
(
	cd "$zsrc"
	./configure --with-config=kernel --with-linux="$common" \
		--with-linux-obj="$obj" &&
		make -j"$(nproc)"
) >"$dir.new/build.log" 2>&1 || die "building OpenZFS $zup for $kver failed; see $dir.new/build.log"
echo "$((SECONDS - start))" >"$dir.new/build-seconds"

# The modules, without their debug information (insmod reads them over
# 9p under emulation), in load order.
order=(spl zavl znvpair zunicode zcommon icp zzstd zlua zfs)
: >"$dir.new/modules/order"
for m in "${order[@]}"; do
	ko=$(find "$zsrc/module" -name "$m.ko" | sed -n 1p)
	[[ -n $ko ]] || die "the build made no $m.ko (see $dir.new/build.log)"
	strip --strip-debug -o "$dir.new/modules/$m.ko" "$ko"
	echo "$m" >>"$dir.new/modules/order"
done
echo "$zver" >"$dir.new/version"
# The sources and packages are not needed again.
rm -rf "$dir.new/src" "$dir.new/debs"
touch "$dir.new/ok"
rm -rf "$dir"
mv "$dir.new" "$dir"
echo "zfs: built $dir in $(cat "$dir/build-seconds") s" >&2
echo "$dir"
}
main "$@"
# shellcheck disable=SC2317 # main exits; this guards against a file grown meanwhile
exit

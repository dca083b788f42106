#!/usr/bin/env bash
# ZFS on a real kernel: a pool of each vdev kind (stripe, mirror, raidz1,
# raidz2, raidz3, draid, and one with log, cache and special vdevs), each
# with a dataset of its own properties and a file written and read back;
# for each, what ZFS says of it is kept in $VM_OUT/KIND/ (vm.sh --keep):
# zpool status -P -p, zpool list -v -H -P -p, zpool get -H -p all, zfs get
# -H -p all of the dataset (and of a zvol), zdb -l of each leaf, the ARC's
# arcstats, the pool's kstats under /proc/spl/kstat/zfs/POOL and
# /proc/self/mountinfo.  tests/fixtures/zfs/ are such outputs (the unit
# tests of src/env/zfs.c read them).  Then src/env/zfs.c's reading of the
# dataset's path (tests/tools/zfs_show) is held against those outputs:
# the vdev tree, layout, leaves' devices, ashifts, the dataset's
# properties and the ARC's maximum.  And `clyde stack --json` (the
# filesystem probe src/env/fs_zfs.c) on the dataset: its pool, layout,
# smallest data ashift, properties and ARC maximum against the same
# outputs, and the stack's devices below against zpool status's leaves.
# And `clyde stack --json /dev/zdN` on the mirror's zvol (the zvol node
# kind, src/env/probe_zvol.c): the volume, its properties, its children.
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
# What src/env/zfs.c reads (a test tool built beside clyde).
ZFS_SHOW=$(dirname "$CLYDE")/zfs_show
[[ -x $ZFS_SHOW ]] || fail "no $ZFS_SHOW (build it: cmake --build build)"

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

# show_vs_zfs KIND LAYOUT: src/env/zfs.c's reading of /mnt/zt/fs (through
# the build's zfs_show) agrees with ZFS's own outputs in $VM_OUT/KIND: the
# vdev tree (depth, class, name, state) with zpool status's, the data's
# layout with what the test created, each leaf's device with its path,
# each top-level vdev's ashift with its leaf's label (zdb -l), the
# dataset's properties with zfs get's values, the ARC's c_max with
# arcstats.
show_vs_zfs()
{
	local kind=$1 layout=$2 o=$VM_OUT/$1 p want got bad="" depth cls name ashift dev leaf
	"$ZFS_SHOW" /mnt/zt/fs >"$o/zfs_show" 2>&1 ||
		{ cat "$o/zfs_show" >&2; fail "$kind: zfs_show /mnt/zt/fs"; }
	awk -v pool=zt '
		/^\tNAME/ { in_tree = 1; next }
		in_tree && !/^\t/ { exit }
		in_tree && NF {
			sub(/^\t/, "")
			lvl = int((match($0, /[^ ]/) - 1) / 2)
			$0 = $0
			if (lvl == 0) {
				cls = $1 == pool ? "normal" : $1 == "logs" ? "log" : $1 == "spares" ? "spare" : $1
				next
			}
			print lvl - 1, cls, $1, ($2 == "" ? "-" : $2)
		}' "$o/status" >"$T/tree.want"
	awk '$1 == "vdev" { print $2, $3, $5, $6 }' "$o/zfs_show" >"$T/tree.got"
	diff "$T/tree.want" "$T/tree.got" >"$T/tree.diff" || {
		cat "$o/status" "$o/zfs_show" "$T/tree.diff" >&2
		fail "$kind: the vdev tree differs from zpool status's"
	}
	got=$(awk '$1 == "pool" { print $3 }' "$o/zfs_show")
	[[ $got == "$layout" ]] || bad+=" layout $got, want $layout;"
	got=$(awk '$1 == "dataset" { print $2, $3, $4 }' "$o/zfs_show")
	[[ $got == "zt/fs zt /mnt/zt/fs" ]] || bad+=" dataset '$got';"
	# Leaves: the device is the path's last component; top-level vdevs:
	# the ashift of their first leaf's label.
	while read -r _ depth cls _ name _ _ ashift dev; do
		if [[ $name == /dev/* && $dev != "${name##*/}" ]]; then
			bad+=" $name's device $dev;"
		fi
		[[ $depth == 0 && $cls != cache && $cls != spare ]] || continue
		leaf=$name
		[[ $name == /dev/* ]] ||
			leaf=$(awk -v n="$name" '$1 == "vdev" && f && $5 ~ /^\/dev\// { print $5; exit } $5 == n { f = 1 }' "$o/zfs_show")
		want=$(awk '$1 == "ashift:" { print $2; exit }' "$o/zdb-l.${leaf##*/}")
		[[ $ashift == "$want" ]] || bad+=" $name ashift $ashift, zdb -l says $want;"
	done < <(grep '^vdev ' "$o/zfs_show")
	for p in type recordsize compression checksum sync atime primarycache logbias compressratio; do
		want=$(awk -v p=$p '$2 == p { print $3 }' "$o/get")
		got=$(awk -v p=$p '$1 == "prop" && $2 == p { print $3 }' "$o/zfs_show")
		[[ $p == compressratio ]] && want=${want%x}
		[[ $got == "$want" ]] || bad+=" $p $got, zfs get says $want;"
	done
	want=$(awk '$1 == "c_max" { print $3 }' "$o/arcstats")
	got=$(awk '$1 == "arc" { print $4 }' "$o/zfs_show")
	[[ $got == "$want" ]] || bad+=" ARC c_max $got, arcstats says $want;"
	[[ -z $bad ]] || { cat "$o/zfs_show" >&2; fail "$kind: zfs.c disagrees with ZFS:$bad"; }
	ok "$kind: zfs.c's pool ($layout), $(grep -c '^vdev ' "$o/zfs_show") vdevs, ashifts, leaves' devices and 9 dataset properties agree with zpool status, zdb -l and zfs get"
}

# stack_vs_zfs KIND LAYOUT: `clyde stack --json /mnt/zt/fs` agrees with
# ZFS's outputs in $VM_OUT/KIND: the pool and layout, the smallest ashift
# of the data's top-level vdevs (zdb -l), the dataset's properties (zfs
# get), the ARC's c_max, and the stack's top devices with the leaves of
# zpool status (but its spares: they hold no data); the text shows the
# pool line.
stack_vs_zfs()
{
	local kind=$1 layout=$2 o=$VM_OUT/$1 p want got bad="" v i f
	local props=(recordsize compression checksum sync atime primarycache logbias compressratio)
	"$CLYDE" stack --json /mnt/zt/fs >"$o/stack.json" 2>"$T/err" ||
		{ cat "$T/err" >&2; fail "$kind: clyde stack --json /mnt/zt/fs"; }
	local ex=("j['stack']['filesystem']['zfs_pool']" "j['stack']['filesystem']['zfs_layout']"
		"j['stack']['filesystem']['zfs_ashift']" "j['stack']['filesystem']['zfs_arc_max']"
		"' '.join(sorted(j['stack']['top']))")
	for p in "${props[@]}"; do ex+=("j['stack']['filesystem']['zfs_$p']"); done
	mapfile -t v < <(jq_py "$o/stack.json" "${ex[@]}")
	[[ ${v[0]} == zt ]] || bad+=" pool ${v[0]};"
	[[ ${v[1]} == "$layout" ]] || bad+=" layout ${v[1]}, want $layout;"
	want=$(for f in "$o"/zdb-l.*; do awk '$1 == "ashift:" { print $2; exit }' "$f"; done | sort -n | head -1)
	[[ ${v[2]} == "$want" ]] || bad+=" ashift ${v[2]}, zdb -l's smallest $want;"
	want=$(awk '$1 == "c_max" { print $3 }' "$o/arcstats")
	[[ ${v[3]} == "$want" ]] || bad+=" ARC max ${v[3]}, arcstats $want;"
	want=$(awk '/^\tspares/ { sp = 1 } /^\t[a-z]/ && !/^\tspares/ { sp = 0 }
		!sp && $1 ~ /^\/dev\// { sub(/.*\//, "", $1); print $1 }' "$o/status" | sort | tr '\n' ' ')
	[[ "${v[4]} " == "$want" ]] || bad+=" devices below '${v[4]}', zpool status's leaves '$want';"
	i=5
	for p in "${props[@]}"; do
		want=$(awk -v p="$p" '$2 == p { print $3 }' "$o/get")
		[[ $p == compressratio ]] && want=$(printf '%.2f' "${want%x}")
		[[ ${v[i]} == "$want" ]] || bad+=" $p ${v[i]}, zfs get says $want;"
		i=$((i + 1))
	done
	[[ -z $bad ]] || { cat "$o/stack.json" >&2; fail "$kind: clyde stack disagrees with ZFS:$bad"; }
	"$CLYDE" stack /mnt/zt/fs >"$T/text" 2>&1 || fail "$kind: clyde stack /mnt/zt/fs"
	grep -q "^  pool zt ($layout): " "$T/text" ||
		{ cat "$T/text" >&2; fail "$kind: no pool line in clyde stack's text"; }
	ok "$kind: clyde stack --json's pool, layout, ashift, ${#props[@]} dataset properties, ARC max and ${v[4]// /, } below agree with zpool status, zdb -l and zfs get"
}

# zvol_vs_zfs KIND LAYOUT: `clyde stack --json /dev/zdN` on the zvol zt/vol
# (the zvol node kind, src/env/probe_zvol.c, naming it by BLKZNAME) says
# kind zvol, the volume, its pool and layout and its properties as zfs get
# gives them (get-vol), and its children and the stack's leaves are the
# pool's leaves as zpool status lists them; the text shows the volume.
zvol_vs_zfs()
{
	local kind=$1 layout=$2 o=$VM_OUT/$1 zd="" d p want bad="" v i
	local props=(volblocksize compression checksum sync primarycache logbias compressratio)
	for i in $(seq 1 40); do
		for d in /sys/block/zd*; do [[ -e $d ]] && zd=${d##*/}; done
		[[ -n $zd ]] && break
		nap 0.25
	done
	[[ -n $zd ]] || fail "$kind: no /sys/block/zd* after zfs create -V"
	# No udev in the guest: devtmpfs makes the node, else make it.
	[[ -b /dev/$zd ]] || mknod "/dev/$zd" b "$(cut -d: -f1 "/sys/block/$zd/dev")" \
		"$(cut -d: -f2 "/sys/block/$zd/dev")" || fail "$kind: mknod /dev/$zd"
	"$CLYDE" stack --json "/dev/$zd" >"$o/stack-zvol.json" 2>"$T/err" ||
		{ cat "$T/err" >&2; fail "$kind: clyde stack --json /dev/$zd"; }
	d="[x for x in j['stack']['devices'] if x['name'] == '$zd'][0]"
	local ex=("${d}['kind']" "${d}['zfs_volume']" "${d}['zfs_pool']" "${d}['zfs_layout']"
		"' '.join(sorted(${d}['children']))" "' '.join(sorted(j['stack']['leaves']))")
	for p in "${props[@]}"; do ex+=("${d}['zfs_$p']"); done
	mapfile -t v < <(jq_py "$o/stack-zvol.json" "${ex[@]}")
	[[ ${v[0]} == zvol ]] || bad+=" kind ${v[0]};"
	[[ ${v[1]} == zt/vol ]] || bad+=" volume ${v[1]};"
	[[ ${v[2]} == zt ]] || bad+=" pool ${v[2]};"
	[[ ${v[3]} == "$layout" ]] || bad+=" layout ${v[3]}, want $layout;"
	want=$(awk '$1 ~ /^\/dev\// { sub(/.*\//, "", $1); print $1 }' "$o/status" | sort | tr '\n' ' ')
	[[ "${v[4]} " == "$want" ]] || bad+=" children '${v[4]}', zpool status's leaves '$want';"
	[[ "${v[5]} " == "$want" ]] || bad+=" leaves '${v[5]}', zpool status's '$want';"
	i=6
	for p in "${props[@]}"; do
		want=$(awk -v p="$p" '$2 == p { print $3 }' "$o/get-vol")
		[[ $p == compressratio ]] && want=$(printf '%.2f' "${want%x}")
		[[ ${v[i]} == "$want" ]] || bad+=" $p ${v[i]}, zfs get says $want;"
		i=$((i + 1))
	done
	[[ ${v[6]} == 16384 ]] || bad+=" volblocksize ${v[6]}, created with 16384;"
	[[ -z $bad ]] || { cat "$o/stack-zvol.json" >&2; fail "$kind: clyde stack /dev/$zd disagrees with ZFS:$bad"; }
	"$CLYDE" stack "/dev/$zd" >"$T/text" 2>&1 || fail "$kind: clyde stack /dev/$zd"
	grep -q "zvol zt/vol, pool zt ($layout): " "$T/text" ||
		{ cat "$T/text" >&2; fail "$kind: no zvol line in clyde stack /dev/$zd's text"; }
	ok "$kind: clyde stack --json /dev/$zd: zvol zt/vol, pool zt ($layout), ${#props[@]} volume properties, children ${v[4]// /, } agree with zfs get and zpool status"
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
	case $kind in
	special) show_vs_zfs "$kind" stripe && stack_vs_zfs "$kind" stripe ;;
	draid) show_vs_zfs "$kind" draid1 && stack_vs_zfs "$kind" draid1 ;;
	*) show_vs_zfs "$kind" "$kind" && stack_vs_zfs "$kind" "$kind" ;;
	esac
	[[ $kind != mirror ]] || zvol_vs_zfs "$kind" mirror
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

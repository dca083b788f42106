#!/usr/bin/env bash
# Post E on a real kernel, at small sizes (issue 31):
# examples/posts/zfs-raidz.ini as it is, a pool on one disk (vda) against
# raidz1 over nine (vdb..vdj): bunzip2 alone, the extraction of a bzip2
# tarball, reading the tree back after an export and import (each disk
# counted), clyde run and three at once (with --no-evict: an export and
# import before every read-side test takes 7-35 s here; t_zfs_arc
# checks those; and 1024 seeks, not 8192: bonnie's 8192 on the one-disk
# pool, 600 a second, were 12 s of its clyde run and 41 s of the three,
# 2026-12-07 at load 7).  Every point runs and is stored;
# the per-disk counters say what the layouts are: on raidz1 the read-back
# reads from all nine disks and not from vda, on the single pool from vda
# alone (one partition each, zfs_setup; vm/t_zfs_arc checks what clyde run's reads take from the disks).
#
# vm-disks: 10
# vm-disk-size: 160M
# vm-timeout: 900
# vm-zfs: yes
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 10
require_cmd "the post's tools" bzip2 tar python3
zfs_setup
export XDG_DATA_HOME=$T/xdg
CLYDE_TIMEOUT=840
LUN=${ZFS_PARTS[0]}
LUNS=${ZFS_PARTS[*]:1:9}

# The post's "software" tarball: about 2 MiB of real files, bzip2'ed,
# a whole archive (files of /usr/share/doc while they add up to 2 MiB;
# under emulation bzip2 -9 takes about 3.5 s a MiB, and each point unpacks
# it twice: 8 MiB made the test's preparation alone 42 s at load 10).
{ find /usr/share/doc -type f -size -256k -printf '%s %P\n' 2>/dev/null || true; } |
	awk '{ sum += $1; if (sum > 2 * 1048576) exit; sub(/^[0-9]+ /, ""); print }' \
	>"$T/software.list"
tar cf "$T/software.tar" -C /usr/share/doc --verbatim-files-from -T "$T/software.list" ||
	fail "tar of /usr/share/doc"
bzip2 -9 "$T/software.tar" || fail "bzip2 of the tarball"

t0=$EPOCHREALTIME
run_clyde sweep -q --define repeats=1 --define size=8m:8k:1024 --define size3=4m:8k:1024 \
	--define files=0 --define "ropts=-f --no-evict" --define "lun=$LUN" --define "luns=$LUNS" \
	--define "tarball=$T/software.tar.bz2" --define mnt=/mnt/zpost \
	"$CLYDE_SRC/examples/posts/zfs-raidz.ini"
cat "$T/out" "$T/err" >"$T/sweep.txt"
evidence sweep-zfs-raidz.txt "$T/sweep.txt"
expect_rc 0 "zfs-raidz.ini: every point ran"
echo "# the sweep: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"
assert_eq "$(zpool list -H -o name 2>/dev/null | wc -l)" 0 "no pool left by the teardowns"

id=$("$CLYDE" sweep --list 2>/dev/null | awk '$1 ~ /zfs-raidz$/ { print $1 }')
[[ -n $id ]] || fail "no stored zfs-raidz experiment"
# m1 is vda1 (lun), m2..m10 the nine of the raidz (device ='s order).
m=time.read-back
metrics=$m
for i in 1 2 3 4 5 6 7 8 9 10; do metrics+=,$m.m$i.read_bytes; done
run_clyde report --experiment "$id" --format csv --metrics "$metrics" -o -
expect_rc 0 "the experiment's table as CSV"
evidence read-back-per-disk.csv "$T/out"
python3 - "$T/out" >"$T/check" <<'EOF' || fail "cannot read the table: $(cat "$T/check")"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    b = [float(r["time.read-back.m%d.read_bytes.mean" % i] or 0) for i in range(1, 11)]
    print(r["layout"], r["status"], b[0] > 0, sum(1 for x in b[1:] if x > 0))
EOF
cat "$T/check"
assert_eq "$(grep '^single ' "$T/check")" "single ok True 0" \
	"single: the read-back read vda1 and none of the nine"
assert_eq "$(grep '^raidz1 ' "$T/check")" "raidz1 ok False 9" \
	"raidz1: the read-back read all nine disks and not vda1"
done_testing

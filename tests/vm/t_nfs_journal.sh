#!/usr/bin/env bash
# Post C's question on a real kernel, at small sizes (issue 34):
# examples/posts/nfs-journal-clients.ini, the exported ext4's journal
# inside the volume (vda) or on another disk (vdb) and its data= mode,
# under 1 and 4 NFS v3 clients (each its own mount from its own loopback
# address) writing 4 MiB each with fsync.  The example's axes are cut to
# internal/external x ordered/journal x 1/4 clients (8 points) and its
# file-creating workload left out (the file itself unchanged otherwise).
# Every point runs and is stored; the server's disks show what the
# journal modes mean: with data=journal on an external journal the
# journal's disk (vdb) takes every byte the clients wrote (the data goes
# through the journal), with data=ordered well under it, and with the
# journal inside vda, vdb takes nothing.  vda takes every byte the clients
# wrote within the timed write, except maybe with data=journal on the
# external journal: there the fsync returns once the data is in the
# journal, and vda gets it at the checkpoint, inside the timed window or
# after it (measured: 0 and 7 of 16 MiB at load 10, all of it on a quiet
# machine), so that point's vda is not held to it.
# Then the file-creating workload alone at two points (the journal inside
# vda and on vdb, data=ordered, 4 clients), each client's clyde run of
# 1024 files with --settle 0 --stonewall 1 (each file test ends after 1
# s): every client's run finishes, and vdb takes the creates' metadata
# when the journal is there and nothing when it is inside vda.
#
# vm-disks: 2
# vm-disk-size: 128M
# vm-timeout: 480
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 2
require_cmd "NFS" mount.nfs mkfs.ext4 mke2fs python3
export XDG_DATA_HOME=$T/xdg
CLYDE_TIMEOUT=380
VD=${VDS[0]} JD=${VDS[1]}

mkdir -p /mnt/export
# The server: nfsd and mountd with nothing exported yet (the example
# exports at every point and removes the export after it).
nfs_server_start /mnt/export
exportfs -u 127.0.0.1:/mnt/export >/dev/null 2>&1

# The example's axes cut to 8 points, and its file-creating workload left
# out: 1024 files per client over a sync export take minutes a point under
# qemu's emulation (docs/nfs.md).
sed -e 's/^axis data = .*/axis data = ordered journal/' \
	-e 's/^axis clients = .*/axis clients = 1 4/' \
	-e '/^\[workload create\]/,$d' \
	"$CLYDE_SRC/examples/posts/nfs-journal-clients.ini" >"$T/journal.ini"
grep -q '^axis journal = internal external$' "$T/journal.ini" ||
	fail "the example's journal axis is not internal external"
grep -q '^\[workload write\]' "$T/journal.ini" || fail "the example has no write workload"
t0=$EPOCHREALTIME
run_clyde sweep -q --define repeats=1 --define mib=4 --define vers=3 \
	--define "dev=$VD" --define "jdev=$JD" --define export=/mnt/export \
	--define cmnt=/mnt/jc --metrics all "$T/journal.ini"
cat "$T/out" "$T/err" >"$T/sweep.txt"
evidence sweep-nfs-journal-clients.txt "$T/sweep.txt"
expect_rc 0 "nfs-journal-clients.ini: every point ran"
echo "# the sweep: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"
assert_eq "$(grep -c ' nfs ' /proc/mounts)" 0 "no client mount left by the teardowns"

# The server's disks at each point: what the write put on vda (m1) and on
# vdb (m2, the external journal's disk).
id=$("$CLYDE" sweep --list 2>/dev/null | awk '$1 ~ /nfs-journal-clients$/ { print $1 }')
[[ -n $id ]] || fail "no stored nfs-journal-clients experiment"
run_clyde report --experiment "$id" --format csv -o - \
	--metrics time.write,time.write.m1.write_bytes,time.write.m2.write_bytes
expect_rc 0 "the experiment's table as CSV"
evidence journal-disks.csv "$T/out"
python3 - "$T/out" >"$T/check" <<'EOF' || fail "cannot read the table: $(cat "$T/check")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
mib = 1 << 20
for r in rows:
    n = int(r["clients"])
    wrote = n * 4 * mib
    vda = float(r["time.write.m1.write_bytes.mean"])
    vdb = float(r["time.write.m2.write_bytes.mean"])
    if r["journal"] == "internal":
        v = "vdb-idle" if vdb < mib else "vdb-wrote"
    elif r["data"] == "journal":
        v = "vdb-took-all" if vdb >= wrote else "vdb-short"
    else:
        v = "vdb-metadata" if vdb < wrote / 2 else "vdb-data"
    d = "vda-took-all" if vda >= wrote else "vda-short"
    print(r["journal"], r["data"], n, r["status"], v, d)
EOF
cat "$T/check"
assert_eq "$(wc -l <"$T/check")" 8 "the table has the 8 points"
assert_eq "$(grep -vc ' ok ' "$T/check")" 0 "every point's status is ok"
assert_eq "$(grep -c '^internal .* vdb-idle ' "$T/check")" 4 \
	"journal inside vda: the other disk takes nothing"
assert_eq "$(grep -c '^external journal .* vdb-took-all ' "$T/check")" 2 \
	"data=journal on the external journal: its disk takes every byte the clients wrote"
assert_eq "$(grep -c '^external ordered .* vdb-metadata ' "$T/check")" 2 \
	"data=ordered on the external journal: its disk takes metadata, well under the data"
assert_eq "$(grep -vc '^external journal ' "$T/check" | tr -d ' ')" 6 "six points besides data=journal on the external journal"
assert_eq "$(grep -v '^external journal ' "$T/check" | grep -c ' vda-took-all$')" 6 \
	"the exported filesystem's disk takes every byte the clients wrote (but with data=journal on the external journal, where it gets them at the checkpoint, inside the timed write or after it)"

# The file-creating workload, as the example has it (4 clients, each a
# clyde run of 1024 empty files, clyde run's fewest, in one directory),
# at two points: the journal inside vda and on vdb, data=ordered.  Each
# file test of each client ends after 1 s (--stonewall 1) and waits for
# no idle disk (--settle 0): 1024 files per client over a sync export take
# minutes a point under emulation (the two points did not finish in 450 s).
sed -e 's/^axis data = .*/axis data = ordered/' \
	-e 's/^axis clients = .*/axis clients = 4/' \
	-e '/^\[workload write\]/,/^\[workload create\]/{/^\[workload create\]/!d}' \
	"$CLYDE_SRC/examples/posts/nfs-journal-clients.ini" >"$T/create.ini"
grep -q '^\[workload create\]' "$T/create.ini" || fail "the example has no create workload"
t0=$EPOCHREALTIME
run_clyde sweep -q --define repeats=1 --define vers=3 --define files=1:0:0:1 \
	--define "create_opts=--settle 0 --stonewall 1" \
	--define "dev=$VD" --define "jdev=$JD" --define export=/mnt/export \
	--define cmnt=/mnt/jc --metrics all "$T/create.ini"
cat "$T/out" "$T/err" >"$T/sweep.txt"
evidence sweep-nfs-journal-create.txt "$T/sweep.txt"
expect_rc 0 "the create workload: every client's clyde run finished at both points"
echo "# the create sweep: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"
assert_eq "$(grep -c ' nfs ' /proc/mounts)" 0 "no client mount left by the create sweep's teardowns"
id=$(sed -n 's/^experiment \([^:]*\): .*/\1/p' "$T/out")
[[ -n $id ]] || fail "the create sweep's table names no experiment"
run_clyde report --experiment "$id" --format csv -o - \
	--metrics time.create,time.create.m1.write_bytes,time.create.m2.write_bytes
expect_rc 0 "the create experiment's table as CSV"
evidence journal-create.csv "$T/out"
python3 -S - "$T/out" >"$T/check" <<'EOF' || fail "cannot read the table: $(cat "$T/check")"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    vdb = float(r["time.create.m2.write_bytes.mean"])
    print(r["journal"], r["status"], "time" if float(r["time.create.mean"]) > 0 else "no-time",
          "vdb-idle" if vdb == 0 else "vdb-wrote")
EOF
cat "$T/check"
assert_eq "$(tr '\n' ' ' <"$T/check")" "internal ok time vdb-idle external ok time vdb-wrote " \
	"creating files: the journal's disk (vdb) takes the creates' metadata when the journal is there, nothing when it is inside vda"
done_testing

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
# vm-timeout: 420
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

# clyde run on the v4.2 mount (sync export): each test's traffic from
# mountstats; before the block read the client's cache is evicted and the
# server's (this machine's) page cache of the file dropped, so the read
# comes from the export's disk: vda reads at least 95% of its bytes.  The
# time series (--log-interval 50) has the traffic per interval too.
t0=$EPOCHREALTIME
"$CLYDE" run -d /mnt/c42 --no-save -r 0 -s 4m:64k:20:1 -n 0 -f --settle 0 \
	--log-interval 50 --json "$T/run.json" >"$T/out" 2>"$T/err" || {
	cat "$T/out" "$T/err" >&2
	fail "clyde run on /mnt/c42"
}
cat "$T/out" "$T/err" >"$T/run.txt"
evidence run-nfs42.txt "$T/run.txt"
mapfile -t got < <(jq_py "$T/run.json" \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["rpcs"] > 0' \
	'[o["name"] for o in [t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["ops"]][:1]' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["bytes_sent"] >= 4 << 20' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["disk_write_amplification"] >= 0.95' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["nfs"]["server_cache"]["state"]' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["nfs"]["server_cache"]["residency"] < 0.05' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["cache"]["residency"] < 0.05' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["nfs"]["disk_read_fraction"]' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["nfs"]["close_to_open"]')
assert_eq "${got[0]}|${got[1]}|${got[2]}|${got[3]}" "true|['WRITE']|true|true" \
	"block write on v4.2: RPCs counted, WRITE the busiest, 4 MiB sent, on vda at least once"
assert_eq "${got[4]}|${got[5]}|${got[6]}|${got[8]}" "dropped|true|true|cto" \
	"block read on v4.2: the server's cache of the file dropped (below 5% left), the client's too"
python3 -S -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.95 else 1)" "${got[7]}" ||
	fail "block read after write: the server's disk read ${got[7]} of its bytes, want >= 0.95"
ok "block read after write: the server's disk read ${got[7]} of its bytes (>= 0.95)"
assert_file_match "$T/run.txt" '^clyde:     server cache dropped, 0% cached' \
	"the text says the server's cache was dropped before the block read"
# The block write's intervals: the traffic of those with a reading (an
# interval the sampler took none in is null and passes its traffic on to
# the next) adds up to the test's own (its nfs object, from the test's
# begin to its end) within 3%.
mapfile -t got < <(jq_py "$T/run.json" \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["series"]["intervals"]' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["bytes_sent"]')
python3 -S -c '
import ast, sys
iv = ast.literal_eval(sys.argv[1])
test = int(sys.argv[2])
sent = [i["wire_sent_bytes"] for i in iv]
recv = [i["wire_recv_bytes"] for i in iv]
known = [s for s in sent if s is not None]
print("# block write: %d intervals of 50 ms, wire_sent_bytes %s (sum %d), the test sent %d"
      % (len(iv), sent, sum(known), test))
ok = (len(known) > 0 and sum(known) > 0 and
      [s is None for s in sent] == [r is None for r in recv] and
      abs(sum(known) - test) <= 0.03 * test)
sys.exit(0 if ok else 1)' "${got[0]}" "${got[1]}" ||
	fail "block write: the intervals' wire_sent_bytes do not add up to the test's bytes_sent within 3%"
ok "block write: the intervals' wire_sent_bytes add up to the test's bytes_sent within 3%"
echo "# clyde run with the server's cache dropped: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"

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

# O_DIRECT without eviction on the async export: the client caches
# nothing, the server keeps the file in its page cache, and the block read
# is served from there: flagged, and vda reads almost nothing; the block
# write names the async export that inflates it.
t0=$EPOCHREALTIME
"$CLYDE" run -d /mnt/c42 --no-save -r 0 -s 4m:64k:20:1 -n 0 -f --settle 0 -D \
	--no-evict --json "$T/hot.json" >"$T/out" 2>"$T/err" || {
	cat "$T/out" "$T/err" >&2
	fail "clyde run -D --no-evict on /mnt/c42"
}
cat "$T/out" "$T/err" >"$T/hot.txt"
evidence run-nfs42-server-cache.txt "$T/hot.txt"
mapfile -t got < <(jq_py "$T/hot.json" \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["nfs"]["server_cache"]["state"]' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["nfs"]["server_cache"]["warning"]' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "get_block"][0]["nfs"]["disk_read_fraction"] < 0.5' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["inflated_by"]')
assert_eq "${got[0]}|${got[1]}|${got[2]}" "measured|true|true" \
	"a block read served from the server's cache is flagged (and vda read under half of it)"
assert_eq "${got[3]}" "['async export']" "the block write names the async export"
assert_file_match "$T/hot.txt" \
	"^clyde: warning: block read: [0-9]+% of its data was in the NFS server's page cache" \
	"the text warns that the block read came from the server's cache"
assert_file_match "$T/hot.txt" '^clyde:     inflated by: async export' \
	"the text names the async export beside the block write"
echo "# clyde run from the server's cache: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"

# Four clients the server tells apart (nfs_clients: a network namespace,
# a veth address and a UTS name each), one clyde-mpi rank on each
# (-d /mnt/nc%r): nfsd lists four v4 clients at four addresses, the
# client has four superblocks, and the result keeps the server's side
# (its disk and nfsd's requests from every client).
t0=$EPOCHREALTIME
exportfs -o rw,no_root_squash,sync,no_subtree_check,fsid=0 127.0.0.1:/mnt/export \
	>/dev/null 2>&1 || fail "exportfs sync again"
nfs_clients 4 4.2 /mnt/nc
# mpirun refuses the guest's host name "(none)".
hostname clyde-guest || fail "hostname clyde-guest"
addrs=$(cat /proc/fs/nfsd/clients/*/info 2>/dev/null |
	sed -n 's/^address: "\(10\.34\.[0-9]*\.2\):[0-9]*"$/\1/p' | sort -u | tr '\n' ' ')
names=$(cat /proc/fs/nfsd/clients/*/info 2>/dev/null | grep -c '^name: ".*clyde-c[0-3]"')
assert_eq "$addrs|$names" "10.34.0.2 10.34.1.2 10.34.2.2 10.34.3.2 |4" \
	"4 clients are 4 clients in the server's /proc/fs/nfsd/clients (4 addresses, 4 names)"
assert_eq "$(grep -c '^device 10\.34\.[0-3]\.1:/ mounted on /mnt/nc[0-3] with fstype nfs4' /proc/self/mountstats)" 4 \
	"each client's mount is its own in mountstats (own superblock and transport)"
timeout -k 10 240 mpirun --allow-run-as-root --oversubscribe -np 4 \
	"$(dirname "$CLYDE")/clyde-mpi" run -d /mnt/nc%r --no-save -r 0 -s 4m:64k:20:1 -n 0 -f \
	--settle 0 --json "$T/mpi.json" >"$T/out" 2>"$T/err" || {
	cat "$T/out" "$T/err" >&2
	fail "clyde-mpi with one rank per NFS client"
}
cat "$T/out" "$T/err" >"$T/mpi.txt"
evidence run-nfs-4-clients.txt "$T/mpi.txt"
mapfile -t got < <(jq_py "$T/mpi.json" \
	'j["mpi"]["ranks"]' \
	'sorted(set(t["bytes"] for r in j["mpi"]["per_rank"] for t in r["tests"] if t["name"] == "put_block"))' \
	'sum(m["write_bytes"] for t in j["runs"][0]["tests"] if t["name"] == "put_block" for m in t["members"]) > 2 * (4 << 20)' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["server"]["packets"] >= 4 * 4')
assert_eq "${got[0]}|${got[1]}" "4|[4194304]" "clyde-mpi: 4 ranks, one per client, 4 MiB each"
assert_eq "${got[2]}|${got[3]}" "true|true" \
	"the result keeps the server's side: its disk wrote more than one client's 4 MiB, nfsd counted every client's requests"
echo "# 4 clients and clyde-mpi: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"

cp /proc/self/mountstats "$VM_OUT/mountstats"
cp /proc/self/mountinfo "$VM_OUT/mountinfo"
cp /var/lib/nfs/etab "$VM_OUT/etab"
cp /proc/fs/nfsd/max_block_size "$VM_OUT/max_block_size"
done_testing

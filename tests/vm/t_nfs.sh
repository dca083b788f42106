#!/usr/bin/env bash
# NFS on a real kernel (issue 34): this guest serves an ext4 on /dev/vda
# over its loopback and mounts it with vers=3 and vers=4.2.  `clyde stack
# --json` on each mount says what nfsstat -m, /proc/mounts and the
# server's exportfs -v say (version, rsize, wsize, sync or async), and
# that the server is this machine with the export's ext4 on vda under it;
# an async export is named by --advise.  `clyde run` counts the wire,
# the server's disks and nfsd (requests, CPU); `clyde tree -w 2` walks a
# tree on the mount; clyde-mpi runs 4 clients.  The kernel's mountstats,
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

# check_json FILE < PROGRAM: a Python check over the JSON in FILE that
# prints "ok WHAT" or "FAIL WHAT" per check, and "# ..." lines with the
# figures each check used, which go to the log whatever the verdict, so
# that a failing check in CI shows why.
check_json()
{
	local rc=0 verdict what
	python3 -S - "$@" >"$T/check" 2>"$T/check.err" || rc=$?
	while read -r verdict what; do
		case $verdict in
		'#') echo "# $what" ;;
		ok) ok "$what" ;;
		*) fail "$what" ;;
		esac
	done <"$T/check"
	if [[ $rc -ne 0 ]]; then
		tail -n 20 "$T/check.err" >&2
		fail "the Python check exited with status $rc"
	fi
	grep -q '^ok ' "$T/check" || fail "the Python check printed no verdict"
}

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
# The server's side of the block write: the CPU time nfsd's threads used
# (their utime + stime in /proc/PID/stat at the test's start and end).
cpu=$(jq_py "$T/run.json" \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["nfs"]["server"]["nfsd_cpu_ms"]')
echo "# block write: nfsd's threads used $cpu ms of CPU"
[[ $cpu =~ ^[0-9]+$ && $cpu -gt 0 ]] ||
	fail "block write: the server's nfsd CPU time is $cpu, want a number of ms > 0"
ok "block write: the server's nfsd CPU time is there and > 0 ($cpu ms)"
assert_file_match "$T/run.txt" \
	'^clyde:     nfsd: [0-9]+ requests from all clients, threads woken [0-9]+ times \([0-9]+ threads\), CPU [0-9]+ ms$' \
	"the text gives nfsd's CPU time beside its requests"
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
check_json "$T/hot.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def say(c, what, evidence):
    print("# " + what + ": " + evidence)
    print(("ok " if c else "FAIL ") + what + ("" if c else " (" + evidence + ")"))
tests = {t["name"]: t for t in d["runs"][0]["tests"]}
sc = tests["get_block"]["nfs"]["server_cache"]
frac = tests["get_block"]["nfs"]["disk_read_fraction"]
say(sc["state"] == "measured" and sc["warning"] is True and frac is not None and frac < 0.5,
    "a block read served from the server's cache is flagged (and vda read under half of it)",
    "server_cache %s, disk_read_fraction %s" % (sc, frac))
inf = tests["put_block"]["nfs"]["inflated_by"]
say(inf == ["async export"], "the block write names the async export", "inflated_by %s" % inf)
PY
assert_file_match "$T/hot.txt" \
	"^clyde: warning: block read: [0-9]+% of its data was in the NFS server's page cache" \
	"the text warns that the block read came from the server's cache"
assert_file_match "$T/hot.txt" '^clyde:     inflated by: async export' \
	"the text names the async export beside the block write"
echo "# clyde run from the server's cache: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"

# The posts' find and tar over NFS: clyde tree with 2 workers on the
# mount extracts 200 files of 4 KiB (tar x), walks them with stat (find)
# and reading (tar c), alone and with the workers, and deletes them; every
# phase sees the 200 files.  (Tree phases carry no wire figures: the NFS
# target's counters are kept for `clyde run` tests only.)
t0=$EPOCHREALTIME
"$CLYDE" tree -d /mnt/c42 --files 200 --size fixed:4k -w 2 --settle 0 \
	--phases extract,stat_walk,read_walk,par_stat_walk,par_read_walk,delete \
	--no-save --json "$T/tree.json" >"$T/out" 2>"$T/err" || {
	cat "$T/out" "$T/err" >&2
	fail "clyde tree -w 2 on /mnt/c42"
}
cat "$T/out" "$T/err" >"$T/tree.txt"
evidence tree-nfs42.txt "$T/tree.txt"
check_json "$T/tree.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def say(c, what, evidence):
    print("# " + what + ": " + evidence)
    print(("ok " if c else "FAIL ") + what + ("" if c else " (" + evidence + ")"))
ph = {p["name"]: p for p in d["runs"][0]["phases"]}
want = ["extract", "stat_walk", "read_walk", "par_stat_walk", "par_read_walk", "delete"]
files = {n: ph[n]["files"] if n in ph else None for n in want}
say(files == {n: 200 for n in want} and d["tree"]["files"] == 200,
    "clyde tree on NFS: every phase saw the 200 files", "files per phase %s" % files)
rd = {n: ph[n]["bytes"] for n in ("read_walk", "par_read_walk")}
say(rd == {n: 200 * 4096 for n in rd}, "clyde tree on NFS: the read walks read every byte",
    "bytes %s" % rd)
w = {n: [x["files"] for x in ph[n]["workers"]] for n in ("par_stat_walk", "par_read_walk")}
say(all(len(v) == 2 and sum(v) == 200 for v in w.values()),
    "clyde tree on NFS: 2 workers shared the parallel walks", "files per worker %s" % w)
print("# phases' seconds: %s" % {n: round(ph[n]["elapsed_ns"] / 1e9, 3) for n in want})
PY
[[ -z $(find /mnt/c42 -maxdepth 1 -name 'clyde.*' -print -quit) ]] ||
	fail "clyde tree left its scratch directory in /mnt/c42"
echo "# clyde tree -w 2 on NFS: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"

# Four clients the server tells apart (nfs_clients: a network namespace,
# a veth address and a UTS name each), one clyde-mpi rank on each
# (-d /mnt/nc%r): nfsd lists four v4 clients at four addresses, the
# client has four superblocks, and the result keeps the server's side
# (its disk and nfsd's requests from every client, read by rank 0 once
# every rank has ended the test) and sums the four mounts' traffic (each
# rank's own in mpi.per_rank).  --read-shift 1: rank r's block read reads
# the file rank r+1 wrote, through its own mount; with --no-evict a read
# of its own file would come from its own client's cache, the other's
# must come over the wire: READ bytes of the whole file on every client.
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
# Ranks 1-3 have each pwrite delayed 20 ms (strace's fault injection), so
# that rank 0 ends its block write first and the server's side must be
# read after the others' ends to hold their data (mpirun's MPMD form:
# rank 0, then ranks 1-3).
mpi_args=(--read-shift 1 run -d /mnt/nc%r --no-save -r 0 -s 4m:64k:20:1 -n 0 -f
	--settle 0 --no-evict --json "$T/mpi.json")
require_cmd "the slowed ranks" strace
timeout -k 10 240 mpirun --allow-run-as-root --oversubscribe \
	-np 1 "$(dirname "$CLYDE")/clyde-mpi" "${mpi_args[@]}" : \
	-np 3 strace -f --seccomp-bpf -o /dev/null -e trace=pwrite64 \
	-e inject=pwrite64:delay_enter=20000 "$(dirname "$CLYDE")/clyde-mpi" "${mpi_args[@]}" \
	>"$T/out" 2>"$T/err" || {
	cat "$T/out" "$T/err" >&2
	fail "clyde-mpi with one rank per NFS client"
}
cat "$T/out" "$T/err" >"$T/mpi.txt"
evidence run-nfs-4-clients.txt "$T/mpi.txt"
cp "$T/mpi.json" "$VM_OUT/run-nfs-4-clients.json"
assert_file_match "$T/mpi.txt" '--read-shift 1: the per-char read, block read and seeks of rank r read the files rank \(r \+ 1\) mod 4 wrote' \
	"the text says whose files each rank read"
check_json "$T/mpi.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
m = d["mpi"]
MiB = 1 << 20
def say(c, what, evidence):
    print("# " + what + ": " + evidence)
    print(("ok " if c else "FAIL ") + what + ("" if c else " (" + evidence + ")"))
tests = {t["name"]: t for t in d["runs"][0]["tests"]}
share = {(r["rank"], t["name"]): t for r in m["per_rank"] for t in r["tests"]}
pb = tests["put_block"]
sizes = sorted(set(share[(r, "put_block")]["bytes"] for r in range(m["ranks"])))
say(m["ranks"] == 4 and sizes == [4 * MiB], "clyde-mpi: 4 ranks, one per client, 4 MiB each",
    "ranks %d, block write bytes per rank %s" % (m["ranks"], sizes))
disk = sum(x["write_bytes"] for x in pb["members"])
say(disk > 2 * 4 * MiB and pb["nfs"]["server"]["packets"] >= 4 * 4,
    "the result keeps the server's side: its disk wrote more than one client's 4 MiB, nfsd counted every client's requests",
    "block write: the server's disks wrote %d bytes (%s), nfsd %d requests"
    % (disk, [(x["device"], x["write_bytes"]) for x in pb["members"]], pb["nfs"]["server"]["packets"]))
ends = [share[(r, "put_block")]["end_ns"] for r in range(4)]
say(ends[0] < min(ends[1:]), "rank 0 ended its block write first (ranks 1-3 slowed)",
    "the ranks' ends on rank 0's clock %s" % ends)
# Each rank's fsync (in its timed block write) returned once its data
# was on the server's disk: read after every rank ended, the disk holds
# all four clients' 4 MiB.  (Read at rank 0's own end, as before, it
# missed the ranks that ended later: a CI run under load.)
say(disk >= 0.95 * 4 * 4 * MiB,
    "the server's disk wrote every client's 4 MiB in the block write (read once every rank ended it)",
    "the server's disks wrote %d bytes, 4 x 4 MiB is %d" % (disk, 4 * 4 * MiB))
per = [share[(r, "put_block")]["nfs"]["bytes_sent"] for r in range(4)]
say(pb["nfs"]["bytes_sent"] == sum(per) and 4 * 4 * MiB <= sum(per) <= 4 * 4 * MiB * 1.05,
    "block write: the aggregate's bytes_sent is the sum of the 4 mounts' (about 4 x 4 MiB)",
    "aggregate %d, per rank %s, sum %d" % (pb["nfs"]["bytes_sent"], per, sum(per)))
rpcs = [share[(r, "put_block")]["nfs"]["rpcs"] for r in range(4)]
say(pb["nfs"]["rpcs"] == sum(rpcs), "block write: the aggregate's RPCs are the sum of the mounts'",
    "aggregate %d, per rank %s" % (pb["nfs"]["rpcs"], rpcs))
dirs = [(r["rank"], r["read_rank"], r["read_dir"]) for r in m["per_rank"]]
say(m["read_shift"]["n"] == 1 and
    all(s == (r + 1) % 4 and re.fullmatch("/mnt/nc%d/clyde\\.[0-9]+" % r, p) for r, s, p in dirs),
    "--read-shift 1: rank r read rank r+1's files through its own mount /mnt/nc<r>",
    "per rank (rank, read_rank, read_dir): %s" % dirs)
gb = tests["get_block"]
got = [share[(r, "get_block")]["nfs"]["server_read_bytes"] for r in range(4)]
say(all(g >= 4 * MiB for g in got) and gb["cache"]["residency"] < 0.05,
    "--read-shift 1 --no-evict: every client's block read came over the wire (the file it read was never in its cache)",
    "server_read_bytes per rank %s, the clients' cache residency at the start %s"
    % (got, gb["cache"]["residency"]))
PY
echo "# 4 clients and clyde-mpi: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"

cp /proc/self/mountstats "$VM_OUT/mountstats"
cp /proc/self/mountinfo "$VM_OUT/mountinfo"
cp /var/lib/nfs/etab "$VM_OUT/etab"
cp /proc/fs/nfsd/max_block_size "$VM_OUT/max_block_size"
done_testing

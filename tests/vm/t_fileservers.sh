#!/usr/bin/env bash
# File servers on a real kernel (issue 34), one guest for SMB and for the
# posts' NFS and SMB experiments at small sizes.
#
# SMB: this guest serves a directory of an ext4 on /dev/vda with smbd over
# its loopback (guest_lib.sh's smb_server_start) and mounts it with
# vers=3.1.1.  `clyde stack --json` says what /proc/mounts says of the
# mount (dialect, rsize, wsize, cache, actimeo) and what `testparm -s` says
# of the share (its path), that smbd is this machine and vda is under the
# share; --advise names a share with strict sync = no.  A clyde run's block
# tests count the share's requests and bytes (/proc/fs/cifs/Stats): the
# block write sends its file, the block read after the eviction (the
# client's and the server's cache) reads it back, at least 95% of it from
# the server's disk.  The kernel's DebugData and Stats are kept (vm.sh
# --keep) for the unit fixtures (tests/fixtures/cifs/).
#
# The posts' experiments (examples/posts/), each run by clyde sweep as the
# file is, with one repeat and the sizes cut (clyde run -s 8m, no file
# tests, 200 seeks; the timed write 8 MiB) on the same directory, served
# by nfsd too:
# - nfs-sync-async.ini: the server's disk takes the timed write's 8 MiB
#   within it from the sync export, and under half of it from the async
#   one (the server acknowledged the COMMIT with the data in its page
#   cache); the async point's writing tests are named inflated by the
#   async export in the stored result, and so in the sweep's table and
#   CSV ("inflated" beside the figure), the sync point's are not.
# - nfs-v3-v42.ini: the two points' mounts are NFS 3 and 4.2 (the stored
#   results' stack, and the mountstats operations: v4.2's OPEN and CLOSE,
#   none in v3's), and both store their block tests.
# - smb-vs-nfs.ini: the smb point's tests carry the share's traffic (smb
#   objects, no nfs) and the nfs point's the mount's (nfs objects).
# Each sweep's table has both points and, with one repeat, says of every
# rate that it cannot tell (no best, no star).
#
# vm-disks: 1
# vm-disk-size: 128M
# vm-timeout: 420
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 1
require_cmd "SMB" mkfs.ext4 python3 testparm smbcontrol
VD=${VDS[0]}
SIZE_MIB=8

mkfs.ext4 -q -F "$VD" >/dev/null 2>&1 || fail "mkfs.ext4 $VD"
mkdir -p /mnt/export
mount "$VD" /mnt/export || fail "mount $VD /mnt/export"
at_exit "umount /mnt/export"
mkdir -p /mnt/export/share
# nfsd too (for the experiments below; its grace period passes during the
# SMB checks), with nothing exported yet: each example exports the
# directory at every point and removes the export after it.
nfs_server_start /mnt/export/share
exportfs -u 127.0.0.1:/mnt/export/share >/dev/null 2>&1
smb_server_start /mnt/export/share
smb_mount /mnt/s

# /proc/mounts: "//127.0.0.1/share /mnt/s cifs rw,...,vers=3.1.1,..."
mnt=$(awk '$2 == "/mnt/s" { print $3 " " $4 }' /proc/mounts)
[[ $mnt == cifs\ * ]] || fail "/proc/mounts has no cifs mount on /mnt/s: $mnt"
opt() { tr ',' '\n' <<<"${mnt#* }" | sed -n "s/^$1=//p"; }
share_path=$(testparm -s "$SMB_CONF" 2>/dev/null | sed -n 's/^[[:space:]]*path = //p')
[[ -n $share_path ]] || fail "testparm -s names no share path"

run_clyde stack --json --advise /mnt/s
expect_rc 0 "clyde stack --json --advise /mnt/s"
mapfile -t got < <(jq_py "$T/out" \
	'j["stack"]["filesystem"]["cifs_dialect"]' \
	'j["stack"]["filesystem"]["cifs_rsize"]' \
	'j["stack"]["filesystem"]["cifs_wsize"]' \
	'j["stack"]["filesystem"]["cifs_cache"]' \
	'j["stack"]["filesystem"]["cifs_actimeo"]' \
	'j["stack"]["filesystem"]["cifs_local"]' \
	'j["stack"]["filesystem"]["cifs_share_dir"]' \
	'j["stack"]["filesystem"]["cifs_share_sync"]' \
	'j["stack"]["filesystem"]["cifs_share_fstype"]' \
	'" ".join(j["stack"]["top"])' \
	'" ".join(a["id"] for a in j.get("advice", []))' \
	'j["stack"]["filesystem"]["cifs_sec"]')
assert_eq "${got[0]}|${got[1]}|${got[2]}|${got[3]}|${got[4]}" \
	"$(opt vers)|$(opt rsize)|$(opt wsize)|$(opt cache)|$(opt actimeo)" \
	"clyde's dialect|rsize|wsize|cache|actimeo = /proc/mounts'"
assert_eq "${got[5]}|${got[6]}|${got[7]}|${got[8]}" "1|$share_path|strict|ext4" \
	"served by this machine from testparm's path ($share_path, ext4), flushes synced (Samba's default)"
assert_eq "${got[9]}" "${VD#/dev/}" "the device under the share is the ext4's"
assert_eq "${got[11]}" ntlmssp "the session's security type (DebugData) is ntlmssp"
assert_no_match "${got[10]}" 'smb-' "a default share and mount: no SMB advice"

# A clyde run: the block tests' traffic over the wire, per test and in
# the time series (--log-interval 50).
"$CLYDE" run -d /mnt/s --no-save -r 0 -s "${SIZE_MIB}m:8k:200:1" -n 0 -f \
	--log-interval 50 --json "$T/run.json" >"$T/run.out" 2>"$T/run.err"
expect_rc 0 "clyde run on the SMB mount"
evidence run-smb.txt "$T/run.out"
size=$((SIZE_MIB << 20))
mapfile -t got < <(jq_py "$T/run.json" \
	'{t["name"]: t.get("smb") for t in j["runs"][0]["tests"]}["put_block"]["bytes_written"]' \
	'{t["name"]: t.get("smb") for t in j["runs"][0]["tests"]}["put_block"]["requests"]' \
	'{t["name"]: t.get("smb") for t in j["runs"][0]["tests"]}["put_block"]["by_type"].get("Writes", 0)' \
	'{t["name"]: t.get("smb") for t in j["runs"][0]["tests"]}["get_block"]["bytes_read"]' \
	'{t["name"]: t.get("smb") for t in j["runs"][0]["tests"]}["get_block"]["by_type"].get("Reads", 0)' \
	'{t["name"]: t.get("smb") for t in j["runs"][0]["tests"]}["get_block"]["server_files_evicted"]' \
	'sum(m["read_bytes"] for t in j["runs"][0]["tests"] if t["name"] == "get_block" for m in t.get("members", []) if m["device"] == "'"${VD#/dev/}"'")')
echo "# put_block: ${got[0]} bytes written in ${got[1]} requests (${got[2]} Writes); get_block: ${got[3]} bytes read (${got[4]} Reads), server files evicted ${got[5]}"
# The block write's file goes over the wire once (within 5%: the
# metadata); a 4 MiB wsize needs at least size/4 MiB Writes.
[[ ${got[0]} -ge $((size * 95 / 100)) && ${got[0]} -le $((size * 105 / 100)) ]] ||
	fail "block write: ${got[0]} bytes written over the wire for a $size-byte file"
ok "block write: the share's bytes written (${got[0]}) are the file's $size within 5%"
[[ ${got[2]} -ge $((SIZE_MIB / 4)) && ${got[1]} -ge ${got[2]} ]] ||
	fail "block write: ${got[2]} Writes of ${got[1]} requests"
ok "block write: ${got[2]} Writes counted"
[[ ${got[3]} -ge $((size * 95 / 100)) && ${got[3]} -le $((size * 105 / 100)) && ${got[4]} -gt 0 ]] ||
	fail "block read: ${got[3]} bytes read over the wire for a $size-byte file"
ok "block read after the eviction: the share's bytes read (${got[3]}) are the file's within 5%"
[[ ${got[5]} -ge 1 ]] || fail "block read: the server's cache of the file was not evicted"
ok "block read: the server's cache of the file was evicted (${got[5]} file(s))"
# ... so the server read it from its disk: vda's reads during the test.
[[ ${got[6]} -ge $((size * 95 / 100)) ]] ||
	fail "block read: the server's disk read ${got[6]} bytes of the $size-byte file (its cache not evicted?)"
ok "block read: the server's disk (${VD#/dev/}) read ${got[6]} bytes, at least 95% of the file"
assert_file_match "$T/run.out" '^block read +[0-9]+ +[0-9.]+ +[0-9.]+  Reads' "the text has the block read's SMB row"
# The block write's intervals with a reading add up to its bytes written
# (the test's smb object) within 3%; an interval without one is null.
mapfile -t got < <(jq_py "$T/run.json" \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["series"]["intervals"]' \
	'[t for t in j["runs"][0]["tests"] if t["name"] == "put_block"][0]["smb"]["bytes_written"]')
python3 -S -c '
import ast, sys
sent = [i["wire_sent_bytes"] for i in ast.literal_eval(sys.argv[1])]
test = int(sys.argv[2])
known = [s for s in sent if s is not None]
print("# SMB block write: %d intervals of 50 ms, wire_sent_bytes %s (sum %d), the test wrote %d"
      % (len(sent), sent, sum(known), test))
sys.exit(0 if known and sum(known) > 0 and abs(sum(known) - test) <= 0.03 * test else 1)' "${got[0]}" "${got[1]}" ||
	fail "SMB block write: the intervals' wire_sent_bytes do not add up to the test's bytes_written within 3%"
ok "SMB block write: the intervals' wire_sent_bytes add up to the test's bytes_written within 3%"

# strict sync = no: smbd ignores flushes; --advise says so.
sed -i 's/^\[share\]$/[share]\nstrict sync = no/' "$SMB_CONF"
smbcontrol -s "$SMB_CONF" smbd reload-config >/dev/null 2>&1 || fail "smbcontrol reload-config"
run_clyde stack --json --advise /mnt/s
expect_rc 0 "clyde stack --json --advise /mnt/s (strict sync = no)"
mapfile -t got < <(jq_py "$T/out" \
	'j["stack"]["filesystem"]["cifs_share_sync"]' \
	'" ".join(a["id"] for a in j.get("advice", []))')
assert_eq "${got[0]}" none "strict sync = no: clyde stack says flushes are not synced"
assert_match "${got[1]}" 'smb-flush-ignored' "strict sync = no: --advise names it"

cp /proc/fs/cifs/DebugData "$VM_OUT/DebugData"
cp /proc/fs/cifs/Stats "$VM_OUT/Stats"
cp "$SMB_CONF" "$VM_OUT/smb.conf"
# Samba's default again for the experiments, and /mnt/s gone.
sed -i '/^strict sync = no$/d' "$SMB_CONF"
smbcontrol -s "$SMB_CONF" smbd reload-config >/dev/null 2>&1 || fail "smbcontrol reload-config"
umount /mnt/s || fail "umount /mnt/s"

# ---- The posts' experiments (examples/posts/) at small sizes -----------
export XDG_DATA_HOME=$T/xdg
CLYDE_TIMEOUT=200
printf 'username=root\npassword=%s\n' "$SMB_PASS" >"$T/creds"
chmod 600 "$T/creds"
SMALL=(--define repeats=1 --define export=/mnt/export/share --define cmnt=/mnt/c
	--define "run_opts=-s ${SIZE_MIB}m:8k:200:1 -n 0 -f -r 0 --settle 0")
# sweep NAME [--define ...]: clyde sweep of examples/posts/NAME.ini, every
# metric, as the file is but for SMALL and the defines, into a history of
# its own ($T/NAME.db, DB); its table and output kept as sweep-NAME.txt
# ($T/sweep.txt); EXP is the stored experiment's id.
sweep()
{
	local name=$1 t0=$EPOCHREALTIME
	shift
	DB=$T/$name.db
	run_clyde sweep -q --db "$DB" "${SMALL[@]}" "$@" --metrics all \
		"$CLYDE_SRC/examples/posts/$name.ini"
	cat "$T/out" "$T/err" >"$T/sweep.txt"
	evidence "sweep-$name.txt" "$T/sweep.txt"
	expect_rc 0 "$name.ini: every point ran"
	echo "# $name: $(python3 -S -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME") s"
	assert_eq "$(count ' (nfs4?|cifs) ' /proc/mounts)" 0 "$name: no mount left by the teardowns"
	assert_eq "$(exportfs)" "" "$name: no export left by the teardowns"
	EXP=$(sed -n 's/^experiment \([^:]*\): .*/\1/p' "$T/out")
	[[ -n $EXP ]] || fail "$name: the table names no experiment"
}
# count ERE FILE: how many lines of FILE match ERE, without starting a
# process (each exec costs the guest up to a second): bash's own regex
# over the lines mapfile read.
count()
{
	local l n=0 lines
	mapfile -t lines <"$2"
	for l in "${lines[@]}"; do
		[[ $l =~ $1 ]] && n=$((n + 1))
	done
	echo "$n"
}
# verdicts AXIS V1 V2: the table's rows are the two values, no row has a
# star, and for each rate of clyde run's (block write, rewrite, block
# read, random seeks) the sweep says that with one sample at each point
# it cannot tell, naming no best.
verdicts()
{
	local axis=$1 v m
	for v in "$2" "$3"; do
		assert_eq "$(count "^$v +[0-9.]+ \\(n=1\\)" "$T/sweep.txt")" 1 "the table has the row of $axis $v"
	done
	assert_eq "$(count "^($2|$3) .*"$'\xe2\x98\x85' "$T/sweep.txt")" 0 "one repeat: no row has a star"
	for m in "block write" "rewrite" "block read" "random seeks"; do
		assert_eq "$(count "^- Cannot tell whether $axis changes $m: a single sample at $2 and $3 \\(n=1\\)" "$T/sweep.txt")" 1 \
			"one repeat: the sweep cannot tell whether $axis changes $m"
	done
	assert_eq "$(count 'is best for' "$T/sweep.txt")" 0 "one repeat: no point is named best"
}
# stored_tests: one line per test of each run the last sweep stored:
# "POINT TEST FSTYPE vers=V export=SYNC nfs=yes|no smb=yes|no
# inflated=WHAT ops=OPS", from the run's stack and the test's nfs or smb
# object; POINT is the run's label in the history (axis=value).
stored_tests()
{
	rm -rf "$T/runs"
	mkdir -p "$T/runs"
	"$CLYDE" history --db "$DB" export --all -o "$T/runs" >/dev/null 2>"$T/export.err" ||
		fail "clyde history export --all: $(cat "$T/export.err")"
	"$CLYDE" history --db "$DB" list >"$T/list" 2>&1 || fail "clyde history list"
	python3 -S - "$T/runs" "$T/list" <<'PY'
import json, os, sys
d, listing = sys.argv[1:3]
label = {}
for line in open(listing).read().splitlines()[1:]:
    f = line.split()
    point = [w for w in f[3:] if "=" in w]
    if point:
        label[f[0]] = point[0]
for name in sorted(os.listdir(d)):
    j = json.load(open(os.path.join(d, name)))
    fs = j["stack"]["filesystem"]
    for t in j["runs"][0]["tests"]:
        nfs, smb = t.get("nfs"), t.get("smb")
        print(label.get(name.split(".")[0], "?"), t["name"], fs.get("type"),
              "vers=%s" % (fs.get("nfs_version") or fs.get("cifs_dialect")),
              "export=%s" % fs.get("nfs_export_sync"),
              "nfs=" + ("yes" if nfs else "no"), "smb=" + ("yes" if smb else "no"),
              "inflated=" + ",".join(i.replace(" ", "_") for i in (nfs or {}).get("inflated_by") or []),
              "ops=" + ",".join(o["name"] for o in (nfs or {}).get("ops", [])))
PY
}

# nfs-sync-async.ini: the timed write's bytes on the server's disk, and
# the async export named beside the figures it inflates.
sweep nfs-sync-async --define mib=$SIZE_MIB
verdicts export_mode sync async
assert_eq "$(count '^async .* inflated' "$T/sweep.txt")" 1 "the table names the async point's figures inflated"
assert_eq "$(count '^sync .* inflated' "$T/sweep.txt")" 0 "and not the sync point's"
run_clyde report --experiment "$EXP" --db "$DB" --format csv -o - \
	--metrics time.write,time.write.write_bytes,bonnie.put_block
expect_rc 0 "nfs-sync-async: the experiment's table as CSV"
evidence sync-async.csv "$T/out"
python3 -S - "$T/out" "$SIZE_MIB" >"$T/check" <<'EOF' || fail "cannot read the table: $(cat "$T/check")"
import csv, sys
size = int(sys.argv[2]) << 20
for r in csv.DictReader(open(sys.argv[1])):
    disk = float(r["time.write.write_bytes.mean"])
    print(r["export_mode"], r["status"],
          "disk-took-all" if disk >= size * 0.95 else
          "disk-took-under-half" if disk < size / 2 else "disk-took-some",
          "rate" if float(r["bonnie.put_block.mean"]) > 0 else "no-rate",
          "inflated" if "inflated" in r["bonnie.put_block.flags"].split() else "honest")
EOF
cat "$T/check"
assert_eq "$(tr '\n' ' ' <"$T/check")" "sync ok disk-took-all rate honest async ok disk-took-under-half rate inflated " \
	"the timed write's ${SIZE_MIB} MiB reach the server's disk within it from the sync export, under half of them from the async one; both points have a block write, the async one's flagged inflated in the CSV"
stored_tests >"$T/tests"
evidence sync-async-tests.txt "$T/tests"
assert_eq "$(count '^export_mode=async put_block .* export=async .* inflated=async_export ' "$T/tests")" 1 \
	"the async point's stored block write is named inflated by the async export"
assert_eq "$(count '^export_mode=sync put_block .* export=sync .* inflated= ' "$T/tests")" 1 \
	"the sync point's stored block write is inflated by nothing"

sweep nfs-v3-v42
verdicts vers 3 4.2
stored_tests >"$T/tests"
evidence v3-v42-tests.txt "$T/tests"
# Each point's mount is its version: the stack's, and mountstats' operations
# (v4's OPEN; v3 has none).
assert_eq "$(count '^vers=3 put_block nfs vers=3 .* nfs=yes ' "$T/tests")" 1 "the vers=3 point's block write ran on an NFS 3 mount"
assert_eq "$(count '^vers=4.2 put_block nfs4 vers=4.2 .* nfs=yes ' "$T/tests")" 1 "the vers=4.2 point's block write ran on an NFS 4.2 mount"
assert_eq "$(count '^vers=4.2 put_block .* ops=.*OPEN' "$T/tests")" 1 "the v4.2 block write's mountstats have OPEN"
assert_eq "$(count '^vers=3 .* ops=.*OPEN' "$T/tests")" 0 "the v3 mount's mountstats have no OPEN"
for v in 3 4.2; do
	assert_eq "$(count "^vers=$v (put_block|rewrite|get_block|seeks) " "$T/tests")" 4 "the vers=$v point stored its four block tests"
done

sweep smb-vs-nfs --define share=share --define "creds=$T/creds"
verdicts proto smb nfs
stored_tests >"$T/tests"
evidence smb-nfs-tests.txt "$T/tests"
# The smb point's tests carry the share's traffic, the nfs point's the
# mount's: four block tests each, every one with its protocol's object
# and not the other's.
assert_eq "$(count '^proto=smb [a-z_]* cifs .* nfs=no smb=yes ' "$T/tests")" 4 "the smb point: four tests on a cifs mount, each with its smb object"
assert_eq "$(count '^proto=nfs [a-z_]* nfs4 vers=4.2 .* nfs=yes smb=no ' "$T/tests")" 4 "the nfs point: four tests on an NFS 4.2 mount, each with its nfs object"
done_testing

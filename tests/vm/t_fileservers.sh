#!/usr/bin/env bash
# SMB on a real kernel (issue 34): this guest serves a directory of an
# ext4 on /dev/vda with smbd over its loopback (guest_lib.sh's
# smb_server_start) and mounts it with vers=3.1.1.  `clyde stack --json`
# says what /proc/mounts says of the mount (dialect, rsize, wsize, cache,
# actimeo) and what `testparm -s` says of the share (its path), that smbd
# is this machine and vda is under the share; --advise names a share with
# strict sync = no.  A clyde run's block tests count the share's requests
# and bytes (/proc/fs/cifs/Stats): the block write sends its file, the
# block read after the eviction (the client's and the server's cache)
# reads it back, at least 95% of it from the server's disk.  The kernel's DebugData and Stats are kept (vm.sh
# --keep) for the unit fixtures (tests/fixtures/cifs/).
#
# vm-disks: 1
# vm-disk-size: 128M
# vm-timeout: 240
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
done_testing

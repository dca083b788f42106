#!/usr/bin/env bash
# clyde dev's guards, on loop devices over sparse files: every refusal is
# one line naming the device and the reason, exits 1, and leaves every
# byte of the device as it was (checksummed before and after).
#  - a fresh device (no signature) is written without --destroy-data;
#  - an ext4 signature is refused, and written with --destroy-data;
#    read-only tests (seqread, randread, zcav) run without it and change
#    nothing;
#  - a mounted device is refused even with --destroy-data (read-only mount,
#    so that the checksum can only change by clyde's hand), and so is the
#    loop device's backing file, in one sentence;
#  - a device another process holds open with a plain open (exec 9<>) is
#    refused, and written with --destroy-data.  The kernel does not stop a
#    plain open from coexisting with O_EXCL: clyde finds it in /proc/*/fd.
#    An O_EXCL holder (as mkfs or mdadm) makes the kernel refuse clyde's own
#    exclusive open: refused even with --destroy-data;
#  - a partition table (losetup -P) is refused; a disk whose partition is
#    mounted is refused through that partition, and so is the partition.
#    Only this last part needs sfdisk: without it the others still run and
#    the test ends as a skip (scripts/deps.sh test installs fdisk).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount sha256sum python3

# new_loop MB [extra losetup options]: a loop device over a sparse file,
# detached at exit; its name in $DEV.
new_loop()
{
	local img
	E2E_SEQ=$((E2E_SEQ + 1))
	img=$T/dev.$E2E_SEQ
	truncate -s "${1}M" "$img"
	shift
	DEV=$(losetup --direct-io=on "$@" -f --show "$img" 2>/dev/null) ||
		skip "no loop device available"
	at_exit "losetup -d '$DEV'"
}

sum() { sha256sum "$1" | cut -d' ' -f1; }

# refused DEV ERE MSG ARGS...: clyde dev refuses with exit 1, one line
# matching ERE, and the device is unchanged.
refused()
{
	local dev=$1 re=$2 msg=$3 before
	shift 3
	before=$(sum "$dev")
	run_clyde dev "$dev" --no-save -q --bs 64k --size 4m "$@"
	expect_rc 1 "$msg: exit 1"
	assert_eq "$(wc -l <"$T/err")" 1 "$msg: one line"
	assert_file_match "$T/err" "$re" "$msg: the reason"
	assert_eq "$(sum "$dev")" "$before" "$msg: not a byte changed"
}

# A fresh device: nothing to protect.
new_loop 16
fresh=$DEV
run_clyde dev "$fresh" --no-save -q --bs 64k --size 4m
expect_rc 0 "a device without a signature is written without --destroy-data"

# ext4.
new_loop 32
ext=$DEV
mkfs.ext4 -q -F "$ext"
name=$(basename "$ext")
refused "$ext" "^clyde dev: $name holds an ext4 filesystem \(UUID [0-9a-f-]+\): add --destroy-data to overwrite it$" \
	"ext4 signature" --tests seqwrite
refused "$ext" "holds an ext4 filesystem" "ext4, random writes" \
	--tests randwrite --rand-ops 10
refused "$ext" "holds an ext4 filesystem" "ext4, zcav -w" --tests zcav \
	-w -b 1
before=$(sum "$ext")
run_clyde dev "$ext" --no-save -q --tests seqread,randread,zcav -b 4 \
	--rand-ops 50
expect_rc 0 "read-only tests run on a device with a filesystem"
assert_eq "$(sum "$ext")" "$before" "read-only tests change no byte"
run_clyde dev "$ext" --no-save -q --tests seqwrite --bs 64k --size 4m \
	--destroy-data
expect_rc 0 "--destroy-data writes over the ext4 signature"
[[ $(sum "$ext") != "$before" ]] || fail "--destroy-data wrote nothing"
ok "the device changed"

# Mounted (read-only, so that only clyde could change a byte).
new_loop 32
mnt=$DEV
mkfs.ext4 -q -F "$mnt"
mkdir "$T/mnt"
mount -o ro "$mnt" "$T/mnt" || skip "cannot mount ext4"
at_exit "umount -l '$T/mnt'"
refused "$mnt" "^clyde dev: $(basename "$mnt") is mounted on $T/mnt: clyde never writes to a mounted device, not even with --destroy-data$" \
	"mounted, with --destroy-data" --destroy-data
# Its backing file: refused in one English sentence (issue 17 §3.2).
back=$(losetup -nO BACK-FILE "$mnt")
refused "$back" "^clyde dev: $back is the backing file of $(basename "$mnt"), which is mounted on $T/mnt: clyde never writes to a mounted device, not even with --destroy-data$" \
	"the backing file of a mounted loop device" --destroy-data
before=$(sum "$mnt")
run_clyde dev "$mnt" --no-save -q --tests seqread --bs 64k --size 4m
expect_rc 0 "a mounted device can be read"
assert_eq "$(sum "$mnt")" "$before" "reading a mounted device changes nothing"

# Held open by another process: a plain open, then an exclusive one.  The
# shell alone holds it: clyde's timeout must not inherit the descriptor
# (clyde names one holder, and which one would depend on the pids' order).
exec 9<>"$fresh"
refused "$fresh" "^clyde dev: $(basename "$fresh") is open in process $$ \(bash\): add --destroy-data to write to it anyway$" \
	"held open by the shell" 9<&-
run_clyde dev "$fresh" --no-save -q --bs 64k --size 4m --destroy-data
expect_rc 0 "--destroy-data writes to a device another process has open"
exec 9>&-
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(60)' "$fresh" >"$T/holder" &
holder=$!
at_exit "kill $holder 2>/dev/null"
for _ in $(seq 50); do [[ -s $T/holder ]] && break; sleep 0.1; done
[[ -s $T/holder ]] || fail "the O_EXCL holder did not start"
refused "$fresh" "is held exclusively by another program" \
	"held with O_EXCL, with --destroy-data" --destroy-data
kill "$holder"
wait "$holder" 2>/dev/null || true

# A partition table, and a mounted partition.
if ! command -v sfdisk >/dev/null 2>&1; then
	skip_part "a partition table and a mounted partition: needs sfdisk (fdisk)"
	done_testing
fi
new_loop 64 -P
disk=$DEV
echo 'label: dos
2048,40960,L' | sfdisk -q "$disk" >/dev/null 2>&1 || fail "sfdisk failed"
partx -u "$disk" 2>/dev/null || true
udevadm settle 2>/dev/null || true
part=${disk}p1
for _ in $(seq 50); do [[ -b $part ]] && break; sleep 0.1; done
if [[ ! -b $part ]]; then
	skip_part "a partition table and a mounted partition: no partition device for $disk"
	done_testing
fi
refused "$disk" "^clyde dev: $(basename "$disk") holds a dos partition table: add --destroy-data to overwrite it$" \
	"partition table"
mkfs.ext4 -q -F "$part"
mkdir "$T/pmnt"
mount -o ro "$part" "$T/pmnt" || skip "cannot mount the partition"
at_exit "umount -l '$T/pmnt'"
refused "$disk" "^clyde dev: $(basename "$disk") is mounted through $(basename "$part") on $T/pmnt: .*not even with --destroy-data$" \
	"a disk whose partition is mounted" --destroy-data
refused "$part" "$(basename "$part") is mounted on $T/pmnt" \
	"the mounted partition" --destroy-data
done_testing

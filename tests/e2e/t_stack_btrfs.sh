#!/bin/bash
# clyde stack on btrfs across several loop devices, one profile at a time
# (raid0 and raid5 on 3 devices, raid1 on 2, raid10 and raid6 on 4), each checked
# against `btrfs filesystem show` (devices, uuid) and `btrfs filesystem df`
# (data and metadata profiles); the stripe clyde derives (64 KiB a device,
# data disks by profile) is checked too.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/stack_lib.sh
. "$(dirname "$0")/stack_lib.sh"

need_root
need_cmd losetup mount umount
require_cmd "the btrfs stack checks" mkfs.btrfs btrfs python3

DEVS=()
for _ in 1 2 3 4; do
	attach 300
	DEVS+=("$DEV")
done
E2E_SEQ=$((E2E_SEQ + 1))
MNT=$T/mnt.btrfs
mkdir "$MNT"

# check PROFILE NDEVS: mkfs.btrfs -d PROFILE -m raid1 over the first NDEVS
# devices, mount, compare, unmount.
check()
{
	local profile=$1 n=$2 meta=raid1
	local devs=("${DEVS[@]:0:n}")
	mkfs.btrfs -q -f -d "$profile" -m "$meta" "${devs[@]}" >/dev/null 2>&1 ||
		fail "mkfs.btrfs -d $profile -m $meta on $n devices"
	mount "${devs[0]}" "$MNT" || fail "mount btrfs $profile"
	at_exit "umount -l '$MNT'"
	stack_json "$MNT" "$T/$profile.json"
	btrfs filesystem show "$MNT" >"$T/$profile.show"
	btrfs filesystem df "$MNT" >"$T/$profile.df"
	run_clyde stack "$MNT"
	assert_file_match "$T/out" \
		"^  profiles: data $profile, metadata $meta, system $meta; $n devices$" \
		"$profile: the tree names the profiles"
	umount "$MNT" || fail "umount btrfs $profile"
	run_checker "$STACK_PY" "$T/$profile.json" "$T/$profile.show" \
		"$T/$profile.df" "$profile" "$n" <<'PY'
import re, sys
exec(open(sys.argv[1]).read())
stack, advice = load(sys.argv[2])
show, df = open(sys.argv[3]).read(), open(sys.argv[4]).read()
profile, n = sys.argv[5], int(sys.argv[6])
fs = stack["filesystem"]
p = profile
uuid = re.search(r"uuid: (\S+)", show).group(1)
paths = sorted(re.findall(r"path /dev/(\S+)", show))
total = int(re.search(r"Total devices (\d+)", show).group(1))
data = re.search(r"^Data, (\S+):", df, re.M).group(1).lower()
meta = re.search(r"^Metadata, (\S+):", df, re.M).group(1).lower()
say(fs["type"] == "btrfs", f"{p}: type")
say(fs["uuid"] == uuid, f"{p}: uuid as btrfs filesystem show")
say(fs["num_devices"] == total == n, f"{p}: {fs['num_devices']} devices as btrfs filesystem show")
say(sorted(stack["top"]) == paths, f"{p}: the devices {stack['top']} as btrfs filesystem show {paths}")
say(sorted(stack["leaves"]) == paths, f"{p}: every device is a leaf")
say(fs["data_profile"] == data == profile, f"{p}: data profile {fs['data_profile']} as btrfs filesystem df ({data})")
say(fs["metadata_profile"] == meta == "raid1", f"{p}: metadata profile {fs['metadata_profile']} as btrfs filesystem df ({meta})")
want = {"raid0": n, "raid10": n // 2, "raid5": n - 1, "raid6": n - 2}.get(profile)
st = stack["stripe"]
if want:
    say(st is not None and st["layer"] == "btrfs" and st["data_disks"] == want
        and st["stripe_bytes"] == want * 65536 and st["parity"] == (profile in ("raid5", "raid6")),
        f"{p}: stripe of {want} data disks x 64 KiB")
else:
    say(st is None, f"{p}: a mirror does not stripe")
for d in paths:
    compare_lsblk(stack, d, lsblk("/dev/" + d))
PY
}

check raid0 3
check raid1 2
check raid10 4
check raid5 3
check raid6 4

done_testing

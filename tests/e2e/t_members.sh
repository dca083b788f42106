#!/usr/bin/env bash
# Every member disk, every test: on btrfs over loop devices the JSON has
# each device's bytes per test; raid1 over two disks writes everything
# twice (write amplification about 2) on balanced members; raid0 and raid5
# over three (and raid5 over four) spread the block write over all of
# them; on a plain disk nothing is flagged as read-modify-write.  The
# test's own device figures and WA (text and JSON "io") sum the leaves,
# not the top device alone (raid5 over 3: 1.50, not 0.50; over 4: 1.33,
# not 0.33), and the top device's share is labelled; no slow member is
# named on loop devices whose files share one disk.  Also the -v table,
# and the virtual-disk note on this machine's disk when it is virtio.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 mkfs.btrfs mkfs.ext4 losetup mount umount

# btrfs over N loop devices with data profile P: btrfs_loops P N TAG.
btrfs_loops()
{
	local p=$1 n=$2 tag=$3 i dev devs=()
	for ((i = 0; i < n; i++)); do
		truncate -s 300M "$T/$p.$tag.$i"
		dev=$(losetup -f --show "$T/$p.$tag.$i" 2>/dev/null) ||
			skip "no loop device available"
		at_exit "losetup -d '$dev'"
		devs+=("$dev")
	done
	mkfs.btrfs -q -f -d "$p" -m "$p" "${devs[@]}" >/dev/null 2>&1 ||
		skip "mkfs.btrfs -d $p failed (no btrfs $p support?)"
	MNT=$T/mnt.$p.$tag
	mkdir "$MNT"
	mount "${devs[0]}" "$MNT" || skip "cannot mount btrfs"
	at_exit "umount -l '$MNT'"
	mkdir "$MNT/work"
}

check_json()
{
	run_checker "$@" <<'PY'
import json, sys
path, profile, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
doc = json.load(open(path))
tests = {t["name"]: t for t in doc["runs"][0]["tests"]}
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
pb = tests["put_block"]
mem = pb["members"]
mc = pb["members_check"]
check(len(mem) == n and all(m["present"] for m in mem),
      f"{profile}: {n} members counted: {[m['device'] for m in mem]}")
check(sorted(doc["stack"]["leaves"]) == sorted(m["device"] for m in mem),
      f"{profile}: the members are the stack's leaves")
wrote = [m["write_bytes"] for m in mem]
check(sum(wrote) == mc["write_bytes"], f"{profile}: the array sums its members")
if profile != "raid5":  # parity: partial stripes are read first
    check(mc["read_modify_write"] is False, f"{profile}: no read-modify-write")
wa = mc["write_amplification"]
want = {"raid1": (1.9, 2.3), "raid0": (0.95, 1.2),
        "raid5": (1.4, 1.8) if n == 3 else (1.25, 1.6),
        "plain": (0.95, 1.3)}[profile]
check(want[0] <= wa <= want[1], f"{profile}: write amplification {wa} in {want}")
io = pb["io"]
twa = io["write_amplification"]
check(twa is not None and want[0] <= twa <= want[1],
      f"{profile}: the test's write amplification {twa} sums the leaves")
check(pb["device"]["write_amplification"] == twa,
      f"{profile}: device.write_amplification is the test's, not the top device's")
check(io["scope"] == ("leaves" if n > 1 else "device") and io["devices"] == n,
      f"{profile}: the test's figures are over {n} devices ({io['scope']})")
if n > 1:
    check(io["top_write_bytes"] == pb["device"]["write_bytes"]
          and io["top_write_bytes"] < io["total_write_bytes"],
          f"{profile}: the top device's share is kept apart")
text = open(path[:-5] + ".out").read()
import re
row = re.search(r"^put_block .* (\S+)x$", text, re.M)
check(row and abs(float(row.group(1)) - twa) < 0.01,
      f"{profile}: the text's put_block WA {row and row.group(1)} is the test's")
if n > 1:
    check(re.search(r"^clyde: dev read/write sum the %d member disks; the "
                    r"top device \S+ alone \(all I/O\):$" % n, text, re.M)
          and re.search(r"^clyde:   put_block ", text, re.M),
          f"{profile}: the top device's share is labelled as such")
check("times longer per byte" not in text,
      f"{profile}: no slow member named on loop devices over one disk")
check(mc["unbalanced"] is False, f"{profile}: block write balanced: {wrote}")
if n > 1:
    check(min(wrote) > 0.5 * max(wrote), f"{profile}: every member wrote its share")
for name in ("seq_create", "ran_create") if profile == "plain" else ():
    check(tests[name]["members_check"]["read_modify_write"] is False,
          f"{profile}: {name} not flagged")
PY
}

for spec in raid1:2 raid0:3 raid5:3 raid5:4; do
	p=${spec%:*}
	n=${spec#*:}
	btrfs_loops "$p" "$n" "$n"
	j=$p
	[[ $spec == raid5:4 ]] && j=raid5x4
	run_clyde -d "$MNT/work" -s 32m -n 0 -f -r 0 --no-save \
		-v --json "$T/$j.json"
	expect_rc 0 "a run on btrfs $p over $n loop devices"
	cp "$T/out" "$T/$j.out"
	check_json "$T/$j.json" "$p" "$n"
	assert_file_match "$T/out" "^clyde: per member and test" \
		"$p: -v prints the per-member table"
done

# The report's member table: each run's rows name each member and carry
# the JSON's bytes; the members check's sentences follow.
run_clyde report "$T/raid1.json" "$T/raid0.json" "$T/raid5.json" \
	--label raid1,raid0,raid5 -o "$T/r.html"
expect_rc 0 "clyde report of the three btrfs runs"
run_checker "$T/r.html" "$T/raid1.json" "$T/raid0.json" "$T/raid5.json" <<'PY'
import html as H, json, re, sys
page = open(sys.argv[1]).read()
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
start = page.find('<h2 id="members">')
check(start >= 0, "the report has a member-disks part")
part = page[start:]
end = part.find("<h2", 5)
part = part[:end] if end > 0 else part
runs = re.split(r"<h3>|<details><summary>", part)[1:]
check(len(runs) == 3, f"one member table per run: {len(runs)}")
row = re.compile(r'<tr><td>([^<]*)</td><td>([^<]*)</td>'
                 r'<td class="num" title="(\d+) B">[^<]*</td>'
                 r'<td class="num" title="(\d+) B">')
for label, path, sec in zip(("raid1", "raid0", "raid5"), sys.argv[2:], runs):
    check(label in sec.split("</h3>")[0], f"{label}: its table is headed by its label")
    got = {(t, d): (int(r), int(w)) for t, d, r, w in row.findall(sec)}
    doc = json.load(open(path))
    want = {(t["name"], m["device"]): (m["read_bytes"], m["write_bytes"])
            for t in doc["runs"][0]["tests"] for m in t.get("members", [])}
    devs = {d for _, d in want}
    check(want and got == want,
          f"{label}: one row per test and member ({sorted(devs)}) with the JSON's bytes")
    for t in doc["runs"][0]["tests"]:
        for s in t.get("members_check", {}).get("findings", []):
            check(H.escape(s, quote=True).replace("&#x27;", "&#39;") in sec
                  or H.escape(s, quote=False) in sec,
                  f"{label}: finding shown: {s[:50]}")
PY

# A plain disk: one ext4 loop device, nothing flagged.
mount_loop ext4 300
mkdir "$MNT/work"
run_clyde -d "$MNT/work" -s 32m -n 1:4096:4096 -f -r 0 --no-save \
	--json "$T/plain.json"
expect_rc 0 "a run on ext4 over one loop device"
cp "$T/out" "$T/plain.out"
check_json "$T/plain.json" plain 1
assert_file_no_match "$T/out" "from the members" \
	"no read-modify-write sentence on a plain disk"
assert_file_no_match "$T/out" "per member and test" \
	"no per-member table without -v"

# The disk under it: virtio here is a virtual disk the host may cache.
disk=$(lsblk -no PKNAME "$(df --output=source "$T" | tail -n 1)" 2>/dev/null | head -n 1)
disk=${disk:-$(basename "$(df --output=source "$T" | tail -n 1)")}
if [[ $(basename "$(readlink -f "/sys/block/$disk/device/driver" 2>/dev/null)") == virtio_blk ]]; then
	run_checker "$T/plain.json" "$disk" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
v = doc["virtual_disk"]
print(("ok " if v and v["kind"] == "virtio" and v["device"] == sys.argv[2]
       else "FAIL ") + f"the loop's backing disk is virtio: {v}")
PY
	assert_file_match "$T/out" "is a virtual disk .virtio" \
		"the text notes the virtual disk"
	assert_file_match "$T/out" "-D and repeats after a pause tell more" \
		"... and what tells more"
else
	# Not an assertion (nothing was checked); the detection itself is
	# tested on fixture trees in tests/unit/test_members.c (test_virt).
	echo "# $T is not on a virtio disk: the virtual-disk note is not checked here"
fi
done_testing

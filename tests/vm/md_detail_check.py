#!/usr/bin/env python3
"""Compare `clyde stack --json` of an md array with `mdadm --detail`.

    md_detail_check.py DETAIL_FILE STACK_JSON MD_NAME [TEXT XFS_N DUMPE2FS]

Checks the level, chunk, raid disks, layout, data disks and stripe width
(against md's optimal_io_size and the level's rule),
stripe_cache_size (against sysfs), the array's state, the degraded count
and every member's slot and state.  With the three more files: the text of
`clyde stack` names level, disks and chunk, and the stripe unit and width
`mkfs.xfs -N` and `mkfs.ext4` (dumpe2fs -h) chose are clyde's stripe.  Prints one line per disagreement and
exits 1 when there is one; prints what it compared and exits 0 otherwise.
"""
import json
import re
import sys

detail_text = open(sys.argv[1]).read()
stack = json.load(open(sys.argv[2]))["stack"]
md = sys.argv[3]

detail = {}
members = {}
for line in detail_text.splitlines():
    m = re.match(r"\s*([A-Za-z ]+?) : (.*)$", line)
    if m:
        detail[m.group(1).strip()] = m.group(2).strip()
        continue
    # "   0     254        0        0      active sync   /dev/vda"
    m = re.match(r"\s*(\d+|-)\s+\d+\s+\d+\s+(\d+|-)\s+(.*?)\s+/dev/(\S+)$",
                 line)
    if m:
        members[m.group(4)] = (m.group(2), m.group(3))

nodes = {n["name"]: n for n in stack["devices"]}
node = nodes[md]
bad = []


def fmt_bytes(b):
    """clyde_stack_fmt_bytes(): "192 KiB", "1 MiB", "1.25 MiB"."""
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    u, v = 0, b
    while v and v % 1024 == 0 and u < 4:
        v //= 1024
        u += 1
    if (u > 0 and v < 1024) or b < 1024:
        return f"{v} {units[u]}"
    d, u = float(b), 0
    while d >= 1000 and u < 4:
        d /= 1024
        u += 1
    return f"{d:.{2 if d < 10 else 1 if d < 100 else 0}f} {units[u]}"


def want(what, got, expected):
    if got != expected:
        bad.append(f"{what}: clyde {got!r}, mdadm {expected!r}")


level = detail["Raid Level"]
n = int(detail["Raid Devices"])
want("level", node["level"], level)
want("raid disks", node["raid_disks"], n)
chunk = 0
if "Chunk Size" in detail:
    chunk = int(detail["Chunk Size"].rstrip("K")) * 1024
want("chunk", node.get("chunk_bytes", 0), chunk)

# Layout: mdadm's names against clyde's number.
r5 = ["left-asymmetric", "right-asymmetric", "left-symmetric",
      "right-symmetric"]
if level in ("raid5", "raid6"):
    want("layout", r5[node["layout"]], detail["Layout"])
elif level == "raid10":
    lay = node["layout"]
    m = re.match(r"near=(\d+)", detail["Layout"])
    want("raid10 near copies", lay & 0xff, int(m.group(1)) if m else 1)
    m = re.match(r".*(far|offset)=(\d+)", detail["Layout"])
    want("raid10 far copies", (lay >> 8) & 0xff, int(m.group(2)) if m else 1)
    want("raid10 offset", bool(lay & 0x10000), bool(m and m.group(1) == "offset"))

# Data disks and the stripe width: the chunks in md's full stripe, its
# optimal_io_size (what mkfs.xfs and mkfs.ext4 align to), which must be
# the level's rule: raid10's far and offset copies are in other rows of
# the same disks, so a row holds n chunks; near copies sit side by side,
# n / near of them when near divides n, else n (raid10.c's
# raid10_nr_stripes()).
if level == "raid10":
    near = node["layout"] & 0xff
    rule = n if n % near else n // near
else:
    rule = {"raid0": n, "raid1": 1, "raid4": n - 1, "raid5": n - 1,
            "raid6": n - 2}[level]
try:
    io_opt = int(open(f"/sys/block/{md}/queue/optimal_io_size").read())
except OSError:
    io_opt = 0
data = io_opt // chunk if chunk and io_opt else rule
if chunk:
    want("md's optimal_io_size / chunk against the level's rule", data, rule)
st = stack["stripe"]
if chunk:
    if st is None:
        bad.append("no stripe in clyde's JSON")
    else:
        want("stripe layer", st["layer"], md)
        want("data disks", st["data_disks"], data)
        want("stripe width", st["stripe_bytes"], chunk * data)
        want("parity", st["parity"], level in ("raid4", "raid5", "raid6"))
elif st is not None:
    bad.append(f"raid1 has no stripe, clyde says {st}")

# stripe_cache_size only exists for the parity levels.
try:
    scs = int(open(f"/sys/block/{md}/md/stripe_cache_size").read())
except OSError:
    scs = 0
want("stripe_cache_size", node.get("stripe_cache_size", 0), scs)

# State: "clean", "clean, degraded", "active, resyncing"...
state = detail["State"]
want("array_state clean", node["array_state"] in ("clean", "active")
     or node["array_state"].startswith("active"), True)
failed = int(detail.get("Failed Devices", "0"))
degraded_md = n - int(detail["Active Devices"])
want("degraded", node["degraded"], degraded_md)
if level == "raid0":
    want("sync_action (none for raid0)", node["sync_action"], "")
elif "resync" in state or "Resync Status" in detail:
    want("sync_action", node["sync_action"], "resync")
elif "recovering" in state or "Rebuild Status" in detail:
    want("sync_action", node["sync_action"], "recover")
else:
    want("sync_action", node["sync_action"], "idle")

# Members: slot and state.
want("members", sorted(node["children"]), sorted(members))
for name, (slot, mstate) in members.items():
    m = nodes.get(name)
    if m is None:
        bad.append(f"member {name} missing from clyde's devices")
        continue
    if slot == "-":
        want(f"{name} slot", m["md_slot"], None)
    else:
        want(f"{name} slot", m["md_slot"], int(slot))
    if "faulty" in mstate:
        want(f"{name} state faulty", "faulty" in m["md_state"], True)
    elif "active sync" in mstate:
        want(f"{name} state", m["md_state"], "in_sync")
    elif "rebuilding" in mstate or "spare" in mstate:
        want(f"{name} state spare", "in_sync" in m["md_state"], False)

if len(sys.argv) > 4:
    text = open(sys.argv[4]).read()
    head = f"{md}: md {level}, {n} disks"
    if chunk:
        head += f", chunk {chunk // 1024} KiB"
    if head not in text:
        bad.append(f"the text has no '{head}'")
    if chunk:
        full = fmt_bytes(chunk * data)
        if f", {data} data disks, full stripe {full}," not in text:
            bad.append(f"the text has no '{data} data disks, full stripe "
                       f"{full}'")
    if "sync ?" in text or ", ?," in text:
        bad.append("the text says '?' for something the kernel gives")
    xfs = open(sys.argv[5]).read()
    m = re.search(r"bsize=(\d+)\s+blocks=.*\n.*sunit=(\d+)\s+swidth=(\d+) blks",
                  xfs)
    ext = open(sys.argv[6]).read()
    me = re.search(r"^Block size:\s+(\d+)", ext, re.M)
    stride = re.search(r"^RAID stride:\s+(\d+)", ext, re.M)
    width = re.search(r"^RAID stripe width:\s+(\d+)", ext, re.M)
    if not m or not me:
        bad.append("cannot read mkfs.xfs -N or dumpe2fs -h output")
    else:
        bs, bse = int(m.group(1)), int(me.group(1))
        xsu, xsw = int(m.group(2)) * bs, int(m.group(3)) * bs
        esu = int(stride.group(1)) * bse if stride else 0
        esw = int(width.group(1)) * bse if width else 0
        want("mkfs.xfs stripe unit, width", (xsu, xsw),
             (chunk, chunk * data) if chunk else (0, 0))
        want("mkfs.ext4 stride, stripe width", (esu, esw),
             (chunk, chunk * data) if chunk else (0, 0))

if bad:
    for b in bad:
        print(f"{md}: {b}")
    sys.exit(1)
print(f"{md}: {level}, {n} disks, chunk {chunk // 1024} KiB, {data} data "
      f"disks, stripe_cache_size {scs}, state '{state}', failed {failed}")

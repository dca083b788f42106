# Helpers for the clyde stack tests (t_stack*.sh), sourced after lib.sh.
#
# shellcheck shell=bash

# attach SIZE_MB [LOSETUP_OPTION...]: a sparse image in $T on a free loop
# device, detached at exit; the device in $DEV.
attach()
{
	local size=$1 img
	shift
	E2E_SEQ=$((E2E_SEQ + 1))
	img=$T/img.$E2E_SEQ
	truncate -s "${size}M" "$img"
	DEV=$(losetup -f --show "$@" "$img" 2>/dev/null) ||
		skip "no loop device available"
	at_exit "losetup -d '$DEV'"
}

# mount_dev DEV [MOUNT_OPTION...]: mount DEV on a new directory in $T,
# unmounted at exit; the mount point in $MNT.
mount_dev()
{
	local dev=$1
	shift
	E2E_SEQ=$((E2E_SEQ + 1))
	MNT=$T/mnt.$E2E_SEQ
	mkdir "$MNT"
	mount "$@" "$dev" "$MNT" || fail "mount $* $dev failed"
	at_exit "umount -l '$MNT'"
}

# stack_json TARGET FILE: clyde stack --json --advise TARGET into FILE
# (the test fails unless it exits 0).
stack_json()
{
	run_clyde stack --json --advise "$1"
	expect_rc 0 "clyde stack --json --advise $1"
	cp "$T/out" "$2"
}

# The Python side: load a clyde stack JSON and lsblk -J -b output and
# compare each device's queue fields with lsblk's columns.  Used by the
# checkers through `exec(open(STACK_PY).read())`.
STACK_PY=$T/stack_check.py
cat >"$STACK_PY" <<'PY'
import json, subprocess, sys

def say(cond, what):
    print(("ok " if cond else "FAIL ") + what)

def load(path):
    with open(path) as f:
        d = json.load(f)
    return d["stack"], d.get("advice", [])

def device(stack, name):
    for d in stack["devices"]:
        if d["name"] == name:
            return d
    return None

LSBLK_COLS = "NAME,KNAME,TYPE,SIZE,ROTA,LOG-SEC,PHY-SEC,MIN-IO,OPT-IO,SCHED,RQ-SIZE,RA,MAJ:MIN,START"

def lsblk(dev):
    out = subprocess.run(["lsblk", "-J", "-b", "-d", "-o", LSBLK_COLS, dev],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["blockdevices"][0]

def compare_lsblk(stack, name, lb, queue=True):
    d = device(stack, name)
    if d is None:
        say(False, f"{name} is in the stack")
        return
    say(int(d["size_bytes"]) == int(lb["size"]), f"{name}: size as lsblk")
    say("%d:%d" % (d["major"], d["minor"]) == lb["maj:min"],
        f"{name}: major:minor as lsblk")
    if not queue:
        return
    say(d["rotational"] == (1 if lb["rota"] in (True, "1", 1) else 0),
        f"{name}: rotational as lsblk")
    for key, col in (("logical_block_size", "log-sec"),
                     ("physical_block_size", "phy-sec"),
                     ("minimum_io_size", "min-io"),
                     ("optimal_io_size", "opt-io"),
                     ("nr_requests", "rq-size"),
                     ("read_ahead_kb", "ra")):
        # lsblk says null where the queue has no such file (zram has
        # no scheduler and no nr_requests); clyde says 0 or "".
        say(int(d[key]) == int(lb[col] or 0),
            f"{name}: {key} {d[key]} as lsblk {col} {lb[col]}")
    say(d["scheduler"] == (lb["sched"] or ""), f"{name}: scheduler as lsblk")

def ids(advice):
    return [a["id"] for a in advice]
PY

#!/usr/bin/env bash
# The cost column of bench/all.sh (issue 35, item 7): CPU per operation
# (user and system) and system calls per operation beside every ratio of
# the IOR, mdtest and bonnie++ rows, for clyde and the peer.
# - bench/opcost.py calls: on a canned strace -f trace (a call split by
#   another thread's, a tool's other thread, a write phase then reads and
#   writes mixed), the calls of the phase's thread between its first and
#   last operation, over the operations;
# - bench/opcost.py run: the CPU of the command's whole tree (a
#   grandchild's work counted), its exit status passed on;
# - bench/all.sh's summary, from kept step logs (ior_mdtest.sh -A over
#   tests/fixtures/ior, and bonnie_wall.sh's output of a real run in
#   tests/fixtures/bench): every engine, IOR, mdtest, wall and per-char row
#   has both sides' cost, the figures of the logs' cost lines; cost.sh's
#   worst point carries its per-repeat range and is judged by it;
# - bench/engine_fio.sh at a tiny size: every row's CPU and system calls
#   per request of both sides (perf stat), one call a request at depth 32
#   and fewer in batches.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
op=$CLYDE_SRC/bench/opcost.py
cd "$T"

# --- opcost.py calls ---------------------------------------------------------
cat >trace.txt <<'EOF'
100 openat(AT_FDCWD, "/lib/x", O_RDONLY|O_CLOEXEC) = 3
100 pwrite64(4, "\0\0"..., 8192, 0) = 8192
100 clock_gettime(CLOCK_MONOTONIC, {tv_sec=1, tv_nsec=2}) = 0
200 read(5, "x", 10) = 1
100 pwrite64(4, "\0\0"..., 8192, 8192 <unfinished ...>
200 futex(0x7f, FUTEX_WAIT, 0, NULL <unfinished ...>
100 <... pwrite64 resumed>) = 8192
100 futex(0x7f, FUTEX_WAKE, 1) = 1
200 <... futex resumed>) = 0
100 pwrite64(4, "\0\0"..., 8192, 16384) = 8192
100 pread64(4, ""..., 8192, 0) = 8192
100 pwrite64(4, "\0\0"..., 8192, 0) = 8192
100 pread64(4, ""..., 8192, 8192) = 8192
100 pread64(4, ""..., 8192, 16384) = 8192
100 lseek(4, 0, SEEK_CUR) = 24576
100 pread64(4, ""..., 8192, 24576) = 8192
100 pread64(4, ""..., 8192, 32768) = -1 EIO (Input/output error)
100 +++ exited with 0 +++
EOF
python3 "$op" calls trace.txt pwrite64 8192 pread64 8192 write 8192 >calls.txt ||
	fail "opcost.py calls exited $?"
assert_eq "$(grep '^pwrite64 ' calls.txt)" "pwrite64 5 3 1.667" \
	"write phase: 5 calls of its thread (the split one once) over its longest run of 3 writes"
assert_eq "$(grep '^pread64 ' calls.txt)" "pread64 4 3 1.333" \
	"read phase: the reads after the last write, the lseek between them counted"
assert_eq "$(grep '^write ' calls.txt)" "write - 0 -" "a call the trace lacks: '-'"

# --- opcost.py run -----------------------------------------------------------
rc=0
# shellcheck disable=SC2016 # the loop is the child shell's
python3 "$op" run cpu.txt -- sh -c '( i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done ); exit 3' || rc=$?
assert_eq "$rc" 3 "opcost.py run passes the command's exit status on"
read -r u s <cpu.txt
python3 -c "import sys; sys.exit(0 if float('$u') >= 0.05 and float('$s') >= 0 else 1)" ||
	fail "opcost.py run: a grandchild's loop not counted (user $u s, system $s s)"
ok "opcost.py run counts the whole tree's CPU (user $u s, system $s s)"

# --- all.sh's summary: the cost column ---------------------------------------
need_cmd fio
command -v bonnie++ >/dev/null || PATH=$PATH:/usr/sbin:/sbin
need_cmd bonnie++
out=$(new_dir out)
bash "$CLYDE_SRC/bench/ior_mdtest.sh" -A "$CLYDE_SRC/tests/fixtures/ior" >"$out/io-md.log" ||
	fail "ior_mdtest.sh -A exited $?"
cp "$out/io-md.log" "$out/md-sync.log"
cp "$CLYDE_SRC/tests/fixtures/bench/wall.log" "$CLYDE_SRC/tests/fixtures/bench/perchar.log" \
	"$CLYDE_SRC/tests/fixtures/bench/cost.log" "$CLYDE_SRC/tests/fixtures/bench/engine.log" "$out/"
bash "$CLYDE_SRC/bench/all.sh" -b "$(dirname "$CLYDE")" -o "$out" --no-doc \
	--skip engine,direct,io-md,md-sync,wall,perchar,cost,pattern-tmpfs,pattern-loop >summary.txt 2>err.txt || {
	cat err.txt >&2
	fail "all.sh exited $?"
}
run_checker summary.txt "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
out = sys.argv[2]
NUM = r"[0-9]+\.[0-9]+"
def cost_lines(name):
    """LABEL -> the six (or, per-char, five) figures of a log's cost lines."""
    got = {}
    for l in open(f"{out}/{name}.log"):
        m = re.match(r"(.+?) us/op\s+(.*)$", l)
        if m:
            got[m.group(1).strip()] = m.group(2).split()
    return got
io, md = cost_lines("io-md"), cost_lines("io-md")
# engine_fio.sh: a table per target, each with its rows' cost lines.
eng, sect = {}, None
for l in open(f"{out}/engine.log"):
    m = re.match(r"== (file|loop) ", l)
    if m:
        sect = m.group(1)
    m = re.match(r"(.+?) us/op\s+(.*)$", l)
    if m and sect:
        eng[(sect, m.group(1).strip())] = m.group(2).split()
if len(eng) != 10:
    print(f"FAIL engine.log: 5 cost lines a target, got {len(eng)}")
wall, pc = cost_lines("wall"), cost_lines("perchar")
rows = [l for l in text.splitlines()]
def row(start):
    return [l for l in rows if l.startswith(start)]
checks = [
    ("4 ranks O_DIRECT 1 MiB put_block/write MiB/s, IOR's defaults", io["put_block/write"]),
    ("4 ranks O_DIRECT 1 MiB get_block/read MiB/s, IOR's defaults", io["get_block/read"]),
    ("4 ranks O_DIRECT 1 MiB put_block/write MiB/s, like for like", io["lfl put_block/write"]),
    ("4 ranks O_DIRECT 1 MiB get_block/read MiB/s, like for like", io["lfl get_block/read"]),
    ("4 ranks x files, unique dirs, seq_create", md["seq_create/File creation"]),
    ("4 ranks x files, unique dirs, seq_stat", md["seq_stat/File stat"]),
    ("4 ranks x files, unique dirs, seq_del", md["seq_del/File removal"]),
    ("bonnie++ -s 0 -n 128 wall time", wall["file ops"]),
    ("per-char write K/s", pc["per-char write"]),
    ("per-char read K/s", pc["per-char read"]),
]
for (sect, label), want in sorted(eng.items()):
    where = {"file": "on a file", "loop": "on a loop device"}[sect]
    checks.append((f"{label}, {where}", want))
for start, want in checks:
    rs = row(start)
    if not rs:
        print(f"FAIL a summary row {start!r}")
        continue
    for r in rs:
        m = re.search(r"(\S+)\+(\S+) us, (\S+) calls; [a-z+A-Z]+: (.*)$", r)
        if not m:
            print(f"FAIL {start}: no cost column ({r[-80:]!r})")
            continue
        peer = m.group(4)
        got = [m.group(1), m.group(2), m.group(3)] + re.findall(r"[0-9.]+", peer)
        good = got == want and all(re.fullmatch(NUM, g) for g in got)
        print(("ok " if good else "FAIL ") + f"{start}: both sides' cost ({got}, log {want})")
PY
# --- engine_fio.sh: each row's system calls per request, counted -------------
# A real run at a tiny size (the file only): one io_uring_enter a request
# at depth 32 one request a call, far fewer in batches of 32 (clyde hands
# about 11 a call, fio one, tests/fixtures/bench/engine.log); every row
# has both sides' CPU and calls.
if ! perf stat -x, -e raw_syscalls:sys_enter -o /dev/null true >/dev/null 2>&1; then
	skip_part "engine_fio.sh's system calls: perf stat cannot count raw_syscalls:sys_enter here"
elif [[ $(id -u) -ne 0 && $(stat -f -c %T "$T") == tmpfs ]]; then
	skip_part "engine_fio.sh's system calls: $T is on tmpfs (no O_DIRECT), and a loop mount needs root"
else
	disk_dir
	bash "$CLYDE_SRC/bench/engine_fio.sh" -L -r 1 -s 32m -R 4096 -P 256 -d "$DISK_DIR" -b "$CLYDE" \
		>eng.txt 2>eng.err || { cat eng.err >&2; fail "engine_fio.sh exited non-zero"; }
	run_checker eng.txt <<'PY'
import re, sys
got = {}
for l in open(sys.argv[1]):
    m = re.match(r"(.+?) us/op\s+(.*)$", l)
    if m:
        got[m.group(1).strip()] = m.group(2).split()
# A figure, signed: at this size a sequential row's 16 requests more than
# the set-up's run can count fewer calls than fio's clock-driven polls in
# it (fio: 2-4 calls a request more or less, run to run).
NUM = r"-?[0-9]+\.[0-9]+"
print(("ok " if len(got) == 5 else "FAIL ") + f"engine_fio.sh: a cost line for each of the 5 rows ({sorted(got)})")
for label, f in sorted(got.items()):
    good = len(f) == 6 and all(re.fullmatch(NUM, x) for x in f)
    print(("ok " if good else "FAIL ") + f"{label}: clyde's and fio's CPU and calls per request ({f})")
def calls(prefix, side):
    f = [v for k, v in got.items() if k.startswith(prefix)]
    return float(f[0][2 if side == "clyde" else 5]) if f and re.fullmatch(NUM, f[0][2 if side == "clyde" else 5]) else -1
for side in ("clyde", "fio"):
    c = calls("randread 4k d32 io_uring", side)
    print(("ok " if 0.9 <= c <= 1.3 else "FAIL ") + f"randread d32, {side}: {c} calls a request (one io_uring_enter each)")
c = calls("randread 4k d32 batches", "clyde")
print(("ok " if 0 < c < 0.5 else "FAIL ") + f"randread d32 in batches of 32, clyde: {c} calls a request (batches)")
PY
fi

# cost.sh's worst point (1.044 at depth 32 x 8 workers, per repeat
# 0.93-1.10 in tests/fixtures/bench/cost.log): its range spans the target,
# so within noise, not MISSED (issue 35, item 5).
assert_file_match summary.txt '^CPU per I/O, worst point of depth x workers \(clyde / fio\) +- +- +1\.044 0\.93-1\.10 +<=1\.0 +within noise' \
	"the cost step's worst point: its per-repeat range, and within noise as it spans the target"
done_testing

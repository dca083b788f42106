#!/usr/bin/env bash
#
# all.sh: every side-by-side of issue 21 in one command, with interleaved
# repeats, medians, ratios and per-repeat spreads, the machine's
# description, and the tables of docs/benchmarks.md (a generated section
# between markers, dated).
#
# Usage: bench/all.sh [--quick] [-d DIR] [-b BUILD] [-I IOR] [-M MDTEST]
#                     [-o OUTDIR] [--doc FILE | --no-doc] [--skip LIST]
#
#   --quick    a check that the script and every step work, at tiny sizes
#              and 2 repeats (a few minutes); its figures are not results
#              and it writes no docs unless --doc is given
#   -d DIR     the directory under test (default /var/tmp; ext4 or another
#              filesystem that takes O_DIRECT, not tmpfs); every step makes
#              its files in a directory of its own there and removes it
#   -b BUILD   a build directory with clyde and clyde-mpi (default: build-bench
#              next to this script, configured and built if it has no clyde)
#   -I IOR, -M MDTEST
#              IOR's and mdtest's binaries (or $IOR, $MDTEST, or on PATH);
#              without both, the IOR and mdtest rows are left out and the
#              summary says so; -M alone still gives cost.sh its mdtest
#   -o OUTDIR  keep every step's log and raw outputs (default: a temporary
#              directory, removed at the end)
#   --doc FILE write the generated section into FILE (default, full runs
#              only: docs/benchmarks.md of this tree)
#   --no-doc   write no docs
#   --skip LIST  comma list of steps not to run (engine, direct, io-md,
#              md-sync, wall, perchar, cost, pattern-tmpfs, pattern-loop)
#
# The steps, each an existing script of bench/ (their headers say how each
# clyde test maps to the peer's job and why each option is set):
#
#   engine   bench/engine_fio.sh -r 3 -s 4g -R 100000 -P 16384: clyde dev
#            against fio on a 4 GiB file on DIR and on a loop device with
#            direct I/O (root), O_DIRECT: randread 4k depth 32 io_uring
#            (issue 21's first two rows), seqread/seqwrite 1m depth 16,
#            randread 4k depth 1 psync, CPU per I/O; beside each row both
#            sides' CPU and system calls per request (perf stat around
#            the timed runs)
#   direct   bench/fio_compare.sh -D -n 3 -U 6 -S 16384 DIR 128m: clyde -D's
#            8 KiB block write and read against fio psync --direct=1, both
#            on a new empty file (fio fallocate=none: it appends as clyde
#            does); a metric still within noise after 3 pairs gets more,
#            up to 6; CPU and system calls per operation beside each ratio
#   io-md    bench/ior_mdtest.sh -n 3 -s 1024 -F 4: 4 ranks, O_DIRECT 1 MiB
#            file per process against IOR (both timing definitions: IOR's
#            own, which includes open and close, and clyde's), 4096 files
#            per rank in unique directories against mdtest
#   md-sync  bench/ior_mdtest.sh -T md -Y: the file rows again with mdtest
#            -Y (a sync after each phase, timed), the definition of clyde's
#            create and delete tests, which end with a timed syncfs as
#            bonnie++'s end with a sync; io-md's file rows leave mdtest's
#            journal commit out
#   wall     bench/bonnie_wall.sh -n 4 DIR 128: the wall time of `-s 0 -n
#            128` against bonnie++'s (4 alternated pairs: one pair's ratio
#            went 0.99 to 1.30 from one pair to the next on the same
#            device bytes, so 2 gave a median of chance)
#   perchar  bench/bonnie_wall.sh -n 3 -s 64 -f 2 DIR 0: the per-char write
#            and read (2 MiB each, one system call per byte) against
#            bonnie++ 2.00a's
#   pattern-tmpfs, pattern-loop
#            bench/pattern_tmpfs.sh -c 1024k -r 5 -s 1g: clyde's block
#            write (depth 1, 1 MiB chunks) with random data against
#            --pattern zeros, interleaved, on /dev/shm and (root) on a
#            fresh ext4 on a loop device in DIR: the next chunk is made
#            while the write before it is in flight, so the target is
#            random within 3% of zeros
#   cost     bench/cost.sh -R 32768 -r 3 -s 16 -F "16 128 512": CPU per
#            I/O (medians of 3 alternated runs) and peak memory at depth
#            1, 32, 256 with 1, 2, 8 workers on a 16 MiB file, and the
#            file tests at 16k, 128k, 512k files, against fio's and
#            mdtest's (docs/benchmarks.md, "Cost as work grows", says why
#            not cost.sh's 64 MiB and 1M files)
#
# As root the file tests of io-md, md-sync (-X 2g), wall (-F 4g) and cost
# (-X 4g) run each on a fresh ext4 on a loop device in DIR (bench/freshfs.sh:
# a run's deletes slow the next run's creates); the machine lines say which.
# Every step alternates which tool goes first from one repeat to the next.
# Verdicts (bench/verdict.py): "ok" or "MISSED" only when every pair's
# ratio is on one side of the target or clyde's until-decided rule
# (bench_decide: Welch's t-test on log values at Pocock's level) decides
# the pairs; else "within noise".  The engine, direct, IOR, mdtest, wall
# and per-char rows have a cost column: CPU per operation (user+system) and
# system calls per operation of each side (bench/opcost.py; each step's
# header says how counted).  The engine's tables also carry CPU per I/O at
# depth 32 as a row of its own; the pattern rows compare clyde with itself.
# A step whose target is missed still counts as run (its own exit status
# is recorded); a step that fails is named in the summary and the others
# still run.  At the end: the summary table (issue 21's rows: medians,
# ratio clyde/peer, per-repeat ratios, target, verdict), each step's own
# output, the machine and the load average at the start and at the end.
# Duration, measured 2026-12-02 on the project's 2-CPU VM from a fresh
# clone, as root, alone: 15 minutes (build about 1; engine 199 s, direct
# 99, io-md 68, md-sync 11, wall 63, perchar 56, cost 390).  The file tests
# run on a fresh ext4 each (bench/freshfs.sh); on the directory itself
# their creates paid for the previous run's deletes and the run took
# well over 20 minutes.  2026-12-07, with the system-call counts of io-md, md-sync,
# wall and perchar added and other sessions' builds and guests on the same
# 2 CPUs (load 8 to 5): 33 min 44 s (build 3; engine 435 s, direct 253,
# io-md 169, md-sync 75, wall 211, perchar 172, pattern 65, cost 465).
# Then, each step alone with the sizes above (2026-12-07 09:55-10:08,
# other sessions' guests and builds beside it): engine 259 s (load 10.7
# to 8.7; -R 100000 -P 4096, was 300000 and 8192), direct 100 (8.7 to
# 5.6; 128m, was 256m), perchar 91 (5.6 to 4.1; -f 2, was 4, and its
# system calls from a -f1 run less a -f one, was -f2 less -f1), cost
# 313 (4.1 to 6.3; -s 16 -F "16 128 512", was 64 MiB and up to 1M files).
# A fresh clone's run at 10:36 (load 1.3 to 1.8, alone): 12 min 55 s in
# all, 745 s of steps.  Its depth-1 psync runs of 4096 requests took
# 0.18-1.8 s and one tool's IOPS moved 2.2k-16.6k between repeats on the
# loop device: -P 16384 (each 1-8 s; about 30 s more in all).
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}
die() {
	echo "all: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
QUICK=0
DIR=/var/tmp
BUILD=
IOR_BIN=${IOR:-}
MDTEST_BIN=${MDTEST:-}
OUTDIR=
DOC=
NODOC=0
SKIP=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	-d) DIR=${2:?-d needs a directory}; shift ;;
	-b) BUILD=${2:?-b needs a build directory}; shift ;;
	-I) IOR_BIN=${2:?-I needs a path}; shift ;;
	-M) MDTEST_BIN=${2:?-M needs a path}; shift ;;
	-o) OUTDIR=${2:?-o needs a directory}; shift ;;
	--doc) DOC=${2:?--doc needs a file}; shift ;;
	--no-doc) NODOC=1 ;;
	--skip) SKIP=${2:?--skip needs a list}; shift ;;
	-h | --help) usage 0 ;;
	*) echo "all: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
for s in ${SKIP//,/ }; do
	case $s in
	engine | direct | io-md | md-sync | wall | perchar | cost | pattern-tmpfs | pattern-loop) ;;
	*) die "--skip: '$s' is not a step (engine, direct, io-md, md-sync, wall, perchar, cost, pattern-tmpfs, pattern-loop)" ;;
	esac
done
[ -d "$DIR" ] || die "-d $DIR: not a directory"
[ "$(stat -f -c %T "$DIR")" != tmpfs ] || die "-d $DIR: on tmpfs, which takes no O_DIRECT"
for c in fio python3 bonnie++; do
	command -v "$c" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
	command -v "$c" >/dev/null || die "$c not found (apt-get install fio python3 bonnie++)"
done
[ -n "$IOR_BIN" ] || IOR_BIN=$(command -v ior || true)
[ -n "$MDTEST_BIN" ] || MDTEST_BIN=$(command -v mdtest || true)
for b in "$IOR_BIN" "$MDTEST_BIN"; do
	[ -z "$b" ] || [ -x "$b" ] || die "$b: not an executable (-I/-M)"
done
if [ -z "$DOC" ] && [ "$QUICK" = 0 ] && [ "$NODOC" = 0 ]; then
	DOC=$root/docs/benchmarks.md
fi
[ "$NODOC" = 0 ] || DOC=
[ -z "$DOC" ] || [ -f "$DOC" ] || die "--doc $DOC: no such file"

# clyde: the given build, else build-bench (configured and built here).
if [ -z "$BUILD" ]; then
	BUILD=$root/build-bench
	if [ ! -x "$BUILD/clyde" ]; then
		echo "all: building clyde in $BUILD (log: $BUILD/all-build.log) ..." >&2
		mkdir -p "$BUILD"
		cmake -S "$root" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$BUILD/all-build.log" 2>&1 ||
			die "cmake failed (see $BUILD/all-build.log)"
		cmake --build "$BUILD" -j "$(nproc)" --target clyde >>"$BUILD/all-build.log" 2>&1 ||
			die "the build failed (see $BUILD/all-build.log)"
		# clyde-mpi only where cmake found MPI; the io-md steps say so.
		cmake --build "$BUILD" -j "$(nproc)" --target clyde-mpi >>"$BUILD/all-build.log" 2>&1 || true
	fi
	# The verdicts' rule (bench/verdict.py); without it the ranges decide.
	[ -x "$BUILD/bench_decide" ] ||
		cmake --build "$BUILD" -j "$(nproc)" --target bench_decide >>"$BUILD/all-build.log" 2>&1 || true
fi
CLYDE=$BUILD/clyde
[ -x "$CLYDE" ] || die "-b $BUILD: no clyde in it"

if [ -n "$OUTDIR" ]; then
	mkdir -p "$OUTDIR"
	OUT=$(cd "$OUTDIR" && pwd)
else
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/bench_all.XXXXXX")
	trap 'rm -rf -- "$OUT"' EXIT
fi
trap 'exit 130' INT TERM

skipped() { [[ ,$SKIP, == *,$1,* ]]; }

# The machine, as every figure's context.
machine() {
	local fstype source target opts devno maj min sysdev qdir
	echo "host:       $(uname -n)"
	echo "cpu:        $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) online"
	echo "memory:     $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "kernel:     $(uname -sr)"
	read -r fstype source target opts < <(findmnt -no FSTYPE,SOURCE,TARGET,OPTIONS -T "$DIR")
	echo "filesystem: $fstype on $source at $target ($opts); directory $DIR"
	devno=$(stat -c '%d' "$DIR")
	maj=$(((devno >> 8) & 0xfff))
	min=$(((devno & 0xff) | ((devno >> 12) & 0xfff00)))
	if [ -e "/sys/dev/block/$maj:$min" ]; then
		sysdev=$(readlink -f "/sys/dev/block/$maj:$min")
		qdir=$sysdev/queue
		[ -d "$qdir" ] || qdir=$(dirname "$sysdev")/queue
		echo "device:     $(basename "$sysdev") ($maj:$min) model=$(tr -s ' ' 2>/dev/null <"$(dirname "$qdir")/device/model" || echo '?')" \
			"rotational=$(cat "$qdir/rotational" 2>/dev/null || echo '?')" \
			"scheduler=$(sed 's/.*\[\(.*\)\].*/\1/' "$qdir/scheduler" 2>/dev/null || echo '?')" \
			"read_ahead_kb=$(cat "$qdir/read_ahead_kb" 2>/dev/null || echo '?')"
	else
		echo "device:     none for $maj:$min"
	fi
	echo "tools:      $("$CLYDE" --version | head -n1) ($CLYDE, commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')), $(fio --version), bonnie++ $(command -v bonnie++)${IOR_BIN:+, IOR $IOR_BIN}${MDTEST_BIN:+, mdtest $MDTEST_BIN}"
}

if [ "$QUICK" = 1 ]; then
	ENGINE=(-r 2 -s 64m -R 1024 -P 128)
	DIRECT=(-D -n 2 -U 3 -S 256)
	DIRECT_SIZE=16m
	IOMD=(-n 2 -s 16 -F 1 -p 4)
	WALL=(-n 2)
	WALL_FILES=1
	PERCHAR=(-n 2 -s 8 -f 1)
	COST=(-q)
	PATTERN=(-c 1024k -r 2 -s 64m)
	FRESH_WALL=1g FRESH_MD=1g FRESH_COST=1g
else
	ENGINE=(-r 3 -s 4g -R 100000 -P 16384)
	DIRECT=(-D -n 3 -U 6 -S 16384)
	DIRECT_SIZE=128m
	IOMD=(-n 3 -s 1024 -F 4 -p 4)
	WALL=(-n 4)
	WALL_FILES=128
	PERCHAR=(-n 3 -s 64 -f 2)
	COST=(-R 32768 -r 3 -s 16 -F "16 128 512")
	PATTERN=(-c 1024k -r 5 -s 1g)
	# The file tests' filesystems: 128k files at a time; 4 ranks x 4096;
	# up to 1M files (mkfs -N follows the count).
	FRESH_WALL=4g FRESH_MD=2g FRESH_COST=4g
fi

# Every run of the file tests (create, stat, delete) on a fresh ext4 on a
# loop device in DIR (bench/freshfs.sh: a run's deletes slow the creates
# of the run after it); root only, else on DIR itself, and the summary
# says so.
FRESH_NOTE="the file tests of wall, io-md, md-sync and cost ran each on a fresh ext4 (journal, mkfs defaults) on a loop device over a sparse file in $DIR"
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	WALL+=(-F "$FRESH_WALL")
	IOMD+=(-X "$FRESH_MD")
	COST+=(-X "$FRESH_COST")
else
	FRESH_NOTE="the file tests ran on $DIR itself (a fresh filesystem per run needs root, losetup and mkfs.ext4): a run's creates may pay for the previous run's deletes"
fi

START=$(date -u '+%Y-%m-%d %H:%M UTC')
T0=$(date +%s)
machine >"$OUT/machine.txt"
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" >>"$OUT/machine.txt"
echo "file tests: $FRESH_NOTE" >>"$OUT/machine.txt"
echo "== bench/all.sh$([ "$QUICK" = 1 ] && echo ' --quick'), $START"
cat "$OUT/machine.txt"
: >"$OUT/steps.tsv"

# step NAME CMD...: run one step, its output to NAME.log (and the
# terminal), its status and duration to steps.tsv.
step() {
	local name=$1 t rc
	shift
	if skipped "$name"; then
		printf '%s\tskipped\t0\n' "$name" >>"$OUT/steps.tsv"
		return
	fi
	echo
	echo "== step $name: $*"
	t=$(date +%s)
	set +e
	"$@" 2>"$OUT/$name.err" | tee "$OUT/$name.log"
	rc=${PIPESTATUS[0]}
	set -e
	printf '%s\t%s\t%s\n' "$name" "$rc" "$(($(date +%s) - t))" >>"$OUT/steps.tsv"
	# bonnie_wall.sh exits 1 for a missed target; every other exit but 0
	# is an error of the step (the scripts' die() exits 1).
	if [ "$rc" -ne 0 ] && { [ "$name" != wall ] && [ "$name" != perchar ] || [ "$rc" -gt 1 ]; }; then
		echo "all: step $name failed (exit $rc):"
		tail -n 5 "$OUT/$name.err"
	fi
}

step engine bash "$here/engine_fio.sh" "${ENGINE[@]}" -d "$DIR" -b "$CLYDE" -o "$OUT/engine"
step direct bash "$here/fio_compare.sh" "${DIRECT[@]}" -b "$CLYDE" -o "$OUT/direct" "$DIR" "$DIRECT_SIZE"
if [ -n "$IOR_BIN" ] && [ -n "$MDTEST_BIN" ] && [ -x "$BUILD/clyde-mpi" ]; then
	step io-md bash "$here/ior_mdtest.sh" "${IOMD[@]}" -I "$IOR_BIN" -M "$MDTEST_BIN" -b "$BUILD" -o "$OUT/io-md" "$DIR"
	step md-sync bash "$here/ior_mdtest.sh" "${IOMD[@]}" -T md -Y -M "$MDTEST_BIN" -b "$BUILD" -o "$OUT/md-sync" "$DIR"
else
	printf 'io-md\tunavailable\t0\nmd-sync\tunavailable\t0\n' >>"$OUT/steps.tsv"
	echo
	echo "== steps io-md, md-sync: not run (need -I IOR, -M MDTEST and $BUILD/clyde-mpi)"
fi
step wall bash "$here/bonnie_wall.sh" "${WALL[@]}" -b "$CLYDE" -o "$OUT/wall" "$DIR" "$WALL_FILES"
step perchar bash "$here/bonnie_wall.sh" "${PERCHAR[@]}" -b "$CLYDE" -o "$OUT/perchar" "$DIR" 0
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	step pattern-tmpfs bash "$here/pattern_tmpfs.sh" "${PATTERN[@]}" -b "$CLYDE" /dev/shm
fi
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	step pattern-loop bash "$here/pattern_tmpfs.sh" "${PATTERN[@]}" -L -b "$CLYDE" "$DIR"
fi
step cost bash "$here/cost.sh" "${COST[@]}" -d "$DIR" -b "$CLYDE" ${MDTEST_BIN:+-M "$MDTEST_BIN"} -o "$OUT/cost"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" >>"$OUT/machine.txt"
ELAPSED=$(($(date +%s) - T0))

BENCH=$here KEEP=$([ -n "$OUTDIR" ] && echo 1 || echo 0) QUICK=$QUICK START=$START ELAPSED=$ELAPSED python3 - "$OUT" "$DOC" <<'PY'
import os, re, statistics, sys

sys.path.insert(0, os.environ["BENCH"])
import verdict as V

out, doc = sys.argv[1], sys.argv[2]
quick = os.environ["QUICK"] == "1"

def log(name):
    p = os.path.join(out, name + ".log")
    return open(p).read() if os.path.exists(p) else ""

steps = {}
for l in open(os.path.join(out, "steps.tsv")):
    n, rc, secs = l.rstrip("\n").split("\t")
    steps[n] = (rc, int(secs))

rows = []  # what, clyde, peer, ratio, per-repeat, target, verdict, cost

def add(what, c, p, r, spread, target, verdict, cost="-"):
    rows.append((what, c, p, r, spread, target, verdict, cost))

def judged(spread, target):
    # A row of which only the per-repeat range is known: ok or MISSED when
    # the range is on one side of the target, else within noise
    # (bench/verdict.py).
    m = re.match(r"([0-9.]+)-([0-9.]+)$", spread)
    if not m:
        return "-"
    return V.judge_range(target, float(m.group(1)), float(m.group(2)))[0]

# engine_fio.sh: "== file" / "== loop" tables: a label (of any length, with
# numbers in it), then clyde, fio, ratio, per-repeat, target and verdict.
# Each table's "LABEL us/op" lines: the cost of its rows' requests, both
# sides (CPU user and system us, system calls), for the cost column.
sect = None
eng = []
engcost = {}
row = re.compile(r"^(.*\S)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+"
                 r"([0-9.]+-[0-9.]+)\s+(\S+)\s+(\S.*)$")
for l in log("engine").splitlines():
    m = re.match(r"== (file|loop) ", l)
    if m:
        sect = m.group(1)
        continue
    if not sect:
        continue
    m = re.match(r"(.+?) us/op\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", l)
    if m:
        engcost[(sect, m.group(1).strip())] = "%s+%s us, %s calls; fio: %s+%s us, %s calls" % m.groups()[1:]
        continue
    m = row.match(l)
    if m:
        eng.append(((sect, m.group(1).strip()), list(m.groups()[1:])))
for (sect, label), f in eng:
    what = {"file": "on a file", "loop": "on a loop device (direct I/O)"}[sect]
    add("%s, %s (clyde dev / fio)" % (label, what), f[0], f[1], f[2], f[3],
        f[4], " ".join(f[5:]), engcost.get((sect, label), "-"))

# fio_compare.sh -D -U: "block write  MiB/s ..." rows with their target
# and the verdict of the pairs it took (bench/verdict.py), and the cost
# per operation of each side ("block write us/op" rows: CPU user, system,
# system calls of clyde, then of fio).
cost = {}
for l in log("direct").splitlines():
    m = re.match(r"(block write|block read|random I/O) us/op\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", l)
    if m:
        cost[m.group(1)] = "%s+%s us, %s calls; %s+%s us, %s calls" % m.groups()[1:]
for l in log("direct").splitlines():
    m = re.match(r"(block write|block read|random I/O)\s+(MiB/s|ops/s)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(.*)", l)
    if m:
        add("direct 8k %s %s (clyde -D / fio psync --direct=1, both on a new empty file)" % (m.group(1), m.group(2)),
            m.group(3), m.group(4), m.group(5), m.group(6), m.group(7), m.group(8),
            cost.get(m.group(1), "-"))

# The cost lines of ior_mdtest.sh and bonnie_wall.sh ("LABEL us/op" then
# clyde's user us, system us and system calls, then the peer's; per-char:
# bonnie++'s user+system together): the cost column of their rows.
def costs(text, who):
    got = {}
    for l in text.splitlines():
        m = re.match(r"(.+?) us/op\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", l)
        if m:
            got[m.group(1).strip()] = "%s+%s us, %s calls; %s: %s+%s us, %s calls" % (
                m.groups()[1:4] + (who,) + m.groups()[4:])
            continue
        m = re.match(r"(.+?) us/op\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", l)
        if m:
            got[m.group(1).strip()] = "%s+%s us, %s calls; %s: %s us (user+system), %s calls" % (
                m.groups()[1:4] + (who,) + m.groups()[4:])
    return got

# ior_mdtest.sh.
iocost = costs(log("io-md"), "IOR")
for l in log("io-md").splitlines():
    if " us/op " in l:
        continue
    m = re.match(r"lfl (put_block/write|get_block/read)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+) \((\S+)\)\s+(\S+) \((\S+)\)", l)
    if m:
        add("4 ranks O_DIRECT 1 MiB %s MiB/s, like for like: both buffers in huge pages, IOR -l random "
            "(new random data every transfer), clyde timing (clyde-mpi / IOR)" % m.group(1),
            m.group(2), m.group(4), m.group(8), m.group(9), ">=1.0", judged(m.group(9), ">=1.0"),
            iocost.get("lfl " + m.group(1), "-"))
        continue
    m = re.match(r"(put_block/write|get_block/read)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+) \((\S+)\)\s+(\S+) \((\S+)\)", l)
    if m:
        r = float(m.group(8))
        add("4 ranks O_DIRECT 1 MiB %s MiB/s, IOR's defaults (its buffer in ordinary pages, "
            "its data filled once), clyde timing (clyde-mpi / IOR)" % m.group(1),
            m.group(2), m.group(4), m.group(8), m.group(9), ">=1.0", judged(m.group(9), ">=1.0"),
            iocost.get(m.group(1), "-"))
        add("  the same, IOR's own timing (open and close included)", m.group(2),
            m.group(3), m.group(6), m.group(7), "-", "not the like-for-like ratio")
# ior_mdtest.sh's file rows: io-md's mdtest without -Y, md-sync's with it.
# Like for like are create and delete with -Y (clyde's tests end with a
# timed syncfs, as bonnie++'s with a sync; mdtest -Y syncs after each
# phase) and stat without it (neither side syncs; mdtest -Y times a sync
# after its stat phase too, mdtest.c phase_end, and clyde's stat test has
# none).
for step, y in (("io-md", False), ("md-sync", True)):
    mdcost = costs(log(step), "mdtest")
    for l in log(step).splitlines():
        if " us/op " in l:
            continue
        m = re.match(r"(seq_\w+)/[A-Za-z ]+?\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+) \((\S+)\)", l)
        if not m:
            continue
        like = (m.group(1) == "seq_stat") != y
        how = {(False, True): "mdtest; no sync on either side, like for like",
               (False, False): "mdtest; mdtest times no sync",
               (True, True): "mdtest -Y: sync timed on both, like for like",
               (True, False): "mdtest -Y: a sync timed on mdtest's side only"}[(y, like)]
        r = float(m.group(4))
        add("4 ranks x files, unique dirs, %s ops/s (clyde-mpi / %s)" % (m.group(1), how),
            m.group(2), m.group(3), m.group(4), m.group(5), ">=1.0" if like else "-",
            judged(m.group(5), ">=1.0") if like else
            "not the like-for-like ratio (%s)" % ("above" if y else "-Y below"),
            mdcost.get(re.match(r"(seq_\w+/[A-Za-z ]+?)\s+[0-9]", l).group(1), "-"))
if steps.get("io-md", ("",))[0] == "unavailable":
    add("4 ranks vs IOR and mdtest", "-", "-", "-", "-", ">=1.0", "not run (no -I/-M)")

# bonnie_wall.sh: per-run wall lines, then the medians.
def wall_rows(text):
    b, c = {}, {}
    for l in text.splitlines():
        m = re.match(r"(bonnie\+\+|clyde)\s+run (\d+):\s+([0-9.]+) s wall", l)
        if m:
            (b if m.group(1) == "bonnie++" else c)[int(m.group(2))] = float(m.group(3))
    return b, c
b, c = wall_rows(log("wall"))
if b and c:
    mb, mc = statistics.median(b.values()), statistics.median(c.values())
    pr = [c[r] / b[r] for r in sorted(c) if r in b]
    add("bonnie++ -s 0 -n %s wall time s (clyde / bonnie++)" % ("128" if not quick else "1"),
        "%.2f" % mc, "%.2f" % mb, "%.3f" % (mc / mb), "%.2f-%.2f" % (min(pr), max(pr)),
        "<=1.0", judged("%.2f-%.2f" % (min(pr), max(pr)), "<=1.0"),
        costs(log("wall"), "bonnie++").get("file ops", "-"))
pccost = costs(log("perchar"), "bonnie++")
for l in log("perchar").splitlines():
    if " us/op " in l:
        continue
    m = re.match(r"(per-char write|per-char read)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(.*)", l)
    if m:
        add("%s K/s (clyde / bonnie++ 2.00a)" % m.group(1), m.group(2), m.group(3),
            m.group(4), m.group(5), m.group(6), m.group(7), pccost.get(m.group(1), "-"))
for n, where in (("pattern-tmpfs", "tmpfs"), ("pattern-loop", "ext4 on a loop device")):
    for l in log(n).splitlines():
        m = re.match(r"median block write: random (\S+) MiB/s, zeros (\S+) MiB/s, random/zeros (\S+) "
                     r"\(median of the rounds' ratios \S+, range (\S+)\)", l)
        if m:
            r = float(m.group(3))
            add("block write 1 MiB depth 1, random data / --pattern zeros, %s MiB/s (clyde / clyde)" % where,
                m.group(1), m.group(2), m.group(3), m.group(4), ">=0.97", judged(m.group(4), ">=0.97"))
# cost.sh: the worst point's ratio, judged by its per-repeat range as the
# other rows (a range across the target is within noise).
spreads = {}
for l in log("cost").splitlines():
    m = re.match(r"\s*\d+\s+\d+\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s+([0-9.]+-[0-9.]+)\s", l)
    if m:
        spreads.setdefault(m.group(1), m.group(2))
    m = re.match(r"worst clyde/fio CPU per I/O: (\S+) \(target <= 1.0 at every point: (.*)\)", l)
    if m:
        sp = spreads.get(m.group(1), "-")
        add("CPU per I/O, worst point of depth x workers (clyde / fio)", "-", "-",
            m.group(1), sp, "<=1.0", judged(sp, "<=1.0") if sp != "-" else
            "ok" if m.group(2) == "met" else "MISSED")

mach = open(os.path.join(out, "machine.txt")).read().rstrip("\n")
hdr = ("| what | clyde | peer | clyde/peer | per-repeat | target | verdict | cost per op: clyde; peer |\n"
       "|---|---:|---:|---:|---|---|---|---|\n")
table = hdr + "".join("| %s |\n" % " | ".join(r) for r in rows)
stat = ", ".join("%s %s (%d s)" % (n, ("exit " + rc) if rc not in ("skipped", "unavailable") else rc, s)
                 for n, (rc, s) in steps.items())
print()
print("== summary (medians; ratio = clyde / peer)")
w0 = max([len(r[0]) for r in rows] + [4])
for r in [("what", "clyde", "peer", "ratio", "per-repeat", "target", "verdict", "cost per op: clyde; peer")] + rows:
    print("%-*s %11s %11s %7s %-11s %-7s %-24s %s" % (w0, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]))
print("verdicts: ok or MISSED only when every pair's ratio is on one side of the target, or clyde's "
      "until-decided rule decides the pairs (bench/verdict.py); else within noise. "
      "cost per op: CPU user+system microseconds and system calls per operation of clyde; of the peer "
      "(the headers of engine_fio.sh, fio_compare.sh, ior_mdtest.sh and bonnie_wall.sh say how each is counted)")
print("steps: " + stat)
print("elapsed: %d s" % int(os.environ["ELAPSED"]))

if not doc:
    sec_path = os.path.join(out, "benchmarks-section.md")
else:
    sec_path = None
parts = ["<!-- BEGIN bench/all.sh: generated, do not edit by hand -->",
         "## Latest `bench/all.sh` run (%s%s)" % (os.environ["START"], ", --quick: not results" if quick else ""),
         "",
         "Generated by `bench/all.sh`; every figure in this section comes from that run. "
         "Ratios are clyde / peer of the medians; per-repeat is the range of the "
         "ratios of the interleaved pairs. The IOR rows give both timing definitions: "
         "the like-for-like one is clyde's (from the end of the last open to the end of the last "
         "close, as clyde's clock runs); IOR's own includes open and close. "
         "Total time %d s; steps: %s." % (int(os.environ["ELAPSED"]), stat),
         "", "```", mach, "```", "", table]
for n, title in (("engine", "clyde dev next to fio (bench/engine_fio.sh)"),
                 ("direct", "direct 8 KiB block I/O next to fio psync (bench/fio_compare.sh -D)"),
                 ("io-md", "clyde-mpi next to IOR and mdtest (bench/ior_mdtest.sh)"),
                 ("md-sync", "clyde-mpi next to mdtest -Y, a timed sync after each phase (bench/ior_mdtest.sh -T md -Y)"),
                 ("wall", "wall time next to bonnie++ (bench/bonnie_wall.sh)"),
                 ("perchar", "per-char next to bonnie++ (bench/bonnie_wall.sh -f)"),
                 ("pattern-tmpfs", "random data against zeros on tmpfs (bench/pattern_tmpfs.sh -c 1024k)"),
                 ("pattern-loop", "random data against zeros on ext4 on a loop device (bench/pattern_tmpfs.sh -c 1024k -L)"),
                 ("cost", "cost as work grows (bench/cost.sh)")):
    t = log(n).strip("\n")
    if t:
        parts += ["### " + title, "", "```", t, "```", ""]
parts.append("<!-- END bench/all.sh -->")
section = "\n".join(parts) + "\n"
if sec_path:
    open(sec_path, "w").write(section)
    print("section: %s%s" % (sec_path, "" if os.environ.get("KEEP") == "1"
                             else " (removed at exit: give -o OUTDIR to keep it)"))
else:
    text = open(doc).read()
    b, e = "<!-- BEGIN bench/all.sh", "<!-- END bench/all.sh -->"
    if b in text and e in text:
        i, j = text.index(b), text.index(e) + len(e) + 1
        text = text[:i] + section + text[j:]
    else:
        # After the title line: the latest run first (an empty file, or
        # one of a single line, gets the section at its end).
        k = text.find("\n")
        k = len(text) if k < 0 else k + 1
        text = text[:k] + "\n" + section + text[k:]
    open(doc, "w").write(text)
    print("section written into %s" % doc)
PY

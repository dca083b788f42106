#!/usr/bin/env bash
#
# ior_mdtest.sh: clyde-mpi side by side with IOR and mdtest on the same
# ranks; medians of interleaved repeats, their spread and the ratios.  A
# benchmark, not a test.
#
# Usage: bench/ior_mdtest.sh [options] DIR
#        bench/ior_mdtest.sh -A OUTDIR      (only the tables, from a kept -o)
#
#   DIR    directory on the filesystem under test (everything goes below
#          it and is removed at the end)
#
#   -I PATH  IOR's binary (default: $IOR, else `ior` on PATH)
#   -M PATH  mdtest's binary (default: $MDTEST, else `mdtest` on PATH)
#   -p N     ranks (default 4)
#   -s MiB   IO per rank (default 1024)
#   -F N     files per rank in units of 1024, as clyde's -n (default 4:
#            4096 files)
#   -n N     repeats (default 5); each repeat runs both sides of a pair,
#            in an order that alternates from one repeat to the next
#   -T WHAT  io, md or both (default both); io needs only IOR, md only
#            mdtest
#   -b DIR   the build directory with clyde-mpi (default: build/ next to
#            this script)
#   -o DIR   keep every raw output in DIR (then -A DIR prints the tables
#            again)
#   -A DIR   do not run anything: read the outputs kept in DIR and print
#   -Y       mdtest -Y: a sync after each phase, inside mdtest's timing.
#            clyde's create and delete tests end with a timed syncfs of
#            the filesystem (bonnie++'s tests end with a sync); mdtest's
#            phases by default do not, so its create and remove rates
#            leave the journal commit out.  With -Y both include it (mdtest
#            also syncs after its stat phase, where nothing is dirty).
#   -X IMAGE every MD side (each tool's, each repeat) on a fresh ext4 on
#            a loop device over a sparse IMAGE-sized file in DIR (e.g.
#            2g), made untimed before it and removed after: no side's
#            creates pay for the deletes of the one before it
#            (bench/freshfs.sh says why); root
#   -K       do not count system calls (the separate short strace runs
#            below; they need strace)
#
# IOR and mdtest are not Debian packages.  Both come from one public
# repository; build them once, anywhere outside clyde's tree (needs
# libopenmpi-dev openmpi-bin autoconf automake libtool pkg-config):
#
#   git clone https://github.com/hpc/ior && cd ior
#   ./bootstrap && ./configure --prefix="$HOME/ior" && make -j2 && make install
#   bench/ior_mdtest.sh -I "$HOME/ior/bin/ior" -M "$HOME/ior/bin/mdtest" DIR
#
# The pairs, on the same N ranks of one mpirun each:
#   IO  IOR:       ior -a POSIX --posix.odirect -F -t 1m -b SIZE -w -r -e
#                  -i 1 (file per process, O_DIRECT, 1 MiB transfers,
#                  fsync after the write), JSON summary; its defaults:
#                  its buffer in ordinary 4 KiB pages (malloc), its data
#                  the default packet (timestamp: a buffer filled once and
#                  written again at every transfer)
#       IOR like for like (issue 35, item 3): the same with -l random (a
#                  new buffer of random words for every transfer, which
#                  zlib and xz do not shrink; IOR's "incompressible" type
#                  repeats one word) and GLIBC_TUNABLES=glibc.malloc.
#                  hugetlb=2, so glibc maps IOR's 1 MiB buffer in a 2 MiB
#                  page of the huge-page pool, where clyde's buffers are
#                  (src/io/iobuf.h); as root the pool gets the pages both
#                  need for the run (bench/hugepages.sh).  Without pool
#                  pages glibc falls back to ordinary pages and clyde to
#                  transparent huge pages: the table says which pages
#                  each side had
#       clyde-mpi: clyde-mpi run -d DIR/r%r -s SIZE:1024k:256 -D -f -n 0
#                  (file per rank, O_DIRECT, 1 MiB chunks); put_block
#                  against IOR's write, get_block against its read
#   MD  mdtest:    mdtest -n FILES -u -F -C -T -r -i 1 (files only, a
#                  unique directory per rank, create, stat, remove; empty
#                  files)
#       clyde-mpi: clyde-mpi run -d DIR/r%r -s 0 -n F:0:0 (a directory per
#                  rank, empty files); seq_create, seq_stat and seq_del
#                  against mdtest's creation, stat and removal (clyde's
#                  sequential stat takes readdir's order, mdtest creation
#                  order; clyde also runs the random-order file tests,
#                  not compared)
#
# Timing definitions (issue 21, item 3).  clyde-mpi's rate is all ranks'
# work over (last end - first start), every time on rank 0's clock; a
# worker's clock starts after it opened its file and stops after its
# fsync and close.  IOR's bandwidth is the bytes over (last close end -
# first open start): the open counts.  So the IO table shows IOR both
# ways: "IOR" as IOR prints it, and "IOR, clyde's timing" = bytes /
# (totalTime - openTime), i.e. from the end of the last rank's open to
# the end of the last close (IOR's JSON gives the phase spans, not each
# rank's times; the difference from the true first-transfer start is at
# most openTime, printed as "open" in ms).  The like-for-like ratio is
# clyde / "IOR, clyde's timing".  mdtest's rate is the items of all ranks
# over the slowest rank's time from the barrier before the phase to the
# barrier after it, which is clyde's definition: one ratio.
#
# Cost per operation (issue 35, item 7), printed under each table: CPU
# user and system microseconds per operation of each side, the medians of
# the timed runs, each the CPU of the whole mpirun process tree (mpirun
# and every rank, getrusage of the child: bench/opcost.py run) over the
# run's operations (IO: its 1 MiB transfers, IOR's writes and reads,
# clyde-mpi's put_block, rewrite's reads and writes, get_block and seeks;
# MD: its file operations, mdtest's creates, stats and removals, clyde-
# mpi's six file tests), so MPI's start-up and barriers are in it on both
# sides and the write and read rows share one figure; and system calls
# per operation of the phase, counted in one separate short run of each
# side under `strace -f` after the timed ones (IO 64 MiB a rank at most,
# MD 1024 files a rank; never timed): every call of the threads that made
# the phase's operations (pwrite64 / pread64 of 1 MiB, openat, stat,
# unlink) between the first and the last of them, over those operations
# (bench/opcost.py calls).  IOR like for like is counted with its options.
#
# Targets (issue 21): every ratio >= 1.0 with the same timing definition.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}

die() {
	echo "ior_mdtest: $*" >&2
	exit 1
}

IOR_BIN=${IOR:-}
MDTEST_BIN=${MDTEST:-}
RANKS=4
SIZE=1024
FILES=4
REPEATS=5
WHAT=both
BUILD=$(cd "$(dirname "$0")/.." && pwd)/build
OUTDIR=
ANALYSE=
MDSYNC=0
FRESH=
COUNT=1
HERE=$(cd "$(dirname "$0")" && pwd)
while getopts 'I:M:p:s:F:n:T:b:o:A:X:YKh' opt; do
	case $opt in
	I) IOR_BIN=$OPTARG ;;
	M) MDTEST_BIN=$OPTARG ;;
	p) RANKS=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	F) FILES=$OPTARG ;;
	n) REPEATS=$OPTARG ;;
	T) WHAT=$OPTARG ;;
	b) BUILD=$OPTARG ;;
	o) OUTDIR=$OPTARG ;;
	A) ANALYSE=$OPTARG ;;
	Y) MDSYNC=1 ;;
	K) COUNT=0 ;;
	X) FRESH=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 >&2 ;;
	esac
done
shift $((OPTIND - 1))

# The tables, from the outputs in $1 (the run's parameters in its
# params file).  Every figure printed comes from a file there.
analyse() {
	BENCH=$HERE python3 - "$1" <<'PY'
import glob, json, os, re, statistics, sys

sys.path.insert(0, os.environ["BENCH"])
import opcost

out = sys.argv[1]
par = dict(l.rstrip("\n").split("=", 1)
           for l in open(os.path.join(out, "params")) if "=" in l)
n = int(par["repeats"])
MiB = 1048576.0

def med(xs):
    return statistics.median(xs)

def spread(xs):
    return f"{min(xs):.2f}-{max(xs):.2f}"

def clyde(kind, i, test):
    d = json.load(open(os.path.join(out, f"clyde-{kind}.{i}.json")))
    for t in d["runs"][0]["tests"]:
        if t["name"] == test:
            if t.get("state") != "done" or t.get("rate_per_s") is None:
                sys.exit(f"clyde-{kind}.{i}.json: {test} did not run "
                         f"({t.get('state')})")
            return float(t["rate_per_s"])
    sys.exit(f"clyde-{kind}.{i}.json: no test {test}")

def ior(i, access, kind="ior"):
    """IOR's bandwidth as IOR defines it, and by clyde's timing (B/s),
    and the open span (s), from IOR's JSON summary file."""
    path = os.path.join(out, f"{kind}.{i}.json")
    d = json.load(open(path))
    res = d["tests"][0]["Results"]
    # One list per iteration in some IOR versions, flat in others.
    flat = [r for it in res for r in (it if isinstance(it, list) else [it])]
    r = [x for x in flat if x["access"] == access]
    s = [x for x in d["summary"] if x["operation"] == access]
    if len(r) != 1 or len(s) != 1:
        sys.exit(f"{path}: want one {access} result (-i 1), found {len(r)}")
    r, s = r[0], s[0]
    # The bytes moved by all ranks; IOR 3.x's summary has no xsizeMiB.
    if "xsizeMiB" in s:
        nbytes = s["xsizeMiB"] * MiB
    else:
        nbytes = float(s["blockSize"] * s["segmentCount"] * s["numTasks"])
    own = r["bwMiB"] * MiB
    span = r["totalTime"] - r["openTime"]
    if span <= 0:
        sys.exit(f"{path}: {access}: totalTime {r['totalTime']} s, openTime "
                 f"{r['openTime']} s: too short to time (use a bigger -s)")
    return own, nbytes / span, r["openTime"], d.get("Version", "?")

MD_ROWS = (("seq_create", "File creation"), ("seq_stat", "File stat"),
           ("seq_del", "File removal"))

# The cost per operation (bench/opcost.py): CPU of each timed run's
# process tree over its operations, and the system calls per operation of
# a phase in the separate run under strace.
def ops_of(kind, i):
    """The operations of run i of kind: 1 MiB transfers (IO) or file
    operations (MD)."""
    if kind in ("ior", "ior-lfl"):
        return 2.0 * int(par["size"]) * int(par["ranks"])
    if kind == "mdtest":
        return 3.0 * int(par["files"]) * 1024 * int(par["ranks"])
    d = json.load(open(os.path.join(out, f"{kind}.{i}.json")))
    tests = {t["name"]: t for t in d["runs"][0]["tests"]}
    if kind == "clyde-io":
        b = sum(tests[t]["bytes"] * (2 if t == "rewrite" else 1)
                for t in ("put_block", "rewrite", "get_block", "seeks") if t in tests)
        return b / MiB
    return float(sum(t.get("ops") or 0 for t in d["runs"][0]["tests"]
                     if t["name"].startswith(("seq_", "ran_"))))

def cpu_per_op(kind):
    """(user us, sys us) per operation, medians of the timed runs; None
    without the runs' CPU files."""
    us, ss = [], []
    for i in range(1, n + 1):
        c = opcost.read_cpu(os.path.join(out, f"{kind}.{i}.cpu"))
        if c is None:
            return None
        ops = ops_of(kind, i)
        us.append(c[0] * 1e6 / ops)
        ss.append(c[1] * 1e6 / ops)
    return med(us), med(ss)

def calls_per_op(kind, names):
    """System calls per operation of the phase whose operations are the
    call among names the traced run made most of; None uncounted."""
    p = os.path.join(out, f"calls-{kind}.txt")
    if not os.path.exists(p):
        return None
    got = {}
    for l in open(p):
        f = l.split()
        if len(f) == 4 and f[0] in names and f[2] != "0":
            got[f[0]] = (int(f[2]), float(f[3]))
    return max(got.values())[1] if got else None

def fmt(x, f="%.2f"):
    return "-" if x is None else f % x

def cost_row(label, ckind, pkind, names):
    c, p = cpu_per_op(ckind), cpu_per_op(pkind)
    print(f"{label + ' us/op':31} {fmt(c and c[0]):>10} {fmt(c and c[1]):>10}"
          f" {fmt(calls_per_op(ckind, names), '%.3f'):>10} {fmt(p and p[0]):>10}"
          f" {fmt(p and p[1]):>10} {fmt(calls_per_op(pkind, names), '%.3f'):>10}")

def cost_head(what, peer):
    print()
    print(f"cost per operation ({what}; CPU: medians of the timed runs, each the whole "
          f"mpirun process tree's user and system time over the run's operations, MPI's "
          f"start-up and barriers included; system calls: every call of the threads that made "
          f"the phase's operations, from the first to the last, in a separate short run under "
          f"strace -f, not timed)")
    print(f"{'':31} {'clyde usr':>10} {'clyde sys':>10} {'clyde sysc':>10} {peer + ' usr':>10}"
          f" {peer + ' sys':>10} {peer + ' sysc':>10}")

WRITES, READS = ("pwrite64", "write"), ("pread64", "read")

def mdtest(i):
    """mdtest's SUMMARY rate table: operation -> mean ops/s, and its
    version line."""
    path = os.path.join(out, f"mdtest.{i}.txt")
    text = open(path).read()
    m = re.search(r"^SUMMARY rate.*?\n(.*?)(?:\n\s*\n|\n--|\Z)", text,
                  re.S | re.M)
    if not m:
        sys.exit(f"{path}: no 'SUMMARY rate' table (not mdtest's output?)")
    rates = {}
    for line in m.group(1).splitlines():
        f = re.match(r"^\s*([A-Za-z][A-Za-z ]*?)\s+([0-9.]+)\s+([0-9.]+)"
                     r"\s+([0-9.]+)\s+([0-9.]+)\s*$", line)
        if f:
            rates[f.group(1)] = float(f.group(4))  # the mean
    for _, op in MD_ROWS:
        if op not in rates:
            sys.exit(f"{path}: no '{op}' line in the SUMMARY rate table")
    v = re.search(r"^(mdtest-\S+) was launched", text, re.M)
    return rates, v.group(1) if v else "mdtest ?"

print(f"machine: {par['machine']}")
print(f"target: {par['target']}")
if par.get("fresh"):
    print(f"MD sides: each on a fresh {par['fresh']} ext4 on a loop device in that directory, "
          "made before the side and removed after (bench/freshfs.sh)")
print(f"{par['ranks']} ranks, {n} interleaved repeats; medians, "
      f"(min-max of the per-repeat ratios)")
if par["what"] in ("io", "both"):
    print()
    vers = set()
    print(f"IO: {par['size']} MiB per rank, file per process, O_DIRECT, "
          f"1 MiB transfers (MiB/s)")
    print(f"{'test':16} {'clyde-mpi':>10} {'IOR':>9} {'IOR, clyde timing':>18}"
          f" {'open ms':>8} {'clyde/IOR':>17} {'clyde/IOR same timing':>22}")
    for test, access in (("put_block", "write"), ("get_block", "read")):
        c = [clyde("io", i, test) for i in range(1, n + 1)]
        io = [ior(i, access) for i in range(1, n + 1)]
        vers |= {x[3] for x in io}
        own = [x[0] for x in io]
        same = [x[1] for x in io]
        opn = [x[2] for x in io]
        r1 = [a / b for a, b in zip(c, own)]
        r2 = [a / b for a, b in zip(c, same)]
        print(f"{test + '/' + access:16} {med(c) / MiB:10.1f} {med(own) / MiB:9.1f}"
              f" {med(same) / MiB:18.1f} {med(opn) * 1e3:8.2f}"
              f" {med(r1):6.3f} ({spread(r1)}) {med(r2):11.3f} ({spread(r2)})")
    if os.path.exists(os.path.join(out, "ior-lfl.1.json")):
        print()
        print(f"IO like for like: IOR -l random (new random data every transfer) with its buffer "
              f"in the huge-page pool (GLIBC_TUNABLES=glibc.malloc.hugetlb=2): {par.get('lfl_pages', '?')}")
        print(f"{'test':16} {'clyde-mpi':>10} {'IOR':>9} {'IOR, clyde timing':>18}"
              f" {'open ms':>8} {'clyde/IOR':>17} {'clyde/IOR same timing':>22}")
        for test, access in (("put_block", "write"), ("get_block", "read")):
            c = [clyde("io", i, test) for i in range(1, n + 1)]
            io = [ior(i, access, "ior-lfl") for i in range(1, n + 1)]
            own = [x[0] for x in io]
            same = [x[1] for x in io]
            opn = [x[2] for x in io]
            r1 = [a / b for a, b in zip(c, own)]
            r2 = [a / b for a, b in zip(c, same)]
            print(f"{'lfl ' + test + '/' + access:16} {med(c) / MiB:10.1f} {med(own) / MiB:9.1f}"
                  f" {med(same) / MiB:18.1f} {med(opn) * 1e3:8.2f}"
                  f" {med(r1):6.3f} ({spread(r1)}) {med(r2):11.3f} ({spread(r2)})")
    cost_head("an operation = one 1 MiB transfer, writes and reads of the whole run alike", "IOR")
    cost_row("put_block/write", "clyde-io", "ior", WRITES)
    cost_row("get_block/read", "clyde-io", "ior", READS)
    if os.path.exists(os.path.join(out, "ior-lfl.1.json")):
        cost_row("lfl put_block/write", "clyde-io", "ior-lfl", WRITES)
        cost_row("lfl get_block/read", "clyde-io", "ior-lfl", READS)
    print(f"IOR: {', '.join(sorted(vers))}; \"IOR\" = bytes / (last close "
          f"end - first open start), IOR's own; \"clyde timing\" = bytes / "
          f"(last close end - last open end), as clyde times (open outside, "
          f"fsync and close inside)")
    pages = sorted({t.get("buffer_pages") or "?"
                    for i in range(1, n + 1)
                    for t in json.load(open(os.path.join(out, f"clyde-io.{i}.json")))["runs"][0]["tests"]
                    if t["name"] in ("put_block", "get_block")})
    print(f"buffers: clyde-mpi's {'/'.join(pages)} (config buffer_pages; a huge page holds a "
          f"1 MiB request in one piece); in the first table IOR's its own ordinary pages (on a "
          f"virtual disk its read row is mostly that, docs/benchmarks.md), in the like-for-like "
          f"table the pool's as said there")
if par["what"] in ("md", "both"):
    print()
    files = int(par["files"]) * 1024
    print(f"MD: {files} empty files per rank, a directory per rank (ops/s)")
    print(f"{'test':25} {'clyde-mpi':>10} {'mdtest':>10} {'clyde/mdtest':>20}")
    vers = set()
    for test, op in MD_ROWS:
        c = [clyde("md", i, test) for i in range(1, n + 1)]
        md = []
        for i in range(1, n + 1):
            rates, v = mdtest(i)
            vers.add(v)
            md.append(rates[op])
        r = [a / b for a, b in zip(c, md)]
        print(f"{test + '/' + op:25} {med(c):10.1f} {med(md):10.1f}"
              f" {med(r):8.3f} ({spread(r)})")
    cost_head("an operation = one file's create, stat or removal; clyde-mpi's six "
              "file tests, mdtest's three phases", "mdtest")
    for test, op in MD_ROWS:
        names = {"seq_create": ("openat", "creat"), "seq_stat": ("newfstatat", "statx", "stat"),
                 "seq_del": ("unlinkat", "unlink")}[test]
        cost_row(f"{test}/{op}", "clyde-md", "mdtest", names)
    print(f"{', '.join(sorted(vers))}; both: all ranks' files over the "
          f"slowest rank's time between the barriers around a phase")
    if par.get("mdsync") == "1":
        print("mdtest -Y: a sync after each phase, in its timing, as clyde's "
              "create and delete tests end with a timed syncfs: the same definition")
    else:
        print("mdtest without -Y times no sync; clyde's create and delete tests end "
              "with a timed syncfs (as bonnie++'s with a sync): -Y gives the same definition")
PY
}

if [[ -n $ANALYSE ]]; then
	[[ $# -eq 0 ]] || usage 2 >&2
	[[ -f $ANALYSE/params ]] || die "$ANALYSE has no params file (not a kept -o directory)"
	analyse "$ANALYSE"
	exit 0
fi

[[ $# -eq 1 ]] || usage 2 >&2
DIR=$1
[[ -d $DIR ]] || die "$DIR is not a directory"
for v in RANKS SIZE FILES REPEATS; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "${v,,} must be a positive integer, not '${!v}'"
done
case $WHAT in io | md | both) ;; *) die "-T takes io, md or both, not '$WHAT'" ;; esac
for c in mpirun python3; do
	command -v "$c" >/dev/null || die "$c not found (apt-get install openmpi-bin python3)"
done
[[ $COUNT == 0 ]] || command -v strace >/dev/null || {
	echo "ior_mdtest: strace not found: system calls per operation not counted (-K)" >&2
	COUNT=0
}
[[ -x $BUILD/clyde-mpi ]] || die "no clyde-mpi in $BUILD (-b; cmake builds it with libopenmpi-dev)"
# find_tool NAME GIVEN: the tool's path, or a message saying how to get it.
find_tool() {
	local p=${2:-$(command -v "$1" || true)}
	[[ -n $p && -x $p ]] ||
		die "no $1${2:+ at $2}: build IOR and mdtest from https://github.com/hpc/ior (see -h) and give the path (-I/-M)"
	echo "$p"
}
[[ $WHAT == md ]] || IOR_BIN=$(find_tool ior "$IOR_BIN")
[[ $WHAT == io ]] || MDTEST_BIN=$(find_tool mdtest "$MDTEST_BIN")

# shellcheck source=bench/freshfs.sh
. "$(dirname "$0")/freshfs.sh"
fresh_size_ok "$FRESH" ||
	die "-X $FRESH: the image size is a number with an optional k/m/g/t (e.g. 2g)"
# shellcheck source=bench/hugepages.sh
. "$(dirname "$0")/hugepages.sh"
W=$(mktemp -d "$DIR/ior_mdtest.XXXXXX")
trap 'fresh_down; huge_restore; rm -rf "$W"' EXIT
LFL_PAGES=
if [[ $WHAT != md ]]; then
	# A 2 MiB page per rank for IOR's buffer, as many for clyde's.
	huge_setup $((RANKS * 8))
	free=$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)
	if [[ ${free:-0} -ge $((RANKS * 2)) ]]; then
		LFL_PAGES="both sides' buffers in the huge-page pool ($free pages free at the start)"
	else
		LFL_PAGES="the pool has ${free:-0} free pages (${HUGE_WHY:-}): IOR's buffers in ordinary pages, clyde's transparent huge pages; not the same pages"
	fi
fi
OUT=${OUTDIR:-$W/out}
mkdir -p "$OUT"
MPI=(mpirun --allow-run-as-root --oversubscribe -np "$RANKS")

{
	echo "repeats=$REPEATS"
	echo "ranks=$RANKS"
	echo "size=$SIZE"
	echo "files=$FILES"
	echo "what=$WHAT"
	echo "mdsync=$MDSYNC"
	echo "fresh=$FRESH"
	echo "lfl_pages=$LFL_PAGES"
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	mem=$(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
	echo "machine=$(uname -n), $(nproc) CPUs (${cpu:-unknown CPU}), $mem, Linux $(uname -r)"
	fs=$(findmnt -n -o FSTYPE,SOURCE,OPTIONS --target "$DIR" 2>/dev/null || stat -f -c %T "$DIR")
	echo "target=$DIR: $fs"
} >"$OUT/params"

# run LOG CMD...: the command, its output kept; a failure stops the run.
run() {
	local log=$1
	shift
	"$@" >"$log" 2>&1 || die "$* failed (exit $?): $(tail -n 5 "$log")"
}

# Each side's command (in C), for the timed runs and the traced one:
# SIZE MiB a rank (IO), or FILES x 1024 files a rank in DIR (MD).
ior_cmd() {
	C=("${MPI[@]}" "$IOR_BIN" -a POSIX --posix.odirect -F -t 1m -b "${1}m"
		-w -r -e -i 1 -o "$W/ior/testfile")
}
# IOR like for like: new random data every transfer, its buffer in the
# huge-page pool as clyde's (glibc maps it there; ordinary pages when the
# pool is empty).
ior_lfl_cmd() {
	C=("${MPI[@]}" -x GLIBC_TUNABLES=glibc.malloc.hugetlb=2 "$IOR_BIN" -a POSIX
		--posix.odirect -l random -F -t 1m -b "${1}m" -w -r -e -i 1
		-o "$W/ior/testfile")
}
clyde_io_cmd() {
	C=("${MPI[@]}" "$BUILD/clyde-mpi" run -d "$W/io-r%r" -s "${1}m:1024k:256"
		-D -f -n 0 -q --no-save)
}
mdtest_cmd() {
	C=("${MPI[@]}" "$MDTEST_BIN" -n $(($1 * 1024)) -u -F -C -T -r -i 1)
	[[ $MDSYNC == 0 ]] || C+=(-Y)
	C+=(-d "$2/md")
}
clyde_md_cmd() {
	C=("${MPI[@]}" "$BUILD/clyde-mpi" run -d "$2/md-r%r" -s 0 -n "$1:0:0" -q --no-save)
}
# A timed run: the CPU of its whole process tree to OUT/KIND.N.cpu.
CPU=(python3 "$HERE/opcost.py" run)

side_ior() {
	mkdir -p "$W/ior"
	ior_cmd "$SIZE"
	run "$OUT/ior.$1.log" "${CPU[@]}" "$OUT/ior.$1.cpu" -- "${C[@]}" \
		-O summaryFormat=JSON -O "summaryFile=$OUT/ior.$1.json"
	rm -rf "$W/ior"
}

side_ior_lfl() {
	mkdir -p "$W/ior"
	ior_lfl_cmd "$SIZE"
	run "$OUT/ior-lfl.$1.log" "${CPU[@]}" "$OUT/ior-lfl.$1.cpu" -- "${C[@]}" \
		-O summaryFormat=JSON -O "summaryFile=$OUT/ior-lfl.$1.json"
	rm -rf "$W/ior"
}

side_clyde_io() {
	clyde_io_cmd "$SIZE"
	run "$OUT/clyde-io.$1.log" "${CPU[@]}" "$OUT/clyde-io.$1.cpu" -- "${C[@]}" \
		--json "$OUT/clyde-io.$1.json"
}

# mdwhere: the directory of the next MD side (MW): $W, or with -X a fresh
# filesystem for it (fresh_down after the side).
mdwhere() {
	fresh_place "$FRESH" "$DIR" $((RANKS * FILES * 1024 + 65536)) "$W" ||
		die "-X: no fresh filesystem"
	MW=$FRESH_DIR
}

side_mdtest() {
	mdwhere
	mdtest_cmd "$FILES" "$MW"
	run "$OUT/mdtest.$1.txt" "${CPU[@]}" "$OUT/mdtest.$1.cpu" -- "${C[@]}"
	rm -rf "$MW/md"
	fresh_down
}

side_clyde_md() {
	mdwhere
	clyde_md_cmd "$FILES" "$MW"
	run "$OUT/clyde-md.$1.log" "${CPU[@]}" "$OUT/clyde-md.$1.cpu" -- "${C[@]}" \
		--json "$OUT/clyde-md.$1.json"
	fresh_down
}

# traced KIND NAME SIZE...: the command in C once under strace -f, never
# timed; its system calls per operation of each phase (bench/opcost.py
# calls) to OUT/calls-KIND.txt.
traced() {
	local kind=$1
	shift
	echo "system calls: $kind under strace" >&2
	strace -f -qq -o "$W/strace.txt" "${C[@]}" >"$W/strace.log" 2>&1 ||
		die "$kind under strace failed: $(tail -n 3 "$W/strace.log")"
	python3 "$HERE/opcost.py" calls "$W/strace.txt" "$@" >"$OUT/calls-$kind.txt"
	rm -f "$W/strace.txt"
}

# One short run of each side under strace: at most 64 MiB a rank, 1024
# files a rank.
count_calls() {
	local s=$((SIZE < 64 ? SIZE : 64))
	local io=(pwrite64 1048576 pread64 1048576 write 1048576 read 1048576)
	local md=(openat - creat - newfstatat - statx - stat - unlinkat - unlink -)
	if [[ $WHAT != md ]]; then
		mkdir -p "$W/ior"
		ior_cmd "$s"
		traced ior "${io[@]}"
		ior_lfl_cmd "$s"
		traced ior-lfl "${io[@]}"
		rm -rf "$W/ior"
		clyde_io_cmd "$s"
		traced clyde-io "${io[@]}"
	fi
	if [[ $WHAT != io ]]; then
		mdtest_cmd 1 "$W"
		traced mdtest "${md[@]}"
		rm -rf "$W/md"
		clyde_md_cmd 1 "$W"
		traced clyde-md "${md[@]}"
	fi
}

for ((i = 1; i <= REPEATS; i++)); do
	if [[ $WHAT != md ]]; then
		pair=(side_ior side_clyde_io side_ior_lfl)
		((i % 2)) || pair=(side_ior_lfl side_clyde_io side_ior)
		for s in "${pair[@]}"; do
			echo "repeat $i/$REPEATS: ${s#side_}" >&2
			"$s" "$i"
		done
	fi
	if [[ $WHAT != io ]]; then
		pair=(side_mdtest side_clyde_md)
		((i % 2)) || pair=(side_clyde_md side_mdtest)
		for s in "${pair[@]}"; do
			echo "repeat $i/$REPEATS: ${s#side_}" >&2
			"$s" "$i"
		done
	fi
done
[[ $COUNT == 0 ]] || count_calls
analyse "$OUT"

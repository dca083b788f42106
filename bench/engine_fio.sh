#!/usr/bin/env bash
#
# engine_fio.sh: clyde's I/O engines next to fio, on a file and on a loop
# device with direct I/O, the same sizes and block sizes, in one run, with
# ratios (issue 10, section 4).
#
# Usage: bash bench/engine_fio.sh [options]
#
#   -r N       interleaved repeats (default 6): each repeat runs every
#              clyde/fio pair once, clyde first in odd repeats and fio first
#              in even ones, so a drift of the shared machine favours
#              neither side; an odd N gives one side the first place once
#              more, and the script says so
#   -U         no untimed read before each sequential read (see below)
#   -N         leave fio's buffers in ordinary pages (see below)
#   -K         do not count system calls (perf stat, below)
#   -s SIZE    size of the file and of the loop device, with a k, m or g
#              suffix (default 1g)
#   -d DIR     where the file and the loop device's backing file go
#              (default /var/tmp; a filesystem that takes O_DIRECT, not
#              tmpfs); both are removed at the end
#   -R OPS     requests per random-read run at depth 32 (default 32768)
#   -P OPS     requests per random-read run at depth 1 (default 2048)
#   -L         the file only, no loop device (the loop device needs root)
#   -b PATH    the clyde binary (default: $CLYDE, else build-bench/clyde or
#              build/clyde next to this script, else clyde on PATH); it
#              must have `clyde dev`
#   -o OUTDIR  keep every raw JSON (clyde's and fio's) in OUTDIR
#
# What is compared, on each target (TARGET = the file or /dev/loopN), every
# request O_DIRECT, every clyde run `clyde dev TARGET --size SIZE --no-save`
# and every fio job `--filename=TARGET --size=SIZE --direct=1`:
#
# randread d32  clyde --tests randread --rand-bs 4k --rand-ops R --iodepth 32
#               --engine io_uring; fio --rw=randread --bs=4k --iodepth=32
#               --ioengine=io_uring --number_ios=R --norandommap
#               --randrepeat=0 (uniform offsets with replacement, as
#               clyde's).  IOPS; target clyde/fio >= 0.95.  Both submit
#               each request as soon as it is ready (clyde's default
#               --iodepth-batch 1, fio's iodepth_batch_submit=1).
# randread d32, batches of 32
#               the same with clyde --iodepth-batch 32 and fio
#               --iodepth_batch_submit=32: 32 requests in one system call,
#               which the block layer receives together.  IOPS; >= 0.95.
# seqread d16   clyde --tests seqread --bs 1m --iodepth 16 --engine io_uring;
#               fio --rw=read --bs=1m --iodepth=16 --ioengine=io_uring.
#               MiB/s; target >= 0.95.
# seqwrite d16  clyde --tests seqwrite (the same, writing, then a timed
#               fsync); fio --rw=write --end_fsync=1 --fallocate=none (fio
#               counts its end_fsync in the job's runtime, as clyde does)
#               --refill_buffers: clyde writes new bytes in every request
#               (docs/dev.md), and fio by default fills its buffers once
#               and only scrambles a few bytes of each (scramble_buffers),
#               so without it fio makes no data at all; with it fio makes
#               new data for every request too.  MiB/s; target >= 0.95.
# psync d1      clyde --tests randread --rand-bs 4k --rand-ops P --iodepth 1
#               --engine psync; fio --rw=randread --bs=4k --ioengine=psync
#               --iodepth=1 --number_ios=P.  IOPS; target 0.9-1.1.
# CPU per I/O   of the randread d32 runs: clyde's (cpu_user_ns + cpu_sys_ns)
#               / ops, the CPU of the thread that ran the requests; fio's
#               (usr_cpu + sys_cpu) / 100 * job_runtime / I/Os, its job's.
#               Target clyde/fio <= 1.2.
# cost per request  beside every row, both sides (issue 35, item 7): CPU
#               user and system microseconds per request (clyde's JSON
#               cpu_user_ns and cpu_sys_ns, the thread that ran the
#               requests; fio's usr_cpu and sys_cpu of its job_runtime) and
#               system calls per request: every timed run runs under `perf
#               stat -x, -e raw_syscalls:sys_enter` (the kernel's count of
#               every thread's calls; counting adds no stop per call, as
#               strace would), less the calls of one untimed run of the same
#               tool and test with 64 requests (16 MiB for the sequential
#               ones: its set-up), over the requests more; medians of the
#               repeats.  On one row perf's count was strace -f -c's
#               (clyde dev randread d32, 20,000 requests: 20,522 and 20,500,
#               the difference perf's own exec; fio: 23,635 and 24,003, fio's
#               clock-driven polls more under strace).  -K, or without a perf
#               that may count the tracepoint: "-".
#
# Every sequential read, clyde's and fio's, comes right after an untimed
# fio read of the same range (unless -U).  On a virtual disk the host's
# cache serves a read that follows another read of the same blocks several
# times faster than one that follows a write; without the untimed read, the
# second tool of each pair reads after the first tool's read, and the one
# that is second more often (fio with an odd -r) gains in the medians.
#
# Both tools' buffers are huge pages from the pool (pages added to
# /proc/sys/vm/nr_hugepages for the run and given back at the end; root
# only): fio's with --mem=shmhuge, clyde's because it takes the pool's
# pages first for buffers from 1 MiB (src/io/iobuf.h).  A 1 MiB direct
# request of scattered 4 KiB pages needs more segments than a loop device
# (128) or virtio (254) takes, and is split.  With -N, or when not root,
# fio keeps ordinary pages and clyde falls back to transparent huge pages,
# and the sequential figures are not comparable (on the machine of
# docs/benchmarks-history.md fio's were a third of clyde's on the loop device).
# Each clyde JSON records its buffers' pages (config.buffer_pages); the
# summary names the runs that did not have the pool's.
#
# Before the repeats, one untimed fio write fills each target, so that no
# measured write allocates blocks and no read meets a hole (the loop
# device's backing file starts sparse).  The loop device is attached with
# losetup --direct-io=on, so its own I/O to the backing file bypasses the
# page cache too.
#
# Output: the machine, then per target a table of medians (clyde, fio,
# clyde/fio, the range of the per-repeat ratios, the target, a verdict)
# and each row's "LABEL us/op" line: clyde's user us, system us and calls
# per request, then fio's.
# The machine these figures come from is shared and noisy: quote medians
# and ratios, never a single run (docs/benchmarks-history.md).
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}

REPEATS=6
PRIME=1
HUGE=1
SIZE=1g
DIR=/var/tmp
RAND_OPS=32768
PSYNC_OPS=2048
LOOP=1
COUNT=1
CLYDE_BIN=${CLYDE:-}
OUTDIR=
while getopts 'r:s:d:R:P:LUNKb:o:h' opt; do
	case $opt in
	r) REPEATS=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	d) DIR=$OPTARG ;;
	R) RAND_OPS=$OPTARG ;;
	P) PSYNC_OPS=$OPTARG ;;
	L) LOOP=0 ;;
	U) PRIME=0 ;;
	N) HUGE=0 ;;
	K) COUNT=0 ;;
	b) CLYDE_BIN=$OPTARG ;;
	o) OUTDIR=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 >&2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage 2 >&2

die() {
	echo "engine_fio: $*" >&2
	exit 1
}

for v in REPEATS RAND_OPS PSYNC_OPS; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "-${v:0:1}: ${!v} is not a positive integer"
done
[[ $SIZE =~ ^([1-9][0-9]*)([kKmMgG])$ ]] ||
	die "-s: $SIZE is not a size with a k, m or g suffix (e.g. 1g)"
case ${BASH_REMATCH[2],,} in
k) BYTES=$((BASH_REMATCH[1] << 10)) ;;
m) BYTES=$((BASH_REMATCH[1] << 20)) ;;
g) BYTES=$((BASH_REMATCH[1] << 30)) ;;
esac
[ $((BYTES % (1 << 20))) -eq 0 ] || die "-s: $SIZE is not a whole number of MiB"
# The set-up's runs (system calls per request): 64 requests, 16 MiB.
BASE_OPS=64
BASE_BYTES=$((BYTES < (16 << 20) ? BYTES : 16 << 20))
[ -d "$DIR" ] || die "-d: $DIR is not a directory"
[ "$(stat -f -c %T "$DIR")" != tmpfs ] || die "-d: $DIR is on tmpfs (no O_DIRECT)"
command -v fio >/dev/null || die "fio not found (apt-get install fio)"
command -v python3 >/dev/null || die "python3 not found"
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin
if [ "$COUNT" = 1 ] && ! perf stat -x, -e raw_syscalls:sys_enter -o /dev/null true >/dev/null 2>&1; then
	echo "engine_fio: perf stat cannot count raw_syscalls:sys_enter here (no perf, or not allowed):" \
		"system calls per request not counted (as -K)" >&2
	COUNT=0
fi
if [ "$LOOP" = 1 ]; then
	if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
		echo "engine_fio: not root or no losetup: the file only (as -L)" >&2
		LOOP=0
	fi
fi

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$CLYDE_BIN" ]; then
	for c in "$here/../build-bench/clyde" "$here/../build/clyde"; do
		[ -x "$c" ] && CLYDE_BIN=$c && break
	done
	[ -n "$CLYDE_BIN" ] || CLYDE_BIN=$(command -v clyde || true)
fi
if [ -z "$CLYDE_BIN" ] || [ ! -x "$CLYDE_BIN" ]; then
	die "no clyde binary (build it, or give -b PATH or CLYDE=PATH)"
fi
"$CLYDE_BIN" dev --help >/dev/null 2>&1 ||
	die "$CLYDE_BIN has no 'clyde dev' to run one pattern on a target"

# shellcheck source=bench/hugepages.sh
. "$here/hugepages.sh"
WORK=$(mktemp -d "$DIR/engine_fio.XXXXXX")
LOOPDEV=
cleanup() {
	[ -z "$LOOPDEV" ] || losetup -d "$LOOPDEV" 2>/dev/null || true
	rm -rf "$WORK"
	huge_restore
}
trap cleanup EXIT
trap 'exit 130' INT TERM
TSV=$WORK/results.tsv
: >"$TSV"

# ---- the targets ----------------------------------------------------------
truncate -s "$BYTES" "$WORK/file"
TARGETS=("file:$WORK/file")
if [ "$LOOP" = 1 ]; then
	truncate -s "$BYTES" "$WORK/loop.img"
	LOOPDEV=$(losetup --direct-io=on -f --show "$WORK/loop.img") ||
		die "losetup --direct-io=on failed"
	TARGETS+=("loop:$LOOPDEV")
fi

# ---- the machine ------------------------------------------------------------
echo "== machine"
echo "host:       $(uname -n)"
echo "cpus:       $(nproc) ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo))"
echo "ram:        $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "kernel:     $(uname -sr)"
read -r fstype source target < <(findmnt -no FSTYPE,SOURCE,TARGET -T "$DIR")
echo "filesystem: $fstype on $source at $target (the file, and the loop device's backing file)"
if [ -n "$LOOPDEV" ]; then
	echo "loop:       $LOOPDEV direct-io=$(cat "/sys/block/$(basename "$LOOPDEV")/loop/dio" 2>/dev/null || echo '?')"
fi
echo "fio:        $(fio --version)"
echo "clyde:      $("$CLYDE_BIN" --version | head -n1) ($CLYDE_BIN)"
echo "load:       $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at start"
echo "== settings"
echo "size $SIZE ($BYTES bytes), repeats $REPEATS, random reads: $RAND_OPS at depth 32," \
	"$PSYNC_OPS at depth 1"
if [ "$PRIME" = 1 ]; then
	echo "every sequential read follows an untimed fio read of the target"
else
	echo "no untimed read before the sequential reads (-U)"
fi
if [ "$HUGE" = 1 ]; then
	huge_setup 16
	[ -z "$FIO_MEM" ] || echo "buffers: the pool's huge pages, fio's ($FIO_MEM) and clyde's"
	[ -n "$FIO_MEM" ] || echo "buffers: fio's ordinary pages ($HUGE_WHY); clyde's transparent huge pages"
else
	echo "buffers: fio's ordinary pages (-N); clyde's transparent huge pages"
fi
if [ "$COUNT" = 1 ]; then
	echo "system calls: every timed run under perf stat (raw_syscalls:sys_enter), less a run of $BASE_OPS requests"
else
	echo "system calls: not counted"
fi
if [ $((REPEATS % 2)) -eq 1 ]; then
	echo "note: an odd number of repeats: clyde runs first once more than fio"
fi
echo

# test name -> clyde dev options / fio options.
declare -A CLYDE_ARGS=(
	[randread32]="--tests randread --rand-bs 4k --rand-ops @R@ --iodepth 32 --engine io_uring"
	[randread32b]="--tests randread --rand-bs 4k --rand-ops @R@ --iodepth 32 --engine io_uring --iodepth-batch 32"
	[seqread16]="--tests seqread --bs 1m --iodepth 16 --engine io_uring"
	[seqwrite16]="--tests seqwrite --bs 1m --iodepth 16 --engine io_uring --destroy-data"
	[psync1]="--tests randread --rand-bs 4k --rand-ops @P@ --iodepth 1 --engine psync"
)
declare -A FIO_ARGS=(
	[randread32]="--rw=randread --bs=4k --iodepth=32 --ioengine=io_uring --number_ios=@R@ --norandommap --randrepeat=0"
	[randread32b]="--rw=randread --bs=4k --iodepth=32 --ioengine=io_uring --number_ios=@R@ --norandommap --randrepeat=0 --iodepth_batch_submit=32"
	[seqread16]="--rw=read --bs=1m --iodepth=16 --ioengine=io_uring"
	[seqwrite16]="--rw=write --bs=1m --iodepth=16 --ioengine=io_uring --end_fsync=1 --fallocate=none --refill_buffers"
	[psync1]="--rw=randread --bs=4k --iodepth=1 --ioengine=psync --number_ios=@P@ --norandommap --randrepeat=0"
)
TESTS=(seqwrite16 seqread16 randread32 randread32b psync1)

# The untimed read before a sequential read (unless -U).
prime() {
	local path=$1 test=$2
	[ "$PRIME" = 1 ] && [ "$test" = seqread16 ] || return 0
	fio --name=prime --filename="$path" --size="$BYTES" --direct=1 \
		--rw=read --bs=1m --iodepth=16 --ioengine=io_uring \
		--output-format=terse >/dev/null 2>"$WORK/fio.log" ||
		die "the untimed read of $path failed: $(tail -n3 "$WORK/fio.log")"
}

# ops_args ARGS REPEAT: the options with the request counts put in (@R@
# the random reads' at depth 32, @P@ those at depth 1; BASE_OPS for both
# in the set-up's run, repeat 0).
ops_args() {
	local a=$1
	if [ "$2" = 0 ]; then
		a=${a//@R@/$BASE_OPS}
		a=${a//@P@/$BASE_OPS}
	else
		a=${a//@R@/$RAND_OPS}
		a=${a//@P@/$PSYNC_OPS}
	fi
	printf '%s\n' "$a"
}

# counting FILE: the prefix that counts a run's system calls into FILE
# (perf stat), none with -K or without perf.
counting() {
	[ "$COUNT" = 1 ] || return 0
	printf '%s\n' perf stat -x, -e raw_syscalls:sys_enter -o "$1"
}

# run_clyde / run_fio TARGET PATH TEST REPEAT: one timed run (under perf
# stat, which counts its calls); REPEAT 0 is the small untimed run whose
# calls are the set-up's (see "system calls per request" above).
run_clyde() {
	local tname=$1 path=$2 test=$3 rep=$4 out size=$BYTES args pre
	args=${CLYDE_ARGS[$test]}
	[ "$rep" = 0 ] || prime "$path" "$test"
	out=$WORK/clyde-$tname-$test-$rep.json
	if [ "$rep" = 0 ]; then
		[[ $test != seq* ]] || size=$BASE_BYTES
	fi
	args=$(ops_args "$args" "$rep")
	mapfile -t pre < <(counting "$out.perf")
	# shellcheck disable=SC2086 # the options are split on purpose
	"${pre[@]}" "$CLYDE_BIN" dev "$path" --size "$size" $args -q \
		--no-save --json "$out" >"$WORK/clyde.log" 2>&1 ||
		die "clyde dev $path $args failed: $(tail -n3 "$WORK/clyde.log")"
	printf 'clyde\t%s\t%s\t%s\t%s\n' "$tname" "$test" "$rep" "$out" >>"$TSV"
}

run_fio() {
	local tname=$1 path=$2 test=$3 rep=$4 out size=$BYTES args pre
	args=${FIO_ARGS[$test]}
	[ "$rep" = 0 ] || prime "$path" "$test"
	out=$WORK/fio-$tname-$test-$rep.json
	if [ "$rep" = 0 ]; then
		[[ $test != seq* ]] || size=$BASE_BYTES
	fi
	args=$(ops_args "$args" "$rep")
	mapfile -t pre < <(counting "$out.perf")
	# shellcheck disable=SC2086 # the options are split on purpose
	"${pre[@]}" fio --name="$test" --filename="$path" --size="$size" --direct=1 \
		$args $FIO_MEM --output-format=json >"$out" 2>"$WORK/fio.log" ||
		die "fio $args on $path failed: $(tail -n3 "$WORK/fio.log")"
	printf 'fio\t%s\t%s\t%s\t%s\n' "$tname" "$test" "$rep" "$out" >>"$TSV"
}

# Fill every target once, untimed.
for t in "${TARGETS[@]}"; do
	fio --name=fill --filename="${t#*:}" --size="$BYTES" --direct=1 --rw=write \
		--bs=1m --iodepth=16 --ioengine=io_uring --end_fsync=1 \
		--fallocate=none --output-format=terse >/dev/null 2>"$WORK/fio.log" ||
		die "filling ${t#*:} failed: $(tail -n3 "$WORK/fio.log")"
done

# The set-up's calls: each tool's run of each test at a small size, once,
# untimed (its figures are not in the tables).
if [ "$COUNT" = 1 ]; then
	for t in "${TARGETS[@]}"; do
		for test in "${TESTS[@]}"; do
			run_clyde "${t%%:*}" "${t#*:}" "$test" 0
			run_fio "${t%%:*}" "${t#*:}" "$test" 0
		done
	done
fi

start=$(date +%s)
for rep in $(seq 1 "$REPEATS"); do
	echo "repeat $rep/$REPEATS ..." >&2
	for t in "${TARGETS[@]}"; do
		for test in "${TESTS[@]}"; do
			if [ $((rep % 2)) -eq 1 ]; then
				run_clyde "${t%%:*}" "${t#*:}" "$test" "$rep"
				run_fio "${t%%:*}" "${t#*:}" "$test" "$rep"
			else
				run_fio "${t%%:*}" "${t#*:}" "$test" "$rep"
				run_clyde "${t%%:*}" "${t#*:}" "$test" "$rep"
			fi
		done
	done
done
echo "($(($(date +%s) - start)) s of measuring)" >&2

[ -z "$OUTDIR" ] || { mkdir -p "$OUTDIR" && cp "$WORK"/*.json "$TSV" "$OUTDIR"/ &&
	{ [ "$COUNT" = 0 ] || cp "$WORK"/*.perf "$OUTDIR"/; }; }

BENCH=$here CLYDE_BIN=$CLYDE_BIN python3 - "$TSV" <<'EOF'
import json, os, statistics, sys
sys.path.insert(0, os.environ["BENCH"])
import verdict as V
from opcost import perf_calls
DECIDE = V.find_decide(os.environ["CLYDE_BIN"])

MIB = 1 << 20
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
# (target, metric) -> side -> repeat -> value
vals = {}
small = []  # clyde runs whose buffers were not the pool's huge pages, as fio's
depth = {}  # target -> side -> [randread32 queue fill per repeat]
batch = {}  # target -> side -> [randread32b: clyde submit_mean, fio % of calls of 1-4]

def spread(v, fmt):
	"""'median M (lo-hi)' of the repeats' values, each as fmt."""
	if not v:
		return "not recorded"
	return ("median " + fmt + " (" + fmt + "-" + fmt + ")") % (statistics.median(v), min(v), max(v))

def unlike(target):
	"""The batched row does not compare batches: fio handed 1-4 requests
	in most of its submitting calls while clyde handed more than 4."""
	b = batch.get(target, {})
	c, f = b.get("clyde"), b.get("fio")
	return bool(c and f) and statistics.median(f) > 50 and statistics.median(c) > 4

def put(target, metric, side, rep, v):
	vals.setdefault((target, metric), {"clyde": {}, "fio": {}})[side][rep] = v

base = {}  # (side, target, test) -> (calls, requests) of the set-up's run
opcost = {}  # (target, test, side) -> [(user us, system us, calls or None) per request]
for side, target, test, rep, path in sorted(rows, key=lambda r: int(r[3])):
	rep = int(rep)
	d = json.load(open(path))
	calls = perf_calls(path + ".perf")
	if side == "clyde":
		t = d["runs"][0]["tests"][0]
		if rep and test.startswith("seq") and d["config"].get("buffer_pages") != "hugetlb":
			small.append("%s %s %d" % (target, test, rep))
		ops, cpu = t["ops"], t["cpu_user_ns"] + t["cpu_sys_ns"]
		usr, sys_ = t["cpu_user_ns"], t["cpu_sys_ns"]
		iops, mibs = t["iops"], t["bytes_per_s"] / MIB
	else:
		j = d["jobs"][0]
		io = j["write"] if test.startswith("seqwrite") else j["read"]
		ops = io["total_ios"]
		cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6
		usr = j["usr_cpu"] / 100 * j["job_runtime"] * 1e6
		sys_ = j["sys_cpu"] / 100 * j["job_runtime"] * 1e6
		iops, mibs = io["iops"], io["bw_bytes"] / MIB
	if rep == 0:
		base[(side, target, test)] = (calls, ops)
		continue
	if ops:
		b = base.get((side, target, test))
		per = None
		if calls is not None and b and b[0] is not None and ops > b[1]:
			per = (calls - b[0]) / (ops - b[1])
		opcost.setdefault((target, test, side), []).append((usr / 1e3 / ops, sys_ / 1e3 / ops, per))
	if test in ("randread32", "randread32b", "psync1"):
		put(target, test, side, rep, iops)
	else:
		put(target, test, side, rep, mibs)
	if test == "randread32" and ops:
		put(target, "cpu32", side, rep, cpu / ops / 1e3)
	# How full each kept the queue at depth 32: clyde's measured mean in
	# flight (null in results from before it existed), fio's share of
	# submissions that found 32 in flight.
	# What "batches of 32" came to: clyde's requests a submitting call
	# (submit_mean, from the engine's count), fio's share of submitting
	# calls that handed it 1-4 requests (iodepth_submit's bucket "4").
	if test == "randread32b":
		if side == "clyde" and t.get("submit_mean") is not None:
			batch.setdefault(target, {}).setdefault("clyde", []).append(t["submit_mean"])
		elif side == "fio":
			batch.setdefault(target, {}).setdefault("fio", []).append(j["iodepth_submit"].get("4", 0.0))
	if test == "randread32":
		if side == "clyde" and t.get("inflight_mean") is not None:
			depth.setdefault(target, {}).setdefault("clyde", []).append(t["inflight_mean"])
		elif side == "fio":
			depth.setdefault(target, {}).setdefault("fio", []).append(j["iodepth_level"].get("32", 0.0))

METRICS = [
	("randread32", "randread 4k d32 io_uring  IOPS", ">=0.95", lambda r: r >= 0.95),
	("randread32b", "randread 4k d32 batches of 32 IOPS", ">=0.95", lambda r: r >= 0.95),
	("seqread16", "seqread 1m d16 io_uring  MiB/s", ">=0.95", lambda r: r >= 0.95),
	("seqwrite16", "seqwrite 1m d16 io_uring MiB/s (fio --refill_buffers)", ">=0.95", lambda r: r >= 0.95),
	("psync1", "randread 4k d1 psync      IOPS", "0.9-1.1", lambda r: 0.9 <= r <= 1.1),
	("cpu32", "CPU per I/O at d32          us", "<=1.2", lambda r: r <= 1.2),
]
targets = []
for side, target, *_ in rows:
	if target not in targets:
		targets.append(target)
for target in targets:
	n = len(vals[(target, "randread32")]["clyde"])
	print("== %s (medians of %d interleaved repeats; ratio = clyde/fio)"
	      % (target, n))
	print("%-32s %11s %11s %7s %-11s %-8s %s" % ("metric", "clyde", "fio",
	      "ratio", "per-repeat", "target", "verdict"))
	for key, label, want, okf in METRICS:
		if (target, key) not in vals:
			continue
		c, f = vals[(target, key)]["clyde"], vals[(target, key)]["fio"]
		mc = statistics.median(c.values())
		mf = statistics.median(f.values())
		ratio = mc / mf if mf else float("nan")
		pr = [c[r] / f[r] for r in sorted(c) if r in f and f[r]]
		# ok or MISSED only when the pairs decide it (bench/verdict.py).
		reps = [r for r in sorted(c) if r in f and f[r] > 0 and c[r] > 0]
		verdict = V.label(V.judge(want, [c[r] for r in reps], [f[r] for r in reps],
					  None, DECIDE)) if reps else "-"
		if key == "randread32b" and unlike(target):
			want, verdict = "-", "not like for like (note below)"
		print("%-32s %11.2f %11.2f %7.3f %-11s %-8s %s" % (label, mc, mf,
		      ratio, "%.2f-%.2f" % (min(pr), max(pr)) if pr else "-",
		      want, verdict))
	# The cost of each row's request, both sides: CPU user and system
	# microseconds and system calls (medians of the repeats).
	for key, label, want, okf in METRICS:
		if key == "cpu32" or (target, key) not in vals:
			continue
		fig = []
		for side in ("clyde", "fio"):
			v = opcost.get((target, key, side), [])
			for i, fmt in ((0, "%.2f"), (1, "%.2f"), (2, "%.3f")):
				x = [e[i] for e in v if e[i] is not None]
				fig.append(fmt % statistics.median(x) if x else "-")
		print("%-32s us/op %s" % (label, " ".join(fig)))
	b, d = batch.get(target, {}), depth.get(target, {})
	if b.get("clyde") or b.get("fio"):
		print("note: batches of 32, requests a submitting call: clyde (submit_mean) %s; "
		      "fio: 1-4 requests in %s of its submitting calls (iodepth_submit)%s"
		      % (spread(b.get("clyde"), "%.2f"), spread(b.get("fio"), "%.1f%%"),
		         ": fio's --iodepth_batch_submit=32 groups its first fill only, then each refill goes as"
		         " its reap allows, so the row compares batches with one at a time" if unlike(target) else ""))
	if d.get("clyde") or d.get("fio"):
		print("note: mean in flight at d32, clyde (inflight_mean, of 32): %s; "
		      "fio submissions that found 32 in flight: %s"
		      % (spread(d.get("clyde"), "%.2f"), spread(d.get("fio"), "%.1f%%")))
	print()
print("us/op lines: each row's cost per request, medians of the repeats: clyde's CPU user and system"
      " microseconds (its JSON: the thread that ran the requests) and system calls, then fio's (its job's"
      " usr_cpu and sys_cpu of job_runtime) and system calls; the calls are every thread's of the process"
      " (perf stat -e raw_syscalls:sys_enter around the timed run) less those of a run of 64 requests"
      " (16 MiB for the sequential rows), over the requests more; '-' where not counted (-K, no perf)")
if small:
	print("note: clyde's buffers were not the pool's huge pages in: " + ", ".join(small))
EOF

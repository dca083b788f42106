#!/usr/bin/env bash
#
# mpi_fio.sh: clyde-mpi with 4 ranks on one host against fio numjobs=4 on
# the same pattern, and against `clyde -c 4` in one process; medians of
# interleaved repeats and their ratios.  A benchmark, not a test.
#
# Usage: bench/mpi_fio.sh [options] DIR [SIZE]
#
#   DIR    directory on the filesystem under test (everything goes below
#          it and is removed)
#   SIZE   per worker (rank, fio job), clyde -s syntax (default 256m)
#
#   -n N   repeats (default 6); the three sides run in a rotating order,
#          so a multiple of 3 puts each side in each place equally often
#   -N     leave fio's buffers in ordinary pages (see below)
#   -b DIR the build directory with clyde and clyde-mpi (default: build/
#          next to this script)
#   -o DIR keep every raw JSON in DIR
#
# The pattern: 1 MiB blocks with O_DIRECT, a file per worker, written then
# read back.
#   clyde-mpi: mpirun -np 4 clyde-mpi run -d DIR/mpi-r%r -s SIZE:1024k:256 -D
#              -f -n 0; put_block and get_block (rate = all ranks' bytes
#              over the last end minus the first start, on rank 0's clock)
#   clyde -c 4: clyde run -c 4 -d DIR/c4 -s SIZE:1024k:256 -D -f -n 0
#   fio:       rw=write then rw=read, bs=1m, direct=1, numjobs=4,
#              ioengine=psync, end_fsync=1, fallocate=none,
#              group_reporting (the group's bandwidth: all jobs' bytes
#              over the group's run time).  Between them fio replays
#              clyde's rewrite (a read pass, then a write pass over the
#              same files), since on some machines a read's speed depends
#              on what came just before it (bench/fio_compare.sh).
# clyde also runs 256 random seeks after the read (not compared).
# As root both sides' 1 MiB buffers are huge pages from the pool
# (bench/hugepages.sh adds pages for the run): clyde takes the pool's first
# (src/io/iobuf.h), fio is given them with --mem=shmhuge; so both hand the
# disk whole 1 MiB requests from the same kind of memory.  With -N, or
# when not root, fio keeps ordinary pages (its requests may be split) and
# clyde falls back to transparent huge pages.
#
# Targets (issue 13): clyde-mpi / fio >= 0.9; clyde-mpi / clyde -c 4 within
# 0.9-1.1.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}

REPEATS=6
HUGE=1
# clyde's seeks are not compared: few, so that they cost little time.
SEEKS=256
BUILD=$(cd "$(dirname "$0")/.." && pwd)/build
OUTDIR=
while getopts 'n:b:o:Nh' opt; do
	case $opt in
	n) REPEATS=$OPTARG ;;
	b) BUILD=$OPTARG ;;
	o) OUTDIR=$OPTARG ;;
	N) HUGE=0 ;;
	h) usage 0 ;;
	*) usage 2 >&2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 && $# -le 2 ]] || usage 2 >&2
DIR=$1
SIZE=${2:-256m}

die() {
	echo "mpi_fio: $*" >&2
	exit 1
}

[[ $REPEATS =~ ^[1-9][0-9]*$ ]] || die "-n must be a positive integer"
[ -d "$DIR" ] || die "$DIR is not a directory"
for c in fio mpirun python3; do
	command -v "$c" >/dev/null || die "$c not found"
done
[[ -x $BUILD/clyde && -x $BUILD/clyde-mpi ]] ||
	die "no clyde and clyde-mpi in $BUILD (-b)"

# shellcheck source=bench/hugepages.sh
. "$(dirname "$0")/hugepages.sh"
W=$(mktemp -d "$DIR/mpi_fio.XXXXXX")
trap 'rm -rf "$W"; huge_restore' EXIT
if [ "$HUGE" = 1 ]; then
	huge_setup 4
	if [ -n "$FIO_MEM" ]; then
		echo "buffers: the pool's huge pages, clyde's and fio's ($FIO_MEM)" >&2
	else
		echo "buffers: fio's ordinary pages ($HUGE_WHY)" >&2
	fi
else
	echo "fio's buffers: ordinary pages (-N)" >&2
fi
OUT=${OUTDIR:-$W/json}
mkdir -p "$OUT" "$W/fio" "$W/c4"

# fio wants a size it understands: MiB for a bare number, as clyde.
fio_size=$SIZE
[[ $fio_size =~ ^[0-9]+$ ]] && fio_size=${fio_size}m

run_fio() {
	local i=$1 rw name
	# write, then clyde's rewrite replayed (a read pass and a write pass
	# over the same files), then the read that is compared.
	for rw in write read:rr write:rw read; do
		name=${rw%%:*}
		fio --name="$name" --directory="$W/fio" --rw="${rw%%:*}" \
			--bs=1m --size="$fio_size" --numjobs=4 --direct=1 \
			--ioengine=psync --end_fsync=1 --fallocate=none \
			--invalidate=1 --group_reporting $FIO_MEM --output-format=json \
			>"$OUT/fio-${rw/:/-}.$i.json"
	done
	rm -f "$W/fio"/*
}

run_mpi() {
	mpirun --allow-run-as-root --oversubscribe -np 4 "$BUILD/clyde-mpi" \
		run -d "$W/mpi-r%r" -s "$SIZE:1024k:$SEEKS" -D -f -n 0 -q --no-save \
		--json "$OUT/mpi.$1.json" >/dev/null
}

run_c4() {
	"$BUILD/clyde" run -c 4 -d "$W/c4" -s "$SIZE:1024k:$SEEKS" -D -f -n 0 -q \
		--no-save --json "$OUT/c4.$1.json" >/dev/null
}

sides=(fio mpi c4)
for ((i = 1; i <= REPEATS; i++)); do
	for ((k = 0; k < 3; k++)); do
		s=${sides[$(((i + k) % 3))]}
		echo "repeat $i/$REPEATS: $s" >&2
		"run_$s" "$i"
	done
done

python3 - "$OUT" "$REPEATS" <<'PY'
import json, statistics, sys, os, platform
out, n = sys.argv[1], int(sys.argv[2])
def clyde(kind, i, test):
    d = json.load(open(os.path.join(out, f"{kind}.{i}.json")))
    t = [t for t in d["runs"][0]["tests"] if t["name"] == test][0]
    return t["rate_per_s"]
def fio(rw, i):
    d = json.load(open(os.path.join(out, f"fio-{rw}.{i}.json")))
    return d["jobs"][0][rw]["bw_bytes"]
rows = []
for test, rw in (("put_block", "write"), ("get_block", "read")):
    m = [clyde("mpi", i, test) for i in range(1, n + 1)]
    c = [clyde("c4", i, test) for i in range(1, n + 1)]
    f = [fio(rw, i) for i in range(1, n + 1)]
    rf = [a / b for a, b in zip(m, f)]
    rc = [a / b for a, b in zip(m, c)]
    rows.append((test, statistics.median(m), statistics.median(c),
                 statistics.median(f), statistics.median(rf),
                 min(rf), max(rf), statistics.median(rc), min(rc), max(rc)))
print(f"machine: {platform.node()} {os.cpu_count()} CPUs, {n} interleaved repeats, medians in MiB/s")
print(f"{'test':10} {'mpi 4 ranks':>11} {'clyde -c 4':>10} {'fio nj=4':>9}"
      f" {'mpi/fio':>16} {'mpi/-c 4':>16}")
for t, m, c, f, rf, rfl, rfh, rc, rcl, rch in rows:
    mib = 1048576.0
    print(f"{t:10} {m / mib:11.1f} {c / mib:10.1f} {f / mib:9.1f}"
          f" {rf:5.3f} ({rfl:.2f}-{rfh:.2f}) {rc:5.3f} ({rcl:.2f}-{rch:.2f})")
PY

#!/usr/bin/env bash
#
# cost.sh: what clyde's work costs as it grows (issue 21, item 4): CPU per
# I/O and peak memory at queue depths 1, 32 and 256 with 1, 2 and 8
# workers, and CPU per operation and peak memory of the file tests at 16k,
# 128k and 1M files, next to fio's and mdtest's at the same points.
#
# Usage: bench/cost.sh [-q] [-d DIR] [-b CLYDE] [-M MDTEST] [-s SIZE_MIB]
#                      [-R OPS] [-r REPEATS] [-D "1 32 256"] [-W "1 2 8"]
#                      [-F "16 128 1024"] [-X IMAGE] [-o OUTDIR]
#
#   -q         quick: a check that it works, at tiny sizes (-s 16 -R 2048
#              -F "1 2"); its figures are not results
#   -d DIR     where the files go (default /var/tmp; not tmpfs: the I/O is
#              O_DIRECT); everything made there is removed at the end
#   -b CLYDE   the clyde binary (default: $CLYDE, else build-bench/clyde or
#              build/clyde next to this script, else clyde on PATH)
#   -M MDTEST  mdtest (default: $MDTEST, else mdtest on PATH; without it
#              the file tests run clyde alone)
#   -s MiB     the file of the I/O points (default 64; clyde writes,
#              rewrites and reads it at each point before its seeks)
#   -R OPS     random requests per I/O point, all workers together
#              (default 65536)
#   -r N       runs of each tool at each I/O point (default 3, quick 1),
#              the order alternating (odd repeats clyde first): the table
#              has the medians and the range of the per-repeat ratios.  At
#              depth 1 one run's CPU per I/O moved by a quarter from one run
#              of the bench to the next, the worst point with it (1.229 at
#              1 worker, 0.821 at 2; the run before: 0.825 and 1.033)
#   -D, -W     the depths and worker counts (default "1 32 256", "1 2 8")
#   -F LIST    file counts in units of 1024 (default "16 128 1024")
#   -X IMAGE   every file point's run (each tool's) on a fresh ext4 on a
#              loop device over a sparse IMAGE-sized file in DIR (e.g.
#              8g), made untimed before it and removed after, so that no
#              run's creates pay for the deletes of the run before it
#              (bench/freshfs.sh says why); root
#   -o OUTDIR  keep every JSON and /usr/bin/time record
#
# I/O points, each DEPTH x WORKERS, 4 KiB requests, O_DIRECT, io_uring
# (also at depth 1, so that only the depth changes):
#   clyde  clyde -s SIZE:4096:OPS:WORKERS -D -n 0 -f -r 0 --engine io_uring
#          --iodepth DEPTH: the seek test, WORKERS seekers sharing OPS
#          tickets, each a 4 KiB read and one time in ten a write-back.
#          CPU per I/O = the seek test's (cpu_user_ns + cpu_sys_ns) / its
#          I/Os (bytes / 4096), from clyde's JSON.
#   fio    --rw=randrw --rwmixread=90 --bs=4k --direct=1 --ioengine=io_uring
#          --iodepth=DEPTH --numjobs=WORKERS --thread --norandommap
#          --randrepeat=0 --io_size=ceil(1.1 OPS / WORKERS) x 4 KiB per job
#          on one file of SIZE (laid out once, untimed): the same I/O
#          count (--number_ios only caps a job, which stops at --size: 16,384
#          I/Os of a 64 MiB file against clyde's 36,045).  Both sides' counts
#          are checked by the device's counters (/sys/dev/block/M:N/stat,
#          reads + writes: clyde's seek test's own, from its JSON; fio's
#          around its run): the table prints them, and a point whose
#          medians differ by more than 5% is flagged (on a device others
#          use, their I/O is in both).  CPU per
#          I/O = the sum over jobs of (usr_cpu + sys_cpu) / 100 x
#          job_runtime, over all jobs' I/Os (fio's own per-thread figures).
# File points, N x 1024 empty files in one directory:
#   clyde  clyde -s 0 -n N:0:0 -r 0: CPU per operation of seq_create,
#          seq_stat and seq_del (their JSON cpu / ops).
#   mdtest mdtest -n N*1024 -F -C -T -r -i 1 (files only, one directory,
#          create, stat, remove), no mpirun: CPU per operation = (user +
#          sys of the process, from /usr/bin/time) minus that of a 16-file
#          run (start-up), over 3 x N*1024 operations.  mdtest times no
#          phase's CPU on its own, so this is one figure for the three.
# Peak memory is /usr/bin/time's maximum resident set (KiB) of each
# process; "flat" means it does not grow with the depth, the workers or
# the file count beyond the buffers the depth asks for.
#
# CPU time per operation depends less on the machine's other load than
# wall time does, but not at all only on the tool: a loaded machine adds
# cache misses and scheduling, so compare points of one run, not runs.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}
die() {
	echo "cost: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
QUICK=0
DIR=/var/tmp
CLYDE_BIN=${CLYDE:-}
MDTEST_BIN=${MDTEST:-}
SIZE=
OPS=
REPS=
DEPTHS="1 32 256"
WORKERS="1 2 8"
FILES=
OUTDIR=
FRESH=
while getopts 'qd:b:M:s:R:r:D:W:F:X:o:h' opt; do
	case $opt in
	q) QUICK=1 ;;
	d) DIR=$OPTARG ;;
	b) CLYDE_BIN=$OPTARG ;;
	M) MDTEST_BIN=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	R) OPS=$OPTARG ;;
	r) REPS=$OPTARG ;;
	D) DEPTHS=$OPTARG ;;
	W) WORKERS=$OPTARG ;;
	F) FILES=$OPTARG ;;
	X) FRESH=$OPTARG ;;
	o) OUTDIR=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 >&2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage 2 >&2
if [ "$QUICK" = 1 ]; then
	SIZE=${SIZE:-16}
	OPS=${OPS:-2048}
	REPS=${REPS:-1}
	FILES=${FILES:-1 2}
else
	SIZE=${SIZE:-64}
	OPS=${OPS:-65536}
	REPS=${REPS:-3}
	FILES=${FILES:-16 128 1024}
fi
[[ $SIZE =~ ^[1-9][0-9]*$ ]] || die "-s $SIZE: the size is a whole number of MiB (e.g. 256)"
[[ $OPS =~ ^[1-9][0-9]*$ ]] || die "-R $OPS: a positive number of requests"
[[ $REPS =~ ^[1-9][0-9]?$ ]] || die "-r $REPS: the repeats are a number 1-99"
for v in $DEPTHS; do
	[[ $v =~ ^[1-9][0-9]*$ && $v -le 1024 ]] || die "-D: $v is not a depth 1-1024"
done
for v in $WORKERS; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "-W: $v is not a positive worker count"
done
for v in $FILES; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "-F: $v is not a positive count of 1024 files"
done
[ -d "$DIR" ] || die "-d $DIR: not a directory"
[ "$(stat -f -c %T "$DIR")" != tmpfs ] || die "-d $DIR: on tmpfs (no O_DIRECT)"
[ -x /usr/bin/time ] || die "/usr/bin/time not found (apt-get install time)"
command -v fio >/dev/null || die "fio not found (apt-get install fio)"
command -v python3 >/dev/null || die "python3 not found"
if [ -z "$CLYDE_BIN" ]; then
	for c in "$here/../build-bench/clyde" "$here/../build/clyde"; do
		[ -x "$c" ] && CLYDE_BIN=$c && break
	done
	[ -n "$CLYDE_BIN" ] || CLYDE_BIN=$(command -v clyde || true)
fi
[[ -n $CLYDE_BIN && -x $CLYDE_BIN ]] || die "no clyde binary (build it, or give -b PATH)"
[ -n "$MDTEST_BIN" ] || MDTEST_BIN=$(command -v mdtest || true)
[ -z "$MDTEST_BIN" ] || [ -x "$MDTEST_BIN" ] || die "-M $MDTEST_BIN: not an executable"

# shellcheck source=bench/freshfs.sh
. "$here/freshfs.sh"
fresh_size_ok "$FRESH" ||
	die "-X $FRESH: the image size is a number with an optional k/m/g/t (e.g. 8g)"
WORK=$(mktemp -d "$DIR/cost.XXXXXX")
trap 'fresh_down; rm -rf -- "$WORK"' EXIT
trap 'exit 130' INT TERM
TSV=$WORK/points.tsv
: >"$TSV"
TIMEFMT='%e %U %S %M'

echo "cost: clyde $("$CLYDE_BIN" --version | head -n1) ($CLYDE_BIN), $(fio --version)${MDTEST_BIN:+, mdtest $MDTEST_BIN}"
echo "cost: I/O points ${SIZE} MiB file, $OPS requests, $REPS alternated repeats, depths $DEPTHS, workers $WORKERS; files x1024: $FILES; in $DIR${FRESH:+ (file points: a fresh $FRESH ext4 on a loop device there for every run)}"
echo "cost: load $(cut -d' ' -f1-3 /proc/loadavg) at start"

# fio's file, laid out once (untimed), so that no point allocates.
FIOFILE=$WORK/fio.data
fio --name=layout --filename="$FIOFILE" --size="${SIZE}m" --rw=write --bs=1m \
	--direct=1 --ioengine=psync --output-format=json >/dev/null ||
	die "fio could not lay out $FIOFILE"

# The device under DIR, whose counters check both sides' I/O counts.
DEVSTAT=
devno=$(stat -c '%d' "$WORK")
if [ -r "/sys/dev/block/$(((devno >> 8) & 0xfff)):$(((devno & 0xff) | ((devno >> 12) & 0xfff00)))/stat" ]; then
	DEVSTAT=/sys/dev/block/$(((devno >> 8) & 0xfff)):$(((devno & 0xff) | ((devno >> 12) & 0xfff00)))/stat
fi
# devios: the device's requests so far (reads + writes), 0 without one.
devios() {
	local s
	if [ -z "$DEVSTAT" ]; then
		echo 0
		return
	fi
	read -r -a s <"$DEVSTAT"
	echo $((s[0] + s[4]))
}

# io_clyde / io_fio DEPTH WORKERS REPEAT: one run at an I/O point.
io_clyde() {
	local d=$1 w=$2 r=$3 p=$WORK/clyde-d$1-w$2-r$3 i0
	i0=$(devios)
	/usr/bin/time -f "$TIMEFMT" -o "$p.time" \
		"$CLYDE_BIN" -d "$WORK" -s "$SIZE:4096:$OPS:$w" -D -n 0 -f -r 0 \
		-q --no-save --engine io_uring --iodepth "$d" --json "$p.json" \
		>"$p.log" 2>&1 ||
		die "clyde failed at depth $d, $w workers: $(tail -n 3 "$p.log")"
	printf 'io\tclyde\t%s\t%s\t%s\t%s\t%s\t%s\n' "$d" "$w" "$p.json" "$p.time" "$r" $(($(devios) - i0)) >>"$TSV"
}
io_fio() {
	local d=$1 w=$2 r=$3 p=$WORK/fio-d$1-w$2-r$3 i0
	local n=$(((OPS * 11 + 10 * w - 1) / (10 * w)))
	i0=$(devios)
	/usr/bin/time -f "$TIMEFMT" -o "$p.time" \
		fio --name=cost --filename="$FIOFILE" --size="${SIZE}m" --direct=1 \
		--rw=randrw --rwmixread=90 --bs=4k --ioengine=io_uring \
		--iodepth="$d" --numjobs="$w" --thread --norandommap --randrepeat=0 \
		--io_size=$((n * 4096)) --output-format=json >"$p.json" ||
		die "fio failed at depth $d, $w workers (see $p.json)"
	printf 'io\tfio\t%s\t%s\t%s\t%s\t%s\t%s\n' "$d" "$w" "$p.json" "$p.time" "$r" $(($(devios) - i0)) >>"$TSV"
}
for d in $DEPTHS; do
	for w in $WORKERS; do
		echo "point depth $d workers $w ..." >&2
		for ((r = 1; r <= REPS; r++)); do
			if ((r % 2)); then
				io_clyde "$d" "$w" "$r"
				io_fio "$d" "$w" "$r"
			else
				io_fio "$d" "$w" "$r"
				io_clyde "$d" "$w" "$r"
			fi
		done
	done
done
rm -f "$FIOFILE"

# fdir FILES: where the next file run goes (FD): $WORK, or with -X a fresh
# filesystem for FILES x 1024 files (fresh_down after the run).
fdir() {
	fresh_place "$FRESH" "$DIR" $(($1 * 1024 + 65536)) "$WORK" || die "-X: no fresh filesystem"
	FD=$FRESH_DIR
}
if [ -n "$MDTEST_BIN" ]; then
	fdir 1
	mkdir "$FD/md0"
	/usr/bin/time -f "$TIMEFMT" -o "$WORK/mdtest-base.time" \
		"$MDTEST_BIN" -n 16 -F -C -T -r -i 1 -d "$FD/md0" >"$WORK/mdtest-base.txt" 2>&1 ||
		die "mdtest failed: $(tail -n 3 "$WORK/mdtest-base.txt")"
	rm -rf "$FD/md0"
	fresh_down
fi
for f in $FILES; do
	echo "point $f x 1024 files ..." >&2
	j=$WORK/clyde-n$f.json
	fdir "$f"
	/usr/bin/time -f "$TIMEFMT" -o "$WORK/clyde-n$f.time" \
		"$CLYDE_BIN" -d "$FD" -s 0 -n "$f:0:0" -r 0 -q --no-save --json "$j" \
		>"$WORK/clyde-n$f.log" 2>&1 ||
		die "clyde failed at $f x 1024 files: $(tail -n 3 "$WORK/clyde-n$f.log")"
	fresh_down
	printf 'md\tclyde\t%s\t-\t%s\t%s\t1\t0\n' "$f" "$j" "$WORK/clyde-n$f.time" >>"$TSV"
	if [ -n "$MDTEST_BIN" ]; then
		fdir "$f"
		mkdir "$FD/md"
		/usr/bin/time -f "$TIMEFMT" -o "$WORK/mdtest-n$f.time" \
			"$MDTEST_BIN" -n $((f * 1024)) -F -C -T -r -i 1 -d "$FD/md" \
			>"$WORK/mdtest-n$f.txt" 2>&1 ||
			die "mdtest failed at $f x 1024 files: $(tail -n 3 "$WORK/mdtest-n$f.txt")"
		rm -rf "$FD/md"
		fresh_down
		printf 'md\tmdtest\t%s\t-\t%s\t%s\t1\t0\n' "$f" "$WORK/mdtest-n$f.txt" "$WORK/mdtest-n$f.time" >>"$TSV"
	fi
done
echo "cost: load $(cut -d' ' -f1-3 /proc/loadavg) at end"
if [ -n "$OUTDIR" ]; then
	mkdir -p "$OUTDIR"
	cp "$WORK"/*.json "$WORK"/*.time "$TSV" "$OUTDIR"/
	for t in "$WORK"/*.txt; do
		[ ! -e "$t" ] || cp "$t" "$OUTDIR"/
	done
fi

python3 - "$TSV" "$WORK/mdtest-base.time" <<'PY'
import json, os, statistics, sys

rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]

def rtime(p):
    e, u, s, m = open(p).read().split()[-4:]
    return float(u) + float(s), int(m)

io, md = {}, {}
iorep = {}  # (depth, workers, tool) -> {repeat: (us, rss, ios)}
devn = {}  # (depth, workers, tool) -> [device requests per repeat]
for kind, tool, a, b, path, tpath, rep, dios in rows:
    cpu_s, rss = rtime(tpath)
    if kind == "io":
        d = json.load(open(path))
        if tool == "clyde":
            t = [t for t in d["runs"][0]["tests"] if t["name"] == "seeks"][0]
            ios = t["bytes"] / 4096
            us = (t["cpu_user_ns"] + t["cpu_sys_ns"]) / 1e3 / ios
            # The seek test's own window of the device's counters (the
            # run's block write, rewrite and read before it are not the
            # point's work).
            dv = t.get("device") or {}
            dios = dv.get("read_ios", 0) + dv.get("write_ios", 0)
        else:
            ios = sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in d["jobs"])
            us = sum((j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e3
                     for j in d["jobs"]) / ios
        iorep.setdefault((int(a), int(b), tool), {})[int(rep)] = (us, rss, ios)
        devn.setdefault((int(a), int(b), tool), []).append(int(dios))
    else:
        n = int(a) * 1024
        if tool == "clyde":
            tests = {t["name"]: t for t in json.load(open(path))["runs"][0]["tests"]}
            per = {}
            for k in ("seq_create", "seq_stat", "seq_del"):
                t = tests[k]
                per[k] = (t["cpu_user_ns"] + t["cpu_sys_ns"]) / 1e3 / t["ops"]
            tot = sum((tests[k]["cpu_user_ns"] + tests[k]["cpu_sys_ns"]) / 1e3
                      for k in per) / sum(tests[k]["ops"] for k in per)
            md[(int(a), tool)] = (per, tot, rss)
        else:
            base = rtime(sys.argv[2])[0] if os.path.exists(sys.argv[2]) else 0.0
            md[(int(a), tool)] = (None, max(cpu_s - base, 0.0) * 1e6 / (3 * n), rss)

# Each tool's median CPU per I/O over its repeats, its largest RSS.
for k, reps in iorep.items():
    io[k] = (statistics.median(v[0] for v in reps.values()),
             max(v[1] for v in reps.values()))
nrep = max((len(v) for v in iorep.values()), default=0)
print("I/O: CPU us per I/O (4 KiB, O_DIRECT, io_uring, randread + 10%% write-back) and peak RSS;"
      " medians of %d alternated repeats" % nrep)
print("%5s %7s %10s %10s %7s %-11s %11s %11s" % ("depth", "workers", "clyde us", "fio us",
      "ratio", "per-repeat", "clyde KiB", "fio KiB"))
for (d, w, tool) in sorted(k for k in io if k[2] == "clyde"):
    c = io[(d, w, "clyde")]
    f = io.get((d, w, "fio"))
    cr, fr = iorep[(d, w, "clyde")], iorep.get((d, w, "fio"), {})
    pr = [cr[r][0] / fr[r][0] for r in sorted(cr) if r in fr and fr[r][0]]
    print("%5d %7d %10.2f %10s %7s %-11s %11d %11s" % (d, w, c[0],
          "%.2f" % f[0] if f else "-", "%.3f" % (c[0] / f[0]) if f and f[0] else "-",
          "%.2f-%.2f" % (min(pr), max(pr)) if pr else "-",
          c[1], f[1] if f else "-"))
# The same work on both sides: the tools' own I/O counts and the device's
# requests during each run (medians over the repeats).
print("I/O counts (medians): the tool's own, and the device's requests (clyde: during its seek test,"
      " from its JSON; fio: around the run); on a shared device the latter count others' I/O too")
print("%5s %7s %10s %10s %11s %11s %s" % ("depth", "workers", "clyde", "fio",
      "clyde dev", "fio dev", "same work"))
for (d, w, tool) in sorted(k for k in io if k[2] == "clyde"):
    ci = statistics.median(v[2] for v in iorep[(d, w, "clyde")].values())
    fo = iorep.get((d, w, "fio"), {})
    fi = statistics.median(v[2] for v in fo.values()) if fo else 0
    cd = statistics.median(devn[(d, w, "clyde")])
    fd = statistics.median(devn.get((d, w, "fio"), [0]))
    own = fi and abs(ci / fi - 1) <= 0.05
    dev = cd and fd and abs(cd / fd - 1) <= 0.05
    print("%5d %7d %10d %10d %11d %11d %s" % (d, w, ci, fi, cd, fd,
          ("yes" if own else "NO: the tools' counts differ by more than 5%") +
          ("" if dev else "; the device's differ by more than 5% (others' I/O?)")))
worst = max((io[(d, w, "clyde")][0] / io[(d, w, "fio")][0]
             for (d, w, t) in io if t == "clyde" and (d, w, "fio") in io
             and io[(d, w, "fio")][0]), default=None)
if worst is not None:
    print("worst clyde/fio CPU per I/O: %.3f (target <= 1.0 at every point: %s)"
          % (worst, "met" if worst <= 1.0 else "NOT met"))
print()
print("files: CPU us per operation and peak RSS (N x 1024 empty files, one directory)")
print("%6s %9s %9s %9s %11s %11s %7s %11s %11s" % ("files", "create", "stat", "remove",
      "clyde all", "mdtest all", "ratio", "clyde KiB", "mdtest KiB"))
for f in sorted({k[0] for k in md}):
    c = md.get((f, "clyde"))
    m = md.get((f, "mdtest"))
    print("%5dk %9.2f %9.2f %9.2f %11.2f %11s %7s %11d %11s" % (f,
          c[0]["seq_create"], c[0]["seq_stat"], c[0]["seq_del"], c[1],
          "%.2f" % m[1] if m else "-", "%.3f" % (c[1] / m[1]) if m and m[1] else "-",
          c[2], m[2] if m else "-"))
print("clyde: each test's own CPU (JSON); mdtest: the process's CPU less a 16-file run's, "
      "over its 3 phases' operations; RSS: /usr/bin/time's maximum resident set")
PY

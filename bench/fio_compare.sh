#!/usr/bin/env bash
#
# fio_compare.sh: clyde's block write, block read and random seeks next to
# fio, on the same directory, in the same invocation, with ratios.
#
# Usage: bench/fio_compare.sh [options] DIR [SIZE]
#
#   DIR    directory on the filesystem under test (clyde's scratch directory
#          and fio's file both go in it; both are removed at the end)
#   SIZE   file size for both tools, clyde -s syntax: MiB or a k/m/g/t
#          suffix (default 1g).  Pick a size that gives each test a few
#          seconds.
#
#   -n N       repeat each clyde/fio pair N times (default 3)
#   -U MAX     then, while a metric's per-repeat ratios span its target
#              and the pairs do not decide it (bench/verdict.py: clyde's
#              until-decided rule, bench_decide), run another pair, up to
#              MAX pairs in all; the verdict says how many it took
#   -K         do not count system calls (the separate short strace run
#              below)
#   -S SEEKS   clyde's seek count (default 65536; bonnie++'s 8192 is too
#              short to give a stable rate)
#   -c CHUNK   chunk in bytes for both tools (default 8192, clyde's default)
#   -j N       seekers = fio numjobs (default 5, clyde's default)
#   -b PATH    the clyde binary (default: $CLYDE, else build-bench/clyde or
#              build/clyde next to this script, else clyde on PATH)
#   -o OUTDIR  keep every raw JSON (clyde's and fio's) in OUTDIR
#   -F 'OPTS'  extra fio options for all fio jobs (experiments, e.g.
#              -F '--fadvise_hint=1' to see fio's own default)
#   -R         do not replay clyde's rewrite pass on fio's file before fio's
#              read (see "block read" below; shows the order effect)
#   -D         direct I/O on both sides: clyde -D (O_DIRECT on its block
#              and seek tests; per-char skipped as -f does) and fio
#              --direct=1 on every job (issue 21's "direct 8k block
#              write / read vs fio psync"); the page-cache residency is
#              then not the evidence, the device bytes are
#
# Each repeat runs clyde once (-s SIZE:CHUNK:SEEKS:SEEKERS -n 0 -f -r 0
# --json; put_block, rewrite, get_block, seeks) and three fio jobs; the
# order alternates (odd repeats clyde first, even repeats fio first) so a
# drift of the shared machine does not favour one side.  Needs fio and
# python3; root is not needed, but without it the device counters of some
# block devices may be unreadable (they are then shown as "-").
#
# The mapping, metric by metric:
#
# block write   clyde put_block: unlink, create, SIZE/CHUNK pwrite()s of
#               CHUNK bytes, fsync, close; rate = bytes / elapsed.
#               fio: rw=write bs=CHUNK size=SIZE ioengine=psync end_fsync=1
#               on a file removed just before (clyde recreates its file too),
#               fallocate=none (clyde does not preallocate; fio's default
#               fallocate=native lays the file out first, and on ext4 a
#               write into allocated, unwritten extents is cheaper than one
#               that allocates and extends the file: fio's own direct 8 KiB
#               write took 3-26% less system CPU with it in 6 of 6 rounds on a
#               loop-mounted ext4 (its rate: within noise, 0.64-1.70),
#               issue 35; with none fio creates the file empty, neither
#               fallocate nor ftruncate, and appends from 0 as clyde does,
#               strace shows), fadvise_hint=0 (clyde gives no access hint).
#               fio counts the end_fsync in the job's runtime (backend.c:
#               do_io() syncs before thread_main() updates the runtime), as
#               clyde counts its fsync.
# block read    clyde get_block after its fsync + POSIX_FADV_DONTNEED
#               (residency printed); rate = bytes / elapsed.
#               fio: rw=read invalidate=1 (fio's DONTNEED at open; the file
#               is clean after end_fsync, so it does drop it) fadvise_hint=0
#               (fio's default hint, POSIX_FADV_SEQUENTIAL, doubles the
#               kernel's read-ahead window, which clyde does not ask for).
#               The bytes the device read during each side are printed as
#               evidence that both read cold data.
#               Order matters: clyde's get_block comes after its rewrite,
#               which read every chunk and wrote it back in place.  On some
#               machines (the VM of docs/benchmarks-history.md) a cold read's speed
#               depends on what happened just before it: right after a
#               read-filled page cache of the same size was evicted it ran
#               2-3 times faster than after a write, at the same device
#               bytes and request size.  So before fio's read the script
#               replays the rewrite on fio's file: a fio read pass
#               (invalidate=1) then a fio write pass
#               over the existing file into the pages that pass cached
#               (invalidate=0, end_fsync=1), as clyde writes each chunk back
#               into the pages it has just read.  Their rates are
#               printed for information, not compared (-R skips them).
# seeks         clyde: SEEKERS threads, each with its own descriptor on ONE
#               file, share a counter of SEEKS tickets; a ticket preads one
#               CHUNK at a uniformly random chunk offset (with replacement)
#               and one time in ten also pwrites it back; every descriptor
#               is fsynced inside the timed region.  So clyde does SEEKS
#               reads and about SEEKS/10 writes = 1.1 * SEEKS I/Os.
#               fio: rw=randrw rwmixread=90 numjobs=SEEKERS thread
#               filename=<one file>: without filename= every fio job would
#               get a file of its own (SEEKERS files of SIZE); with it, the
#               jobs open the same file, each with its own descriptor, as
#               clyde's seekers do.  Each fio job would by default do SIZE
#               bytes of I/O (SEEKERS times the file) and cover it without
#               repeats (random map); so number_ios =
#               ceil(1.1 * SEEKS / SEEKERS) per job (fio counts reads and
#               writes) makes the totals equal, norandommap + randrepeat=0
#               make the offsets uniform with replacement like clyde's,
#               end_fsync=1 matches clyde's final fsyncs, invalidate=1 makes
#               the file cold.  The compared rate is I/O operations per
#               second (reads + writes): clyde's = (bytes / CHUNK) / elapsed,
#               fio's = read IOPS + write IOPS of the group.  clyde's own
#               seeks/s (= its I/O rate / 1.1) is printed too.
#
# Output: the machine, a table per metric with clyde's and fio's medians and
# the ratio clyde/fio (target 0.9-1.1; with -D, issue 21's: block write
# and read >= 0.95, random I/O 0.9-1.1), the range of the per-repeat
# ratios and the verdict (bench/verdict.py: ok or MISSED only when every
# pair's ratio is on one side of the target or clyde's until-decided rule
# decides the pairs, else "within noise"; with the pairs it took), the cost
# beside each ratio: CPU microseconds per operation, user and system, of
# both tools (medians of the timed runs: clyde's JSON cpu_user_ns and
# cpu_sys_ns, fio's usr_cpu and sys_cpu times its job_runtime, over the
# operations) and system calls per operation, counted in a separate short
# run of each side under `strace -f` (16 MiB, 1024 seeks; never timed):
# every system call of the threads that made the test's data transfers of
# CHUNK bytes, between the first and the last of them, over those
# transfers (fio's main thread polls by the clock, not per operation);
# clyde's tests are told apart by its `-y p` waits.  Then clyde's
# residency at the start of get_block and seeks (0% = cold) and the device
# bytes read by each side.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}

REPEATS=3
SEEKS=65536
CHUNK=8192
SEEKERS=5
CLYDE_BIN=${CLYDE:-}
OUTDIR=
FIO_EXTRA=
REWRITE=1
DIRECT=0
UNTIL=0
COUNT=1
while getopts 'n:U:S:c:j:b:o:F:RDKh' opt; do
	case $opt in
	n) REPEATS=$OPTARG ;;
	U) UNTIL=$OPTARG ;;
	K) COUNT=0 ;;
	S) SEEKS=$OPTARG ;;
	c) CHUNK=$OPTARG ;;
	j) SEEKERS=$OPTARG ;;
	b) CLYDE_BIN=$OPTARG ;;
	o) OUTDIR=$OPTARG ;;
	F) FIO_EXTRA=$OPTARG ;;
	R) REWRITE=0 ;;
	D) DIRECT=1 ;;
	h) usage 0 ;;
	*) usage 2 >&2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 && $# -le 2 ]] || usage 2 >&2
DIR=$1
SIZE=${2:-1g}

die() {
	echo "fio_compare: $*" >&2
	exit 1
}

for v in REPEATS SEEKS CHUNK SEEKERS; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"
done
if ! [[ $UNTIL =~ ^[0-9]+$ ]] || { [ "$UNTIL" != 0 ] && [ "$UNTIL" -lt "$REPEATS" ]; }; then
	die "-U MAX: a count of pairs, at least -n's ($REPEATS)"
fi
[ "$UNTIL" -le 64 ] || die "-U MAX: at most 64 pairs"
[ "$COUNT" = 0 ] || command -v strace >/dev/null || {
	echo "fio_compare: strace not found: system calls per operation not counted (-K)" >&2
	COUNT=0
}
[ -d "$DIR" ] || die "$DIR is not a directory"
command -v fio >/dev/null || die "fio not found"
command -v python3 >/dev/null || die "python3 not found"

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$CLYDE_BIN" ]; then
	for c in "$here/../build-bench/clyde" "$here/../build/clyde"; do
		[ -x "$c" ] && CLYDE_BIN=$c && break
	done
	[ -n "$CLYDE_BIN" ] || CLYDE_BIN=$(command -v clyde || true)
fi
[[ -n $CLYDE_BIN && -x $CLYDE_BIN ]] ||
	die "no clyde binary (build it, or give -b PATH or CLYDE=PATH)"

# SIZE in bytes, with clyde's -s rules (MiB without suffix, each suffix 1024
# times the previous).
size_bytes() {
	local s=$1 n u
	[[ $s =~ ^([0-9]+)([mMgGtT]?)$ ]] || die "bad SIZE '$s'"
	n=${BASH_REMATCH[1]}
	u=${BASH_REMATCH[2],,}
	case $u in
	'' | m) echo $((n << 20)) ;;
	g) echo $((n << 30)) ;;
	t) echo $((n << 40)) ;;
	esac
}
BYTES=$(size_bytes "$SIZE")
SIZE_MIB=$((BYTES >> 20))
[ $((BYTES % CHUNK)) -eq 0 ] || die "SIZE is not a multiple of CHUNK"
# fio I/Os per job: clyde's seeks read once and write back one time in ten.
FIO_IOS=$(((SEEKS * 11 + 10 * SEEKERS - 1) / (10 * SEEKERS)))

WORK=$(mktemp -d "$DIR/fio_compare.XXXXXX")
cleanup() {
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
FIOFILE=$WORK/fio.data
TSV=$WORK/results.tsv
: >"$TSV"

# The block device under DIR, for its read counters: major:minor of the
# filesystem, then /sys/dev/block/M:m/stat (sectors read are field 3).
DEVSTAT=
devno=$(stat -c '%d' "$DIR")
maj=$(((devno >> 8) & 0xfff))
min=$(((devno & 0xff) | ((devno >> 12) & 0xfff00)))
[ -r "/sys/dev/block/$maj:$min/stat" ] && DEVSTAT=/sys/dev/block/$maj:$min/stat
dev_read_bytes() {
	if [ -n "$DEVSTAT" ]; then
		local _a _b sectors _rest
		read -r _a _b sectors _rest <"$DEVSTAT"
		echo $((sectors * 512))
	else
		echo -1
	fi
}

# ---- the machine --------------------------------------------------------
echo "== machine"
echo "host:       $(uname -n)"
echo "cpus:       $(nproc) ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo))"
echo "ram:        $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "kernel:     $(uname -sr)"
read -r fstype source target opts < <(findmnt -no FSTYPE,SOURCE,TARGET,OPTIONS -T "$DIR")
echo "filesystem: $fstype on $source mounted at $target ($opts)"
if [ -n "$DEVSTAT" ]; then
	sysdev=$(readlink -f "/sys/dev/block/$maj:$min")
	qdir=$sysdev/queue
	[ -d "$qdir" ] || qdir=$(dirname "$sysdev")/queue
	echo "device:     $(basename "$sysdev") ($maj:$min) rotational=$(cat "$qdir/rotational" 2>/dev/null || echo '?')" \
		"read_ahead_kb=$(cat "$qdir/read_ahead_kb" 2>/dev/null || echo '?')" \
		"scheduler=$(cat "$qdir/scheduler" 2>/dev/null || echo '?')"
else
	echo "device:     none found for $maj:$min (device counters not shown)"
fi
echo "fio:        $(fio --version)"
echo "clyde:      $("$CLYDE_BIN" --version | head -n1) ($CLYDE_BIN)"
echo "load:       $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at start"
echo "== settings"
echo "size $SIZE ($BYTES bytes), chunk $CHUNK, seeks $SEEKS, seekers/numjobs $SEEKERS," \
	"fio number_ios $FIO_IOS per job, repeats $REPEATS"
[ -n "$FIO_EXTRA" ] && echo "extra fio options: $FIO_EXTRA"
[ "$DIRECT" = 1 ] && echo "direct I/O: clyde -D, fio --direct=1"
echo

FIO_COMMON=(--ioengine=psync --bs="$CHUNK" --size="$BYTES" --filename="$FIOFILE"
	--fadvise_hint=0 --output-format=json)
# shellcheck disable=SC2206 # FIO_EXTRA is split on purpose
FIO_COMMON+=($FIO_EXTRA)
CLYDE_DIRECT=()
if [ "$DIRECT" = 1 ]; then
	FIO_COMMON+=(--direct=1)
	CLYDE_DIRECT=(-D)
fi

# Run one fio job; record its JSON and the device bytes read meanwhile.
run_fio() {
	local rep=$1 name=$2
	shift 2
	local out=$WORK/fio-$name-$rep.json r0 r1
	r0=$(dev_read_bytes)
	fio --name="$name" "${FIO_COMMON[@]}" "$@" >"$out" ||
		die "fio $name failed (see $out)"
	r1=$(dev_read_bytes)
	printf 'fio\t%s\t%s\t%s\t%s\n' "$name" "$rep" "$out" \
		"$([ "$r0" -ge 0 ] && echo $((r1 - r0)) || echo -1)" >>"$TSV"
}

run_fio_all() {
	local rep=$1
	rm -f "$FIOFILE"
	sync
	run_fio "$rep" write --rw=write --end_fsync=1 --fallocate=none
	sync
	if [ "$REWRITE" = 1 ]; then
		# clyde's rewrite, between its write and its read: every chunk
		# read once, then written in place (fio keeps an existing file
		# of the right size), fsync.
		run_fio "$rep" reread --rw=read --invalidate=1
		run_fio "$rep" rewrite --rw=write --end_fsync=1 --invalidate=0
		sync
	fi
	run_fio "$rep" read --rw=read --invalidate=1
	run_fio "$rep" randrw --rw=randrw --rwmixread=90 --numjobs="$SEEKERS" \
		--thread --group_reporting --number_ios="$FIO_IOS" \
		--norandommap --randrepeat=0 --end_fsync=1 --invalidate=1
	rm -f "$FIOFILE"
	sync
}

run_clyde() {
	local rep=$1 out
	out=$WORK/clyde-$rep.json
	sync
	"$CLYDE_BIN" -d "$DIR" -s "$SIZE_MIB:$CHUNK:$SEEKS:$SEEKERS" -n 0 -f \
		"${CLYDE_DIRECT[@]}" -r 0 -q --no-save --json "$out" >"$WORK/clyde-$rep.log" 2>&1 ||
		die "clyde failed: $(tail -n3 "$WORK/clyde-$rep.log")"
	printf 'clyde\tall\t%s\t%s\t-\n' "$rep" "$out" >>"$TSV"
	sync
}

# The system calls per operation: one short run of each side under
# strace -f, never timed (strace stops the tool at every call), after the
# timed repeats.  clyde waits before each test for a line on stdin (-y p),
# which its trace shows as a read(0, ...): the tests are told apart by
# those.  CSIZE MiB and CSEEKS seeks: enough transfers that a tool's
# per-test set-up is a small share, little time under strace.
CSIZE=$((SIZE_MIB < 16 ? SIZE_MIB : 16))
CSEEKS=$((SEEKS < 1024 ? SEEKS : 1024))
count_syscalls() {
	local tr=$WORK/strace-clyde.txt line ios pid win
	sync
	# clyde's prompts come on its stderr (the out fifo), each answered with
	# one line on its stdin (the in fifo), so each wait is one read(0).
	mkfifo "$WORK/in" "$WORK/out"
	strace -f -qq -o "$tr" "$CLYDE_BIN" -d "$DIR" -s "$CSIZE:$CHUNK:$CSEEKS:$SEEKERS" \
		-n 0 -f "${CLYDE_DIRECT[@]}" -r 0 -q --no-save -y p <"$WORK/in" 2>"$WORK/out" >/dev/null &
	pid=$!
	exec {win}>"$WORK/in"
	while IFS= read -r line; do
		case $line in *"press Enter"*) echo >&"$win" ;; esac
	done <"$WORK/out"
	exec {win}>&-
	wait "$pid" || die "clyde under strace failed"
	printf 'strace\tclyde\t0\t%s\t-\n' "$tr" >>"$TSV"
	ios=$(((CSEEKS * 11 + 10 * SEEKERS - 1) / (10 * SEEKERS)))
	rm -f "$FIOFILE"
	sync
	strace -f -qq -o "$WORK/strace-fio-write.txt" fio --name=write "${FIO_COMMON[@]}" \
		--size=$((CSIZE << 20)) --rw=write --end_fsync=1 --fallocate=none >/dev/null ||
		die "fio write under strace failed"
	sync
	strace -f -qq -o "$WORK/strace-fio-read.txt" fio --name=read "${FIO_COMMON[@]}" \
		--size=$((CSIZE << 20)) --rw=read --invalidate=1 >/dev/null ||
		die "fio read under strace failed"
	strace -f -qq -o "$WORK/strace-fio-randrw.txt" fio --name=randrw "${FIO_COMMON[@]}" \
		--size=$((CSIZE << 20)) --rw=randrw --rwmixread=90 --numjobs="$SEEKERS" \
		--thread --group_reporting --number_ios="$ios" --norandommap --randrepeat=0 \
		--end_fsync=1 --invalidate=1 >/dev/null || die "fio randrw under strace failed"
	rm -f "$FIOFILE"
	for n in write read randrw; do
		printf 'strace\tfio-%s\t0\t%s\t-\n' "$n" "$WORK/strace-fio-$n.txt" >>"$TSV"
	done
}

# The analysis: `check` says whether another pair may decide a metric
# still within noise (-U), `report` prints the tables.
if [ "$DIRECT" = 1 ]; then
	TARGETS="write=>=0.95 read=>=0.95 seeks=0.9-1.1"
else
	TARGETS="write=0.9-1.1 read=0.9-1.1 seeks=0.9-1.1"
fi
ANALYSE=$WORK/analyse.py
cat >"$ANALYSE" <<'EOF'
import json, os, re, statistics, sys

sys.path.insert(0, os.environ["BENCH"])
import opcost, verdict

chunk = int(os.environ["CHUNK"])
mode = sys.argv[2]
targets = dict(t.split("=", 1) for t in os.environ["TARGETS"].split())
maxpairs = int(os.environ["MAXPAIRS"])
decide = verdict.find_decide(os.environ["CLYDE_BIN"])
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
MIB = 1 << 20

# metric -> side -> repeat -> value
vals = {m: {"clyde": {}, "fio": {}} for m in ("write", "read", "seeks")}
seeks_per_s, residency, devread = {}, {"get_block": [], "seeks": []}, {}
info = {}  # not compared: clyde's rewrite, fio's replay of it
cpu = {}   # (side, metric) -> [CPU us per MiB], the tools' own cost
opcpu = {}  # (side, metric) -> [(user us, sys us) per operation]
traces = {}  # side -> strace file

for side, name, rep, path, dev in rows:
	if side == "strace":
		traces[name] = path
		continue
	rep = int(rep)
	d = json.load(open(path))
	if side == "clyde":
		tests = {t["name"]: t for t in d["runs"][0]["tests"]}
		for m, t in (("write", "put_block"), ("read", "get_block"), ("seeks", "seeks")):
			ops = tests[t]["bytes"] / chunk
			opcpu.setdefault(("clyde", m), []).append(
				(tests[t]["cpu_user_ns"] / 1e3 / ops, tests[t]["cpu_sys_ns"] / 1e3 / ops))
		for m, t in (("write", "put_block"), ("read", "get_block")):
			vals[m]["clyde"][rep] = tests[t]["rate_per_s"] / MIB
			c = tests[t]["cpu_user_ns"] + tests[t]["cpu_sys_ns"]
			cpu.setdefault(("clyde", m), []).append(
				c / 1e3 / (tests[t]["bytes"] / MIB))
		s = tests["seeks"]
		vals["seeks"]["clyde"][rep] = s["bytes"] / chunk / (s["elapsed_ns"] / 1e9)
		seeks_per_s[rep] = s["rate_per_s"]
		info.setdefault("clyde rewrite (read+write) MiB/s", []).append(
			tests["rewrite"]["rate_per_s"] / MIB)
		for t in ("get_block", "seeks"):
			residency[t].append(tests[t]["cache"]["residency"])
			dv = tests[t].get("device") or {}
			if dv.get("present"):
				devread.setdefault(("clyde", t), []).append(dv["read_bytes"])
		continue
	j = d["jobs"][0]
	if name in ("write", "read", "randrw"):
		# job_runtime (ms) is the group's; usr_cpu and sys_cpu are in
		# percent of it (group_reporting sums the jobs').
		ms = j["job_runtime"]
		ops = j["read"]["total_ios"] + j["write"]["total_ios"]
		m = {"randrw": "seeks"}.get(name, name)
		if ops:
			opcpu.setdefault(("fio", m), []).append(
				(j["usr_cpu"] / 100 * ms * 1e3 / ops, j["sys_cpu"] / 100 * ms * 1e3 / ops))
	if name in ("write", "read"):
		c = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e3
		cpu.setdefault(("fio", name), []).append(
			c / (j[name]["io_bytes"] / MIB))
	if name == "write":
		vals["write"]["fio"][rep] = j["write"]["bw_bytes"] / MIB
	elif name == "read":
		vals["read"]["fio"][rep] = j["read"]["bw_bytes"] / MIB
		if int(dev) >= 0:
			devread.setdefault(("fio", "read"), []).append(int(dev))
	elif name == "reread":
		info.setdefault("fio first read after its write MiB/s",
				[]).append(j["read"]["bw_bytes"] / MIB)
	elif name == "rewrite":
		info.setdefault("fio in-place write pass MiB/s", []).append(
			j["write"]["bw_bytes"] / MIB)
	else:
		vals["seeks"]["fio"][rep] = j["read"]["iops"] + j["write"]["iops"]
		if int(dev) >= 0:
			devread.setdefault(("fio", "randrw"), []).append(int(dev))

def med(xs):
	return statistics.median(xs) if xs else float("nan")

judged = {}
for m in ("write", "read", "seeks"):
	c, f = vals[m]["clyde"], vals[m]["fio"]
	reps = [r for r in sorted(c) if r in f and f[r] > 0 and c[r] > 0]
	if reps:
		judged[m] = verdict.judge(targets[m], [c[r] for r in reps],
					  [f[r] for r in reps], maxpairs, decide)
if mode == "check":
	print("repeat" if any(j["repeat"] for j in judged.values()) else "stop")
	sys.exit(0)

# The threads' calls per transfer of CHUNK bytes (bench/opcost.py).
DATA = opcost.data_re(("pread64", "pwrite64"), chunk)
per_op = lambda lines: opcost.per_op(lines, DATA)

sysc = {}
if "clyde" in traces:
	lines = open(traces["clyde"]).read().splitlines()
	marks = [i for i, l in enumerate(lines) if re.match(r"^\d+\s+read\(0,", l)]
	names = ["put_block", "rewrite", "get_block", "seeks"]
	for k, i in enumerate(marks[:len(names)]):
		end = marks[k + 1] if k + 1 < len(marks) else len(lines)
		sysc[("clyde", names[k])] = per_op(lines[i + 1:end])
for n in ("write", "read", "randrw"):
	if "fio-" + n in traces:
		sysc[("fio", n)] = per_op(open(traces["fio-" + n]).read().splitlines())

label = {"write": "block write  MiB/s", "read": "block read   MiB/s",
	 "seeks": "random I/O   ops/s"}
print("== results (medians of %d pairs; ratio = clyde/fio)"
      % len(vals["write"]["clyde"]))
print("%-20s %12s %12s %7s  %-11s %-9s %s" % ("metric", "clyde", "fio", "ratio",
      "per-repeat", "target", "verdict"))
for m in ("write", "read", "seeks"):
	c, f = vals[m]["clyde"], vals[m]["fio"]
	mc, mf = med(list(c.values())), med(list(f.values()))
	ratio = mc / mf if mf else float("nan")
	pr = [c[r] / f[r] for r in sorted(c) if r in f and f[r]]
	print("%-20s %12.1f %12.1f %7.3f  %-11s %-9s %s" % (label[m], mc, mf, ratio,
	      "%.2f-%.2f" % (min(pr), max(pr)) if pr else "-", targets[m],
	      verdict.label(judged[m]) if m in judged else "-"))
print()
print("verdicts (bench/verdict.py; -U %d: at most %d pairs):" % (maxpairs, maxpairs))
for m in ("write", "read", "seeks"):
	if m in judged:
		print("  %-12s %s: %s" % (m, verdict.label(judged[m]), judged[m]["why"]))
print()
print("cost per operation (an operation = one CHUNK transfer; CPU: medians of the "
      "timed runs, clyde's JSON cpu_user_ns/cpu_sys_ns, fio's usr_cpu/sys_cpu x "
      "job_runtime; system calls: every call of the threads that made the CHUNK transfers, "
      "between the first and the last of them, in a separate short run under strace -f, "
      "not timed):")
print("%-20s %10s %10s %10s %10s %10s %10s" % ("", "clyde usr", "clyde sys",
      "clyde sysc", "fio usr", "fio sys", "fio sysc"))
tname = {"write": ("put_block", "write"), "read": ("get_block", "read"),
	 "seeks": ("seeks", "randrw")}
def f1(x, fmt="%.2f"):
	return "-" if x is None or x != x else fmt % x
for m in ("write", "read", "seeks"):
	cu = med([u for u, s in opcpu.get(("clyde", m), [])])
	cs = med([s for u, s in opcpu.get(("clyde", m), [])])
	fu = med([u for u, s in opcpu.get(("fio", m), [])])
	fs = med([s for u, s in opcpu.get(("fio", m), [])])
	print("%-20s %10s %10s %10s %10s %10s %10s" % (label[m].split("  ")[0] + " us/op",
	      f1(cu), f1(cs), f1(sysc.get(("clyde", tname[m][0])), "%.3f"),
	      f1(fu), f1(fs), f1(sysc.get(("fio", tname[m][1])), "%.3f")))
print()
print("clyde seeks/s (its own unit, = I/O rate / (1 + write-backs/seeks)): "
      "median %.0f" % med(list(seeks_per_s.values())))
print("per repeat (clyde | fio):")
for m in ("write", "read", "seeks"):
	c, f = vals[m]["clyde"], vals[m]["fio"]
	print("  %-6s %s" % (m, "  ".join("%.0f|%.0f" % (c.get(r, 0), f.get(r, 0))
				       for r in sorted(c))))
for m in ("write", "read"):
	if ("clyde", m) in cpu and ("fio", m) in cpu:
		print("  CPU us per MiB, block %s: clyde %.0f, fio %.0f (medians)"
		      % (m, med(cpu[("clyde", m)]), med(cpu[("fio", m)])))
for k, v in info.items():
	print("  %s: %s (not compared)" % (k, " ".join("%.0f" % x for x in v)))
print()
print("cold-data evidence:")
for t in ("get_block", "seeks"):
	rs = residency[t]
	print("  clyde %-9s residency at start: %s" % (t, ", ".join(
		"-" if r is None else "%.1f%%" % (100 * r) for r in rs)))
for key in (("clyde", "get_block"), ("fio", "read"), ("clyde", "seeks"),
	    ("fio", "randrw")):
	if key in devread:
		print("  %-5s %-9s device bytes read: %s" % (key[0], key[1],
		      ", ".join("%.0f MiB" % (b / MIB) for b in devread[key])))
sys.exit(0)
EOF
MAXPAIRS=$((UNTIL > REPEATS ? UNTIL : REPEATS))
analyse() {
	CHUNK=$CHUNK TARGETS=$TARGETS MAXPAIRS=$MAXPAIRS BENCH=$here CLYDE_BIN=$CLYDE_BIN \
		python3 "$ANALYSE" "$TSV" "$1"
}

rep=0
while :; do
	rep=$((rep + 1))
	echo "pair $rep (at least $REPEATS, at most $MAXPAIRS) ..." >&2
	if [ $((rep % 2)) -eq 1 ]; then
		run_clyde "$rep"
		run_fio_all "$rep"
	else
		run_fio_all "$rep"
		run_clyde "$rep"
	fi
	[ "$rep" -ge "$REPEATS" ] || continue
	[ "$rep" -lt "$MAXPAIRS" ] || break
	[ "$(analyse check)" = repeat ] || break
done
[ "$COUNT" = 0 ] || count_syscalls

[ -n "$OUTDIR" ] && mkdir -p "$OUTDIR" && cp "$WORK"/*.json "$WORK"/strace-*.txt "$TSV" "$OUTDIR"/ 2>/dev/null
analyse report

#!/usr/bin/env bash
#
# bonnie_wall.sh: the wall time of a whole clyde run next to bonnie++'s,
# for the same file tests on the same directory, and clyde's own report of
# the time it spent outside the timed windows (cache eviction, residency
# checks, set-up), which must stay small next to the tests.
#
# Usage: bench/bonnie_wall.sh [-n N] [-b CLYDE] [-B BONNIE] [-o OUTDIR]
#                             [-s SIZE] [-f MiB] [-F IMAGE] DIR [FILES]
#
#   DIR     directory on the filesystem under test (both tools make their
#           scratch directory in it and remove it)
#   FILES   the -n argument of both tools (default 128: 128 x 1024 empty
#           files, bonnie++'s default)
#   -n N    repeat each bonnie++/clyde pair N times (default 3); the order
#           alternates (odd repeats bonnie++ first) so that a drift of a
#           shared machine does not favour one side
#   -s SIZE the -s argument of both tools (default 0: file tests only)
#   -b PATH the clyde binary (default: $CLYDE, else build-bench/clyde or
#           build/clyde next to this script, else clyde on PATH)
#   -B PATH the bonnie++ binary (default: bonnie++ on PATH)
#   -o DIR  keep clyde's JSON and both tools' output in DIR
#   -f MiB  the per-char test size of both tools (-fMiB; bonnie++'s
#           default is 20, clyde's 3 or a few seconds); with -s above 0
#           the per-char write and read rates are compared too
#   -F IMAGE every run on a fresh ext4 (mkfs's defaults, journal included)
#           on a loop device over a sparse IMAGE-sized file in DIR (e.g.
#           4g), made before the run (untimed) and removed after: both
#           tools start from the same filesystem state (bench/freshfs.sh
#           says why: a run's deletes slow the next run's creates); root
#   -K      do not count system calls (the separate short strace runs
#           below; they need strace)
#
# Both tools run with -r 0 (no RAM check or auto sizing) and -q; bonnie++
# as root needs -u root, which it is then given.  clyde runs with
# --no-save (no history) and --json; everything else is both tools'
# default: clyde evicts and measures the page cache before every test that
# reads back, bonnie++ does not.
#
# It prints one line per run (wall seconds; for clyde also the overhead
# share of its wall time from the JSON's runs[].overhead_ns / wall_ns), then
# the medians, the ratio clyde/bonnie++ of the medians and the two targets
# of issue 8: ratio <= 1.2 and every clyde run's overhead <= 15%.  Exit
# status 0 when both hold, 1 when not, 2 on a usage or run error.
# With -s above 0 it also prints the per-char write and read rates
# (bonnie++'s CSV fields putc and getc, K/s; clyde's JSON putc and getc
# rate_per_s), their medians, the ratio clyde/bonnie++ of the medians
# and the range of the per-repeat ratios (issue 21's target >= 0.95);
# bonnie++ writes "+++++" for a test too short to time, which is then
# shown as "-".
#
# Beside each ratio the cost per operation of both tools (issue 35, item
# 7; bench/opcost.py): with -s 0, per file operation (FILES x 1024 files,
# six tests), CPU user and system microseconds, the medians of the timed
# runs' whole process (getrusage of the child) over their operations, and
# system calls per file operation of the create, stat and delete phases;
# with -f, per byte of the per-char write and read, CPU from each tool's
# own figure of the test (clyde's JSON cpu_user_ns/cpu_sys_ns; bonnie++'s
# CSV %CP, user and system together: it gives no split) and system calls
# per byte of the per-char tests.  The system calls are counted after the
# timed runs, never timed: for the file tests in one run of -n 1 of each
# tool under `strace -f` (every call of the threads that made a phase's
# operations, from the first to the last); for the per-char tests, where
# strace would stop the tool at 2 Mi calls, by the kernel's count of all
# the tool's calls (`perf stat -e raw_syscalls:sys_enter`) in a run of -s
# 8 -f1 less that of -s 8 -f (no per-char tests), over the 2 MiB of
# per-char bytes more, 1 MiB written and 1 MiB read (write and read
# together: one figure for both rows).  Without perf,
# "-".
set -euo pipefail

usage()
{
	sed -n '3,40p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
reps=3
size=0
clyde=${CLYDE:-}
bonnie='bonnie++'
keep=
perchar=
fresh=
count=1
while getopts n:b:B:o:s:f:F:Kh opt; do
	case $opt in
	n) reps=$OPTARG ;;
	b) clyde=$OPTARG ;;
	B) bonnie=$OPTARG ;;
	o) keep=$OPTARG ;;
	s) size=$OPTARG ;;
	f) perchar=$OPTARG ;;
	F) fresh=$OPTARG ;;
	K) count=0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 && $# -le 2 ]] || usage
dir=$1
files=${2:-128}
[[ -d $dir ]] || {
	echo "bonnie_wall: $dir is not a directory" >&2
	exit 2
}
[[ $reps =~ ^[1-9][0-9]*$ ]] || usage
[[ -z $perchar || $perchar =~ ^[1-9][0-9]*$ ]] || {
	echo "bonnie_wall: -f $perchar: the per-char size is a whole number of MiB (e.g. 4)" >&2
	exit 2
}
fopt=()
[[ -z $perchar ]] || fopt=("-f$perchar")
if [[ -z $clyde ]]; then
	for c in "$here/../build-bench/clyde" "$here/../build/clyde"; do
		[[ -x $c ]] && clyde=$c && break
	done
	[[ -n $clyde ]] || clyde=$(command -v clyde || true)
fi
[[ -x $clyde ]] || {
	echo "bonnie_wall: no clyde binary (use -b)" >&2
	exit 2
}
command -v "$bonnie" >/dev/null || {
	echo "bonnie_wall: no $bonnie (use -B)" >&2
	exit 2
}
command -v python3 >/dev/null || {
	echo "bonnie_wall: python3 is needed" >&2
	exit 2
}
[[ $count == 0 || $size != 0 ]] || command -v strace >/dev/null || {
	echo "bonnie_wall: strace not found: system calls per operation not counted (-K)" >&2
	count=0
}

# shellcheck source=bench/freshfs.sh
. "$here/freshfs.sh"
fresh_size_ok "$fresh" || {
	echo "bonnie_wall: -F $fresh: the image size is a number with an optional k/m/g/t (e.g. 4g)" >&2
	exit 2
}

out=$(mktemp -d "${TMPDIR:-/tmp}/bonnie_wall.XXXXXX")
trap 'fresh_down; rm -rf -- "$out"' EXIT
bonnie_user=()
[[ $(id -u) -ne 0 ]] || bonnie_user=(-u root)

now_ns() { date +%s%N; }
# A timed run: the CPU of its process (and children) to FILE.
cpu=(python3 "$here/opcost.py" run)

# run_one TOOL REP: one timed run; appends "TOOL REP WALL_NS [OVERHEAD
# WALL]" to $out/times.
run_one()
{
	local tool=$1 rep=$2 t0 t1 d
	# The inodes: the files a run keeps at once (-n x 1024), and room.
	fresh_place "$fresh" "$dir" $((${files%%:*} * 1024 + 65536)) "$dir" || exit 2
	d=$FRESH_DIR
	t0=$(now_ns)
	if [[ $tool == bonnie++ ]]; then
		"${cpu[@]}" "$out/bonnie.$rep.cpu" -- \
			"$bonnie" "${bonnie_user[@]}" -d "$d" -s "$size" -n "$files" \
			"${fopt[@]}" -r 0 -q >"$out/bonnie.$rep.out" 2>&1 || {
			cat "$out/bonnie.$rep.out" >&2
			exit 2
		}
		t1=$(now_ns)
		echo "bonnie++ $rep $((t1 - t0))" >>"$out/times"
	else
		"${cpu[@]}" "$out/clyde.$rep.cpu" -- \
			"$clyde" -d "$d" -s "$size" -n "$files" "${fopt[@]}" -r 0 -q --no-save \
			--json "$out/clyde.$rep.json" >"$out/clyde.$rep.out" 2>&1 || {
			cat "$out/clyde.$rep.out" >&2
			exit 2
		}
		t1=$(now_ns)
		python3 - "$out/clyde.$rep.json" "$rep" "$((t1 - t0))" \
			>>"$out/times" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
print("clyde", sys.argv[2], sys.argv[3], run["overhead_ns"], run["wall_ns"])
PY
	fi
	fresh_down
	tail -n 1 "$out/times" | awk '{
		printf "%-8s run %s: %8.2f s wall", $1, $2, $3 / 1e9
		if (NF > 3) printf ", untimed %6.2f s of %6.2f s (%4.1f%%)", $4 / 1e9, $5 / 1e9, 100 * $4 / $5
		printf "\n" }'
}

echo "bonnie_wall: $reps x (bonnie++ and clyde) -s $size -n $files${fopt[*]:+ ${fopt[*]}} -r 0 in $dir${fresh:+ (a fresh $fresh ext4 on a loop device there for every run)}"
echo "clyde: $clyde ($("$clyde" --version 2>/dev/null | head -n 1))"
echo "bonnie++: $(command -v "$bonnie")"
for ((r = 1; r <= reps; r++)); do
	if ((r % 2)); then
		run_one bonnie++ "$r"
		run_one clyde "$r"
	else
		run_one clyde "$r"
		run_one bonnie++ "$r"
	fi
done

# The system calls per operation: one short run of each tool under
# strace -f, never timed, in DIR itself: -n 1 for the file tests, -s 8
# -f1 (1 MiB of per-char) and -s 8 -f (none) under perf stat for the
# per-char ones.
traced() {
	local tool=$1 t=$out/strace.txt
	shift
	if [[ $tool == bonnie++ ]]; then
		strace -f -qq -o "$t" "$bonnie" "${bonnie_user[@]}" -d "$dir" "$@" -r 0 -q \
			>"$out/strace.log" 2>&1
	else
		strace -f -qq -o "$t" "$clyde" -d "$dir" "$@" -r 0 -q --no-save >"$out/strace.log" 2>&1
	fi || {
		echo "bonnie_wall: $tool under strace failed: $(tail -n 3 "$out/strace.log")" >&2
		exit 2
	}
}
# counted TOOL FILE ARGS...: a run of the tool under perf stat, its count
# of system calls (every thread) to FILE.
counted() {
	local tool=$1 f=$2
	shift 2
	if [[ $tool == bonnie++ ]]; then
		perf stat -x, -e raw_syscalls:sys_enter -o "$f" "$bonnie" "${bonnie_user[@]}" -d "$dir" \
			"$@" -r 0 -q >"$out/strace.log" 2>&1
	else
		perf stat -x, -e raw_syscalls:sys_enter -o "$f" "$clyde" -d "$dir" "$@" -r 0 -q \
			--no-save >"$out/strace.log" 2>&1
	fi || {
		echo "bonnie_wall: $tool under perf stat failed: $(tail -n 3 "$out/strace.log")" >&2
		exit 2
	}
}
if [[ $count == 1 ]]; then
	for tool in bonnie++ clyde; do
		if [[ $size == 0 ]]; then
			traced "$tool" -s 0 -n 1
			python3 "$here/opcost.py" calls "$out/strace.txt" openat - creat - \
				newfstatat - stat - unlinkat - unlink - >"$out/calls-files-$tool.txt"
		fi
		if [[ -n $perchar && $size != 0 ]] && command -v perf >/dev/null; then
			counted "$tool" "$out/perf-$tool.1.txt" -s 8 -n 0 -f
			counted "$tool" "$out/perf-$tool.2.txt" -s 8 -n 0 -f1
			python3 "$here/opcost.py" perf "$out/perf-$tool.1.txt" "$out/perf-$tool.2.txt" \
				$((2 << 20)) >"$out/calls-perchar-$tool.txt"
		fi
		rm -f "$out/strace.txt"
	done
fi
[[ -z $keep ]] || { mkdir -p "$keep" && cp "$out"/* "$keep"/; }

if [[ $size != 0 ]]; then
	BENCH=$here CLYDE_BIN=$clyde python3 - "$out" "$reps" <<'PY'
import json, os, statistics, sys
sys.path.insert(0, os.environ["BENCH"])
import verdict as V
out, reps = sys.argv[1], int(sys.argv[2])
# bonnie++ 2.00a CSV: ...,putc,putc_cpu,put_block,...,getc,getc_cpu,...
FIELD = {"putc": 9, "getc": 15}
vals = {t: {"bonnie++": {}, "clyde": {}} for t in FIELD}
for r in range(1, reps + 1):
    lines = [l for l in open(os.path.join(out, f"bonnie.{r}.out"))
             if l.startswith("1.98,") or l.startswith("1.97,")]
    if lines:
        f = lines[-1].strip().split(",")
        for t, i in FIELD.items():
            if i < len(f) and f[i].isdigit():
                vals[t]["bonnie++"][r] = float(f[i])
    run = json.load(open(os.path.join(out, f"clyde.{r}.json")))["runs"][0]
    for t in run["tests"]:
        if t["name"] in FIELD and t.get("state") == "done" and t.get("rate_per_s"):
            vals[t["name"]]["clyde"][r] = t["rate_per_s"] / 1024
name = {"putc": "per-char write", "getc": "per-char read"}
print("per-char (K/s; medians of %d interleaved repeats; ratio = clyde/bonnie++)" % reps)
print("%-15s %10s %10s %7s %-11s %-7s %s" % ("test", "clyde", "bonnie++",
      "ratio", "per-repeat", "target", "verdict"))
for t in FIELD:
    c, b = vals[t]["clyde"], vals[t]["bonnie++"]
    if not c or not b:
        print("%-15s %10s %10s %7s %-11s %-7s %s" % (name[t], "-", "-", "-",
              "-", ">=0.95", "not measured (a side has no figure)"))
        continue
    mc, mb = statistics.median(c.values()), statistics.median(b.values())
    pr = [c[r] / b[r] for r in sorted(c) if r in b]
    ratio = mc / mb
    print("%-15s %10.1f %10.1f %7.3f %-11s %-7s %s" % (name[t], mc, mb, ratio,
          "%.2f-%.2f" % (min(pr), max(pr)) if pr else "-", ">=0.95",
          V.label(V.judge(">=0.95", [c[r] for r in sorted(c) if r in b],
                          [b[r] for r in sorted(c) if r in b], None,
                          V.find_decide(os.environ["CLYDE_BIN"])))))
    print("  per repeat (clyde|bonnie++): " + "  ".join(
        "%s|%s" % ("%.0f" % c[r] if r in c else "-", "%.0f" % b[r] if r in b else "-")
        for r in range(1, reps + 1)))
# The cost per byte: clyde's JSON CPU of the test, bonnie++'s CSV %CP
# (user and system together) over the test's time (bytes / rate); the
# system calls of the traced run (bench/opcost.py).
CPUF = {"putc": 10, "getc": 16}
cu, cs, bt = {t: [] for t in FIELD}, {t: [] for t in FIELD}, {t: [] for t in FIELD}
for r in range(1, reps + 1):
    run = json.load(open(os.path.join(out, f"clyde.{r}.json")))["runs"][0]
    for t in run["tests"]:
        if t["name"] in FIELD and t.get("state") == "done" and t.get("bytes"):
            cu[t["name"]].append(t["cpu_user_ns"] / 1e3 / t["bytes"])
            cs[t["name"]].append(t["cpu_sys_ns"] / 1e3 / t["bytes"])
    lines = [l for l in open(os.path.join(out, f"bonnie.{r}.out"))
             if l.startswith("1.98,") or l.startswith("1.97,")]
    f = lines[-1].strip().split(",") if lines else []
    for t, i in CPUF.items():
        if i < len(f) and f[i].isdigit() and f[FIELD[t]].isdigit():
            # %CP of the test's time; the test's time per byte is 1 / (K/s x 1024).
            bt[t].append(float(f[i]) / 100 / (float(f[FIELD[t]]) * 1024) * 1e6)
def calls(tool, names):
    p = os.path.join(out, f"calls-perchar-{tool}.txt")
    got = open(p).read().split() if os.path.exists(p) else []
    return "%.3f" % float(got[0]) if got and got[0] != "-" else "-"
def m(xs):
    return "%.3f" % statistics.median(xs) if xs else "-"
print()
print("cost per byte (an operation = one byte; CPU microseconds: medians of the timed "
      "runs, clyde's JSON cpu_user_ns/cpu_sys_ns of the test, bonnie++'s CSV %CP of it, "
      "user and system together (it gives no split); system calls: all of the tool's "
      "calls in a run of -s 8 -f1 less those of -s 8 -f, no per-char (perf stat -e raw_syscalls:sys_enter), "
      "over its 2 MiB of per-char bytes, write and read together, not timed)")
print("%-20s %10s %10s %10s %12s %13s" % ("", "clyde usr", "clyde sys", "clyde sysc",
      "bonnie++ u+s", "bonnie++ sysc"))
for t, names in (("putc", ("pwrite64", "write")), ("getc", ("pread64", "read"))):
    print("%-20s %10s %10s %10s %12s %13s" % (name[t] + " us/op", m(cu[t]), m(cs[t]),
          calls("clyde", names), m(bt[t]), calls("bonnie++", names)))
PY
fi

BENCH=$here python3 - "$out/times" "$out" "$size" "$files" <<'PY'
import os, statistics, sys
sys.path.insert(0, os.environ["BENCH"])
import opcost
out, size, files = sys.argv[2], sys.argv[3], sys.argv[4]
rows = [l.split() for l in open(sys.argv[1])]
b = [int(r[2]) / 1e9 for r in rows if r[0] == "bonnie++"]
c = [int(r[2]) / 1e9 for r in rows if r[0] == "clyde"]
over = [int(r[3]) / int(r[4]) for r in rows if r[0] == "clyde"]
mb, mc = statistics.median(b), statistics.median(c)
ratio = mc / mb
print(f"median wall: bonnie++ {mb:.2f} s, clyde {mc:.2f} s, "
      f"ratio clyde/bonnie++ {ratio:.2f}")
print(f"clyde untimed share: median {100 * statistics.median(over):.1f}%, "
      f"max {100 * max(over):.1f}%")
ok = ratio <= 1.2 and max(over) <= 0.15
print("target (ratio <= 1.2, every run's untimed share <= 15%): " +
      ("met" if ok else "NOT met"))
if size == "0":
    # The cost per file operation (bench/opcost.py): each run's CPU over
    # its 6 x files x 1024 operations; the system calls of the traced run.
    ops = 6 * int(files.split(":")[0]) * 1024
    def cpu(tool):
        f = {"bonnie++": "bonnie"}.get(tool, tool)
        cs = [opcost.read_cpu(os.path.join(out, f"{f}.{r[1]}.cpu"))
              for r in rows if r[0] == tool]
        if not cs or None in cs:
            return "-", "-"
        return ("%.2f" % statistics.median(c[0] * 1e6 / ops for c in cs),
                "%.2f" % statistics.median(c[1] * 1e6 / ops for c in cs))
    def calls(tool):
        p = os.path.join(out, f"calls-files-{tool}.txt")
        if not os.path.exists(p):
            return "-"
        n = o = 0
        for l in open(p):
            f = l.split()
            if f[2] != "0":
                n, o = n + int(f[1]), o + int(f[2])
        return "%.3f" % (n / o) if o else "-"
    print()
    print(f"cost per file operation (create, stat or delete of one file, {ops} a run; CPU "
          "microseconds: medians of the timed runs, the whole run's user and system time "
          "(getrusage) over its file operations; system calls: every call of the threads that "
          "made the create, stat and delete phases' calls, from the first to the last of each, "
          "over their files, in a separate run of -n 1 under strace -f, not timed)")
    print("%-20s %10s %10s %10s %12s %12s %13s" % ("", "clyde usr", "clyde sys", "clyde sysc",
          "bonnie++ usr", "bonnie++ sys", "bonnie++ sysc"))
    print("%-20s %10s %10s %10s %12s %12s %13s" % (("file ops us/op",) + cpu("clyde") +
          (calls("clyde"),) + cpu("bonnie++") + (calls("bonnie++"),)))
sys.exit(0 if ok else 1)
PY

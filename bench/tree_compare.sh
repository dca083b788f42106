#!/bin/bash
# Benchmark (not a test): clyde's tree walks against the tools people time
# by hand, on the same generated tree, with a cold cache before every run.
#
#   clyde stat walk (1 worker)   vs  find DIR -ls >/dev/null
#   clyde read walk (1 worker)   vs  tar cf - DIR | cat >/dev/null
#   clyde read walk (8 workers)  vs  the same tar
#
# (Not `tar cf /dev/null`: GNU tar notices the /dev/null archive and does
# not read the files at all.)
#
# Usage: bench/tree_compare.sh [-d DIR] [-r REPEATS] [-b BUILD_DIR]
#   DIR       where the tree is generated (default /var/tmp); ~1.1 GB
#   REPEATS   runs of each command, the median is reported (default 3)
# Needs root: the page, dentry and inode caches are dropped before each run
# (sync; echo 3 >/proc/sys/vm/drop_caches).  Prints the machine, each time,
# and the ratios clyde/tool (below 1.0: clyde is faster).
set -euo pipefail

DIR=/var/tmp
REPEATS=3
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$SRC/build-tree
while getopts d:r:b: o; do
	case $o in
	d) DIR=$OPTARG ;;
	r) REPEATS=$OPTARG ;;
	b) BUILD=$OPTARG ;;
	*) exit 1 ;;
	esac
done
CLYDE=$BUILD/clyde
[[ -x $CLYDE ]] || { echo "no clyde at $CLYDE (build it, or -b DIR)" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || { echo "run as root: the caches are dropped" >&2; exit 1; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 1; }

FILES=50000
DIRS=5000
SIZE=lognormal:10k,1.2,16m # mean ~21 KB: ~1.05 GB in 50k files
WORK=$(mktemp -d "$DIR/clyde-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

cold()
{
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# now_ns: wall clock in nanoseconds.
now_ns()
{
	date +%s%N
}

# median of the arguments.
median()
{
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# time_cmd CMD...: cold cache, then the wall time of CMD in ns.
time_cmd()
{
	local t0 t1
	cold
	t0=$(now_ns)
	"$@"
	t1=$(now_ns)
	echo $((t1 - t0))
}

# clyde_phase PHASE [ARGS]: clyde tree --existing on the tree, the phase's
# own elapsed_ns from the JSON (clyde drops the caches itself just before).
clyde_phase()
{
	local phase=$1
	shift
	"$CLYDE" tree --existing "$TREE" --phases "$phase" -q --json "$WORK/r.json" "$@"
	python3 -c "import json; d=json.load(open('$WORK/r.json')); p=d['runs'][0]['phases'][0]; assert p['cache']['dropped']; print(p['elapsed_ns'])"
}

echo "== machine"
echo "nproc: $(nproc)"
echo "RAM:   $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "CPU:   $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
src=$(df --output=source "$DIR" | tail -n 1)
echo "disk:  $DIR on $src ($(df --output=fstype "$DIR" | tail -n 1)), $(findmnt -no OPTIONS --target "$DIR" 2>/dev/null || echo '?')"
dev=$(basename "$(readlink -f "$src")")
if [[ -e /sys/class/block/$dev ]]; then
	disk=$dev
	[[ -e /sys/class/block/$dev/partition ]] &&
		disk=$(basename "$(readlink -f "/sys/class/block/$dev/..")")
	echo "       rotational=$(cat "/sys/block/$disk/queue/rotational" 2>/dev/null || echo '?')" \
		"nr_requests=$(cat "/sys/block/$disk/queue/nr_requests" 2>/dev/null || echo '?')" \
		"model=$(tr -s ' ' <"/sys/block/$disk/device/model" 2>/dev/null || echo '?')"
fi
echo "tools: $(find . -maxdepth 0 --version | head -n 1); $(tar --version | head -n 1)"
echo

echo "== generating $FILES files in $DIRS directories ($SIZE)"
"$CLYDE" tree -d "$WORK" --files $FILES --dirs $DIRS --size "$SIZE" --seed 1 \
	--phases extract --keep -q --no-drop-caches 2>"$WORK/gen.err"
TREE=$(sed -n 's/^clyde tree: kept //p' "$WORK/gen.err")
[[ -d $TREE ]] || { cat "$WORK/gen.err" >&2; exit 1; }
echo "tree: $TREE: $(find "$TREE" -type f | wc -l) files," \
	"$(find "$TREE" -type d | wc -l) dirs," \
	"$(du -sb --apparent-size "$TREE" | cut -f1) bytes"
# One read before measuring, so that relatime has set every atime and no
# run pays for atime updates that the next would not.
tar cf - "$TREE" 2>/dev/null | cat >/dev/null
echo

declare -a t_find t_cstat t_tar t_cread t_cpar
for ((i = 0; i < REPEATS; i++)); do
	t_find+=("$(time_cmd sh -c "find '$TREE' -ls >/dev/null")")
	t_cstat+=("$(clyde_phase stat_walk)")
	t_tar+=("$(time_cmd sh -c "tar cf - '$TREE' 2>/dev/null | cat >/dev/null")")
	t_cread+=("$(clyde_phase read_walk)")
	t_cpar+=("$(clyde_phase par_read_walk -w 8)")
	echo "run $((i + 1)): find ${t_find[i]} clyde-stat ${t_cstat[i]}" \
		"tar ${t_tar[i]} clyde-read ${t_cread[i]} clyde-par8 ${t_cpar[i]} (ns)"
done

m_find=$(median "${t_find[@]}")
m_cstat=$(median "${t_cstat[@]}")
m_tar=$(median "${t_tar[@]}")
m_cread=$(median "${t_cread[@]}")
m_cpar=$(median "${t_cpar[@]}")
bytes=$(du -sb --apparent-size "$TREE" | cut -f1)

echo
echo "== medians of $REPEATS cold-cache runs"
python3 - "$m_find" "$m_cstat" "$m_tar" "$m_cread" "$m_cpar" "$bytes" <<'PY'
import sys
f, cs, t, cr, cp, b = (int(x) for x in sys.argv[1:])
s = lambda ns: ns / 1e9
mbs = lambda ns: b / 1e6 / s(ns)
print("%-34s %8.2f s" % ("find DIR -ls >/dev/null", s(f)))
print("%-34s %8.2f s   ratio clyde/find %.2f" % ("clyde stat_walk (1 worker)", s(cs), cs / f))
print("%-34s %8.2f s   %7.1f MB/s" % ("tar cf - DIR | cat >/dev/null", s(t), mbs(t)))
print("%-34s %8.2f s   %7.1f MB/s   ratio clyde/tar %.2f" % ("clyde read_walk (1 worker)", s(cr), mbs(cr), cr / t))
print("%-34s %8.2f s   %7.1f MB/s   speed-up over tar %.2fx" % ("clyde par_read_walk (8 workers)", s(cp), mbs(cp), t / cp))
PY

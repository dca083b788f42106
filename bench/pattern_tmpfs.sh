#!/usr/bin/env bash
# pattern_tmpfs.sh: the block write rate with clyde's random data next to
# --pattern zeros (bonnie++'s data) on a tmpfs, where writing costs only a
# copy into memory, so that the cost of making the data shows most.  Target:
# random at least 95% of zeros (docs/pattern.md); with -c 1024k, where the
# next chunk is made by a helper while the write before it is in flight
# (workloads/fill_ahead.h), within 3% (issue 35).
#
#   bench/pattern_tmpfs.sh [-b CLYDE] [-r ROUNDS] [-s SIZE] [-c CHUNK]
#                          [-L] [DIR]
#
#   -c CHUNK  the block write's chunk (clyde's -s SIZE:CHUNK; default 8k,
#             bonnie++'s)
#   -L        DIR is not a tmpfs: the runs go to a fresh ext4 on a loop
#             device over a sparse image in DIR (bench/freshfs.sh; root)
#
# DIR must be on a tmpfs (default /dev/shm) unless -L.  Each round runs, in
# alternating order, `clyde -d DIR -s SIZE -n 0 -f -r 0 --pattern P` for
# P = random and zeros (default 5 rounds of 1g) and reads put_block from
# its JSON.  Prints every round, the median rate of each, the ratio of the
# medians and the median of the rounds' ratios, and the median CPU seconds
# (user + system) of the block write, which a shared machine disturbs less
# than the rate.
set -euo pipefail

clyde=build/clyde
rounds=5
size=1g
chunk=
loop=0
while getopts b:r:s:c:L opt; do
	case $opt in
	b) clyde=$OPTARG ;;
	r) rounds=$OPTARG ;;
	s) size=$OPTARG ;;
	c) chunk=$OPTARG ;;
	L) loop=1 ;;
	*)
		echo "usage: $0 [-b CLYDE] [-r ROUNDS] [-s SIZE] [-c CHUNK] [-L] [DIR]" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
dir=${1:-/dev/shm}
fstype=$(stat -f -c %T "$dir")
here=$(cd "$(dirname "$0")" && pwd)
if [[ $loop == 1 ]]; then
	# shellcheck source=bench/freshfs.sh
	. "$here/freshfs.sh"
	trap 'fresh_down' EXIT
	fresh_up "$dir" 4g 65536
	dir=$FRESH_MNT
	fstype="ext4 on $FRESH_LOOP"
elif [[ $fstype != tmpfs ]]; then
	echo "$0: $dir is $fstype, not tmpfs (-L: a loop device in it)" >&2
	exit 1
fi
work=$(mktemp -d "$dir/pattern_tmpfs.XXXXXX")
if [[ $loop == 1 ]]; then
	trap 'rm -rf -- "$work"; fresh_down' EXIT
else
	trap 'rm -rf -- "$work"' EXIT
fi

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)," \
	"$(nproc) CPUs, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "clyde: $clyde; -s $size${chunk:+:$chunk} on $dir ($fstype), $rounds rounds"

# put_block RESULT.json: "<rate B/s> <cpu s> <refill gap us, -1: none>"
put_block()
{
	python3 - "$1" <<'EOF'
import json, sys
for t in json.load(open(sys.argv[1]))["runs"][0]["tests"]:
    if t["name"] == "put_block":
        g = t.get("refill_gap_mean_ns")
        print(t["rate_per_s"], (t["cpu_user_ns"] + t["cpu_sys_ns"]) / 1e9,
              -1 if g is None else g / 1e3)
EOF
}

for ((r = 0; r < rounds; r++)); do
	if ((r % 2)); then order=(zeros random); else order=(random zeros); fi
	for p in "${order[@]}"; do
		"$clyde" -d "$work" -s "$size${chunk:+:$chunk}" -n 0 -f -r 0 -q --no-save \
			--pattern "$p" --json "$work/$p.$r.json" >/dev/null 2>&1
		read -r rate cpu gap <<<"$(put_block "$work/$p.$r.json")"
		echo "$rate $cpu $gap" >>"$work/$p.all"
		printf 'round %d %-6s %8.0f MiB/s  cpu %.3f s  refill gap %.1f us\n' "$r" "$p" \
			"$(echo "$rate / 1048576" | bc -l)" "$cpu" "$gap"
	done
done

python3 - "$work/random.all" "$work/zeros.all" <<'EOF'
import statistics as st, sys
def load(f):
    rows = [tuple(map(float, l.split())) for l in open(f)]
    return st.median(r[0] for r in rows), st.median(r[1] for r in rows)
(rr, rc), (zr, zc) = load(sys.argv[1]), load(sys.argv[2])
rows = [[tuple(map(float, l.split())) for l in open(f)] for f in sys.argv[1:3]]
pairs = st.median(a[0] / b[0] for a, b in zip(*rows))
rat = [a[0] / b[0] for a, b in zip(*rows)]
print("median block write: random %.0f MiB/s, zeros %.0f MiB/s, "
      "random/zeros %.3f (median of the rounds' ratios %.3f, range %.3f-%.3f)"
      % (rr / 2**20, zr / 2**20, rr / zr, pairs, min(rat), max(rat)))
print("median refill gap (a write's completion to the next submission): "
      "random %.1f us, zeros %.1f us"
      % (st.median(r[2] for r in rows[0]), st.median(r[2] for r in rows[1])))
print("median CPU of the block write: random %.3f s, zeros %.3f s, "
      "random/zeros %.3f" % (rc, zc, rc / zc))
print("target random/zeros >= 0.95: %s" % ("met" if rr / zr >= 0.95 else "NOT met"))
EOF

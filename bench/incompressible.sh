#!/usr/bin/env bash
# incompressible.sh: is the data of clyde's block write incompressible at
# scale?  clyde writes a SIZE file (default 1024 MiB) in DIR; between the
# block write and the next test (-y p holds it there) this script
# compresses the file with
#   zstd -3 --long=31    (a 2 GiB window with long-distance matching: any
#                         repeat of 64 bytes or more in the file is found)
#   zstd -19 --long=31   (the same window, the strongest level) and
#   xz -9                (LZMA, 64 MiB dictionary), unless -q
# and every 128 KiB, 1 MiB and 16 MiB record on its own with
#   zstd -3 --long=27    (any repeat within a record; what ZFS recordsize,
#                         btrfs extents and compressing arrays see)
# and prints each compressed size as a percentage of the original.
# Target: at least 99.5% everywhere (docs/pattern.md).
#
#   bench/incompressible.sh [-q] [-b CLYDE] [-s SIZE_MIB] [-z SEED] [DIR]
#
# DIR (default /var/tmp) needs three times SIZE free.  The compressors run
# at nice 19, the two slow ones side by side; they make only 1-3 MiB/s of
# one CPU on incompressible data, so 1 GiB takes 10-15 CPU minutes each
# (-q leaves them out).
set -euo pipefail

clyde=build/clyde
size=1024
seed=1
slow=1
while getopts qb:s:z: opt; do
	case $opt in
	q) slow=0 ;;
	b) clyde=$OPTARG ;;
	s) size=$OPTARG ;;
	z) seed=$OPTARG ;;
	*)
		echo "usage: $0 [-q] [-b CLYDE] [-s SIZE_MIB] [-z SEED] [DIR]" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
dir=$(mktemp -d "${1:-/var/tmp}/incompressible.XXXXXX")
pids=()
cleanup()
{
	# clyde first: stopped, it removes its scratch directory (closing its
	# stdin instead would let it run the rest of the suite).
	if ((${#pids[@]})); then kill "${pids[@]}" 2>/dev/null || true; fi
	exec 7>&- 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf -- "$dir"
}
trap cleanup EXIT

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)," \
	"$(nproc) CPUs, kernel $(uname -r); $(zstd --version); $(xz --version | head -1)"
echo "clyde: $clyde -s ${size}m -z $seed, in $dir"

mkfifo "$dir/fifo"
mkdir "$dir/d"
"$clyde" -d "$dir/d" -s "${size}m" -n 0 -f -r 0 -q --no-save -z "$seed" \
	-y p <"$dir/fifo" >"$dir/out" 2>&1 &
pids+=($!)
exec 7>"$dir/fifo"
echo >&7 # start the block write
file=
for ((i = 0; i < 6000; i++)); do
	file=$(find "$dir/d" -mindepth 2 -type f -size "$((size * 1024))k" |
		head -n 1)
	[[ -n $file ]] && break
	sleep 0.1
done
if [[ -z $file ]]; then
	echo "$0: no ${size} MiB file appeared" >&2
	cat "$dir/out" >&2
	exit 1
fi
sleep 0.5 # the last write() is done; clyde now waits for the next line
whole=$(stat -c %s "$file")

# pct SIZE: SIZE as a percentage of the file.
pct()
{
	echo "scale=3; 100 * $1 / $whole" | bc
}

start=$SECONDS
if ((slow)); then
	# Into files, not pipes: the PIDs are the compressors', to stop them.
	nice -n 19 zstd -q -19 --long=31 -c "$file" >"$dir/zstd19" &
	pids+=($!)
	nice -n 19 xz -9 -c "$file" >"$dir/xz9" &
	pids+=($!)
fi
echo "whole file, zstd -3 --long=31: $(pct "$(nice -n 19 zstd -q -3 --long=31 -c "$file" | wc -c)")%"
for rec in 128K 1M 16M; do
	mkdir "$dir/rec"
	split -b "$rec" -a 5 "$file" "$dir/rec/r."
	# One zstd, one frame per record.
	total=$(nice -n 19 zstd -q -3 --long=27 -c "$dir"/rec/r.* | wc -c)
	rm -rf "$dir/rec"
	echo "records of $rec, zstd -3 --long=27 each: $(pct "$total")%"
done
if ((slow)); then
	wait "${pids[1]}" "${pids[2]}"
	echo "whole file, zstd -19 --long=31: $(pct "$(stat -c %s "$dir/zstd19")")%"
	echo "whole file, xz -9: $(pct "$(stat -c %s "$dir/xz9")")%"
fi
echo "compression took $((SECONDS - start)) s"

#!/usr/bin/env bash
# The data clyde writes is incompressible and not deduplicable by default
# (bonnie++'s nearly-all-zero blocks flatter compressing filesystems), and
# bonnie++-like compressible zeros with --pattern zeros.
#
# "Incompressible" is checked with long-window compressors, which find a
# repeat anywhere earlier in the file (a 32 KiB zlib window does not):
# zstd -19 --long=31 and xz -9 of the whole file, and zstd with long-distance
# matching of every 128 KiB, 1 MiB and 16 MiB record on its own (what ZFS
# recordsize, btrfs extents and compressing arrays see).  Each must leave at
# least 99.5% of the size.  The file is 16 MiB, because zstd -19 and xz -9
# get through incompressible data at only 1-3 MiB/s; bench/incompressible.sh
# makes the same checks on 1 GiB.
#
# The file is inspected between two tests: -y p makes clyde wait for a line
# on stdin before each test, so after the block write it holds still.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3 mkfifo zstd xz split

SIZE_MIB=16

# sample OUT ARGS...: run clyde -s ${SIZE_MIB}m with ARGS up to the end of
# the block write, copy the written file to OUT, then let it finish.
sample()
{
	local out=$1 d file size
	shift
	d=$(new_dir "d$E2E_SEQ")
	start_paused -d "$d" -s "${SIZE_MIB}m" -n 0 -f -r 0 -q "$@"
	step # start the block write
	# shellcheck disable=SC2317 # called by wait_for
	written()
	{
		file=$(find "$d" -mindepth 2 -type f \
			-size "$((SIZE_MIB * 1024))k" | head -n 1)
		[[ -n $file ]] || ! kill -0 "$CLYDE_PID" 2>/dev/null
	}
	if ! wait_for 30 written || [[ -z $file ]]; then
		finish_paused
		show_output
		fail "no ${SIZE_MIB} MiB file appeared in the scratch directory"
	fi
	sleep 0.2 # the block write's last write() is done; let it close
	cp "$file" "$out"
	size=$(stat -c %s "$out")
	finish_paused
	expect_rc 0 "clyde $* -y p runs to the end"
	assert_eq "$size" $((SIZE_MIB << 20)) \
		"the block write's file is ${SIZE_MIB} MiB"
	assert_empty_dir "$d" "the -d directory is left empty"
}

# pct PART WHOLE: PART as a percentage of WHOLE, two decimals.
pct()
{
	python3 -c 'import sys; print("%.2f" % (100.0 * int(sys.argv[1]) / int(sys.argv[2])))' "$1" "$2"
}

# at_least PCT MIN: PCT >= MIN (decimals).
at_least()
{
	python3 -c 'import sys; sys.exit(float(sys.argv[1]) < float(sys.argv[2]))' "$1" "$2"
}

# records FILE SIZE: the compressed size of FILE cut into SIZE records,
# each compressed on its own (zstd long-distance matching: any repeat
# within a record is found).
records()
{
	local dir=$T/rec.$2
	mkdir "$dir"
	split -b "$2" -a 4 "$1" "$dir/r."
	zstd -q -3 --long=27 -c "$dir"/r.* | wc -c
	rm -rf "$dir"
}

# distinct FILE: the percentage of its 4 KiB blocks that occur once.
distinct()
{
	python3 - "$1" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
print(100 * len(set(blocks)) // len(blocks))
EOF
}

whole=$((SIZE_MIB << 20))

sample "$T/default" -z 77
# The two slow compressors run side by side.
zstd -q -19 --long=31 -c "$T/default" | wc -c >"$T/zstd.size" &
zpid=$!
xz -9 -c "$T/default" | wc -c >"$T/xz.size" &
xpid=$!
at_exit "kill $zpid $xpid"
for rec in 128K 1M 16M; do
	p=$(pct "$(records "$T/default" "$rec")" "$whole")
	at_least "$p" 99.5 ||
		fail "default data in $rec records compresses to $p% (zstd --long)"
	ok "default data in $rec records is incompressible (zstd --long: $p%)"
done
wait "$zpid" || fail "zstd -19 --long=31 failed"
wait "$xpid" || fail "xz -9 failed"
p=$(pct "$(cat "$T/zstd.size")" "$whole")
at_least "$p" 99.5 || fail "default data compresses to $p% (zstd -19 --long=31)"
ok "default data is incompressible (zstd -19 --long=31: $p%)"
p=$(pct "$(cat "$T/xz.size")" "$whole")
at_least "$p" 99.5 || fail "default data compresses to $p% (xz -9)"
ok "default data is incompressible (xz -9: $p%)"
d=$(distinct "$T/default")
[[ $d -eq 100 ]] || fail "only ${d}% of the 4 KiB blocks differ"
ok "default data does not deduplicate (every 4 KiB block differs)"

# --pattern random is the default, and the data follows the seed.
sample "$T/random" -z 77 --pattern random
cmp -s "$T/default" "$T/random" ||
	fail "--pattern random -z 77 differs from the default with -z 77"
ok "--pattern random is the default data, the same for the same seed"
sample "$T/other" -z 78
if cmp -s "$T/default" "$T/other"; then
	fail "-z 78 writes the same data as -z 77"
fi
ok "another seed writes other data"
# 1 MiB chunks: the next chunk is made by a helper thread while the write
# before it is in flight (workloads/fill_ahead.h); the bytes, in order,
# are the same stream as made in line before each 8 KiB write.
sample "$T/ahead" -z 77 -s "${SIZE_MIB}m:1024k"
cmp -s "$T/default" "$T/ahead" ||
	fail "1 MiB chunks made ahead by the helper differ from 8 KiB chunks made in line (-z 77)"
ok "data made ahead by the helper is the same stream, in order"
# The JSON records the time from a write's completion to the next
# submission (the refill gap) for the block write, and only there.
d=$(new_dir gap)
run_clyde -d "$d" -s 8m:1024k -n 0 -f -r 0 -q --no-save --json "$T/gap.json"
expect_rc 0 "block write with 1 MiB chunks"
gap=$(python3 -c 'import json, sys
t = {t["name"]: t for t in json.load(open(sys.argv[1]))["runs"][0]["tests"]}
g = t["put_block"]["refill_gap_mean_ns"]
print("ok" if isinstance(g, (int, float)) and g >= 0 and t["get_block"]["refill_gap_mean_ns"] is None else "bad %r" % g)' "$T/gap.json")
assert_eq "$gap" ok "put_block's refill_gap_mean_ns is a number, get_block's null"
rm -f "$T/random" "$T/other" "$T/ahead"

sample "$T/zeros" --pattern zeros
p=$(pct "$(zstd -q -3 -c "$T/zeros" | wc -c)" "$whole")
at_least 5 "$p" || fail "--pattern zeros compresses only to $p%"
ok "--pattern zeros is compressible like bonnie++'s data (zstd: $p%)"

done_testing

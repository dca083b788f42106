#!/usr/bin/env bash
# The data clyde writes is incompressible and not deduplicable by default
# (bonnie++'s nearly-all-zero blocks flatter compressing filesystems), and
# bonnie++-like compressible zeros with --pattern zeros.
#
# The file is inspected between two tests: -y p makes clyde wait for a line
# on stdin before each test, so after the block write it holds still.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3 mkfifo

# sample ARGS...: run clyde -s 16m with ARGS up to the end of the block
# write, copy the written file to $T/sample, then let it finish.
sample()
{
	local d file size
	d=$(new_dir "d$E2E_SEQ")
	start_paused -d "$d" -s 16m -n 0 -f -r 0 -q "$@"
	step # start the block write
	# shellcheck disable=SC2317 # called by wait_for
	written()
	{
		file=$(find "$d" -mindepth 2 -type f -size 16384k | head -n 1)
		[[ -n $file ]] || ! kill -0 "$CLYDE_PID" 2>/dev/null
	}
	if ! wait_for 20 written || [[ -z $file ]]; then
		finish_paused
		show_output
		fail "no 16 MiB file appeared in the scratch directory"
	fi
	sleep 0.2 # the block write's last write() is done; let it close
	cp "$file" "$T/sample"
	size=$(stat -c %s "$T/sample")
	finish_paused
	expect_rc 0 "clyde $* -y p runs to the end"
	assert_eq "$size" 16777216 "the block write's file is 16 MiB"
	assert_empty_dir "$d" "the -d directory is left empty"
}

# measure FILE: prints "<zlib ratio in %> <distinct 4 KiB blocks in %>".
measure()
{
	python3 - "$1" <<'EOF'
import sys, zlib
data = open(sys.argv[1], "rb").read()
ratio = 100.0 * len(zlib.compress(data, 1)) / len(data)
blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
print("%d %d" % (ratio, 100 * len(set(blocks)) // len(blocks)))
EOF
}

sample
read -r ratio distinct <<<"$(measure "$T/sample")"
[[ $ratio -ge 98 ]] || fail "default data compresses to ${ratio}%"
ok "default data is incompressible (zlib: ${ratio}%)"
[[ $distinct -eq 100 ]] || fail "only ${distinct}% of the 4 KiB blocks differ"
ok "default data does not deduplicate (every 4 KiB block differs)"

sample --pattern random
read -r ratio distinct <<<"$(measure "$T/sample")"
[[ $ratio -ge 98 && $distinct -eq 100 ]] ||
	fail "--pattern random: zlib ${ratio}%, ${distinct}% distinct blocks"
ok "--pattern random is incompressible"

sample --pattern zeros
read -r ratio distinct <<<"$(measure "$T/sample")"
[[ $ratio -le 5 ]] || fail "--pattern zeros compresses only to ${ratio}%"
ok "--pattern zeros is compressible like bonnie++'s data (zlib: ${ratio}%)"

done_testing

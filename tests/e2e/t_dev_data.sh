#!/usr/bin/env bash
# What clyde dev writes: every byte new (the generator clyde run uses, per
# request), for seqwrite, randwrite and zcav -w; zeros with --pattern
# zeros.  The old code filled its depth's buffers once and wrote them over
# and over: 256 requests of 64 KiB from one buffer made a file that zstd
# shrank to almost nothing.  As t_pattern does for clyde run, long-window
# compressors (zstd -19 --long=31, xz -9) must leave at least 99.5% of the
# file, and no 4 KiB block may occur twice.
#
# The target is a regular file standing in for a device (O_DIRECT on the
# filesystem of $T); a filesystem without O_DIRECT is a skip.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3 zstd xz

SIZE_MIB=16
whole=$((SIZE_MIB << 20))
img=$T/dev.img

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

# blocks FILE: "distinct nonzero" counts of its 4 KiB blocks that are not
# all zeros: how many differ, and how many there are.
blocks()
{
	python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
zero = bytes(4096)
b = [data[i:i + 4096] for i in range(0, len(data), 4096)]
b = [x for x in b if x != zero]
print(len(set(b)), len(b))
PY
}

# fresh: a file of zeros (holes) for the next test.
fresh()
{
	rm -f "$img"
	truncate -s "${SIZE_MIB}M" "$img"
}

# incompressible WHAT: the file does not shrink under zstd -19 --long=31.
incompressible()
{
	local p
	p=$(pct "$(zstd -q -19 --long=31 -c "$img" | wc -c)" "$whole")
	at_least "$p" 99.5 || fail "$1: zstd -19 --long=31 shrinks it to $p%"
	ok "$1: incompressible (zstd -19 --long=31: $p%)"
}

fresh
run_clyde dev "$img" --no-save --tests seqwrite --bs 64k --size "${SIZE_MIB}m" \
	--seed 5 --destroy-data -q
if [[ $RC -ne 0 ]] && grep -q 'O_DIRECT' "$T/err"; then
	skip "no O_DIRECT on the filesystem of $T: $(cat "$T/err")"
fi
expect_rc 0 "seqwrite of 256 requests of 64 KiB"
incompressible seqwrite
p=$(pct "$(xz -9 -c "$img" | wc -c)" "$whole")
at_least "$p" 99.5 || fail "seqwrite: xz -9 shrinks it to $p%"
ok "seqwrite: incompressible (xz -9: $p%)"
read -r n all < <(blocks "$img")
assert_eq "$all" $((whole / 4096)) "seqwrite wrote every 4 KiB block"
assert_eq "$n" "$all" "seqwrite: no 4 KiB block occurs twice"
cp "$img" "$T/seq5"

# The same seed writes the same data; another seed other data.
fresh
run_clyde dev "$img" --no-save --tests seqwrite --bs 64k --size "${SIZE_MIB}m" \
	--seed 5 --destroy-data -q
expect_rc 0 "seqwrite again with --seed 5"
cmp -s "$img" "$T/seq5" || fail "--seed 5 wrote other data the second time"
ok "the same seed writes the same data"
rm -f "$T/seq5"

# randwrite: every request's block new (the file starts as zeros).
fresh
run_clyde dev "$img" --no-save --tests randwrite --rand-bs 4k --rand-ops 2000 \
	--seed 6 --destroy-data -q
expect_rc 0 "randwrite of 2000 requests of 4 KiB"
read -r n all < <(blocks "$img")
[[ $all -ge 1500 ]] || fail "randwrite left only $all written blocks of 2000 requests"
assert_eq "$n" "$all" "randwrite: the $all written 4 KiB blocks all differ"

# zcav -w over 1 MiB blocks: the whole file, new data.
fresh
run_clyde dev "$img" --no-save --tests zcav -w -b 1 --seed 7 --destroy-data -q
expect_rc 0 "zcav -w"
incompressible "zcav -w"
read -r n all < <(blocks "$img")
assert_eq "$n" "$all" "zcav -w: no 4 KiB block occurs twice ($all blocks)"
assert_eq "$all" $((whole / 4096)) "zcav -w wrote every block"

# --pattern zeros: bonnie++'s data, compressible, for who wants it.
for args in "--tests seqwrite --bs 64k" "--tests zcav -w -b 1"; do
	fresh
	# shellcheck disable=SC2086
	run_clyde dev "$img" --no-save $args --pattern zeros --destroy-data \
		--json "$T/z.json" -q
	expect_rc 0 "$args --pattern zeros"
	p=$(pct "$(zstd -q -3 -c "$img" | wc -c)" "$whole")
	at_least 5 "$p" || fail "$args --pattern zeros compresses only to $p%"
	ok "$args --pattern zeros is compressible (zstd: $p%)"
	assert_file_match "$T/z.json" '"pattern": "zeros"' "the JSON records the pattern"
done
# A file on a disk's filesystem is not marked as memory's; one on tmpfs
# (where the kernel takes O_DIRECT) is: its pages are its storage.
fresh
run_clyde dev "$img" --no-save --tests seqread --size 4m
expect_rc 0 "seqread of the file"
assert_file_no_match "$T/out" "memory" "a file on $(stat -f -c %T "$T"): not marked as memory's"
if [[ $(stat -f -c %T /dev/shm 2>/dev/null) == tmpfs ]]; then
	shm=$(mktemp /dev/shm/clyde-t_dev_data.XXXXXX)
	at_exit "rm -f '$shm'"
	truncate -s 4M "$shm"
	run_clyde dev "$shm" --no-save --tests seqread --json "$T/shm.json"
	if [[ $RC -eq 0 ]]; then
		assert_file_match "$T/out" "^seqread .*  memory$" "a file on tmpfs: marked as memory's"
		assert_file_match "$T/out" "^memory: $shm is on a memory filesystem" "and why"
		assert_file_match "$T/shm.json" '"from_memory": true' "the JSON says from_memory"
	else
		echo "# /dev/shm takes no O_DIRECT here: $(cat "$T/err")"
	fi
fi

run_clyde dev "$img" --no-save --pattern ones
expect_rc 1 "--pattern ones is refused"
assert_eq "$(wc -l <"$T/err")" 1 "in one line"
assert_file_match "$T/err" '^clyde dev: --pattern: "ones" is not a pattern; use random or zeros$' \
	"naming the option and what it takes"
done_testing

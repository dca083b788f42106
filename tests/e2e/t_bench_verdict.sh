#!/usr/bin/env bash
# The bench's verdicts say what the pairs support (issue 35, item 5), on
# canned values, never on timings:
# - bench_decide (bench/decide.c, clyde's until-decided rule) and
#   bench/verdict.py: every pair on one side of the target is ok or MISSED;
#   a per-repeat range that spans the target is "within noise" unless the
#   rule decides it, with "repeat" while fewer than MAX pairs; bad input is
#   one line and exit 2;
# - bench/fio_compare.sh -U MAX, run with a stand-in clyde and fio that
#   report canned rates: a metric within noise after -n pairs gets more
#   pairs until the rule decides it, the verdict says how many it took, and
#   the cost table is printed; a metric decided at -n stops there.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3
DECIDE=$(dirname "$CLYDE")/bench_decide
[[ -x $DECIDE ]] || fail "no bench_decide next to $CLYDE (built with clyde)"
VERDICT=$CLYDE_SRC/bench/verdict.py
cd "$T"

# --- bench_decide on canned pairs ----------------------------------------
line() { "$DECIDE" "$@" | cut -f1-3; }
assert_eq "$(line '>=0.95' 100,101,99 100,100,100)" "ok	3	stop" \
	"every pair above the target: ok"
assert_eq "$(line '>=0.95' 90,91,89 100,100,100)" "MISSED	3	stop" \
	"every pair below the target: MISSED"
assert_eq "$(line -m 8 '>=0.95' 80,120,100 100,100,100)" "within noise	3	repeat" \
	"a range spanning the target, not decided, under the bound: within noise, repeat"
assert_eq "$(line -m 3 '>=0.95' 80,120,100 100,100,100)" "within noise	3	stop" \
	"the same at the bound: within noise, stop"
assert_eq "$(line -m 8 '0.9-1.1' 100,101,99,100,102,88 100,100,100,100,100,100)" "ok	6	stop" \
	"a range spanning a bound but significantly inside it: ok"
assert_eq "$(line -m 8 '>=0.95' 80,82,81,79,80,97 100,100,100,100,100,100)" "MISSED	6	stop" \
	"a range spanning the target but significantly below it: MISSED"
assert_eq "$(line -m 8 '<=1.0' 10,10.2,9.9,10.1 10,10,10,10)" "within noise	4	stop" \
	"equivalent to the bound: within noise, and more pairs are not asked for"
for bad in "x 1 1" "'>=0' 1 1" ">=1 1,2 1" ">=1 1,-2 1,1" "-m 1 >=1 1 1"; do
	set +e
	eval "\"$DECIDE\" $bad" >out.txt 2>err.txt
	rc=$?
	set -e
	[[ $rc == 2 && ! -s out.txt && $(wc -l <err.txt) == 1 ]] ||
		fail "bench_decide $bad: exit $rc, $(wc -l <err.txt) lines on stderr"
	assert_file_match err.txt '^bench_decide: ' "bench_decide $bad: one line naming what is wrong"
done

# --- bench/verdict.py ---------------------------------------------------------
assert_eq "$(python3 "$VERDICT" -r '>=0.95' 0.90-1.02 | cut -f1)" "within noise" \
	"verdict.py -r: a range spanning the target"
assert_eq "$(python3 "$VERDICT" -r '<=1.0' 0.80-0.99 | cut -f1)" "ok" "verdict.py -r: below <=1.0"
assert_eq "$(python3 "$VERDICT" -r '0.9-1.1' 1.12-1.30 | cut -f1)" "MISSED" "verdict.py -r: above 0.9-1.1"
assert_eq "$(python3 "$VERDICT" -d "$DECIDE" -m 8 '>=0.95' 80,120,100 100,100,100 | cut -f1-3)" \
	"within noise	3	repeat" "verdict.py with bench_decide: the same as bench_decide"
assert_eq "$(python3 "$VERDICT" -m 8 '>=0.95' 80,120,100 100,100,100 | cut -f1-3)" \
	"within noise	3	repeat" "verdict.py without bench_decide: the range alone"

# --- fio_compare.sh -U with stand-ins reporting canned rates --------------
# Block write: clyde 100, 80, 82, 81, 79, 80, 81, 80 MiB/s against fio's
# 100: the first two pairs span 0.95, the rule decides later (the pair it
# took is what bench_decide says for the first n that stops).  Read and
# random I/O: equal on both sides, ok at 2 pairs.
mkdir bin
# The stand-ins are shell (a python start costs seconds at load 15).
# clyde: its n-th run reports WRITE[n] MiB/s for put_block; rewrite 40,
# get_block 50, seeks 10 MiB/s; 2 us user and 20 us system CPU per chunk.
cat >bin/clyde <<'SH'
#!/bin/bash
WRITE=(100 80 82 81 79 80 81 80)
[[ $1 == --version ]] && { echo "clyde canned"; exit 0; }
n=$(cat "$CANNED/clyde.n" 2>/dev/null || echo 0)
echo $((n + 1)) >"$CANNED/clyde.n"
while [[ $# -gt 0 && $1 != --json ]]; do shift; done
t() { # name MiB/s
	printf '{"name":"%s","rate_per_s":%d,"bytes":67108864,"elapsed_ns":%d,"cpu_user_ns":16384000,"cpu_sys_ns":163840000,"cache":{"residency":0.0},"device":null}' \
		"$1" $(($2 << 20)) $((64000000000 / $2))
}
printf '{"runs":[{"tests":[%s,%s,%s,%s]}]}' "$(t put_block "${WRITE[n]}")" \
	"$(t rewrite 40)" "$(t get_block 50)" "$(t seeks 10)" >"$2"
SH
# fio: write 100, read 50 MiB/s, randrw 10 MiB/s (90% reads); 1% user and
# 10% system CPU of a 1000 ms job_runtime; the write jobs counted.
cat >bin/fio <<'SH'
#!/bin/bash
[[ $1 == --version ]] && { echo "fio-canned"; exit 0; }
name=${1#--name=}
io() { # MiB/s iops
	printf '{"bw_bytes":%d,"io_bytes":67108864,"total_ios":8192,"iops":%s}' $(($1 << 20)) "$2"
}
none='{"bw_bytes":0,"io_bytes":0,"total_ios":0,"iops":0}'
case $name in
write) n=$(cat "$CANNED/fio.n" 2>/dev/null || echo 0); echo $((n + 1)) >"$CANNED/fio.n"
	r=$none w=$(io 100 12800) ;;
rewrite) r=$none w=$(io 40 5120) ;;
read | reread) r=$(io 50 6400) w=$none ;;
*) r=$(io 10 1152) w=$(io 10 128) ;;
esac
printf '{"jobs":[{"read":%s,"write":%s,"usr_cpu":1.0,"sys_cpu":10.0,"job_runtime":1000}]}\n' "$r" "$w"
SH
# The bench syncs everything before each side; nothing here is written
# but a few JSON files, and on the shared disk a sync waits for everyone's
# writeback (minutes at load 15).
printf '#!/bin/sh\nexit 0\n' >bin/sync
chmod +x bin/clyde bin/fio bin/sync
new_tmpfs_dir work
cp "$DECIDE" bin/bench_decide
export CANNED=$T

# What the rule says after n pairs, n = 2 .. 8: the pairs it should take.
want=
for n in 2 3 4 5 6 7 8; do
	c=$(IFS=,; w=(100 80 82 81 79 80 81 80); echo "${w[*]:0:n}")
	p=$(IFS=,; w=(100 100 100 100 100 100 100 100); echo "${w[*]:0:n}")
	v=$("$DECIDE" -m 8 '>=0.95' "$c" "$p")
	if [[ $(cut -f3 <<<"$v") == stop ]]; then
		want=$n
		wantv=$(cut -f1 <<<"$v")
		break
	fi
done
[[ -n $want && $want -gt 2 ]] || fail "the canned values should need more than 2 pairs (got '$want')"

PATH=$T/bin:$PATH bash "$CLYDE_SRC/bench/fio_compare.sh" -D -K -n 2 -U 8 -S 256 -j 2 \
	-b "$T/bin/clyde" "$DIR" 64m >out.txt 2>err.txt || {
	cat err.txt >&2
	fail "fio_compare.sh with the stand-ins exited $?"
}
assert_eq "$(cat clyde.n)" "$want" "clyde ran the pairs the rule needed ($want)"
assert_eq "$(cat fio.n)" "$want" "fio's write job as many times"
assert_file_match out.txt "^block write  MiB/s .* >=0\.95 +$wantv \($want pairs\)$" \
	"the block write row: the verdict and the pairs it took"
assert_file_match out.txt '^block read   MiB/s .* >=0\.95 +ok \(' "block read: ok"
assert_file_match out.txt '^random I/O   ops/s .* 0\.9-1\.1 +ok \(' "random I/O: ok"
assert_file_match out.txt '^block write us/op +2\.00 +20\.00 +- +' \
	"the cost per operation beside it: clyde's user and system CPU from its JSON"
assert_file_match out.txt '^block write us/op( +\S+){3} +1\.22 +12\.21 ' \
	"fio's from usr_cpu and sys_cpu times job_runtime over its operations"

# Decided at -n: no more pairs.
rm -f clyde.n fio.n
sed -i 's/^WRITE=.*/WRITE=(100 100 100 100 100 100 100 100)/' bin/clyde
PATH=$T/bin:$PATH bash "$CLYDE_SRC/bench/fio_compare.sh" -D -K -n 2 -U 8 -S 256 -j 2 \
	-b "$T/bin/clyde" "$DIR" 64m >out.txt 2>err.txt || fail "fio_compare.sh (decided) exited $?"
assert_eq "$(cat clyde.n)" 2 "every metric decided at -n 2: no more pairs"
assert_file_match out.txt '^block write  MiB/s .* ok \(2 pairs\)$' "block write ok at 2 pairs"

done_testing

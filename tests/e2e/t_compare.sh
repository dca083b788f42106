#!/usr/bin/env bash
# clyde compare: bonnie++ CSV of every format and clyde JSON side by side.
# The table for a known input is checked byte for byte; malformed lines and
# files get one "file:line: reason" each and the rest is still compared;
# exit 0 when something was compared, 1 when nothing could be read; real
# clyde JSON with repeats gets Welch's significance marks.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

fixtures=$CLYDE_SRC/tests/fixtures

# --- A: a known input, exactly.  Two bonnie++ 1.03 lines (mdraid chunk
# 64k and 128k) and a 1.96 line after a header line.
cat >"$T/old.csv" <<'EOF_OLD'
devil2,8G,88390,99,175541,25,88470,17,51515,80,289555,27,389.0,0,16,2419,15,+++++,+++,1219,5,1502,9,+++++,+++,920,4
devil2,8G,88849,99,174076,24,84382,15,58716,80,291795,27,406.7,0,16,1254,4,+++++,+++,619,2,802,2,+++++,+++,668,2
EOF_OLD
cat >"$T/new.csv" <<'EOF_NEW'
format_version,bonnie_version,name,concurrency,seed,file_size,chunk_size
1.96,1.96,xfs,1,1295938326,16G,,425,98,182929,64,46956,41,955,97,201274,83,517.6,30,16,,,,,93,1,+++++,+++,90,1,123,1,+++++,+++,127,1,42207us,2377ms,195ms,33339us,86675us,84167us,939ms,2279us,1415ms,307ms,1057us,724ms
EOF_NEW
cat >"$T/want" <<'EOF_WANT'
test        metric   unit          64k      128k  change       xfs   change
putc        rate     MiB/s        86.3    86.8 *   +0.5%     0.415   -99.5%
putc        CPU      %              99        99   +0.0%      98 *    -1.0%
putc        lat max  ms                                       42.2
put_block   rate     MiB/s       171.4     170.0   -0.8%   178.6 *    +4.2%
put_block   CPU      %              25      24 *   -4.0%        64  +156.0%
put_block   lat max  s                                        2.38
rewrite     rate     MiB/s      86.4 *      82.4   -4.6%      45.9   -46.9%
rewrite     CPU      %              17      15 *  -11.8%        41  +141.2%
rewrite     lat max  ms                                      195.0
getc        rate     MiB/s        50.3    57.3 *  +14.0%     0.933   -98.1%
getc        CPU      %            80 *      80 *   +0.0%        97   +21.2%
getc        lat max  ms                                       33.3
get_block   rate     MiB/s       282.8   285.0 *   +0.8%     196.6   -30.5%
get_block   CPU      %            27 *      27 *   +0.0%        83  +207.4%
get_block   lat max  ms                                       86.7
seeks       rate     seeks/s     389.0     406.7   +4.6%   517.6 *   +33.1%
seeks       CPU      %             0 *       0 *                30
seeks       lat max  ms                                       84.2
seq_create  rate     files/s    2419 *      1254  -48.2%      93.0   -96.2%
seq_create  CPU      %              15         4  -73.3%       1 *   -93.3%
seq_create  lat max  ms                                      939.0
seq_stat    rate     files/s  too fast  too fast          too fast
seq_stat    lat max  ms                                       2.28
seq_del     rate     files/s    1219 *     619.0  -49.2%      90.0   -92.6%
seq_del     CPU      %               5         2  -60.0%       1 *   -80.0%
seq_del     lat max  s                                        1.42
ran_create  rate     files/s    1502 *     802.0  -46.6%     123.0   -91.8%
ran_create  CPU      %               9         2  -77.8%       1 *   -88.9%
ran_create  lat max  ms                                      307.0
ran_stat    rate     files/s  too fast  too fast          too fast
ran_stat    lat max  ms                                       1.06
ran_del     rate     files/s   920.0 *     668.0  -27.4%     127.0   -86.2%
ran_del     CPU      %               4         2  -50.0%       1 *   -75.0%
ran_del     lat max  ms                                      724.0

* best in its row (rates: highest; CPU and latency: lowest)
too fast: ran under 0.5 s (+++++), no number recorded
change: against 64k

64k: old.csv:1 (bonnie++ CSV 1.03)
128k: old.csv:2 (bonnie++ CSV 1.03)
xfs: new.csv:2 (bonnie++ CSV 1.96)
EOF_WANT
# The expected table names its sources relative to where it ran.
cd "$T"
run_clyde compare old.csv new.csv --baseline 1 --label 64k,128k
expect_rc 0 "compare of three CSV lines succeeds"
if ! diff -u "$T/want" "$T/out" >"$T/diff"; then
	cat "$T/diff" >&2
	fail "the table differs from the expected one"
fi
ok "the text table is exactly the expected one"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "nothing on stderr"

# The same in CSV: a header, then one line per row, same numbers.
run_clyde compare old.csv new.csv --format=csv
expect_rc 0 "--format=csv"
assert_eq "$(head -n 1 "$T/out")" "test,metric,unit,devil2,devil2#2,xfs,best" \
	"CSV header: unique labels from the run names"
assert_file_match "$T/out" '^putc,rate,MiB/s,86\.3,86\.8,0\.415,devil2#2$' \
	"CSV putc row"
assert_file_match "$T/out" '^seq_stat,rate,files/s,too fast,too fast,too fast,$' \
	"+++++ reads as too fast, never 0"
assert_eq "$(awk -F, '{print NF}' "$T/out" | sort -u)" 7 \
	"every CSV line has the same number of fields"
run_clyde compare old.csv new.csv --format markdown
expect_rc 0 "--format markdown"
assert_file_match "$T/out" '^\| test \| metric \| unit \| devil2 \| devil2\\#2 \| xfs \|$' \
	"markdown header, '#' escaped"
assert_file_match "$T/out" '^\| put\\_block \| rate \| MiB/s \| 171\.4 \| 170\.0 \| \*\*178\.6 \\\*\*\* \|$' \
	"markdown: the best value in bold"
# stdin works as a file named "-".
run_clyde compare - new.csv <old.csv
expect_rc 0 "stdin as -"
assert_file_match "$T/out" '^devil2: -:1 \(bonnie\+\+ CSV 1\.03\)$' "stdin source"

# --- B: malformed input: one message each, the rest still compared.
{
	head -n 1 old.csv
	echo "1.98,2.00a,short,1"
	echo "1.96,1.96,xfs,1,1,16G,,425,98"
	tail -n 1 old.csv
} >"$T/mixed.csv"
printf '{"schema": "clyde-result",\n "schema_version": 1,\n "runs": [,]}\n' \
	>"$T/broken.json"
printf '{"schema": "clyde-result", "schema_version": 9, "runs": []}\n' \
	>"$T/future.json"
: >"$T/empty.csv"
run_clyde compare mixed.csv
expect_rc 0 "malformed lines: still exit 0 when every file gave a result"
assert_file_match "$T/err" '^clyde compare: mixed\.csv:2: .*field' \
	"a short 1.98 line is named with its line"
assert_file_match "$T/err" '^clyde compare: mixed\.csv:3: ' \
	"a short 1.96 line is named with its line"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 2 "one message per bad line"
assert_match "$(head -n 1 "$T/out")" '^test +metric +unit +devil2 +devil2#2$' \
	"the two good lines are still compared"
assert_file_match "$T/out" '^devil2#2: mixed\.csv:4 ' "the line after the bad ones"

# An input that gives no result is an error: a mistyped name must not
# drop a column in silence.  Every reason is still said.
run_clyde compare mixed.csv broken.json future.json empty.csv missing.csv
expect_rc 1 "inputs without a result: exit 1"
assert_file_match "$T/err" '^clyde compare: broken\.json:3: expected a value, found .,.$' \
	"broken JSON: file, line, reason"
assert_file_match "$T/err" '^clyde compare: future\.json:1: schema_version 9 is newer than this clyde reads \(1\)$' \
	"newer schema refused with a reason"
assert_file_match "$T/err" '^clyde compare: empty\.csv: no results in the file \(it is empty\)$' \
	"an empty file is reported"
assert_file_match "$T/err" '^clyde compare: cannot open missing\.csv: No such file' \
	"a missing file is reported"
assert_file_match "$T/err" '^clyde compare: 4 of 5 inputs gave no result; nothing written$' \
	"the count of inputs without a result"
assert_eq "$(wc -c <"$T/out" | tr -d ' ')" 0 "no table with a column missing"
run_clyde compare old.csv olld.csv
expect_rc 1 "a mistyped file name: exit 1"
assert_file_match "$T/err" 'cannot open olld\.csv' "names the mistyped file"

# A file too big to be a result is refused by its size, before reading:
# a sparse 100 GiB file takes no time.
truncate -s 100G "$T/huge.csv"
SECONDS=0
run_clyde compare old.csv huge.csv
expect_rc 1 "a 100 GiB input: exit 1"
assert_file_match "$T/err" '^clyde compare: huge\.csv: 102400 MiB, larger than the 64 MiB a result file may be; not read$' \
	"refused by its size, with both sizes"
((SECONDS < 10)) || fail "the huge file was read (${SECONDS}s)"
ok "refused without reading"
rm -f "$T/huge.csv"

# A table that cannot be written is a failure.
if [[ -w /dev/full ]]; then
	RC=0
	"$CLYDE" compare old.csv >/dev/full 2>"$T/err" || RC=$?
	expect_rc 1 "compare >/dev/full: exit 1"
	assert_file_match "$T/err" 'No space left on device' \
		"says the output failed"
fi

run_clyde compare broken.json empty.csv
expect_rc 1 "nothing readable: exit 1"
assert_file_match "$T/err" '2 of 2 inputs gave no result' "says so"
run_clyde compare old.csv --baseline 3
expect_rc 1 "a baseline past the last result"
assert_file_match "$T/err" 'baseline 3 is not a result number \(1 to 2\)' \
	"names the range"
run_clyde compare old.csv --format html
expect_rc 1 "unknown format"
run_clyde compare --bogus old.csv
expect_rc 1 "unknown option"
run_clyde compare
expect_rc 1 "no files"
run_clyde compare --help
expect_rc 0 "--help"
assert_file_match "$T/out" '^usage: clyde compare' "usage on stdout"

# --- C: every fixture line reads (each file is one format).
[[ -d $fixtures ]] || fail "no fixtures at $fixtures"
run_clyde compare "$fixtures/bonnie-1.03.csv" \
	"$fixtures/bonnie-1.96.csv" "$fixtures/bonnie-1.98.csv" \
	--format csv
expect_rc 0 "all fixtures"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "no fixture line is malformed"
assert_eq "$(head -n 1 "$T/out")" \
	"test,metric,unit,devil2,devil2#2,devil2#3,devil2#4,xfs,ext4,vm,vm#2,vm#3,best" \
	"nine runs, labels made unique"
assert_file_match "$T/out" '^seeks,rate,seeks/s,389\.0,406\.7,368\.5,402\.1,517\.6,710\.9,5113,,too fast,vm$' \
	"seek rates of all formats (%.1f kept), empty and +++++"
assert_file_match "$T/out" '^seq_create,lat max,ms,,,,,939\.0,0\.206,1\.38,6\.20,0\.392,ext4$' \
	"latencies in us and ms, none in 1.03"

# --- D: real clyde JSON, two configurations with two repeats each.
d=$(new_dir d)
run_clyde -d "$d" -s 16m -n 1 -r 0 -f -x 2 -m one --json "$T/one.json" -q
expect_rc 0 "clyde -x 2 --json (one)"
run_clyde -d "$d" -s 16m -n 1 -r 0 -f -x 2 -m two --json "$T/two.json" -q
expect_rc 0 "clyde -x 2 --json (two)"
# A schema regression is a failure, never a skip.
assert_file_match "$T/one.json" '"schema_version": 1' "one.json is schema v1"
assert_file_match "$T/two.json" '"schema_version": 1' "two.json is schema v1"
run_clyde compare one.json two.json --baseline 1
expect_rc 0 "compare of two JSON results"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "the JSON reads without complaint"
assert_match "$(head -n 1 "$T/out")" '^test +metric +unit +one +two +change$' \
	"labels from the JSON"
assert_file_match "$T/out" '^one: one\.json:1 \(clyde JSON v1, 2 repeats\)$' \
	"two repeats per result"
assert_file_match "$T/out" "Welch's t-test" "the significance legend"
assert_file_match "$T/out" '^seq_create +rate +files/s .*\((s|ns)\)' \
	"a significance mark on a test with repeats"
run_clyde compare one.json old.csv
expect_rc 0 "JSON and CSV mixed"
assert_file_match "$T/out" '^put_block +rate +MiB/s ' "one row, one unit"
done_testing

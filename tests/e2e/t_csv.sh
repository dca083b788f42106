#!/usr/bin/env bash
# The CSV line is bonnie++'s 1.98 format with 50 fields, each value in its
# column; bonnie++'s own bon_csv2txt and bon_csv2html read it; -q, -x N and
# -x 1 put the table and the CSV where bonnie++ does.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

ver=$(sed -n 's/^project(clyde VERSION \([^ )]*\).*/\1/p' \
	"$CLYDE_SRC/CMakeLists.txt")
d=$(new_dir d)
lat_re='^[0-9]+(us|ms|s)$'
rate_re='^([0-9]+|\+\+\+\+\+)$'
cpu_re='^([0-9]+|\+\+\+)$'

# --- A: defaults for chunk/seeks/seekers, per-char on (1 MiB), -q.
run_clyde -d "$d" -s 64m -n 1 -r 0 -f1 -z 42 -m csvhost -q
expect_rc 0 "clyde -q run succeeds"
assert_empty_dir "$d" "the -d directory is left empty"
assert_eq "$(wc -l <"$T/out" | tr -d ' ')" 1 "-q: only the CSV line on stdout"
line=$(cat "$T/out")
assert_eq "$(csv_nfields "$line")" 50 "50 fields"
assert_eq "$(csv_field "$line" 1)" 1.98 "format_version"
assert_eq "$(csv_field "$line" 2)" "$ver" "bonnie_version is clyde's version"
assert_eq "$(csv_field "$line" 3)" csvhost "name from -m"
assert_eq "$(csv_field "$line" 4)" 1 "concurrency"
assert_eq "$(csv_field "$line" 5)" 42 "seed from -z"
assert_eq "$(csv_field "$line" 6)" 64M "file_size"
assert_eq "$(csv_field "$line" 7)" 8192 "io_chunk_size default"
assert_eq "$(csv_field "$line" 8)" 8192 "seeks default"
assert_eq "$(csv_field "$line" 9)" 5 "seek_proc_count default"
for i in 10 12 14 16 18 20 27 29 31 33 35 37; do
	assert_match "$(csv_field "$line" "$i")" "$rate_re" "field $i is a rate"
	assert_match "$(csv_field "$line" $((i + 1)))" "$cpu_re" \
		"field $((i + 1)) is a %CP"
done
assert_eq "$(csv_field "$line" 22)" 1 "num_files"
for i in $(seq 39 50); do
	assert_match "$(csv_field "$line" "$i")" "$lat_re" "field $i is a latency"
done
assert_file_match "$T/err" '^Name:Size etc +/sec %CP' "-q: the table is on stderr"
assert_file_match "$T/err" '^csvhost +64M ' "-q: the data row is on stderr"
assert_file_no_match "$T/err" '(Writing|Reading|Rewriting|Create files).*done' \
	"-q: no progress lines"

# bonnie++'s tools read the line.
require_cmd "reading the line with bonnie++'s tools" bon_csv2txt bon_csv2html
rc=0
bon_csv2txt <"$T/out" >"$T/txt" 2>"$T/txt.err" || rc=$?
assert_eq "$rc" 0 "bon_csv2txt exits 0"
assert_file_no_match "$T/txt.err" 'Expected' "bon_csv2txt accepts the line"
assert_file_match "$T/txt" '^csvhost' "bon_csv2txt shows the machine name"
assert_file_match "$T/txt" " $(csv_field "$line" 40)( |\$)" \
	"bon_csv2txt shows our block write latency"
assert_file_match "$T/txt" " $(csv_field "$line" 50)\$" \
	"bon_csv2txt shows our random delete latency"
rc=0
bon_csv2html <"$T/out" >"$T/html" 2>"$T/html.err" || rc=$?
assert_eq "$rc" 0 "bon_csv2html exits 0"
assert_file_no_match "$T/html.err" 'Expected' "bon_csv2html accepts the line"
assert_file_match "$T/html" '<table' "bon_csv2html makes a table"
assert_file_match "$T/html" '>csvhost<' "the HTML has the machine name"
assert_file_match "$T/html" ">$(csv_field "$line" 44)<" \
	"the HTML has our seek latency"

# --- B: -x 2 with chunk, seeks, seekers and file sizes given, -f, -c 2.
run_clyde -d "$d" -s 64m:4096:1000:3 -n 1:2000:100:3 -r 0 -f -c 2 -z 7 \
	-m xhost -x 2
expect_rc 0 "clyde -x 2 -c 2 succeeds"
assert_empty_dir "$d" "the -d directory is left empty"
mapfile -t L <"$T/out"
assert_eq "${#L[@]}" 3 "-x 2: header and two lines on stdout"
assert_eq "$(csv_nfields "${L[0]}")" 50 "header has 50 names"
assert_match "${L[0]}" '^format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,' \
	"header starts with bonnie++'s names"
assert_match "${L[0]}" ',ran_del_latency$' "header ends with ran_del_latency"
for i in 1 2; do
	l=${L[i]}
	assert_eq "$(csv_nfields "$l")" 50 "run $i: 50 fields"
	assert_eq "$(csv_field "$l" 3)" xhost "run $i: name"
	assert_eq "$(csv_field "$l" 4)" 2 "run $i: concurrency from -c"
	assert_eq "$(csv_field "$l" 5)" 7 "run $i: seed from -z"
	assert_eq "$(csv_field "$l" 6)" 64M "run $i: file_size"
	assert_eq "$(csv_field "$l" 7)" 4096 "run $i: io_chunk_size from -s"
	assert_eq "$(csv_field "$l" 8)" 1000 "run $i: seeks from -s"
	assert_eq "$(csv_field "$l" 9)" 3 "run $i: seekers from -s"
	assert_eq "$(csv_field "$l" 10)$(csv_field "$l" 11)" "" "run $i: putc empty (-f)"
	assert_eq "$(csv_field "$l" 16)$(csv_field "$l" 17)" "" "run $i: getc empty (-f)"
	assert_match "$(csv_field "$l" 12)" "$rate_re" "run $i: put_block rate"
	assert_eq "$(csv_field "$l" 22)" 1 "run $i: num_files"
	assert_eq "$(csv_field "$l" 23)" 2000 "run $i: max_size"
	assert_eq "$(csv_field "$l" 24)" 100 "run $i: min_size"
	assert_eq "$(csv_field "$l" 25)" 3 "run $i: num_dirs"
	assert_eq "$(csv_field "$l" 39)$(csv_field "$l" 42)" "" \
		"run $i: per-char latencies empty"
	assert_match "$(csv_field "$l" 40)" "$lat_re" "run $i: put_block latency"
	assert_match "$(csv_field "$l" 50)" "$lat_re" "run $i: ran_del latency"
done
assert_file_no_match "$T/out" 'Sequential|Latency' "-x 2: no text table on stdout"
assert_file_no_match "$T/err" 'Sequential Output' "-x 2: no text table on stderr"

# --- C: -x 1: one CSV line, no header, no table; no file tests.
run_clyde -d "$d" -s 16m -n 0 -r 0 -f -x 1 -m onehost
expect_rc 0 "clyde -x 1 succeeds"
mapfile -t L <"$T/out"
assert_eq "${#L[@]}" 1 "-x 1: one line on stdout"
assert_match "${L[0]}" '^1\.98,[^,]*,onehost,' "-x 1: it is the CSV line"
assert_eq "$(csv_nfields "${L[0]}")" 50 "-x 1: 50 fields"
empty=""
for i in $(seq 22 38) $(seq 45 50); do
	empty+=$(csv_field "${L[0]}" "$i")
done
assert_eq "$empty" "" "-n 0: file test fields empty"
assert_file_no_match "$T/err" 'Sequential Output' "-x 1: no text table on stderr"
assert_empty_dir "$d" "the -d directory is left empty"

done_testing

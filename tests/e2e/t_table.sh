#!/usr/bin/env bash
# The text table has bonnie++ 2.00a's layout: the same header lines (with
# clyde's version in the Version column), data and Latency rows whose
# columns end where bonnie++'s do, blank per-char cells with -f, and the
# CSV line after the table.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

ver=$(sed -n 's/^project(clyde VERSION \([^ )]*\).*/\1/p' \
	"$CLYDE_SRC/CMakeLists.txt")
[[ -n $ver ]] || fail "no version in $CLYDE_SRC/CMakeLists.txt"

name=averyveryverylongmachinename
d=$(new_dir d)
args=(-s 16m -n 1 -r 0 -f -m "$name")
run_clyde -d "$d" "${args[@]}"
expect_rc 0 "clyde ${args[*]} succeeds"
assert_empty_dir "$d" "the -d directory is left empty"
cp "$T/out" "$T/clyde.out"

mapfile -t L <"$T/clyde.out"
[[ ${#L[@]} -ge 11 ]] || { show_output; fail "fewer than 11 lines on stdout"; }

io_head1='------Sequential Output------ --Sequential Input- --Random-'
io_head2='                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--'
io_head3='Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP'
f_head1='------Sequential Create------ --------Random Create--------'
f_head2='-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--'
f_head3='              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP'

version_cell=$(printf '%-20s' "Version $ver")
assert_eq "${L[0]}" "$version_cell$io_head1" "IO header line 1 (Version $ver)"
assert_eq "${L[1]}" "$io_head2" "IO header line 2"
assert_eq "${L[2]}" "$io_head3" "IO header line 3"

# Rows are a first cell (19 columns for data rows, 17 for Latency rows)
# and six cells of 10 columns: " %5s %3s" (rate, %CP) in data rows, a
# right-aligned "<n>us|ms|s" in Latency rows, or all blank.  check_row
# LINE FIRST_WIDTH KIND PATTERN MSG: PATTERN has one letter per cell, v for
# a value and b for blank.
check_row()
{
	local line=$1 w=$2 kind=$3 pat=$4 msg=$5 i c re
	[[ ${#line} -eq $((w + 60)) ]] ||
		fail "$msg: '$line' is ${#line} columns, want $((w + 60))"
	if [[ $kind == data ]]; then
		re='^ [ 0-9.kmg+]{4}[0-9.kmg+] [ 0-9+]{2}[0-9+]$'
	else
		re='^ *[0-9]+(us|ms|s)$'
	fi
	for ((i = 0; i < 6; i++)); do
		c=${line:w + 10 * i:10}
		if [[ ${pat:i:1} == b ]]; then
			[[ $c == "          " ]] ||
				fail "$msg: cell $((i + 1)) '$c' should be blank"
		else
			[[ $c =~ $re ]] ||
				fail "$msg: cell $((i + 1)) '$c' is not a $kind value"
		fi
	done
	ok "$msg"
}

assert_eq "${L[3]:0:19}" "averyveryverylo 16M" \
	"name cell: the name cut to fit, then the size"
check_row "${L[3]}" 19 data bvvbvv "IO data row, per-char cells blank"
assert_eq "${L[4]:0:17}" "Latency          " "Latency label cell"
check_row "${L[4]}" 17 latency bvvbvv "IO Latency row, per-char cells blank"

assert_eq "${L[5]}" "$version_cell$f_head1" "file header line 1"
assert_eq "${L[6]}" "$(printf '%-20s' "${name:0:19}")$f_head2" \
	"file header line 2 (name cut to 19)"
assert_eq "${L[7]}" "$f_head3" "file header line 3"
assert_eq "${L[8]:0:19}" "                  1" "file row label: the file count"
check_row "${L[8]}" 19 data vvvvvv "file data row"
check_row "${L[9]}" 17 latency vvvvvv "file Latency row"
assert_match "${L[10]}" '^clyde: latency, cache and device per test' \
	"clyde's own section follows bonnie++'s table"
assert_match "${L[-1]}" '^1\.98,' "the CSV line comes last"
for ((i = 11; i < ${#L[@]} - 1; i++)); do
	assert_match "${L[i]}" '^(clyde: |test +rate |(putc|put_block|rewrite|getc|get_block|seeks|seq_create|seq_stat|seq_del|ran_create|ran_stat|ran_del) +[0-9])' \
		"line $((i + 1)) belongs to clyde's section"
done
assert_file_no_match "$T/out" 'Writing|Reading|done' \
	"no progress lines on stdout"
assert_file_match "$T/err" 'done' "progress lines on stderr"

# Column ends: where each non-blank token ends, line by line.  In a table
# of right-aligned cells these are fixed whatever the numbers are.
token_ends()
{
	awk '{ s = $0; out = "";
	       for (i = 1; i <= length(s); i++)
		       if (substr(s, i, 1) != " " &&
			   (i == length(s) || substr(s, i + 1, 1) == " "))
			       out = out " " i;
	       print NR ":" out }' "$1"
}

# The layout against bonnie++ 2.00a's own output, the point of this test.
require_cmd "comparing the layout with bonnie++'s" bonnie++
b=$(new_dir b)
# bonnie++ refuses to run as root unless told which user to be.
bargs=()
[[ $(id -u) -ne 0 ]] || bargs=(-u root)
bonnie++ -d "$b" "${args[@]}" "${bargs[@]}" >"$T/bonnie.out" 2>/dev/null ||
	fail "bonnie++ ${args[*]} failed"
mapfile -t B <"$T/bonnie.out"
for i in 0 5; do
	assert_eq "${L[i]:20}" "${B[i]:20}" \
		"line $((i + 1)) matches bonnie++ after the Version cell"
done
for i in 1 2 6 7; do
	assert_eq "${L[i]}" "${B[i]}" "line $((i + 1)) matches bonnie++"
done
# Rows 4, 5, 9, 10: the first token of the data rows is the name
# (whose end depends on its length), compare the rest.
head -n 10 "$T/clyde.out" >"$T/c10"
head -n 10 "$T/bonnie.out" >"$T/b10"
token_ends "$T/c10" >"$T/c.ends"
token_ends "$T/b10" >"$T/b.ends"
for i in 4 5 9 10; do
	assert_eq "$(sed -n "${i}p" "$T/c.ends")" \
		"$(sed -n "${i}p" "$T/b.ends")" \
		"row $i columns end where bonnie++'s do"
done

# With per-char tests (-f1: 1 MiB for them) and no file tests: the
# per-char cells are filled and the file section is absent.
run_clyde -d "$d" -s 16m -n 0 -r 0 -f1 -m host
expect_rc 0 "clyde -s 16m -n 0 -f1 succeeds"
mapfile -t L <"$T/out"
assert_eq "${L[3]:0:19}" "host            16M" "name cell with a short name"
check_row "${L[3]}" 19 data vvvvvv "IO data row with all six cells"
check_row "${L[4]}" 17 latency vvvvvv "IO Latency row with six values"
assert_file_no_match "$T/out" 'Sequential Create' "no file section with -n 0"
assert_match "$(tail -n 1 "$T/out")" '^1\.98,' "CSV line last"
assert_empty_dir "$d" "the -d directory is left empty"

done_testing

#!/usr/bin/env bash
# bench/all.sh --doc FILE: the generated section goes after the title line
# of a file without one, replaces the one there (exactly one section
# after, the text around it kept), and an empty file or one of a single
# line without a newline takes it too (it crashed on those: the run's
# figures were printed and the section was lost).  Every step is skipped,
# so this checks the writing, not the figures.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
script=$CLYDE_SRC/bench/all.sh
build=$(dirname "$CLYDE")
d=$(new_dir d)
BEGIN='<!-- BEGIN bench/all.sh'
END='<!-- END bench/all.sh -->'

write_doc()
{
	bash "$script" -b "$build" --skip engine,direct,io-md,md-sync,wall,perchar,cost,pattern-tmpfs,pattern-loop \
		--doc "$1" >"$T/out" 2>"$T/err" ||
		{ cat "$T/out" "$T/err" >&2; fail "all.sh --doc $(basename "$1"): exit non-zero"; }
	assert_file_match "$T/out" "^section written into $1" "all.sh --doc $(basename "$1") says where it wrote"
	assert_eq "$(grep -c -F "$BEGIN" "$1")" 1 "$(basename "$1"): one section start"
	assert_eq "$(grep -c -F "$END" "$1")" 1 "$(basename "$1"): one section end"
}

: >"$d/empty.md"
write_doc "$d/empty.md"

printf '# Title without a newline' >"$d/oneline.md"
write_doc "$d/oneline.md"
assert_eq "$(head -n1 "$d/oneline.md")" "# Title without a newline" "the single line stays first"

printf '# Title\n\nbefore\n' >"$d/plain.md"
write_doc "$d/plain.md"
assert_eq "$(head -n1 "$d/plain.md")" "# Title" "the title stays first"
assert_eq "$(sed -n 3p "$d/plain.md" | cut -c1-${#BEGIN})" "$BEGIN" "the section follows the title"
assert_file_match "$d/plain.md" "^before$" "the text after the title is kept"

# Again into the same file: the section is replaced, not added.
printf 'after\n' >>"$d/plain.md"
write_doc "$d/plain.md"
assert_file_match "$d/plain.md" "^after$" "the text after the section is kept"
assert_eq "$(grep -c '^before$' "$d/plain.md")" 1 "nothing around the section doubled"

done_testing

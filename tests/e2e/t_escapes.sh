#!/bin/bash
# Text from files and the command line reaches the terminal escaped
# (issue 30, 1.3; core/vis.h): a label and a note holding an OSC 52
# clipboard write (ESC ] 52 ; ... BEL), a CSI colour and a newline, an
# imported CSV's host name and a target path holding escapes, a crafted
# test name in a clyde JSON, a sweep's title and axis values.  `history
# list`, `show`, `label`, `delete`, compare's error, the sweep's table,
# `sweep --show` and `--dry-run` print no ESC or BEL byte and no extra
# line; a --define value with a control character is refused.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

DB=$T/h.db
run_clyde history --db "$DB" list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi

ESC=$'\033'
BEL=$'\a'
osc="${ESC}]52;c;cm0gLXJmIH4K${BEL}"
csi="${ESC}[31mred${ESC}[0m"
evil="a${osc}b${csi}"$'\n'"second line"

# clean WHAT FILE: FILE has no ESC and no BEL byte.
clean()
{
	if LC_ALL=C grep -q "[$ESC$BEL]" "$2"; then
		LC_ALL=C grep -n "[$ESC$BEL]" "$2" | cat -v | head -n 5 >&2
		fail "$1: a raw ESC or BEL byte reached the output"
	fi
	ok "$1: no raw ESC or BEL"
}

# A run on a target whose path holds an escape, saved to the history.
S="$T/dir${ESC}]0;title${BEL}"
mkdir "$S" || fail "mkdir of a path with an escape"
run_clyde -d "$S" -s 16m -n 1 -r 0 -f -m plain --db "$DB" --json "$T/run.json"
expect_rc 0 "a run on a target path with an escape is saved"
# A CSV line whose host name holds an OSC 52 and a CSI sequence.
sed "s/,vm,/,h${osc}${csi},/" "$CLYDE_SRC/tests/fixtures/bonnie-1.98.csv" |
	head -n 1 >"$T/evil.csv"
LC_ALL=C grep -q "$ESC" "$T/evil.csv" || fail "the CSV has no escape"
run_clyde history --db "$DB" import "$T/evil.csv"
expect_rc 0 "a CSV whose host name holds escapes is imported"
clean "history import" "$T/out"

run_clyde history --db "$DB" label 1 "$evil"
expect_rc 0 "history label with escapes and a newline"
clean "history label's echo" "$T/out"
assert_eq "$(wc -l <"$T/out")" 1 "history label's echo is one line"
run_clyde history --db "$DB" note 1 "$evil"
expect_rc 0 "history note with escapes and a newline"

run_clyde history --db "$DB" list
expect_rc 0 "history list"
clean "history list" "$T/out"
clean "history list (stderr)" "$T/err"
# A header and the two runs: the newline of the label and note did not
# start a line of its own.
assert_eq "$(wc -l <"$T/out")" 3 "history list: one line per run"
assert_file_match "$T/out" '\\x1b\]52;c;cm0gLXJmIH4K\\x07' \
	"history list shows the escape as text"
assert_file_match "$T/out" 'dir\\x1b\]0;title\\x07' \
	"history list shows the target path escaped"

for id in 1 2; do
	run_clyde history --db "$DB" show "$id"
	expect_rc 0 "history show $id"
	clean "history show $id" "$T/out"
	assert_file_no_match "$T/out" '^second line' \
		"history show $id: the newline did not start a line"
done

run_clyde history --db "$DB" delete 1
expect_rc 0 "history delete of the run labelled with escapes"
clean "history delete's echo" "$T/out"
assert_eq "$(wc -l <"$T/out")" 1 "history delete's echo is one line"

# compare: a crafted test name is named in the error, escaped.
require_cmd "crafting a clyde JSON" python3
python3 - "$T/run.json" "$T/crafted.json" "$osc" <<'EOF_PY'
import json, sys
d = json.load(open(sys.argv[1]))
json.dump(d, open(sys.argv[2], "w"))
text = open(sys.argv[2]).read().replace('"name": "putc"',
                                        '"name": ' + json.dumps(sys.argv[3]), 1)
open(sys.argv[2], "w").write(text)
EOF_PY
run_clyde compare "$T/crafted.json"
assert_file_match "$T/err" 'unknown test' "compare names the crafted test"
clean "compare's error" "$T/err"

# A sweep whose title and axis values hold escapes.
run_clyde sweep --dry-run "$CLYDE_SRC/examples/loop/loop-readahead.ini"
if grep -q "without libinih" "$T/err"; then
	skip_part "sweep: built without libinih"
else
	printf '[experiment]\nname = esc\ntitle = t%s\naxis v = x%sy z\n[workload w]\ntime = echo {v}\n' \
		"$osc" "$csi" >"$T/esc.ini"
	run_clyde sweep --dry-run "$T/esc.ini"
	expect_rc 0 "sweep --dry-run of a file with escapes"
	clean "sweep --dry-run" "$T/out"
	assert_file_match "$T/out" '^time w: echo x\\x1b\[31mred' \
		"sweep --dry-run shows the command escaped"
	run_clyde sweep --dry-run --define "v=a${osc}"$'\n'"b" "$T/esc.ini"
	expect_rc 1 "a --define value with a control character is refused"
	clean "the --define refusal" "$T/err"
	assert_eq "$(wc -l <"$T/err")" 1 "  in one line"
	run_clyde sweep -q --db "$DB" "$T/esc.ini"
	expect_rc 0 "a sweep of a file with escapes runs"
	clean "the sweep's table" "$T/out"
	clean "the sweep's messages" "$T/err"
	assert_file_match "$T/out" 't\\x1b\]52;c;' "the title is shown escaped"
	id=$(sed -n 's/^experiment \([^:]*\):.*/\1/p' "$T/out" | head -n 1)
	[[ -n $id ]] || fail "no experiment id in the sweep's table"
	run_clyde sweep --db "$DB" --show "$id"
	expect_rc 0 "sweep --show"
	clean "sweep --show" "$T/out"
	run_clyde sweep --db "$DB" --list
	clean "sweep --list" "$T/out"
fi

done_testing

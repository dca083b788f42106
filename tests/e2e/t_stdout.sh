#!/usr/bin/env bash
# Every command's standard output is checked once, at exit (main.c's
# dispatcher): with stdout on /dev/full, every command, its --help, -V and
# the read-only modes (sweep --dry-run, --list, --show, history list,
# compare, stack, report -o -) exit non-zero with one line naming standard
# output and the reason, ENOSPC ("No space left on device"), not EIO.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

[[ -w /dev/full ]] || skip "no writable /dev/full"

# full NAME PROG ARGS...: PROG ARGS >/dev/full fails with the one line.
full()
{
	local name=$1 prog=$2
	shift 2
	RC=0
	"$prog" "$@" >/dev/full 2>"$T/err" </dev/null || RC=$?
	if ((RC == 0)); then
		show_output
		fail "$name >/dev/full exits 0"
	fi
	assert_eq "$(grep -c 'standard output\|No space\|error' "$T/err")" 1 \
		"$name >/dev/full: one line names standard output (exit $RC)"
	assert_file_match "$T/err" \
		'standard output: write error: No space left on device$' \
		"$name >/dev/full: the reason is ENOSPC"
	assert_file_no_match "$T/err" 'Input/output error' \
		"$name >/dev/full: not EIO"
}

for cmd in "" run tree dev zcav sweep history compare report stack; do
	# shellcheck disable=SC2086 # no command is bare clyde
	full "clyde $cmd --help" "$CLYDE" $cmd --help
done
full "clyde -V" "$CLYDE" -V
full "clyde run -V" "$CLYDE" run -V
full "clyde history list --help" "$CLYDE" history list --help
full "clyde stack /" "$CLYDE" stack /
full "clyde stack --json /" "$CLYDE" stack --json /
# Outputs large enough that stdio's buffer fails before the flush at
# exit (the reason was lost, or EIO, there).
full "clyde compare" "$CLYDE" compare "$CLYDE_SRC/tests/fixtures/bonnie-1.98.csv"
full "clyde report -o -" "$CLYDE" report -o - \
	"$CLYDE_SRC/tests/fixtures/bonnie-1.98.csv"

cat >"$T/s.ini" <<'INI'
[experiment]
name = tiny
repeat = 1
axis n = 1..2 +1
[workload t]
time = true
INI
full "clyde sweep --dry-run" "$CLYDE" sweep --dry-run "$T/s.ini"

run_clyde history list
if grep -q 'without SQLite' "$T/err"; then
	skip_part "sweep runs, --list, --show and history list: built without SQLite"
else
	DB=$T/h.db
	full "clyde sweep FILE" "$CLYDE" sweep -q --db "$DB" "$T/s.ini"
	ID=$(sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/err")
	[[ -n $ID ]] || fail "the sweep named no experiment"
	full "clyde sweep --list" "$CLYDE" sweep --list --db "$DB"
	full "clyde sweep --show" "$CLYDE" sweep --show "$ID" --db "$DB"
	full "clyde history list" "$CLYDE" history --db "$DB" list
fi

if [[ -n ${CLYDE_MPI:-} && -x $CLYDE_MPI ]]; then
	full "clyde-mpi --help" "$CLYDE_MPI" --help
else
	skip_part "clyde-mpi --help: the build has no clyde-mpi"
fi

# And an output that can be written is not a failure.
run_clyde --help
expect_rc 0 "clyde --help to a file: exit 0"
assert_file_match "$T/out" '^Usage: clyde' "the help is written"
done_testing

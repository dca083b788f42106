#!/usr/bin/env bash
# Every mutation (scripts/mutations/*.mut) still applies: its sed changes
# its file and its tests exist.  Code that moves under a mutation fails
# here, at once, instead of in the next full mutation run (five had gone
# stale so).  Needs no build: scripts/mutate.sh -s.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

out=$T/out
if ! bash "$CLYDE_SRC/scripts/mutate.sh" -s >"$out" 2>&1; then
	show_output "$out"
	fail "a mutation no longer applies: $(grep -c '^stale' "$out") stale"
fi
ok "every mutation changes its file and names tests that exist"

# The check itself, on a tree of its own: one live mutation, one whose
# sed matches nothing, one naming a test that does not exist.
tree=$T/tree
mkdir -p "$tree/scripts/mutations" "$tree/src/x" "$tree/tests/unit"
cp "$CLYDE_SRC/scripts/mutate.sh" "$tree/scripts/"
printf 'int f(void) { return 1; }\n' >"$tree/src/x/a.c"
: >"$tree/tests/unit/test_a.c"
mut()
{
	printf 'what = %s\nfile = src/x/a.c\nsed  = %s\ntest = %s\n' "$1" "$2" \
		"$3" >"$tree/scripts/mutations/$1.mut"
}
mut live 's/return 1/return 0/' unit/test_a
mut moved 's/return 2/return 0/' unit/test_a
mut gone 's/return 1/return 0/' unit/test_b
rc=0
bash "$tree/scripts/mutate.sh" -s >"$out" 2>&1 || rc=$?
assert_eq "$rc" 1 "mutate.sh -s exit status with stale mutations"
assert_file_match "$out" '^stale +moved: its sed no longer changes src/x/a.c' \
	"the mutation whose sed matches nothing is stale"
assert_file_match "$out" '^stale +gone: no test unit/test_b' \
	"the mutation naming a missing test is stale"
assert_file_no_match "$out" '^stale +live' "the live mutation is not stale"
rc=0
bash "$tree/scripts/mutate.sh" -s live >"$out" 2>&1 || rc=$?
assert_eq "$rc" 0 "mutate.sh -s live exit status"

done_testing

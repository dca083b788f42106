#!/usr/bin/env bash
# The helpers of lib.sh report what happened: a Python checker that
# crashes fails the test (it used to pass with "|| true" when it had
# printed a line or two), skip exits 77 (ctest's skip), a missing tool a
# part needs fails, a skipped part makes the test a skip, and a test with no
# assertion fails.  Each case runs as its own small script.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3

# case_rc NAME BODY: run BODY as a script that sources lib.sh; print its
# exit status.
case_rc()
{
	local scr=$T/case_$1.sh rc=0
	{
		echo ". '$E2E_DIR/lib.sh'"
		echo "$2"
	} >"$scr"
	TMPDIR=$T bash "$scr" >"$T/case_$1.out" 2>&1 || rc=$?
	echo "$rc"
}

crash='run_checker <<PY
print("ok one thing held")
d = {}
print("ok " + d["missing"])
PY
done_testing'
assert_eq "$(case_rc crash "$crash")" 1 "a checker that crashes fails the test"
assert_file_match "$T/case_crash.out" 'KeyError' "and its traceback is shown"

quiet='run_checker <<PY
pass
PY
done_testing'
assert_eq "$(case_rc quiet "$quiet")" 1 "a checker that prints nothing fails"

verdict='run_checker <<PY
print("ok a")
print("FAIL b")
PY
done_testing'
assert_eq "$(case_rc verdict "$verdict")" 1 "a FAIL line fails the test"

good='run_checker <<PY
print("ok a")
print("ok b")
PY
done_testing'
assert_eq "$(case_rc good "$good")" 0 "a checker whose lines are all ok passes"

assert_eq "$(case_rc skip 'skip "no such thing"')" 77 "skip exits 77"
assert_eq "$(case_rc req 'require_cmd "a part" clyde-no-such-tool; done_testing')" \
	1 "require_cmd fails when the tool is missing"
assert_file_match "$T/case_req.out" 'a part needs clyde-no-such-tool' \
	"and names the part and the tool"
assert_eq "$(case_rc need 'need_cmd clyde-no-such-tool; done_testing')" 77 \
	"need_cmd skips when the tool is missing"
assert_eq "$(case_rc none 'done_testing')" 1 \
	"a test that made no assertion fails"
assert_file_match "$T/case_none.out" 'no assertion was made' "and says so"
assert_eq "$(case_rc one 'ok "a thing"; done_testing')" 0 \
	"one assertion, nothing skipped: a pass"
part='ok "first part"
skip_part "second part: no such device here"
ok "third part"
done_testing'
assert_eq "$(case_rc part "$part")" 77 \
	"a skipped part makes the test a skip, after the other parts ran"
assert_file_match "$T/case_part.out" '^ok 2 - third part$' \
	"the parts after the skipped one ran"
assert_file_match "$T/case_part.out" '^SKIP part: second part: no such device here$' \
	"the summary names the part that did not run"
partfail='skip_part "a part"
ok "x"
fail "a check"'
assert_eq "$(case_rc partfail "$partfail")" 1 \
	"a failure is a failure even with a skipped part"

done_testing

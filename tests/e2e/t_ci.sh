#!/usr/bin/env bash
# .ci/run tests a fresh clone, not the working tree: a file that is not in
# git fails it; it shows ctest's output and removes its temporary clone;
# with CI=true a skipped test fails it (scripts/ctest-skips.sh reads real
# ctest output), without CI a skip is only shown; the clone is inside a
# 0700 directory, where a user's may be.  .ci/run is run on a
# small repository whose `make test` stands in for the real one.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd git cmake ctest make

# --- scripts/ctest-skips.sh on what ctest really prints.
p=$(new_dir proj)
cat >"$p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(skips NONE)
enable_testing()
add_test(NAME passes COMMAND true)
add_test(NAME skips COMMAND sh -c "exit 77")
set_tests_properties(skips PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME also/skips COMMAND sh -c "exit 77")
set_tests_properties(also/skips PROPERTIES SKIP_RETURN_CODE 77)
CM
cmake -S "$p" -B "$p/b" >/dev/null || fail "cmake on the small project"
rc=0
ctest --test-dir "$p/b" >"$T/ctest.log" 2>&1 || rc=$?
assert_eq "$rc" 0 "ctest exits 0 when tests only skipped"
rc=0
bash "$CLYDE_SRC/scripts/ctest-skips.sh" "$T/ctest.log" >"$T/skips" || rc=$?
assert_eq "$rc" 1 "ctest-skips.sh exits 1 on a log with skips"
assert_eq "$(tr '\n' ' ' <"$T/skips")" "also/skips skips " \
	"it names exactly the skipped tests"
grep -v skips "$T/ctest.log" >"$T/noskip.log" || true
echo "100% tests passed, 0 tests failed out of 1" >>"$T/noskip.log"
rc=0
bash "$CLYDE_SRC/scripts/ctest-skips.sh" "$T/noskip.log" >/dev/null || rc=$?
assert_eq "$rc" 0 "ctest-skips.sh exits 0 when nothing skipped"

# --- .ci/run on a small repository.
r=$T/repo
mkdir -p "$r/.ci" "$r/scripts" "$T/tmp"
cp "$CLYDE_SRC/.ci/run" "$r/.ci/run"
cp "$CLYDE_SRC/scripts/ctest-skips.sh" "$r/scripts/"
# make test: needs data.txt, prints ctest's log of the run above (with or
# without skips) and the directory it ran in.
cat >"$r/Makefile" <<'MK'
test:
	test -f data.txt
	cat ctest.log
	pwd >$(PWD_FILE)
	stat -c %a .. >$(PWD_FILE).mode
MK
cp "$T/noskip.log" "$r/ctest.log"
g()
{
	git -C "$r" -c user.name=t -c user.email=t@example.org "$@"
}
g init -q
g add .ci Makefile scripts ctest.log
g commit -qm one
echo data >"$r/data.txt" # in the working tree, not in git

# ci_run: run .ci/run of the small repository; exit status in $RC.
ci_run()
{
	RC=0
	TMPDIR=$T/tmp PWD_FILE=$T/pwd bash "$r/.ci/run" >"$T/out" 2>"$T/err" ||
		RC=$?
}

CI=false ci_run
if [[ $RC -eq 0 ]]; then
	show_output
	fail ".ci/run passed with data.txt missing from git"
fi
ok ".ci/run fails when a file make test needs is not in git"
assert_empty_dir "$T/tmp" "the temporary clone is removed after a failure"

g add data.txt
g commit -qm two
CI=false ci_run
expect_rc 0 ".ci/run passes once data.txt is committed"
assert_file_match "$T/out" '^100% tests passed' "ctest's summary is shown"
assert_match "$(cat "$T/pwd")" "^$T/tmp/clyde-ci\.[^/]+/clyde\$" \
	"make test ran in a clone in a temporary directory"
assert_eq "$(cat "$T/pwd.mode")" 700 \
	"the clone is inside a 0700 directory, as a user's clone in mktemp -d or /root"
assert_empty_dir "$T/tmp" "the temporary clone is removed"

cp "$T/ctest.log" "$r/ctest.log"
g commit -qam skips
CI=false ci_run
expect_rc 0 "without CI=true a skip does not fail .ci/run"
assert_file_match "$T/out" 'The following tests did not run' \
	"the skips are shown"
CI=true ci_run
expect_rc 1 "with CI=true a skipped test fails .ci/run"
assert_file_match "$T/err" '^  also/skips$' "the skipped tests are named"
assert_empty_dir "$T/tmp" "the temporary clone is removed"

done_testing

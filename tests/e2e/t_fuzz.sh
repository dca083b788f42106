#!/bin/bash
# The libFuzzer targets in tests/fuzz, built and run for a bounded time:
# each replays its seed corpus (tests/fuzz/corpus/NAME) and then tries
# generated inputs for a few seconds (FUZZ_SECONDS, default 4).  A crash,
# a sanitizer report or a broken promise (the target aborts) fails the
# test, naming the input libFuzzer saved.  The targets are built with clang
# in a build directory of their own beside the binary under test
# (CLYDE_FUZZ_BUILD, default build-fuzz next to the build directory):
# the first run compiles the library again with the fuzzer's coverage and
# the sanitizers, later runs only what changed.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

require_cmd "the fuzz targets" clang
require_cmd "the fuzz targets" cmake
FUZZ_SECONDS=${FUZZ_SECONDS:-4}
B=${CLYDE_FUZZ_BUILD:-$(dirname "$(dirname "$CLYDE")")/build-fuzz}

# target corpus: every fuzz_*.c and the corpus it starts from.
declare -A CORPUS=(
	[fuzz_csv_read]=csv
	[fuzz_json_read]=json
	[fuzz_stack_json]=stack
	[fuzz_sweep_ini]=sweep
	[fuzz_journal_read]=journal
)
for src in "$CLYDE_SRC"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	[[ -n ${CORPUS[$name]:-} ]] ||
		fail "$name has no corpus here: add it to CORPUS in $0"
	[[ -d $CLYDE_SRC/tests/fuzz/corpus/${CORPUS[$name]} ]] ||
		fail "$name: no tests/fuzz/corpus/${CORPUS[$name]}"
done
ok "every fuzz target has a seed corpus"

if ! cmake -S "$CLYDE_SRC" -B "$B" -DCMAKE_C_COMPILER=clang -DCLYDE_FUZZ=ON \
	-DCLYDE_WERROR=ON >"$T/cmake.log" 2>&1; then
	tail -n 20 "$T/cmake.log" >&2
	fail "configuring the fuzz build in $B"
fi
if ! cmake --build "$B" --parallel 2 --target "${!CORPUS[@]}" \
	>"$T/build.log" 2>&1; then
	grep -E 'error|undefined' "$T/build.log" | head -n 20 >&2
	fail "building the fuzz targets in $B"
fi
ok "the fuzz targets build with clang (-fsanitize=fuzzer,address,undefined)"

# -rss_limit_mb and -timeout as tests/fuzz/README.md; -max_len keeps the
# few seconds on inputs of a useful size.
for name in "${!CORPUS[@]}"; do
	work=$T/corpus-$name
	mkdir -p "$work" "$T/art-$name"
	cp "$CLYDE_SRC/tests/fuzz/corpus/${CORPUS[$name]}"/* "$work/"
	rc=0
	(cd "$T/art-$name" && "$B/$name" -max_total_time="$FUZZ_SECONDS" \
		-max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		"$work" >"$T/$name.log" 2>&1) || rc=$?
	if [[ $rc -ne 0 ]]; then
		grep -E 'ERROR|SUMMARY|Test unit written|abort' "$T/$name.log" | head -n 10 >&2
		mkdir -p "$B/crashes"
		cp "$T/art-$name"/* "$B/crashes/" 2>/dev/null || true
		fail "$name found a bug (exit $rc): the input is in $B/crashes; replay it with $B/$name FILE"
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/$name.log")
	[[ ${runs:-0} -gt $(find "$work" -type f | wc -l) ]] ||
		fail "$name ran ${runs:-no} inputs: not even its corpus and more"
	ok "$name: $runs inputs in ${FUZZ_SECONDS}s, nothing found"
done
done_testing

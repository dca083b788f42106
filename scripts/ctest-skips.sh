#!/usr/bin/env bash
# ctest-skips.sh LOG: list the tests that ctest did not run (skipped with
# SKIP_RETURN_CODE, "Not Run", disabled) in the output LOG of one or more
# ctest runs; exit 1 if there is any, 0 if none.  .ci/run uses it to fail
# CI, where every tool is installed, when a test skipped.
#
# ctest marks such a test twice: its progress line ends in "***Skipped" or
# "***Not Run", and the summary lists it under "The following tests did not
# run:" as "N - name (Skipped|Disabled|Not Run...)".  Both are read, so a
# change to either format alone still finds the skip.
set -euo pipefail

if [[ $# -ne 1 || ! -r $1 ]]; then
	echo "usage: $0 CTEST_LOG" >&2
	exit 2
fi

skipped=$(
	{
		sed -nE 's/^.*Test +#[0-9]+: ([^ ]+) \.*\*\*\*(Skipped|Not Run).*$/\1/p' "$1"
		awk '/^The following tests did not run:/ { in_list = 1; next }
		     in_list && /^[[:space:]]+[0-9]+ - / {
			     sub(/^[[:space:]]+[0-9]+ - /, ""); sub(/ \(.*$/, "")
			     print; next }
		     { in_list = 0 }' "$1"
	} | sort -u
)
if [[ -n $skipped ]]; then
	echo "$skipped"
	exit 1
fi
exit 0

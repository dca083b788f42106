#!/usr/bin/env bash
# A -y s semaphore set that a run already used, or that an interrupted run
# left half-counted, would release the barriers at the wrong moments: it is
# refused with exit status 1 and a message naming how to reset it.
# (Shares the semaphore key with t_sync: ctest runs them one at a time.)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

"$CLYDE" -p -1 >/dev/null 2>&1 || true
at_exit "'$CLYDE' -p -1"
d=$(new_dir d)
args=(-d "$d" -s 16m -n 0 -f -r 0 -y s -q --no-save)

# A set used by a complete run.
run_clyde -p 1
expect_rc 0 "-p 1 succeeds"
run_clyde "${args[@]}"
expect_rc 0 "a -y s run on a fresh set"
run_clyde "${args[@]}"
expect_rc 1 "a -y s run on a set already used: exit status 1"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "one line on stderr"
assert_file_match "$T/err" "already used.*clyde -p 1.*clyde -p -1" \
	"the message says the set was used and how to reset it"
assert_empty_dir "$d" "nothing created"
run_clyde -p 1
expect_rc 0 "-p 1 resets the set"
run_clyde "${args[@]}"
expect_rc 0 "a -y s run after the reset"

# A set left by a run killed while it waited for its partner.
run_clyde -p 2
expect_rc 0 "-p 2 succeeds"
"$CLYDE" "${args[@]}" >/dev/null 2>&1 &
pid=$!
at_exit "kill -KILL $pid"
sleep 1
kill -0 "$pid" 2>/dev/null || fail "the -y s process did not wait"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
run_clyde "${args[@]}"
expect_rc 1 "a -y s run on a set left by a killed run: exit status 1"
assert_file_match "$T/err" "interrupted run \(process $pid is gone\).*clyde -p 2" \
	"the message names the dead process and how to reset the set"
# The killed run left its scratch directory (t_safety tests the note).
rm -rf -- "${d:?}/clyde.$pid"

done_testing

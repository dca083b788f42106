# Shared helpers for clyde's end-to-end tests.  Every tests/e2e/t_*.sh
# sources this file first:
#
#   . "$(dirname "$0")/lib.sh"
#
# It sets strict mode, finds the binary ($CLYDE, set by ctest), makes a
# private temporary directory ($T) and removes it on exit, whatever happens,
# after unmounting anything the test mounted.  Exit codes follow ctest's
# conventions here: 0 passed, 1 failed, 77 skipped.
#
# shellcheck shell=bash

set -euo pipefail

# The binary under test: ctest sets CLYDE; by hand, fall back to ./build.
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLYDE_SRC=${CLYDE_SRC:-$(cd "$E2E_DIR/../.." && pwd)}
CLYDE=${CLYDE:-$CLYDE_SRC/build/clyde}
if [[ ! -x $CLYDE ]]; then
	echo "e2e: no clyde binary at $CLYDE (set CLYDE=...)" >&2
	exit 1
fi
# Absolute, so tests may cd and sh -c may exec it.
CLYDE=$(cd "$(dirname "$CLYDE")" && pwd)/$(basename "$CLYDE")
export CLYDE CLYDE_SRC

# sbin tools (mkfs, losetup) are not always on a user's PATH.
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

# Upper bound for one clyde run, so a hang fails the test instead of
# holding ctest until its timeout.
CLYDE_TIMEOUT=${CLYDE_TIMEOUT:-150}

E2E_NAME=$(basename "$0" .sh)
E2E_PASSED=0
E2E_FAILED=0
E2E_CLEANUPS=()
E2E_SEQ=0

T=$(mktemp -d "${TMPDIR:-/tmp}/clyde-e2e.$E2E_NAME.XXXXXX")
# The directory a test gives to -d must be reachable by -u nobody too.
chmod 755 "$T"
# Every run is saved in the results history: keep the tests' runs out of
# the real one.
export XDG_DATA_HOME="$T/xdg"
# Before each test clyde waits up to --settle SECONDS (default 5) for the
# devices to be idle; on this shared VM disk that is the writeback of the
# test before and everyone else's I/O, and tripled some tests' time.  The
# suite looks once instead; t_counters tests the waiting itself.
export CLYDE_SETTLE=${CLYDE_SETTLE:-0}

# Run the registered cleanups in reverse order, then remove $T.  Cleanups
# must not fail the exit status, so each one's errors are ignored.
e2e_cleanup()
{
	local rc=$? i
	set +e
	for ((i = ${#E2E_CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${E2E_CLEANUPS[i]}" >/dev/null 2>&1
	done
	rm -rf -- "$T"
	return "$rc"
}
trap e2e_cleanup EXIT
# A signal must still go through the EXIT trap.
trap 'exit 130' INT
trap 'exit 143' TERM

# Register a shell command to run when the test exits (last in, first out).
at_exit()
{
	E2E_CLEANUPS+=("$1")
}

# Print the summary line ctest and CI read.
e2e_summary()
{
	echo "$E2E_NAME: $E2E_PASSED passed, $E2E_FAILED failed"
}

# fail "msg": the test failed; print why, the summary, and exit 1.
fail()
{
	E2E_FAILED=$((E2E_FAILED + 1))
	echo "FAIL: $*" >&2
	e2e_summary
	exit 1
}

# ok "msg": one assertion held.
ok()
{
	E2E_PASSED=$((E2E_PASSED + 1))
	echo "ok $E2E_PASSED - $*"
}

# skip "why": the test cannot run here (ctest counts exit 77 as skipped).
skip()
{
	echo "SKIP: $*"
	echo "$E2E_NAME: $E2E_PASSED passed, 0 failed, 1 skipped"
	exit 77
}

# skip_part "what: why": one part of the test cannot run here (it needs
# root, a kernel feature, a device this machine lacks); the rest goes on,
# and done_testing then exits 77, so that ctest shows a skip and CI (where
# everything is there) fails, instead of a pass that tested less.  A part
# that needs a tool scripts/deps.sh installs uses require_cmd (a failure).
E2E_SKIPPED=()
skip_part()
{
	E2E_SKIPPED+=("$1")
	echo "SKIP part: $1"
}

# done_testing: end of a script.  No assertion at all is a failure (the
# test tested nothing); a skipped part makes it a skip.
done_testing()
{
	if [[ $E2E_PASSED -eq 0 ]]; then
		fail "no assertion was made"
	fi
	if [[ ${#E2E_SKIPPED[@]} -gt 0 ]]; then
		printf 'SKIP part: %s\n' "${E2E_SKIPPED[@]}"
		echo "$E2E_NAME: $E2E_PASSED passed, 0 failed, ${#E2E_SKIPPED[@]} parts skipped"
		exit 77
	fi
	e2e_summary
	exit 0
}

need_root()
{
	[[ $(id -u) -eq 0 ]] || skip "needs root"
}

# need_cmd CMD...: skip unless every command exists.  For what the test
# is about: a test that can still check its main subject without CMD uses
# require_cmd instead, so a missing part fails rather than passing untested.
need_cmd()
{
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs $c"
	done
}

# require_cmd WHAT CMD...: fail unless every command exists; WHAT names
# the part of the test that needs them (scripts/deps.sh test installs them).
require_cmd()
{
	local what=$1 c
	shift
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			fail "$what needs $c (scripts/deps.sh test installs it)"
	done
}

# assert_eq GOT WANT MSG
assert_eq()
{
	if [[ "$1" == "$2" ]]; then
		ok "$3"
	else
		fail "$3: got '$1', want '$2'"
	fi
}

# assert_match STRING ERE MSG: STRING matches the extended regex ERE.
assert_match()
{
	if [[ "$1" =~ $2 ]]; then
		ok "$3"
	else
		fail "$3: '$1' does not match /$2/"
	fi
}

# assert_no_match STRING ERE MSG
assert_no_match()
{
	if [[ "$1" =~ $2 ]]; then
		fail "$3: '$1' matches /$2/"
	else
		ok "$3"
	fi
}

# assert_file_match FILE ERE MSG: some line of FILE matches ERE.
assert_file_match()
{
	if grep -Eq -- "$2" "$1"; then
		ok "$3"
	else
		echo "--- $1:" >&2
		head -n 40 "$1" >&2
		fail "$3: no line of $(basename "$1") matches /$2/"
	fi
}

# assert_file_no_match FILE ERE MSG
assert_file_no_match()
{
	if grep -Eq -- "$2" "$1"; then
		echo "--- $1:" >&2
		grep -E -- "$2" "$1" | head -n 10 >&2
		fail "$3: $(basename "$1") has a line matching /$2/"
	else
		ok "$3"
	fi
}

# count_files DIR: number of entries anywhere below DIR.
count_files()
{
	find "$1" -mindepth 1 | wc -l | tr -d ' '
}

# assert_no_leftovers DIR: clyde left no clyde.* entry in DIR.
assert_no_leftovers()
{
	local left
	left=$(find "$1" -mindepth 1 -maxdepth 1 -name 'clyde.*' | head -n 5)
	if [[ -n $left ]]; then
		fail "leftovers in $1: $left"
	fi
	ok "no clyde.* left in $1"
}

# assert_empty_dir DIR [MSG]: nothing at all in DIR.
assert_empty_dir()
{
	local n
	n=$(count_files "$1")
	[[ $n -eq 0 ]] ||
		fail "${2:-$1 is empty}: $(find "$1" -mindepth 1 | head -n 5)"
	ok "${2:-$1 is empty}"
}

# clyde_for_others: CLYDE_OTHERS, a copy of the binary in $T that any user
# can run, for a test that runs clyde as another user (runuser, setpriv):
# the build directory may be where that user cannot reach it, as in a clone
# inside a 0700 directory (mktemp -d, /root).  Fails when even $T cannot
# be reached by nobody (a TMPDIR inside a private directory).
clyde_for_others()
{
	if [[ -z ${CLYDE_OTHERS:-} ]]; then
		mkdir -p "$T/bin"
		cp "$CLYDE" "$T/bin/clyde"
		chmod 755 "$T/bin" "$T/bin/clyde"
		CLYDE_OTHERS=$T/bin/clyde
	fi
	if [[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null 2>&1 &&
		! setpriv --reuid=nobody --regid=nogroup --clear-groups \
			test -x "$CLYDE_OTHERS" 2>/dev/null; then
		fail "nobody cannot run $CLYDE_OTHERS: a directory above $T is private (TMPDIR?)"
	fi
}

# run_clyde ARGS...: run the binary with a time limit, stdout in $T/out,
# stderr in $T/err, exit status in $RC (never stops the script).
run_clyde()
{
	RC=0
	timeout -k 10 "$CLYDE_TIMEOUT" "$CLYDE" "$@" >"$T/out" 2>"$T/err" ||
		RC=$?
	if [[ $RC -eq 124 || $RC -eq 137 ]]; then
		show_output
		fail "clyde $* did not finish within ${CLYDE_TIMEOUT}s"
	fi
}

# show_output: print the last run's output (for failure diagnosis).
show_output()
{
	echo "--- stdout:" >&2
	head -n 40 "$T/out" >&2 || true
	echo "--- stderr:" >&2
	head -n 40 "$T/err" >&2 || true
}

# expect_rc WANT MSG: the last run_clyde exited WANT.
expect_rc()
{
	if [[ $RC -ne $1 ]]; then
		show_output
		fail "$2: exit status $RC, want $1"
	fi
	ok "$2"
}

# chromium_run ARGS... URL: headless Chromium, isolated (a profile of its
# own below $T), without network chatter, killed after 120 s; its stderr
# goes to $T/chromium.err.  For the report tests that read the DOM or
# take a screenshot (they check that chromium exists first).
chromium_run()
{
	local prof
	prof=$(mktemp -d "$T/chromium.XXXXXX")
	timeout -k 10 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$prof" "$@" 2>>"$T/chromium.err"
}

# new_dir NAME: a fresh empty directory below $T, printed.
new_dir()
{
	mkdir -p "$T/$1"
	echo "$T/$1"
}

# new_tmpfs_dir NAME: like new_dir, but a tmpfs when root (unmounted at
# exit), for a test whose clyde runs only need somewhere to write: on the
# shared VM disk every file test's syncfs waits for everyone's writeback
# (about 5 s each at load 15).  Not in $(...): the unmount is registered in
# this shell.  The path is left in $DIR.
new_tmpfs_dir()
{
	DIR=$(new_dir "$1")
	if [[ $(id -u) -eq 0 ]] &&
		mount -t tmpfs -o size=512m,mode=755 tmpfs "$DIR" 2>/dev/null; then
		at_exit "umount -l '$DIR'"
	fi
}

# mount_loop FS SIZE_MB: make a SIZE_MB image in $T, mkfs it as FS, mount
# it with a loop device; the mount point is left in $MNT.  The unmount and
# the loop device's release are registered for exit.  Skips when not root
# or when mkfs.FS or loop devices are missing.
mount_loop()
{
	local fs=$1 size=$2 img dev force
	need_root
	need_cmd "mkfs.$fs" losetup mount umount
	E2E_SEQ=$((E2E_SEQ + 1))
	img=$T/img.$E2E_SEQ
	MNT=$T/mnt.$E2E_SEQ
	mkdir "$MNT"
	truncate -s "${size}M" "$img"
	case $fs in
	ext2 | ext3 | ext4) force=(-F -q) ;;
	xfs | btrfs) force=(-f -q) ;;
	*) force=() ;;
	esac
	"mkfs.$fs" "${force[@]}" "$img" >/dev/null 2>&1 ||
		fail "mkfs.$fs on a ${size} MiB image failed"
	dev=$(losetup -f --show "$img" 2>/dev/null) ||
		skip "no loop device available"
	at_exit "losetup -d '$dev'"
	mount "$dev" "$MNT" || skip "cannot mount $fs (no kernel support?)"
	at_exit "umount -l '$MNT'"
	# Like any user's directory: writable by root only unless chmod'ed.
	chmod 755 "$MNT"
	# ext* puts lost+found at the top: tests use a subdirectory.
}

# disk_dir: a fresh directory on a real disk filesystem, printed into
# $DISK_DIR (tmpfs pages are the storage and cannot be evicted, so the
# cache tests need a disk): a 400 MiB loop-mounted ext4 as root, else a
# directory below $T, skipping when that is tmpfs.
disk_dir()
{
	if [[ $(id -u) -eq 0 ]]; then
		mount_loop ext4 400
		DISK_DIR=$MNT/work
		mkdir "$DISK_DIR"
	else
		DISK_DIR=$(new_dir d)
		[[ $(stat -f -c %T "$DISK_DIR") != tmpfs ]] ||
			skip "$DISK_DIR is on tmpfs"
	fi
}

# mount_tmpfs SIZE: mount a tmpfs of SIZE (e.g. 32m) in $T; mount point in
# $MNT, unmounted at exit.  Skips when not root.
mount_tmpfs()
{
	need_root
	E2E_SEQ=$((E2E_SEQ + 1))
	MNT=$T/tmpfs.$E2E_SEQ
	mkdir "$MNT"
	mount -t tmpfs -o "size=$1,mode=755" tmpfs "$MNT" ||
		skip "cannot mount tmpfs"
	at_exit "umount -l '$MNT'"
}

# run_checker ARGS... <<'PY': run the Python checker on stdin with ARGS.
# It prints one "ok WHAT" or "FAIL WHAT" line per assertion; each becomes
# an ok or a fail.  The checker must exit 0: one that crashes (a missing
# key, a JSON that does not parse) fails the test, and so does one that
# printed nothing.  Its output stays in $T/check for further counts.
run_checker()
{
	local rc=0 verdict what
	python3 - "$@" >"$T/check" 2>"$T/check.err" || rc=$?
	while read -r verdict what; do
		[[ $verdict == ok ]] || fail "$what"
		ok "$what"
	done <"$T/check"
	if [[ $rc -ne 0 ]]; then
		tail -n 20 "$T/check.err" >&2
		fail "the Python checker exited with status $rc"
	fi
	[[ -s $T/check ]] || fail "the Python checker printed nothing"
}

# csv_field LINE N: field N (1-based) of a CSV line.
csv_field()
{
	local IFS=,
	local -a f
	read -r -a f <<<"$1"
	echo "${f[$(($2 - 1))]:-}"
}

# csv_nfields LINE: number of fields (empty ones included).
csv_nfields()
{
	awk -F, '{ print NF }' <<<"$1"
}

# start_paused ARGS...: start clyde ARGS -y p in the background with a pipe
# on its stdin: it waits for a line before each test, so a test can look
# at the scratch directory between two tests.  The pid is in $CLYDE_PID,
# output in $T/out and $T/err.  Then: step (one line: run the next test),
# finish_paused (end of file: run the rest; exit status in $RC).
start_paused()
{
	local fifo
	E2E_SEQ=$((E2E_SEQ + 1))
	fifo=$T/fifo.$E2E_SEQ
	mkfifo "$fifo"
	"$CLYDE" "$@" -y p <"$fifo" >"$T/out" 2>"$T/err" &
	CLYDE_PID=$!
	exec 7>"$fifo"
}

step()
{
	echo >&7
}

finish_paused()
{
	local i
	exec 7>&-
	RC=0
	for ((i = 0; i < CLYDE_TIMEOUT * 10; i++)); do
		kill -0 "$CLYDE_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$CLYDE_PID" 2>/dev/null; then
		kill -KILL "$CLYDE_PID"
		fail "clyde did not finish within ${CLYDE_TIMEOUT}s"
	fi
	wait "$CLYDE_PID" || RC=$?
}

# wait_for TIMEOUT_S CMD...: poll until CMD succeeds; false on timeout.
wait_for()
{
	local i n=$(($1 * 20))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

#!/usr/bin/env bash
# src/cli/ only parses, calls and prints (docs/architecture.md): no
# function there is over 80 lines and no file over 600.  A command whose
# file grows past that has logic that belongs in a library layer, or a
# table that wants a file of its own.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

MAX_FN=${MAX_FN:-80}
MAX_FILE=${MAX_FILE:-600}
src=${CLI_SIZE_DIR:-$CLYDE_SRC/src/cli}
[[ -d $src ]] || skip "no source tree at $src"

# A function (clang-format's style): its body opens with "{" alone at
# the start of a line and closes with "}" alone; its name is on the last
# line before that which starts at the margin.  Prints FILE:LINE NAME N
# for each one over the limit.
long_functions()
{
	awk -v max="$MAX_FN" '
		/^[A-Za-z_]/ { sig = $0; sigline = FNR }
		/^\{$/ { start = sigline; name = sig; inbody = 1; next }
		/^\}$/ && inbody {
			n = FNR - start + 1
			sub(/\(.*/, "", name)
			sub(/.*[ *]/, "", name)
			if (n > max)
				printf "%s:%d %s() %d lines\n", FILENAME, start, name, n
			inbody = 0
		}' "$@"
}

shopt -s nullglob
files=("$src"/*.c "$src"/*.h)
shopt -u nullglob
((${#files[@]})) || skip "no source files in $src"
bad_fn=$(long_functions "$src"/*.c)
bad_file=$(for f in "${files[@]}"; do
	n=$(wc -l <"$f")
	((n <= MAX_FILE)) || printf '%s %d lines\n' "$f" "$n"
done)
[[ -z $bad_fn ]] || fail "functions of src/cli/ over $MAX_FN lines:
$bad_fn"
ok "no function of src/cli/ is over $MAX_FN lines"
[[ -z $bad_file ]] || fail "files of src/cli/ over $MAX_FILE lines:
$bad_file"
ok "no file of src/cli/ is over $MAX_FILE lines"

# The check itself: a function of 81 lines and a file of 601 fail it.
if [[ ${CLI_SIZE_SELFTEST:-1} == 1 ]]; then
	tree=$T/cli
	mkdir -p "$tree"
	{
		echo "static int too_long(void)"
		echo "{"
		for ((i = 0; i < 78; i++)); do echo "	(void)0;"; done
		echo "}"
	} >"$tree/a.c"
	if CLI_SIZE_DIR=$tree CLI_SIZE_SELFTEST=0 bash "$0" >"$T/self" 2>&1; then
		fail "a function of 81 lines passes the check"
	fi
	grep -q 'too_long() 81 lines' "$T/self" ||
		fail "the check does not name too_long(): $(cat "$T/self")"
	ok "a function of 81 lines fails the check"
	{
		echo "static int short_enough(void)"
		echo "{"
		for ((i = 0; i < 77; i++)); do echo "	(void)0;"; done
		echo "}"
		for ((i = 0; i < 521; i++)); do echo "/* filler */"; done
	} >"$tree/a.c"
	if CLI_SIZE_DIR=$tree CLI_SIZE_SELFTEST=0 bash "$0" >"$T/self" 2>&1; then
		fail "a file of 601 lines passes the check"
	fi
	grep -q 'a.c 601 lines' "$T/self" ||
		fail "the check does not name a.c: $(cat "$T/self")"
	grep -q 'short_enough' "$T/self" &&
		fail "the check counts a function of 80 lines as too long"
	ok "a file of 601 lines fails the check, a function of 80 passes"
fi

done_testing

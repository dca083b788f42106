#!/usr/bin/env bash
# scripts/deps.sh test installs every command a test needs: each command
# named by need_cmd or require_cmd in tests/e2e/*.sh (what a test skips or
# fails without) is in deps.sh's list, so that a fresh machine after
# `scripts/deps.sh test` (`make test` runs it) skips nothing for want of a
# tool.  A test that uses a tool directly names it with need_cmd or
# require_cmd first.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

DEPS=$CLYDE_SRC/scripts/deps.sh
[[ -r $DEPS ]] || fail "no $DEPS"
# The commands deps.sh checks: its "cmd:package" words.
tr -s ' \t()' '\n' <"$DEPS" | grep -E '^[A-Za-z0-9_./+-]+:[a-z0-9.+-]+$' |
	sed 's/:.*//' | sort -u >"$T/listed"
[[ -s $T/listed ]] || fail "no cmd:package pair read from $DEPS"
# The commands the tests ask for, continuation lines joined.  require_cmd's
# first word is the part's name (quoted); "mkfs.$fs" stands for the
# filesystems mount_loop makes.
for f in "$E2E_DIR"/*.sh; do
	sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$f" |
		sed -nE 's/^[[:space:]]*(need_cmd|require_cmd)[[:space:]]+(.*)$/\1 \2/p' |
		{ grep -v '^need_cmd CMD\|^require_cmd WHAT' || true; } |
		sed -E 's/^require_cmd "[^"]*"/require_cmd/' |
		while read -r _ words; do
			for w in $words; do
				case $w in
				\"mkfs.\$fs\") printf '%s\n' mkfs.ext4 mkfs.xfs mkfs.btrfs ;;
				*\$* | *\"* | *\;* | *\)* | *\'*) ;;
				*) printf '%s\n' "$w" ;;
				esac
			done
		done
done | sort -u >"$T/needed"
[[ -s $T/needed ]] || fail "no need_cmd or require_cmd found in $E2E_DIR"
missing=$(comm -23 "$T/needed" "$T/listed" | grep -v '^clyde-no-such-tool$' || true)
if [[ -n $missing ]]; then
	fail "commands the tests need that scripts/deps.sh test does not install: $(echo "$missing" | tr '\n' ' ')"
fi
ok "every one of the $(wc -l <"$T/needed") commands the tests ask for is in scripts/deps.sh"
for c in sfdisk sqlite3 strace; do
	grep -qx "$c" "$T/listed" || fail "$c is not in scripts/deps.sh"
	ok "$c is in scripts/deps.sh test"
done
done_testing

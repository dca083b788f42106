#!/usr/bin/env bash
# The options several commands share (--db, --seed, --quiet, --settle,
# --log-interval) are defined once, in src/cli/cli_args.h's
# CLYDE_CLI_OPT_* entries; a command's table names the macro with its
# field and help line instead of typing the entry again.  What is still
# typed per command is listed here, so that no new copy appears.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

src=$CLYDE_SRC/src/cli
[[ -f $src/cli_args.h ]] || skip "no source tree at $CLYDE_SRC"

# report's --db without --experiment is a refusal, not a definition.
allowed='^(cmd_report\.c:db)$'
# An entry's line (not a comment's example: those start with " *").
found=$(grep -HE '^[[:space:]]*(\{ *)?\.name = "(db|seed|quiet|settle|log-interval)"' \
	"$src"/*.c "$src"/*.h | grep -v '^[^:]*cli_args\.h:' |
	sed -E 's|^.*/([^/:]+):.*\.name = "([^"]+)".*|\1:\2|' | sort -u)
extra=$(grep -vE "$allowed" <<<"$found" || true)
[[ -z $extra ]] || fail "shared options typed again: $(tr '\n' ' ' <<<"$extra")"
ok "no command types --db, --seed, --quiet, --settle or --log-interval itself"
for m in DB QUIET SEED SETTLE LOG_INTERVAL; do
	grep -q "^#define CLYDE_CLI_OPT_$m(" "$src/cli_args.h" ||
		fail "CLYDE_CLI_OPT_$m is not defined in cli_args.h"
done
ok "each shared option is one macro in cli_args.h"
n=$(grep -lE "CLYDE_CLI_OPT_(SEED|QUIET)\(" "$src"/*.c | wc -l)
((n >= 3)) || fail "run, tree and dev do not use the shared entries ($n files)"
ok "run, tree and dev use the shared entries"
# Their --help still lists them (t_help_man checks the text against the
# man page).
for cmd in "" tree dev; do
	# shellcheck disable=SC2086 # no command is bare clyde
	run_clyde $cmd --help
	expect_rc 0 "clyde $cmd --help"
	assert_file_match "$T/out" '--seed' "clyde $cmd --help lists --seed"
done
done_testing

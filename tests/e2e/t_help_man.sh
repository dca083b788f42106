#!/bin/bash
# --help, --version and the man page agree with each other and with the
# parser: every option --help lists is described in docs/clyde.1 and the
# other way round, the page renders without warnings, `clyde run` takes the
# same options, and a bad option exits 1 with one line naming it.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

MAN=$CLYDE_SRC/docs/clyde.1
[[ -r $MAN ]] || fail "no man page at $MAN"

# Option names in --help: the option lines start with "  -" or, for long
# options without a short form, "      --"; the names are in the part before
# the two-space gap that starts the description.
help_options()
{
	grep -E '^  -|^      --' "$1" |
		sed -E 's/^ +//; s/  .*$//' |
		tr ', ' '\n' |
		grep -oE '^--?[A-Za-z][A-Za-z0-9-]*' |
		sort -u
}

# Option names in the man page: the tag lines of .TP paragraphs in the
# OPTIONS section, with roff's \- and font escapes removed.
man_options()
{
	awk '/^\.SH / { in_opts = ($0 ~ /^\.SH OPTIONS/) }
	     in_opts && tag { print; tag = 0; next }
	     in_opts && /^\.TP/ { tag = 1 }' "$1" |
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' |
		tr ', ' '\n' |
		grep -oE '^--?[A-Za-z][A-Za-z0-9-]*' |
		sort -u
}

# --help
run_clyde --help
expect_rc 0 "clyde --help exits 0"
cp "$T/out" "$T/help"
assert_file_match "$T/help" '^Usage: clyde \[run\] \[OPTION\]\.\.\.$' \
	"--help starts with the usage line"
[[ ! -s $T/err ]] || fail "--help wrote to stderr: $(head -n 3 "$T/err")"
ok "--help writes nothing to stderr"
assert_file_no_match "$T/help" '^.{81,}$' "--help fits 80 columns"

help_options "$T/help" >"$T/help.opts"
man_options "$MAN" >"$T/man.opts"
n=$(wc -l <"$T/help.opts")
# An extraction that found nothing would make the comparison vacuous.
((n >= 30)) || fail "only $n option names found in --help: $(tr '\n' ' ' <"$T/help.opts")"
ok "--help names $n options"
for o in -d -s -n -m -r -x -u -g -q -f -b -D -c -p -y -z -Z -l \
	--pattern --json --help --version --size --fast; do
	grep -qx -- "$o" "$T/help.opts" || fail "--help does not list $o"
done
ok "--help lists every bonnie++ option and clyde's own"

missing=$(comm -23 "$T/help.opts" "$T/man.opts" | tr '\n' ' ')
[[ -z $missing ]] || fail "in --help but not in clyde.1 OPTIONS: $missing"
ok "every --help option is described in clyde.1"
extra=$(comm -13 "$T/help.opts" "$T/man.opts" | tr '\n' ' ')
[[ -z $extra ]] || fail "in clyde.1 OPTIONS but not in --help: $extra"
ok "clyde.1 describes no option that --help lacks"

# Each listed option is one the parser knows.  Two stray words follow it so
# that the command line is always invalid (an option that takes an argument
# eats the first) and nothing runs; -d points nowhere in case it did.
while read -r o; do
	run_clyde -d "$T/none" "$o" stray1 stray2 </dev/null
	if grep -q 'unknown option' "$T/err"; then
		fail "--help lists $o but clyde rejects it: $(cat "$T/err")"
	fi
	case $o in
	-h | --help | -V | --version) expect_rc 0 "clyde $o exits 0" ;;
	*) [[ $RC -eq 1 ]] || fail "clyde $o stray1 stray2: exit $RC, want 1" ;;
	esac
done <"$T/help.opts"
ok "clyde accepts every option --help lists"

# Every other command: each option its --help lists (the lines the
# option model writes, cli/optmodel.c) is described in that command's
# section of clyde.1, and the command accepts it.
man_section()
{
	awk -v sec="$2" '/^\.SH / { on = ($0 == ".SH " sec || $0 == ".SH \"" sec "\"") }
	     on' "$1" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g'
}
for spec in "tree:TREE WORKLOADS" "dev:DEVICE TESTS" "zcav:DEVICE TESTS" \
	"sweep:SWEEPS" "history:HISTORY" "compare:COMPARE AND REPORT" \
	"report:COMPARE AND REPORT" "stack:STORAGE STACK"; do
	cmd=${spec%%:*} sec=${spec#*:}
	run_clyde "$cmd" --help
	expect_rc 0 "clyde $cmd --help exits 0"
	assert_file_no_match "$T/out" '^.{81,}$' "clyde $cmd --help fits 80 columns"
	help_options "$T/out" >"$T/$cmd.opts"
	man_section "$MAN" "$sec" >"$T/$cmd.man"
	[[ -s $T/$cmd.man ]] || fail "clyde.1 has no $sec section"
	n=$(wc -l <"$T/$cmd.opts")
	((n >= 3)) || fail "clyde $cmd --help: only $n options found"
	missing=
	while read -r o; do
		# -h, --help: every command's, described once in OPTIONS.
		[[ $o == -h || $o == --help ]] && continue
		grep -qE -- "(^|[^A-Za-z0-9-])$o([^A-Za-z0-9-]|\$)" "$T/$cmd.man" ||
			missing+="$o "
	done <"$T/$cmd.opts"
	[[ -z $missing ]] ||
		fail "clyde $cmd --help lists options clyde.1 ($sec) does not describe: $missing"
	ok "clyde.1 $sec describes the $n options of clyde $cmd --help"
done

# Every option a command's --help lists is one it takes where the help
# lists it: history's under each COMMAND (or before it, under Options),
# report's with results or with an experiment.  Two stray words follow so
# that the command line is invalid and nothing runs; the commands run in an
# empty directory that must stay empty.
help_sections()
{
	awk -v cmd="$1" 'BEGIN { sec = "-" }
		cmd == "history" && /^  [a-z]/ { sec = $1 }
		cmd == "history" && /^Options:/ { sec = "-" }
		cmd == "report" && /^With an experiment/ { sec = "exp" }
		/^  -|^      --/ {
			line = $0; sub(/^ +/, "", line); sub(/  .*$/, "", line)
			n = split(line, w, /[, ]+/)
			for (i = 1; i <= n; i++)
				if (match(w[i], /^--?[A-Za-z][A-Za-z0-9-]*/))
					print sec, substr(w[i], 1, RLENGTH)
		}' "$2"
}
cwd=$(new_dir accept-cwd)
for cmd in tree dev zcav sweep history compare report stack; do
	run_clyde "$cmd" --help
	help_sections "$cmd" "$T/out" >"$T/$cmd.sections"
	[[ -s $T/$cmd.sections ]] || fail "no options found in clyde $cmd --help"
	rejected=
	while read -r sec o; do
		case $cmd:$sec in
		history:-) args=("$o") ;;
		history:*) args=(--db "$T/none/h.db" "$sec" "$o") ;;
		report:exp) args=(--experiment-json "$T/none.json" "$o") ;;
		*) args=("$o") ;;
		esac
		(cd "$cwd" && run_clyde "$cmd" "${args[@]}" stray1 stray2 </dev/null
		 grep -q 'unknown option' "$T/err") && rejected+="$sec:$o "
	done <"$T/$cmd.sections"
	[[ -z $rejected ]] ||
		fail "clyde $cmd --help lists options it rejects there: $rejected"
	ok "clyde $cmd takes every option its --help lists ($(wc -l <"$T/$cmd.sections"))"
done
assert_empty_dir "$cwd" "the option checks left nothing behind"
run_clyde report --format text "$T/none.json"
expect_rc 1 "report --format with results is refused"
assert_eq "$(cat "$T/err")" "clyde report: --format: only with --experiment ID or --experiment-json FILE (the table of results is clyde compare --format FMT)" \
	"  with one line saying where --format belongs"

# The sections a man page needs.
for s in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT FILES 'EXIT STATUS' \
	EXAMPLES 'SEE ALSO'; do
	grep -q "^\.SH \"\?$s\"\?\$" "$MAN" || fail "clyde.1 has no $s section"
done
ok "clyde.1 has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, OUTPUT, FILES, EXIT STATUS, EXAMPLES, SEE ALSO"
assert_file_match "$MAN" '^\.TH CLYDE 1 ' "clyde.1 is in section 1"
assert_file_match "$MAN" '^\.BR bonnie\+\+ \(8\),' "clyde.1 refers to bonnie++(8)"
assert_file_match "$MAN" '^\.BR fio \(1\)' "clyde.1 refers to fio(1)"

# --version and -V print "clyde <the project version>".
want=$(sed -nE 's/^project\(clyde VERSION ([0-9.]+).*/\1/p' \
	"$CLYDE_SRC/CMakeLists.txt")
[[ -n $want ]] || fail "no project version in CMakeLists.txt"
run_clyde --version
expect_rc 0 "clyde --version exits 0"
assert_eq "$(cat "$T/out")" "clyde $want" "--version prints the version"
run_clyde -V
expect_rc 0 "clyde -V exits 0"
assert_eq "$(cat "$T/out")" "clyde $want" "-V prints the version"
assert_file_match "$MAN" "^\.TH CLYDE 1 \"[^\"]*\" \"clyde $want\"" \
	"clyde.1 carries the same version"

# `clyde run [options]` is `clyde [options]`.
run_clyde run --help
expect_rc 0 "clyde run --help exits 0"
cmp -s "$T/out" "$T/help" || fail "clyde run --help differs from clyde --help"
ok "clyde run --help is clyde --help"

# An invalid command line: exit 1 and one line that names the option.
check_bad()
{
	local want=$1
	shift
	run_clyde "$@"
	expect_rc 1 "clyde $* exits 1"
	[[ $(wc -l <"$T/err") -eq 1 ]] ||
		fail "clyde $*: want one line on stderr, got: $(cat "$T/err")"
	assert_file_match "$T/err" "$want" "clyde $* names the problem"
	[[ ! -s $T/out ]] || fail "clyde $* wrote to stdout"
}
check_bad '-s: "12x" is not a size' -s 12x
check_bad '-s chunk 100: must be a power of two' -d "$T" -s 64m:100
check_bad 'unexpected argument "8": -f takes its MiB attached' -f 8
check_bad 'unknown option "--bogus"' --bogus
check_bad '-c 201: must be from 1 to 200' run -c 201
check_bad 'unexpected argument "stray"' -d "$T" stray

# The page renders without a warning (groff -ww turns them all on).
require_cmd "rendering clyde.1" groff man
groff -man -Tutf8 -ww -z "$MAN" 2>"$T/groff.err" ||
	fail "groff failed on clyde.1: $(head -n 5 "$T/groff.err")"
[[ ! -s $T/groff.err ]] ||
	fail "groff warns on clyde.1: $(head -n 5 "$T/groff.err")"
ok "groff -man -ww renders clyde.1 without warnings"
LC_ALL=C.UTF-8 MANWIDTH=80 \
	man --warnings -E UTF-8 -l "$MAN" >"$T/man.txt" 2>"$T/man.err" ||
	fail "man -l failed on clyde.1: $(head -n 5 "$T/man.err")"
[[ ! -s $T/man.err ]] ||
	fail "man -l warns on clyde.1: $(head -n 5 "$T/man.err")"
assert_file_match "$T/man.txt" '^ +-s, --size size\[:chunk' \
	"man -l shows the options"

done_testing

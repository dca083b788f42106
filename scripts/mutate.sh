#!/usr/bin/env bash
# mutate.sh [-l] [NAME...]: check that the tests catch what breaks.
#
# Each scripts/mutations/NAME.mut describes one change that breaks clyde
# (a mutation) and the ctest test(s) that must fail when it is made:
#
#   what = md raid6 counted as d-1 data disks     (one line, for the report)
#   file = src/env/stack.c                        (relative to the tree)
#   sed  = s/return d > 2 ? d - 2 : 0;/return d > 1 ? d - 1 : 0;/
#   test = unit/test_stack e2e/t_stack_fixtures  (ctest names)
#
# `sed` may be given more than once (applied in order, as sed -e).  The
# mutation must change the file: an expression that matches nothing (the
# code moved on) is reported "stale" and fails the run, as a test that
# cannot catch anything should.
#
# Nothing in this checkout is touched: the tracked and untracked (not
# ignored) files are copied to a temporary directory, built there once,
# and each mutation is applied to that copy, rebuilt (only the targets its
# tests need), its tests run, and the file put back.  The tests first run
# on the unmutated copy: each must pass there (a test that fails or skips
# without the mutation proves nothing).
#
# Per mutation one line: "caught", "MISSED" (every test passed), "stale",
# "build failed" or "skipped" (a test skipped under the mutation).  Exit 0
# when every mutation was caught, 1 otherwise, 2 for a usage error.
# -l lists the mutations.  -s only checks, without building, that each
# still changes its file and names tests that exist (e2e/t_mutations runs
# it, so code that moves under a mutation fails the suite, not a later
# mutation run).  NAME... runs only those.  MUTATE_KEEP=1 keeps the
# temporary directory (its path is printed).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
dir=$src/scripts/mutations
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

usage()
{
	echo "usage: $0 [-l|-s] [NAME...] (mutations in $dir)" >&2
	exit 2
}

list=false
stale_only=false
while getopts ls opt; do
	case $opt in
	l) list=true ;;
	s) stale_only=true ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))

# read_mut FILE: set WHAT, FILE, SEDS (array) and TESTS (array) from it.
read_mut()
{
	local key value line
	WHAT='' FILE='' SEDS=() TESTS=()
	while IFS= read -r line || [[ -n $line ]]; do
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		if [[ ! $line =~ ^([a-z]+)[[:space:]]*=[[:space:]]?(.*)$ ]]; then
			echo "$0: $1: not a 'key = value' line: $line" >&2
			return 1
		fi
		key=${BASH_REMATCH[1]}
		value=${BASH_REMATCH[2]}
		case $key in
		what) WHAT=$value ;;
		file) FILE=$value ;;
		sed) SEDS+=(-e "$value") ;;
		test) read -r -a TESTS <<<"$value" ;;
		*)
			echo "$0: $1: unknown key '$key' (what, file, sed, test)" >&2
			return 1
			;;
		esac
	done <"$1"
	if [[ -z $WHAT || -z $FILE || ${#SEDS[@]} -eq 0 || ${#TESTS[@]} -eq 0 ]]; then
		echo "$0: $1: needs what, file, sed and test" >&2
		return 1
	fi
}

muts=()
if [[ $# -eq 0 ]]; then
	for f in "$dir"/*.mut; do
		[[ -e $f ]] && muts+=("$f")
	done
else
	for n in "$@"; do
		[[ -r $dir/$n.mut ]] || {
			echo "$0: no mutation $n ($dir/$n.mut)" >&2
			exit 2
		}
		muts+=("$dir/$n.mut")
	done
fi
[[ ${#muts[@]} -gt 0 ]] || {
	echo "$0: no mutation in $dir" >&2
	exit 2
}
for m in "${muts[@]}"; do
	read_mut "$m" || exit 2
	if $list; then
		printf '%-28s %s (%s; %s)\n' "$(basename "$m" .mut)" "$WHAT" \
			"$FILE" "${TESTS[*]}"
	fi
done
$list && exit 0

# -s: each mutation changes its file and names tests that exist.
if $stale_only; then
	bad=0
	for m in "${muts[@]}"; do
		read_mut "$m" || exit 2
		name=$(basename "$m" .mut)
		if [[ ! -r $src/$FILE ]]; then
			echo "stale        $name: no file $FILE"
			bad=1
			continue
		fi
		if sed "${SEDS[@]}" "$src/$FILE" | cmp -s - "$src/$FILE"; then
			echo "stale        $name: its sed no longer changes $FILE"
			bad=1
		fi
		for t in "${TESTS[@]}"; do
			case $t in
			unit/*) f=tests/unit/${t#unit/}.c ;;
			e2e/*) f=tests/e2e/${t#e2e/}.sh ;;
			vm/*) f=tests/vm/${t#vm/}.sh ;;
			*) f='' ;;
			esac
			if [[ -z $f || ! -r $src/$f ]]; then
				echo "stale        $name: no test $t"
				bad=1
			fi
		done
	done
	[[ $bad -eq 0 ]] && echo "mutate.sh: all ${#muts[@]} mutations apply"
	exit "$bad"
fi

# The build targets a ctest name needs.
targets_of()
{
	case $1 in
	unit/*) echo "${1#unit/}" ;;
	e2e/t_mpi*) echo "clyde clyde-mpi" ;;
	e2e/t_bench_verdict) echo "clyde bench_decide" ;;
	e2e/*) echo clyde ;;
	vm/t_nfs*) echo "clyde clyde-mpi" ;; # clyde-mpi over NFS clients
	vm/*) echo clyde ;; # a guest test runs the binary inside the guest
	*)
		echo "$0: $1: not a unit/, e2e/ or vm/ test name" >&2
		return 1
		;;
	esac
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/clyde-mutate.XXXXXX")
cleanup()
{
	if [[ ${MUTATE_KEEP:-} == 1 ]]; then
		echo "mutate.sh: kept $tmp" >&2
	else
		rm -rf -- "$tmp" || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

tree=$tmp/tree
build=$tmp/build
mkdir "$tree"
(cd "$src" && git ls-files -z --cached --others --exclude-standard |
	tar --null -T - -cf -) | tar -C "$tree" -xf -
log=$tmp/log
echo "mutate.sh: building a copy of $src in $tree" >&2
cmake -S "$tree" -B "$build" -DCLYDE_WERROR=OFF >"$log" 2>&1 || {
	cat "$log" >&2
	echo "mutate.sh: cmake failed on the unmutated copy" >&2
	exit 1
}

# build TARGET...: build them in the copy; output in $log.
build()
{
	cmake --build "$build" --parallel "$jobs" --target "$@" >"$log" 2>&1
}

# run_test NAME: 0 passed, 1 failed, 77 skipped; output in $tmp/test.log.
run_test()
{
	local rc=0
	ctest --test-dir "$build" -R "^$1\$" --output-on-failure --timeout 600 \
		>"$tmp/test.log" 2>&1 || rc=$?
	if ! grep -qE "^ *[0-9]+/[0-9]+ Test +#[0-9]+: $1 " "$tmp/test.log"; then
		echo "mutate.sh: ctest has no test $1" >&2
		return 1
	fi
	if [[ $rc -ne 0 ]]; then
		return 1
	fi
	if ! bash "$tree/scripts/ctest-skips.sh" "$tmp/test.log" >/dev/null; then
		return 77
	fi
	return 0
}

# The tests, once, on the unmutated copy.
declare -A baseline=()
bad=0
for m in "${muts[@]}"; do
	read_mut "$m"
	for t in "${TESTS[@]}"; do
		[[ -n ${baseline[$t]:-} ]] && continue
		# shellcheck disable=SC2046 # the targets are words
		build $(targets_of "$t") || {
			tail -n 30 "$log" >&2
			echo "mutate.sh: the unmutated copy does not build $t" >&2
			exit 1
		}
		rc=0
		run_test "$t" || rc=$?
		baseline[$t]=$rc
		if [[ $rc -ne 0 ]]; then
			tail -n 30 "$tmp/test.log" >&2
			echo "mutate.sh: $t $([[ $rc -eq 77 ]] && echo skips || echo fails) without a mutation" >&2
			bad=1
		fi
	done
done
[[ $bad -eq 0 ]] || exit 1

missed=0
for m in "${muts[@]}"; do
	read_mut "$m"
	name=$(basename "$m" .mut)
	f=$tree/$FILE
	if [[ ! -f $f ]]; then
		printf '%-12s %s: %s (%s is gone)\n' stale "$name" "$WHAT" "$FILE"
		missed=$((missed + 1))
		continue
	fi
	cp "$f" "$tmp/pristine"
	sed "${SEDS[@]}" "$tmp/pristine" >"$f"
	verdict=''
	by=''
	if cmp -s "$f" "$tmp/pristine"; then
		verdict=stale
	else
		targets=()
		for t in "${TESTS[@]}"; do
			read -r -a tt <<<"$(targets_of "$t")"
			targets+=("${tt[@]}")
		done
		if ! build "${targets[@]}"; then
			verdict="build failed"
			tail -n 20 "$log" >&2
		else
			verdict=MISSED
			for t in "${TESTS[@]}"; do
				rc=0
				run_test "$t" || rc=$?
				if [[ $rc -eq 1 ]]; then
					verdict=caught
					by=$t
					break
				elif [[ $rc -eq 77 ]]; then
					verdict=skipped
					by=$t
				fi
			done
		fi
	fi
	# Put the file back, newer than the mutated one's objects.
	cp "$tmp/pristine" "$f"
	touch "$f"
	if [[ $verdict == caught ]]; then
		printf '%-12s %s: %s (%s failed)\n' caught "$name" "$WHAT" "$by"
	else
		printf '%-12s %s: %s (%s)\n' "$verdict" "$name" "$WHAT" \
			"${by:-${TESTS[*]}}"
		missed=$((missed + 1))
	fi
done
# Rebuild what the last mutation changed, so that a kept copy is whole.
if [[ ${MUTATE_KEEP:-} == 1 ]]; then
	build all || true
fi
if [[ $missed -gt 0 ]]; then
	echo "mutate.sh: $missed of ${#muts[@]} mutations not caught" >&2
	exit 1
fi
echo "mutate.sh: all ${#muts[@]} mutations caught" >&2

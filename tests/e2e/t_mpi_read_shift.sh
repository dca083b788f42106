#!/usr/bin/env bash
# clyde-mpi --read-shift N on 4 ranks of this host: the per-char read, the
# block read and the seeks of rank r open the IO file rank (r + N) mod 4
# wrote (strace -y shows the file and its directory), in per-rank
# directories (found at the other rank's path) and with --shared (the one
# directory); the JSON says the shift, the tests it applies to and, per
# rank, whose files it read and where; the text says so.  A multiple of
# the ranks reads each rank's own.  Bad values are refused in one line.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=tests/e2e/mpi_lib.sh
. "$E2E_DIR/mpi_lib.sh"

# Bad values: one line naming the option, exit 1, nothing run.
for bad in -1 abc 2x 1.5 1000001; do
	RC=0
	"$CLYDE_MPI" --read-shift "$bad" run -s 4 2>"$T/err" || RC=$?
	[[ $RC -eq 1 && $(wc -l <"$T/err") -eq 1 ]] ||
		fail "--read-shift $bad: exit $RC, $(cat "$T/err")"
	assert_match "$(cat "$T/err")" "^clyde-mpi: --read-shift" \
		"--read-shift $bad is refused in one line naming the option"
done
RC=0
"$CLYDE_MPI" --read-shift 1 tree 2>"$T/err" >/dev/null || RC=$?
[[ $RC -eq 1 ]] || fail "--read-shift with tree: exit $RC"
assert_match "$(cat "$T/err")" "--read-shift applies to run only" "--read-shift with tree is refused"
"$CLYDE_MPI" --help >"$T/help"
assert_file_match "$T/help" '--read-shift N' "--help lists --read-shift"

require_cmd strace
strace -f --seccomp-bpf -e trace=openat -o /dev/null true 2>/dev/null || skip "strace cannot trace here"

# mpi_strace ARGS...: clyde-mpi ARGS on 4 ranks, rank r's file opens in
# $T/st.r (strace -y: each descriptor with its path).
mpi_strace()
{
	RC=0
	# shellcheck disable=SC2016 # expanded by each rank's sh
	timeout -k 10 180 mpirun --allow-run-as-root --oversubscribe -np 4 \
		sh -c 'exec strace -f --seccomp-bpf -y -e trace=openat -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' \
		"$T/st" "$CLYDE_MPI" "$@" >"$T/out" 2>"$T/err" || RC=$?
}

# check_opens SHIFT WHAT: rank r opened io.S, S = (r + SHIFT) mod 4, for
# reading at least 3 times (the per-char read, the block read, the seeks;
# the eviction's and the measure's opens come on top), and created no
# other rank's file.
check_opens()
{
	local r s n shift=$1 what=$2
	for r in 0 1 2 3; do
		s=$(((r + shift) % 4))
		n=$(grep -cE "openat\([0-9]+<$dir/[^>]*>, \"io\.$s\", O_RDONLY" "$T/st.$r" || true)
		((n >= 3)) || {
			grep '"io\.' "$T/st.$r" | head -n 20 >&2
			fail "$what: rank $r opened io.$s (rank $s's file) for reading $n times, want >= 3"
		}
		if ((s != r)) && grep -qE "\"io\.$s\", O_(WRONLY|RDWR).*O_CREAT" "$T/st.$r"; then
			fail "$what: rank $r created rank $s's file"
		fi
	done
	ok "$what: rank r's read-side tests opened rank (r + $shift) mod 4's file"
}

mount_tmpfs 1g
dir=$MNT

# Per-rank directories: rank s's scratch is reached at its own path.
mpi_strace --read-shift 1 run -d "$dir/r%r" -s 4:4096:200 -f1 -n 0 \
	--settle 0 --no-save --json "$T/a.json"
expect_rc 0 "4 ranks with --read-shift 1, a directory per rank"
for r in 0 1 2 3; do
	s=$(((r + 1) % 4))
	grep -qE "openat\([0-9]+<$dir/r$s/clyde\.[0-9]+>, \"io\.$s\", O_RDONLY" "$T/st.$r" ||
		fail "rank $r did not open $dir/r$s/clyde.*/io.$s for reading"
done
check_opens 1 "a directory per rank"
assert_match "$(cat "$T/err")" \
	"--read-shift 1: the per-char read, block read and seeks of rank r read the files rank \(r \+ 1\) mod 4 wrote" \
	"the text says whose files the ranks read"
run_checker "$T/a.json" "$dir" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
m = d["mpi"]
def say(c, what): print(("ok " if c else "FAIL ") + what)
say(m["read_shift"] == {"n": 1, "tests": ["getc", "get_block", "seeks"]},
    "mpi.read_shift: 1, applied to the per-char read, block read and seeks")
for r in m["per_rank"]:
    s = (r["rank"] + 1) % 4
    say(r["read_rank"] == s and
        re.fullmatch(re.escape(sys.argv[2]) + "/r%d/clyde\\.[0-9]+" % s, r["read_dir"]) is not None,
        "rank %d read rank %d's files in %s" % (r["rank"], r["read_rank"], r["read_dir"]))
tests = {t["name"]: t for t in d["runs"][0]["tests"]}
say(tests["get_block"]["bytes"] == 4 * (4 << 20), "the block read read 4 x 4 MiB")
PY
assert_empty_dir "$dir" "nothing is left behind (the other ranks' files too)"

# --shared: the one directory; shift 3.
mkdir "$dir/shared"
mpi_strace --shared --read-shift 3 run -d "$dir/shared" -s 4:4096:200 -f1 -n 0 \
	--settle 0 --no-save --json "$T/b.json"
expect_rc 0 "4 ranks with --shared --read-shift 3"
check_opens 3 "--shared"
assert_eq "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["mpi"]; print([r["read_rank"] for r in m["per_rank"]])' "$T/b.json")" \
	"[3, 0, 1, 2]" "--shared: mpi.per_rank[].read_rank"

# A multiple of the ranks: each reads its own, and the text says so.
mpi --read-shift 4 run -d "$dir/shared" -s 4:4096:200 -f1 -n 0 --settle 0 --no-save \
	--json "$T/c.json"
expect_rc 0 "--read-shift 4 on 4 ranks"
assert_match "$(cat "$T/err")" "--read-shift 4: a multiple of the 4 ranks: every rank reads the files it wrote itself" \
	"--read-shift 4: the text says each rank reads its own"
assert_eq "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["mpi"]; print([(r["read_rank"], r["read_dir"]) for r in m["per_rank"]])' "$T/c.json")" \
	"[(0, ''), (1, ''), (2, ''), (3, '')]" "--read-shift 4: every rank read its own files"
rmdir "$dir/shared"
done_testing

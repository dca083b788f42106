#!/usr/bin/env bash
# clyde-mpi tree with 4 ranks on one host: each rank extracts, walks and
# deletes its own tree; the aggregate of every phase is the sum of the
# ranks' shares over the first start to the last end, its latency
# histograms hold every rank's operations; --shared puts the four trees in
# one scratch directory; a rank whose directory cannot hold its tree stops
# all of them.  Nothing is left behind.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=tests/e2e/mpi_lib.sh
. "$E2E_DIR/mpi_lib.sh"
small=(--files 200 --size fixed:4k --no-drop-caches --no-save -q)

base=$(new_dir ranks)
mpi tree -d "$base/r%r" "${small[@]}" --json "$T/t.json"
expect_rc 0 "clyde-mpi tree with 4 ranks"
assert_empty_dir "$base" "the rank directories are removed"

run_checker "$T/t.json" "$host" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); host = sys.argv[2]
m = d["mpi"]
def say(c, what): print(("ok " if c else "FAIL ") + what)
say(d["kind"] == "tree" and m["ranks"] == 4 and m["hosts"] == [host],
    "a tree document with 4 ranks on this host")
phases = {p["name"]: p for p in d["runs"][0]["phases"]}
say(set(phases) >= {"extract", "stat_walk", "read_walk", "delete"},
    "extract, the walks and delete ran")
ok_sum = ok_win = ok_lat = True
for name, p in phases.items():
    shares = [s for r in m["per_rank"] for s in r["tests"] if s["name"] == name]
    if len(shares) != 4 or sum(s["ops"] for s in shares) != p["entries"] or \
       sum(s["bytes"] for s in shares) != p["bytes"]:
        ok_sum = False
    if max(s["end_ns"] for s in shares) - min(s["start_ns"] for s in shares) \
       != p["elapsed_ns"]:
        ok_win = False
    if name == "stat_walk" and p["latency"]["stat"]["count"] != p["entries"]:
        ok_lat = False
say(ok_sum, "per-rank entries and bytes sum to every phase's aggregate")
say(ok_win, "aggregate elapsed = last rank end - first rank start")
say(ok_lat, "the stat walk's latency histogram holds every rank's stats")
say(phases["extract"]["files"] == 4 * 200, "four trees of 200 files")
PY

# --shared: the four trees side by side in one scratch directory.
shared=$(new_dir shared)
set -m
timeout -k 10 120 mpirun --allow-run-as-root --oversubscribe -np 4 \
	"$CLYDE_MPI" --shared tree -d "$shared" --files 3000 \
	--size fixed:4k --no-drop-caches --no-save -q >"$T/out" 2>"$T/err" &
pid=$!
set +m
trees=0 scratches=0
for ((i = 0; i < 400; i++)); do
	trees=$(find "$shared" -mindepth 2 -maxdepth 2 -name 'tree.r*' | wc -l)
	if [[ $trees -eq 4 ]]; then
		scratches=$(find "$shared" -mindepth 1 -maxdepth 1 | wc -l)
		break
	fi
	sleep 0.05
done
RC=0
wait "$pid" || RC=$?
expect_rc 0 "--shared tree"
[[ $trees -eq 4 && $scratches -eq 1 ]] ||
	fail "--shared: $trees trees in $scratches scratch directories, want 4 in 1"
ok "--shared: tree.r0 .. tree.r3 in one scratch directory"
assert_empty_dir "$shared" "--shared leaves nothing behind"

# Rank 3's directory is too small for its tree: every rank stops.
if [[ $(id -u) -eq 0 ]]; then
	d=$(new_dir small)
	for r in 0 1 2 3; do mkdir "$d/r$r"; done
	mount -t tmpfs -o size=64k,mode=755 tmpfs "$d/r3" ||
		fail "cannot mount a tmpfs on $d/r3"
	at_exit "umount -l '$d/r3'"
	mpi tree -d "$d/r%r" "${small[@]}"
	expect_rc 3 "a rank without room: exit 3"
	assert_match "$(cat "$T/err")" "clyde-mpi: rank 3 on $host: .*needs" \
		"rank 0 names the rank, its host and the reason"
	for r in 0 1 2 3; do
		assert_empty_dir "$d/r$r" "nothing left in rank $r's directory"
	done
fi

done_testing

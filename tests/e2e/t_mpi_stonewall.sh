#!/usr/bin/env bash
# clyde-mpi --stonewall with 4 ranks on one host: tests longer than the
# deadline (per-char tests of 64 MiB, 10^8 seeks, a create of 1Mi files)
# end on every rank within
# the deadline plus a little, say so in the JSON, and their work is what
# was done: the ranks' shares add up to the aggregate, whose rate is that
# work over the last end minus the first start.  Tests shorter than the
# deadline run to their end.  Bad values are refused in one line, and
# nothing is left behind.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=tests/e2e/mpi_lib.sh
. "$E2E_DIR/mpi_lib.sh"

# Bad values: one line, exit 1, before MPI starts.
for bad in 0 -1 abc 2x inf; do
	RC=0
	"$CLYDE_MPI" --stonewall "$bad" run -s 4 2>"$T/err" || RC=$?
	[[ $RC -eq 1 && $(wc -l <"$T/err") -eq 1 ]] ||
		fail "--stonewall $bad: exit $RC, $(cat "$T/err")"
	assert_match "$(cat "$T/err")" "^clyde-mpi: --stonewall.* above 0 and at most 1000000$" \
		"--stonewall $bad is refused in one line"
done
# The messages and --help are made from the option's entry (its bounds).
"$CLYDE_MPI" --stonewall 0 run 2>"$T/err" || true
assert_eq "$(cat "$T/err")" "clyde-mpi: --stonewall 0: must be above 0 and at most 1000000" \
	"--stonewall 0: the model's range message"
"$CLYDE_MPI" --stonewall abc run 2>"$T/err" || true
assert_eq "$(cat "$T/err")" 'clyde-mpi: --stonewall: "abc" is not a number of seconds; use a number above 0 and at most 1000000' \
	"--stonewall abc: the model's message"
"$CLYDE_MPI" --help >"$T/help"
assert_file_match "$T/help" '\(>0\.\.1000000\)$' "--help shows the range of --stonewall"
# --stonewall=S is the same option (the model's long form).
RC=0
"$CLYDE_MPI" --stonewall=2 tree --help 2>"$T/err" >/dev/null || RC=$?
[[ $RC -eq 1 ]] || fail "--stonewall=2 with tree: exit $RC"
assert_match "$(cat "$T/err")" "applies to run only" "--stonewall=2 is read as --stonewall 2"
RC=0
"$CLYDE_MPI" --stonewall 2>"$T/err" || RC=$?
[[ $RC -eq 1 && $(wc -l <"$T/err") -eq 1 ]] || fail "--stonewall without a value: exit $RC"
ok "--stonewall without a value is refused"
RC=0
"$CLYDE_MPI" --stonewall 2 tree --help 2>"$T/err" >/dev/null || RC=$?
[[ $RC -eq 1 ]] || fail "--stonewall with tree: exit $RC"
assert_match "$(cat "$T/err")" "applies to run only" "--stonewall with tree is refused"

mount_tmpfs 1g
dir=$MNT
t0=$(date +%s%N)
# The block tests (16 MiB a rank, a fraction of a second on a tmpfs) must
# end before the deadline on a loaded machine too: with 64 MiB a rank the
# block write took 0.8 s at load 18, within a factor of 3 of being cut.
mpi --stonewall 2 run -d "$dir" -s 16:4096:100000000 -f64 -n 0 --no-save \
	--json "$T/s.json"
t1=$(date +%s%N)
expect_rc 0 "4 ranks with --stonewall 2"
assert_empty_dir "$dir" "nothing is left behind"
# Unbounded, the per-char tests of 64 MiB and the 10^8 seeks take minutes.
(((t1 - t0) / 1000000000 < 60)) || fail "the run took $(((t1 - t0) / 1000000000)) s"
ok "the run took $(((t1 - t0) / 1000000000)) s"

run_checker "$T/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["mpi"]
def say(c, what): print(("ok " if c else "FAIL ") + what)
tests = {t["name"]: t for t in d["runs"][0]["tests"] if t["state"] == "done"}
say(set(tests) == {"putc", "put_block", "rewrite", "getc", "get_block",
                   "seeks"}, "the six IO tests ran")
sw = {s["name"]: s for s in m["stonewall"]["tests"]}
say(m["stonewall"]["seconds"] == 2, "mpi.stonewall.seconds is 2")
for name, t in tests.items():
    full = 4 * (64 if name in ("putc", "getc") else 16) << 20
    shares = [s for r in m["per_rank"] for s in r["tests"] if s["name"] == name]
    cut = name in ("putc", "getc", "seeks")
    say(len(shares) == 4 and all(s["stonewalled"] == cut for s in shares),
        f"{name}: every rank {'is' if cut else 'is not'} stonewalled")
    say(sw[name]["ranks_stonewalled"] == (4 if cut else 0),
        f"{name}: ranks_stonewalled")
    if cut:
        worst = max(s["elapsed_ns"] for s in shares) / 1e9
        say(worst < 3.5, f"{name}: every rank stopped by 3.5 s ({worst:.2f})")
        say(t["bytes"] < (full if name != "seeks" else 4 * 10**8 * 4096),
            f"{name}: less than the whole work")
    else:
        say(t["bytes"] == full, f"{name}: the whole file on every rank")
    say(sum(s["bytes"] for s in shares) == t["bytes"] == sw[name]["bytes"]
        and sum(s["ops"] for s in shares) == t["ops"] == sw[name]["ops"],
        f"{name}: the ranks' work adds up to the aggregate")
    say(sum(w["bytes"] for w in t["workers"]) == t["bytes"],
        f"{name}: the workers' bytes add up to the aggregate")
    first = min(s["start_ns"] for s in shares)
    last = max(s["end_ns"] for s in shares)
    say(last - first == t["elapsed_ns"], f"{name}: window is first start to last end")
    unit = t["bytes"] if name != "seeks" else t["ops"]
    want = unit * 1e9 / t["elapsed_ns"]
    rate = t["rate_per_s"]
    if name != "seeks":
        rate *= {"B/s": 1, "KiB/s": 1024, "MiB/s": 1 << 20}.get(t["rate_unit"], 1)
    say(abs(rate - want) <= 1e-3 * want + 1,
        f"{name}: rate {rate:.0f} is work / window ({want:.0f})")
    say(sw[name]["first_end_ns"] == min(s["end_ns"] for s in shares),
        f"{name}: first_end_ns is the first rank's end")
PY

# The file tests: 1Mi files a rank in 10 directories take several seconds
# to create; a create cut at 1 s leaves fewer files, which its stat and
# delete find and remove in full.  (128Ki were not enough: on the tmpfs one
# rank that got a CPU to itself created all of them within the second, and
# was not cut.  No memory is kept per file, so the count costs nothing.)
mpi --stonewall 1 run -d "$dir" -s 0 -n 1024:0:0:10 --no-save --json "$T/f.json"
expect_rc 0 "4 ranks with --stonewall 1 and the file tests"
assert_empty_dir "$dir" "nothing is left behind by the file tests"
run_checker "$T/f.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["mpi"]
def say(c, what): print(("ok " if c else "FAIL ") + what)
tests = {t["name"]: t for t in d["runs"][0]["tests"] if t["state"] == "done"}
say(len(tests) == 6, "the six file tests ran")
sw = {s["name"]: s for s in m["stonewall"]["tests"]}
for kind in ("seq", "ran"):
    per = {}
    for name in (kind + "_create", kind + "_stat", kind + "_del"):
        t = tests[name]
        shares = [s for r in m["per_rank"] for s in r["tests"] if s["name"] == name]
        per[name] = [(s["ops"], s["stonewalled"]) for s in shares]
        say(sum(n for n, _ in per[name]) == t["ops"] == sw[name]["ops"],
            f"{name}: the ranks' files add up to the aggregate")
        first = min(s["start_ns"] for s in shares)
        last = max(s["end_ns"] for s in shares)
        say(last - first == t["elapsed_ns"], f"{name}: window is first start to last end")
        want = t["ops"] * 1e9 / t["elapsed_ns"]
        say(t["too_fast"] or abs(t["rate_per_s"] - want) <= 1e-3 * want + 1,
            f"{name}: rate is files / window")
    c = [s for r in m["per_rank"] for s in r["tests"] if s["name"] == kind + "_create"]
    say(all(s["stonewalled"] for s in c) and sw[kind + "_create"]["ranks_stonewalled"] == 4,
        f"{kind}_create: every rank is stonewalled")
    say(max(s["elapsed_ns"] for s in c) < 2.5e9, f"{kind}_create: every rank stopped by 2.5 s")
    made = [n for n, _ in per[kind + "_create"]]
    say(all(0 < n < 1024 * 1024 for n in made),
        f"{kind}_create: every rank made some but not all files")
    # A stat or delete that the deadline did not cut took every file the
    # create made; one it cut took fewer (the rest deleted untimed).
    for name in (kind + "_stat", kind + "_del"):
        say(all(n < c if cut else n == c
                for (n, cut), c in zip(per[name], made)),
            f"{name}: every rank took the files its create made "
            f"({sum(cut for _, cut in per[name])} cut)")
PY

# Without --stonewall nothing of it is in the JSON.
mpi run -d "$dir" -s 4 -f -n 0 --no-save --json "$T/p.json"
expect_rc 0 "4 ranks without --stonewall"
run_checker "$T/p.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["mpi"]
def say(c, what): print(("ok " if c else "FAIL ") + what)
say("stonewall" not in m, "no mpi.stonewall without --stonewall")
say(all("stonewalled" not in s for r in m["per_rank"] for s in r["tests"]),
    "no stonewalled flags without --stonewall")
PY
assert_empty_dir "$dir" "nothing is left behind"
done_testing

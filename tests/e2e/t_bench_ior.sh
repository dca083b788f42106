#!/usr/bin/env bash
# bench/ior_mdtest.sh reads IOR's JSON summary and mdtest's text output right:
# its -A mode over the outputs in tests/fixtures/ior (real IOR/mdtest 4.1.0
# output, see the README there) prints tables whose every figure is checked
# against the files here, both of IOR's timing definitions included; a
# damaged output and a missing tool are one line each and exit 1.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3
fx=$CLYDE_SRC/tests/fixtures/ior
script=$CLYDE_SRC/bench/ior_mdtest.sh
[[ -f $fx/params ]] || fail "no fixtures at $fx"
cd "$T"

bash "$script" -A "$fx" >tables.txt 2>err.txt || {
	cat err.txt >&2
	fail "ior_mdtest.sh -A exited $?"
}
ok "ior_mdtest.sh -A prints the tables"
run_checker tables.txt "$fx" <<'PY'
import glob, json, os, re, statistics, sys
text = open(sys.argv[1]).read()
fx = sys.argv[2]
MiB = 1048576.0
def row(prefix):
    m = re.search(r"^" + re.escape(prefix) + r" +(.*)$", text, re.M)
    return re.findall(r"[0-9]+\.[0-9]+", m.group(1)) if m else None
def clyde(kind, i, name):
    d = json.load(open(f"{fx}/clyde-{kind}.{i}.json"))
    return [t["rate_per_s"] for t in d["runs"][0]["tests"] if t["name"] == name][0]
for test, acc in (("put_block", "write"), ("get_block", "read")):
    r = row(f"{test}/{acc}")
    print(("ok " if r else "FAIL ") + f"a row for {test}/{acc}")
    if not r:
        continue
    own, same, c, opn = [], [], [], []
    for i in (1, 2):
        d = json.load(open(f"{fx}/ior.{i}.json"))
        x = [x for x in d["tests"][0]["Results"] if x["access"] == acc][0]
        s = [s for s in d["summary"] if s["operation"] == acc][0]
        own.append(x["bwMiB"])
        same.append(s["xsizeMiB"] / (x["totalTime"] - x["openTime"]))
        opn.append(x["openTime"] * 1e3)
        c.append(clyde("io", i, test) / MiB)
    want = [statistics.median(c), statistics.median(own),
            statistics.median(same), statistics.median(opn),
            statistics.median([a / b for a, b in zip(c, own)]),
            statistics.median([a / b for a, b in zip(c, same)])]
    got = [float(r[0]), float(r[1]), float(r[2]), float(r[3]), float(r[4]),
           float(r[7])]
    good = all(abs(g - w) <= 0.051 * max(1.0, abs(w) / 100) for g, w in zip(got, want))
    print(("ok " if good else "FAIL ") +
          f"{test}: clyde, IOR both ways, open ms and both ratios (got {got}, want {want})")
    # IOR's own bandwidth includes the open: not above clyde's timing
    # (by more than IOR's own rounding: its bwMiB and the summary's
    # times are printed to a few digits; 792.0 against 791.2 at an open
    # of 0.00 ms in these files).
    print(("ok " if float(r[1]) <= 1.002 * float(r[2]) else "FAIL ") +
          f"{test}: IOR's own figure <= the one with clyde's timing")
for test, op in (("seq_create", "File creation"), ("seq_stat", "File stat"),
                 ("seq_del", "File removal")):
    r = row(f"{test}/{op}")
    md, c = [], []
    for i in (1, 2):
        t = open(f"{fx}/mdtest.{i}.txt").read()
        md.append(float(re.search(r"^\s*" + op + r"\s+\S+\s+\S+\s+(\S+)", t, re.M).group(1)))
        c.append(clyde("md", i, test))
    want = [statistics.median(c), statistics.median(md),
            statistics.median([a / b for a, b in zip(c, md)])]
    good = r is not None and all(abs(float(g) - w) <= 0.051 * max(1.0, w / 100)
                                 for g, w in zip(r[:3], want))
    print(("ok " if good else "FAIL ") + f"{test}: clyde, mdtest and the ratio ({r}, {want})")
# The cost per operation (issue 35, item 7): every side's CPU from its
# runs' .cpu files over their operations, system calls from calls-*.txt.
par = dict(l.rstrip("\n").split("=", 1) for l in open(f"{fx}/params") if "=" in l)
def cpu(kind):
    u, s = [], []
    for i in (1, 2):
        cu, cs = map(float, open(f"{fx}/{kind}.{i}.cpu").read().split())
        if kind.startswith("ior"):
            ops = 2 * int(par["size"]) * int(par["ranks"])
        elif kind == "mdtest":
            ops = 3 * int(par["files"]) * 1024 * int(par["ranks"])
        else:
            t = {x["name"]: x for x in json.load(open(f"{fx}/{kind}.{i}.json"))["runs"][0]["tests"]}
            if kind == "clyde-io":
                ops = (t["put_block"]["bytes"] + 2 * t["rewrite"]["bytes"] + t["get_block"]["bytes"]
                       + t["seeks"]["bytes"]) / MiB
            else:
                ops = sum(x["ops"] for n, x in t.items() if n.startswith(("seq_", "ran_")))
        u.append(cu * 1e6 / ops)
        s.append(cs * 1e6 / ops)
    return statistics.median(u), statistics.median(s)
def calls(kind, name):
    for l in open(f"{fx}/calls-{kind}.txt"):
        f = l.split()
        if f[0] == name:
            return float(f[3])
for label, ck, pk, cn, pn in (("put_block/write", "clyde-io", "ior", "pwrite64", "write"),
                              ("get_block/read", "clyde-io", "ior", "pread64", "read"),
                              ("lfl put_block/write", "clyde-io", "ior-lfl", "pwrite64", "write"),
                              ("lfl get_block/read", "clyde-io", "ior-lfl", "pread64", "read"),
                              ("seq_create/File creation", "clyde-md", "mdtest", "openat", "openat"),
                              ("seq_stat/File stat", "clyde-md", "mdtest", "newfstatat", "newfstatat"),
                              ("seq_del/File removal", "clyde-md", "mdtest", "unlinkat", "unlink")):
    r = row(label + " us/op")
    want = list(cpu(ck)) + [calls(ck, cn)] + list(cpu(pk)) + [calls(pk, pn)]
    good = r is not None and len(r) == 6 and all(
        abs(float(g) - w) <= 0.0051 * max(1.0, abs(w)) for g, w in zip(r, want))
    print(("ok " if good else "FAIL ") + f"{label}: the cost per operation of both sides "
          f"(CPU user, system, system calls; got {r}, want {want})")
ver = "4.1.0+dev" in text and "mdtest-4.1.0+dev" in text
print(("ok " if ver else "FAIL ") + "IOR's and mdtest's versions are printed")
PY
assert_file_match tables.txt '^machine: vm, 2 CPUs' "the machine is described"
assert_file_match tables.txt 'clyde timing" = bytes / \(last close end - last open end\)' \
	"says which timing is which"

# A damaged output: one line naming it, exit 1.
cp -r "$fx" bad
echo "mdtest: something else" >bad/mdtest.2.txt
rc=0
bash "$script" -A bad >out.txt 2>err.txt || rc=$?
assert_eq "$rc" 1 "a damaged mdtest output: exit 1"
assert_file_match err.txt "mdtest\.2\.txt: no 'SUMMARY rate' table" "names the file"
assert_eq "$(wc -l <err.txt | tr -d ' ')" 1 "in one line"
rm -rf bad
# No IOR: the script says where to get it.
rc=0
bash "$script" -T io -I "$T/no-ior" -b "$(dirname "$CLYDE")" "$T" >out.txt 2>err.txt || rc=$?
assert_eq "$rc" 1 "no IOR: exit 1"
assert_eq "$(wc -l <err.txt | tr -d ' ')" 1 "one line"
if [[ -x $(dirname "$CLYDE")/clyde-mpi ]] && command -v mpirun >/dev/null 2>&1; then
	assert_file_match err.txt "no ior at $T/no-ior: build IOR and mdtest from https://github.com/hpc/ior" \
		"says how to get IOR"
fi
[[ -z $(find "$T" -maxdepth 1 -name 'ior_mdtest.*') ]] || fail "left a work directory"
ok "nothing left in DIR"
done_testing

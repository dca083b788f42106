"""verdict.py: what a bench row's pairs support (bench/fio_compare.sh,
bench/all.sh; e2e/t_bench_verdict checks it on canned values).

A row's verdict is "ok" or "MISSED" only when the data decides it:

* judge(target, clyde, peer, max_pairs, decide): the interleaved pairs'
  values.  Every pair's ratio clyde/peer on the target's side: ok; every
  one outside it on one side: MISSED.  When the per-repeat range spans
  the target, clyde's until-decided rule (bench_decide, bench/decide.c:
  Welch's t-test on log values at Pocock's level for the looks at 2 ..
  max_pairs, the rule of `clyde run -x N --until-decided`) decides, or
  the row is "within noise" and judge() says whether another pair may
  decide it (fewer than max_pairs so far).  Without bench_decide the
  range alone decides, and a spanning row is within noise.
* judge_range(target, lo, hi): a row of which only the per-repeat range
  is known (the scripts that do not repeat): ok, MISSED, or within noise
  when the range spans the target.

TARGET: ">=R", "<=R" or "LO-HI", on clyde/peer.

Command line (the test's way in):
  python3 bench/verdict.py [-m MAX] [-d BENCH_DECIDE] TARGET C1,C2,.. P1,P2,..
  python3 bench/verdict.py -r TARGET LO-HI
prints the verdict, the pairs, repeat or stop and the reason, tab separated.
"""
import os
import subprocess
import sys


def parse_target(t):
    if t.startswith(">="):
        return float(t[2:]), float("inf")
    if t.startswith("<="):
        return float("-inf"), float(t[2:])
    lo, hi = t.split("-")
    return float(lo), float(hi)


def _side(r, lo, hi):
    return -1 if r < lo else (1 if r > hi else 0)


def judge_range(target, lo, hi):
    """(verdict, reason) for a per-repeat range lo..hi of clyde/peer."""
    tl, th = parse_target(target)
    a, b = _side(lo, tl, th), _side(hi, tl, th)
    if a == b:
        return ("ok", "every pair's ratio meets the target") if a == 0 else \
            ("MISSED", "every pair's ratio misses the target")
    return ("within noise", "the per-repeat range %.2f-%.2f spans the target %s"
            % (lo, hi, target))


def find_decide(clyde_bin=None):
    """bench_decide next to clyde's binary, else in build-bench/ or build/."""
    here = os.path.dirname(os.path.abspath(__file__))
    cands = []
    if clyde_bin:
        cands.append(os.path.join(os.path.dirname(os.path.abspath(clyde_bin)),
                                  "bench_decide"))
    cands += [os.path.join(here, "..", b, "bench_decide")
              for b in ("build-bench", "build")]
    for c in cands:
        if os.access(c, os.X_OK):
            return c
    return None


def judge(target, clyde, peer, max_pairs=None, decide=None):
    """dict(verdict, pairs, repeat, why) for the pairs clyde[i], peer[i]."""
    n = len(clyde)
    if n != len(peer) or n == 0:
        raise ValueError("judge: %d clyde values against %d" % (n, len(peer)))
    max_pairs = max(max_pairs or n, 2 if n < 2 else n)
    if decide:
        out = subprocess.run(
            [decide, "-m", str(max_pairs), target,
             ",".join(repr(float(x)) for x in clyde),
             ",".join(repr(float(x)) for x in peer)],
            capture_output=True, text=True)
        if out.returncode == 0:
            v, pairs, rep, why = out.stdout.rstrip("\n").split("\t")
            return {"verdict": v, "pairs": int(pairs), "repeat": rep == "repeat",
                    "why": why + " (bench_decide)"}
        raise ValueError(out.stderr.strip())
    rs = [c / p for c, p in zip(clyde, peer)]
    v, why = judge_range(target, min(rs), max(rs))
    spans = v == "within noise"
    return {"verdict": v, "pairs": n, "repeat": spans and n < max_pairs,
            "why": why + ("; no bench_decide, so the range alone decides"
                          if spans else "")}


def label(j):
    """The verdict as a table shows it: 'ok (3 pairs)'."""
    return "%s (%d pair%s)" % (j["verdict"], j["pairs"],
                               "" if j["pairs"] == 1 else "s")


def _main(argv):
    import getopt
    opts, args = getopt.getopt(argv, "m:d:r")
    o = dict(opts)
    if "-r" in o:
        if len(args) != 2:
            sys.exit("verdict.py -r TARGET LO-HI")
        lo, hi = (float(x) for x in args[1].split("-"))
        v, why = judge_range(args[0], lo, hi)
        print("%s\t-\tstop\t%s" % (v, why))
        return
    if len(args) != 3:
        sys.exit("verdict.py [-m MAX] [-d BENCH_DECIDE] TARGET C1,C2 P1,P2")
    j = judge(args[0], [float(x) for x in args[1].split(",")],
              [float(x) for x in args[2].split(",")],
              int(o["-m"]) if "-m" in o else None, o.get("-d"))
    print("%s\t%d\t%s\t%s" % (j["verdict"], j["pairs"],
                              "repeat" if j["repeat"] else "stop", j["why"]))


if __name__ == "__main__":
    _main(sys.argv[1:])

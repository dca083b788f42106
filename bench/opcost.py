#!/usr/bin/env python3
"""The cost per operation of a bench step's two sides (issue 35, item 7):
CPU (user and system) and system calls per operation.

Shared by fio_compare.sh, ior_mdtest.sh and bonnie_wall.sh (imported by
their analyses, run by their shell parts):

  opcost.py run FILE -- CMD...
      runs CMD and writes the CPU of its whole process tree (getrusage of
      the child: the child and every descendant it waited for, as
      /usr/bin/time) to FILE as "user_s sys_s"; exits with CMD's status.
  opcost.py calls TRACE NAME SIZE [NAME SIZE...]
      from a `strace -f -qq` trace, for each system call NAME (pwrite64,
      write, openat, unlink, ...) that moved SIZE bytes (SIZE '-': any
      result): its longest run without another kind's operation, and
      every call the threads that made those operations made between
      the first and the last of them, over the operations; prints
      "NAME calls ops calls/op" lines.
  opcost.py perf SMALL LARGE OPS
      from two `perf stat -x, -e raw_syscalls:sys_enter -o FILE` outputs
      of the same tool, a run with OPS operations more than the other:
      the system calls per operation (LARGE - SMALL) / OPS, every thread
      counted by the kernel, for tests that make too many calls for
      strace (a 1-byte call per byte); "-" when either has no count.

A trace comes from a separate short run under strace (strace stops the
tool at every call), never from a timed one.
"""
import os
import re
import subprocess
import sys

# strace -f lines: "PID name(args) = ret", "PID name(args <unfinished ...>",
# "PID <... name resumed>...) = ret", "PID +++ exited ...", "PID --- SIG...".
CALL = re.compile(r"^(\d+)\s+([a-z_0-9]+)\(")


def data_re(names, size=None):
    """A completed call of one of NAMES (its result SIZE, or any result
    when SIZE is None); group 1 is the call's name."""
    alt = "|".join(re.escape(n) for n in names)
    res = r"\d+" if size is None else str(int(size))
    return re.compile(r"^\d+\s+(?:<\.\.\. )?(%s)\b.*= %s(?:\s.*)?$" % (alt, res))


def window_calls(lines, idx):
    """Calls of the threads of the operations at lines idx, between the
    first and the last of them, over the operations."""
    io = {lines[i].split(None, 1)[0] for i in idx}
    calls = sum(1 for l in lines[idx[0]:idx[-1] + 1]
                if CALL.match(l) and l.split(None, 1)[0] in io)
    return calls, len(idx)


def per_op(lines, data):
    """System calls of the threads that made the operations (lines
    matching the regex data), between the first and the last of them,
    over those operations (a tool's other threads poll by the clock, not
    by the operation); None without one."""
    idx = [i for i, l in enumerate(lines) if data.match(l)]
    if not idx:
        return None
    calls, ops = window_calls(lines, idx)
    return calls / ops


RESUMED = re.compile(r"^(\d+)\s+<\.\.\. ([a-z_0-9]+) resumed>(.*)$")


def merged(lines):
    """The trace with each call split by another thread's ("name(args
    <unfinished ...>" then "<... name resumed> rest") made one line again,
    where it ended."""
    pending, out = {}, []
    for l in lines:
        if l.endswith("<unfinished ...>"):
            pending[l.split(None, 1)[0]] = l[:-len("<unfinished ...>")]
            continue
        m = RESUMED.match(l)
        if m and m.group(1) in pending:
            out.append(pending.pop(m.group(1)) + m.group(3).lstrip())
            continue
        out.append(l)
    return out


def phase(lines, data, name):
    """(calls, ops) of one phase of a tool: in each thread, its longest
    run of NAME operations (lines matching data, whose group 1 is the
    call's name) with no operation of another name of data between (a
    tool that writes, then reads: put_block before rewrite's reads and
    writes), and the thread's calls from the first to the last of them;
    summed over the threads whose run is at least a quarter of the
    longest (a sampler thread's stray call is not a phase).  None without
    one."""
    lines = merged(lines)
    best, cur = {}, {}
    for i, l in enumerate(lines):
        m = data.match(l)
        if not m:
            continue
        t = l.split(None, 1)[0]
        if m.group(1) == name:
            cur.setdefault(t, []).append(i)
            if len(cur[t]) > len(best.get(t, [])):
                best[t] = cur[t]
        else:
            cur[t] = []
    if not best:
        return None
    top = max(len(v) for v in best.values())
    calls = ops = 0
    for t, idx in best.items():
        if 4 * len(idx) < top:
            continue
        c, o = window_calls(lines, idx)
        calls, ops = calls + c, ops + o
    return calls, ops


def run(out, cmd):
    p = subprocess.Popen(cmd)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    with open(out, "w") as f:
        f.write("%.6f %.6f\n" % (ru.ru_utime, ru.ru_stime))
    return p.returncode if p.returncode >= 0 else 128 - p.returncode


def read_cpu(path):
    """(user s, sys s) written by `opcost.py run`, None when missing."""
    try:
        u, s = open(path).read().split()[:2]
        return float(u), float(s)
    except (OSError, ValueError):
        return None


def perf_calls(path):
    """The count of `perf stat -x,` of raw_syscalls:sys_enter in path,
    None without one."""
    try:
        for l in open(path):
            f = l.strip().split(",")
            if len(f) > 2 and f[2] == "raw_syscalls:sys_enter" and f[0].isdigit():
                return int(f[0])
    except OSError:
        pass
    return None


def main(argv):
    if len(argv) == 5 and argv[1] == "perf":
        a, b = perf_calls(argv[2]), perf_calls(argv[3])
        print("-" if a is None or b is None else "%.3f" % ((b - a) / int(argv[4])))
        return 0
    if len(argv) >= 4 and argv[1] == "run" and argv[3] == "--":
        return run(argv[2], argv[4:])
    if len(argv) >= 5 and argv[1] == "calls" and len(argv) % 2 == 1:
        lines = open(argv[2]).read().splitlines()
        pairs = list(zip(argv[3::2], argv[4::2]))
        data = {}
        for name, size in pairs:
            data.setdefault(size, []).append(name)
        for name, size in pairs:
            rx = data_re(data[size], None if size == "-" else size)
            r = phase(lines, rx, name)
            if r is None:
                print("%s - 0 -" % name)
            else:
                print("%s %d %d %.3f" % (name, r[0], r[1], r[0] / r[1]))
        return 0
    sys.stderr.write("usage: opcost.py run FILE -- CMD... | "
                     "opcost.py calls TRACE NAME SIZE [NAME SIZE...]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""same_counters.py - do two warpmem JSON reports hold the same numbers?

Compares every field of two `--format json` reports (sim, run or lab)
except the host's wall time (simulation.seconds), so a speed change can be
shown to leave every counter, per-line row and predicted time unchanged:

    build/warpmem sim FILE --format json --lines > new.json
    python3 tools/same_counters.py old.json new.json

Exit status 0 when equal; otherwise the first differences are printed.
"""
import json
import sys

IGNORE = {("simulation", "seconds"), ("wall_seconds",), ("seconds",), ("simulation_seconds",)}


def walk(a, b, path, out):
    if len(out) >= 20:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            p = path + (k,)
            if p[-2:] in IGNORE or p[-1:] in IGNORE:
                continue
            if k not in a or k not in b:
                out.append("%s: only in %s" % ("/".join(map(str, p)), "first" if k in a else "second"))
            else:
                walk(a[k], b[k], p, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: %d entries against %d" % ("/".join(map(str, path)), len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, path + (i,), out)
    elif a != b:
        out.append("%s: %r against %r" % ("/".join(map(str, path)), a, b))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same_counters.py OLD.json NEW.json")
    a, b = (json.load(open(f)) for f in sys.argv[1:])
    out = []
    walk(a, b, (), out)
    for line in out:
        print(line)
    if out:
        sys.exit(1)
    print("same: every counter, line and prediction equal")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""compare_ncu.py - simulated counters against Nsight Compute's, launch by launch.

    python3 tools/compare_ncu.py DIR [--markdown] [--only NAME]

DIR holds, for each corpus file NAME, `sim-NAME.csv` (warpmem sim --format
csv) and `ncu-NAME.csv` (ncu --csv --page raw --print-units base over
`warpmem gpu run`), as tools/gpu/corpus_ncu.sh writes them.  Launches are
paired in order by kernel name (a launch label's name before '#' must occur
in the profiler's kernel name); launches the simulator refused or that
failed have no pair.  For every metric both sides report, a launch's value
is 'equal' or 'sim/measured'.  The summary counts, per metric, the launches
where the two agree exactly.

Memory counters only: instruction counts (smsp__inst_executed*) and times
are printed, not scored, because warpmem counts PTX instructions and the
GPU executes SASS.
"""
import csv
import os
import re
import sys

UNSCORED = re.compile(r"^(smsp__inst_executed|gpu__time_duration|sm__warps_launched|dram__)")


def read_sim(path):
    rows = []
    with open(path, newline="") as f:
        text = f.read()
    # printf output may precede the CSV: start at its header
    at = text.find("launch,kernel,")
    if at < 0:
        return rows
    for r in csv.DictReader(text[at:].splitlines(True)):
        if r.get("launch") and (r.get("status") in (None, "", "ok")):
            rows.append(r)
    return rows


def read_ncu(path):
    rows, header = [], None
    with open(path, newline="") as f:
        for r in csv.reader(f):
            if not r:
                continue
            if r[0] == "ID":
                header = r
                continue
            if header and r[0].isdigit() and len(r) == len(header):
                rows.append(dict(zip(header, r)))
    return rows


def number(s):
    try:
        return float(s.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def pair(sim, ncu):
    out, j = [], 0
    for s in sim:
        base = s["launch"].split("#")[0]
        k = j
        while k < len(ncu) and base not in ncu[k]["Kernel Name"]:
            k += 1
        if k < len(ncu):
            out.append((s, ncu[k]))
            j = k + 1
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    md = "--markdown" in sys.argv
    only = None
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1]
        args.remove(only)
    if not args:
        print(__doc__)
        return 2
    d = args[0]
    names = sorted(n[4:-4] for n in os.listdir(d) if n.startswith("sim-") and n.endswith(".csv"))
    score = {}  # metric -> [equal, compared]
    lines = []
    for name in names:
        if only and name != only:
            continue
        npath = os.path.join(d, "ncu-" + name + ".csv")
        if not os.path.exists(npath):
            continue
        pairs = pair(read_sim(os.path.join(d, "sim-" + name + ".csv")), read_ncu(npath))
        for s, n in pairs:
            diffs, same = [], 0
            for m, v in s.items():
                if "__" not in m or m not in n:
                    continue
                a, b = number(v), number(n[m])
                if a is None or b is None:
                    continue
                if UNSCORED.match(m):
                    continue
                sc = score.setdefault(m, [0, 0])
                sc[1] += 1
                if a == b:
                    sc[0] += 1
                    same += 1
                else:
                    diffs.append((m, a, b))
            head = f"{name}: {s['launch']}: {same} equal"
            lines.append(head + (", differ: " if diffs else ""))
            for m, a, b in diffs:
                ratio = f" ({100 * a / b:.0f}%)" if b else ""
                lines.append(f"    {m}: sim {a:.0f}, measured {b:.0f}{ratio}")
    print("\n".join(lines))
    print()
    if md:
        print("| metric | launches equal | compared |\n|---|---|---|")
    for m in sorted(score):
        e, c = score[m]
        if c and (e or any(True for _ in [0])):
            print(f"| `{m}` | {e} | {c} |" if md else f"{m:70s} {e:4d} / {c:4d} equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""ncu_csv.py WARPMEM - `warpmem sim --format ncu-csv` reads as Nsight
Compute's `ncu --csv --page raw` does (issue 11).

The reader is tools/compare_ncu.py's read_ncu, the one the project uses on
real files; it must read the H100 file docs/results/h100-2026-11-25-
hierarchy/ncu-hierarchy.csv and warpmem's output alike: the same fixed
columns, the same units for every metric both have, numbers that parse,
and counters equal to the same launches' `--format csv`.  Exit 0, or 1
with the first difference.
"""
import csv
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import compare_ncu  # noqa: E402

PTX = os.path.join(ROOT, "groundtruth", "ptx", "hierarchy_kernels.ptx")
REAL = os.path.join(ROOT, "docs", "results", "h100-2026-11-25-hierarchy", "ncu-hierarchy.csv")
FIXED = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
         "Grid Size", "Device", "CC"]


def fail(msg):
    print("ncu_csv: " + msg)
    sys.exit(1)


def units(path):
    """{column: unit} from the units row after the header."""
    rows = [r for r in csv.reader(open(path, newline="")) if r]
    at = next(i for i, r in enumerate(rows) if r[0] == "ID")
    return dict(zip(rows[at], rows[at + 1]))


def sim(wm, fmt):
    args = [wm, "sim", PTX, "--arch", "hopper", "--init", "zero", "--format", fmt, "--kernel", "st_loop"]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def main():
    wm = sys.argv[1]
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "warpmem-ncu-%d.csv" % os.getpid())
    with open(out, "w") as f:
        f.write(sim(wm, "ncu-csv"))
    try:
        real, ours = compare_ncu.read_ncu(REAL), compare_ncu.read_ncu(out)
        if not real or not ours:
            fail("no rows: %d in the H100 file, %d in warpmem's" % (len(real), len(ours)))
        if list(ours[0])[:len(FIXED)] != FIXED or list(real[0])[:len(FIXED)] != FIXED:
            fail("fixed columns differ: %s" % list(ours[0])[:len(FIXED)])
        ur, uo = units(REAL), units(out)
        shared = [m for m in ours[0] if "__" in m and m in real[0]]
        if len(shared) < 30:
            fail("only %d metrics in common with the H100 file" % len(shared))
        for m in shared:
            if ur[m] != uo[m]:
                fail("%s: unit %r, Nsight Compute's %r" % (m, uo[m], ur[m]))
        plain = list(csv.DictReader(sim(wm, "csv").splitlines(True)))
        if any(r["Kernel Name"] != "st_loop" for r in ours):
            fail("kernel names: %s" % [r["Kernel Name"] for r in ours])
        if len(ours) != len(plain):
            fail("%d rows, %d launches in --format csv" % (len(ours), len(plain)))
        for o, p in zip(ours, plain):
            for m in shared:
                a, b = compare_ncu.number(o[m]), compare_ncu.number(p.get(m, ""))
                if a is None or (b is not None and abs(a - b) > 0.006):
                    fail("%s %s: %r in ncu-csv, %r in csv" % (p["launch"], m, o[m], p.get(m)))
        print("ncu_csv: %d launches, %d metrics read as the H100 file's; units and values agree"
              % (len(ours), len(shared)))
    finally:
        os.unlink(out)


if __name__ == "__main__":
    main()

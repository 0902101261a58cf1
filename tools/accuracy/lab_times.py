#!/usr/bin/env python3
"""lab_times.py - the lab's predicted times against an H200's, launch by launch.

    python3 tools/accuracy/lab_times.py build/warpmem [OLD_BUILD/warpmem] [-v]

Runs `warpmem lab --format csv` (simulation only) with each binary and
compares its predicted_us with the `cold us` the H200 measured in
docs/results/h200-2026-11-26-lab/results.md (CUDA events around one launch
after an L2 flush: they include a few microseconds of launch latency that
Nsight Compute's gpu__time_duration leaves out, so small kernels measure
long).  Prints how many are within 25% and the median ratio; with two
binaries, the launches whose verdict changed; -v: every launch."""
import csv, io, statistics, subprocess, sys

RESULTS = 'docs/results/h200-2026-11-26-lab/results.md'


def measured():
    """launch -> cold us, from the Markdown report's tables."""
    out = {}
    for line in open(RESULTS):
        if not line.startswith('| ') or line.startswith('| launch'):
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) < 11:
            continue
        try:
            out[cells[0]] = float(cells[9])
        except ValueError:
            pass
    return out


def predicted(binary):
    """launch -> predicted us."""
    text = subprocess.run([binary, 'lab', '--format', 'csv'], capture_output=True, text=True).stdout
    return {r['launch']: float(r['predicted_us']) for r in csv.DictReader(io.StringIO(text)) if r.get('predicted_us')}


def within(q):
    return 0.75 <= q <= 1.25


def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    meas = measured()
    ratios = []
    for b in args:
        pred = predicted(b)
        r = {k: pred[k] / meas[k] for k in pred if k in meas and meas[k] > 0}
        ratios.append(r)
        print(f"{b}: {sum(within(q) for q in r.values())} of {len(r)} within 25%; median {statistics.median(r.values()):.2f}")
    if '-v' in sys.argv:
        for k, q in sorted(ratios[-1].items(), key=lambda t: t[1]):
            print(f"  {k:28s} {meas[k]:10.1f} us  {q:6.2f}")
    if len(ratios) == 2:
        for k in sorted(ratios[1], key=lambda k: ratios[1][k]):
            if k in ratios[0] and within(ratios[0][k]) != within(ratios[1][k]):
                print(f"  {k:28s} {meas[k]:10.1f} us  {ratios[0][k]:6.2f} -> {ratios[1][k]:6.2f}")


if __name__ == '__main__':
    main()

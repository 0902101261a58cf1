#!/usr/bin/env python3
"""probe_times.py - measured against predicted kernel times, launch by launch.

    python3 tools/gpu/probe_times.py DIR NAME

DIR holds ncu-NAME.csv (Nsight Compute, gpu__time_duration.sum),
times-NAME.json (warpmem gpu run --format json: cold and hot event medians)
and sim-NAME.csv (warpmem sim --format csv: gpu__time_duration.sum, the
predicted time, and its limiter), as tools/gpu/hierarchy_ncu.sh and a local
`warpmem sim` write them.  Prints one row per launch: the three measured
times, the prediction, predicted/measured (against Nsight Compute's) and
the limiter; then the median and worst ratio and how many are within 25%.
"""
import csv
import json
import statistics
import sys


def sim_rows(path):
    text = open(path).read()
    text = text[text.find("launch,kernel,"):]
    return {r["launch"]: r for r in csv.DictReader(text.splitlines(True))}


def ncu_times(path):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(lines))
    col = rows[0].index("gpu__time_duration.sum")
    return [float(r[col].replace(",", "")) for r in rows[1:] if r and r[0].isdigit()]


def main():
    d, name = sys.argv[1], sys.argv[2]
    sim = sim_rows(f"{d}/sim-{name}.csv")
    ncu = ncu_times(f"{d}/ncu-{name}.csv")
    runs = json.load(open(f"{d}/times-{name}.json"))["launches"]
    print(f"{'launch':24s} {'ncu us':>10s} {'cold us':>10s} {'hot us':>10s} {'sim us':>10s} {'sim/ncu':>8s}  limiter")
    ratios = []
    for i, l in enumerate(runs):
        s = sim.get(l["launch"], {})
        m = ncu[i] / 1e3 if i < len(ncu) else float("nan")
        p = float(s.get("gpu__time_duration.sum") or "nan") / 1e3
        r = p / m if m > 0 else float("nan")
        if r == r:
            ratios.append(r)
        print(f"{l['launch']:24s} {m:10.1f} {l['cold']['median_s'] * 1e6:10.1f} {l['hot']['median_s'] * 1e6:10.1f} "
              f"{p:10.1f} {r:8.2f}  {s.get('time_limiter', '')}")
    if ratios:
        off = sorted(ratios, key=lambda r: abs(r - 1))
        within = sum(1 for r in ratios if 0.75 <= r <= 1.25)
        print(f"\n{within} of {len(ratios)} within 25%; median sim/ncu {statistics.median(ratios):.2f}; "
              f"worst {off[-1]:.2f}")


if __name__ == "__main__":
    main()

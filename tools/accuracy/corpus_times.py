#!/usr/bin/env python3
"""corpus_times.py - predicted against measured kernel times for the H100 corpus.

    python3 tools/accuracy/corpus_times.py build/warpmem [-v]

Simulates every tests/corpus/ptx/NAME.ptx with --arch hopper and compares its
gpu__time_duration.sum with Nsight Compute's in
docs/results/h100-2026-11-23-corpus/ncu/ncu-NAME.csv, launch by launch (files
whose launch count differs are skipped and named); prints how many are within
25% and the median predicted/measured."""
import csv, sys, glob, os, subprocess, statistics
wm = sys.argv[1]
D = 'docs/results/h100-2026-11-23-corpus/ncu'
rat = []
for f in sorted(glob.glob(D + '/ncu-*.csv')):
    n = os.path.basename(f)[4:-4]
    lines = [l for l in open(f) if l.startswith('"')]
    rows = list(csv.reader(lines))
    col = rows[0].index('gpu__time_duration.sum'); kn = rows[0].index('Kernel Name')
    meas = [(r[kn], float(r[col].replace(',', ''))) for r in rows[1:] if r and r[0].isdigit()]
    out = subprocess.run([wm, 'sim', f'tests/corpus/ptx/{n}.ptx', '--arch', 'hopper', '--format', 'csv'], capture_output=True, text=True).stdout
    out = out[out.find('launch,kernel,'):]
    sims = [r for r in csv.DictReader(out.splitlines(True))]
    if len(sims) != len(meas): print(n, 'count mismatch', len(sims), len(meas)); continue
    for (k, t), s in zip(meas, sims):
        if not s.get('gpu__time_duration.sum'): continue
        p = float(s['gpu__time_duration.sum'])
        rat.append(p / t)
        if "-v" in sys.argv[2:]: print(f"{s['launch']:30s} {t/1000:9.1f} {p/1000:9.1f} {p/t:6.2f} {s['time_limiter']}")
ok = sum(1 for r in rat if 0.75 <= r <= 1.25)
print(f"{ok} of {len(rat)} within 25%; median {statistics.median(rat):.2f}")

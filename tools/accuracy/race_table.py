#!/usr/bin/env python3
"""race_table.py DIR SIM_CSV [SET] -- the tables of docs/results/h*-2026-11-27-race
(SET race, the default) and -queue (SET queue): for each launch of
groundtruth/SET_kernels.cu, the L1 sector misses and the L2 read sectors of
the three runs (DIR/ncu-SET.csv, ncu-SET-run2.csv, ncu-SET-run3.csv), the
share of the misses the crossbar merged (1 - L2 reads / L1 misses), and the
model's (SIM_CSV, `warpmem sim --format csv`); then, where DIR has them,
mm_g and mm_s, three runs each (DIR/ncu-mm-run*.csv)."""
import csv
import os
import re
import sys

from levels import ncu
from place_merge import num

MISS, READ = 'l1tex__t_sectors_lookup_miss.sum', 'lts__t_sectors_srcunit_tex_op_read.sum'


def main():
    d, sim = sys.argv[1], {r['launch']: r for r in csv.DictReader(open(sys.argv[2]))}
    name = sys.argv[3] if len(sys.argv) > 3 else 'race'
    labels = re.findall(r'^//@\s+(\S+)', open(f'groundtruth/{name}_kernels.cu').read(), re.M)
    runs = [ncu(f'{d}/ncu-{name}.csv'), ncu(f'{d}/ncu-{name}-run2.csv'), ncu(f'{d}/ncu-{name}-run3.csv')]
    print('| launch | L1 misses | L2 read sectors, runs 1 / 2 / 3 | merged | model: L1 misses, L2 reads (merged) | model / measured (median) |')
    print('|---|---|---|---|---|---|')
    for i, name in enumerate(labels):
        miss = num(runs[0][i], MISS)
        reads = sorted(num(r[i], READ) for r in runs)
        merged = [1 - num(r[i], READ) / num(r[i], MISS) for r in runs]
        s = sim[name]
        sm, sr = float(s[MISS]), float(s[READ])
        print(f'| {name} | {miss:,.0f} | {" / ".join(f"{num(r[i], READ):,.0f}" for r in runs)} | '
              f'{min(merged):.0%}-{max(merged):.0%} | {sm:,.0f}, {sr:,.0f} ({1 - sr / sm:.0%}) | {sr / reads[1]:.2f} |')
    if not os.path.exists(f'{d}/ncu-mm-run1.csv'):
        return
    print()
    print('| launch | L1 misses, runs 1 / 2 / 3 | L2 read sectors | merged | duration (ns) |')
    print('|---|---|---|---|---|')
    mm = [ncu(f'{d}/ncu-mm-run{k}.csv') for k in (1, 2, 3)]
    for i, name in enumerate(('mm_g', 'mm_s')):
        rs = [r[i] for r in mm]
        merged = [1 - num(r, READ) / num(r, MISS) for r in rs]
        print(f'| {name} | {" / ".join(f"{num(r, MISS):,.0f}" for r in rs)} | '
              f'{" / ".join(f"{num(r, READ):,.0f}" for r in rs)} | {min(merged):.0%}-{max(merged):.0%} | '
              f'{" / ".join(r["gpu__time_duration.sum"] for r in rs)} |')


if __name__ == '__main__':
    main()

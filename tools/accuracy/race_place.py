#!/usr/bin/env python3
"""race_place.py DIR -- which SMs' reads the crossbar merges in
groundtruth/place_race.cu's launches (race_kernels.cu's eight-blocks-an-SM
launches), tested on the placement of the very launch Nsight Compute
measured (DIR/place-runN.txt beside DIR/ncu-runN.csv, N = 1, 2, 3;
tools/gpu/place_race.sh writes them).

For each launch and run: the measured L1 misses against the L1 misses if
an SM's co-resident blocks shared every sector (`sm`), and the measured L2
read sectors against the reads left if every SM of a group read each
sector once, whenever its blocks asked (an upper bound on merging):
  tpc    the two SMs of a TPC (2k, 2k + 1)
  xbar4  SM i of four GPCs (share_kernels.cu's groups, place_merge.group)
  gpc    every SM of a GPC
  all    the whole GPU
Printed as predicted / measured: below 1, the rule merges more than the
GPU; above 1, less."""
import collections
import sys

from levels import ncu
from place_merge import group as xbar4, num


def gpc(sm):
    if sm < 64:
        return sm // 16
    if sm < 120:
        return 4 + (sm - 64) // 14
    return 8 if sm < 124 else 9


RULES = {'sm': lambda s: s, 'tpc': lambda s: s // 2, 'xbar4': xbar4, 'gpc': gpc, 'all': lambda s: 0}
PARTS = {'mmx#b1024': 'B', 'mmx#a1024': 'A'}  # the rest read both


def placements(path):
    runs, cur = {}, None
    for line in open(path):
        if line.startswith('#'):
            cur = line[2:].strip()
            runs[cur] = []
        else:
            runs[cur].append(tuple(map(int, line.split())))
    return runs


def sectors(name, b):
    """A block's sectors (N = 512, tile (b % 32, b // 32)): B's two of row k
    each step, A's one of each of its 16 rows every 8 steps."""
    bx, by, part = b % 32, b // 32, PARTS.get(name, 'AB')
    out = [('B', bx, h) for h in (0, 1)] if 'B' in part else []
    return out + ([('A', by * 16 + r) for r in range(16)] if 'A' in part else [])


def reads(name, blocks, key):
    seen = collections.defaultdict(set)
    for b, sm, _, _ in blocks:
        for s in sectors(name, b):
            seen[key(sm)].add(s)
    return sum(512 if s[0] == 'B' else 64 for ss in seen.values() for s in ss)


def main():
    d = sys.argv[1]
    for run in (1, 2, 3):
        meas = ncu(f'{d}/ncu-run{run}.csv')
        for (name, blocks), m in zip(placements(f'{d}/place-run{run}.txt').items(), meas):
            miss = num(m, 'l1tex__t_sectors_lookup_miss.sum')
            rd = num(m, 'lts__t_sectors_srcunit_tex_op_read.sum')
            got = {k: reads(name, blocks, f) for k, f in RULES.items()}
            print(f'run {run} {name:13s} L1 misses {miss:9,.0f} (sm {got["sm"] / miss:.2f})  L2 reads {rd:9,.0f}: ' +
                  '  '.join(f'{k} {v / rd:.2f}' for k, v in got.items() if k != 'sm'))


if __name__ == '__main__':
    main()

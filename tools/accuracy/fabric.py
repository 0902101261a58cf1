#!/usr/bin/env python3
"""fabric.py - the traffic between the L2's two partitions, simulated
against Nsight Compute's lts__t_sectors_srcunit_ltcfabric.sum.

    python3 tools/accuracy/fabric.py BIN ARCH RESULTS [-v]

RESULTS is a folder of ncu-SET.csv files measured with the fabric counter
(docs/results/h200-2026-11-26-fabric, h100-...): each SET with a
groundtruth/ptx/SET_kernels.ptx is simulated by BIN (warpmem) with --arch
ARCH, launches in the same order, and a launch agrees when the simulated
sectors lie within 15% of the measured ones or within 128 sectors (4 KB).
The `large` and `l2cap` sets are left out (minutes to simulate).  Prints
one line a set and the total; -v: every launch that disagrees, with its L2
reads and writes (the model's fabric traffic is a far reader's copy fill
and a far writer's write or atomic: half of each, where every SM touches
its own data)."""
import os
import subprocess
import sys

from levels import agrees, ncu, sim_rows

FABRIC = 'lts__t_sectors_srcunit_ltcfabric.sum'
READ = 'lts__t_sectors_srcunit_tex_op_read.sum'
WRITE = 'lts__t_sectors_srcunit_tex_op_write.sum'
SKIP = {'large', 'l2cap'}


def num(x):
    return float(str(x).replace(',', '') or 0)


def main():
    binary, arch, res = sys.argv[1], sys.argv[2], sys.argv[3]
    verbose = '-v' in sys.argv
    good = total = 0
    for f in sorted(os.listdir(res)):
        if not (f.startswith('ncu-') and f.endswith('.csv')):
            continue
        name = f[4:-4]
        ptx = f'groundtruth/ptx/{name}_kernels.ptx'
        if name in SKIP or not os.path.exists(ptx):
            continue
        out = subprocess.run([binary, 'sim', ptx, '--arch', arch, '--init', 'zero', '--format', 'csv'],
                             capture_output=True, text=True).stdout
        ok = n = 0
        for m, s in zip(ncu(f'{res}/{f}'), sim_rows(out)):
            g, w = num(m.get(FABRIC, 0)), num(s.get(FABRIC, 0))
            n += 1
            if agrees(w, g, 0.15, 32):  # 15%, or 128 sectors (4 KB)
                ok += 1
            elif verbose:
                print(f"  {s['launch']:24s} GPU {g:>11.0f}  sim {w:>11.0f}  ({w / g if g else 0:5.2f})"
                      f"  GPU L2 reads {num(m[READ]):>10.0f} writes {num(m[WRITE]):>10.0f}")
        print(f'{name}: {ok} of {n} within 15% or 128 sectors')
        good, total = good + ok, total + n
    print(f'fabric: {good} of {total} launches within 15% or 128 sectors')


if __name__ == '__main__':
    main()

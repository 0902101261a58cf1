#!/usr/bin/env python3
"""levels.py - L2 and DRAM of simulated launches against Nsight Compute's.

    python3 tools/accuracy/levels.py DIR NAME

DIR holds ncu-NAME.csv (ncu --csv --page raw) and sim-NAME.csv (warpmem sim
--format csv), launches in the same order.  Per launch: L2 read and write
sectors and DRAM read bytes, simulated/measured; a launch agrees when each is
within the tolerances of tests/test_groundtruth.c (L2 5%, DRAM 10%) or within
4 KB of the measured value.  corpus_levels.py and seed_levels.py use the
same rule (agrees, launch_levels)."""
import csv
import sys

# (metric, tolerance, bytes a unit): "within 4 KB" is 128 sectors of L2, 4096 bytes of DRAM
KEYS = [('lts__t_sectors_srcunit_tex_op_read.sum', 0.05, 32),
        ('lts__t_sectors_srcunit_tex_op_write.sum', 0.05, 32),
        ('dram__bytes_read.sum', 0.10, 1)]


def ncu(path):
    rows = list(csv.reader([l for l in open(path) if l.startswith('"')]))
    return [dict(zip(rows[0], r)) for r in rows[1:] if r and r[0].isdigit()]


def sim_rows(text):
    text = text[text.find('launch,kernel,'):]
    return list(csv.DictReader(text.splitlines(True)))


def agrees(sim, meas, tol, unit):
    """Simulated `sim` against measured `meas`: within tol, or within 4 KB."""
    q = sim / meas if meas else (1.0 if sim == 0 else float('inf'))
    return abs(q - 1) <= tol or abs(sim - meas) * unit <= 4096


def launch_levels(m, s):
    """A launch's ratios (simulated/measured) for KEYS, and whether all agree."""
    ratios, good = [], True
    for k, tol, unit in KEYS:
        a = float(s.get(k) or 0)
        b = float(m[k].replace(',', '')) if m.get(k) else 0
        ratios.append(a / b if b else (1.0 if a == 0 else float('inf')))
        good = good and agrees(a, b, tol, unit)
    return ratios, good


def main():
    d, n = sys.argv[1], sys.argv[2]
    meas, sims = ncu(f'{d}/ncu-{n}.csv'), sim_rows(open(f'{d}/sim-{n}.csv').read())
    ok = 0
    for m, s in zip(meas, sims):
        r, good = launch_levels(m, s)
        ok += good
        print(f"{s['launch']:18s} L2rd {r[0]:6.2f} L2wr {r[1]:6.2f} DRAMrd {r[2]:6.2f} {'ok' if good else ''}")
    print(f"{ok} of {len(sims)} agree (L2 5%, DRAM 10%, or within 4 KB)")


if __name__ == '__main__':
    main()

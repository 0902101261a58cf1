#!/usr/bin/env python3
"""corpus_levels.py WARPMEM OUTDIR -- the H100 corpus (tests/corpus, measured in
docs/results/h100-2026-11-23-corpus/ncu) simulated with the hopper preset:
per launch, L2 read and write sectors and DRAM bytes read against Nsight
Compute's (levels.py's rule: within 5%, 5%, 10%, or 4 KB) and the predicted
time (within 25%); the simulated CSVs go to OUTDIR.  Run from the repository
root."""
import glob
import os
import subprocess
import sys

from levels import launch_levels, ncu, sim_rows

CORPUS = 'docs/results/h100-2026-11-23-corpus/ncu'


def main():
    wm, out_dir = sys.argv[1], sys.argv[2]
    lv_ok = t_ok = n_all = 0
    for f in sorted(glob.glob(CORPUS + '/ncu-*.csv')):
        n = os.path.basename(f)[4:-4]
        meas = ncu(f)
        out = subprocess.run([wm, 'sim', f'tests/corpus/ptx/{n}.ptx', '--arch', 'hopper', '--format', 'csv'],
                             capture_output=True, text=True).stdout
        open(f'{out_dir}/sim-{n}.csv', 'w').write(out)
        sims = sim_rows(out)
        if len(sims) != len(meas):
            print(n, 'count mismatch', len(sims), len(meas))
            continue
        for m, s in zip(meas, sims):
            if not s.get('gpu__time_duration.sum'):
                continue
            n_all += 1
            r, good = launch_levels(m, s)
            t = float(m['gpu__time_duration.sum'].replace(',', ''))
            p = float(s['gpu__time_duration.sum'])
            tg = 0.75 <= p / t <= 1.25
            lv_ok += good
            t_ok += tg
            print(f"{s['launch']:34s} L2rd {r[0]:6.2f} L2wr {r[1]:6.2f} DRrd {r[2]:6.2f} {'ok' if good else '--'}  "
                  f"t {t / 1000:8.1f} {p / 1000:8.1f} {p / t:5.2f} {'ok' if tg else '--'} {s.get('time_limiter', '')}")
    print(f"levels {lv_ok} of {n_all}; time {t_ok} of {n_all}")


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Markdown tables of simulated vs measured counters beyond L1, and of the
predicted vs measured kernel time (docs/accuracy.md).

    python3 tools/accuracy/compare.py MEASURED.csv SIMULATED.csv [SIMULATED2.csv ...]

MEASURED.csv: a ground-truth file (groundtruth/h200-*-counters.csv);
SIMULATED*.csv: `warpmem sim FILE --format csv` of the same //@ launches
(later files override earlier ones for the same launch).  See
tools/accuracy/run.sh for the commands behind docs/accuracy.md.
"""
import csv
import statistics
import sys

COLS = [("lts__t_sectors_srcunit_tex_op_read.sum", "L2 rd sectors"),
        ("lts__t_sectors_srcunit_tex_op_write.sum", "L2 wr sectors"),
        ("dram__bytes_read.sum", "DRAM rd bytes"),
        ("dram__bytes_write.sum", "DRAM wr bytes"),
        ("gpu__time_duration.sum", "time ns")]


def load(path):
    with open(path) as f:
        return {r["launch"]: r for r in csv.DictReader(f)}


def cell(sim, meas):
    if not meas and not sim:
        return "-"
    if sim == meas:
        return "%d =" % sim
    if not meas:
        return "%d/0" % sim
    return "%d/%d %d%%" % (sim, meas, round(100 * sim / meas))


def main():
    truth = load(sys.argv[1])
    sim = {}
    for p in sys.argv[2:]:
        sim.update(load(p))
    print("| launch | " + " | ".join(h for _, h in COLS) + " | limiter |")
    print("|---" * (len(COLS) + 2) + "|")
    errs = []
    for name, t in truth.items():
        s = sim.get(name)
        if not s:
            continue
        cells = []
        for key, _ in COLS:
            meas = float(t.get(key) or 0)
            val = float(s.get(key) or 0)
            cells.append(cell(int(val), int(meas)))
        meas_t = float(t["gpu__time_duration.sum"])
        errs.append(abs(float(s["gpu__time_duration.sum"]) / meas_t - 1))
        print("| %s | %s | %s |" % (name, " | ".join(cells), s.get("time_limiter", "")))
    print()
    print("Time: median error %.1f%%, largest %.1f%%, over %d launches."
          % (100 * statistics.median(errs), 100 * max(errs), len(errs)))


if __name__ == "__main__":
    main()

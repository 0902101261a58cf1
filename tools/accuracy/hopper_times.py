#!/usr/bin/env python3
"""hopper_times.py - predicted against measured times of issue 33's Hopper sets.

    python3 tools/accuracy/hopper_times.py build/warpmem [-v] [SET...]

Simulates each set's PTX for the H200 and compares gpu__time_duration.sum
with Nsight Compute's (docs/results/h200-2026-12-0[23]-*/ncu-SET.csv),
launch by launch.  Launches pair in order by kernel name: a launch the
simulator refused or faulted, or one the H200 stopped (no profiler row),
is skipped, and the count of pairs says so (a set whose launches changed
since it was profiled pairs by name, not by arguments).  Prints, per set, how many
pairs are within 25%; with -v every pair's ratio and limiter."""
import csv
import re
import statistics
import subprocess
import sys

H = "docs/results/h200-2026-12-02-hopper"
R = "docs/results/h200-2026-12-03-rules"
# SET: (PTX, NCU-DIR, extra sim arguments)
SETS = {
    "tma_copy": ("tests/corpus/ptx/tma_copy.ptx", H, []),
    "wgmma_gemm": ("tests/corpus/ptx/wgmma_gemm.ptx", H, []),
    "cluster_dsm": ("tests/corpus/ptx/cluster_dsm.ptx", H, []),
    "hopper_gemm": ("tests/corpus/ptx/hopper_gemm.ptx", H, []),
    "wgmma": ("groundtruth/ptx/wgmma_kernels.ptx", H, ["--init", "zero"]),
    "tma_edges": ("groundtruth/ptx/tma_edge_kernels.ptx", H, ["--init", "zero"]),
    "hopper": ("groundtruth/ptx/hopper_kernels.ptx", H, ["--init", "zero"]),
    "tensor": ("groundtruth/ptx/tensor_kernels.ptx", H, ["--init", "zero"]),
    "bulk_group": ("groundtruth/ptx/bulk_group_kernels.ptx", R, ["--init", "zero"]),
    "dsm_atom": ("groundtruth/ptx/dsm_atom_kernels.ptx", R, ["--init", "zero"]),
}


def ncu_rows(path):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(lines))
    head = rows[0]
    t, k = head.index("gpu__time_duration.sum"), head.index("Kernel Name")
    # a launch the H200 stopped has a row with no time (nan)
    return [(r[k], float(r[t].replace(",", "") or "nan")) for r in rows[1:] if r and r[0].isdigit()]


def sim_rows(wm, ptx, extra):
    out = subprocess.run([wm, "sim", ptx, "--format", "csv"] + extra,
                         capture_output=True, text=True).stdout
    out = out[out.find("launch,kernel,"):]
    return list(csv.DictReader(out.splitlines(True)))


def base_name(kernel):
    """A kernel's own name: _Z8tile_rawP... and 'tile_raw(CUtensorMap_st, ...)' are tile_raw."""
    m = re.match(r"_Z(\d+)", kernel)
    if m:
        return kernel[m.end():m.end() + int(m.group(1))]
    return kernel.split("(")[0].split("<")[0].strip().split(" ")[-1]


def pairs(sims, meas):
    """Sim rows against profiler rows in order; a sim launch whose kernel is
    not the next profiled one (the H200 stopped it) is passed over."""
    j = 0
    for s in sims:
        if j >= len(meas):
            break
        while j < len(meas) and not meas[j][0]:  # a row of a launch that failed
            j += 1
        if j < len(meas) and s.get("kernel") and base_name(s["kernel"]) == base_name(meas[j][0]):
            if s.get("status") in (None, "", "ok") and s.get("gpu__time_duration.sum") and meas[j][1] == meas[j][1]:
                yield s, meas[j][1]
            j += 1


def main():
    wm = sys.argv[1]
    verbose = "-v" in sys.argv[2:]
    names = [a for a in sys.argv[2:] if a != "-v"] or list(SETS)
    every = []
    for n in names:
        ptx, d, extra = SETS[n]
        meas = ncu_rows(f"{d}/ncu-{n}.csv")
        got = list(pairs(sim_rows(wm, ptx, extra), meas))
        rat = [float(s["gpu__time_duration.sum"]) / t for s, t in got]
        every += rat
        if verbose:
            for (s, t), r in zip(got, rat):
                print(f"  {s['launch']:28s} {t / 1e3:9.2f} {float(s['gpu__time_duration.sum']) / 1e3:9.2f} "
                      f"{r:6.2f} {s.get('time_limiter', '')}")
        ok = sum(1 for r in rat if 0.75 <= r <= 1.25)
        print(f"{n}: {ok} of {len(rat)} within 25% ({len(meas)} profiled)")
    ok = sum(1 for r in every if 0.75 <= r <= 1.25)
    med = statistics.median(every) if every else float("nan")
    print(f"hopper: time {ok} of {len(every)} within 25%; median sim/ncu {med:.2f}")


if __name__ == "__main__":
    main()

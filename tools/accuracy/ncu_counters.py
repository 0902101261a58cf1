#!/usr/bin/env python3
"""ncu_counters.py - a ground-truth counters file from an Nsight Compute CSV.

    python3 tools/accuracy/ncu_counters.py NCU_CSV KERNELS_CU > groundtruth/h200-NAME-counters.csv

(from the repository root).

NCU_CSV is `ncu --csv --page raw --print-units base` over `warpmem gpu run
KERNELS_CU` (tools/gpu/hierarchy_ncu.sh writes it), one row per launch in
the order of the file's //@ lines.  The output has one row per launch,
labelled as the //@ line labels it (NAME or NAME#VARIANT), and a column per
Nsight metric warpmem reports: the layout tests/test_groundtruth.c reads."""
import csv, re, sys

ncu_path, cu_path = sys.argv[1], sys.argv[2]
lines = [l for l in open(ncu_path) if l.startswith('"')]
rows = list(csv.reader(lines))
head = rows[0]
meas = [dict(zip(head, r)) for r in rows[1:] if r and r[0].isdigit()]
labels = [m.group(1) for m in re.finditer(r'^//@\s+(\S+)', open(cu_path).read(), re.M)]
if len(labels) != len(meas):
    sys.exit(f"{cu_path} has {len(labels)} launches, {ncu_path} {len(meas)}")
# the metrics warpmem reports (src/mem/metrics.h), as ncu_prologue.sh asks for them
known = set(re.findall(r'"([a-z0-9_]+__[a-z0-9_.]+)"', open('src/mem/metrics.h').read()))
metrics = sorted(k for k in head if k in known and not k.startswith('warpmem__'))
out = csv.writer(sys.stdout, lineterminator='\n')
out.writerow(['launch'] + metrics)
for label, m in zip(labels, meas):
    out.writerow([label] + [m[k].replace(',', '') for k in metrics])

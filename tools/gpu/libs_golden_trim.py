#!/usr/bin/env python3
"""libs_golden_trim.py - curandHost's golden file as committed: the output
of tools/gpu/libs_golden.sh (curandHost.golden.gz, every value of every
case: `full_*`) without the full_* cases, which stay in
docs/results/h200-2026-12-03-libs/curandHost.golden.gz.

    python3 tools/gpu/libs_golden_trim.py IN.golden.gz OUT.golden

The run of 2026-12-03 named two cases xorwow_bits (the second: 64 values of
seed 0, since named xorwow_seed0_bits by curandHost.cu): the second is
renamed here."""
import gzip
import sys

src, dst = sys.argv[1:3]
out, keep, seen = [], False, set()
for line in gzip.open(src, "rt"):
    if line.startswith("case "):
        _, name, n = line.split()
        if name == "xorwow_bits" and name in seen:
            name = "xorwow_seed0_bits"
        seen.add(name)
        keep = not name.startswith("full_")
        line = "case %s %s\n" % (name, n)
    if keep:
        out.append(line)
open(dst, "w").write("".join(out))

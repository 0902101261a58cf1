#!/usr/bin/env python3
"""seed_levels.py TABLE -- from the seed table of tools/accuracy/run.sh's output
(the part before '## large'), the launches whose L2 read and write sectors
lie within 5% and DRAM bytes read within 10% of the H200's (or within 4 KB:
128 sectors, 4096 bytes; levels.py's rule), as test_groundtruth counts them."""
import re
import sys

from levels import agrees


def within(cell, tol, unit):
    if cell in ('-',) or cell.endswith('='):
        return True
    a, b = map(float, re.search(r'([\d.]+)/([\d.]+)', cell).groups())
    return agrees(a, b, tol, unit)


def main():
    text = open(sys.argv[1]).read().split('## large')[0]
    good, bad = 0, []
    for line in text.splitlines():
        if not line.startswith('| ') or line.startswith('| launch') or line.startswith('| experiment'):
            continue
        c = [x.strip() for x in line.strip('|').split('|')]
        if len(c) < 6:
            continue
        ok = within(c[1], .05, 32) and within(c[2], .05, 32) and within(c[3], .10, 1)
        good += ok
        if not ok:
            bad.append(c[0])
    print(f"seed L2/DRAM {good} of {good + len(bad)}; misses {bad}")


if __name__ == '__main__':
    main()

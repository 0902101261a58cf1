#!/usr/bin/env python3
"""side_groups.py - the SMs that sit near each L2 partition, from the
output of tools/gpu/side_probe.cu.

    python3 tools/gpu/side_groups.py side.txt

Each SM timed one load of each of 256 lines after another SM wrote them;
a load answers near (about 270 clocks) or across the fabric (about 480).
The threshold is the midpoint of the two modes.  SMs with the same
near/far pattern sit on the same side; prints each pattern's SMs and the
pattern (n: near, f: far), largest group first, and the bit masks of
arch.c's l2_side for the group of SM 2."""
import statistics
import sys


def main():
    rows = {}
    for line in open(sys.argv[1]):
        if line.startswith('#'):
            print(line.strip())
            continue
        head, rest = line.split(':')
        if 'no block' in rest:
            continue
        rows[int(head.split()[1])] = list(map(int, rest.split()))
    values = sorted(x for v in rows.values() for x in v)
    near = statistics.median(values[:len(values) // 3])
    far = statistics.median(values[-len(values) // 6:])
    cut = (near + far) / 2
    print(f'near ~{near:.0f} clocks, far ~{far:.0f}, threshold {cut:.0f}')
    groups = {}
    for sm, v in rows.items():
        groups.setdefault(''.join('n' if x < cut else 'f' for x in v), []).append(sm)
    for pattern, sms in sorted(groups.items(), key=lambda g: -len(g[1])):
        print(len(sms), sms)
        print('  ', pattern)
    side = next((sms for sms in groups.values() if 2 in sms), [])
    mask = [0, 0, 0]
    for s in side:
        mask[s // 64] |= 1 << (s % 64)
    print('l2_side (the group of SM 2):', ', '.join(f'0x{m:016x}ull' for m in mask))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""place_merge.py DIR -- which blocks' reads the crossbar merges, tested on the
placement the GPU chose (DIR/place-blocks.txt from tools/gpu/place_probe.sh).

For the shared-tile multiplies of place_probe.cu (16 x 16 tiles: each block
reads 2 sectors of 16 rows of A and of B a step), counts the L2 reads that
remain when every block of a crossbar group reads a sector at the same step
and the group reads it once.  Groups, from share_kernels.cu on the H200:
SMs 0-63 with the same SM mod 16; 64-119 with the same (SM - 64) mod 14;
120-123 and 124-131 by parity.  Which blocks count as "at the same time":
  all   every resident block of the group
  slot  only blocks that are the same-numbered block of their SM (the k-th
        block the SM received), as warps of older blocks issue first
  sm    only blocks of the same SM (no merging across SMs: the L1's own)
Prints the fraction of the L1 sectors each leaves; Nsight Compute measured
0.64 (mm_s) and 0.79 (mm_s_large) on the H200 and the H100."""
import collections
import sys


def group(sm):
    if sm < 64:
        return ('a', sm % 16)
    if sm < 120:
        return ('b', (sm - 64) % 14)
    return ('c' if sm < 124 else 'd', sm % 2)


def main():
    runs, cur = {}, None
    for line in open(sys.argv[1] + '/place-blocks.txt'):
        if line.startswith('#'):
            cur = line[2:].strip()
            runs[cur] = []
        else:
            runs[cur].append(tuple(map(int, line.split())))
    for name, n in (('mm_s', 512), ('mm_g', 512), ('mm_s_large', 1024)):
        blocks = sorted(runs[name])
        gx, steps = n // 16, n // 16
        seen = collections.defaultdict(int)
        slot = {}
        for b, sm, _, _ in blocks:
            slot[b] = seen[sm]
            seen[sm] += 1
        out = []
        for mode in ('all', 'slot', 'sm'):
            reads = set()
            for b, sm, _, _ in blocks:
                who = {'all': group(sm), 'slot': (group(sm), slot[b]), 'sm': sm}[mode]
                bx, by = b % gx, b // gx
                for k in range(steps):
                    for row in range(16):
                        for s in range(2):
                            reads.add((who, k, 'A', by * 16 + row, s))
                            reads.add((who, k, 'B', k * 16 + row, bx, s))
            out.append('%s %.3f' % (mode, len(reads) / (len(blocks) * steps * 64)))
        print('%-11s %s' % (name, '  '.join(out)))


if __name__ == '__main__':
    main()

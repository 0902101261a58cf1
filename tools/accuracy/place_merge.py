#!/usr/bin/env python3
"""place_merge.py DIR -- the counters of tools/gpu/place_probe.sh (DIR/ncu-place*.csv)
as a markdown table, then which blocks' reads the crossbar merges, tested
on the placement the GPU chose (DIR/place-blocks.txt).

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
import csv
import sys

LAUNCHES = ([f"share#{k}" for k in (2, 3, 4, 8, 16, 32, 64, 128, 132)] +
            [f"share_pin#{k}" for k in (2, 3, 4, 8, 16, 32, 64, 128, 132)] +
            ['mm_s', 'mm_s_pin', 'mm_g', 'mm_s_large', 'gemm_pb#256', 'gemm_pb#512'])


def ncu_rows(path):
    rows = list(csv.reader(open(path)))
    i = [k for k, r in enumerate(rows) if r and r[0] == 'ID'][0]
    return [dict(zip(rows[i], r)) for r in rows[i + 2:] if len(r) >= len(rows[i])]


def num(row, metric):
    return float(row[metric].replace(',', ''))


def table(d):
    cold, warm = ncu_rows(d + '/ncu-place.csv'), ncu_rows(d + '/ncu-place-warm.csv')
    xbar = ncu_rows(d + '/ncu-place-xbar.csv')
    print('| launch | L1 sectors | L1 misses | sectors L1 got from the crossbar | L2 read sectors | '
          'L2 reads a sector (share) or an L1 sector | L2 hit / miss | L2 read sectors, L2 warm |')
    print('|---|---|---|---|---|---|---|---|')
    for name, c, w, x in zip(LAUNCHES, cold, warm, xbar):
        l1 = num(c, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')
        rd = num(c, 'lts__t_sectors_srcunit_tex_op_read.sum')
        per = rd / 2048 if name.startswith('share') else rd / l1
        print(f"| {name} | {l1:,.0f} | {num(c, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum'):,.0f} | "
              f"{num(x, 'l1tex__m_xbar2l1tex_read_sectors.sum'):,.0f} | {rd:,.0f} | {per:.2f} | "
              f"{num(c, 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum'):,.0f} / "
              f"{num(c, 'lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum'):,.0f} | "
              f"{num(w, 'lts__t_sectors_srcunit_tex_op_read.sum'):,.0f} |")
    print()


def group(sm):
    if sm < 64:
        return ('a', sm % 16)
    if sm < 120:
        return ('b', (sm - 64) % 14)
    return ('c' if sm < 124 else 'd', sm % 2)


def slots(blocks):
    seen, slot = collections.defaultdict(int), {}
    for b, sm, _, _ in blocks:
        slot[b] = seen[sm]
        seen[sm] += 1
    return slot


def gemm(name, n, blocks):
    """PolyBench-style gemm in place (32 x 8 blocks): a block reads B's row k
    of its 32-column strip (4 sectors) each step, and its 8 rows of A a
    sector every 8 steps."""
    gx, slot, out = n // 32, slots(blocks), []
    for mode in ('all', 'slot', 'sm'):
        reads, total = set(), 0
        for b, sm, _, _ in blocks:
            who = {'all': group(sm), 'slot': (group(sm), slot[b]), 'sm': sm}[mode]
            bx, by = b % gx, b // gx
            for k in range(n):
                for s in range(4):
                    reads.add((who, k, 'B', bx, s))
                if k % 8 == 0:
                    for r in range(8):
                        reads.add((who, k, 'A', by * 8 + r))
            total += n * 4 + n
        out.append('%s %.3f' % (mode, len(reads) / total))
    print('%-11s %s' % (name, '  '.join(out)))


def main():
    table(sys.argv[1])
    runs, cur = {}, None
    for line in open(sys.argv[1] + '/place-blocks.txt'):
        if line.startswith('#'):
            cur = line[2:].strip()
            runs[cur] = []
        else:
            runs[cur].append(tuple(map(int, line.split())))
    for name, n in (('gemm_pb#256', 256), ('gemm_pb#512', 512)):
        if name in runs:
            gemm(name, n, sorted(runs[name]))
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

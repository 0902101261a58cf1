#!/usr/bin/env python3
"""levels.py - L2 and DRAM of simulated launches against Nsight Compute's.

    python3 tools/accuracy/levels.py DIR NAME

DIR holds ncu-NAME.csv (ncu --csv --page raw) and sim-NAME.csv (warpmem sim
--format csv), launches in the same order.  Per launch: L2 read and write
sectors and DRAM read bytes, simulated/measured; a launch agrees when each is
within the tolerances of tests/test_groundtruth.c (L2 5%, DRAM 10%) or within
4 KB of the measured value."""
import csv, sys
def ncu(path):
    lines=[l for l in open(path) if l.startswith('"')]
    rows=list(csv.reader(lines)); h=rows[0]
    return [dict(zip(h,r)) for r in rows[1:] if r and r[0].isdigit()]
def sim(path):
    t=open(path).read(); t=t[t.find('launch,kernel,'):]
    return list(csv.DictReader(t.splitlines(True)))
d=sys.argv[1]; n=sys.argv[2]
M=ncu(f'{d}/ncu-{n}.csv'); S=sim(f'{d}/sim-{n}.csv')
# (metric, tolerance, bytes a unit): "within 4 KB" is 128 sectors of L2, 4096 bytes of DRAM
keys=[('lts__t_sectors_srcunit_tex_op_read.sum',0.05,32),('lts__t_sectors_srcunit_tex_op_write.sum',0.05,32),('dram__bytes_read.sum',0.10,1)]
ok=0
for m,s in zip(M,S):
    r=[]; good=True
    for k,tol,unit in keys:
        a=float(s[k] or 0); b=float(m[k].replace(',',''))
        q=a/b if b else (1.0 if a==0 else float('inf'))
        r.append(f"{q:6.2f}")
        if abs(q-1)>tol and abs(a-b)*unit>4096: good=False
    ok+=good
    print(f"{s['launch']:18s} L2rd {r[0]} L2wr {r[1]} DRAMrd {r[2]} {'ok' if good else ''}")
print(f"{ok} of {len(S)} agree (L2 5%, DRAM 10%, or within 4 KB)")

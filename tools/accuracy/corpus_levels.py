"""corpus_levels.py WARPMEM OUTDIR -- the H100 corpus (tests/corpus, measured in
docs/results/h100-2026-11-23-corpus/ncu) simulated with the hopper preset:
per launch, L2 read and write sectors and DRAM bytes read against Nsight
Compute's (within 5%, 5%, 10%, or 4 KB) and the predicted time (within 25%);
the simulated CSVs go to OUTDIR.  Run from the repository root."""
import csv, sys, glob, os, subprocess, statistics
wm = sys.argv[1]; out_dir = sys.argv[2]
D = 'docs/results/h100-2026-11-23-corpus/ncu'
# (metric, tolerance, bytes a unit): "within 4 KB" is 128 sectors of L2, 4096 bytes of DRAM
keys=[('lts__t_sectors_srcunit_tex_op_read.sum',0.05,32),('lts__t_sectors_srcunit_tex_op_write.sum',0.05,32),('dram__bytes_read.sum',0.10,1)]
lv_ok=0; t_ok=0; n_all=0
rows_out=[]
for f in sorted(glob.glob(D + '/ncu-*.csv')):
    n = os.path.basename(f)[4:-4]
    lines = [l for l in open(f) if l.startswith('"')]
    rows = list(csv.reader(lines)); h=rows[0]
    meas = [dict(zip(h,r)) for r in rows[1:] if r and r[0].isdigit()]
    out = subprocess.run([wm, 'sim', f'tests/corpus/ptx/{n}.ptx', '--arch', 'hopper', '--format', 'csv'], capture_output=True, text=True).stdout
    open(f'{out_dir}/sim-{n}.csv','w').write(out)
    out = out[out.find('launch,kernel,'):]
    sims = list(csv.DictReader(out.splitlines(True)))
    if len(sims) != len(meas): print(n, 'count mismatch', len(sims), len(meas)); continue
    for m, s in zip(meas, sims):
        if not s.get('gpu__time_duration.sum'): continue
        n_all+=1
        r=[]; good=True
        for k,tol,unit in keys:
            a=float(s.get(k) or 0); b=float(m[k].replace(',','')) if m.get(k) else 0
            q=a/b if b else (1.0 if a==0 else float('inf'))
            r.append(q)
            if abs(q-1)>tol and abs(a-b)*unit>4096: good=False
        t=float(m['gpu__time_duration.sum'].replace(',','')); p=float(s['gpu__time_duration.sum'])
        tq=p/t; tg=0.75<=tq<=1.25
        lv_ok+=good; t_ok+=tg
        print(f"{s['launch']:34s} L2rd {r[0]:6.2f} L2wr {r[1]:6.2f} DRrd {r[2]:6.2f} {'ok' if good else '--'}  t {t/1000:8.1f} {p/1000:8.1f} {tq:5.2f} {'ok' if tg else '--'} {s.get('time_limiter','')}")
print(f"levels {lv_ok} of {n_all}; time {t_ok} of {n_all}")

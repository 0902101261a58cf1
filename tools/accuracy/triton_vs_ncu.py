"""triton_vs_ncu.py - the H200's Nsight Compute counters and times of the Triton
kernels (tools/gpu/triton_runs.sh: ncu-triton.csv) against warpmem's
predictions (sim-predicted.csv, the same layout), paired by kernel, grid
and block in order:
  python3 tools/accuracy/triton_vs_ncu.py NCU.csv SIM.csv
"""
import csv, sys
def rows(path):
    txt=[l for l in open(path).read().splitlines() if l.startswith('"')]
    rd=list(csv.reader(txt))
    hdr=rd[0]; out=[]
    for r in rd[1:]:
        if not r or not r[0].isdigit(): continue
        out.append(dict(zip(hdr,r)))
    return out
ncu=rows(sys.argv[1]); sim=rows(sys.argv[2])
def num(x):
    try: return float(x.replace(',',''))
    except: return None
l1=['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum','l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum','l1tex__t_requests_pipe_lsu_mem_global_op_st.sum','l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum','smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum','smsp__inst_executed_op_ldgsts.sum','l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum','l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum','smsp__inst_executed_op_shared_ld.sum','smsp__inst_executed_op_shared_st.sum']
used=set(); within=0; alleq=0
for n in ncu:
    key=(n['Kernel Name'], n['Grid Size'], n['Block Size'])
    cands=[i for i,s in enumerate(sim) if (s['Kernel Name'],s['Grid Size'],s['Block Size'])==key and i not in used]
    if not cands: print('no sim for', key); continue
    used.add(cands[0]); s=sim[cands[0]]
    diff=[(m.split('__',1)[1][:45], num(s.get(m,'')), num(n.get(m,''))) for m in l1 if num(n.get(m,''))!=num(s.get(m,''))]
    t=num(s['gpu__time_duration.sum'])/num(n['gpu__time_duration.sum'])
    within += abs(t-1) <= 0.25; alleq += not diff
    print('%-16s %-14s time %.2f  %s' % (key[0][:16], key[1], t, 'L1 equal' if not diff else diff))
print('%d launches: L1 equal %d, time within 25%% %d' % (len(ncu), alleq, within))

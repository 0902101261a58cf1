"""warpmem.ncu_report (and the top-level ncu_report) over warpmem's JSON; warpmem.diff."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ncu_report
import warpmem
from conftest import KERNELS, REPO, run_cli

COPY_PTX = os.path.join(KERNELS, "copy.ptx")
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
N = 16384

# A script as one writes it for a real .ncu-rep (Nsight Compute's extras/python/ncu_report):
# a few metrics of every launch.
NCU_SCRIPT = '''
import sys
import ncu_report

ctx = ncu_report.load_report(sys.argv[1])
for r in range(ctx.num_ranges()):
    rng = ctx.range_by_idx(r)
    for a in range(rng.num_actions()):
        act = rng.action_by_idx(a)
        ld = act.metric_by_name("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").as_uint64()
        t = act.metric_by_name("gpu__time_duration.sum").as_double()
        blk = act.metric_by_name("launch__block_size").as_uint64()
        print(f"{act.name()},{ld},{t:.1f},{blk},{len(act.metric_names())}")
'''


@pytest.fixture(scope="module")
def cli_json(cli, tmp_path_factory):
    path = tmp_path_factory.mktemp("ncu") / "copy.json"
    path.write_text(json.dumps(run_cli(cli, COPY_PTX)))   # the file's two //@ launches
    return str(path)


def test_script_written_for_ncu_report_runs_unchanged(cli_json, tmp_path):
    script = tmp_path / "metrics.py"
    script.write_text(NCU_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run([sys.executable, str(script), cli_json], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    rows = [x.split(",") for x in p.stdout.split()]
    assert [r[0] for r in rows] == ["copy", "copy_stride2"]
    assert [int(r[1]) for r in rows] == [N // 8, N // 4]      # the //@ lines: 16384 floats, read once or every 2nd
    assert all(int(r[3]) == 256 and float(r[2]) > 0 and int(r[4]) > 100 for r in rows)


def test_reader_on_a_report_and_pythonic_forms():
    x, y = np.arange(N, dtype=np.float32), np.zeros(N, np.float32)
    rep = warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x, y, N])
    ctx = warpmem.ncu_report.load_report(rep)
    assert ctx.num_ranges() == 1 and ctx.range_by_idx(0).num_actions() == 1
    act = ctx[0][0]
    m = act.metric_by_name(LD)
    assert m.as_double() == m.as_uint64() == rep[LD] and m.kind() == m.ValueKind_UINT64
    assert act[LD].value() == rep[LD] and act.metric_by_name("no__such_metric") is None
    assert act.metric_by_name("launch__grid_size").as_uint64() == N // 256
    assert act.metric_by_name("gpu__time_duration.sum").as_double() == rep.predicted_ns
    assert act.metric_by_name("launch__registers_per_thread").as_uint64() == rep.occupancy["registers"]
    assert [a.name() for rng in ctx for a in rng] == ["copy"]
    assert ncu_report.load_report is warpmem.ncu_report.load_report


def test_failed_launches_are_no_actions():
    data = [{"launch": "k", "kernel": "k", "grid": [1, 1, 1], "block": [1, 1, 1], "smem": 0, "status": "failed",
             "error": "boom"}]
    assert ncu_report.load_report(json.dumps(data)).range_by_idx(0).num_actions() == 0
    with pytest.raises(ValueError, match="ncu-rep"):
        ncu_report.load_report("real.ncu-rep")


def test_diff_per_metric_and_per_line(tmp_path):
    x, y = np.arange(2 * N, dtype=np.float32), np.zeros(N, np.float32)
    base = warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x, y, N], label="k")
    cand = warpmem.sim(COPY_PTX, "copy_stride2", grid=N // 256, block=256, args=[x, y, N], label="k")
    d = warpmem.diff(base, cand)
    rows = {r["metric"]: r for r in d.metric_rows}
    assert rows[LD]["baseline"] == N // 8 and rows[LD]["candidate"] == N // 4 and rows[LD]["ratio"] == 2.0
    assert "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum" not in rows     # unchanged: left out
    lines = {(r["source"], r["unit"]): r for r in d.line_rows}
    # lines pair by source line: copy's line 8 is gone, copy_stride2's line 13 new (8 sectors a load request)
    assert lines[("copy.cu:8", "sectors")]["candidate"] == 0 and lines[("copy.cu:8", "sectors")]["baseline"] > 0
    assert lines[("copy.cu:13", "sectors")]["baseline"] == 0
    assert lines[("copy.cu:13", "sectors")]["candidate"] == N // 4 + N // 8   # its load and its store
    assert not warpmem.diff(base, base)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    base.to_json(a)
    cand.to_json(b)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run([sys.executable, "-m", "warpmem", "diff", str(a), str(b)], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 1 and LD in p.stdout and "copy.cu:13" in p.stdout
    p = subprocess.run([sys.executable, "-m", "warpmem", "diff", str(a), str(a)], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 0 and "no differences" in p.stdout

#!/usr/bin/env python3
"""check_report.py - the JSON report of `warpmem run` on a sample app of
tests/apps against numbers derived from first principles (run_app.sh --json).

  check_report.py CHECK REPORT.json

CHECK names the app and what was profiled; each expectation below says
where its numbers come from.  Exit 0 if all hold, 1 (each miss printed)
if not.
"""
import json
import sys

LD_REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
LD_SEC = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
ST_REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
ST_SEC = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
WARPS = "sm__warps_launched.sum"
SH_LD = "smsp__inst_executed_op_shared_ld.sum"
SH_ST = "smsp__inst_executed_op_shared_st.sum"
SH_LD_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SH_ST_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
SH_LD_CONF = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
SH_ST_CONF = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"

# vectorAdd, n = 16384 floats, 256 threads a block: 64 blocks, n/32 = 512
# warps; each loads a[i] and b[i] once (2 x 512 requests) and stores c[i]
# once (512); a warp's 32 floats are one 128-byte line, 4 sectors, so each
# array moves n*4/32 = 2048 sectors.
VECTOR_ADD = [("vectorAdd", [64, 1, 1], [256, 1, 1],
               {WARPS: 512, LD_REQ: 1024, LD_SEC: 4096, ST_REQ: 512, ST_SEC: 2048})]

# transpose of a 256 x 192 matrix (w x h), 32 x 8 threads a block, 8 x 6
# blocks: 384 warps, each running its loop 4 times (32 rows, 8 at a time).
# Reads: a warp reads 32 floats of one row of in: 4 sectors; 1536 requests,
# 6144 sectors (= w*h*4/32).  Naive writes: the 32 lanes write a column of
# out, h*4 = 768 bytes apart: 32 sectors each, 49152.  Tiled writes: rows
# of out again (768-byte rows, 128-byte aligned tiles): 4 sectors each.
# The tile is 32 x 33 floats: a row write and a column read both touch 32
# banks once: one wavefront per instruction, no conflicts.
TRANSPOSE_NAIVE = ("transposeNaive", [8, 6, 1], [32, 8, 1],
                   {WARPS: 384, LD_REQ: 1536, LD_SEC: 6144, ST_REQ: 1536, ST_SEC: 49152,
                    SH_LD: 0, SH_ST: 0})
TRANSPOSE_TILED = ("transposeTiled", [8, 6, 1], [32, 8, 1],
                   {WARPS: 384, LD_REQ: 1536, LD_SEC: 6144, ST_REQ: 1536, ST_SEC: 6144,
                    SH_ST: 1536, SH_ST_WF: 1536, SH_ST_CONF: 0, SH_LD: 1536, SH_LD_WF: 1536, SH_LD_CONF: 0})

# matrixMul, C(128x64) = A(128x96) * B(96x64), 16 x 16 tiles: 4 x 8 blocks
# of 8 warps, 256 warps; a warp is two rows of 16 threads.  Each of the
# k/16 = 6 steps loads a 16-float row piece of A and of B per row: two
# 64-byte pieces, 4 sectors a request: 256 x 12 = 3072 requests, 12288
# sectors; C is stored once, 256 requests of 4 sectors.  (Shared loads are
# left out: nvcc may widen the unrolled As[ty][j] reads to float4.)
MATRIX_MUL = [("matrixMulTiled", [4, 8, 1], [16, 16, 1],
               {WARPS: 256, LD_REQ: 3072, LD_SEC: 12288, ST_REQ: 256, ST_SEC: 1024,
                SH_ST: 3072, SH_ST_WF: 3072, SH_ST_CONF: 0})]

# driverLoader's saxpy, n = 4096, 128 threads a block: 32 blocks, 128
# warps; x and y loaded once, y stored once: 256 requests and 2 x 512
# sectors loaded, 128 requests and 512 sectors stored.
SAXPY = [("saxpy", [32, 1, 1], [128, 1, 1],
          {WARPS: 128, LD_REQ: 256, LD_SEC: 1024, ST_REQ: 128, ST_SEC: 512})]

# spinForever: scaleFirst, n = 1024 floats, 256 threads a block: 4 blocks,
# 32 warps, one load and one store request of 4 sectors each per warp; then
# pollForever, stopped by the watchdog, in its place as failed.
SCALE_FIRST = [("scaleFirst", [4, 1, 1], [256, 1, 1], {WARPS: 32, LD_REQ: 32, LD_SEC: 128, ST_REQ: 32, ST_SEC: 128})]
# benchLoop under --profile-once: scale's first launch and offset's first,
# of 24: n = 16384 floats, 256 threads a block, 64 blocks, 512 warps, each
# warp loading and storing one 128-byte line (4 sectors) of x.
BENCH_ONCE = [(k, [64, 1, 1], [256, 1, 1], {WARPS: 512, LD_REQ: 512, LD_SEC: 2048, ST_REQ: 512, ST_SEC: 2048})
              for k in ("scale", "offset")]

FAILED = {"spinForever": ("pollForever", "watchdog: kernel _Z11pollForeverPVjPj")}

CHECKS = {
    "spinForever": SCALE_FIRST,
    "vectorAdd": VECTOR_ADD,
    "transpose": [TRANSPOSE_NAIVE, TRANSPOSE_TILED],
    "transpose-tiled-only": [TRANSPOSE_TILED],  # -k regex:Tiled, or -s 1 -c 1
    "matrixMul": MATRIX_MUL,
    "driverLoader": SAXPY,
    "benchLoop-once": BENCH_ONCE,
}


def profiled_launches(report):
    """The report's launches that carry counters (functional ones have none)."""
    if isinstance(report, dict):
        report = report.get("launches") or report.get("reports") or []
    return [r for r in report if isinstance(r, dict) and r.get("metrics")]


def check_failed(name, report):
    """The launch FAILED[name] names is in the report, failed, with its error."""
    if name not in FAILED:
        return []
    kernel, error = FAILED[name]
    if isinstance(report, dict):
        report = report.get("launches") or report.get("reports") or []
    for r in report:
        if isinstance(r, dict) and kernel in r.get("kernel", ""):
            if r.get("status") == "failed" and error in (r.get("error") or ""):
                return []
            return [f"{kernel}: status {r.get('status')}, error {r.get('error')!r}: not failed with {error!r}"]
    return [f"no launch of {kernel} in the report"]


def check(name, path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    launches = [r for r in profiled_launches(report) if r.get("status", "ok") == "ok"]
    want = CHECKS[name]
    faults = check_failed(name, report)
    if len(launches) != len(want):
        got = [r.get("kernel") for r in launches]
        return [f"{len(launches)} profiled launches ({got}), not {len(want)}"]
    for r, (kernel, grid, block, metrics) in zip(launches, want):
        label = r.get("kernel", "?")
        if kernel not in label:
            faults.append(f"launch {label}: expected kernel {kernel}")
            continue
        if r.get("status", "ok") != "ok":
            faults.append(f"{label}: status {r.get('status')}: {r.get('error')}")
        for key, v in (("grid", grid), ("block", block)):
            if r.get(key) != v:
                faults.append(f"{label}: {key} {r.get(key)}, not {v}")
        for m, v in metrics.items():
            got = r["metrics"].get(m)
            if got != v:
                faults.append(f"{label}: {m} = {got}, not {v}")
    return faults


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in CHECKS:
        print(f"usage: check_report.py {{{'|'.join(CHECKS)}}} REPORT.json", file=sys.stderr)
        return 2
    faults = check(sys.argv[1], sys.argv[2])
    for f in faults:
        print(f"check_report {sys.argv[1]}: {f}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())

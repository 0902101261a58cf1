"""warpmem from Python: Nsight Compute's counters of a CUDA kernel, without a GPU.

    import numpy as np, warpmem
    x = np.arange(1 << 20, dtype=np.float32); y = np.empty_like(x)
    r = warpmem.sim("copy.cu", "copy", grid=4096, block=256, args=[x, y, x.size])
    r["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], r.predicted_ns, r.limiter

warpmem.triton.run and warpmem.numba.run do the same for Triton and Numba
kernels; warpmem.ncu_report reads reports as Nsight Compute's Python
interface does; warpmem.diff compares two.  docs/python.md is the guide.
"""
from ._lib import version
from .core import ArgumentError, SimError, kernels, sim
from .diff import diff
from .report import Report

__all__ = ["sim", "kernels", "Report", "SimError", "ArgumentError", "diff", "version"]

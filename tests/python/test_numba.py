"""warpmem.numba: numba.cuda kernels through compile_ptx (no GPU), numba's array ABI."""
import numpy as np
import pytest

pytest.importorskip("numba.cuda")
from numba import cuda  # noqa: E402

import warpmem  # noqa: E402
import warpmem.numba as wn  # noqa: E402



def _nothing(a):
    pass


def _nvvm_reason():
    """Why numba cannot compile here (no CUDA toolkit's NVVM), or None."""
    from numba.cuda import float32
    try:
        cuda.compile_ptx(_nothing, (float32[:],), cc=(9, 0))
    except Exception as e:  # numba-cuda raises its own error types for a missing NVVM
        return f"numba.cuda cannot compile here: {type(e).__name__}: {str(e)[:200]}"
    return None


_WHY = _nvvm_reason()
pytestmark = pytest.mark.skipif(_WHY is not None, reason=str(_WHY))

LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"


@cuda.jit(lineinfo=True)
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def transpose(src, dst):
    i, j = cuda.grid(2)                # i along x (threadIdx.x): src's rows
    if i < src.shape[0] and j < src.shape[1]:
        dst[j, i] = src[i, j]


@cuda.jit
def row_sums(m, out):
    r = cuda.grid(1)
    if r < m.shape[0]:
        s = 0.0
        for c in range(m.shape[1]):
            s += m[r, c]
        out[r] = s


def test_saxpy():
    n = 1 << 15
    rng = np.random.default_rng(0)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.zeros_like(x)
    r = wn.run(saxpy, n // 256, 256, np.float32(2.0), x, y, out)
    np.testing.assert_allclose(out, 2 * x + y, rtol=1e-6)
    assert r[LD] == 2 * n // 8 and r[ST] == n // 8                 # x and y read once, out written once
    assert r.launch == "saxpy"
    # each array is 5 + 2 * ndim parameters (meminfo, parent, nitems, itemsize, data, shape, strides)
    assert len(warpmem.kernels(r.ptx)[0]["params"]) == 1 + 3 * 7
    assert any(x["cu_file"].endswith("test_numba.py") for x in r.json["source_lines"])


def test_transpose_2d_strides():
    a = np.random.default_rng(1).random((64, 96), dtype=np.float32)
    b = np.zeros((96, 64), np.float32)
    r = wn.run(transpose, (4, 6), (16, 16), a, b)
    np.testing.assert_array_equal(b, a.T)
    # i runs along threadIdx.x, so a warp (16 x 2 threads) reads src[i, j] down columns: 16 rows
    # 384 bytes apart, each row's 2 adjacent columns in one sector: 16 sectors a request
    rows = [x for x in r.json["lines"] if x["op"] == "ld" and x["space"] == "global"]
    assert len(rows) == 1 and rows[0]["per_request"] == 16.0
    # dst[j, i]: i contiguous, so a warp writes 2 rows of 16 floats (2 sectors each): every sector once
    assert r[ST] == 96 * 64 * 4 // 32


def test_loop_reads_each_element_once():
    m = np.random.default_rng(2).random((256, 40))
    out = np.zeros(256)
    r = wn.run(row_sums, 2, 128, m, out)
    np.testing.assert_allclose(out, m.sum(axis=1))
    # 40 doubles a row, 320 bytes apart: each of the 40 loads of a warp touches 32 rows' sectors
    assert r[LD] == 40 * (256 // 32) * 32


def test_wrong_types_raise():
    with pytest.raises(warpmem.ArgumentError):
        wn.run(saxpy, 1, 32, 2.0, np.zeros(4, np.float32), object(), np.zeros(4, np.float32))


def test_launch_syntax():
    n = 4096
    x, y, out = np.ones(n, np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)
    r = wn.kernel(saxpy)[n // 128, 128](np.float32(3.0), x, y, out)
    assert (out == 4).all() and r.grid == (n // 128, 1, 1) and r[ST] == n // 8


def test_views_keep_their_strides():
    a = np.random.default_rng(7).random((96, 64), dtype=np.float32)
    src = a.T                                    # a (64, 96) view, Fortran order: numba reads its strides
    dst = np.zeros((96, 64), np.float32)
    wn.run(transpose, (4, 6), (16, 16), src, dst)
    np.testing.assert_array_equal(dst, a)        # (a.T).T
    half = np.zeros((96, 128), np.float32)
    wn.run(transpose, (4, 6), (16, 16), src, half[:, ::2])   # every other column of a larger array
    np.testing.assert_array_equal(half[:, ::2], a)
    assert not half[:, 1::2].any()

"""warpmem.triton: the tutorials' kernels for sm_80 and sm_90, outputs against NumPy, counters from first principles."""
import shutil

import numpy as np
import pytest

pytest.importorskip("triton")
import triton_kernels as tk  # noqa: E402
import warpmem  # noqa: E402
import warpmem.triton as wt  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
LDGSTS = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum"
TARGETS = ["sm_80", "sm_90"]


def run_case(c, target):
    """Runs a case of triton_kernels.py and checks its output against NumPy's within the case's tolerance."""
    r = wt.run(c["fn"], c["grid"], *c["args"], num_warps=c["num_warps"], num_stages=c.get("num_stages", 3),
               target=target, **c["constexprs"])
    np.testing.assert_allclose(c["out"].astype(np.float32), c["ref"], atol=c["atol"], rtol=c["rtol"])
    return r


def warp_sectors(starts, count):
    """Sectors of rows of count floats at byte offsets starts, read a warp instruction at a time: 32
    consecutive floats each (Triton's blocked layout of one float a lane, unaligned rows), and each
    request counts the 32-byte sectors its lanes touch (a sector two requests share counts twice)."""
    def touched(s, n):
        return (s + n - 1) // 32 - s // 32 + 1
    return sum(touched(s + 4 * c, 4 * min(32, count - c)) for s in starts for c in range(0, count, 32))


@pytest.mark.parametrize("target", TARGETS)
def test_vector_add(target):
    c = tk.vector_add_case()
    r = run_case(c, target)                                       # a float add: exact (atol = rtol = 0)
    n = c["args"][3]
    assert r[LD] == 2 * n * 4 // 32 and r[ST] == n * 4 // 32      # two arrays read, one written, once each
    # Triton marks the 16-byte aligned pointers: 4 floats a lane, 16 sectors a request
    assert r[LD] / r["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 16.0
    assert r.block == (128, 1, 1)
    if shutil.which("ptxas"):  # the PTX ISA is one CUDA 13.0's ptxas reads: registers for the occupancy
        assert r.occupancy["registers_from"].startswith("ptxas")
    lines = {x["cu_line"] for x in r.json["source_lines"]}
    assert lines and all(x["cu_file"].endswith("triton_kernels.py") for x in r.json["source_lines"])


@pytest.mark.parametrize("target", TARGETS)
def test_fused_softmax(target):
    c = tk.softmax_case()
    r = run_case(c, target)
    rows, cols = c["args"][4], c["args"][5]
    # each row read once and written once: rows of 781 floats, 3124 bytes apart, so not 16-byte aligned
    # (no vector loads) and most of a row's 25 requests touch 5 sectors, not 4
    want = warp_sectors([r_ * cols * 4 for r_ in range(rows)], cols)
    assert r[LD] == want and r[ST] == want
    assert r.smem == r.compiled.shared > 0                         # the reductions' scratch from the metadata


@pytest.mark.parametrize("target", TARGETS)
def test_matmul(target):
    c = tk.matmul_case()
    r = run_case(c, target)  # fp16 output of an fp32 accumulation: the tutorial's atol 1e-2, fp16's rounding
    m, n, k = c["args"][3:6]
    bm, bn = c["constexprs"]["BM"], c["constexprs"]["BN"]
    # every program reads its BM x K strip of A and K x BN strip of B once, through cp.async (16 bytes, L2 only)
    a_reads = (n // bn) * m * k * 2 // 32
    b_reads = (m // bm) * k * n * 2 // 32
    assert r[LDGSTS] == a_reads + b_reads
    assert r[ST] == m * n * 2 // 32                                # C written once, in fp16
    assert r.smem == r.compiled.shared >= 2 * (bm + bn) * c["constexprs"]["BK"] * 2  # two stages at least
    ptx = r.compiled.ptx
    assert ("wgmma.mma_async" in ptx or "mma.sync" in ptx) and ("cp.async" in ptx)


@pytest.mark.parametrize("target", TARGETS)
def test_layer_norm(target):
    c = tk.layer_norm_case()
    r = run_case(c, target)
    mean, rstd = c["args"][4], c["args"][5]
    x = c["args"][0]
    np.testing.assert_allclose(mean, x.mean(axis=1), atol=1e-5)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(x.var(axis=1) + 1e-5), rtol=1e-4)
    rows, cols = x.shape
    row = cols * 4 // 32                                          # 144 sectors a row of 1152 floats
    assert r[LD] == rows * (3 * row + 2 * row)                    # x three times (mean, variance, output), w and b
    assert r[ST] == rows * row + 2 * rows                         # y, and a sector each for mean and rstd


def test_int_one_is_a_constant_and_scratch_params_are_passed():
    c = tk.vector_add_case(n=1)
    comp = wt.compile(c["fn"], *c["args"], **c["constexprs"])
    # Triton's launcher makes an integer argument equal to 1 a constant: three pointers and the hidden
    # scratch pointers remain (global and profile scratch in 3.9)
    params = warpmem.kernels(comp.ptx)[0]["params"]
    assert len(params) == 3 + 2 and len(comp.args) == 3
    r = wt.run(c["fn"], c["grid"], *c["args"], **c["constexprs"])
    np.testing.assert_array_equal(c["out"], c["ref"])
    assert r[ST] == 1


def test_out_of_bounds_in_triton_raises_with_the_python_line():
    c = tk.vector_add_case(n=2048)
    a, b, out, n = c["args"]
    with pytest.raises(warpmem.SimError) as ei:   # a count larger than the arrays: the mask lets lanes past them
        wt.run(c["fn"], (4,), a, b, out, 4096, BLOCK=1024)
    e = ei.value
    assert e.code == "fault" and "out-of-bounds" in e.message
    assert e.where is not None and e.where.startswith("triton_kernels.py:")


def test_wrong_argument_count_raises():
    with pytest.raises(warpmem.ArgumentError):
        wt.run(tk.vector_add, (1,), np.zeros(4, np.float32), BLOCK=4)


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=2), triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@triton.heuristics({"EVEN": lambda a: a["n"] % a["BLOCK"] == 0})
@triton.jit
def _scale(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(y_ptr + offs, tl.load(x_ptr + offs) * alpha)
    else:
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * alpha, mask=offs < n)


@pytest.mark.parametrize("n,config,block", [(4096, 0, 256), (5000, 1, 1024)])
def test_autotune_config_and_heuristics(n, config, block):
    x = np.random.default_rng(4).random(n, dtype=np.float32)
    y = np.zeros_like(x)
    r = wt.run(_scale, lambda m: (triton.cdiv(m["n"], m["BLOCK"]),), x, y, n, 3.0, config=_scale.configs[config])
    np.testing.assert_allclose(y, 3 * x, rtol=1e-7)
    assert r.compiled.constexprs == {"BLOCK": block, "EVEN": n % block == 0}  # the config's, the heuristic's
    assert r.grid == (-(-n // block), 1, 1) and r.block == (32 * _scale.configs[config].num_warps, 1, 1)
    # EVEN (4096 over 256): unmasked 16-byte stores, every sector once; else masked with n not divisible
    # by 16, so no vector stores: a lane's 4 consecutive floats are 4 requests, each touching the warp's
    # 16 sectors (its lanes 16 bytes apart), every sector four times
    assert r[ST] == (1 if n % block == 0 else 4) * n * 4 // 32


def test_launch_syntax_and_tensor_like_arguments():
    class CpuTensor:  # what warpmem asks of a CPU torch tensor: device, detach(), numpy(), dtype
        def __init__(self, a):
            self.a, self.dtype = a, "torch." + a.dtype.name
            self.device = type("Device", (), {"type": "cpu"})()

        def detach(self):
            return self

        def numpy(self):
            return self.a

        def data_ptr(self):
            return self.a.ctypes.data

    n = 2048
    a, b, c = (CpuTensor(np.full(n, v, np.float32)) for v in (1.0, 2.0, 0.0))
    r = wt.kernel(tk.vector_add)[(n // 1024,)](a, b, c, n, BLOCK=1024)
    assert (c.a == 3).all() and r[ST] == n * 4 // 32


@triton.jit
def _desc_scale(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # a tensor descriptor made on the device: sm_90 builds a TMA tensor map in shared memory
    # (tensormap.replace, field by field), in the global scratch Triton's metadata asks for
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    t = xd.load([tl.program_id(0) * BM, tl.program_id(1) * BN])
    yd.store([tl.program_id(0) * BM, tl.program_id(1) * BN], t * 2)


@pytest.mark.parametrize("target", TARGETS)
def test_device_tensor_descriptors(target):
    """sm_80 lowers them to plain loads; sm_90 builds each map with tensormap.replace on 128 zeroed
    bytes of shared memory (a zero map reads as rank 1, u8, sizes 1: emu_tmap.c), copies it to the
    global scratch and copies tiles through the TMA: one load and one store a warp of each program.
    The scratch buffer is passed either way."""
    m = n = 128
    x = np.random.default_rng(5).random((m, n), dtype=np.float32)
    y = np.zeros_like(x)
    comp = wt.compile(_desc_scale, x, y, m, n, BM=64, BN=64, target=target)
    scratch = comp.launch_args((2, 2, 1))[len(comp.args)]
    assert (scratch is None) == (comp.metadata.global_scratch_size == 0)
    if scratch is not None:
        assert scratch.nbytes == 4 * comp.metadata.global_scratch_size  # per program, 4 programs
    r = wt.run(_desc_scale, (2, 2), x, y, m, n, BM=64, BN=64, target=target)
    np.testing.assert_array_equal(y, 2 * x)
    if target == "sm_90":
        assert r["smsp__inst_executed_op_tma_ld.sum"] > 0 and r["smsp__inst_executed_op_tma_st.sum"] > 0


@pytest.mark.parametrize("target", TARGETS)
def test_fused_attention(target):
    c = tk.attention_case()
    r = run_case(c, target)
    seq, d = c["args"][4], c["constexprs"]["D"]
    programs = seq // c["constexprs"]["BM"]
    # each program reads its Q block once (plain 16-byte loads) and all of K and V (seq x d fp16 each,
    # through cp.async: Triton pipelines the loop's loads), and writes its O block once
    q_sectors = seq * d * 2 // 32
    kv_sectors = programs * 2 * seq * d * 2 // 32
    assert r[LDGSTS] == kv_sectors
    assert r[LD] == q_sectors + r[LDGSTS]  # warpmem counts cp.async's global reads under op_ld too
    assert r[ST] == seq * d * 2 // 32


def test_matmul_of_a_transposed_view():
    """B as a transposed view: the kernel gets its strides (as Triton's users pass b.stride()), and
    the pointer into the view's span; the result is a @ b."""
    m = n = k = 128
    rng = np.random.default_rng(8)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    b = bt.T                                                        # (k, n), strides (2, 2 k)
    c = np.zeros((m, n), np.float16)
    wt.run(tk.matmul, (4,), a, b, c, m, n, k, a.strides[0] // 2, a.strides[1] // 2, b.strides[0] // 2,
           b.strides[1] // 2, c.strides[0] // 2, c.strides[1] // 2, BM=64, BN=64, BK=32, GROUP=8)
    np.testing.assert_allclose(c.astype(np.float32), a.astype(np.float32) @ b.astype(np.float32), atol=1e-2,
                               rtol=2 ** -10)


def test_a_view_off_16_bytes_is_not_marked_aligned():
    """x[1:] starts 4 bytes into its buffer: Triton must not assume 16-byte alignment (as on a GPU,
    where data_ptr() % 16 decides), so its loads are scalar and nothing faults."""
    n = 4096
    x = np.arange(n + 1, dtype=np.float32)
    y, out = np.ones(n, np.float32), np.zeros(n, np.float32)
    r = wt.run(tk.vector_add, (n // 1024,), x[1:], y, out, n, BLOCK=1024)
    np.testing.assert_array_equal(out, x[1:] + 1)
    # y's loads stay 16-byte vectors (a warp request covers 128 floats), x's are 4-byte ones (a lane's
    # 4 floats are 4 requests): n / 128 + n / 32 requests, where two aligned arrays take 2 n / 128
    assert r["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == n // 128 + n // 32

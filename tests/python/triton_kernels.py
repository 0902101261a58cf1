"""The Triton tutorials' kernels, written for warpmem's tests in the tutorials' style:
vector add (01), fused softmax (02), matrix multiplication (03), layer norm's
forward pass (05), one head of fused attention's (06).  Each comes with a NumPy reference and the
tolerance its tutorial checks with.  tests/python/test_triton.py runs them
from Python; groundtruth/triton/make_ptx.py commits their PTX for the H200.
"""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def vector_add(a_ptr, b_ptr, c_ptr, count, BLOCK: tl.constexpr):
    # each program adds one BLOCK-wide slice; the mask guards the tail
    start = tl.program_id(axis=0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    keep = idx < count
    a = tl.load(a_ptr + idx, mask=keep)
    b = tl.load(b_ptr + idx, mask=keep)
    tl.store(c_ptr + idx, a + b, mask=keep)


@triton.jit
def fused_softmax(out_ptr, in_ptr, in_stride, out_stride, rows, cols, BLOCK: tl.constexpr):
    # one row a program: read it once, exponentiate and normalize in registers, write it once
    r = tl.program_id(0)
    if r < rows:
        col = tl.arange(0, BLOCK)
        row = tl.load(in_ptr + r * in_stride + col, mask=col < cols, other=-float("inf"))
        shifted = row - tl.max(row, axis=0)
        e = tl.exp(shifted)
        tl.store(out_ptr + r * out_stride + col, e / tl.sum(e, axis=0), mask=col < cols)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # programs walk the output tiles in groups of GROUP rows of tiles, so neighbours share A's and B's tiles in L2
    pid = tl.program_id(0)
    tiles_m, tiles_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    first_m = (pid // per_group) * GROUP
    group_rows = min(tiles_m - first_m, GROUP)
    tm = first_m + (pid % per_group) % group_rows
    tn = (pid % per_group) // group_rows
    rm = (tm * BM + tl.arange(0, BM)) % M
    rn = (tn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_at = a_ptr + rm[:, None] * s_am + rk[None, :] * s_ak
    b_at = b_ptr + rk[:, None] * s_bk + rn[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        a = tl.load(a_at, mask=rk[None, :] < left, other=0.0)
        b = tl.load(b_at, mask=rk[:, None] < left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_at += BK * s_ak
        b_at += BK * s_bk
    cm = tm * BM + tl.arange(0, BM)
    cn = tn * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * s_cm + cn[None, :] * s_cn, acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def layer_norm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, cols, eps, BLOCK: tl.constexpr):
    # one row a program, in BLOCK-wide steps: the mean, then the variance, then the normalized row
    r = tl.program_id(0)
    x_ptr += r * stride
    y_ptr += r * stride
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for at in range(0, cols, BLOCK):
        c = at + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + c, mask=c < cols, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / cols
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for at in range(0, cols, BLOCK):
        c = at + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + c, mask=c < cols, other=0.0).to(tl.float32)
        v = tl.where(c < cols, v - mean, 0.0)
        sq += v * v
    rstd = 1 / tl.sqrt(tl.sum(sq, axis=0) / cols + eps)
    tl.store(mean_ptr + r, mean)
    tl.store(rstd_ptr + r, rstd)
    for at in range(0, cols, BLOCK):
        c = at + tl.arange(0, BLOCK)
        keep = c < cols
        w = tl.load(w_ptr + c, mask=keep)
        bias = tl.load(b_ptr + c, mask=keep)
        v = tl.load(x_ptr + c, mask=keep, other=0.0).to(tl.float32)
        tl.store(y_ptr + c, (v - mean) * rstd * w + bias, mask=keep)


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # a BM-row block of queries against every BN-row block of keys and values, with the running
    # maximum and sum of the online softmax, so the seq x seq scores never leave the registers
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :])
    run_max = tl.full([BM], -float("inf"), tl.float32)
    run_sum = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, seq, BN):
        cols = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + cols[None, :] * D + dims[:, None])
        s = tl.dot(q, kt) * (scale * 1.4426950408889634)  # in base 2: exp2 is the fast one
        new_max = tl.maximum(run_max, tl.max(s, 1))
        p = tl.exp2(s - new_max[:, None])
        shrink = tl.exp2(run_max - new_max)
        run_sum = run_sum * shrink + tl.sum(p, 1)
        v = tl.load(v_ptr + cols[:, None] * D + dims[None, :])
        acc = acc * shrink[:, None] + tl.dot(p.to(tl.float16), v)
        run_max = new_max
    tl.store(o_ptr + rows[:, None] * D + dims[None, :], (acc / run_sum[:, None]).to(tl.float16))


# ---- the launches: arguments, grid, options, the reference and its tolerance ----

def vector_add_case(n=98432, block=1024):
    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.zeros_like(a)
    return dict(fn=vector_add, grid=(triton.cdiv(n, block),), args=(a, b, c, n), constexprs=dict(BLOCK=block),
                num_warps=4, out=c, ref=a + b, atol=0.0, rtol=0.0)


def softmax_case(rows=64, cols=781):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    y = np.zeros_like(x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return dict(fn=fused_softmax, grid=(rows,), args=(y, x, x.strides[0] // 4, y.strides[0] // 4, rows, cols),
                constexprs=dict(BLOCK=triton.next_power_of_2(cols)), num_warps=8, out=y,
                ref=e / e.sum(axis=1, keepdims=True), atol=1e-6, rtol=1e-5)


def matmul_case(m=256, n=256, k=128, bm=64, bn=64, bk=32):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    args = (a, b, c, m, n, k, a.strides[0] // 2, a.strides[1] // 2, b.strides[0] // 2, b.strides[1] // 2,
            c.strides[0] // 2, c.strides[1] // 2)
    ref = (a.astype(np.float32) @ b.astype(np.float32))
    # fp16 output of an fp32 accumulation: the tutorial's atol 1e-2, and fp16's own rounding (2^-10)
    return dict(fn=matmul, grid=grid, args=args, constexprs=dict(BM=bm, BN=bn, BK=bk, GROUP=8), num_warps=4,
                num_stages=3, out=c, ref=ref, atol=1e-2, rtol=2 ** -10)


def layer_norm_case(rows=32, cols=1152, block=512):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    w, bias = rng.random(cols, dtype=np.float32), rng.random(cols, dtype=np.float32)
    y, mean, rstd = np.zeros_like(x), np.zeros(rows, np.float32), np.zeros(rows, np.float32)
    eps = 1e-5
    mu = x.mean(axis=1, keepdims=True)
    ref = (x - mu) / np.sqrt(x.var(axis=1, keepdims=True) + eps) * w + bias
    return dict(fn=layer_norm_fwd, grid=(rows,), args=(x, y, w, bias, mean, rstd, x.strides[0] // 4, cols, eps),
                constexprs=dict(BLOCK=block), num_warps=8, out=y, ref=ref, atol=1e-5, rtol=1e-5)


def attention_case(seq=256, d=64, bm=64, bn=64):
    rng = np.random.default_rng(6)
    q, k, v = (rng.standard_normal((seq, d)).astype(np.float16) for _ in range(3))
    o = np.zeros((seq, d), np.float16)
    scale = 1 / np.sqrt(d)
    s = q.astype(np.float32) @ k.astype(np.float32).T * scale
    p = np.exp(s - s.max(axis=1, keepdims=True))
    ref = p / p.sum(axis=1, keepdims=True) @ v.astype(np.float32)
    # fp16 probabilities into the second dot and an fp16 output: the tutorial checks atol 1e-2
    return dict(fn=attention_fwd, grid=(seq // bm,), args=(q, k, v, o, seq, float(scale)),
                constexprs=dict(D=d, BM=bm, BN=bn), num_warps=4, out=o, ref=ref, atol=1e-2, rtol=0.0)


CASES = {"vector_add": vector_add_case, "softmax": softmax_case, "matmul": matmul_case,
         "layer_norm": layer_norm_case,
         "attention": attention_case}

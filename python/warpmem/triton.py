"""warpmem.triton: a @triton.jit kernel compiled for a chosen GPU without one, run in warpmem.

    r = warpmem.triton.run(add_kernel, (n // 1024,), x, y, out, n, BLOCK=1024, num_warps=4)

compiles as Triton's launcher would (triton.compile on an ASTSource for
GPUTarget("cuda", 90, 32): the arguments specialized by Triton's own rule,
pointers to 16-byte aligned buffers and integers divisible by 16 marked
so, integers equal to 1 made constants), then runs the PTX with the arrays
through warpmem.sim: the block is 32 * num_warps threads, the dynamic
shared memory Triton's metadata.shared, and the hidden trailing pointers
of recent versions (global scratch, profile scratch) get buffers of the
sizes the metadata asks per program, or null.  Source lines are the
Triton source's (the PTX's .loc lines).
"""
import inspect

from .core import ArgumentError, sim

# The PTX ISA written: at most 9.0, CUDA 13.0's (its ptxas gives the
# registers for the occupancy; the H200's driver 580 reads no later), where
# Triton 3.9 would write what its own ptxas reads (9.4 for sm_90, 8.8 for
# sm_80: it runs an older ptxas below sm_90).
MAX_PTX_VERSION = 90


def _ptx_version(cc):
    from triton.backends.nvidia.compiler import get_ptxas, ptx_get_version
    return min(MAX_PTX_VERSION, ptx_get_version(get_ptxas(cc).version))
ARCH_OF_TARGET = {80: "ampere", 90: "h200"}


class _Ptr:
    """What Triton's specialization asks of a tensor: its data_ptr and dtype.  Device buffers are
    page-aligned in warpmem as cudaMalloc's are; a view's pointer lies as far into its buffer as its
    first element into the span it is passed as (warpmem.core), so its alignment is the GPU's."""

    def __init__(self, value):
        self.dtype = _dtype_name(value)
        self.offset = _offset_in_span(value)

    def data_ptr(self):
        return 4096 + self.offset


def _offset_in_span(value):
    import numpy as np
    from .core import span_of
    lo, _, start = span_of(value.detach().numpy() if hasattr(value, "detach") else np.asarray(value))
    return start - lo


def _dtype_name(a):
    d = getattr(a, "dtype")
    return str(d).replace("torch.", "")


def _is_tensor(a):
    return hasattr(a, "__array_interface__") or (hasattr(a, "data_ptr") and hasattr(a, "dtype"))


def _target(target):
    s = str(target)
    cc = int(s[3:].rstrip("a")) if s.startswith("sm_") else int(s)
    return cc


class Compiled:
    """A Triton kernel compiled for one target: its PTX, entry name, metadata and runtime arguments."""

    def __init__(self, kernel, args, constexprs, num_warps, cc):
        self.kernel, self.args, self.constexprs, self.num_warps, self.cc = kernel, args, constexprs, num_warps, cc
        self.ptx = kernel.asm["ptx"]
        self.metadata = kernel.metadata
        self.name = kernel.metadata.name
        self.shared = kernel.metadata.shared

    def launch_args(self, grid):
        """The runtime arguments and the hidden trailing scratch pointers (buffers or None)."""
        import numpy as np
        programs = grid[0] * grid[1] * grid[2] * getattr(self.metadata, "num_ctas", 1)
        out = list(self.args)
        for attr in ("global_scratch_size", "profile_scratch_size"):
            if hasattr(self.metadata, attr):
                size = getattr(self.metadata, attr)
                out.append(np.zeros(size * programs, np.uint8) if size else None)
        return out


def compile(fn, *args, num_warps=None, num_stages=None, config=None, target="sm_90", ptx_version=None,
            **constexprs):
    """Compiles fn for target with these arguments (arrays, numbers) and constexprs; returns a Compiled."""
    fn, constexprs, num_warps, num_stages = _resolve(fn, args, constexprs, num_warps, num_stages, config)
    import triton
    from triton.backends.compiler import BaseBackend, GPUTarget
    from triton.compiler import ASTSource
    from triton.runtime.jit import native_specialize_impl

    params = list(inspect.signature(fn.fn).parameters)
    try:
        bound = inspect.signature(fn.fn).bind(*args, **constexprs)
    except TypeError as e:
        raise ArgumentError(f"{fn.fn.__name__}: {e}", "args") from None
    signature, consts, attrs, runtime = {}, {}, {}, []
    for i, p in enumerate(fn.params):
        name = params[i]
        if name not in bound.arguments:
            if p.default is inspect.Parameter.empty and not p.is_constexpr:
                raise ArgumentError(f"{fn.fn.__name__}: no value for parameter {name}", "args")
            value = p.default
        else:
            value = bound.arguments[name]
        if p.is_constexpr:
            signature[name], consts[(i,)] = "constexpr", value
            continue
        probe = _Ptr(value) if _is_tensor(value) else value
        ty, attr = native_specialize_impl(BaseBackend, probe, p.is_const, not p.do_not_specialize,
                                          not p.do_not_specialize_on_alignment)
        signature[name] = ty
        if ty == "constexpr":  # an integer 1: a constant of the kernel, as Triton's launcher makes it
            consts[(i,)] = value
            continue
        if attr:
            attrs[(i,)] = BaseBackend.parse_attr(attr)
        runtime.append(value)
    cc = _target(target)
    options = {"num_warps": num_warps, "num_stages": num_stages, "ptx_version": ptx_version or _ptx_version(cc)}
    kernel = triton.compile(ASTSource(fn, signature, consts, attrs), target=GPUTarget("cuda", cc, 32),
                            options=options)
    return Compiled(kernel, runtime, constexprs, num_warps, cc)


def _resolve(fn, args, constexprs, num_warps, num_stages, config):
    """The @triton.jit function under @triton.autotune and @triton.heuristics, with what they add: the
    autotuner's config (`config`, else its first: warpmem times no alternatives) and the heuristics'
    values, computed from the arguments by name as Triton computes them."""
    constexprs = dict(constexprs)
    while hasattr(fn, "fn") and not hasattr(fn, "params"):
        if hasattr(fn, "configs"):  # an Autotuner
            cfg = config or fn.configs[0]
            constexprs.update(cfg.kwargs)
            num_warps = num_warps if num_warps is not None else cfg.num_warps
            num_stages = num_stages if num_stages is not None else cfg.num_stages
        elif hasattr(fn, "values"):  # Heuristics
            named = {**dict(zip(fn.arg_names, args)), **constexprs}
            for name, h in fn.values.items():
                constexprs[name] = h(named)
        fn = fn.fn
    return fn, constexprs, 4 if num_warps is None else num_warps, 3 if num_stages is None else num_stages


def run(fn, grid, *args, num_warps=None, num_stages=None, config=None, target="sm_90", arch=None, lines=True,
        html=False, ptx_version=None, **constexprs):
    """Compiles fn for target and runs it on grid (a tuple, or a function of the arguments by name, as
    Triton's grid lambdas are); returns the Report, with .compiled (PTX, metadata) beside it.  fn may be
    autotuned (config: which triton.Config; default its first) and carry heuristics."""
    jit, constexprs, num_warps, num_stages = _resolve(fn, args, constexprs, num_warps, num_stages, config)
    c = compile(jit, *args, num_warps=num_warps, num_stages=num_stages, target=target, ptx_version=ptx_version,
                **constexprs)
    meta = {**dict(zip(inspect.signature(jit.fn).parameters, args)), **constexprs}
    g = grid(meta) if callable(grid) else grid
    g = (g,) if isinstance(g, int) else tuple(g)
    g = tuple(g) + (1,) * (3 - len(g))
    arch = arch or ARCH_OF_TARGET.get(c.cc, "h200")
    rep = sim(c.ptx, c.name, grid=g, block=32 * num_warps, args=c.launch_args(g), arch=arch, lines=lines,
              smem=c.shared, html=html, name=f"{c.name}.ptx", label=c.name)
    rep.compiled = c
    return rep


class _Launch:
    def __init__(self, fn, options):
        self.fn, self.options = fn, options

    def __getitem__(self, grid):
        return lambda *args, **kw: run(self.fn, grid, *args, **{**self.options, **kw})


def kernel(fn, **options):
    """warpmem.triton.kernel(k)[grid](*args, BLOCK=...): Triton's launch syntax, returning the Report."""
    return _Launch(fn, options)

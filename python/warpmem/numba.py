"""warpmem.numba: a numba.cuda kernel compiled with compile_ptx (no GPU) and run in warpmem.

    r = warpmem.numba.run(kernel, 256, 128, x, y, n)    # grid, block, arguments

types the arguments as numba's dispatcher does (numba.cuda's typeof:
arrays by dtype, dimensions and layout, Python ints int64, floats
float64), compiles with numba.cuda.compile_ptx for the target (lineinfo:
the source lines are the Python kernel's), and passes each array as
numba's kernels take it, its data model's fields flattened: meminfo and
parent (null), nitems, itemsize, the data pointer (the array, copied in
and back), then the shape and the strides in bytes, one a dimension.
"""
from .core import ArgumentError, kernels, sim

ARCH_OF_TARGET = {80: "ampere", 90: "h200"}


def _expand(a):
    """The parameters of one argument under numba's calling convention."""
    import numpy as np
    if isinstance(a, np.generic):  # a NumPy scalar (it has an __array_interface__ too)
        return [a]
    if hasattr(a, "__array_interface__") or (hasattr(a, "numpy") and hasattr(a, "device")):
        arr = a.detach().numpy() if hasattr(a, "detach") else np.asarray(a)
        return [None, None, int(arr.size), int(arr.itemsize), a] + [int(s) for s in arr.shape] + \
            [int(s) for s in arr.strides]
    return [a]


def _name(fn):
    return getattr(getattr(fn, "py_func", fn), "__name__", "numba")


def compile(fn, *args, target="sm_90", lineinfo=True, fastmath=False):
    """(ptx, entry name, numba's signature) of fn for these arguments."""
    from numba import cuda
    from numba.cuda.typing.typeof import Purpose, typeof

    py = getattr(fn, "py_func", fn)  # a @cuda.jit dispatcher or the plain function
    try:
        sig = tuple(typeof(a, Purpose.argument) for a in args)
    except ValueError as e:
        raise ArgumentError(f"{py.__name__}: an argument numba cannot type: {e}", "args") from None
    cc = int(str(target)[3:].rstrip("a")) if str(target).startswith("sm_") else int(target)
    ptx, _ = cuda.compile_ptx(py, sig, cc=(cc // 10, cc % 10), lineinfo=lineinfo, fastmath=fastmath)
    ks = kernels(ptx)
    return ptx, ks[0]["name"], sig, cc


def run(fn, grid, block, *args, target="sm_90", arch=None, lines=True, html=False, smem=0, lineinfo=True,
        fastmath=False):
    """Compiles fn for these arguments and runs it on grid x block; returns the Report (arrays written
    back), with .ptx and .signature beside it."""
    ptx, name, sig, cc = compile(fn, *args, target=target, lineinfo=lineinfo, fastmath=fastmath)
    flat = [p for a in args for p in _expand(a)]
    rep = sim(ptx, name, grid=grid, block=block, args=flat, arch=arch or ARCH_OF_TARGET.get(cc, "h200"),
              lines=lines, smem=smem, html=html, name=f"{_name(fn)}.ptx", label=_name(fn))
    rep.ptx, rep.signature = ptx, sig
    return rep


class _Launch:
    """kernel[grid, block] as numba writes a launch (kernel[grid, block, stream, smem] too)."""

    def __init__(self, fn, **options):
        self.fn, self.options = fn, options

    def __getitem__(self, config):
        grid, block = config[0], config[1]
        smem = config[3] if len(config) > 3 else 0
        return lambda *args: run(self.fn, grid, block, *args, smem=smem, **self.options)


def kernel(fn, **options):
    """warpmem.numba.kernel(k)[grid, block](*args): numba's launch syntax, returning the Report."""
    return _Launch(fn, **options)

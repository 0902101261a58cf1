"""warpmem.sim: one launch of a .cu, .ptx or PTX text with NumPy arrays.

Each argument becomes an entry of the C API's request (src/api/wm_api.h):
an array is its host address and size (copied into a device buffer and
back), a number goes as it is and takes its .param's type in the library.
"""
import os
import re

from . import _lib
from .report import Report

# NumPy dtypes by the element type warpmem's buffer specs name (messages, --dump)
_ELEM = {"float16": "f16", "float32": "f32", "float64": "f64", "int8": "i8", "uint8": "u8", "int16": "i16",
         "uint16": "u16", "int32": "i32", "uint32": "u32", "int64": "i64", "uint64": "u64", "bool": "u8"}


class SimError(Exception):
    """A launch warpmem could not run, or that failed, with its located message.

    code: usage io parse unsupported args limit fault arith deadlock tool gpu
    nogpu watchdog; status: failed, refused or error (wm_api.h).  kernel,
    where (SOURCE:LINE), ptx (PTX FILE:LINE), block, thread and address are
    read from the message where it names them, else None.
    """

    def __init__(self, message, code="error", status="error"):
        super().__init__(message)
        self.message, self.code, self.status = message, code, status
        m = re.search(r"kernel (\S+?), (\S+?:\d+), PTX (\S+?:\d+)", message)
        self.kernel, self.where, self.ptx = (m.group(1), m.group(2), m.group(3)) if m else (None, None, None)
        m = re.search(r"block \(([\d,]+)\), thread \(([\d,]+)\)", message)
        self.block, self.thread = ((tuple(int(x) for x in m.group(1).split(",")),
                                    tuple(int(x) for x in m.group(2).split(","))) if m else (None, None))
        m = re.search(r" at (0x[0-9a-f]+)", message)
        self.address = int(m.group(1), 16) if m else None


class ArgumentError(SimError, TypeError):
    """Arguments that do not match the kernel's parameters (count, type, range)."""


def raise_for(result):
    if result.get("ok"):
        return
    cls = ArgumentError if result.get("code") == "args" else SimError
    raise cls(result.get("error", "unknown error"), result.get("code", "error"), result.get("status", "error"))


def source_keys(source, name=None):
    """The request's keys for source: a .cu or .ptx path, or PTX text."""
    text = os.fspath(source) if isinstance(source, os.PathLike) else source
    if not isinstance(text, str):
        raise ArgumentError(f"source must be a path or PTX text, not {type(source).__name__}", "usage")
    if ".entry" in text or text.lstrip().startswith((".version", "//")):
        return {"ptx": text, "name": name or "<ptx>"}
    return {"source": text}


def _dims(d, what):
    d = (d,) if isinstance(d, int) else tuple(d)
    if not 1 <= len(d) <= 3 or not all(isinstance(x, int) for x in d):
        raise ArgumentError(f"{what} must be an int or 1 to 3 ints, not {d!r}", "usage")
    return list(d)


def span_of(a):
    """(lo, hi, start): the bytes of the allocation a view lies in (the array that owns the memory,
    as a GPU allocation holds a tensor's views) and the address of its first element."""
    try:
        from numpy.lib.array_utils import byte_bounds  # NumPy 2
    except ImportError:
        from numpy import byte_bounds
    import numpy as np
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    start = a.__array_interface__["data"][0]
    if not a.size:
        return start, start, start
    lo, hi = byte_bounds(root)
    vlo, vhi = byte_bounds(a)
    return min(lo, vlo), max(hi, vhi), start


class _Buffers:
    """The arrays of one launch, kept alive while it runs.  A view (a slice, a transpose, negative
    strides) goes as the memory of the array it is a view of, and the kernel's pointer as its first
    element inside it, as a GPU pointer into the tensor's allocation would: the kernel indexes it with
    the view's own strides (Triton's stride arguments, numba's strides fields), and its alignment is
    the allocation's (Triton marks only 16-byte aligned pointers)."""

    def __init__(self):
        self.kept = []

    def entry(self, a):
        if hasattr(a, "numpy") and hasattr(a, "device"):  # a torch tensor on the CPU
            if a.device.type != "cpu":
                raise ArgumentError(f"a tensor on {a.device} (warpmem runs on the CPU: pass .cpu())", "args")
            a = a.detach().numpy()
        import numpy as np
        a = np.asarray(a)
        self.kept.append(a)
        lo, hi, start = span_of(a)
        return {"ptr": lo, "bytes": int(hi - lo), "offset": int(start - lo),
                "type": _ELEM.get(a.dtype.name, "u8"), "out": bool(a.flags.writeable)}


def _arg(a, bufs):
    """One argument of the request."""
    if a is None:
        return {"value": 0}  # a null pointer
    if isinstance(a, bool):
        return {"value": a}
    if isinstance(a, int):
        return {"value": a if -2**63 <= a < 2**63 else str(a)}
    if isinstance(a, float):
        return {"value": a}
    if isinstance(a, (bytes, bytearray)):
        return {"hex": bytes(a).hex()}  # an aggregate by value
    try:
        import numpy as np
    except ImportError:
        np = None
    if np is not None and isinstance(a, np.generic):  # a NumPy scalar: typed by its dtype
        t = _ELEM.get(a.dtype.name)
        if t is None or a.dtype.name == "bool":
            raise ArgumentError(f"a NumPy scalar of dtype {a.dtype} is no kernel argument", "args")
        return {"value": a.item() if a.dtype.kind in "iu" else float(a), "type": t}
    if hasattr(a, "__array_interface__") or (hasattr(a, "numpy") and hasattr(a, "device")):
        return bufs.entry(a)
    raise ArgumentError(f"an argument of type {type(a).__name__}: give arrays, numbers, None or bytes", "args")


def sim(source, kernel=None, grid=1, block=1, args=(), arch="h200", lines=True, smem=0, html=False,
        name=None, **options):
    """Runs one launch; returns its Report (outputs written into the arrays).

    source: a .cu or .ptx path, or PTX text (name: its name in messages);
    kernel: PTX or plain C++ name (None: the module's only kernel);
    args: one per parameter: NumPy arrays (or CPU torch tensors), numbers
    (typed from the parameter), None (a null pointer), bytes (a struct);
    options: the request's other keys (cluster, cooperative, loads, caches,
    regs, nvcc_flags, max_instructions, timeout, title, label).
    Raises SimError (ArgumentError for arguments) with warpmem's message.
    """
    req = source_keys(source, name)
    req.update(kernel=kernel, grid=_dims(grid, "grid"), block=_dims(block, "block"), smem=int(smem), arch=arch,
               lines="source" if lines else False, html=bool(html))
    if kernel is None:
        del req["kernel"]
    req.update(options)
    bufs = _Buffers()
    req["args"] = [_arg(a, bufs) for a in args]
    result = _lib.call("sim", req)
    raise_for(result)  # the library has copied the buffers back into the arrays' memory
    return Report(result["report"][0], result.get("html"))


def kernels(source, name=None, nvcc_flags=()):
    """The kernels of a source: [{name, plain_name, params: [{name, type, size, align}], unsupported}]."""
    req = source_keys(source, name)
    if nvcc_flags:
        req["nvcc_flags"] = list(nvcc_flags)
    result = _lib.call("kernels", req)
    raise_for(result)
    return result["kernels"]

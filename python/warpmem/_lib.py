"""The C library, libwarpmem_api.so (src/api/wm_api.h), loaded with ctypes.

Found as $WARPMEM_LIB, else beside this file (where `pip install ./python`
puts the one it built).  Every call is one JSON request and one JSON
result; nothing of the model lives on this side.
"""
import ctypes
import json
import os
import threading

_lib = None
# one launch at a time: the library runs each on all the host's cores
# (WARPMEM_THREADS) and keeps process-wide state (its buffer pool)
_lock = threading.Lock()


def library_path():
    env = os.environ.get("WARPMEM_LIB")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libwarpmem_api.so")


def _load():
    global _lib
    if _lib is None:
        path = library_path()
        if not os.path.exists(path):
            raise ImportError(f"warpmem: no C library at {path} (pip install ./python builds it; "
                              "or set WARPMEM_LIB to a build's libwarpmem_api.so)")
        lib = ctypes.CDLL(path)
        for name in ("wm_api_sim", "wm_api_kernels"):
            fn = getattr(lib, name)
            fn.restype = ctypes.c_void_p  # a malloc'd string: freed by wm_api_free
            fn.argtypes = [ctypes.c_char_p]
        lib.wm_api_free.argtypes = [ctypes.c_void_p]
        lib.wm_api_version.restype = ctypes.c_char_p
        _lib = lib
    return _lib


def call(name, request):
    """Sends request (a dict) to wm_api_NAME; returns the result dict."""
    lib = _load()
    with _lock:
        ptr = getattr(lib, "wm_api_" + name)(json.dumps(request).encode())
    try:
        return json.loads(ctypes.string_at(ptr).decode("utf-8", "replace"))
    finally:
        lib.wm_api_free(ptr)


def version():
    return _load().wm_api_version().decode()

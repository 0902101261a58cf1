#!/usr/bin/env python3
"""make_ptx.py - the Triton tutorials' kernels (tests/python/triton_kernels.py) compiled for sm_90
and sm_80 by warpmem.triton.compile, committed as .ptx files with their //@ launch lines, so that
`warpmem sim FILE.ptx` and `warpmem gpu run FILE.ptx` (tools/gpu/triton_runs.sh) run them on a
machine without Triton.

    PYTHONPATH=python WARPMEM_LIB=build/libwarpmem_api.so .venv/bin/python groundtruth/triton/make_ptx.py

Each launch is the test's (small) and a larger one; launches whose PTX is the same (Triton
specializes on BLOCK and on which integers are divisible by 16) share a file.  Buffers are
rand-filled inputs and zeroed outputs; the hidden scratch pointers are null (Triton 3.9 asks for
no scratch for these kernels: asserted).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(REPO, "tests", "python"), os.path.join(REPO, "python")]
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import numpy as np  # noqa: E402
import triton  # noqa: E402
import triton_kernels as tk  # noqa: E402

import warpmem  # noqa: E402
import warpmem.triton as wt  # noqa: E402

SIZES = {  # case: (keyword arguments of its *_case function) for the test's launch and a larger one
    "vector_add": [dict(), dict(n=1 << 24)],
    "softmax": [dict(), dict(rows=4096, cols=781)],
    "matmul": [dict(), dict(m=1024, n=1024, k=1024, bm=128, bn=128, bk=64)],
    "layer_norm": [dict(), dict(rows=1024, cols=4096, block=4096)],
    "attention": [dict(), dict(seq=4096)],
}
ELEM = {"float32": "f32", "float16": "f16", "float64": "f64", "int32": "i32"}
SCALAR = {"f32": "f32", "f64": "f64", "u32": "i32", "s32": "i32", "b32": "i32", "u64": "i64", "s64": "i64",
          "b64": "i64"}


def arg_spec(value, param, is_out):
    if isinstance(value, np.ndarray):
        return f"buf:{ELEM[value.dtype.name]}:{value.size}" + (":zero" if is_out else "")
    if value is None:
        return "u64:0"
    t = SCALAR[param["type"]]
    return f"{t}:{value!r}" if t.startswith("f") else f"{t}:{int(value)}"


def launch_line(case, label, comp, c):
    params = warpmem.kernels(comp.ptx)[0]["params"]
    grid = tuple(c["grid"]) + (1,) * (3 - len(c["grid"]))
    values = comp.launch_args(grid)
    assert all(v is None for v in values[len(comp.args):]), "a kernel that asks for scratch"
    outs = {id(c["out"])} | {id(x) for x in c.get("also_out", ())}
    specs = [arg_spec(v, p, id(v) in outs) for v, p in zip(values, params)]
    smem = f" smem={comp.shared}" if comp.shared else ""
    return (f"//@ {comp.name}#{label} grid={','.join(map(str, grid))} block={32 * comp.num_warps}{smem} "
            f"args={','.join(specs)}")


def main():
    files = {}
    for target in ("sm_90", "sm_80"):
        for case, sizes in SIZES.items():
            for kw in sizes:
                c = tk.CASES[case](**kw)
                if case == "layer_norm":
                    c["also_out"] = c["args"][4:6]  # mean and rstd
                comp = wt.compile(c["fn"], *c["args"], num_warps=c["num_warps"], num_stages=c.get("num_stages", 3),
                                  target=target, **c["constexprs"])
                label = "_".join(f"{k}{v}" for k, v in kw.items()) or "test"
                label = f"{target}_{label}"
                entry = files.setdefault((target, comp.ptx), {"case": case, "lines": []})
                entry["lines"].append(launch_line(case, label, comp, c))
    written = {}
    for (target, ptx), entry in files.items():
        base = f"{entry['case']}_{target.replace('_', '')}"
        written[base] = written.get(base, 0) + 1
        name = base if written[base] == 1 else f"{base}_{written[base]}"
        path = os.path.join(HERE, name + ".ptx")
        head = [f"// warpmem: the Triton tutorials' {entry['case']} (tests/python/triton_kernels.py) for {target},",
                f"// Triton {triton.__version__}, by groundtruth/triton/make_ptx.py (warpmem.triton.compile);",
                "// its launches:"] + entry["lines"]
        # .file: the sources by name, not by this checkout's or this venv's path
        ptx = ptx.replace(os.path.join(REPO, "tests", "python") + os.sep, "")
        ptx = re.sub(r'"[^"]*/site-packages/triton/', '"triton/', ptx)  # any venv's (Triton's cache keeps the first)
        with open(path, "w") as f:
            f.write("\n".join(head) + "\n" + ptx)
        print(path, len(entry["lines"]), "launches")


if __name__ == "__main__":
    main()

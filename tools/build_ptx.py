#!/usr/bin/env python3
"""build_ptx.py - the committed PTX: regenerate it, or check that it is what
nvcc makes of its source today.

warpmem reads .ptx files, so the lab, the ground truth and the tests run
without nvcc.  Every committed .ptx is generated, with
    nvcc -ptx -arch=sm_90 -O3 -lineinfo X.cu      (run in X.cu's folder)
from one source:

    lab/X.cu                   -> lab/ptx/X.ptx           the catalogue (docs/lab.md)
    groundtruth/X_kernels.cu   -> groundtruth/ptx/X_kernels.ptx
                                  the PTX measured on the H200 (groundtruth/README.md)
    tests/data/X.cu            -> tests/data/X.ptx        test fixtures
    tests/corpus/X.cu          -> tests/corpus/ptx/X.ptx  real-code-style kernels,
                                  one per feature (tests/corpus/README.md)
    bench/X_kernels.cu         -> bench/ptx/X_kernels.ptx the benchmark's large launches
    tests/guard/X.cu           -> tests/guard/ptx/X.ptx   kernels that never end (the watchdog)

Usage (from anywhere):
    python3 tools/build_ptx.py             regenerate lab/ptx and tests/data
    python3 tools/build_ptx.py FILE.cu...  regenerate these (a groundtruth/
                                           kernel only this way: its PTX is
                                           what was measured)
    python3 tools/build_ptx.py --check     compare every committed PTX with
                                           nvcc's output (the check_ptx ctest);
                                           exit 1 on a difference, 77 (ctest:
                                           skipped) without nvcc or with an nvcc
                                           other than the one that made them

Two parts of nvcc's output depend on where the checkout is, not on the code,
and are not compared: the paths of `.file` directives (compared by file name)
and the module id cicc derives from the source's absolute path, which names
internal-linkage symbols (`_INTERNAL_1a2b3c4d_`, also spelled out byte by
byte in .debug_str).  So regenerating in another checkout rewrites only the
files whose code changed.
"""
import concurrent.futures
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NVCC_FLAGS = ["-ptx", "-arch=sm_90", "-O3", "-lineinfo"]
SKIP = 77  # ctest SKIP_RETURN_CODE

# (folder of the sources, which of them, folder of their PTX), repo-relative
SETS = [
    ("lab", lambda name: True, "lab/ptx"),
    ("groundtruth", lambda name: name.endswith("_kernels.cu"), "groundtruth/ptx"),
    ("tests/data", lambda name: True, "tests/data"),
    ("tests/corpus", lambda name: True, "tests/corpus/ptx"),
    ("tests/check", lambda name: True, "tests/check/ptx"),
    ("bench", lambda name: name.endswith("_kernels.cu"), "bench/ptx"),
    ("tests/guard", lambda name: True, "tests/guard/ptx"),
    ("src/rt/kernels", lambda name: name.endswith("_kernels.cu"), "src/rt/kernels/ptx"),
]


def sources():
    """(source .cu, its committed .ptx), repo-relative, for every set."""
    out = []
    for folder, wanted, ptxdir in SETS:
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            path = os.path.join(ROOT, folder, name)
            if name.endswith(".cu") and wanted(name) and not os.path.islink(path):
                out.append((f"{folder}/{name}", f"{ptxdir}/{name[:-3]}.ptx"))
    return out


def ptx_of(cu):
    """The committed .ptx of a repo-relative .cu (None if it has none)."""
    for src, ptx in sources():
        if src == cu:
            return ptx
    return None


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    for d in (os.path.join(os.environ.get("CUDA_HOME", ""), "bin") if os.environ.get("CUDA_HOME") else None,
              "/usr/local/cuda/bin"):
        if d and os.access(os.path.join(d, "nvcc"), os.X_OK):
            return os.path.join(d, "nvcc")
    return None


def version_line(text):
    """'Cuda compilation tools, release 13.0, V13.0.88' from nvcc --version or a PTX header."""
    m = re.search(r"Cuda compilation tools, release [^\n]*", text)
    return m.group(0).strip() if m else None


def file_flags(path):
    """A source's own nvcc flags: its `//! nvcc: FLAGS` lines (a project-style
    kernel's -I and -D, as its project's build passes them; an -arch of its
    own, such as -arch=sm_90a for wgmma, replaces the default), split at blanks."""
    flags = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("//! nvcc:"):
                flags += line[len("//! nvcc:"):].split()
    return flags


def compile_ptx(nvcc, cu, out):
    """nvcc on repo-relative cu, run in its folder as the committed PTX was made; PTX to out."""
    folder, name = os.path.split(os.path.join(ROOT, cu))
    flags = file_flags(os.path.join(folder, name))
    base = NVCC_FLAGS
    if any(f.startswith(("-arch", "--gpu-architecture", "-gencode")) for f in flags):
        base = [f for f in NVCC_FLAGS if not f.startswith("-arch")]  # the source names its own target (sm_90a)
    r = subprocess.run([nvcc] + base + flags + [name, "-o", out], cwd=folder, capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


MODULE_ID = re.compile(rb"(_INTERNAL_|_GLOBAL__N__|__nv_static_[0-9]+__)[0-9a-f]{8}_")
FILE_LINE = re.compile(r'^(\s*\.file\s+\d+\s+)"([^"]*)"(.*)$')
B8_LINE = re.compile(r"^\s*\.b8\s+[0-9][0-9,\s]*$")


LOC_LINE = re.compile(r"^(\s*\.loc\s+)(\d+)\s+\d+\s+\d+(.*)$")


def host_files(text):
    """The .file numbers of the host compiler's own headers (<cmath> and the
    like under /usr/include): their line numbers depend on the host's
    compiler, not on nvcc or the .cu."""
    host = set()
    for line in text.split("\n"):
        m = FILE_LINE.match(line)
        if m and m.group(2).startswith("/usr/include/"):
            host.add(m.group(1).split()[-1])
    return host


def normalise(text):
    """The PTX as lines, less what depends on the checkout's location or on
    the host compiler: .file paths cut to their file name, module ids
    blanked (also inside runs of .b8 byte lines, shown decoded), and the
    positions of .loc lines inside the host's own headers."""
    out, run = [], []
    host = host_files(text)

    def flush():
        if run:
            data = bytes(int(v) for line in run for v in line.split(None, 1)[1].split(",") if v.strip())
            out.append(".b8 " + repr(MODULE_ID.sub(rb"\1xxxxxxxx_", data)))
            run.clear()

    for line in text.split("\n"):
        if B8_LINE.match(line):
            run.append(line)
            continue
        flush()
        m = FILE_LINE.match(line)
        if m:
            line = f'{m.group(1)}"{os.path.basename(m.group(2))}"{m.group(3)}'
        m = LOC_LINE.match(line)
        if m and m.group(2) in host:
            line = f"{m.group(1)}{m.group(2)} (a host header's line){m.group(3)}"
        out.append(MODULE_ID.sub(rb"\1xxxxxxxx_", line.encode()).decode())
    flush()
    return out


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def build_all(nvcc, pairs, tmp):
    """Compiles each (cu, ptx) into tmp; returns {cu: (rc, stderr, path)}."""
    def one(pair):
        cu, ptx = pair
        out = os.path.join(tmp, ptx.replace("/", "__"))
        rc, err = compile_ptx(nvcc, cu, out)
        return cu, (rc, err, out)
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as ex:
        return dict(ex.map(one, pairs))


def check(nvcc):
    pairs = sources()
    missing = [ptx for _, ptx in pairs if not os.path.exists(os.path.join(ROOT, ptx))]
    headers = {version_line(read(os.path.join(ROOT, ptx))) for _, ptx in pairs if ptx not in missing}
    have = version_line(subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout)
    if headers != {have}:
        print(f"check_ptx: SKIPPED: {nvcc} is '{have}'; the committed PTX was made by "
              f"{', '.join(sorted(str(h) for h in headers))}: another nvcc makes other PTX, so it is not compared")
        return SKIP
    bad = 0
    for ptx in missing:
        cu = next(c for c, p in pairs if p == ptx)
        print(f"check_ptx: FAIL: {ptx} is missing: python3 tools/build_ptx.py {cu}, and commit it")
        bad += 1
    with tempfile.TemporaryDirectory(prefix="warpmem-ptx-") as tmp:
        built = build_all(nvcc, [p for p in pairs if p[1] not in missing], tmp)
        for cu, ptx in pairs:
            if ptx in missing:
                continue
            rc, err, out = built[cu]
            if rc:
                print(f"check_ptx: FAIL: nvcc cannot compile {cu}:\n{err}")
                bad += 1
                continue
            want, got = normalise(read(os.path.join(ROOT, ptx))), normalise(read(out))
            if want == got:
                print(f"check_ptx: ok   {ptx}")
                continue
            bad += 1
            how = (f"the kernels were measured as they are committed: restore {cu}, or re-measure "
                   f"and regenerate with python3 tools/build_ptx.py {cu} (groundtruth/README.md)"
                   if cu.startswith("groundtruth/") else
                   f"regenerate with python3 tools/build_ptx.py {cu} and commit {ptx}")
            print(f"check_ptx: FAIL: {ptx} is not what nvcc makes of {cu} today; {how}.  First differences:")
            diff = list(difflib.unified_diff(want, got, f"{ptx} (committed)", f"{ptx} (nvcc now)", n=1, lineterm=""))
            for line in diff[:24]:
                print("    " + line)
            if len(diff) > 24:
                print(f"    ... {len(diff) - 24} more diff lines")
    print(f"check_ptx: {len(pairs) - bad} of {len(pairs)} committed PTX files are what {have.split(', ')[-1]} makes"
          + ("" if bad == 0 else f"; {bad} {'is' if bad == 1 else 'are'} not"))
    return 1 if bad else 0


def build(nvcc, names):
    if names:
        pairs = []
        for n in names:
            cu = os.path.relpath(os.path.abspath(n), ROOT)
            ptx = ptx_of(cu)
            if ptx is None:
                print(f"build_ptx: {n}: not a source of committed PTX (lab/, groundtruth/*_kernels.cu, tests/data/)")
                return 2
            pairs.append((cu, ptx))
    else:
        pairs = [p for p in sources() if not p[0].startswith("groundtruth/")]
    status = 0
    with tempfile.TemporaryDirectory(prefix="warpmem-ptx-") as tmp:
        built = build_all(nvcc, pairs, tmp)
        for cu, ptx in pairs:
            rc, err, out = built[cu]
            dest = os.path.join(ROOT, ptx)
            if rc:
                print(f"build_ptx: nvcc cannot compile {cu}:\n{err}")
                status = 1
            elif os.path.exists(dest) and normalise(read(dest)) == normalise(read(out)):
                print(f"unchanged {ptx}")
            else:
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copyfile(out, dest)
                print(f"wrote     {ptx}")
    return status


def main(argv):
    args = argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    nvcc = find_nvcc()
    if not nvcc:
        print("check_ptx: SKIPPED: no nvcc (not on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin): "
              "the committed PTX is not checked" if args[:1] == ["--check"] else
              "build_ptx: no nvcc (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): install the CUDA toolkit")
        return SKIP if args[:1] == ["--check"] else 1
    if args[:1] == ["--check"]:
        return check(nvcc)
    return build(nvcc, args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""census.py - which kernels of real-code-style CUDA warpmem still refuses.

Compiles every tests/census/*.cu with nvcc for sm_80 and sm_90 (a file whose
first lines say `// census-arch: sm_90` only for the targets named there),
in a temporary folder, with the flags `warpmem sim` uses:
    nvcc -ptx -arch=sm_XX -O3 -lineinfo FILE.cu
then runs `warpmem isa --scan --format json` on the PTX (which prepares
every kernel for the emulator without running it) and prints the refused
kernels grouped by reason, most common first.

Usage (from anywhere):
    python3 tools/census.py            the table (and the totals)
    python3 tools/census.py --check    compare the refused kernels with
                                       tests/census/EXPECTED.txt: exit 1 on
                                       any difference either way (a kernel
                                       newly refused, or one that now runs
                                       and must leave the list), 77 (ctest:
                                       skipped) without nvcc or with an nvcc
                                       other than the one that made the list
    python3 tools/census.py --update   rewrite tests/census/EXPECTED.txt
    --warpmem PATH                     the binary (default: build/warpmem)
    --json                             the scan's results as one JSON object

EXPECTED.txt has one line per refused kernel,
    sm_90 reduction.cu reduce0 _Z7reduce0IfEvPKT_PS0_j: REASON
sorted, so that the list can only shrink deliberately: when a feature lands,
run --update and commit the shorter list with it.
"""
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CENSUS = os.path.join(ROOT, "tests", "census")
EXPECTED = os.path.join(CENSUS, "EXPECTED.txt")
ARCHES = ["sm_80", "sm_90"]
SKIP = 77  # ctest SKIP_RETURN_CODE


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    home = os.environ.get("CUDA_HOME")
    for d in ([os.path.join(home, "bin")] if home else []) + ["/usr/local/cuda/bin"]:
        if os.access(os.path.join(d, "nvcc"), os.X_OK):
            return os.path.join(d, "nvcc")
    return None


def nvcc_version(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"Cuda compilation tools, release [^\n]*", out)
    return m.group(0).strip() if m else "unknown"


def arches_of(path):
    """The targets a census file is compiled for: its `// census-arch:` line, else ARCHES."""
    with open(path, encoding="utf-8") as f:
        for line in f.readlines()[:5]:
            m = re.match(r"\s*//\s*census-arch:\s*(.*)", line)
            if m:
                return [a for a in m.group(1).replace(",", " ").split() if a]
    return ARCHES


def sources():
    return sorted(n for n in os.listdir(CENSUS) if n.endswith(".cu"))


def compile_all(nvcc, tmp):
    """{(name, arch): (ptx path or None, nvcc's complaint)} for every file and target."""
    jobs = [(n, a) for n in sources() for a in arches_of(os.path.join(CENSUS, n))]

    def one(job):
        name, arch = job
        out = os.path.join(tmp, arch, name + ".ptx")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        r = subprocess.run([nvcc, "-ptx", "-arch=" + arch, "-O3", "-lineinfo", name, "-o", out], cwd=CENSUS,
                           capture_output=True, text=True)
        return job, (out if r.returncode == 0 else None, r.stderr.strip())

    with concurrent.futures.ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as ex:
        return dict(ex.map(one, jobs))


def scan(warpmem, arch, ptx_files):
    """`warpmem isa --scan --format json` on the files of one target."""
    r = subprocess.run([warpmem, "isa", "--scan", "--format", "json"] + ptx_files, capture_output=True, text=True)
    if r.returncode not in (0, 1, 3):
        sys.exit(f"census: warpmem isa --scan failed (exit status {r.returncode}):\n{r.stderr}")
    return json.loads(r.stdout)


def census(nvcc, warpmem):
    """(kernel rows, problems): a row per kernel: (arch, file, plain, mangled, reason or None)."""
    rows, problems = [], []
    with tempfile.TemporaryDirectory(prefix="warpmem-census-") as tmp:
        built = compile_all(nvcc, tmp)
        for (name, arch), (ptx, err) in sorted(built.items()):
            if ptx is None:
                problems.append(f"nvcc -arch={arch} {name} failed:\n{err}")
        for arch in ARCHES:
            files = [p for (n, a), (p, _) in sorted(built.items()) if a == arch and p]
            if not files:
                continue
            result = scan(warpmem, arch, files)
            for f in result["files"]:
                name = os.path.basename(f["path"])[: -len(".ptx")]
                if f["error"] and not f["refused_whole_file"]:
                    problems.append(f"warpmem could not load {name} ({arch}): {f['error']}")
                for k in f["results"]:
                    rows.append((arch, name, k["plain_name"], k["name"], k.get("reason")))
    return rows, problems


def expected_line(row):
    arch, name, plain, mangled, reason = row
    return f"{arch} {name} {plain} {mangled}: {reason}"


def print_table(rows):
    refused = [r for r in rows if r[4]]
    by_reason = collections.defaultdict(list)
    for r in refused:
        by_reason[r[4]].append(r)
    print(f"{'count':>5}  reason: kernels (file, target)")
    for reason, rs in sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        where = ", ".join(f"{plain} ({name}, {arch})" for arch, name, plain, _, _ in rs[:6])
        more = f", and {len(rs) - 6} more" if len(rs) > 6 else ""
        print(f"{len(rs):>5}  {reason}: {where}{more}")
    print()
    for arch in ARCHES:
        ks = [r for r in rows if r[0] == arch]
        files = {r[1] for r in ks}
        bad = {r[1] for r in ks if r[4]}
        print(f"{arch}: {len(files)} files, {len(ks)} kernels, {sum(1 for r in ks if r[4])} refused "
              f"(in {len(bad)} files)")


def read_expected():
    if not os.path.exists(EXPECTED):
        return None, set()
    version, lines = None, set()
    with open(EXPECTED, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"#\s*nvcc:\s*(.*)", line)
            if m:
                version = m.group(1).strip()
            elif line.strip() and not line.startswith("#"):
                lines.add(line)
    return version, lines


def write_expected(rows, version):
    lines = sorted(expected_line(r) for r in rows if r[4])
    with open(EXPECTED, "w", encoding="utf-8") as f:
        f.write("# Kernels of tests/census that `warpmem isa --scan` refuses today, one a line:\n"
                "#   TARGET FILE KERNEL MANGLED-NAME: REASON\n"
                "# Written by `python3 tools/census.py --update`; the `census` ctest fails when the\n"
                "# refusals differ from this list either way.  Shrink it when a feature lands.\n")
        f.write(f"# nvcc: {version}\n")
        for line in lines:
            f.write(line + "\n")
    print(f"census: wrote {len(lines)} refused kernels to {os.path.relpath(EXPECTED, ROOT)}")


def check(rows, version):
    want_version, want = read_expected()
    if want_version and want_version != version:
        print(f"census: SKIPPED: nvcc is '{version}'; tests/census/EXPECTED.txt was made with '{want_version}' "
              "(other compilers emit other PTX)")
        return SKIP
    have = {expected_line(r) for r in rows if r[4]}
    new, gone = sorted(have - want), sorted(want - have)
    for line in new:
        print(f"census: newly refused (not in EXPECTED.txt): {line}")
    for line in gone:
        print(f"census: in EXPECTED.txt but no longer refused (remove it: tools/census.py --update): {line}")
    if new or gone:
        return 1
    print(f"census: OK: {len(have)} refused kernels, as tests/census/EXPECTED.txt lists")
    return 0


def main(argv):
    mode, warpmem, as_json = "table", os.path.join(ROOT, "build", "warpmem"), False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--check", "--update"):
            mode = a[2:]
        elif a == "--json":
            as_json = True
        elif a == "--warpmem" and i + 1 < len(argv):
            i += 1
            warpmem = argv[i]
        else:
            print(__doc__)
            return 2
        i += 1
    nvcc = find_nvcc()
    if not nvcc:
        print("census: SKIPPED: no nvcc (not on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin)")
        return SKIP if mode == "check" else 1
    if not os.access(warpmem, os.X_OK):
        print(f"census: no warpmem binary at {warpmem} (build it, or pass --warpmem PATH)")
        return 1
    version = nvcc_version(nvcc)
    rows, problems = census(nvcc, warpmem)
    for p in problems:
        print("census: " + p)
    if as_json:
        print(json.dumps([dict(zip(("target", "file", "kernel", "mangled", "reason"), r)) for r in rows], indent=1))
    elif mode != "check":
        print_table(rows)
    if problems:
        return 1
    if mode == "update":
        write_expected(rows, version)
    elif mode == "check":
        return check(rows, version)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

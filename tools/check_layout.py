#!/usr/bin/env python3
"""check_layout.py - the layout rules of src/ (docs/architecture.md), checked.

  tools/check_layout.py [--lib libwarpmemcore.a] [REPO]

Fails (exit 1, one line per fault) when
  - a file includes a header of a higher layer, or of another folder of its
    own layer (LAYERS below: the folders in pipeline order);
  - files depend on each other in a cycle: through includes, or through the
    functions one object file calls in another (nm on the library);
  - a source file has more than 1,000 lines;
  - a function has more than 100 lines and the comment above it does not
    say why ("long because ...").
The fuzz harnesses (fuzz/*.c) stand above every layer, as tests do (they
may include any header), and are held to the same file and function sizes.
Prints what it checked and "layout: N passed, N failed".
"""
import os
import re
import subprocess
import sys

# Lower layers first; a folder may include its own headers and those of
# lower layers.  Folders on one rank are independent of each other.
LAYERS = [
    ["util"],            # errors, allocation, host chores, CSV
    ["arch"],            # GPU presets, occupancy calculator
    ["ptx"],             # PTX text -> decoded module; the instruction table
    ["mem"],             # coalescing, banks, caches, DRAM, counters
    ["emu"],             # SIMT execution, feeding the memory model
    ["model", "launch"], # time model; launch specs and argument binding
    ["report", "gpu"],   # text/JSON/CSV reports; the GPU runner
    ["sim"],             # one launch end to end
    ["lab", "rt"],       # the experiment catalogue; the stand-in CUDA runtime (warpmem run)
    ["cli"],             # the commands
    ["api"],             # the C API of the Python package (src/api/wm_api.h), the command's paths
]
RANK = {d: i for i, ds in enumerate(LAYERS) for d in ds}
MAX_FILE_LINES = 1000
MAX_FUNC_LINES = 100

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([A-Za-z0-9_.]+)"')
FUNC_START = re.compile(r'^[A-Za-z_][A-Za-z0-9_ \*\t]*\b([A-Za-z_][A-Za-z0-9_]*)\s*\([^;]*$')


def source_files(src):
    for d in sorted(os.listdir(src)):
        p = os.path.join(src, d)
        if not os.path.isdir(p):
            continue
        for f in sorted(os.listdir(p)):
            if f.endswith((".c", ".h")):
                yield d, f, os.path.join(p, f)


def check_includes(src, faults):
    graph = {}
    n = 0
    for d, f, path in source_files(src):
        if d not in RANK:
            faults.append(f"src/{d}: a folder that is in no layer (add it to LAYERS in tools/check_layout.py)")
            continue
        node = f"{d}/{f}"
        graph.setdefault(node, set())
        with open(path, encoding="utf-8") as fh:
            for ln, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                n += 1
                td, tf = m.group(1), m.group(2)
                graph[node].add(f"{td}/{tf}")
                if td == d:
                    continue
                if td not in RANK:
                    faults.append(f"src/{node}:{ln}: includes {td}/{tf}, a folder in no layer")
                elif RANK[td] >= RANK[d]:
                    what = "a higher layer" if RANK[td] > RANK[d] else "another folder of its own layer"
                    faults.append(f"src/{node}:{ln}: includes {td}/{tf}, {what} ({d} may use: "
                                  f"{', '.join(x for x in RANK if RANK[x] < RANK[d]) or 'nothing'})")
    return graph, n


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def symbol_graph(lib):
    """Object file -> the object files whose global symbols it uses."""
    res = subprocess.run(["nm", "-A", "--defined-only", "-g", lib], capture_output=True, text=True)
    if res.returncode:
        raise SystemExit(f"check_layout: nm {lib} failed: {res.stderr.strip()}")
    owner = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and ":" in parts[0]:
            obj = parts[0].split(":")[1]
            owner[parts[-1]] = obj
    res = subprocess.run(["nm", "-A", "-u", lib], capture_output=True, text=True)
    graph = {o: set() for o in set(owner.values())}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and ":" in parts[0]:
            obj = parts[0].split(":")[1]
            sym = parts[-1]
            if sym in owner and owner[sym] != obj:
                graph.setdefault(obj, set()).add(owner[sym])
    return graph


def fuzz_files(repo):
    """fuzz/*.c: the harnesses, above every layer."""
    fuzz = os.path.join(repo, "fuzz")
    if os.path.isdir(fuzz):
        for f in sorted(os.listdir(fuzz)):
            if f.endswith((".c", ".h")):
                yield "../fuzz", f, os.path.join(fuzz, f)


def long_functions(files, faults):
    n = 0
    for d, f, path in files:
        if not f.endswith(".c"):
            continue
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        i = 0
        while i < len(lines):
            m = FUNC_START.match(lines[i])
            if not m or lines[i].startswith(("typedef", "static const", "const ", "extern", "#")):
                i += 1
                continue
            # the body opens on this line or a continuation line, closes at a '}' in column 0
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                j += 1
            if j >= len(lines) or lines[j].rstrip().endswith(";"):
                i = j + 1
                continue
            k = j + 1
            while k < len(lines) and not lines[k].startswith("}"):
                k += 1
            n += 1
            length = k - i + 1
            if length > MAX_FUNC_LINES:
                above = []
                a = i - 1
                while a >= 0 and (lines[a].startswith(("/*", " *", "static _Noreturn", "__attribute__")) or
                                  lines[a].strip().endswith("*/")):
                    above.append(lines[a])
                    a -= 1
                if "long because" not in " ".join(above).lower().replace("\n", " ").replace(" * ", " "):
                    faults.append(f"src/{d}/{f}:{i + 1}: {m.group(1)}() has {length} lines "
                                  f"(over {MAX_FUNC_LINES}) and no comment above it saying why "
                                  "(\"long because ...\")")
            i = k + 1
    return n


def main(argv):
    lib = None
    repo = "."
    args = iter(argv[1:])
    for a in args:
        if a == "--lib":
            lib = next(args)
        else:
            repo = a
    src = os.path.join(repo, "src")
    faults = []
    checks = 0

    inc_graph, ninc = check_includes(src, faults)
    checks += ninc
    for comp in cycles(inc_graph):
        faults.append("include cycle: " + " -> ".join(comp))

    files = list(source_files(src))
    for d, f, path in files + list(fuzz_files(repo)):
        with open(path, encoding="utf-8") as fh:
            count = sum(1 for _ in fh)
        checks += 1
        if count > MAX_FILE_LINES:
            faults.append(f"src/{d}/{f}: {count} lines (over {MAX_FILE_LINES})")

    checks += long_functions(list(source_files(src)) + list(fuzz_files(repo)), faults)

    if lib:
        sym = symbol_graph(lib)
        checks += sum(len(v) for v in sym.values())
        for comp in cycles(sym):
            faults.append("call cycle between files: " + " <-> ".join(c.replace(".c.o", ".c") for c in comp))
        # calls must follow the layers too
        where = {}
        for d, f, _ in files:
            where[f + ".o"] = d
        for obj, uses in sorted(sym.items()):
            for u in sorted(uses):
                a, b = where.get(obj), where.get(u)
                if a and b and a != b and RANK.get(b, -1) >= RANK.get(a, 99):
                    faults.append(f"{a}/{obj[:-2]} calls into {b}/{u[:-2]}, a layer that is not below it")

    for fl in faults:
        print(fl)
    print(f"layout: {checks} passed, {len(faults)} failed")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""lab_html.py - `warpmem lab --format html`: the pictures' data, read back
with html.parser (no browser needed; the headless-Chromium check of the pages
is tools/html_check.py's).

    python3 tests/lab_html.py build/warpmem lab/ [build/libfakecuda.so]

Runs the lab on the committed PTX (lab/ptx/, so no nvcc) with --no-gpu for
the transpose and square shared-tile groups, then checks, golden numbers from
first principles:

- tr_naive's store odata[yIndex + height * xIndex]: the 32 lanes of a warp
  have consecutive xIndex, so they write floats height * 4 bytes apart
  (512 B at 128 x 128): every lane in its own 32-byte sector, 32 sectors.
- setRowReadCol's shared load tile[threadIdx.x][threadIdx.y] of int
  tile[32][32]: the lanes read one column, rows 128 bytes apart, so every
  lane's word lies in the same 4-byte bank (bank threadIdx.y) and the bank
  serves its 32 distinct words one per wavefront: 32 wavefronts, lane l in
  the (l+1)th.  Its padded twin setRowReadColIpad (int tile[32][33]) puts
  row r's word in bank (33 r + c) % 32: 32 banks, 1 wavefront.
- Without a GPU the charts carry predicted values only and say so; with the
  stand-in driver (tests/fake/fake_libcuda.c, given as the third argument)
  every bar also carries a measured value.
- The page is one file: no external reference (src/href to http, <link>,
  <script src>), ids unique, every "same pattern" link resolves.
"""
import html.parser
import os
import subprocess
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.figures = []      # {attrs, svgs: [{attrs, lanes: [attrs]}]}
        self.pairs = []        # {attrs, columns: [[svg...]]}
        self.charts = []       # {attrs, bars: [attrs]}
        self.ids = []
        self.links = []
        self.external = []
        self.text = []
        self.svg = None
        self.chart = None
        self.pair = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        for k in ("src", "href"):
            if k in a and not a[k].startswith("#"):
                self.external.append((tag, a[k]))
        if tag in ("link", "script") and ("src" in a or "href" in a):
            self.external.append((tag, a))
        cls = a.get("class", "")
        if tag == "div" and cls == "lab-pair":
            self.pair = {"attrs": a, "svgs": []}
            self.pairs.append(self.pair)
        elif tag == "figure" and cls == "lab-access":
            self.figures.append({"attrs": a, "svgs": []})
        elif tag == "svg" and cls == "wm-pic":
            self.svg = {"attrs": a, "lanes": []}
            self.figures[-1]["svgs"].append(self.svg)
            if self.pair is not None:
                self.pair["svgs"].append(self.svg)
        elif tag == "svg" and cls == "lab-chart":
            self.chart = {"attrs": a, "bars": []}
            self.charts.append(self.chart)
        elif self.svg is not None and "data-lane" in a:
            self.svg["lanes"].append(a)
        elif self.chart is not None and cls == "lab-bar":
            self.chart["bars"].append(a)

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None
            self.chart = None
        elif tag == "div" and self.pair is not None:
            self.pair["depth"] = self.pair.get("depth", 0) + 1
            if self.pair["depth"] == 3:  # its two columns, then itself
                self.pair = None

    def handle_data(self, data):
        self.text.append(data)


def fail(msg):
    print("lab_html: FAIL: " + msg)
    sys.exit(1)


def pictures(page, kernel, space, op):
    """The first picture of `kernel`'s `op` on `space`."""
    for f in page.figures:
        if f["attrs"].get("data-kernel") != kernel:
            continue
        for s in f["svgs"]:
            if s["attrs"].get("data-space") == space and s["attrs"].get("data-op") == op:
                return s
    fail("no picture of %s's %s.%s" % (kernel, op, space))


def active(svg):
    return [l for l in svg["lanes"] if l.get("data-active") != "0"]


def check_tr_naive(page):
    s = pictures(page, "tr_naive", "global", "st")
    lanes = active(s)
    if len(s["lanes"]) != 32 or len(lanes) != 32:
        fail("tr_naive's store: %d lanes, %d active, want 32" % (len(s["lanes"]), len(lanes)))
    secs = {l["data-sector"] for l in lanes}
    if len(secs) != 32 or s["attrs"].get("data-sectors") != "32":
        fail("tr_naive's store: %d distinct sectors (svg says %s), want 32" % (len(secs), s["attrs"].get("data-sectors")))
    # and its load idata[xIndex + width * yIndex]: 128 contiguous bytes, 4 sectors
    s = pictures(page, "tr_naive", "global", "ld")
    if len({l["data-sector"] for l in active(s)}) != 4:
        fail("tr_naive's load: want 4 sectors")


def check_set_row_read_col(page):
    s = pictures(page, "setRowReadCol", "shared", "ld")
    lanes = active(s)
    banks = {l["data-bank"] for l in lanes}
    waves = sorted(int(l["data-wavefront"]) for l in lanes)
    if len(lanes) != 32 or len(banks) != 1:
        fail("setRowReadCol's shared load: %d lanes on %d banks, want 32 on 1" % (len(lanes), len(banks)))
    if waves != list(range(1, 33)) or s["attrs"].get("data-wavefronts") != "32":
        fail("setRowReadCol's shared load: wavefronts %s (svg says %s), want 1..32" % (waves, s["attrs"].get("data-wavefronts")))
    s = pictures(page, "setRowReadColIpad", "shared", "ld")
    if len({l["data-bank"] for l in active(s)}) != 32 or s["attrs"].get("data-wavefronts") != "1":
        fail("setRowReadColIpad's shared load: want 32 banks, 1 wavefront")


def check_pairs(page):
    want = ("setRowReadCol", "setRowReadColIpad")
    for p in page.pairs:
        if (p["attrs"].get("data-unpadded"), p["attrs"].get("data-padded")) == want:
            spaces = {s["attrs"]["data-space"] for s in p["svgs"]}
            if spaces != {"shared"} or len(p["svgs"]) < 4:
                fail("the %s / %s pair: %d pictures of %s" % (want + (len(p["svgs"]), spaces)))
            return
    fail("no side-by-side pair %s / %s (pairs: %s)" % (want + ([p["attrs"] for p in page.pairs],)))


def check_charts(page):
    if not page.charts:
        fail("no chart")
    for c in page.charts:
        if not c["bars"]:
            fail("a chart without bars")
        for b in c["bars"]:
            if "data-launch" not in b or float(b.get("data-predicted", "0")) <= 0:
                fail("a bar without a launch or a predicted value: %s" % b)
            if "data-measured" in b:
                fail("--no-gpu, yet a measured value: %s" % b)
    if "predicted times and bandwidths only" not in "".join(page.text):
        fail("the page does not say that it shows predictions only")


def check_measured(exe, lab, fake):
    env = dict(os.environ, WARPMEM_LIBCUDA=fake)
    run = subprocess.run([exe, "lab", "--dir", lab, "--format", "html", "--budget", "0.01", "--only", "tr512"],
                         capture_output=True, text=True, env=env)
    if run.returncode != 0:
        fail("warpmem lab on the stand-in driver exited %d: %s" % (run.returncode, run.stderr[-2000:]))
    page = Page()
    page.feed(run.stdout)
    bars = [b for c in page.charts if c["attrs"]["data-chart"] == "time" for b in c["bars"]]
    if len(bars) != 5 or any(float(b.get("data-measured", "0")) <= 0 for b in bars):
        fail("on a GPU, want 5 time bars with measured values: %s" % bars)
    if "Measured on" not in "".join(page.text):
        fail("the page does not name the GPU")


def check_page(page):
    if page.external:
        fail("external references: %s" % page.external[:3])
    if len(set(page.ids)) != len(page.ids):
        fail("duplicate ids")
    missing = set(page.links) - set(page.ids)
    if missing:
        fail("links to missing ids: %s" % sorted(missing)[:3])


def check_in_chromium(text):
    """The same page in headless Chromium (tools/html_check.py): its script
    ran and nothing went to the console.  Skipped, with a note, when
    Chromium is not installed (scripts/setup.sh installs it)."""
    import shutil
    import tempfile
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        print("lab_html: chromium not found, the page was not rendered (scripts/setup.sh installs it)")
        return
    check = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "html_check.py")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "lab.html")
        with open(path, "w") as f:
            f.write(text)
        run = subprocess.run([sys.executable, check, path, "--expect", "svg.wm-pic>=4"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            fail("the lab page in Chromium: %s%s" % (run.stdout[-2000:], run.stderr[-2000:]))


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: lab_html.py WARPMEM LABDIR [FAKE_LIBCUDA]")
        return 2
    exe, lab = sys.argv[1], sys.argv[2]
    env = dict(os.environ)
    env.pop("CUDA_VISIBLE_DEVICES", None)
    run = subprocess.run([exe, "lab", "--dir", lab, "--no-gpu", "--format", "html",
                          "--only", "transpose,smem_square"], capture_output=True, text=True, env=env)
    if run.returncode != 0:
        fail("warpmem lab exited %d: %s" % (run.returncode, run.stderr[-2000:]))
    text = run.stdout
    if not text.lstrip().lower().startswith("<!doctype html>") or "</html>" not in text:
        fail("not a whole page")
    page = Page()
    page.feed(text)
    page.close()
    check_tr_naive(page)
    check_set_row_read_col(page)
    check_pairs(page)
    check_charts(page)
    check_page(page)
    if len(sys.argv) == 4:
        check_measured(exe, lab, sys.argv[3])
    check_in_chromium(text)
    print("lab_html: ok: %d pictures, %d charts, %d side-by-side pairs, %d KB"
          % (sum(len(f["svgs"]) for f in page.figures), len(page.charts), len(page.pairs), len(text) // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())

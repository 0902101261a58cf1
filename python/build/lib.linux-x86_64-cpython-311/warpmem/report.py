"""Report: one launch of warpmem's JSON report (`warpmem sim --format json`).

Dict-like over the metrics, under Nsight Compute's names; the per-line
tables as pandas DataFrames where pandas is installed (else lists of
dicts); the occupancy, the predicted time and its limiter; an HTML view
for Jupyter.  It holds the JSON object as the library wrote it (.json)
and adds nothing to it.
"""
import html as _html
import json
from collections.abc import Mapping


def _table(rows):
    try:
        import pandas
    except ImportError:
        return list(rows)
    return pandas.DataFrame(list(rows))


class Report(Mapping):
    def __init__(self, launch, html=None):
        self.json = launch
        self.html = html

    # the metrics, as a mapping
    @property
    def metrics(self):
        return self.json.get("metrics", {})

    def __getitem__(self, name):
        return self.metrics[name]

    def __iter__(self):
        return iter(self.metrics)

    def __len__(self):
        return len(self.metrics)

    # the launch
    kernel = property(lambda self: self.json.get("kernel"))
    launch = property(lambda self: self.json.get("launch"))
    grid = property(lambda self: tuple(self.json.get("grid", ())))
    block = property(lambda self: tuple(self.json.get("block", ())))
    smem = property(lambda self: self.json.get("smem", 0))
    warnings = property(lambda self: self.json.get("warnings"))

    @property
    def lines(self):
        """One row per memory instruction (PTX line): its source line, requests, units per request, why."""
        return _table(self.json.get("lines", []))

    @property
    def source_lines(self):
        """The same added up per source line (the .cu's, or Triton's or Numba's Python)."""
        return _table(self.json.get("source_lines", []))

    @property
    def occupancy(self):
        return self.json.get("occupancy")

    @property
    def time(self):
        return self.json.get("time")

    @property
    def predicted_ns(self):
        t = self.time
        return t.get("gpu__time_duration.sum") if t else None

    @property
    def limiter(self):
        t = self.time
        return t.get("limiter") if t else None

    @property
    def why(self):
        t = self.time
        return t.get("why") if t else None

    def to_json(self, path=None):
        """The report as `warpmem sim --format json` writes it (a list of one launch)."""
        text = json.dumps([self.json], indent=1)
        if path is None:
            return text
        with open(path, "w") as f:
            f.write(text + "\n")
        return path

    def __repr__(self):
        occ = self.occupancy or {}
        t = f", {self.predicted_ns / 1000:.2f} us {self.limiter}-bound" if self.predicted_ns is not None else ""
        return (f"<warpmem.Report {self.launch} grid={self.grid} block={self.block}: {len(self)} metrics"
                f"{', occupancy %.1f%%' % occ['occupancy_pct'] if 'occupancy_pct' in occ else ''}{t}>")

    def _repr_html_(self):
        if self.html:  # the library's own page, isolated from the notebook's styles
            return ('<iframe style="width:100%;height:640px;border:0" srcdoc="' + _html.escape(self.html, quote=True)
                    + '"></iframe>')
        rows = "".join(f"<tr><td><code>{_html.escape(k)}</code></td><td style='text-align:right'>{v}</td></tr>"
                       for k, v in self.metrics.items() if v)
        head = _html.escape(repr(self))
        why = f"<p>{_html.escape(self.why)}</p>" if self.why else ""
        return (f"<div><p><b>{head}</b></p>{why}<table>{rows}</table>"
                "<p><i>html=True gives warpmem's full page</i></p></div>")

"""A diff of two reports, baseline against candidate: per metric and per line.

    d = warpmem.diff("before.json", after_report)
    d.metrics   # rows: launch, metric, baseline, candidate, delta, ratio (changed ones)
    d.lines     # rows: launch, source (file:line), unit, baseline and candidate units and units per request
    print(d)    # both as text; `python -m warpmem diff A.json B.json` prints the same

Launches pair by their label (NAME#VARIANT), in order; lines by source
line (file base name and line) when both have source lines, else by PTX
instruction text.
"""
import os

from .ncu_report import _launch_metrics, launches_of
from .report import _table


def _pair(base, cand):
    """(label, baseline launch, candidate launch) by label, then by position for the rest."""
    by_label = {}
    for x in cand:
        by_label.setdefault(x.get("launch"), []).append(x)
    out = []
    for i, b in enumerate(base):
        same = by_label.get(b.get("launch"))
        c = same.pop(0) if same else (cand[i] if len(base) == len(cand) else None)
        if c is not None:
            out.append((b.get("launch") if c.get("launch") == b.get("launch") else f"{b.get('launch')}/{c.get('launch')}",
                        b, c))
    return out


def _metric_rows(label, b, c, changed_only):
    mb, mc = _launch_metrics(b), _launch_metrics(c)
    for name in list(mb) + [n for n in mc if n not in mb]:
        vb, vc = mb.get(name), mc.get(name)
        if changed_only and vb == vc:
            continue
        num = isinstance(vb, (int, float)) and isinstance(vc, (int, float))
        yield {"launch": label, "metric": name, "baseline": vb, "candidate": vc,
               "delta": vc - vb if num else None, "ratio": (vc / vb if vb else None) if num else None}


def _line_key(row):
    if row.get("cu_line"):
        return f"{os.path.basename(row.get('cu_file', ''))}:{row['cu_line']}", row.get("unit")
    return row.get("instruction", f"ptx:{row.get('ptx_line')}"), row.get("unit")


def _line_rows(label, b, c, changed_only):
    key = "source_lines" if b.get("source_lines") and c.get("source_lines") else "lines"
    rb, rc = {}, {}
    for rows, into in ((b.get(key, []), rb), (c.get(key, []), rc)):
        for r in rows:
            k = _line_key(r)
            acc = into.setdefault(k, {"units": 0, "requests": 0})
            acc["units"] += r.get("units", 0)
            acc["requests"] += r.get("requests", 0)
    for k in list(rb) + [k for k in rc if k not in rb]:
        xb, xc = rb.get(k, {"units": 0, "requests": 0}), rc.get(k, {"units": 0, "requests": 0})
        if changed_only and xb == xc:
            continue
        per = lambda x: x["units"] / x["requests"] if x["requests"] else None  # noqa: E731
        yield {"launch": label, "source": k[0], "unit": k[1], "baseline": xb["units"], "candidate": xc["units"],
               "delta": xc["units"] - xb["units"], "baseline_per_request": per(xb),
               "candidate_per_request": per(xc)}


class Diff:
    def __init__(self, metric_rows, line_rows):
        self.metric_rows, self.line_rows = metric_rows, line_rows

    @property
    def metrics(self):
        return _table(self.metric_rows)

    @property
    def lines(self):
        return _table(self.line_rows)

    def __bool__(self):
        return any(r["baseline"] != r["candidate"] for r in self.metric_rows + self.line_rows)

    def __str__(self):
        out = []
        if self.metric_rows:
            out.append(f"{'launch':<20} {'metric':<64} {'baseline':>14} {'candidate':>14} {'ratio':>8}")
            for r in self.metric_rows:
                ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
                out.append(f"{str(r['launch'])[:20]:<20} {r['metric'][:64]:<64} {_fmt(r['baseline']):>14} "
                           f"{_fmt(r['candidate']):>14} {ratio:>8}")
        if self.line_rows:
            out.append("")
            out.append(f"{'launch':<20} {'line':<40} {'unit':<11} {'baseline':>12} {'candidate':>12} "
                       f"{'per req':>9} {'per req':>9}")
            for r in self.line_rows:
                out.append(f"{str(r['launch'])[:20]:<20} {str(r['source'])[:40]:<40} {str(r['unit']):<11} "
                           f"{r['baseline']:>12} {r['candidate']:>12} {_fmt(r['baseline_per_request']):>9} "
                           f"{_fmt(r['candidate_per_request']):>9}")
        return "\n".join(out) if out else "no differences"


def _fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def diff(baseline, candidate, changed_only=True):
    """Diff of two reports (paths to warpmem JSON, JSON text, Reports or lists of them)."""
    metric_rows, line_rows = [], []
    for label, b, c in _pair(launches_of(baseline), launches_of(candidate)):
        metric_rows.extend(_metric_rows(label, b, c, changed_only))
        line_rows.extend(_line_rows(label, b, c, changed_only))
    return Diff(metric_rows, line_rows)

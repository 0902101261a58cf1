"""Nsight Compute's Python interface (ncu_report) over warpmem's JSON.

A script written against a real .ncu-rep,

    import ncu_report
    ctx = ncu_report.load_report("run.ncu-rep")
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            act = rng.action_by_idx(a)
            print(act.name(), act.metric_by_name("dram__bytes_read.sum").as_double())

runs unchanged on `warpmem sim --format json` or `warpmem run --format
json` output (a list of launches), on a Report, or on a list of Reports:
one range, an action per launch that ran, in order.  `import ncu_report`
finds this module once the package is installed (it installs a top-level
ncu_report that is this one).  The Pythonic forms of recent versions
(iterating a context and a range, action[name], metric.value()) work too.

Each action's metrics are the report's counters under their own names,
the predicted gpu__time_duration.sum and the rates, and the launch
attributes Nsight Compute records as launch__* metrics (grid and block
sizes, registers, dynamic shared memory, the occupancy's limits).
"""
import json
import os

__all__ = ["load_report", "IContext", "IRange", "IAction", "IMetric"]


class IMetric:
    ValueKind_UNKNOWN, ValueKind_ANY, ValueKind_STRING, ValueKind_FLOAT, ValueKind_DOUBLE = 0, 1, 2, 3, 4
    ValueKind_UINT32, ValueKind_UINT64, ValueKind_SINT32, ValueKind_SINT64 = 5, 6, 7, 8
    MetricType_OTHER, MetricType_COUNTER, MetricType_RATIO, MetricType_THROUGHPUT = 0, 1, 2, 3

    def __init__(self, name, value):
        self._name, self._value = name, value

    def name(self):
        return self._name

    def kind(self):
        v = self._value
        if isinstance(v, str):
            return self.ValueKind_STRING
        if isinstance(v, int) and not isinstance(v, bool):
            return self.ValueKind_UINT64 if v >= 0 else self.ValueKind_SINT64
        return self.ValueKind_DOUBLE

    def metric_type(self):
        n = self._name
        if n.endswith((".pct", ".ratio")):
            return self.MetricType_RATIO
        if n.endswith(".per_second"):
            return self.MetricType_THROUGHPUT
        return self.MetricType_COUNTER if n.endswith((".sum", ".max", ".min", ".avg")) else self.MetricType_OTHER

    def unit(self):
        n = self._name
        for key, unit in (("time_duration", "nsecond"), (".pct", "%"), ("bytes", "byte"), ("sectors", "sector"),
                          ("requests", "request"), ("wavefronts", ""), ("inst", "inst")):
            if key in n:
                return unit
        return ""

    def has_value(self):
        return self._value is not None

    def as_double(self):
        return float(self._value)

    def as_uint64(self):
        return int(self._value)

    def as_string(self):
        return str(self._value)

    def value(self):
        return self._value

    def num_instances(self):
        return 0

    def __repr__(self):
        return f"IMetric({self._name!r}, {self._value!r})"


def _launch_metrics(launch):
    """The metrics of one launch of warpmem's JSON, under Nsight Compute's names."""
    m = dict(launch.get("metrics", {}))
    t = launch.get("time") or {}
    if "gpu__time_duration.sum" in t:
        m["gpu__time_duration.sum"] = t["gpu__time_duration.sum"]
    m.update((k, v) for k, v in (t.get("rates") or {}).items() if v is not None and v >= 0)
    g, b = launch.get("grid", [1, 1, 1]), launch.get("block", [1, 1, 1])
    for axis, i in (("x", 0), ("y", 1), ("z", 2)):
        m[f"launch__grid_dim_{axis}"], m[f"launch__block_dim_{axis}"] = g[i], b[i]
    m["launch__grid_size"] = g[0] * g[1] * g[2]
    m["launch__block_size"] = b[0] * b[1] * b[2]
    m["launch__thread_count"] = m["launch__grid_size"] * m["launch__block_size"]
    m["launch__shared_mem_per_block_dynamic"] = launch.get("smem", 0)
    occ = launch.get("occupancy")
    if occ:
        m["launch__registers_per_thread"] = occ.get("registers")
        m["launch__occupancy_limit_warps"] = (occ.get("limits") or {}).get("warps")
        m["launch__occupancy_limit_registers"] = (occ.get("limits") or {}).get("registers")
        m["launch__occupancy_limit_shared_mem"] = (occ.get("limits") or {}).get("shared_memory")
        m["launch__occupancy_limit_blocks"] = (occ.get("limits") or {}).get("blocks")
        m["sm__maximum_warps_per_active_cycle_pct"] = occ.get("occupancy_pct")
    return {k: v for k, v in m.items() if v is not None}


class IAction:
    NameBase_FUNCTION, NameBase_DEMANGLED, NameBase_MANGLED = 0, 1, 2

    def __init__(self, launch):
        self._launch = launch
        self._metrics = _launch_metrics(launch)

    def name(self, base=None):
        return self._launch.get("kernel") or self._launch.get("launch")

    def metric_by_name(self, name):
        return IMetric(name, self._metrics[name]) if name in self._metrics else None

    def metric_names(self):
        return tuple(self._metrics)

    def metrics_by_prefix(self, prefix):
        return tuple(IMetric(n, v) for n, v in self._metrics.items() if n.startswith(prefix))

    def __getitem__(self, name):
        m = self.metric_by_name(name)
        if m is None:
            raise KeyError(name)
        return m

    def __iter__(self):
        return iter(self._metrics)

    def __len__(self):
        return len(self._metrics)

    def __repr__(self):
        return f"IAction({self.name()!r})"


class _Items:
    """The Pythonic forms of a context (its ranges) and a range (its actions)."""

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, idx):
        return self._items[idx]


class IRange(_Items):
    def __init__(self, launches):
        self._items = [IAction(x) for x in launches if x.get("status", "ok") == "ok"]

    def num_actions(self):
        return len(self._items)

    def action_by_idx(self, idx):
        return self._items[idx]

    def actions_by_nvtx(self, includes=(), excludes=()):
        return list(range(len(self._items)))


class IContext(_Items):
    def __init__(self, launches):
        self._items = [IRange(launches)]

    def num_ranges(self):
        return len(self._items)

    def range_by_idx(self, idx):
        return self._items[idx]


def launches_of(source):
    """warpmem's launches (a list of JSON objects) from a path, JSON text, a Report or a list of either."""
    if hasattr(source, "json") and isinstance(source.json, dict):  # a Report
        return [source.json]
    if isinstance(source, (list, tuple)):
        out = []
        for x in source:
            out.extend(launches_of(x) if not isinstance(x, dict) else [x])
        return out
    if isinstance(source, dict):
        return [source]
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not source.lstrip().startswith("[")):
        path = os.fspath(source)
        if path.endswith(".ncu-rep"):
            raise ValueError(f"{path}: a real Nsight Compute report; this reader takes warpmem's JSON "
                             "(import Nsight Compute's own ncu_report for .ncu-rep files)")
        with open(path) as f:
            data = json.load(f)
    else:
        data = json.loads(source)
    if isinstance(data, dict):
        data = data.get("launches", [data])
    return data


def load_report(source):
    """An IContext over warpmem's JSON (a path, JSON text, a Report or a list)."""
    return IContext(launches_of(source))

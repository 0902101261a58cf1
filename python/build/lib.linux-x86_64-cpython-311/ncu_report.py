"""ncu_report: Nsight Compute's Python interface over warpmem's JSON (warpmem.ncu_report).

Installed as a top-level module so that `import ncu_report` in a script
written for a real .ncu-rep finds it; put Nsight Compute's own
extras/python first on sys.path to read real reports instead.
"""
from warpmem.ncu_report import *  # noqa: F401,F403
from warpmem.ncu_report import IAction, IContext, IMetric, IRange, load_report  # noqa: F401

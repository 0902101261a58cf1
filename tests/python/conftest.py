"""tests/python: the warpmem package (python/) against the C library of a build.

make test runs them as
    WARPMEM_LIB=build/libwarpmem_api.so WARPMEM_CLI=build/warpmem PYTHONPATH=python .venv/bin/python -m pytest tests/python
(or against an installed package: leave WARPMEM_LIB and PYTHONPATH out).
"""
import os
import shutil
import subprocess

import pytest

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton 3.9 warns unless it is set; 1 is its default

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels")
REPO = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope="session")
def cli():
    """The warpmem command of the same build, for comparisons ($WARPMEM_CLI)."""
    path = os.environ.get("WARPMEM_CLI") or shutil.which("warpmem")
    if not path:
        pytest.skip("no warpmem command: set WARPMEM_CLI")
    return path


def run_cli(cli, *args):
    """The JSON report of `warpmem sim ARGS --format json` (status 0 or 4)."""
    import json
    p = subprocess.run([cli, "sim", *args, "--format", "json"], capture_output=True, text=True, timeout=600)
    assert p.returncode in (0, 4), p.stderr
    return json.loads(p.stdout)

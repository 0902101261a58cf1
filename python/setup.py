"""Builds warpmem's C library (the warpmem_api target: libwarpmem_api.so)
with cmake on the repository this folder is in, and ships it in the
package beside warpmem/_lib.py, which loads it.

$WARPMEM_SOURCE_DIR: the repository (default: this folder's parent);
$WARPMEM_BUILD_DIR: cmake's build folder (default: REPO/build-pip, kept
between installs so that a second one only relinks).
"""
import os
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildLibrary(build_py):
    def run(self):
        super().run()
        repo = os.environ.get("WARPMEM_SOURCE_DIR", os.path.dirname(HERE))
        if not os.path.exists(os.path.join(repo, "src", "api", "wm_api.h")):
            raise RuntimeError(f"warpmem: {repo} is not warpmem's repository (set WARPMEM_SOURCE_DIR)")
        build = os.environ.get("WARPMEM_BUILD_DIR", os.path.join(repo, "build-pip"))
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "-S", repo, "-B", build, "-DCMAKE_BUILD_TYPE=Release"])
        subprocess.check_call(["cmake", "--build", build, "--target", "warpmem_api", "-j", jobs])
        shutil.copy2(os.path.join(build, "libwarpmem_api.so"), os.path.join(self.build_lib, "warpmem"))


class BinaryDistribution(Distribution):
    """A platform wheel: it holds a shared library."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildLibrary}, distclass=BinaryDistribution)

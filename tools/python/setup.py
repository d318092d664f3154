"""Copies a built checkout's libgem.so and gem-index into the package at
install, so that an installed gemdb finds them beside itself."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))
BUILT = {
    "libgem.so": os.environ.get("GEM_EXTENSION") or
    os.path.join(CHECKOUT, "bazel-bin", "sqlext", "libgem.so"),
    "gem-index": os.environ.get("GEM_INDEX") or
    os.path.join(CHECKOUT, "bazel-bin", "indexer", "gem-index"),
}


class BuildWithBinaries(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "gemdb")
        for name, path in BUILT.items():
            if os.path.isfile(path):
                shutil.copy(path, os.path.join(target, name))


setup(cmdclass={"build_py": BuildWithBinaries})

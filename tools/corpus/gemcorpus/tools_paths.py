"""Where gem-index and libgem.so are (the build output beside this checkout
unless given), and what they say of themselves."""
import os
import re
import subprocess

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


class ToolError(Exception):
    pass


class Tools:
    def __init__(self, gem_index=None, extension=None):
        self.gem_index = os.path.abspath(
            gem_index or os.path.join(CHECKOUT, "bazel-bin", "indexer", "gem-index"))
        self.extension = os.path.abspath(
            extension or os.path.join(CHECKOUT, "bazel-bin", "sqlext", "libgem.so"))
        self._version = None

    def need_gem_index(self):
        if not os.access(self.gem_index, os.X_OK):
            raise ToolError("gem-index not found at %s (build it: bazel build //indexer:gem-index,"
                            " or give --gem-index PATH)" % self.gem_index)

    def need_extension(self):
        if not os.path.isfile(self.extension):
            raise ToolError("libgem.so not found at %s (build it: bazel build //sqlext:libgem.so,"
                            " or give --extension PATH)" % self.extension)

    def version(self):
        """(gem version, index format) as gem-index --version says them."""
        if self._version is None:
            self.need_gem_index()
            out = subprocess.run([self.gem_index, "--version"], capture_output=True, text=True)
            m = re.match(r"gem-index (\S+) \(index schema (\d+)\)", out.stdout.strip())
            if out.returncode != 0 or not m:
                raise ToolError("%s --version says %r" % (self.gem_index, out.stdout.strip()))
            self._version = (m.group(1), int(m.group(2)))
        return self._version

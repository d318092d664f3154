"""docs/'s generated pages are what their writers make of this build:
docs/cli.md is every tool's --help (tools/docs/make_cli_page.py). A help
text changed without the page, or the page edited by hand, fails here
with the difference and the command that remakes the page."""
import difflib
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import junit  # noqa: E402
from gemtest import RUNFILES  # noqa: E402

REMAKE = "bazel build //... && /usr/bin/python3 tools/docs/make_cli_page.py > docs/cli.md"


class DocsDrift(unittest.TestCase):
    def test_the_command_line_page_is_every_tools_help(self):
        made = subprocess.run(["/usr/bin/python3",
                               os.path.join(RUNFILES, "tools", "docs", "make_cli_page.py"),
                               "--bin", RUNFILES, "--src", RUNFILES],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(made.returncode, 0, made.stderr)
        with open(os.path.join(RUNFILES, "docs", "cli.md"), encoding="utf-8") as f:
            committed = f.read()
        # Not vacuous: every tool has its section, each with its usage line.
        for tool in ("gem-index", "gem-dump", "gem-view", "gem-corpus", "gem-synth", "gem-bench"):
            self.assertIn("\n## %s\n" % tool, made.stdout)
            self.assertIn("usage: %s" % tool, made.stdout)
        if made.stdout != committed:
            diff = "".join(difflib.unified_diff(committed.splitlines(True),
                                                made.stdout.splitlines(True),
                                                "docs/cli.md (committed)", "as the tools say"))
            self.fail("docs/cli.md differs from the tools' --help; remake it:\n    %s\n%s"
                      % (REMAKE, diff[:6000]))


if __name__ == "__main__":
    junit.main()

"""docs/'s generated pages are what their writers make of this build:
docs/cli.md is every tool's --help (tools/docs/make_cli_page.py),
docs/sql-functions.md the extension's functions (make_sql_page.py). A
help text or function changed without the page, or the page edited by
hand, fails here with the difference and the command that remakes it."""
import difflib
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import junit  # noqa: E402
from gemtest import LIB, RUNFILES, connect  # noqa: E402


def remake(script, page):
    return "bazel build //... && /usr/bin/python3 tools/docs/%s > docs/%s" % (script, page)


class DocsDrift(unittest.TestCase):
    def made(self, script, *args):
        run = subprocess.run(["/usr/bin/python3", os.path.join(RUNFILES, "tools", "docs", script)]
                             + list(args), capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        return run.stdout

    def same(self, page, made, script):
        with open(os.path.join(RUNFILES, "docs", page), encoding="utf-8") as f:
            committed = f.read()
        if made != committed:
            diff = "".join(difflib.unified_diff(committed.splitlines(True),
                                                made.splitlines(True),
                                                "docs/%s (committed)" % page, "as made now"))
            self.fail("docs/%s differs from what the code says; remake it:\n    %s\n%s"
                      % (page, remake(script, page), diff[:6000]))

    def test_the_command_line_page_is_every_tools_help(self):
        made = self.made("make_cli_page.py", "--bin", RUNFILES, "--src", RUNFILES)
        # Not vacuous: every tool has its section, each with its usage line.
        for tool in ("gem-index", "gem-dump", "gem-view", "gem-corpus", "gem-synth", "gem-bench"):
            self.assertIn("\n## %s\n" % tool, made)
            self.assertIn("usage: %s" % tool, made)
        self.same("cli.md", made, "make_cli_page.py")

    def test_the_sql_page_is_every_function_the_extension_registers(self):
        made = self.made("make_sql_page.py", "--lib", LIB)
        # Not vacuous: each function SQLite knows after loading has its section.
        con = connect()
        names = {n for (n,) in con.execute("SELECT name FROM pragma_function_list WHERE name "
                                           "LIKE 'gem%' UNION SELECT name FROM "
                                           "pragma_module_list WHERE name LIKE 'gem%'")}
        self.assertGreaterEqual(len(names), 9, names)
        for name in names:
            self.assertIn("\n## %s\n" % name, made)
        self.assertIn("| `from_tick` | any | argument (hidden) |", made)
        self.same("sql-functions.md", made, "make_sql_page.py")


if __name__ == "__main__":
    junit.main()

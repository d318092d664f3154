"""docs/'s generated pages are what their writers make of this build:
docs/cli.md is every tool's --help (tools/docs/make_cli_page.py),
docs/sql-functions.md the extension's functions (make_sql_page.py),
docs/tables*.md every table and view of a Dota, a CS2 and a Deadlock
index with each column's doc (make_tables_page.py, from the schema the
code writes). A
help text or function changed without the page, or the page edited by
hand, fails here with the difference and the command that remakes it."""
import difflib
import os
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402
from gemtest import FIXTURES, LIB, RUNFILES, TMP, connect  # noqa: E402


def remake(script, page):
    if script == "make_tables_page.py":
        return "bazel build //... && /usr/bin/python3 tools/docs/%s --out docs" % script
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

    def test_the_table_pages_are_every_table_and_view_of_each_games_index(self):
        out = os.path.join(TMP, "table_pages")
        os.makedirs(out, exist_ok=True)
        self.made("make_tables_page.py", "--bin", RUNFILES, "--fixtures", FIXTURES, "--out", out)
        pages = {}
        for page in ("tables.md", "tables-dota.md", "tables-cs2.md", "tables-deadlock.md"):
            with open(os.path.join(out, page), encoding="utf-8") as f:
                pages[page] = f.read()
        # Not vacuous: tables of the index, of the match layer and of each
        # game have their sections, each column a row with its doc.
        self.assertIn("\n## `entities`\n", pages["tables.md"])
        self.assertIn("| `deleted_tick` | INTEGER | the tick it was deleted at", pages["tables.md"])
        for page, names in (("tables-dota.md", ("purchases", "view `damage`", "timeline")),
                            ("tables-cs2.md", ("rounds", "view `player_stats`", "kills")),
                            ("tables-deadlock.md", ("record_match", "view `healing`", "urn"))):
            for name in names:
                self.assertIn("\n## %s\n" % (name if name.startswith("view") else
                                               "`%s`" % name), pages[page])
            self.same(page, pages[page], "make_tables_page.py")
        self.same("tables.md", pages["tables.md"], "make_tables_page.py")


if __name__ == "__main__":
    junit.main()

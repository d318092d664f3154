"""The README as a newcomer reads it: at most 250 lines; every link in it
and in docs/ leads to a file of the checkout (and an anchor to a heading
of the page); the first query of the SQL shell's door and the extension's
statements answer on the index of a fixture, as the README shows them:
the kills query a row per player with the kills table's counts, gem_state
the heroes' health and mana, gem_value each player's pawn's health as
gem_state has it."""
import os
import re
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402
from gemtest import AUTO, CHECKOUT, RUNFILES, connect, need  # noqa: E402

LINK = re.compile(r"\]\(([^)\s]+)\)")


def read(*path):
    with open(os.path.join(RUNFILES, *path), encoding="utf-8") as f:
        return f.read()


def anchors(text):
    """GitHub's anchors of a page's headings."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


class Readme(unittest.TestCase):
    def test_the_readme_is_a_front_door_of_at_most_250_lines(self):
        lines = read("README.md").count("\n")
        self.assertLessEqual(lines, 250)
        self.assertGreater(lines, 50)  # not vacuous: the README is there

    def test_every_link_of_the_readme_and_the_docs_leads_somewhere(self):
        pages = {"README.md": read("README.md")}
        for name in sorted(os.listdir(os.path.join(RUNFILES, "docs"))):
            if name.endswith(".md"):
                pages["docs/" + name] = read("docs", name)
        self.assertGreaterEqual(len(pages), 20)
        checked, bad = 0, []
        for page, text in pages.items():
            for target in LINK.findall(text):
                if re.match(r"[a-z]+://", target):
                    continue
                path, _, anchor = target.partition("#")
                where = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path \
                    else page
                checked += 1
                if not os.path.exists(os.path.join(CHECKOUT, where)):
                    bad.append("%s: %s (no %s)" % (page, target, where))
                elif anchor and where.endswith(".md"):
                    with open(os.path.join(CHECKOUT, where), encoding="utf-8") as f:
                        if anchor not in anchors(f.read()):
                            bad.append("%s: %s (no heading #%s)" % (page, target, anchor))
        self.assertGreater(checked, 100)
        self.assertEqual(bad, [], "\n".join(bad[:20]))

    def test_the_doors_first_queries_answer_on_a_fixture(self):
        readme = read("README.md")
        # The SQL shell's door: the statement in quotes after sqlite3.
        shell = re.search(r'sqlite3 -column -header match\.db "(.*?)"', readme, re.S).group(1)
        # The extension's door: each sqlite> statement, with its ...> lines.
        session = re.search(r"sqlite> \.load \./bazel-bin/sqlext/libgem\n(.*?)\n\n", readme,
                            re.S).group(1)
        statements = [s.strip() for s in re.sub(r"\n\s*\.\.\.>", " ",
                                                session).split("sqlite>") if s.strip()]
        self.assertEqual(len(statements), 2, statements)
        db = need(AUTO)
        # Run as the README runs it: the sqlite3 shell, then the extension.
        got = subprocess.run(["sqlite3", "-separator", "|", db, shell], capture_output=True,
                             text=True, timeout=60)
        self.assertEqual(got.returncode, 0, got.stderr)
        rows = [line.split("|") for line in got.stdout.splitlines()]
        con = connect(db)
        players = con.execute("SELECT name, hero, slot FROM players ORDER BY slot").fetchall()
        self.assertEqual(len(rows), len(players))
        for (name, hero, kills, deaths), (pname, phero, slot) in zip(rows, players):
            self.assertEqual((name, hero), (pname, phero))
            self.assertEqual(int(kills), con.execute("SELECT count(*) FROM kills WHERE killer = ?",
                                                     (slot,)).fetchone()[0])
            self.assertEqual(int(deaths), con.execute("SELECT count(*) FROM kills WHERE victim "
                                                      "= ?", (slot,)).fetchone()[0])
        state = con.execute(statements[0].rstrip(";")).fetchall()
        self.assertEqual({f for _, _, f, _ in state}, {"m_iHealth", "m_flMana"})
        self.assertTrue(all(c.startswith("CDOTA_Unit_Hero_") for _, c, _, _ in state))
        health = dict((e, v) for e, _, f, v in state if f == "m_iHealth")
        values = con.execute(statements[1].rstrip(";")).fetchall()
        pawns = [p for (p,) in con.execute("SELECT pawn FROM players")]
        self.assertEqual([v for (v,) in values], [health.get(p) for p in pawns])
        self.assertGreater(sum(v is not None for (v,) in values), 5)


if __name__ == "__main__":
    junit.main()

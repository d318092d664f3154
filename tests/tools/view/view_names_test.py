"""gem-names' table and docs/names.md's queries over it (no browser): the
names the test reads from dotaconstants, cs2_weapons.json and
deadlock_names.json, joined to an index's own spellings."""
import os
import re
import sqlite3
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from gemtest import AUTO, CHECKOUT, FIXTURES, TMP, connect, synthetic_index  # noqa: E402
from view_names import DOTACONSTANTS, VIEW, _json, check_name, dota_names  # noqa: E402
from view_page_test import cs2_index, deadlock_index  # noqa: E402


class NamesTable(unittest.TestCase):
    """gem-names' table, and docs/names.md's queries over it: the names the
    test reads from dotaconstants, cs2_weapons.json and deadlock_names.json,
    joined to an index's own spellings."""

    def write(self):
        if not os.path.isfile(os.path.join(DOTACONSTANTS, "heroes.json")):
            self.skipTest("SKIPPED: tools/view/node_modules is missing (tools/setup.sh runs "
                          "npm ci)")
        out = os.path.join(TMP, "names.db")
        run = subprocess.run(["/usr/bin/python3", os.path.join(VIEW, "gem-names"), out],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        return out

    def docs_queries(self, game):
        """docs/names.md's SQL blocks for `game` (their first line names it)."""
        with open(os.path.join(CHECKOUT, "docs", "names.md"), encoding="utf-8") as f:
            blocks = re.findall(r"```sql\n(.*?)```", f.read(), re.S)
        found = [b for b in blocks if b.startswith("-- %s:" % game)]
        self.assertTrue(found, game)
        return found

    def run_docs(self, index, names_db, block):
        """The block's statements on the index, its ATTACH pointed at
        names_db: the last statement's rows."""
        con = connect(index)
        statements = [t for t in block.split(";\n") if t.strip()]
        for t in statements[:-1]:
            con.execute(t.replace("'names.db'", "'%s'" % names_db))
        return con.execute(statements[-1]).fetchall()

    def test_the_table(self):
        out = self.write()
        con = sqlite3.connect(out)
        sql = con.execute("SELECT sql FROM sqlite_schema WHERE name = 'names'").fetchone()[0]
        self.assertIn("PRIMARY KEY (game, kind, name)", sql)
        rows = {(g, k, n): d for g, k, n, d in con.execute("SELECT * FROM names")}
        self.assertTrue(all(d for d in rows.values()), "no blank")
        names = dota_names()
        for kind in ("hero", "item", "ability"):
            for name, source in names[kind].items():
                if "{" not in source and "\\" not in source:
                    self.assertEqual(rows[("dota2", kind, name)], " ".join(source.split()))
        for (game, kind, name), shown in rows.items():
            self.assertNotIn("special_bonus_", shown)
            if game == "dota2":
                check_name(self, shown, name, names[kind])
        weapons = _json(os.path.join(VIEW, "cs2_weapons.json"))["weapons"]
        self.assertEqual({n: d for (g, k, n), d in rows.items() if g == "cs2"}, weapons)
        local = _json(os.path.join(VIEW, "deadlock_names.json"))
        for kind, key in (("hero", "heroes"), ("item", "items")):
            self.assertEqual({n: d for (g, k, n), d in rows.items()
                              if g == "deadlock" and k == kind}, local[key])
        # Written again: the table replaced, not doubled.
        self.assertEqual(self.write(), out)
        self.assertEqual(sqlite3.connect(out).execute("SELECT count(*) FROM names")
                         .fetchone()[0], len(rows))

    def test_refuses_a_gem_index(self):
        path = synthetic_index(12, 11)
        if path is None:
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
        run = subprocess.run(["/usr/bin/python3", os.path.join(VIEW, "gem-names"), path],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 64, run.stderr)
        self.assertIsNone(connect(path).execute(
            "SELECT name FROM sqlite_schema WHERE name = 'names'").fetchone())

    def test_the_docs_queries_on_dota(self):
        path = synthetic_index(12, 11)
        if path is None:
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
        out, names, con = self.write(), dota_names(), connect(path)
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        purchases, points = self.docs_queries("Dota 2")
        rows = self.run_docs(path, out, purchases)
        want = con.execute("SELECT slot, game_time, item FROM purchases ORDER BY slot, tick, "
                           "id").fetchall()
        self.assertEqual(len(rows), len(want))
        self.assertTrue(rows)
        for (slot, hero, game_time, item), w in zip(rows, want):
            self.assertEqual((slot, game_time), w[:2])
            check_name(self, hero, heroes[slot], names["hero"])
            check_name(self, item, w[2], names["item"])
        rows = self.run_docs(path, out, points)
        talents = 0
        for slot, game_time, ability, level in rows:
            self.assertNotIn("special_bonus_", ability)
            talents += ability.startswith("+") or ability.startswith("-")
        self.assertGreater(len(rows), 20)
        self.assertGreater(talents, 0)

    def test_the_docs_queries_on_cs2_and_deadlock(self):
        out = self.write()
        weapons = _json(os.path.join(VIEW, "cs2_weapons.json"))["weapons"]
        path = cs2_index(self)
        (block,) = self.docs_queries("CS2")
        rows = self.run_docs(path, out, block)
        want = connect(path).execute(
            "SELECT killer, weapon, count(*) AS n FROM enemy_kills WHERE killer IS NOT NULL "
            "GROUP BY killer, weapon ORDER BY killer, n DESC").fetchall()
        self.assertEqual(sorted(rows), sorted((s, weapons.get(w, w), n) for s, w, n in want))
        self.assertTrue(rows)
        path = deadlock_index(self)
        (block,) = self.docs_queries("Deadlock")
        local = _json(os.path.join(VIEW, "deadlock_names.json"))
        for slot, hero, item in self.run_docs(path, out, block):
            internal = connect(path).execute("SELECT hero FROM players WHERE slot = ?",
                                             (slot,)).fetchone()[0]
            self.assertEqual(hero, local["heroes"].get(internal, internal))
            self.assertTrue(item is None or item in local["items"].values() or
                            not item.startswith("upgrade_"), item)


if __name__ == "__main__":
    junit.main()

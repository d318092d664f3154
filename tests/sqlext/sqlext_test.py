"""The gem SQLite extension through the real sqlite3 shell and Python's
sqlite3 module (/usr/bin/python3): loading, the functions it registers,
gem_state against the golden snapshots and against gem-dump, agreement of
gem_value / gem_changes / gem_state, pushdown, errors, attached indexes."""
import gzip
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, FIXTURES, GEM_DUMP, GEM_INDEX, GOLDEN, LIB, NEKIT,  # noqa: E402
                     TMP, connect, need, docs_sql)


def counters(con):
    return json.loads(con.execute("SELECT gem_debug()").fetchone()[0])["counters"]


def same(golden, ours):
    """A golden JSON value against an SQL value from the extension."""
    if golden is None:
        return ours is None
    if isinstance(golden, bool):
        return ours == int(golden)
    if isinstance(golden, list):
        try:
            ours = json.loads(ours)
        except (TypeError, ValueError):
            return False
        return len(golden) == len(ours) and all(same(g, o) for g, o in zip(golden, ours))
    if isinstance(golden, float) or isinstance(ours, float):
        if ours is None:
            return False
        g, o = float(golden), float(ours)
        # Relative 1e-5; quantized floats near zero differ by one rounding
        # of a term as large as their range (see golden_state_test.cc).
        return g == o or abs(g - o) <= 1e-5 * max(abs(g), abs(o)) or abs(g - o) <= 1e-5
    if isinstance(golden, int):
        return ours == golden or (ours is not None and ours < 0 and ours + 2**64 == golden)
    return golden == ours


class Loading(unittest.TestCase):
    EXPECTED_FUNCTIONS = {("gem_debug", 0), ("gem_help", 0), ("gem_keyframe_cache", 0),
                          ("gem_keyframe_cache", 1),
                          ("gem_position", 2), ("gem_position", 3), ("gem_value", 3),
                          ("gem_value", 4), ("gem_version", 0)}
    EXPECTED_MODULES = {"gem_changes", "gem_sample", "gem_state"}

    def test_sqlite3_shell_loads_and_lists_exactly_our_functions(self):
        out = subprocess.run(
            ["sqlite3", ":memory:", ".load " + LIB[:-3],
             "SELECT gem_version();",
             "SELECT name, narg FROM pragma_function_list WHERE name LIKE 'gem%' ORDER BY 1, 2;",
             "SELECT name FROM pragma_module_list WHERE name LIKE 'gem%' ORDER BY 1;"],
            capture_output=True, text=True, check=True).stdout.split()
        self.assertRegex(out[0], r"^\d+\.\d+\.\d+$")
        n = len(self.EXPECTED_FUNCTIONS)
        functions = {(x.split("|")[0], int(x.split("|")[1])) for x in out[1:1 + n]}
        self.assertEqual(functions, self.EXPECTED_FUNCTIONS)
        self.assertEqual(set(out[1 + n:]), self.EXPECTED_MODULES)

    def test_python_loads_and_lists_exactly_our_functions(self):
        con = connect()
        version = con.execute("SELECT gem_version()").fetchone()[0]
        self.assertRegex(version, r"^\d+\.\d+\.\d+$")
        functions = set(con.execute(
            "SELECT name, narg FROM pragma_function_list WHERE name LIKE 'gem%'").fetchall())
        self.assertEqual(functions, self.EXPECTED_FUNCTIONS)
        modules = {r[0] for r in con.execute(
            "SELECT name FROM pragma_module_list WHERE name LIKE 'gem%'")}
        self.assertEqual(modules, self.EXPECTED_MODULES)
        debug = json.loads(con.execute("SELECT gem_debug()").fetchone()[0])
        self.assertEqual(debug["version"], version)
        self.assertEqual(debug["schema_version"], 9)
        self.assertEqual(debug["sqlite"], sqlite3.sqlite_version)
        # Nothing it cannot know for sure (a build date reads "redacted"
        # under Bazel's reproducible builds).
        self.assertEqual(set(debug), {"version", "schema_version", "sqlite",
                                      "keyframe_cache_bytes", "counters"})
        self.assertEqual(debug["keyframe_cache_bytes"], 0)  # no index read yet
        # gem_help describes each function and table once, by the name SQLite has.
        help_ = json.loads(con.execute("SELECT gem_help()").fetchone()[0])
        self.assertEqual(sorted(d["name"] for d in help_),
                         sorted({n for n, _ in self.EXPECTED_FUNCTIONS} | self.EXPECTED_MODULES))
        for d in help_:
            self.assertTrue(d["call"].startswith(d["name"]), d)
            self.assertGreater(len(d["what"]), 10, d)

    def test_index_opens_without_the_extension(self):
        path = need(NEKIT)
        out = subprocess.run(
            ["sqlite3", path, "PRAGMA integrity_check;",
             "SELECT count(*) FROM sqlite_schema WHERE sql LIKE '%VIRTUAL TABLE%';"],
            capture_output=True, text=True, check=True).stdout.split()
        self.assertEqual(out, ["ok", "0"])


class OneVersion(unittest.TestCase):
    """gem-index --version, what gem-index writes into an index and what the
    extension says of itself come from one definition each."""

    def test_cli_meta_and_extension_agree(self):
        out = subprocess.run([GEM_INDEX, "--version"], capture_output=True, text=True,
                             check=True).stdout.strip()
        m = re.fullmatch(r"gem-index (\S+) \(index schema (\d+)\)", out)
        self.assertIsNotNone(m, out)
        version, schema = m.group(1), int(m.group(2))
        con = connect(need(NEKIT))
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.assertEqual(meta["indexer_version"], version)
        self.assertEqual(int(meta["schema_version"]), schema)
        self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], schema)
        self.assertEqual(con.execute("SELECT gem_version()").fetchone()[0], version)
        debug = json.loads(con.execute("SELECT gem_debug()").fetchone()[0])
        self.assertEqual((debug["version"], debug["schema_version"]), (version, schema))


class Golden(unittest.TestCase):
    def test_gem_state_equals_every_nekit_golden_snapshot(self):
        path = need(NEKIT)
        con = connect(path)
        last_tick = int(con.execute("SELECT value FROM meta WHERE key='last_tick'").fetchone()[0])
        golden = [json.loads(line) for line in gzip.open(
            os.path.join(GOLDEN, NEKIT, "entities_snapshots.jsonl.gz"), "rt")]
        by_tick = {}
        for g in golden:
            tick = last_tick if g["req_tick"] == 4294967295 else g["tick"]
            by_tick.setdefault(tick, []).append(g)
        compared = bad = 0
        report = []
        for tick, entities in by_tick.items():
            rows = {}
            for ent_index, serial, cls, path_, value in con.execute(
                    "SELECT ent_index, serial, class, path, value FROM gem_state(?)", (tick,)):
                rows[(ent_index, serial, path_)] = value
            live = {(i, s) for (i, s, _) in rows}
            self.assertEqual(live, {(g["index"], g["serial"]) for g in entities}, tick)
            for g in entities:
                for f in g["fields"]:
                    compared += 1
                    ours = rows.get((g["index"], g["serial"], f["path"]))
                    if not same(f["v"], ours):
                        bad += 1
                        if len(report) < 10:
                            report.append("tick %d %s %s: golden %r ours %r" % (
                                tick, g["class"], f["name"], f["v"], ours))
        self.assertEqual(compared, 49202)
        self.assertEqual(bad, 0, "\n".join(report))
        print("gem_state: %d golden values equal" % compared)

    def test_gem_state_equals_gem_dump_on_auto(self):
        path = need(AUTO)
        replay = os.path.join(FIXTURES, AUTO + ".dem")
        dump = subprocess.run([GEM_DUMP, "state", "--ticks", "1,100,300,600", replay],
                              capture_output=True, text=True, check=True).stdout
        con = connect(path)
        last_tick = int(con.execute("SELECT value FROM meta WHERE key='last_tick'").fetchone()[0])
        snapshots = {}
        for line in dump.splitlines():
            e = json.loads(line)
            tick = last_tick if e["req_tick"] == 4294967295 else e["tick"]
            snapshots.setdefault(tick, []).append(e)
        compared = bad = 0
        report = []
        for tick, entities in snapshots.items():
            rows = {}
            for ent_index, serial, path_, value in con.execute(
                    "SELECT ent_index, serial, path, value FROM gem_state(?)", (tick,)):
                rows[(ent_index, serial, path_)] = value
            for e in entities:
                for f in e["fields"]:
                    compared += 1
                    ours = rows.get((e["index"], e["serial"], f["path"]))
                    if not same(f["v"], ours):
                        bad += 1
                        if len(report) < 10:
                            report.append("tick %d %s %s: dump %r gem_state %r" % (
                                tick, e["class"], f["name"], f["v"], ours))
        self.assertGreater(compared, 100000)
        self.assertEqual(bad, 0, "\n".join(report))
        print("auto: %d gem-dump values equal in gem_state" % compared)


class Agreement(unittest.TestCase):
    def test_gem_value_and_gem_changes_agree_with_gem_state(self):
        path = need(NEKIT)
        con = connect(path)
        rng = random.Random(5)
        checked = 0
        for tick in (14, 600, 1799):
            rows = con.execute("SELECT entity, field, value FROM gem_state(?)", (tick,)).fetchall()
            for entity, field, value in rng.sample(rows, 200):
                v = con.execute("SELECT gem_value(?, ?, ?)", (entity, field, tick)).fetchone()[0]
                self.assertEqual(v, value, (entity, field, tick))
                last = con.execute(
                    "SELECT value FROM gem_changes WHERE entity = ? AND field = ? AND tick <= ? "
                    "ORDER BY tick DESC LIMIT 1", (entity, field, tick)).fetchone()
                self.assertIsNotNone(last, (entity, field, tick))
                self.assertEqual(last[0], value, (entity, field, tick))
                checked += 1
        self.assertEqual(checked, 600)

    def test_changes_come_in_tick_order_within_a_field(self):
        path = need(AUTO)
        con = connect(path)
        hero = con.execute("SELECT entity FROM entities JOIN classes USING(class_id) "
                           "WHERE name = 'CDOTA_Unit_Hero_Axe'").fetchone()[0]
        rows = con.execute("SELECT field, tick FROM gem_changes WHERE entity = ?",
                           (hero,)).fetchall()
        self.assertGreater(len(rows), 100)
        last = {}
        for field, tick in rows:
            self.assertGreaterEqual(tick, last.get(field, -10))
            last[field] = tick
        ranged = con.execute(
            "SELECT count(*), min(tick), max(tick) FROM gem_changes WHERE entity = ? AND "
            "field = 'CBodyComponent.m_vecX' AND tick BETWEEN 100 AND 300", (hero,)).fetchone()
        full = [t for f, t in rows if f == "CBodyComponent.m_vecX" and 100 <= t <= 300]
        self.assertEqual(ranged[0], len(full))
        self.assertGreaterEqual(ranged[1], 100)
        self.assertLessEqual(ranged[2], 300)
        # Every form of tick bound (strict, real, beyond int64) pushed down
        # gives what filtering all the rows gives.
        ticks = sorted(t for f, t in rows if f == "CBodyComponent.m_vecX")
        bounds = [("tick > ?", 150, lambda t: t > 150), ("tick >= ?", 150.5, lambda t: t >= 150.5),
                  ("tick > ?", 150.0, lambda t: t > 150), ("tick < ?", 250, lambda t: t < 250),
                  ("tick <= ?", 249.5, lambda t: t <= 249.5), ("tick < ?", -0.5, lambda t: t < -0.5),
                  ("tick > ?", 1e30, lambda t: False), ("tick < ?", 1e30, lambda t: True),
                  ("tick >= ?", -1e30, lambda t: True), ("tick < ?", -9223372036854775808,
                                                          lambda t: False)]
        for where, x, keep in bounds:
            got = [r[0] for r in con.execute(
                "SELECT tick FROM gem_changes WHERE entity = ? AND "
                "field = 'CBodyComponent.m_vecX' AND " + where, (hero, x))]
            self.assertEqual(got, [t for t in ticks if keep(t)], "%s with %r" % (where, x))

    def test_values_are_typed(self):
        path = need(NEKIT)
        con = connect(path)
        types = dict(con.execute(
            "SELECT type, typeof(value) FROM gem_state(600) WHERE type IN "
            "('int32', 'float32', 'CUtlSymbolLarge', 'Vector', 'bool', 'QAngle') GROUP BY 1"))
        self.assertEqual(types["int32"], "integer")
        self.assertEqual(types["float32"], "real")
        self.assertEqual(types["CUtlSymbolLarge"], "text")
        self.assertEqual(types["bool"], "integer")
        vector = con.execute("SELECT value FROM gem_state(600) WHERE type = 'Vector' "
                             "LIMIT 1").fetchone()[0]
        self.assertEqual(len(json.loads(vector)), 3)
        steam = con.execute("SELECT value FROM gem_state(600) WHERE field = "
                            "'m_vecPlayerData.0001.m_iPlayerSteamID'").fetchone()[0]
        self.assertEqual(steam, 76561198043439070)
        self.assertIsNone(con.execute("SELECT gem_value(1, 'no_such_field', 600)").fetchone()[0])
        self.assertIsNone(con.execute("SELECT gem_value(999999, 'x', 600)").fetchone()[0])


class Pushdown(unittest.TestCase):
    def test_one_entity_one_field_reads_only_that_field(self):
        path = need(AUTO)
        con = connect(path)
        hero = con.execute("SELECT entity FROM entities JOIN classes USING(class_id) "
                           "WHERE name = 'CDOTA_Unit_Hero_Axe'").fetchone()[0]
        before = counters(con)
        rows = con.execute("SELECT value FROM gem_state WHERE tick = 600 AND entity = ? AND "
                           "field = 'm_iHealth'", (hero,)).fetchall()
        after = counters(con)
        self.assertEqual(len(rows), 1)
        # One row of the entity (its block read once), at most one run.
        self.assertEqual(after["keyframes_read"] - before["keyframes_read"], 1)
        self.assertLessEqual(after["keyframe_blocks_read"] - before["keyframe_blocks_read"], 1)
        self.assertLessEqual(after["chunks_read"] - before["chunks_read"], 1)
        before = counters(con)
        con.execute("SELECT gem_value(?, 'm_iHealth', 600)", (hero,)).fetchone()
        after = counters(con)
        self.assertEqual(after["keyframes_read"] - before["keyframes_read"], 1)
        self.assertEqual(after["keyframe_blocks_read"] - before["keyframe_blocks_read"], 0,
                         "the block read above is kept")
        # The history of one field reads that field's runs and no other:
        # the fields' histories one by one read, together, what all of them
        # read at once, and the busiest field reads some.
        names = [n for (n,) in con.execute(
            "SELECT DISTINCT field FROM gem_changes WHERE entity = ?", (hero,))]
        before = counters(con)
        con.execute("SELECT count(*) FROM gem_changes WHERE entity = ?", (hero,)).fetchone()
        whole = counters(con)["chunks_read"] - before["chunks_read"]
        each = {}
        for name in names:
            before = counters(con)
            con.execute("SELECT count(*) FROM gem_changes WHERE entity = ? AND field = ?",
                        (hero, name)).fetchone()
            each[name] = counters(con)["chunks_read"] - before["chunks_read"]
        self.assertEqual(sum(each.values()), whole)
        self.assertGreater(each["CBodyComponent.m_vecX"], 0)
        self.assertLess(each["CBodyComponent.m_vecX"], whole)

    def test_every_field_history_walks_each_creation_state_once(self):
        # gem_changes over every field of entities created in the range asks
        # each field's creation value in turn: the state is read through
        # once per entity, not once per field (which made the walk
        # quadratic in the fields). The rows are those of each field's own
        # history, asked one field at a time.
        con = connect(need(AUTO))
        created = con.execute(
            "SELECT e.entity FROM entities e JOIN entity_states s USING(entity) "
            "WHERE e.created_tick BETWEEN 100 AND 800 ORDER BY e.entity LIMIT 5").fetchall()
        entities = [e for (e,) in created]
        self.assertEqual(len(entities), 5)
        marks = ",".join("?" * len(entities))
        before = counters(con)
        rows = con.execute(
            f"SELECT entity, field, tick, value FROM gem_changes WHERE entity IN ({marks}) "
            "AND tick BETWEEN 100 AND 800 ORDER BY entity, field, tick", entities).fetchall()
        after = counters(con)
        self.assertLessEqual(after["state_walks"] - before["state_walks"], len(entities))
        fields = {(e, f) for e, f, _, _ in rows}
        self.assertGreater(len(fields), 10 * len(entities))
        one_by_one = []
        for e, f in sorted(fields):
            one_by_one += con.execute(
                "SELECT entity, field, tick, value FROM gem_changes WHERE entity = ? AND "
                "field = ? AND tick BETWEEN 100 AND 800 ORDER BY tick", (e, f)).fetchall()
        self.assertEqual(sorted(rows, key=repr), sorted(one_by_one, key=repr))

    def test_plans_say_what_they_take(self):
        con = connect(need(NEKIT))
        plan = " ".join(r[3] for r in con.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM gem_state WHERE tick = 5 AND entity = 3 AND "
            "field = 'm_iHealth'"))
        # idxNum bits: tick(1) + entity(32) + field(256)
        self.assertIn("INDEX 289", plan)
        plan = " ".join(r[3] for r in con.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM gem_changes WHERE entity IN (1, 2) AND "
            "tick BETWEEN 10 AND 20"))
        # lo(2) + hi(8) + entity(32) + entity IN(64)
        self.assertIn("INDEX 106", plan)


class ReadmeQueries(unittest.TestCase):
    def test_every_readme_field_query_runs_and_answers(self):
        """The docs' ```sql blocks of its extension section, run on the
        auto fixture's index (match_layer_test runs the ones before; the
        corpus's run in corpus_benchmarks_test)."""
        path = need(AUTO)
        blocks = docs_sql("querying.md", "## Querying: the gem SQLite extension")
        self.assertEqual(len(blocks), 6)
        con = connect(path)
        results = [con.execute(sql).fetchall() for sql in blocks]
        for sql, rows in zip(blocks, results):
            self.assertTrue(rows, sql)
        health, positions, kills, log, history, mana = results
        self.assertEqual(len(health), 10)
        self.assertTrue(all(isinstance(h, int) and h > 0 for _, h in health))
        self.assertEqual(len(positions), 27)
        self.assertTrue(all(abs(x) < 16384 and abs(y) < 16384 for _, x, y in positions))
        self.assertEqual(len({(x, y) for _, x, y in positions}) > 1, True)  # the hero moves
        self.assertEqual(len(kills), 10)
        self.assertTrue(all(r[2] == 0 for r in kills))  # 27 seconds: nobody died
        self.assertEqual(kills[0][1], "\U0001F479")    # slot 0's player name (an emoji)
        self.assertTrue(all("kunkka" in (r[2] + r[3]) for r in log))
        self.assertTrue(all(isinstance(h, int) for _, h in history))
        # Ten heroes at each of ticks 0, 150, ..., 750: the values gem_value gives.
        self.assertEqual(sorted({t for t, _, _ in mana}), list(range(0, 812, 150)))
        self.assertEqual(len(mana), 10 * 6)
        for tick, hero, value in mana:
            self.assertEqual(value, con.execute(
                "SELECT gem_value(e.entity, 'm_flMana', ?) FROM entities e JOIN classes c "
                "USING (class_id) WHERE c.name = ?", (tick, hero)).fetchone()[0])


class Errors(unittest.TestCase):
    def test_missing_tick_says_so(self):
        con = connect(need(NEKIT))
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT * FROM gem_state").fetchall()
        self.assertIn("tick is required", str(e.exception))

    def test_a_keyframe_cache_limit_is_a_whole_number_of_bytes(self):
        con = connect(need(NEKIT))
        for bad in (-1, 1.5, "64", None):
            with self.assertRaises(sqlite3.OperationalError) as e:
                con.execute("SELECT gem_keyframe_cache(?)", (bad,)).fetchall()
            self.assertIn("gem_keyframe_cache: the limit is a whole number of bytes",
                          str(e.exception))
        self.assertEqual(con.execute("SELECT gem_keyframe_cache()").fetchone()[0], 64 << 20)
        self.assertEqual(con.execute("SELECT gem_keyframe_cache(0)").fetchone()[0], 0)
        # Kept for the connection, and keeping nothing reads the same state.
        self.assertEqual(con.execute("SELECT gem_keyframe_cache()").fetchone()[0], 0)
        tick = con.execute("SELECT value FROM meta WHERE key = 'last_tick'").fetchone()[0] // 2
        query = "SELECT entity, field, value FROM gem_state(?)"
        self.assertEqual(con.execute(query, (tick,)).fetchall(),
                         connect(need(NEKIT)).execute(query, (tick,)).fetchall())
        # Not from a view or a trigger: only a statement of the caller's own.
        con.execute("ATTACH ':memory:' AS scratch")
        con.execute("CREATE VIEW scratch.limit_view AS SELECT gem_keyframe_cache(1)")
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT * FROM scratch.limit_view").fetchall()
        self.assertIn("unsafe use of gem_keyframe_cache", str(e.exception))

    def test_a_state_read_keeps_its_row_while_another_lets_blocks_go(self):
        # gem_state walks each entity's keyframe row as it returns the
        # fields. Here a subquery on the same connection, at a tick of
        # another interval, runs in the middle of each entity's fields:
        # with a limit of one byte each of its block reads lets every other
        # block go, the outer one's included, and its decoding and seeks
        # reuse the reader's buffers. The outer rows, strings included, are
        # those of a plain read (under AddressSanitizer: no use after free).
        path = need(NEKIT, "--keyframe-seconds", "2")  # many intervals
        con = connect(path)
        last = con.execute("SELECT value FROM meta WHERE key = 'last_tick'").fetchone()[0]
        interval = con.execute(
            "SELECT value FROM meta WHERE key = 'keyframe_interval'").fetchone()[0]
        tick, other = last // 3, 2 * last // 3
        self.assertGreater(other - tick, interval, "the ticks' blocks differ")
        want = connect(path).execute(
            "SELECT entity, field, value FROM gem_state(?)", (tick,)).fetchall()
        self.assertEqual(con.execute("SELECT gem_keyframe_cache(1)").fetchone()[0], 1)
        before = counters(con)
        got = con.execute(
            "SELECT CASE WHEN s.field = 'm_iTeamNum' THEN "
            "(SELECT count(*) FROM gem_state(?2, s.entity)) END, s.entity, s.field, s.value "
            "FROM gem_state(?1) s",  # (the subquery first: then the row's value is read)
            (tick, other)).fetchall()
        after = counters(con)
        self.assertEqual([r[1:] for r in got], want)
        # (Text values that are not a vector's JSON array: string fields.)
        self.assertTrue(any(isinstance(r[2], str) and not r[2].startswith("[") for r in want),
                        "strings are among them")
        inner = sum(1 for r in got if r[0] is not None)
        self.assertGreater(inner, 10, "the subquery ran for many entities")
        self.assertGreater(after["keyframe_blocks_read"] - before["keyframe_blocks_read"], inner,
                           "blocks were let go and read again while rows were walked")

    def test_not_a_gem_index(self):
        plain = os.path.join(TMP, "plain.db")
        sqlite3.connect(plain).execute("CREATE TABLE IF NOT EXISTS t(x)")
        con = connect(plain)
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT * FROM gem_state(1)").fetchall()
        self.assertIn("not a gem index", str(e.exception))
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT gem_value(1, 'x', 1)").fetchall()
        self.assertIn("not a gem index", str(e.exception))

    def test_other_schema_version(self):
        copy = os.path.join(TMP, "v99.db")
        shutil.copy(need(NEKIT), copy)
        sqlite3.connect(copy).execute("PRAGMA user_version = 99")
        con = connect(copy)
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT * FROM gem_changes LIMIT 1").fetchall()
        self.assertIn("schema version 99", str(e.exception))
        self.assertIn("this extension reads version 9", str(e.exception))
        # An older index is named as such, with what to do.
        sqlite3.connect(copy).execute("PRAGMA user_version = 8")
        with self.assertRaises(sqlite3.OperationalError) as e:
            connect(copy).execute("SELECT * FROM gem_changes LIMIT 1").fetchall()
        self.assertIn("schema version 8; this extension reads version 9: index the replay "
                      "again with this gem-index", str(e.exception))

    def test_a_short_name_several_fields_share_is_refused(self):
        con = connect(need("cs2_demofilenet_14090_cs_italy"))
        pawn, tick = con.execute(
            "SELECT e.entity, max(e.created_tick, 0) FROM entities e JOIN classes c "
            "USING (class_id) WHERE c.name = 'CCSPlayerPawn' LIMIT 1").fetchone()
        names = {n for (n,) in con.execute(
            "SELECT f.name FROM fields f JOIN classes c USING (class_id) "
            "WHERE c.name = 'CCSPlayerPawn' AND f.short_name = 'm_vecZ'")}
        self.assertEqual(names, {"m_vecVelocity.m_vecZ", "m_vecViewOffset.m_vecZ"})
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT gem_value(?, 'm_vecZ', ?)", (pawn, tick)).fetchall()
        self.assertIn("'m_vecZ' is ambiguous in class CCSPlayerPawn", str(e.exception))
        self.assertIn("'m_vecViewOffset.m_vecZ'", str(e.exception))
        # The view offset's height is a standing player's eyes: 64 units.
        self.assertEqual(con.execute("SELECT gem_value(?, 'm_vecViewOffset.m_vecZ', ?)",
                                     (pawn, tick)).fetchone()[0], 64.0)


class Attached(unittest.TestCase):
    def test_an_attached_index_answers_under_its_name(self):
        path = need(NEKIT)
        main = connect(path)
        con = connect()
        con.execute("ATTACH ? AS other", (path,))
        expected = main.execute("SELECT count(*), total(value) FROM gem_state(600) "
                                "WHERE typeof(value) = 'integer'").fetchone()
        got = con.execute("SELECT count(*), total(value) FROM gem_state(600, NULL, 'other') "
                          "WHERE typeof(value) = 'integer'").fetchone()
        self.assertEqual(got, expected)
        got = con.execute("SELECT count(*), total(value) FROM gem_state WHERE tick = 600 AND "
                          "db = 'other' AND typeof(value) = 'integer'").fetchone()
        self.assertEqual(got, expected)
        v = con.execute("SELECT gem_value(1, 'm_flSimulationTime', 600, 'other')").fetchone()[0]
        self.assertEqual(v, main.execute("SELECT gem_value(1, 'm_flSimulationTime', 600)")
                         .fetchone()[0])
        n = con.execute("SELECT count(*) FROM gem_changes WHERE db = 'other' AND entity = 1"
                        ).fetchone()[0]
        self.assertGreater(n, 0)


if __name__ == "__main__":
    junit.main()

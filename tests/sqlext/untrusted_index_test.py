"""The extension over indexes people could send: a copy of a real index
(nekit) damaged one row at a time with plain SQL, then queried through
gem_state, gem_changes, gem_value and gem_sample in /usr/bin/python3. Each
damage must give an SQL error naming the table and the row's key, never a
crash, a hang or an allocation sized by the damaged number; harmless oddities
(a huge class id, a meta fact of the wrong type) must change nothing."""
import itertools
import os
import random
import shutil
import sqlite3
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import NEKIT, TMP, connect, need  # noqa: E402

TICK = 600
_copies = itertools.count()

# Virtual-machine steps a query may take before it counts as hanging (a
# whole gem_state of nekit takes far fewer).
STEP_BUDGET = 50_000_000


# Most cases damage what an entity's history is read from: an index
# without keyframes, where gem_state reads every state that way.
HISTORY = ("--keyframe-seconds", "0")


def damaged_copy(*statements, keyframes=False):
    """A copy of the nekit index (without keyframes, unless `keyframes`)
    with `statements` run on it by plain sqlite3 (no extension)."""
    path = os.path.join(TMP, "damaged-%d.db" % next(_copies))
    shutil.copy(need(NEKIT) if keyframes else need(NEKIT, *HISTORY), path)
    con = sqlite3.connect(path)
    for sql in statements:
        con.execute(sql)
    con.commit()
    con.close()
    return path


def bounded(path):
    """The index with libgem loaded and a step budget: a query that loops
    is interrupted instead of hanging the test."""
    con = connect(path)
    steps = itertools.count()
    con.set_progress_handler(lambda: next(steps) * 1000 > STEP_BUDGET, 1000)
    return con


def one(sql, *args, keyframes=False):
    path = need(NEKIT) if keyframes else need(NEKIT, *HISTORY)
    return sqlite3.connect(path).execute(sql, args).fetchone()


class Damage(unittest.TestCase):
    def assert_error(self, path, sql, args, *parts):
        con = bounded(path)
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute(sql, args).fetchall()
        message = str(e.exception)
        self.assertNotIn("interrupted", message, "the query looped")
        self.assertIn("is damaged", message)
        for part in parts:
            self.assertIn(part, message)

    def busy_field(self):
        """(entity, field name, its first change's tick) of a field alive at
        TICK with more changes than a row keeps: its changes are in runs."""
        con = connect(need(NEKIT, *HISTORY))
        return con.execute(
            "SELECT c.entity, c.field, min(c.tick) FROM gem_changes c JOIN entities e "
            "USING(entity) WHERE e.created_tick <= ? AND (e.deleted_tick IS NULL OR "
            "e.deleted_tick > ?) GROUP BY c.entity, c.field HAVING count(*) > 100 AND "
            "min(c.tick) < ? ORDER BY count(*) DESC LIMIT 1", (TICK, TICK, TICK)).fetchone()

    def test_changes_rows_that_do_not_hold_their_runs(self):
        # Every changes row damaged one way: garbage of its own length; cut
        # short of the runs it holds; gone; not a blob. Each read of a run
        # names the row, the entity and field it was read for, and what is
        # wrong with it.
        entity, name, first = self.busy_field()
        for sql, says in (("UPDATE changes SET data = zeroblob(length(data))",
                           "data does not decode"),
                          ("UPDATE changes SET data = substr(data, 1, 3)",
                           "the run passes the row's end"),
                          ("DELETE FROM changes", "no such row"),
                          ("UPDATE changes SET data = 'text'", "data is not a blob")):
            path = damaged_copy(sql)
            with self.subTest(damage=sql):
                for query, args in (
                        ("SELECT * FROM gem_changes WHERE entity = ? AND field = ?", (entity, name)),
                        ("SELECT gem_value(?, ?, ?)", (entity, name, TICK)),
                        ("SELECT * FROM gem_sample(?, ?, 30, ?)", (first, TICK, entity)),
                        ("SELECT count(*) FROM gem_state(?)", (TICK,))):
                    self.assert_error(path, query, args, "table changes, id ", says)
                self.assert_error(path, "SELECT gem_value(?, ?, ?)", (entity, name, TICK),
                                  "(entity %d field_id " % entity)

    def test_a_creation_state_that_does_not_decode(self):
        entity, = one("SELECT entity FROM entity_states WHERE base IS NULL AND "
                      "entity IN (SELECT entity FROM entities WHERE created_tick <= ?) "
                      "ORDER BY length(data) DESC LIMIT 1", TICK)
        for blob in ("x'ff'", "substr(data, 1, length(data) / 2)"):
            path = damaged_copy("UPDATE entity_states SET data = %s WHERE entity = %d" %
                                (blob, entity))
            self.assert_error(path, "SELECT * FROM gem_state(?, ?)", (TICK, entity),
                              "table entity_states, entity %d: data does not decode" % entity)

    def test_a_state_difference_without_its_base(self):
        entity, = one("SELECT entity FROM entity_states WHERE base IS NOT NULL AND "
                      "entity IN (SELECT entity FROM entities WHERE created_tick <= ?) LIMIT 1",
                      TICK)
        for base, says in (("999999", "base 999999 has no state"),
                           ("'x'", "base 'x' is not an entity"),
                           (str(entity), "base %d is itself a difference" % entity)):
            path = damaged_copy("UPDATE entity_states SET base = %s WHERE entity = %d" %
                                (base, entity))
            self.assert_error(path, "SELECT * FROM gem_state(?, ?)", (TICK, entity),
                              "table entity_states, entity %d: %s" % (entity, says))

    def keyframe_block(self):
        """(entity, keyframe tick, block key) of an entity alive at TICK and
        the largest keyframe block holding its row for TICK."""
        return one("SELECT e.entity, k.tick, k.key FROM keyframes k JOIN entities e "
                   "ON e.entity BETWEEN k.first_entity AND k.last_entity "
                   "WHERE k.tick = (SELECT ? / value * value FROM meta "
                   "WHERE key = 'keyframe_interval') AND e.created_tick <= ? "
                   "AND (e.deleted_tick IS NULL OR e.deleted_tick > ?) "
                   "ORDER BY length(k.data) DESC, e.entity LIMIT 1", TICK, TICK, TICK,
                   keyframes=True)

    def test_a_keyframe_block_that_does_not_decode(self):
        entity, tick, key = self.keyframe_block()
        where = "table keyframes, key %d" % key
        # Garbage; cut short; an unknown flag; an unknown version; a body
        # that does not decompress, or claims more than any block holds
        # (refused before it is allocated), or more than its bytes can
        # expand to; a directory of no rows, or one not starting at the
        # key's entity, or whose rows overrun the body; a last_entity that
        # is not the directory's.
        for blob, last in (("x'ff'", None), ("substr(data, 1, length(data) / 2)", None),
                           ("x'0180'", None), ("x'0201020102'", None),
                           ("x'01010504050102'", None),
                           ("x'010181808008' || zeroblob(64)", None),
                           ("x'010180ade204' || zeroblob(9)", None),
                           ("x'010000'", None), ("x'0100010102' || x'0200'", None),
                           ("x'010001000902' || x'0200'", None), (None, "last_entity + 1")):
            sets = ["data = %s" % blob] if blob else []
            if last:
                sets.append("last_entity = %s" % last)
            path = damaged_copy("UPDATE keyframes SET %s WHERE key = %d" % (", ".join(sets), key),
                                keyframes=True)
            with self.subTest(blob=blob, last=last):
                self.assert_error(path, "SELECT * FROM gem_state(?, ?)", (TICK, entity),
                                  where + ": data does not decode")
                self.assert_error(path, "SELECT count(*) FROM gem_state(?)", (TICK,),
                                  where + ": data does not decode")

    def test_a_keyframe_row_that_does_not_decode(self):
        # A block whose only row, for the entity, is garbage.
        entity, tick, key = self.keyframe_block()
        # Version 1, stored; one row, of the entity, of two bytes: version
        # 2 and flags that are none of the row's.
        path = damaged_copy("UPDATE keyframes SET data = x'010001000202ff', first_entity = %d, "
                            "last_entity = %d, key = (key >> 32 << 32) + %d WHERE key = %d" %
                            (entity, entity, entity, key), keyframes=True)
        self.assert_error(path, "SELECT * FROM gem_state(?, ?)", (TICK, entity),
                          "table keyframes, entity %d tick %d: data does not decode" %
                          (entity, tick))

    def test_a_missing_keyframe_row(self):
        entity, tick, key = self.keyframe_block()
        path = damaged_copy("DELETE FROM keyframes WHERE key = %d" % key, keyframes=True)
        self.assert_error(path, "SELECT * FROM gem_state(?, ?)", (TICK, entity),
                          "table keyframes, entity %d tick %d: no row" % (entity, tick))

    def test_a_field_id_far_past_the_class_fields(self):
        # A class's field list is as long as its rows: a field id of four
        # billion is refused, not allocated for.
        entity, class_id, last, name = one(
            "SELECT e.entity, e.class_id, max(f.field_id), min(f.name) FROM entities e "
            "JOIN fields f USING(class_id) WHERE e.created_tick <= ? GROUP BY e.entity "
            "LIMIT 1", TICK)
        path = damaged_copy("UPDATE class_fields SET field_id = 4000000000 WHERE class_id = %d "
                            "AND field_id = %d" % (class_id, last))
        self.assert_error(path, "SELECT gem_value(?, ?, ?)", (entity, name, TICK),
                          "table fields, class_id %d: field_id 4000000000 where %d was due" %
                          (class_id, last))

    def test_a_field_past_its_class_and_a_name_holding_a_nul_read_as_they_are(self):
        # Harmless oddities: a class whose last field row is gone (that
        # field's value is returned with NULL name columns), and a field
        # name with a NUL in it (returned whole, not cut at the NUL).
        ref = connect(need(NEKIT))
        ref.text_factory = bytes
        entity, class_id, last, first = ref.execute(
            "SELECT s.entity, e.class_id, f.field_id, (SELECT min(field_id) FROM class_fields "
            "WHERE class_id = e.class_id) FROM gem_state(?) s JOIN entities e USING(entity) "
            "JOIN fields f ON f.class_id = e.class_id AND f.name = s.field "
            "WHERE f.field_id = (SELECT max(field_id) FROM class_fields c "
            "WHERE c.class_id = e.class_id) AND f.field_id > 0 LIMIT 1", (TICK,)).fetchone()
        path = damaged_copy(
            "DELETE FROM class_fields WHERE class_id = %d AND field_id = %d" % (class_id, last),
            "UPDATE field_defs SET name = substr(name, 1, 3) || char(0) || substr(name, 4) "
            "WHERE def_id = (SELECT def_id FROM class_fields WHERE class_id = %d AND "
            "field_id = %d)" % (class_id, first), keyframes=True)
        query = "SELECT field, path, type, value FROM gem_state(?, ?)"
        want = ref.execute(query, (TICK, entity)).fetchall()
        names = [n for (n,) in ref.execute("SELECT name FROM fields WHERE class_id = ? "
                                           "ORDER BY field_id", (class_id,))]
        want = [(None, None, None, row[3]) if row[0] == names[last] else
                (row[0][:3] + b"\0" + row[0][3:],) + row[1:] if row[0] == names[first] else row
                for row in want]
        con = bounded(path)
        con.text_factory = bytes
        got = con.execute(query, (TICK, entity)).fetchall()
        self.assertEqual(got, want)
        self.assertIn(b"\0", b"".join(row[0] for row in got if row[0] is not None))
        self.assertTrue(any(row[0] is None for row in got))

    def test_entity_rows_that_are_not_entities(self):
        entity, = one("SELECT max(entity) FROM entities")
        for column, bad, says in (("class_id", "'CFoo'", "class_id is not a class id"),
                                  ("created_tick", "NULL", "created_tick is not a tick"),
                                  ("deleted_tick", "'later'", "deleted_tick is neither"),
                                  ("ent_index", "-1", "ent_index is not an entity index")):
            path = damaged_copy("CREATE TABLE e2 AS SELECT * FROM entities",
                                "UPDATE e2 SET %s = %s WHERE entity = %d" % (column, bad, entity),
                                "DROP TABLE entities", "ALTER TABLE e2 RENAME TO entities")
            self.assert_error(path, "SELECT count(*) FROM gem_state(?)", (TICK,),
                              "table entities, entity %d: %s" % (entity, says))

    def test_a_class_id_that_is_not_a_class_id(self):
        path = damaged_copy("INSERT INTO classes(class_id, name) VALUES(-3, 'CNegative')")
        self.assert_error(path, "SELECT count(*) FROM gem_state(?)", (TICK,),
                          "table classes: class_id -3 is not a class id")


class Garbled(unittest.TestCase):
    def test_pages_overwritten_with_noise(self):
        # Random bytes over pages of the file (a bad disk, a cut download):
        # each query answers or fails with an SQL error; the process lives.
        rng = random.Random(12)
        size = os.path.getsize(need(NEKIT))
        page = 4096
        queries = [("SELECT count(*) FROM gem_state(?)", (TICK,)),
                   ("SELECT count(*) FROM gem_changes WHERE tick <= ?", (TICK,)),
                   ("SELECT count(*) FROM gem_sample(0, ?, 100)", (TICK,)),
                   ("SELECT gem_value(e.entity, f.name, ?) FROM entities e "
                    "JOIN fields f USING(class_id) LIMIT 2000", (TICK,))]
        failed = answered = 0
        for round_ in range(12):
            path = damaged_copy()
            with open(path, "r+b") as f:
                for _ in range(4):
                    # Past the first page: the header is SQLite's own check.
                    at = rng.randrange(1, size // page) * page + rng.randrange(0, page - 64)
                    f.seek(at)
                    f.write(bytes(rng.randrange(256) for _ in range(rng.choice((1, 8, 64)))))
            for sql, args in queries:
                try:
                    bounded(path).execute(sql, args).fetchall()
                    answered += 1
                except sqlite3.DatabaseError as e:
                    self.assertNotIn("interrupted", str(e), "round %d: %s looped" % (round_, sql))
                    failed += 1
        self.assertEqual(answered + failed, 12 * len(queries))
        # The noise is seen: some queries are refused (not all answer as if
        # nothing had happened), and the rest still answer.
        self.assertGreater(failed, 0)
        self.assertGreater(answered, 0)
        print("noise over pages: %d queries answered, %d refused" % (answered, failed))


class Harmless(unittest.TestCase):
    def test_a_huge_class_id_and_a_mistyped_fact_change_nothing(self):
        expected = connect(need(NEKIT)).execute(
            "SELECT count(*), total(typeof(value) = 'integer') FROM gem_state(?)",
            (TICK,)).fetchone()
        path = damaged_copy("INSERT INTO classes(class_id, name) VALUES(2147483647, 'CHuge')",
                            "UPDATE meta SET value = 'soon' WHERE key = 'cell_width'")
        got = bounded(path).execute(
            "SELECT count(*), total(typeof(value) = 'integer') FROM gem_state(?)",
            (TICK,)).fetchone()
        self.assertEqual(got, expected)
        self.assertGreater(got[0], 1000)


if __name__ == "__main__":
    junit.main()

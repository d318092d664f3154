"""What an index says about its replay, whatever its format: every plain
table's rows, every change of every field of every entity (gem_changes)
and every entity's state at chosen ticks (gem_state), read through the
libgem the connection loaded. Used by compare_index.py (two indexes side
by side) and by tests/indexer/format_compat_test.py, which holds an index of
today's format to the digests (64 bits of the sha256 of the canonical rows) an older
format's index gave.

The rows are taken as SQLite gives them (bytes for text, Python's repr
for numbers), sorted where a table has no order of its own: two indexes
that hold the same values give the same rows, byte for byte.
"""
import hashlib
import random

# Bytes of the format itself, not of the replay: read through the
# extension instead, and meta keys that name or describe the format.
FORMAT_TABLES = {"changes", "keyframes", "tail", "sqlite_stat1", "sqlite_sequence"}
FORMAT_META = {"schema_version", "indexer_version", "chunk_format", "state_format",
               "keyframe_format", "max_changes_per_chunk", "max_changes_per_run",
               "run_page_bytes", "keyframe_open_tick"}


def connect(path, lib):
    import sqlite3
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    con.enable_load_extension(True)
    con.load_extension(lib)
    con.text_factory = bytes
    return con


def tables(con):
    """The plain tables, by name."""
    return sorted(n.decode() for (n,) in con.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table'")
        if n.decode() not in FORMAT_TABLES)


def rows(con, table, skip_meta=frozenset(), skip_columns=frozenset(), skip_keys=frozenset()):
    """A table's rows, sorted; meta's but `skip_meta` keys; each row's
    columns but `skip_columns`, in the table's order; rows whose first
    column is one of `skip_keys` left out."""
    if table == "meta":
        return sorted((k, v) for k, v in con.execute("SELECT key, value FROM meta")
                      if k.decode() not in FORMAT_META | set(skip_meta))
    columns = "*"
    if skip_columns:
        columns = ", ".join('"%s"' % r[1].decode() for r in con.execute(
            'PRAGMA table_info("%s")' % table) if r[1].decode() not in skip_columns)
    out = con.execute('SELECT %s FROM "%s"' % (columns, table)).fetchall()
    if skip_keys:
        out = [r for r in out if (r[0].decode() if isinstance(r[0], bytes) else r[0])
               not in skip_keys]
    return sorted(out, key=repr)


def meta_value(con, key):
    row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def ticks_to_check(con, count):
    """Every keyframe tick and its neighbours, the first and last ticks and
    theirs, and `count` random ones seeded by the replay's length (so two
    indexes of one replay check the same ticks)."""
    last = meta_value(con, "last_tick") or 0
    interval = meta_value(con, "keyframe_interval") or 0
    rng = random.Random(last * 31 + interval)
    ticks = {-1, 0, 1, last - 1, last, last + 1}
    if interval:
        for k in range(0, last + 1, interval):
            ticks.update((k - 1, k, k + 1))
    ticks.update(rng.randint(0, max(last, 0)) for _ in range(count))
    return sorted(ticks)


def entity_classes(con):
    """(entity, class name) of every entity, in entity order."""
    return con.execute(
        "SELECT e.entity, c.name FROM entities e JOIN classes c USING (class_id) "
        "ORDER BY e.entity").fetchall()


# Digests keep 64 bits of sha256: enough to tell two sets of rows apart.
DIGEST_HEX = 16

HISTORY = "SELECT field, tick, value FROM gem_changes WHERE entity = ? ORDER BY field, tick"
STATE = "SELECT entity, field, value FROM gem_state(?) ORDER BY entity, field"


def _sha(items):
    h = hashlib.sha256()
    for item in items:
        h.update(repr(item).encode())
        h.update(b"\n")
    return h.hexdigest()[:DIGEST_HEX]


def digest(con, ticks, skip_tables=frozenset(), skip_meta=frozenset(), skip_columns=None,
           skip_keys=None):
    """{"tables": {name: [rows, sha]}, "changes": {class: [changes, sha]},
    "state": {tick: [values, sha]}} of one index (but `skip_tables`, meta's
    `skip_meta` keys, the columns `skip_columns` names by table and the rows
    `skip_keys` names by table and first column)."""
    out = {"tables": {}, "changes": {}, "state": {}}
    for t in tables(con):
        if t in skip_tables:
            continue
        r = rows(con, t, skip_meta, (skip_columns or {}).get(t, frozenset()),
                 (skip_keys or {}).get(t, frozenset()))
        out["tables"][t] = [len(r), _sha(r)]
    by_class = {}  # class: [changes, running sha256]
    for entity, cls in entity_classes(con):
        entry = by_class.setdefault(cls.decode(), [0, hashlib.sha256()])
        entry[1].update(b"entity %d\n" % entity)
        for row in con.execute(HISTORY, (entity,)):
            entry[0] += 1
            entry[1].update(repr(row).encode())
            entry[1].update(b"\n")
    for cls, (count, h) in sorted(by_class.items()):
        out["changes"][cls] = [count, h.hexdigest()[:DIGEST_HEX]]
    for t in ticks:
        values = con.execute(STATE, (t,)).fetchall()
        out["state"][str(t)] = [len(values), _sha(values)]
    return out

"""Heatmaps: counts of rows by square bins of the world, one parameterized
SQL statement per kind (the request's numbers are bound, never written
into the SQL):

    positions  the timeline's samples of players alive, where they stood
    deaths     the kills table's victims, where they fell
    grenades   CS2's grenades, where they went off
    wards      Dota's wards, where they were placed

each over [from_tick, to_tick], of one player (slot) or one team (the
side the row names: the timeline's and wards' team, the victim's, the
thrower's), or everyone. A bin is BIN[game] world units square; bin (i, j)
holds the rows with i = floor(x / BIN), j = floor(y / BIN)."""

BIN = {"dota2": 256, "cs2": 64, "deadlock": 256}
# floor() by integer division of a shifted coordinate: the maps lie within
# +-32768 world units, and SQLite builds without its math functions exist.
SHIFT = 65536

KINDS = {
    "positions": ("timeline t", "t.x", "t.y", "t.tick", "t.slot", "t.team",
                  "t.alive = 1", "timeline"),
    "deaths": ("kills t", "t.x", "t.y", "t.tick", "t.victim",
               "(SELECT p.team FROM players p WHERE p.slot = t.victim)", "1", "kills"),
    "grenades": ("grenades t", "t.x", "t.y", "t.detonate_tick", "t.thrower",
                 "(SELECT e.team FROM economy e WHERE e.slot = t.thrower AND e.round = t.round)",
                 "t.detonate_tick IS NOT NULL", "grenades"),
    "wards": ("wards t", "t.x", "t.y", "t.placed_tick", "t.owner", "t.team", "1", "wards"),
}


# What each game's heatmaps count.
GAMES = {"dota2": ["positions", "deaths", "wards"], "cs2": ["positions", "deaths", "grenades"],
         "deadlock": ["positions", "deaths"]}


def available(match):
    """The kinds this index can draw."""
    return [k for k in GAMES.get(match.facts.get("game") if match.facts else None, [])
            if KINDS[k][7] in match.tables and (k != "grenades" or "economy" in match.tables)]


def heatmap(match, kind, from_tick, to_tick, slot=None, team=None):
    """{kind, bin, bins: [[i, j, count]], rows}: `kind` must be one of
    available(match) (the caller checks)."""
    table, x, y, tick, who, side, alive, _ = KINDS[kind]
    size = BIN.get(match.facts.get("game"), 256)
    where = ["%s IS NOT NULL" % x, "%s IS NOT NULL" % y, alive, "%s BETWEEN ? AND ?" % tick]
    args = [from_tick, to_tick]
    if slot is not None:
        where.append("%s = ?" % who)
        args.append(slot)
    if team is not None:
        where.append("%s = ?" % side)
        args.append(team)
    sql = ("SELECT CAST((%s + %d) / %d AS INTEGER) - %d AS i, "
           "CAST((%s + %d) / %d AS INTEGER) - %d AS j, count(*) FROM %s WHERE %s "
           "GROUP BY i, j ORDER BY i, j" % (x, SHIFT, size, SHIFT // size, y, SHIFT, size,
                                            SHIFT // size, table, " AND ".join(where)))
    bins = [list(r) for r in match.query(sql, args)]
    return {"kind": kind, "bin": size, "bins": bins, "rows": sum(b[2] for b in bins)}

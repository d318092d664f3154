"""The display names one match needs (its facts carry them to the page and
the report): {kind: {internal name: display name}} for every hero, item,
ability or weapon its tables name, and nothing else, so that a report
holds a few kilobytes of names, not every name of the game.

Which columns are read, per game (a table the index lacks is skipped):
Dota's players.hero and draft.hero, inventory.item and purchases.item,
abilities.ability; Deadlock's players.hero, inventory.item and
purchases.item (its own `heroes` table names its heroes before
deadlock_names.json does); CS2's kills.weapon. A name no table knows maps
to itself (names.py's rule), so the page never shows a blank."""
from . import names

COLUMNS = {
    "dota2": [("hero", "players", "hero"), ("hero", "draft", "hero"),
              ("item", "inventory", "item"), ("item", "purchases", "item"),
              ("ability", "abilities", "ability")],
    "deadlock": [("hero", "players", "hero"), ("item", "inventory", "item"),
                 ("item", "purchases", "item")],
    "cs2": [("weapon", "kills", "weapon")],
}


def of_match(query, tables, game):
    """`query(sql)` -> rows; `tables`: the index's table and view names."""
    table = names.shared()
    out = {}
    for kind, source, column in COLUMNS.get(game, []):
        if source not in tables:
            continue
        # Fixed table and column names (COLUMNS), never a request's.
        for (name,) in query("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL" %
                             (column, source, column)):
            out.setdefault(kind, {})[name] = table.display(game, kind, name)
    if game == "deadlock" and "heroes" in tables:
        # The engine's own names (core/deadlock/hero_names.cc) of this
        # match's heroes.
        for internal, name in query("SELECT internal_name, name FROM heroes WHERE "
                                    "internal_name IS NOT NULL AND name IS NOT NULL"):
            if internal in out.get("hero", {}):
                out["hero"][internal] = name
    return out

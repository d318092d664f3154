"""The names a player reads for the game's internal ones: Dota's heroes,
items, abilities and talents, Deadlock's heroes and items, CS2's weapons.
gem-view shows them and gem-names writes them as an SQL table; both read
them here, from data in the checkout and nothing fetched at run time:

- Dota 2: OpenDota's dotaconstants (npm, MIT; pinned in package-lock.json,
  installed by tools/setup.sh into node_modules/dotaconstants), its data
  only: build/heroes.json (`name` -> `localized_name`), build/items.json
  (key, without the index's `item_` prefix -> `dname`), build/abilities.json
  (key -> `dname`; a talent's `{s:...}` placeholders are filled from the
  entry's own `attrib` values when it has them, else taken out).
- Deadlock: deadlock_names.json beside gem-view (its source is named in
  it); a match's own `heroes` table names its heroes first (source.py).
- CS2: cs2_weapons.json beside gem-view (its source named in it).

    names = Names()
    names.display("dota2", "item", "item_magic_wand")  -> "Magic Wand"

The contract: display() never returns a blank, and a name it does not know
is returned as it is, except a Dota talent (`special_bonus_...`), which a
reader never sees as such: it reads "Talent: ..." with the rest of its name.
`name` is spelled as the index's tables spell it (players.hero
`npc_dota_hero_axe`, purchases.item `item_blink`, abilities.ability,
kills.weapon `ak47`)."""
import json
import os
import re

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOTACONSTANTS = os.path.join(HERE, "node_modules", "dotaconstants", "build")
KINDS = {"dota2": ("hero", "item", "ability"), "deadlock": ("hero", "item"),
         "cs2": ("weapon",)}
TALENT = "special_bonus_"
# A placeholder with the sign before it and the unit after it
# ("+{s:bonus_duration}s"): when there is no value, the sign stays (it says
# which way the talent goes) and the rest goes.
PLACEHOLDER = re.compile(r"([+-]?)\{s:([^}]*)\}([%sx]?)")
HOLE = "\x00"


def _load(path, missing):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        # Not installed (npm ci not run): every name reads as it is, and
        # `missing` says which file was not read.
        missing.append(path)
        return {}


def _attribute(entry, key):
    """The value of attribute `key` of a dotaconstants entry (its `attrib`
    list; a talent's placeholder may name it with or without `bonus_`),
    or None."""
    for a in entry.get("attrib") or []:
        if a.get("key") in (key, key[6:] if key.startswith("bonus_") else None):
            value = a.get("value")
            if isinstance(value, list):
                value = "/".join(str(v) for v in value)
            return None if value in (None, "") else str(value)
    return None


def fill(dname, entry=None):
    """A dname with its placeholders filled from `entry` where it can be,
    else taken out: "+{s:bonus_x}% Gush Slow" reads "+Gush Slow"."""
    entry = entry or {}

    def one(m):
        value = _attribute(entry, m.group(2))
        # HOLE marks where a value was taken out, for the tidying below.
        return m.group(1) + (value + m.group(3) if value is not None else HOLE)

    text = PLACEHOLDER.sub(one, dname.replace("\\n", " "))
    text = re.sub(HOLE + r"/[+-]?" + HOLE, HOLE, text)  # "-{a}%/{b}": one place
    text = re.sub(r"\s*[+-]?" + HOLE + r"$", "", text)  # "... By +{s:x}s": no sign left
    text = re.sub(HOLE + r"\s*", "", text)  # the sign to the word after it
    return re.sub(r"\s+", " ", text).strip()


def talent_words(name):
    """A talent dotaconstants does not name: its internal name in words."""
    words = name[len(TALENT):]
    words = words[len("unique_"):] if words.startswith("unique_") else words
    return "Talent: " + (words.replace("_", " ").strip() or "unnamed")


class Names:
    """Every display name, by game, kind and internal name (loaded once)."""

    def __init__(self, folder=HERE, dotaconstants=DOTACONSTANTS):
        self.tables = {}
        self.missing = []  # the files that could not be read
        heroes = _load(os.path.join(dotaconstants, "heroes.json"), self.missing)
        self.tables[("dota2", "hero")] = {
            h["name"]: h["localized_name"] for h in heroes.values()
            if h.get("name") and h.get("localized_name")}
        items = _load(os.path.join(dotaconstants, "items.json"), self.missing)
        self.tables[("dota2", "item")] = {
            "item_" + k: fill(v["dname"]) for k, v in items.items() if v.get("dname")}
        abilities = {}
        for k, v in _load(os.path.join(dotaconstants, "abilities.json"), self.missing).items():
            text = fill(v["dname"], v) if v.get("dname") else ""
            if text:
                abilities[k] = text
            elif k.startswith(TALENT):
                abilities[k] = talent_words(k)
        self.tables[("dota2", "ability")] = abilities
        deadlock = _load(os.path.join(folder, "deadlock_names.json"), self.missing)
        self.tables[("deadlock", "hero")] = dict(deadlock.get("heroes", {}))
        self.tables[("deadlock", "item")] = dict(deadlock.get("items", {}))
        weapons = _load(os.path.join(folder, "cs2_weapons.json"), self.missing)
        self.tables[("cs2", "weapon")] = dict(weapons.get("weapons", {}))

    def known(self, game, kind, name):
        """The display name, or None when the table lacks it."""
        if name is None:
            return None
        if game == "cs2" and name.startswith("weapon_"):
            name = name[len("weapon_"):]
        return self.tables.get((game, kind), {}).get(name) or None

    def display(self, game, kind, name):
        if name is None or name == "":
            return "" if name is None else name
        found = self.known(game, kind, name)
        if found:
            return found
        if game == "dota2" and name.startswith(TALENT):
            return talent_words(name)
        return name

    def rows(self):
        """(game, kind, name, display) of every name known, in order."""
        for (game, kind), table in sorted(self.tables.items()):
            for name in sorted(table):
                yield game, kind, name, table[name]


_shared = None


def shared():
    """One Names for the process (the JSON is read once)."""
    global _shared
    if _shared is None:
        _shared = Names()
    return _shared

"""What the view tests share about display names: the names they expect,
read here straight from dotaconstants' JSON (never through gemview's
code), and the checks of a name as a page shows it."""
import json
import os
import re

from gemtest import CHECKOUT

VIEW = os.path.join(CHECKOUT, "tools", "view")
DOTACONSTANTS = os.path.join(VIEW, "node_modules", "dotaconstants", "build")


def _json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dota_names():
    """{kind: {internal name: dname}} as dotaconstants' JSON has them, read
    here: heroes.json's name -> localized_name, items.json's key (the index
    spells it with item_) -> dname, abilities.json's key -> dname."""
    return {
        "hero": {h["name"]: h["localized_name"]
                 for h in _json(os.path.join(DOTACONSTANTS, "heroes.json")).values()},
        "item": {"item_" + k: v["dname"] for k, v in
                 _json(os.path.join(DOTACONSTANTS, "items.json")).items() if v.get("dname")},
        "ability": {k: v["dname"] for k, v in
                    _json(os.path.join(DOTACONSTANTS, "abilities.json")).items()
                    if v.get("dname")},
    }


def check_name(test, shown, name, table):
    """`shown` is how a reader should see `name`, by `table` (internal ->
    the source's name): the source's name as it is; for a talent whose name
    holds placeholders ("+{s:bonus_x}% Gush Slow"), every word of it outside
    them in order, and no brace; a name the source lacks as it is, but a
    talent's never as `special_bonus_`."""
    test.assertTrue(shown, name)
    test.assertNotIn("special_bonus_", shown, name)
    source = table.get(name)
    if source is None:
        if not name.startswith("special_bonus_"):
            test.assertEqual(shown, name)
        return
    if "{" not in source and "\\" not in source:
        # (Spaces as a page shows them: runs of them one, none at the ends.)
        test.assertEqual(shown, " ".join(source.split()), name)
        return
    test.assertNotIn("{", shown, name)
    words = [w for w in re.findall(r"[A-Za-z][\w'&-]*", re.sub(r"\{[^}]*\}", " ", source))
             if len(w) > 1 and w != "n"]
    at = 0
    for w in words:
        found = shown.find(w, at)
        test.assertGreaterEqual(found, 0, "%r: %r lacks %r" % (name, shown, w))
        at = found + len(w)


def no_internal_talents(test, out):
    """No `special_bonus_` text anywhere a reader sees: the map's side, the
    match page, the page at its last tick."""
    for key in ("map_text", "dom", "dom_last"):
        text = out[key] if key == "map_text" else (out.get(key) or {}).get("text", "")
        test.assertNotIn("special_bonus_", text, key)

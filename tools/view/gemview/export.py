"""gem-view --export REPORT.html INDEX: one self-contained HTML file of a
match: the page's scripts, its styles and uPlot inlined, and the data the
server would answer (window.GEM_EXPORT): the facts, the timeline at the
page's own step (the columns the page reads), the events, the match page,
and every heatmap over the whole match (each kind, of everyone, each team
and each player). It opens from file:// with no network; report.js answers
the page's requests from the data, and draws the players from the
timeline (a report holds no frames of every unit)."""
import json
import math
import os
import re
import tempfile

from . import heatmaps

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The timeline columns the page reads (the charts' are added).
KEEP = ["tick", "game_time", "slot", "entity", "alive", "x", "y", "z", "yaw", "health",
        "max_health", "team", "round", "kills", "deaths", "assists", "net_worth", "money",
        "souls"]


def _read(relative):
    with open(os.path.join(HERE, relative), encoding="utf-8") as f:
        return f.read()


def _inline_json(value):
    # No "</" inside a <script> element.
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/")


def data(match):
    """What the report answers with (report.js reads it)."""
    facts = match.facts
    span = (facts["last_tick"] - facts["first_tick"]) * facts["tick_interval"]
    step = max(1, math.floor(span / 2400 + 0.5))  # main.js's step (Math.round)
    timeline = match.timeline(step)
    keep = [i for i, c in enumerate(timeline["columns"])
            if c in KEEP or c in facts.get("charts", [])]
    timeline = {"columns": [timeline["columns"][i] for i in keep],
                "rows": [[r[i] for i in keep] for r in timeline["rows"]]}
    whole = (facts["first_tick"], facts["last_tick"])
    who = [("", None, None), ("team:2", None, 2), ("team:3", None, 3)] + [
        ("slot:%d" % p["slot"], p["slot"], None) for p in facts.get("players", [])]
    maps = {}
    for kind in facts.get("heatmaps", []):
        for key, slot, team in who:
            maps["%s|%s" % (kind, key)] = heatmaps.heatmap(match, kind, *whole, slot, team)
    return {
        "match": {"id": 0, "label": match.label, "error": None, "game": facts.get("game"),
                  "map": facts.get("map"), "last_tick": facts["last_tick"]},
        "answers": {"info": facts, "timeline": timeline, "events": match.events(),
                    "page": match.page(), "background": {"image": None, "calibration": None}},
        "heatmaps": maps,
    }


def html(match, scripts):
    """The report's text: index.html with every style and script inlined."""
    page = _read("static/index.html")
    styles = _read("node_modules/uplot/dist/uPlot.min.css") + "\n" + _read("static/view.css")
    page = re.sub(r'<link rel="stylesheet" href="/uPlot.css">\s*<link rel="stylesheet" '
                  r'href="/view.css">', lambda m: "<style>\n%s\n</style>" % styles, page)
    code = ["window.GEM_EXPORT = %s;" % _inline_json(data(match)),
            _read("node_modules/uplot/dist/uPlot.iife.min.js"), _read("static/report.js")]
    code += [_read("static/%s.js" % name) for name in scripts]
    body = "\n".join("<script>\n%s\n</script>" % c.replace("</script", "<\\/script")
                     for c in code)
    page = re.sub(r'(<script src="[^"]+"></script>\s*)+', lambda m: body + "\n", page)
    return page.replace("<title>gem-view</title>",
                        "<title>gem-view report: %s</title>" % _escape(match.label))


def _escape(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def write(match, out, scripts):
    """Writes the report to `out` atomically (a temporary file beside it,
    renamed): no half-written report is ever at `out`."""
    text = html(match, scripts)
    folder = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".gem-report-", suffix=".html", dir=folder)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # as any file written (mkstemp's is 0600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    return len(text.encode("utf-8"))

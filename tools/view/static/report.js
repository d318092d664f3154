// gem-view: the report's answers. `gem-view --export` writes the page with
// its data inlined (window.GEM_EXPORT: what the server would answer) and
// this script first: api() then answers from it, with no server and no
// network. The map draws the players from the timeline (the report has no
// frames of every unit); heatmaps are the ones exported, over the whole
// match.
"use strict";

function reportAnswer(path) {
  const X = window.GEM_EXPORT;
  const url = new URL(path, "http://report/");
  const m = url.pathname.match(/^\/api\/m\/\d+\/(\w+)$/);
  if (url.pathname === "/api/matches") return { matches: [X.match] };
  if (!m) throw new Error("the report holds no " + url.pathname);
  const what = m[1];
  if (what in X.answers) return X.answers[what];
  if (what === "frame") return reportFrame(Number(url.searchParams.get("tick")));
  if (what === "heatmap") {
    const key = url.searchParams.get("kind") + "|" + (url.searchParams.get("slot") !== null ?
      "slot:" + url.searchParams.get("slot") : url.searchParams.get("team") !== null ?
        "team:" + url.searchParams.get("team") : "");
    const whole = Number(url.searchParams.get("from")) <= X.answers.info.first_tick &&
      Number(url.searchParams.get("to")) >= X.answers.info.last_tick;
    if (!whole || !(key in X.heatmaps)) {
      throw new Error("the report holds each heatmap over the whole match only");
    }
    return X.heatmaps[key];
  }
  throw new Error("the report holds no " + what);
}

// The players where the timeline has them at tick t.
function reportFrame(t) {
  const units = [];
  for (const p of info.players || []) {
    const r = rowAt(p.slot, t);
    if (!r || r[col.x] === null || (col.alive !== undefined && r[col.alive] === 0)) continue;
    const v = (c) => (col[c] === undefined ? null : r[col[c]]);
    units.push({ e: v("entity"), c: "", k: info.game === "cs2" ? "player" : "hero", t: v("team"),
      x: v("x"), y: v("y"), z: v("z"), yaw: v("yaw"), h: v("health"), mh: v("max_health"),
      n: p.name, s: p.slot });
  }
  return { tick: t, units };
}

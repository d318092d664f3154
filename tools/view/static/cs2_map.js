// gem-view: CS2 on the map at the clock's tick, from the index's tables:
// the round and its clock (the time since its freeze ended), every grenade
// in flight with its whole path from throw to landing, smokes and fires as
// areas with the seconds they have left (until their end_tick), and the
// planted bomb with its timer (the seconds to its explosion when the round
// has one; the seconds since the plant when it was defused).
"use strict";

// World units: a smoke's cloud, a fire's spread (drawing only: the
// replay's tables hold where they went off and when they ended).
const SMOKE_RADIUS = 144, FIRE_RADIUS = 120;

function cs2State(t) {
  const rounds = tables.rounds || [];
  let round = null;
  for (const r of rounds) if ((r.start_tick ?? r.tick) <= t) round = r;
  const s = { tick: t, round: round && round.round, clock: null, freeze: false, grenades: [],
    areas: [], bomb: null };
  if (round) {
    if (round.freeze_end_tick !== null && t < round.freeze_end_tick) s.freeze = true;
    else if (round.freeze_end_tick !== null) s.clock = (t - round.freeze_end_tick) * info.tick_interval;
  }
  const paths = {};
  for (const p of tables.grenade_paths || []) (paths[p.id] = paths[p.id] || []).push(p);
  for (const g of tables.grenades || []) {
    const landed = g.detonate_tick ?? g.end_tick;
    if (g.throw_tick <= t && (landed === null || t < landed)) {
      s.grenades.push({ id: g.id, kind: g.kind, path: (paths[g.id] || []).map((p) => [p.x, p.y, p.tick]) });
    }
    const fire = g.kind === "molotov" || g.kind === "incendiary";
    if ((g.kind === "smoke" || fire) && g.detonate_tick !== null && g.detonate_tick <= t &&
        g.end_tick !== null && t < g.end_tick && g.x !== null) {
      s.areas.push({ id: g.id, kind: fire ? "fire" : "smoke", x: g.x, y: g.y,
        left: (g.end_tick - t) * info.tick_interval });
    }
  }
  if (round) {
    const events = (tables.bomb || []).filter((b) => b.round === round.round);
    const plant = events.find((b) => b.kind === "plant" && b.tick <= t);
    if (plant) {
      const explode = events.find((b) => b.kind === "explode");
      const defuse = events.find((b) => b.kind === "defuse");
      const over = (explode && explode.tick <= t) || (defuse && defuse.tick <= t);
      s.bomb = { x: plant.x, y: plant.y, site: plant.site, over: !!over,
        left: explode ? (explode.tick - t) * info.tick_interval : null,
        since: (t - plant.tick) * info.tick_interval };
    }
  }
  return s;
}

function drawCs2(g, t) {
  const s = (G.cs2 = cs2State(t));
  for (const a of s.areas) {
    const [sx, sy] = toScreen(a.x, a.y);
    const r = (a.kind === "fire" ? FIRE_RADIUS : SMOKE_RADIUS) * view.scale;
    g.fillStyle = a.kind === "fire" ? "#D55E0066" : "#bbbbbb55";
    g.beginPath();
    g.arc(sx, sy, r, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = "#fff";
    g.fillText(a.left.toFixed(1) + " s", sx - 10, sy + 3);
  }
  for (const n of s.grenades) {
    g.strokeStyle = "#ffffffaa";
    g.setLineDash([3, 3]);
    g.beginPath();
    n.path.forEach(([x, y], i) => {
      const [sx, sy] = toScreen(x, y);
      if (i) g.lineTo(sx, sy); else g.moveTo(sx, sy);
    });
    g.stroke();
    g.setLineDash([]);
  }
  if (s.bomb && !s.bomb.over) {
    const [sx, sy] = toScreen(s.bomb.x, s.bomb.y);
    g.fillStyle = "#ff4040";
    g.fillRect(sx - 5, sy - 5, 10, 10);
    g.fillStyle = "#fff";
    g.fillText(s.bomb.left !== null ? s.bomb.left.toFixed(1) + " s" :
      "planted " + s.bomb.since.toFixed(0) + " s", sx + 8, sy + 4);
  }
}
function cs2ClockText() {
  const s = G.cs2;
  if (!s || s.round === null) return "";
  return `R${s.round} ` + (s.freeze ? "freeze" : s.clock !== null ? clockText(s.clock) : "");
}

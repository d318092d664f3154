// gem-view's page: the map of every unit at the scrubbed tick, trails,
// kills and wards, the clock, charts synced with it, the scoreboard and
// the kill feed. Everything drawn comes from the server's JSON (the index);
// window.gemView says what was drawn, for the browser tests.
"use strict";
const G = (window.gemView = { ready: false, tick: 0, drawn: [], charts: {}, error: null,
  frames: 0, playing: false });
const $ = (id) => document.getElementById(id);
const TEAMS = {
  dota2: { 2: "#4ec95a", 3: "#e5534b" },
  cs2: { 2: "#e0a030", 3: "#4a90e2" },
  deadlock: { 2: "#e0a030", 3: "#4a7ae2" },
};
const SIZE = { hero: 7, player: 6, building: 6, objective: 7, roshan: 8, courier: 4, ward: 3,
  creep: 2.5, trooper: 2.5, neutral: 2.5, summon: 3, grenade: 2.5, fire: 5, bomb: 5, mid_boss: 9, urn: 5 };

let info = null, rows = null, col = {}, bySlot = {}, ticks = [], kills = [], wards = [];
let tables = {};  // the game's analyst tables the server sends (kinds.EVENT_TABLES)
let frame = { units: [] }, bg = null, matchId = 0, wanted = null, loading = false;
let mapImage = null;  // the user's own image (--map-images) and where it lies
const view = { scale: 1, ox: 0, oy: 0 };

async function api(path) {
  const r = await fetch(path);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || "HTTP " + r.status);
  return body;
}
function showError(e) {
  G.error = String((e && e.message) || e);
  $("error").textContent = G.error;
}
function teamColor(t) { return (TEAMS[info.game] || {})[t] || "#9aa0aa"; }

// World coordinates to the canvas and back.
function toScreen(x, y) { return [(x - view.ox) * view.scale, (view.oy - y) * view.scale]; }
function toWorld(sx, sy) { return [sx / view.scale + view.ox, view.oy - sy / view.scale]; }
function fitWorld(b) {
  const c = $("map"), pad = 0.05 * Math.max(b[2] - b[0], b[3] - b[1], 1);
  const w = b[2] - b[0] + 2 * pad, h = b[3] - b[1] + 2 * pad;
  view.scale = Math.min(c.width / w, c.height / h);
  view.ox = b[0] - pad - (c.width / view.scale - w) / 2;
  view.oy = b[3] + pad + (c.height / view.scale - h) / 2;
}

// The timeline row of a slot as of tick t (the last sample at or before).
function rowAt(slot, t) {
  const list = bySlot[slot] || [];
  let lo = 0, hi = list.length - 1, best = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid][0] <= t) { best = list[mid]; lo = mid + 1; } else hi = mid - 1;
  }
  return best;
}
function gameTime(t) {
  const slots = Object.keys(bySlot);
  const r = slots.length ? rowAt(slots[0], t) : null;
  if (r && col.game_time !== undefined && r[col.game_time] !== null) {
    return r[col.game_time] + (t - r[0]) * info.tick_interval;
  }
  return (t - info.first_tick) * info.tick_interval;
}
function clockText(s) {
  const sign = s < 0 ? "-" : "", a = Math.abs(Math.round(s));
  return sign + Math.floor(a / 60) + ":" + String(a % 60).padStart(2, "0");
}

async function openMatch(id) {
  matchId = id;
  G.ready = false;
  try {
    info = await api(`/api/m/${id}/info`);
    $("title").textContent = `${info.label} · ${info.game} · ${info.map || ""}`;
    const span = (info.last_tick - info.first_tick) * info.tick_interval;
    const step = Math.max(1, Math.round(span / 2400));  // the timeline samples once a second
    const tl = await api(`/api/m/${id}/timeline?step=${step}`);
    const ev = await api(`/api/m/${id}/events`);
    col = {};
    tl.columns.forEach((c, i) => (col[c] = i));
    rows = tl.rows;
    bySlot = {};
    for (const r of rows) (bySlot[r[col.slot]] = bySlot[r[col.slot]] || []).push(r);
    ticks = [...new Set(rows.map((r) => r[0]))];
    kills = ev.kills ? ev.kills.rows.map((r) => rowObject(ev.kills.columns, r)) : [];
    wards = ev.wards ? ev.wards.rows.map((r) => rowObject(ev.wards.columns, r)) : [];
    tables = {};
    for (const [name, t] of Object.entries(ev)) {
      if (name !== "kills" && name !== "wards") tables[name] = t.rows.map((r) => rowObject(t.columns, r));
    }
    const scrub = $("scrub");
    scrub.min = info.first_tick;
    scrub.max = info.last_tick;
    const first = await api(`/api/m/${id}/frame?tick=${info.first_tick}`);
    fitWorld(union(info.bounds, boundsOf(first.units)));
    drawBackground(first.units);
    await loadMapImage(id);
    buildCharts();
    buildMarks();
    const hash = new URLSearchParams(location.hash.slice(1));
    await seek(hash.has("t") ? Number(hash.get("t")) : info.game_start_tick || info.first_tick);
  } catch (e) {
    showError(e);
  }
  G.ready = true;
}
function rowObject(columns, r) {
  const o = {};
  columns.forEach((c, i) => (o[c] = r[i]));
  return o;
}
function boundsOf(units) {
  const placed = units.filter((u) => u.x !== null && u.y !== null);
  if (!placed.length) return null;
  const xs = placed.map((u) => u.x), ys = placed.map((u) => u.y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
// The extent of where the players went and where the units stand.
function union(a, b) {
  if (!a || !b) return a || b || [-1000, -1000, 1000, 1000];
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

// The default background, from the index alone: a faint density of where
// the players went, and the buildings standing at the first tick.
function drawBackground(units) {
  const c = $("map");
  bg = document.createElement("canvas");
  bg.width = c.width;
  bg.height = c.height;
  const g = bg.getContext("2d");
  g.fillStyle = "#0e1013";
  g.fillRect(0, 0, bg.width, bg.height);
  g.fillStyle = "rgba(120,140,170,0.05)";
  if (col.x !== undefined) {
    for (const r of rows) {
      if (r[col.x] === null) continue;
      const [sx, sy] = toScreen(r[col.x], r[col.y]);
      g.fillRect(sx - 1.5, sy - 1.5, 3, 3);
    }
  }
  g.strokeStyle = "rgba(160,170,190,0.35)";
  for (const u of units) {
    if (u.k !== "building" && u.k !== "objective") continue;
    const [sx, sy] = toScreen(u.x, u.y);
    g.strokeRect(sx - 5, sy - 5, 10, 10);
  }
  G.background = { scale: view.scale, ox: view.ox, oy: view.oy };
}

// The user's own radar or minimap image, placed by its calibration: CS2's
// overview (pos_x, pos_y: the image's top left in the world; scale: world
// units a pixel) or the world coordinates of its edges.
async function loadMapImage(id) {
  mapImage = null;
  G.background.image = false;
  const b = await api(`/api/m/${id}/background`);
  if (!b.image) return;
  const img = new Image();
  await new Promise((ok, fail) => {
    img.onload = ok;
    img.onerror = () => fail(new Error("the map image did not load"));
    img.src = b.image;
  });
  const c = b.calibration;
  const place = c.scale !== undefined
    ? { left: c.pos_x, top: c.pos_y, width: img.naturalWidth * c.scale, height: img.naturalHeight * c.scale }
    : { left: c.min_x, top: c.max_y, width: c.max_x - c.min_x, height: c.max_y - c.min_y };
  mapImage = { img, ...place };
  G.background.image = true;
  G.background.place = place;
}

async function seek(t, playing = false) {
  if (!playing) playClock = null;  // a seek of the user's: play goes on from there
  t = Math.max(info.first_tick, Math.min(info.last_tick, Math.round(t)));
  G.tick = t;
  $("scrub").value = t;
  wanted = t;
  if (loading) return;  // the frame in flight asks again for the latest wish
  loading = true;
  try {
    while (wanted !== null) {
      const at = wanted;
      wanted = null;
      frame = await api(`/api/m/${matchId}/frame?tick=${at}`);
    }
    draw();
  } catch (e) {
    showError(e);
  } finally {
    loading = false;
  }
}

function draw() {
  const c = $("map"), g = c.getContext("2d"), t = frame.tick;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.fillStyle = "#0e1013";
  g.fillRect(0, 0, c.width, c.height);
  if (mapImage) {
    const [sx, sy] = toScreen(mapImage.left, mapImage.top);
    g.globalAlpha = 0.8;
    g.drawImage(mapImage.img, sx, sy, mapImage.width * view.scale, mapImage.height * view.scale);
    g.globalAlpha = 1;
  } else if (bg) {
    const k = view.scale / G.background.scale;
    const [dx, dy] = toScreen(G.background.ox, G.background.oy);
    g.drawImage(bg, dx, dy, bg.width * k, bg.height * k);
  }
  if (info.game === "deadlock") deadlockState(t);
  drawTrails(g, t);
  for (const w of wards) {
    if (w.placed_tick > t || (w.removed_tick !== null && w.removed_tick <= t)) continue;
    const [sx, sy] = toScreen(w.x, w.y);
    g.strokeStyle = teamColor(w.team);
    g.strokeRect(sx - 3, sy - 3, 6, 6);
  }
  const drawn = [];
  for (const u of frame.units) {
    if (u.x === null || u.y === null) continue;
    const [sx, sy] = toScreen(u.x, u.y);
    const r = SIZE[u.k] || 3;
    g.fillStyle = teamColor(u.t);
    if (u.k === "ward" && u.r) {
      g.strokeStyle = teamColor(u.t) + "66";
      g.beginPath();
      g.arc(sx, sy, u.r * view.scale, 0, 2 * Math.PI);
      g.stroke();
    }
    g.beginPath();
    if (u.k === "building" || u.k === "objective") g.rect(sx - r, sy - r, 2 * r, 2 * r);
    else g.arc(sx, sy, r, 0, 2 * Math.PI);
    g.fill();
    if (u.k === "trooper" && LANES[u.l]) {
      g.strokeStyle = LANES[u.l][1];
      g.stroke();
    }
    if (u.s !== null && u.s !== undefined && u.s === G.deadlock?.carrier) {
      g.strokeStyle = "#ffd700";  // the urn's carrier
      g.lineWidth = 2;
      g.beginPath();
      g.arc(sx, sy, r + 4, 0, 2 * Math.PI);
      g.stroke();
      g.lineWidth = 1;
    }
    if ((u.k === "player" || u.k === "hero") && u.yaw !== null) {
      const a = (u.yaw * Math.PI) / 180;
      g.strokeStyle = "#fff";
      g.beginPath();
      g.moveTo(sx, sy);
      g.lineTo(sx + Math.cos(a) * (r + 6), sy - Math.sin(a) * (r + 6));
      g.stroke();
    }
    if (u.n && u.mh) {
      g.fillStyle = "#000";
      g.fillRect(sx - 12, sy - r - 7, 24, 3);
      g.fillStyle = "#5f5";
      g.fillRect(sx - 12, sy - r - 7, 24 * Math.max(0, Math.min(1, u.h / u.mh)), 3);
      g.fillStyle = "#eee";
      g.fillText(u.n, sx + r + 2, sy + 3);
    }
    drawn.push({ e: u.e, k: u.k, t: u.t, x: u.x, y: u.y, z: u.z, h: u.h, mh: u.mh, n: u.n, l: u.l,
      s: u.s, sx, sy });
  }
  for (const k of kills) {
    if (k.tick > t || k.tick < t - trailTicks() || k.x === null) continue;
    const [sx, sy] = toScreen(k.x, k.y);
    g.strokeStyle = "#ff0";
    g.beginPath();
    g.moveTo(sx - 4, sy - 4); g.lineTo(sx + 4, sy + 4);
    g.moveTo(sx + 4, sy - 4); g.lineTo(sx - 4, sy + 4);
    g.stroke();
  }
  G.drawn = drawn;
  G.frames++;
  $("time").textContent = clockText(gameTime(t)) + `  (tick ${t})`;
  updateSide(t);
  for (const u of Object.values(G.charts)) u.setCursor({ left: u.valToPos(t, "x"), top: 10 });
  history.replaceState(null, "", `#m=${matchId}&t=${t}`);
}
function trailTicks() { return Number($("trail").value || 0) / info.tick_interval; }
function drawTrails(g, t) {
  if (col.x === undefined) return;
  const from = t - trailTicks();
  for (const [slot, list] of Object.entries(bySlot)) {
    g.strokeStyle = teamColor(list.length ? list[0][col.team] : 0) + "aa";
    g.beginPath();
    let on = false;
    let round = null;
    for (const r of list) {
      if (r[0] < from || r[0] > t) continue;
      // A death or a new round (a respawn) breaks the path.
      const dead = r[col.x] === null || (col.alive !== undefined && r[col.alive] === 0);
      const newRound = col.round !== undefined && r[col.round] !== round;
      if (col.round !== undefined) round = r[col.round];
      if (dead || newRound) on = false;
      if (dead) continue;
      const [sx, sy] = toScreen(r[col.x], r[col.y]);
      if (on) g.lineTo(sx, sy); else g.moveTo(sx, sy);
      on = true;
    }
    g.stroke();
  }
}

function updateSide(t) {
  const players = info.players || [];
  const money = ["net_worth", "money", "souls"].find((c) => col[c] !== undefined) || null;
  let html = `<tr><th>player</th><th>K</th><th>D</th><th>A</th><th>${money || ""}</th></tr>`;
  for (const p of players) {
    const r = rowAt(p.slot, t);
    const v = (c) => (r && col[c] !== undefined && r[col[c]] !== null ? r[col[c]] : "");
    html += `<tr style="color:${teamColor(p.team)}"><td>${esc(p.name || "slot " + p.slot)}</td><td>${v("kills")}` +
      `</td><td>${v("deaths")}</td><td>${v("assists")}</td><td>${money ? v(money) : ""}</td></tr>`;
  }
  $("score").innerHTML = html;
  const name = (slot) => {
    const p = players.find((q) => q.slot === slot);
    return p ? p.name : slot === null ? "world" : "slot " + slot;
  };
  const past = kills.filter((k) => k.tick <= t).slice(-15).reverse();
  $("feed").innerHTML = past.map((k) => `<li>${clockText(k.game_time ?? 0)} ${esc(name(k.killer))}` +
    ` &rarr; ${esc(name(k.victim))}</li>`).join("");
  $("match").innerHTML = info.game === "deadlock" ? deadlockPanel(name) : "";
}

// Deadlock, as of tick t (G.deadlock): the urn's carrier (the slot whose
// last urn event is a pickup), the objectives destroyed, each patron's
// phase, the mid boss's last event, and the troopers drawn per lane and
// team. Every value is a row of the index's tables or the frame's units.
const LANES = { 1: ["yellow", "#e8d44d"], 3: ["green", "#4ec95a"], 4: ["blue", "#4a90e2"],
  6: ["purple", "#a66be0"] };
const TEAM_NAMES = { 2: "Amber", 3: "Sapphire" };
function deadlockState(t) {
  let carrier = null;
  for (const e of tables.urn || []) {
    if (e.tick > t) break;
    if (e.event === "picked_up") carrier = e.slot;
    else if ((e.event === "dropped" || e.event === "returned") && e.slot === carrier) carrier = null;
  }
  const destroyed = (tables.objectives || []).filter((o) => o.destroyed_tick !== null &&
    o.destroyed_tick <= t);
  const phases = {};
  for (const p of tables.patron_phases || []) if (p.tick <= t) phases[p.entity] = p;
  const mid = (tables.mid_boss || []).filter((m) => m.tick <= t).pop() || null;
  const lanes = {};
  for (const u of frame.units) {
    if (u.k !== "trooper" || u.l === null || u.l === undefined) continue;
    const key = u.l + "/" + u.t;
    lanes[key] = (lanes[key] || 0) + 1;
  }
  G.deadlock = { tick: t, carrier, destroyed: destroyed.map((o) => o.entity),
    phases: Object.fromEntries(Object.entries(phases).map(([e, p]) => [e, p.phase])),
    mid_boss: mid && mid.kind, lanes };
}
function deadlockPanel(name) {
  const d = G.deadlock;
  if (!d) return "";
  const lost = (team) => (tables.objectives || []).filter((o) => o.team === team &&
    d.destroyed.includes(o.entity)).length;
  let html = `<li>urn: ${d.carrier === null ? "not carried" : "carried by " + esc(name(d.carrier))}</li>`;
  html += `<li>objectives lost: Amber ${lost(2)}, Sapphire ${lost(3)}</li>`;
  for (const [e, phase] of Object.entries(d.phases)) {
    const p = (tables.patron_phases || []).find((x) => String(x.entity) === e);
    html += `<li>patron (${TEAM_NAMES[p.team] || p.team}): phase ${phase}</li>`;
  }
  if (d.mid_boss) html += `<li>mid boss: ${esc(d.mid_boss)}</li>`;
  const lanes = Object.entries(d.lanes).sort();
  if (lanes.length) {
    html += "<li>troopers: " + lanes.map(([k, n]) => {
      const [lane, team] = k.split("/");
      return `${(LANES[lane] || [lane])[0]} ${TEAM_NAMES[team] || team} ${n}`;
    }).join(", ") + "</li>";
  }
  return `<h3>Match</h3><ul>${html}</ul>`;
}
function esc(s) {
  return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}

// Charts: one per timeline column the game plots, a series per player
// (and the team advantage: team 2's sum less team 3's, under Dota's net
// worth and Deadlock's souls). A click seeks.
const ADVANTAGE = { dota2: ["net_worth", "radiant advantage"], deadlock: ["souls", "amber advantage"] };
function buildCharts() {
  const host = $("charts");
  host.innerHTML = "";
  G.charts = {};
  G.chartData = {};
  const players = info.players || [];
  for (const column of info.charts || []) {
    const data = [ticks];
    const series = [{ label: "tick" }];
    for (const p of players) {
      const byTick = new Map((bySlot[p.slot] || []).map((r) => [r[0], r[col[column]]]));
      data.push(ticks.map((t) => (byTick.has(t) ? byTick.get(t) : null)));
      series.push({ label: p.name || "slot " + p.slot, stroke: teamColor(p.team), width: 1 });
    }
    const advantage = ADVANTAGE[info.game];
    if (advantage && column === advantage[0]) {
      data.push(ticks.map((_, i) => players.reduce((s, p, j) =>
        s + (data[j + 1][i] || 0) * (p.team === 2 ? 1 : p.team === 3 ? -1 : 0), 0)));
      series.push({ label: advantage[1], stroke: "#fff", width: 2 });
    }
    const div = document.createElement("div");
    host.appendChild(div);
    const u = new uPlot({ title: column, width: 900, height: 150, series,
      legend: { show: false }, scales: { x: { time: false } }, axes: [{ stroke: "#889" },
        { stroke: "#889", size: 64 }] }, data, div);
    u.over.addEventListener("click", (e) => seek(u.posToVal(e.offsetX, "x")));
    G.charts[column] = u;
    G.chartData[column] = { ticks, series: series.slice(1).map((s, i) => ({ label: s.label,
      values: data[i + 1] })) };
  }
}
function buildMarks() {
  const host = $("marks");
  host.innerHTML = "";
  const span = info.last_tick - info.first_tick || 1;
  const marks = [];
  if (col.round !== undefined) {
    let last = null;
    for (const r of rows) if (r[col.round] !== last) { last = r[col.round]; marks.push([r[0], "R" + last]); }
  } else {
    for (let m = 0; m < 600; m += 5) {
      const t = ticks.find((x) => gameTime(x) >= m * 60);
      if (t === undefined) break;
      marks.push([t, m + ":00"]);
    }
  }
  G.marks = marks;
  for (const [t, label] of marks) {
    const s = document.createElement("span");
    s.style.left = (100 * (t - info.first_tick)) / span + "%";
    s.textContent = label;
    host.appendChild(s);
  }
}

// Play: the clock advances by the wall clock times the speed; frames are
// fetched one at a time, the latest wish winning.
// The playing clock keeps its fraction of a tick (at 0.25x a screen frame
// is an eighth of a Dota tick): seek rounds only what it asks for.
let lastFrameTime = null, playClock = null;
function step(now) {
  if (G.playing && info) {
    if (lastFrameTime !== null) {
      const dt = (now - lastFrameTime) / 1000;
      const speed = Number($("speed").value);
      if (playClock === null) playClock = G.tick;
      playClock = Math.min(playClock + (dt * speed) / info.tick_interval, info.last_tick);
      if (playClock >= info.last_tick) G.playing = false;
      if (!loading) seek(playClock, true);
    }
    lastFrameTime = now;
  } else {
    lastFrameTime = null;
    playClock = null;
  }
  $("play").innerHTML = G.playing ? "&#10074;&#10074;" : "&#9654;";
  requestAnimationFrame(step);
}
G.seek = (t) => seek(t);
G.playClock = () => playClock;
G.play = () => { G.playing = true; };
G.pause = () => { G.playing = false; };

function nearest(sx, sy) {
  let best = null, bestD = 10;
  for (const d of G.drawn) {
    const dist = Math.hypot(d.sx - sx, d.sy - sy);
    if (dist < bestD) { best = d; bestD = dist; }
  }
  return best && frame.units.find((u) => u.e === best.e);
}
function describe(u) {
  return `class ${u.c}\nentity ${u.e}\nkind ${u.k}\nteam ${u.t}\nhealth ${u.h} / ${u.mh}\n` +
    `x ${u.x}\ny ${u.y}\nz ${u.z}` + (u.n ? `\nplayer ${u.n}` : "");
}

function wire() {
  const c = $("map");
  let drag = null;
  c.addEventListener("mousedown", (e) => (drag = { x: e.offsetX, y: e.offsetY, moved: false }));
  window.addEventListener("mouseup", () => (drag = null));
  c.addEventListener("mousemove", (e) => {
    if (drag) {
      view.ox -= (e.offsetX - drag.x) / view.scale;
      view.oy += (e.offsetY - drag.y) / view.scale;
      drag.x = e.offsetX;
      drag.y = e.offsetY;
      drag.moved = true;
      draw();
      return;
    }
    const u = nearest(e.offsetX, e.offsetY), hover = $("hover");
    hover.style.display = u ? "block" : "none";
    if (u) {
      hover.textContent = `${u.n || u.c} (${u.e})  ${u.h ?? ""}/${u.mh ?? ""}`;
      hover.style.left = e.offsetX + 14 + "px";
      hover.style.top = e.offsetY + "px";
    }
  });
  c.addEventListener("click", (e) => {
    const u = nearest(e.offsetX, e.offsetY);
    if (u) $("unit").textContent = describe(u);
  });
  c.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [wx, wy] = toWorld(e.offsetX, e.offsetY);
    view.scale *= e.deltaY < 0 ? 1.2 : 1 / 1.2;
    view.ox = wx - e.offsetX / view.scale;
    view.oy = wy + e.offsetY / view.scale;
    draw();
  }, { passive: false });
  $("scrub").addEventListener("input", (e) => seek(Number(e.target.value)));
  $("play").addEventListener("click", () => (G.playing = !G.playing));
  $("trail").addEventListener("change", () => draw());
  $("matches").addEventListener("change", (e) => openMatch(Number(e.target.value)));
  window.addEventListener("keydown", (e) => {
    if (!info || e.target.tagName === "INPUT" && e.target.type === "number") return;
    const second = 1 / info.tick_interval, sp = $("speed");
    if (e.key === " ") { G.playing = !G.playing; e.preventDefault(); }
    else if (e.key === "ArrowRight") seek(G.tick + (e.shiftKey ? 10 : 1) * second);
    else if (e.key === "ArrowLeft") seek(G.tick - (e.shiftKey ? 10 : 1) * second);
    else if (e.key === "Home") seek(info.first_tick);
    else if (e.key === "End") seek(info.last_tick);
    else if (e.key === "+") sp.selectedIndex = Math.min(sp.options.length - 1, sp.selectedIndex + 1);
    else if (e.key === "-") sp.selectedIndex = Math.max(0, sp.selectedIndex - 1);
  });
}

(async function main() {
  wire();
  requestAnimationFrame(step);
  try {
    const list = await api("/api/matches");
    const select = $("matches");
    for (const m of list.matches) {
      const o = document.createElement("option");
      o.value = m.id;
      o.textContent = m.label + (m.error ? " (damaged)" : "");
      select.appendChild(o);
    }
    select.style.display = list.matches.length > 1 ? "" : "none";
    const hash = new URLSearchParams(location.hash.slice(1));
    const id = hash.has("m") ? Number(hash.get("m")) : list.matches.length ? list.matches[0].id : 0;
    select.value = id;
    await openMatch(id);
  } catch (e) {
    showError(e);
    G.ready = true;
  }
})();

// gem-view: the map (world coordinates to the canvas, the background,
// the user's own map image, the units, trails, wards and kills at the
// clock's tick) and what the pointer does on it.
"use strict";
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
  drawHeat(g);
  if (info.game === "deadlock") deadlockState(t);
  if (info.game === "cs2") drawCs2(g, t);
  drawTrails(g, t);
  for (const w of wards) {
    if (w.placed_tick > t || (w.removed_tick !== null && w.removed_tick <= t)) continue;
    const [sx, sy] = toScreen(w.x, w.y);
    g.strokeStyle = teamColor(w.team);
    g.strokeRect(sx - 3, sy - 3, 6, 6);
  }
  if (G.fight) {  // the teamfight chosen on the match page
    const [sx, sy] = toScreen(G.fight.x, G.fight.y);
    g.strokeStyle = "#ffd866";
    g.setLineDash([6, 4]);
    g.beginPath();
    g.arc(sx, sy, G.fight.r * view.scale, 0, 2 * Math.PI);
    g.stroke();
    g.setLineDash([]);
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
  if (!G.frames) G.firstPaint = performance.now();  // since the page began loading
  G.frames++;
  $("time").textContent = (info.game === "cs2" ? cs2ClockText() + "  " : "") +
    clockText(gameTime(t)) + `  (tick ${t})`;
  updateSide(t);
  pageTick(t);
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


// gem-view: opening a match, and the page's start.
"use strict";
async function openMatch(id) {
  matchId = id;
  G.ready = false;
  G.fight = null;
  if (pageShown) showPage(false);
  try {
    info = await api(`/api/m/${id}/info`);
    while (info.waiting) {
      // A live index with no tick committed yet.
      $("title").textContent = `${info.label} · live: waiting for its first commit`;
      await new Promise((r) => setTimeout(r, 500));
      info = await api(`/api/m/${id}/info`);
    }
    $("title").textContent = `${info.label} · ${info.game} · ${info.map || ""}`;
    await loadMatchData(id);
    const first = await api(`/api/m/${id}/frame?tick=${info.first_tick}`);
    fitWorld(union(info.bounds, boundsOf(first.units)));
    drawBackground(first.units);
    await loadMapImage(id);
    heatControls();
    showLive();
    const hash = new URLSearchParams(location.hash.slice(1));
    const start = info.live ? info.last_tick : info.game_start_tick || info.first_tick;
    G.following = !!info.live && !hash.has("t");
    await seek(hash.has("t") ? Number(hash.get("t")) : start);
  } catch (e) {
    showError(e);
  }
  G.ready = true;
}

// The timeline, the events and what is drawn from them: the charts, the
// marks under the scrubber, its range. Again at each commit of a live
// index, so that the charts extend.
async function loadMatchData(id) {
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
  buildCharts();
  buildMarks();
}

// A live index (gem-index --follow): the page asks for its latest commit
// every second. A newer one moves the scrubber's end and extends the
// charts; the clock follows the live edge while the Live button is on
// (a seek of the user's elsewhere turns it off). When the match ends the
// finished index is opened in its place, at the same tick.
G.live = { updates: 0 };
function showLive() {
  const b = $("live");
  b.hidden = !info.live;
  b.classList.toggle("on", !!G.following);
  G.live.live = !!info.live;
  G.live.last_tick = info.last_tick;
  G.live.error = info.live_error || null;
  if (info.live_error) showError(new Error("the live index stopped: " + info.live_error));
}
let livePolling = false;
async function pollLive() {
  if (livePolling || !info || !info.live || info.live_error || !G.ready) return;
  livePolling = true;
  try {
    const now = await api(`/api/m/${matchId}/info`);
    if (now.waiting || (now.live && now.last_tick === info.last_tick &&
                        now.live_error === info.live_error)) return;
    const follow = G.following;
    if (!now.live) {
      // Finished: the whole index, the players and the match page with it.
      const at = G.tick;
      location.hash = `t=${follow ? now.last_tick : at}`;
      G.live.live = false;
      G.live.updates += 1;
      await openMatch(matchId);
      return;
    }
    info = now;
    await loadMatchData(matchId);
    G.live.updates += 1;
    showLive();
    if (follow && !G.playing) await seek(info.last_tick);
    else if (!follow) draw();
  } catch (e) {
    showError(e);
  } finally {
    livePolling = false;
  }
}
setInterval(pollLive, 1000);

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
  $("scrub").addEventListener("input", (e) => {
    G.following = info && info.live && Number(e.target.value) >= info.last_tick;
    showLive();
    seek(Number(e.target.value));
  });
  $("live").addEventListener("click", () => {
    G.following = true;
    showLive();
    seek(info.last_tick);
  });
  $("play").addEventListener("click", () => (G.playing = !G.playing));
  $("trail").addEventListener("change", () => draw());
  $("matches").addEventListener("change", (e) => openMatch(Number(e.target.value)));
  $("pagebtn").addEventListener("click", () => showPage(!pageShown));
  wireHeat();
  window.addEventListener("keydown", (e) => {
    if (!info || e.target.tagName === "INPUT" && e.target.type === "number") return;
    const second = 1 / info.tick_interval, sp = $("speed");
    if (e.key === " ") { G.playing = !G.playing; e.preventDefault(); }
    else if (e.key === "ArrowRight") seek(G.tick + (e.shiftKey ? 10 : 1) * second);
    else if (e.key === "ArrowLeft") seek(G.tick - (e.shiftKey ? 10 : 1) * second);
    else if (e.key === "Home") seek(info.first_tick);
    else if (e.key === "End") seek(info.last_tick);
    else if (e.key === "m" || e.key === "M") showPage(!pageShown);
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

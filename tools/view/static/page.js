// gem-view: the match page, the second view beside the map ("Match page",
// or the M key, toggles it). Its data is /api/m/ID/page, asked for the
// first time the page is shown (gemview/pages.py: every number an SQL
// statement over the index's analyst tables); each game draws its own
// (page_dota.js, page_cs2.js, page_deadlock.js). window.gemView.page holds
// what was drawn, as numbers, for the browser tests.
"use strict";

const PAGES = {};  // game -> { draw(host, data), tick(t) }: filled by each game's script
let pageData = null, pageShown = false;

async function showPage(on) {
  const asked = performance.now();
  pageShown = on;
  $("page").hidden = !on;
  $("stage").hidden = on;
  $("pagebtn").textContent = on ? "Map" : "Match page";
  if (!on || !info) return;
  if (pageData === null || pageData.id !== matchId) {
    const data = await api(`/api/m/${matchId}/page`);
    pageData = { id: matchId, data };
    const host = $("page");
    host.innerHTML = "";
    G.page = { game: data.game };
    const game = PAGES[data.game];
    if (game) game.draw(host, data);
    else host.textContent = "no match page for this game";
  }
  pageTick(G.tick);
  G.pageShown = true;
  G.pageMs = performance.now() - asked;  // the page asked for, drawn
}
// The parts of the page that follow the clock.
function pageTick(t) {
  if (!pageShown || !pageData) return;
  const game = PAGES[pageData.data.game];
  if (game && game.tick) game.tick(t);
}

// The items each player holds at tick t, written into the page's
// `.items` spans by their names: the inventory's rows ({tick, slot,
// position, item}, in tick order) replayed to t, each position's last
// change by then. G.page.items holds them, internal, for the tests.
function showHeldItems(rows, t) {
  const held = {};
  for (const x of rows) {
    if (x.tick > t) break;
    (held[x.slot] = held[x.slot] || {})[x.position] = x.item;
  }
  const at = {};
  document.querySelectorAll("#page .items").forEach((span) => {
    const slot = Number(span.dataset.slot);
    const items = Object.entries(held[slot] || {}).sort((a, b) => a[0] - b[0])
      .map(([, i]) => i).filter(Boolean);
    at[slot] = items;
    span.textContent = items.map((i) => nameOf("item", i)).join(", ");
  });
  if (G.page) G.page.items = { tick: t, held: at };
}

// HTML helpers.
function table(headers, rows, attrs = "") {
  return `<table class="grid" ${attrs}><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join("")}` +
    `</tr>${rows.join("")}</table>`;
}
function cells(values, style = "", attrs = "") {
  return `<tr style="${style}" ${attrs}>${values.map((v) => `<td>${v}</td>`).join("")}</tr>`;
}
function num(v, digits = 0) {
  if (v === null || v === undefined) return "";
  return Number(v).toFixed(digits);
}
function section(host, title) {
  const s = document.createElement("section");
  s.className = "part";
  s.innerHTML = `<h3>${esc(title)}</h3>`;
  host.appendChild(s);
  return s;
}
function playerName(slot) {
  const p = (info.players || []).find((q) => q.slot === slot);
  return p ? p.name || "slot " + slot : slot === null || slot === undefined ? "" : "slot " + slot;
}
// A chart of team 2's lead over the game clock, its marks ([tick, label,
// colour]) drawn as lines; a click seeks the map.
function advantageChart(host, title, adv, columns, marks) {
  const series = columns.map(([c, label, stroke]) => ({ label, stroke, width: 2 }));
  const data = [adv.ticks, ...columns.map(([c]) => adv[c])];
  const u = makeChart(host, title, adv.ticks, series, data, 880, 220, marks);
  return u;
}

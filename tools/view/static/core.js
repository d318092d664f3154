// gem-view's page, part 1 of its scripts (index.html loads them in order,
// one global scope): the state they share and small helpers. The map of
// every unit at the scrubbed tick, trails, kills and wards, the clock,
// charts synced with it, the scoreboard and kill feed, and the match page;
// everything drawn comes from the server's JSON (the index), and
// window.gemView says what was drawn, for the browser tests.
"use strict";
const G = (window.gemView = { ready: false, tick: 0, drawn: [], charts: {}, error: null,
  frames: 0, playing: false });
const $ = (id) => document.getElementById(id);
// Team colours from Okabe and Ito's palette, told apart by readers of
// every common colour-vision deficiency: Radiant bluish green and Dire
// vermillion, T orange and CT sky blue, Amber orange and Sapphire blue.
const TEAMS = {
  dota2: { 2: "#009E73", 3: "#D55E00" },
  cs2: { 2: "#E69F00", 3: "#56B4E9" },
  deadlock: { 2: "#E69F00", 3: "#0072B2" },
};
const TEAM_LABELS = { dota2: { 2: "Radiant", 3: "Dire" }, cs2: { 2: "T", 3: "CT" },
  deadlock: { 2: "Amber", 3: "Sapphire" } };
function teamLabel(t) { return (TEAM_LABELS[info.game] || {})[t] || "team " + t; }
const SIZE = { hero: 7, player: 6, building: 6, objective: 7, roshan: 8, courier: 4, ward: 3,
  creep: 2.5, trooper: 2.5, neutral: 2.5, summon: 3, grenade: 2.5, fire: 5, bomb: 5, mid_boss: 9, urn: 5 };

let info = null, rows = null, col = {}, bySlot = {}, ticks = [], kills = [], wards = [];
let tables = {};  // the game's analyst tables the server sends (kinds.EVENT_TABLES)
let frame = { units: [] }, bg = null, matchId = 0, wanted = null, loading = false;
let mapImage = null;  // the user's own image (--map-images) and where it lies
const view = { scale: 1, ox: 0, oy: 0 };

async function api(path) {
  if (window.GEM_EXPORT) return reportAnswer(path);  // a report: report.js
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

// The name a player reads for an internal one (a hero, item, ability or
// weapon): the match's facts carry them (gemview/match_names.py); a name
// they lack reads as it is, never blank.
function nameOf(kind, name) {
  if (name === null || name === undefined) return "";
  return ((info && info.names || {})[kind] || {})[name] || String(name);
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}


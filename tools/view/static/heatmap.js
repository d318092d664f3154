// gem-view: heatmaps over the map: how many rows of a kind (the players'
// positions, deaths, CS2's grenades going off, Dota's wards placed) fall
// in each square of the world, of a player, a team or everyone, over a
// range of the clock (minutes) or of CS2's rounds. The counts are the
// server's (/api/m/ID/heatmap: SQL over the index); the PNG button saves
// the map as drawn.
"use strict";

let heat = null;  // { kind, bin, bins, max }
let heatAsked = 0;  // the latest request: an older answer is dropped

function heatControls() {
  const kinds = info.heatmaps || [];
  $("heat").innerHTML = `<option value="">heatmap: off</option>` +
    kinds.map((k) => `<option>${k}</option>`).join("");
  const who = [`<option value="">everyone</option>`,
    `<option value="team:2">${esc(teamLabel(2))}</option>`,
    `<option value="team:3">${esc(teamLabel(3))}</option>`].concat(
    (info.players || []).map((p) => `<option value="slot:${p.slot}">${esc(p.name ||
      "slot " + p.slot)}</option>`));
  $("heatwho").innerHTML = who.join("");
  $("heatunit").innerHTML = `<option>min</option>` +
    (info.game === "cs2" ? `<option>round</option>` : "");
  $("heatfrom").value = "";
  $("heatto").value = "";
  heat = null;
}

// The tick range the inputs name (empty: the whole match).
function heatRange() {
  const from = $("heatfrom").value, to = $("heatto").value, unit = $("heatunit").value;
  let lo = info.first_tick, hi = info.last_tick;
  if (unit === "round") {
    const rounds = tables.rounds || [];
    const start = (r) => r.start_tick ?? r.tick;
    if (from !== "") lo = start(rounds.find((r) => r.round >= Number(from)) || { tick: hi });
    if (to !== "") {
      const next = rounds.find((r) => r.round > Number(to));
      hi = next ? start(next) - 1 : info.last_tick;
    }
  } else {
    if (from !== "") lo = firstTickAt(Number(from) * 60) ?? hi;
    if (to !== "") hi = (firstTickAt(Number(to) * 60 + 1e-6) ?? info.last_tick + 1) - 1;
  }
  return [Math.max(lo, info.first_tick), Math.min(hi, info.last_tick)];
}

async function updateHeat() {
  const asked = ++heatAsked;
  const kind = $("heat").value;
  if (!kind) {
    heat = null;
    G.heatmap = null;
    draw();
    return;
  }
  const [lo, hi] = heatRange();
  const [by, value] = ($("heatwho").value || ":").split(":");
  const q = new URLSearchParams({ kind, from: lo, to: hi });
  if (by) q.set(by, value);
  const h = await api(`/api/m/${matchId}/heatmap?${q}`);
  if (asked !== heatAsked) return;
  heat = { ...h, max: Math.max(1, ...h.bins.map((b) => b[2])) };
  G.heatmap = { kind, from: lo, to: hi, who: $("heatwho").value, bin: h.bin, bins: h.bins };
  draw();
}

function drawHeat(g) {
  if (!heat) return;
  for (const [i, j, n] of heat.bins) {
    const [sx, sy] = toScreen(i * heat.bin, (j + 1) * heat.bin);
    const a = 0.15 + 0.75 * (n / heat.max);
    g.fillStyle = `rgba(255, ${Math.round(220 * (1 - n / heat.max))}, 40, ${a.toFixed(3)})`;
    g.fillRect(sx, sy, Math.max(1, heat.bin * view.scale), Math.max(1, heat.bin * view.scale));
  }
  g.fillStyle = "#fff";
  g.fillText(`${heat.kind}: ${heat.rows} rows, at most ${heat.max} a square of ${heat.bin} units`,
    8, 14);
}

function savePng() {
  $("map").toBlob((blob) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `gem-${(info.label || "match").replace(/[^\w.-]+/g, "_")}-` +
      `${heat ? heat.kind : "map"}.png`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }, "image/png");
}

function wireHeat() {
  for (const id of ["heat", "heatwho", "heatunit", "heatfrom", "heatto"]) {
    $(id).addEventListener("change", () => updateHeat().catch(showError));
  }
  $("png").addEventListener("click", savePng);
}

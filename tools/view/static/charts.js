// gem-view: charts (uPlot), under the map and on the match page. Every x
// axis is the game clock (mm:ss at whole minutes, the timeline's own
// game_time), with each round's start marked in CS2; y axes print whole
// labels (12k, 1.5M) sized to fit. A click seeks the map's clock there.
"use strict";

// Whole-number labels a narrow axis can hold.
function wholeLabel(v) {
  if (v === null || v === undefined) return "";
  const a = Math.abs(v), sign = v < 0 ? "-" : "";
  if (a >= 1e6) return sign + +(a / 1e6).toFixed(a >= 1e7 ? 0 : 1) + "M";
  if (a >= 1e4) return sign + Math.round(a / 1e3) + "k";
  if (a >= 1e3) return sign + +(a / 1e3).toFixed(1) + "k";
  return sign + Math.round(a);
}

// The ticks at whole minutes of the game clock in [lo, hi] (the first
// sampled tick at or past each minute), a minute step that gives no more
// than ~10 of them.
function firstTickAt(seconds) {
  let lo = 0, hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (gameTime(ticks[mid]) < seconds) lo = mid + 1; else hi = mid;
  }
  return ticks[lo];
}
function clockSplits(lo, hi) {
  const from = gameTime(lo) / 60, to = gameTime(hi) / 60;
  const step = [1, 2, 5, 10, 15, 20, 30, 60].find((s) => (to - from) / s <= 10) || 120;
  const out = [];
  for (let m = Math.ceil(from / step) * step; m <= to; m += step) {
    const t = firstTickAt(m * 60);
    if (t !== undefined && t >= lo && t <= hi && out[out.length - 1] !== t) out.push(t);
  }
  return out;
}

// The round starts (CS2), for the charts' marks.
function roundStarts() {
  if (col.round === undefined) return [];
  const out = [];
  let last = null;
  for (const r of rows) {
    if (r[col.round] !== last && r[col.round] !== null) out.push([r[0], r[col.round]]);
    last = r[col.round];
  }
  return out;
}

// A chart of `series` ([{label, stroke, width}]) over `xs` (ticks), its
// data [xs, ...values], with `extra` marks ([tick, label, colour, short])
// beside the rounds' (a short mark is a tick on the x axis, for events too
// many to draw across the plot); returns the uPlot.
function makeChart(host, title, xs, series, data, width = 900, height = 150, extra = []) {
  const div = document.createElement("div");
  host.appendChild(div);
  const labels = [];
  const marks = roundStarts().map(([t, round]) => [t, "R" + round, "#ffffff30"]).concat(extra);
  const u = new uPlot({
    title, width, height, legend: { show: false },
    series: [{ label: "game clock" }, ...series],
    scales: { x: { time: false } },
    axes: [
      { stroke: "#889", splits: (self, i, lo, hi) => clockSplits(lo, hi),
        values: (self, splits) => {
          const v = splits.map((t) => clockText(gameTime(t)));
          labels.splice(0, labels.length, ...v);
          return v;
        } },
      { stroke: "#889", values: (self, splits) => splits.map(wholeLabel),
        size: (self, values) => 14 + 7 * Math.max(3, ...(values || []).map((s) => s.length)) },
    ],
    hooks: { draw: [(self) => {
      if (!marks.length) return;
      const g = self.ctx;
      g.save();
      g.font = `${10 * devicePixelRatio}px sans-serif`;
      for (const [t, label, colour, short] of marks) {
        const x = self.valToPos(t, "x", true);
        if (x < self.bbox.left || x > self.bbox.left + self.bbox.width) continue;
        g.strokeStyle = colour;
        g.beginPath();
        const bottom = self.bbox.top + self.bbox.height;
        g.moveTo(x, short ? bottom - 8 * devicePixelRatio : self.bbox.top);
        g.lineTo(x, bottom);
        g.stroke();
        g.fillStyle = "#99a";
        g.fillText(label, x + 2, self.bbox.top + 10 * devicePixelRatio);
      }
      g.restore();
    }] },
  }, data, div);
  u.over.addEventListener("click", (e) => seek(u.posToVal(e.offsetX, "x")));
  u.clockLabels = labels;
  return u;
}

// Under the map: one chart per timeline column the game plots, a series
// per player (and the team advantage: team 2's sum less team 3's, under
// Dota's net worth and Deadlock's souls).
const ADVANTAGE = { dota2: ["net_worth", "radiant advantage"], deadlock: ["souls", "amber advantage"] };
function buildCharts() {
  const host = $("charts");
  host.innerHTML = "";
  G.charts = {};
  G.chartData = {};
  const players = info.players || [];
  for (const column of info.charts || []) {
    const data = [ticks];
    const series = [];
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
    const u = makeChart(host, column, ticks, series, data);
    G.charts[column] = u;
    G.chartData[column] = { ticks, series: series.map((s, i) => ({ label: s.label,
      values: data[i + 1] })), clock: u.clockLabels };
  }
}

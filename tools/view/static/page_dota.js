// gem-view: Dota's match page (OpenDota's): the draft, the players (K/D/A,
// farm, GPM and XPM, damage and healing, lane and laning, APM, the items
// they hold at the clock's tick), the skill builds and item timings
// (page_dota_builds.js), the gold and XP advantage with the objectives and
// fights marked, the teamfights with a table of each one's players (a
// click seeks and draws the fight's area on the map), the ward map over a
// range of the clock, runes and buybacks. Heroes, items and abilities read
// by their names (nameOf).
"use strict";

const OBJECTIVE_MARKS = { tower: "T", barracks: "B", roshan: "R", aegis: "A", ancient: "F",
  tormentor: "M", first_blood: "FB" };

PAGES.dota2 = {
  draw(host, d) {
    const shown = (G.page = { game: "dota2", players: {}, fights: [], wards: null });
    if (d.draft) {
      section(host, "Draft").innerHTML += `<ol class="draft">${d.draft.map((x) =>
        `<li style="color:${teamColor(x.team)}">${x.is_pick ? "pick" : "ban"} ` +
        `${esc(nameOf("hero", x.hero))}</li>`).join("")}</ol>`;
      shown.draft = d.draft.map((x) => [x.team, x.is_pick, x.hero]);
    }
    if (d.players) {
      const lanes = Object.fromEntries((d.lanes || []).map((l) => [l.slot, l]));
      const rows = d.players.map((p) => {
        const l = lanes[p.slot] || {};
        const values = {
          kda: [p.kills, p.deaths, p.assists], lh: p.last_hits, dn: p.denies,
          nw: p.net_worth, gpm: Math.round(p.gpm ?? 0), xpm: Math.round(p.xpm ?? 0),
          damage: p.hero_damage, healing: p.healing, apm: l.apm === undefined ? null :
            Math.floor(l.apm ?? 0) };
        shown.players[p.slot] = values;
        return cells([esc(nameOf("hero", p.hero)), esc(p.name || ""), values.kda.join("/"),
          `${p.last_hits ?? ""}/${p.denies ?? ""}`, p.net_worth ?? "", values.gpm, values.xpm,
          num(p.hero_damage), num(p.healing),
          esc([l.lane_name, l.role_name].filter(Boolean).join(" ") + (l.is_roaming ? " (roams)" : "")),
          l.lh_10 === undefined || l.lh_10 === null ? "" :
            `${l.lh_10} (${l.last_hits_diff === null ? "" : (l.last_hits_diff >= 0 ? "+" : "") +
              l.last_hits_diff})`,
          values.apm ?? "", `<span class="items" data-slot="${p.slot}"></span>`],
        `color:${teamColor(p.team)}`, `data-slot="${p.slot}"`);
      });
      section(host, "Players").innerHTML += table(["hero", "player", "K/D/A", "LH/DN", "net worth",
        "GPM", "XPM", "hero damage", "healing", "lane", "LH@10 (vs opp.)", "APM",
        "items at the clock"], rows, 'id="players"');
      // The builds, as OpenDota's overview has them: the skills under the
      // players, then what each bought when.
      if (d.skills) {
        shown.skills = Object.fromEntries(Object.entries(skillPoints(d.skills)).map(
          ([slot, list]) => [slot, list.map((s) => [s.ability, s.level])]));
        shown.grids = drawSkillGrids(host, d.players, d.skills);
      }
      if (d.purchases) shown.purchases = drawItemTimings(host, d.players, d.purchases);
    }
    if (d.advantage && d.advantage.ticks.length) {
      const marks = [];
      for (const o of d.objectives || []) {
        if (OBJECTIVE_MARKS[o.kind]) marks.push([o.tick, OBJECTIVE_MARKS[o.kind], teamColor(o.by_team ?? o.team) + "aa"]);
      }
      // Fights and buybacks as unlabelled lines (their lists are below).
      for (const f of d.teamfights || []) marks.push([f.start_tick, "", "#ffffff40"]);
      for (const b of d.buybacks || []) marks.push([b.tick, "", "#c792ea60"]);
      // Runes come every two minutes: ticks on the axis.
      for (const r of d.runes || []) marks.push([r.tick, "", "#78dce8c0", true]);
      const s = section(host, "Radiant's advantage: gold (net worth) and XP");
      advantageChart(s, "", d.advantage, [["net_worth", "gold", "#ffd866"], ["xp", "XP", "#78dce8"]],
        marks);
      shown.advantage = { ticks: d.advantage.ticks, gold: d.advantage.net_worth, xp: d.advantage.xp,
        marks: marks.length };
    }
    if (d.teamfights) {
      const s = section(host, "Teamfights (a click seeks and draws its area)");
      s.innerHTML += table(["#", "from", "to", "deaths", "Radiant gold", "Dire gold",
        "who fought"], d.teamfights.map((f) => {
        const gold = { 2: 0, 3: 0 };
        for (const p of f.players) {
          const team = teamOf(p.slot);
          if (team in gold) gold[team] += p.gold_delta;
        }
        const fought = fighters(f);
        shown.fights.push({ id: f.id, deaths: f.deaths, gold, players: Object.fromEntries(
          fought.map((p) => [p.slot,
            [p.deaths, p.damage, p.healing, p.gold_delta, p.xp_delta]])) });
        return cells([f.id, clockText(f.start_time ?? 0), clockText(f.end_time ?? 0), f.deaths,
          gold[2], gold[3], fightTable(fought, d.players || [])], "cursor:pointer",
        `data-fight="${f.id}"`);
      }), 'id="fights"');
      s.querySelectorAll("tr[data-fight]").forEach((tr) => tr.addEventListener("click", () => {
        const f = d.teamfights.find((x) => x.id === Number(tr.dataset.fight));
        selectFight(f);
      }));
    }
    if (d.lane_outcomes) {
      shown.lanes = d.lane_outcomes.map((o) => [o.lane, o.team, o.outcome, o.net_worth_diff]);
      section(host, "Lane outcomes at 10:00 (each side's share of the lane's net worth)")
        .innerHTML += table(["lane", "side", "laners", "net worth +/-", "XP +/-", "outcome"],
          d.lane_outcomes.map((o) => cells([esc(o.lane_name ?? String(o.lane)),
            o.team === 2 ? "Radiant" : "Dire", o.players, o.net_worth_diff ?? "",
            o.xp_diff ?? "", esc(o.outcome ?? "")], `color:${teamColor(o.team)}`)),
          'id="lanes"');
    }
    if (d.wards) drawWardMap(host, d.wards, d.dewards || [], d.smokes || []);
    const events = [].concat((d.runes || []).map((r) => [r.tick, r.game_time,
      `${esc(playerName(r.slot))} took ${esc(r.rune || "a rune")}`]),
    (d.buybacks || []).map((b) => [b.tick, b.game_time, `${esc(playerName(b.slot))} bought back`]))
      .sort((a, b) => a[0] - b[0]);
    if (events.length) {
      section(host, "Runes and buybacks").innerHTML += `<ul class="events">${events.map(([t, g, text]) =>
        `<li data-tick="${t}">${clockText(g ?? 0)} ${text}</li>`).join("")}</ul>`;
      host.querySelectorAll(".events li").forEach((li) =>
        li.addEventListener("click", () => seek(Number(li.dataset.tick))));
    }
    this.items = d.items || [];
  },
  // The items each hero holds at tick t (inventory positions 0-5: the only
  // rows pages.py sends).
  tick(t) {
    showHeldItems(this.items, t);
  },
};

// A slot's team, as the facts' players have it.
function teamOf(slot) {
  return ((info.players || []).find((q) => q.slot === slot) || {}).team;
}
// Who fought in a teamfight: the players with a death, damage or healing
// in it, Radiant's first.
function fighters(f) {
  return f.players.filter((p) => p.deaths || p.damage || p.healing)
    .sort((a, b) => (teamOf(a.slot) ?? 9) - (teamOf(b.slot) ?? 9) || a.slot - b.slot);
}
// A fight's players as a small table: hero, deaths, damage, healing, and
// the gold and XP they gained or lost.
function fightTable(fought, players) {
  const heroOf = Object.fromEntries(players.map((p) => [p.slot, p.hero]));
  return `<table class="grid mini"><tr><th>hero</th><th>deaths</th><th>damage</th>` +
    `<th>healing</th><th>gold</th><th>XP</th></tr>` + fought.map((p) =>
    `<tr style="color:${teamColor(teamOf(p.slot))}" data-slot="${p.slot}">` +
    `<td>${esc(nameOf("hero", heroOf[p.slot]))}</td><td>${p.deaths}</td><td>${p.damage}</td>` +
    `<td>${p.healing}</td><td>${p.gold_delta}</td><td>${p.xp_delta}</td></tr>`).join("") +
    "</table>";
}

// The fight's area: a circle about its deaths (the kills table's), drawn
// by the map until another is chosen; the map seeks to its start.
function selectFight(f) {
  const deaths = kills.filter((k) => k.tick >= f.start_tick && k.tick <= f.end_tick && k.x !== null);
  let r = 600;
  for (const k of deaths) r = Math.max(r, Math.hypot(k.x - f.x, k.y - f.y) + 300);
  G.fight = { id: f.id, x: f.x, y: f.y, r, deaths: deaths.length };
  showPage(false);
  seek(f.start_tick);
}

// Wards placed within [from, to] minutes of the clock, each drawn where it
// stood, its size by how long it stood, a cross on one destroyed (a
// deward, ward_lives); and the smokes begun in the range, each hero's route
// while smoked as a dashed line.
function drawWardMap(host, wardRows, dewards, smokes) {
  const dewarded = new Set(dewards.map((w) => w.entity));
  const s = section(host, "Ward map (a cross: dewarded; dashed: smoke routes)");
  s.innerHTML += `<label>from <input id="wardfrom" type="number" value="-2" step="1"> to ` +
    `<input id="wardto" type="number" value="${Math.ceil(gameTime(info.last_tick) / 60)}" ` +
    `step="1"> min</label><br><canvas id="wardmap" width="420" height="420"></canvas>`;
  const redraw = () => {
    const from = Number($("wardfrom").value) * 60, to = Number($("wardto").value) * 60;
    const c = $("wardmap"), g = c.getContext("2d");
    g.fillStyle = "#0e1013";
    g.fillRect(0, 0, c.width, c.height);
    const b = info.bounds || [-8000, -8000, 8000, 8000];
    const k = Math.min(c.width / (b[2] - b[0] || 1), c.height / (b[3] - b[1] || 1));
    let drawn = 0, crossed = 0;
    for (const w of wardRows) {
      const placed = gameTime(w.placed_tick);
      if (placed < from || placed > to || w.x === null) continue;
      const end = w.removed_tick === null ? info.last_tick : w.removed_tick;
      const minutes = (end - w.placed_tick) * info.tick_interval / 60;
      const sx = (w.x - b[0]) * k, sy = (b[3] - w.y) * k;
      g.strokeStyle = teamColor(w.team);
      g.fillStyle = teamColor(w.team) + (w.kind === "sentry" ? "40" : "90");
      g.beginPath();
      g.arc(sx, sy, 3 + Math.min(6, minutes), 0, 2 * Math.PI);
      g.fill();
      g.stroke();
      drawn++;
      if (dewarded.has(w.entity)) {
        g.strokeStyle = "#fff";
        g.beginPath();
        g.moveTo(sx - 5, sy - 5); g.lineTo(sx + 5, sy + 5);
        g.moveTo(sx + 5, sy - 5); g.lineTo(sx - 5, sy + 5);
        g.stroke();
        crossed++;
      }
    }
    let routes = 0, points = 0;
    g.setLineDash([4, 3]);
    for (const smoke of smokes) {
      const start = gameTime(smoke.start_tick);
      if (start < from || start > to) continue;
      routes++;
      g.strokeStyle = teamColor(smoke.team);
      for (const path of Object.values(smoke.routes)) {
        g.beginPath();
        path.forEach(([x, y], i) => (i ? g.lineTo : g.moveTo).call(g, (x - b[0]) * k, (b[3] - y) * k));
        g.stroke();
        points += path.length;
      }
    }
    g.setLineDash([]);
    G.page.wards = { from, to, drawn, crossed, routes, points };
  };
  s.querySelectorAll("input").forEach((i) => i.addEventListener("change", redraw));
  redraw();
}

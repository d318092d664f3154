// gem-view: Deadlock's match page, as far as its tables go: the players at
// the end (their heroes and the items they hold at the clock by the names
// players read: nameOf), the souls advantage with the objectives and the
// mid boss marked, each lane's souls at 5, 10 and 15 minutes, the
// teamfights, each player's souls by source, the urn's events.
"use strict";

PAGES.deadlock = {
  draw(host, d) {
    const shown = (G.page = { game: "deadlock", players: {} });
    if (d.players) {
      section(host, "Players").innerHTML += table(["hero", "player", "K/D/A", "souls",
        "items at the clock"], d.players.map((p) => {
        shown.players[p.slot] = { kda: [p.kills, p.deaths, p.assists], souls: p.souls };
        return cells([esc(nameOf("hero", p.hero)), esc(p.name || "slot " + p.slot),
          `${p.kills ?? ""}/${p.deaths ?? ""}/${p.assists ?? ""}`, p.souls ?? "",
          `<span class="items" data-slot="${p.slot}"></span>`], `color:${teamColor(p.team)}`,
        `data-slot="${p.slot}"`);
      }), 'id="players"');
    }
    this.items = d.items || [];
    if (d.lane_leads && d.lane_leads.length) drawLaneLeads(host, d.lane_leads);
    if (d.teamfights && d.teamfights.length) drawFights(host, d.teamfights);
    if (d.soul_sources && d.soul_sources.length) drawSoulSources(host, d.soul_sources);
    if (d.advantage && d.advantage.ticks.length) {
      const marks = [];
      for (const o of d.objectives || []) {
        if (o.destroyed_tick !== null) marks.push([o.destroyed_tick, "obj", teamColor(o.team) + "aa"]);
      }
      for (const m of d.mid_boss || []) marks.push([m.tick, "boss", "#ffffff60"]);
      advantageChart(section(host, "Amber's souls advantage"), "", d.advantage,
        [["souls", "souls", "#ffd866"]], marks);
      shown.advantage = { ticks: d.advantage.ticks, souls: d.advantage.souls, marks: marks.length };
    }
    const destroyed = (d.objectives || []).filter((o) => o.destroyed_tick !== null)
      .sort((a, b) => a.destroyed_tick - b.destroyed_tick);
    if (destroyed.length) {
      section(host, "Objectives, in the order they fell").innerHTML += `<ol class="events">` +
        destroyed.map((o) => `<li data-tick="${o.destroyed_tick}" style="color:${teamColor(o.team)}">` +
          `${clockText(o.destroyed_time ?? gameTime(o.destroyed_tick))} ` +
          `${esc(o.name || o.class || "objective")} ` +
          `(${esc(teamLabel(o.team))})</li>`).join("") + "</ol>";
      shown.objectives = destroyed.map((o) => [o.destroyed_tick, o.team]);
    }
    if (d.mid_boss && d.mid_boss.length) {
      section(host, "Mid boss").innerHTML += `<ul class="events">${d.mid_boss.map((m) =>
        `<li data-tick="${m.tick}">${clockText(m.game_time ?? 0)} ${esc(m.kind)}` +
        `${m.team ? " (" + esc(teamLabel(m.team)) + ")" : ""}</li>`).join("")}</ul>`;
    }
    host.querySelectorAll(".events li[data-tick]").forEach((li) =>
      li.addEventListener("click", () => seek(Number(li.dataset.tick))));
    if (d.urn && d.urn.length) {
      section(host, "The urn").innerHTML += `<ul class="events">${d.urn.map((u) =>
        `<li>${clockText(u.game_time ?? 0)} ${esc(u.event)} ${esc(playerName(u.slot))}</li>`)
        .join("")}</ul>`;
    }
  },
  // The items each hero holds at tick t (showHeldItems, page.js).
  tick(t) {
    showHeldItems(this.items, t);
  },
};

// The teamfights (the teamfights table, boon's rule): when, how long, who,
// the damage and the kills; a row seeks to the fight's start.
function drawFights(host, fights) {
  G.page.teamfights = fights.map((f) => [f.fight, f.start_tick, JSON.parse(f.slots).length,
    f.hero_damage, f.kills]);
  section(host, "Teamfights").innerHTML += table(["start", "seconds", "heroes", "hero damage",
    "kills"], fights.map((f) => cells([clockText(f.start_time ?? gameTime(f.start_tick)),
    num(f.duration_s, 1), esc(JSON.parse(f.slots).map((s) => playerName(s)).join(", ")),
    f.hero_damage, f.kills], "", `data-tick="${f.start_tick}"`)), 'id="fights"');
  host.querySelectorAll("#fights tr[data-tick]").forEach((tr) =>
    tr.addEventListener("click", () => seek(Number(tr.dataset.tick))));
}

// Each player's souls by source (the soul_sources view: the post-match
// record's, else the controller's creep counters, as origin says).
function drawSoulSources(host, rows) {
  const by = {};
  for (const r of rows) (by[r.slot] = by[r.slot] || []).push(r);
  G.page.souls = {};
  section(host, "Souls by source").innerHTML += table(["player", "from", "sources"],
    Object.keys(by).map((slot) => {
      G.page.souls[slot] = by[slot].map((r) => [r.source, r.souls]);
      return cells([esc(playerName(Number(slot))), esc(by[slot][0].origin),
        esc(by[slot].map((r) => `${r.source ?? "?"} ${r.souls}`).join(", "))]);
    }), 'id="souls"');
}

// The lanes by their colour (CMsgLaneColor), each team's players in it and
// their souls at 5, 10 and 15 minutes with the lead over the other team's
// (the lane_leads view); a mark the timeline does not reach is left blank.
const LANE_COLORS = { 1: "yellow", 3: "green", 4: "blue", 6: "purple" };
function drawLaneLeads(host, leads) {
  const signed = (v) => (v === null || v === undefined ? "" : (v > 0 ? "+" : "") + v);
  const at = (souls, lead) => (souls === null || souls === undefined ? "" :
    `${souls} (${signed(lead)})`);
  G.page.lanes = leads.map((l) => [l.lane, l.team, l.souls_5, l.lead_5, l.souls_10, l.lead_10,
    l.souls_15, l.lead_15]);
  section(host, "Lanes: souls at 5, 10 and 15 minutes (lead over the lane's other team)")
    .innerHTML += table(["lane", "team", "players", "5:00", "10:00", "15:00"],
      leads.map((l) => cells([esc(LANE_COLORS[l.lane] || String(l.lane)), esc(teamLabel(l.team)),
        esc(JSON.parse(l.slots).map((s) => playerName(s)).join(", ")), at(l.souls_5, l.lead_5),
        at(l.souls_10, l.lead_10), at(l.souls_15, l.lead_15)], `color:${teamColor(l.team)}`)),
      'id="lanes"');
}

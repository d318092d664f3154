// gem-view: Dota's builds on the match page, by the names players read
// (nameOf: the facts' display names): each hero's skill build as a grid of
// levels, as OpenDota draws it, and the item timings, one row per hero.
"use strict";

// The skill points of each slot in the order spent: [{ability, level,
// tick}] (level: the ability's level after the point), from the page's
// `skills` rows (each rise of an ability's level).
function skillPoints(skills) {
  const bySlot = {};
  for (const s of skills || []) (bySlot[s.slot] = bySlot[s.slot] || []).push(s);
  return bySlot;
}

// One grid per hero: a row per ability or talent (in the order of its first
// point), a column per hero level 1 to 30; the k-th point the hero spent
// is marked in column k, the level it came with while a hero earns a point
// a level (the timeline's levels are not used: a point saved and spent
// later still counts where it was earned), with the ability's level after
// it. A build longer than 30 points (a replay gem-synth made) widens the
// grid rather than drop one.
function skillGrid(player, points) {
  const width = Math.max(30, points.length);
  const rows = [], rowOf = {};
  points.forEach((p, k) => {
    if (!(p.ability in rowOf)) {
      rowOf[p.ability] = rows.length;
      rows.push({ ability: p.ability, marks: {} });
    }
    rows[rowOf[p.ability]].marks[k + 1] = p.level;
  });
  const levels = Array.from({ length: width }, (_, i) => i + 1);
  const head = `<tr><th>${esc(nameOf("hero", player.hero))}</th>` +
    levels.map((l) => `<th>${l}</th>`).join("") + "</tr>";
  const body = rows.map((r) => `<tr><td title="${esc(nameOf("ability", r.ability))}">` +
    `${esc(nameOf("ability", r.ability))}</td>` +
    levels.map((l) => (l in r.marks ? `<td class="mark">${r.marks[l]}</td>` : "<td></td>"))
      .join("") + "</tr>").join("");
  return { html: `<table class="grid skills" data-slot="${player.slot}" ` +
    `style="color:${teamColor(player.team)}">${head}${body}</table>`,
  rows: rows.map((r) => [r.ability, r.marks]) };
}

function drawSkillGrids(host, players, skills) {
  const bySlot = skillPoints(skills);
  const s = section(host, "Skill builds by level (the number: the ability's level after it)");
  const shown = {};
  s.innerHTML += players.map((p) => {
    const grid = skillGrid(p, bySlot[p.slot] || []);
    shown[p.slot] = grid.rows;
    return grid.html;
  }).join("");
  return shown;
}

// Item timings: per hero, every purchase at its game time (m:ss), by the
// item's name (recipes too: the combat log names what was bought).
function drawItemTimings(host, players, purchases) {
  const bySlot = {};
  for (const p of purchases || []) (bySlot[p.slot] = bySlot[p.slot] || []).push(p);
  const shown = {};
  section(host, "Item timings (game time)").innerHTML += table(["hero", "items bought"],
    players.map((p) => {
      const list = bySlot[p.slot] || [];
      shown[p.slot] = list.map((x) => [clockText(x.game_time ?? 0), x.item]);
      return cells([esc(nameOf("hero", p.hero)), `<div class="wrap">` + list.map((x) =>
        `<span class="buy" data-tick="${x.tick}">${clockText(x.game_time ?? 0)} ` +
        `${esc(nameOf("item", x.item))}</span>`).join(" ") + "</div>"],
      `color:${teamColor(p.team)}`, `data-slot="${p.slot}"`);
    }), 'id="itemtimes"');
  return shown;
}

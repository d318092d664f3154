// gem-view: CS2's match page (HLTV-style): the round history (each round's
// winner, a glyph of how it was won and the score after it; a click seeks
// the map to the round's start), each side's economy and buy per round,
// and the players' figures over the match (with their kills by weapon, by
// the weapons' names: nameOf) or one round.
"use strict";

// How a round was won, as the rounds table names it, and the glyph drawn
// for it (by us, on a canvas: no image ships).
const WIN_GLYPHS = { t_eliminated: "elimination", ct_eliminated: "elimination",
  vip_killed: "elimination", bomb_exploded: "bomb", t_planted: "bomb", bomb_defused: "defuse",
  target_saved: "time", hostages_not_rescued: "time", t_not_escaped: "time",
  vip_not_escaped: "time", hostages_rescued: "rescue", t_surrender: "surrender",
  ct_surrender: "surrender" };
function drawGlyph(g, kind, x, y, size) {
  g.save();
  g.strokeStyle = g.fillStyle = "#fff";
  g.lineWidth = 2;
  g.beginPath();
  if (kind === "elimination") {  // a cross
    g.moveTo(x - size, y - size); g.lineTo(x + size, y + size);
    g.moveTo(x + size, y - size); g.lineTo(x - size, y + size);
    g.stroke();
  } else if (kind === "bomb") {  // a round bomb with its fuse
    g.arc(x, y + 1, size * 0.8, 0, 2 * Math.PI);
    g.fill();
    g.moveTo(x + size * 0.5, y - size * 0.5); g.lineTo(x + size, y - size);
    g.stroke();
  } else if (kind === "defuse") {  // a pair of cutters
    g.moveTo(x - size, y + size); g.lineTo(x + size, y - size);
    g.moveTo(x - size, y - size * 0.2); g.lineTo(x + size * 0.2, y + size);
    g.stroke();
  } else if (kind === "time") {  // a clock
    g.arc(x, y, size, 0, 2 * Math.PI);
    g.moveTo(x, y); g.lineTo(x, y - size * 0.7);
    g.moveTo(x, y); g.lineTo(x + size * 0.5, y);
    g.stroke();
  } else {  // anything else: a dot
    g.arc(x, y, size * 0.4, 0, 2 * Math.PI);
    g.fill();
  }
  g.restore();
}

PAGES.cs2 = {
  draw(host, d) {
    const shown = (G.page = { game: "cs2", rounds: [], players: {}, buys: {} });
    const rounds = d.rounds || [];
    if (rounds.length) {
      const s = section(host, "Rounds (a click seeks to the round's start)");
      const w = 34;
      s.innerHTML += `<canvas id="roundbar" width="${w * rounds.length + 4}" height="64"></canvas>`;
      const c = s.querySelector("canvas"), g = c.getContext("2d");
      g.font = "10px sans-serif";
      rounds.forEach((r, i) => {
        const x = 2 + i * w;
        g.fillStyle = r.winner ? teamColor(r.winner) : "#444";
        g.fillRect(x, 2, w - 4, 34);
        drawGlyph(g, WIN_GLYPHS[r.reason] || "other", x + (w - 4) / 2, 19, 7);
        g.fillStyle = "#dde";
        g.fillText(String(r.round), x + 2, 48);
        g.fillText(`${r.t_score ?? ""}:${r.ct_score ?? ""}`, x + 2, 60);
        shown.rounds.push({ round: r.round, winner: r.winner, reason: r.reason,
          glyph: WIN_GLYPHS[r.reason] || "other", seek: r.start_tick ?? r.tick });
      });
      c.addEventListener("click", (e) => {
        const r = rounds[Math.floor((e.offsetX - 2) / w)];
        if (r) { showPage(false); seek(r.start_tick ?? r.tick); }
      });
    }
    if (d.buys) {
      const by = {};
      for (const b of d.buys) {
        (by[b.round] = by[b.round] || {})[b.team] = b;
        shown.buys[b.round + "/" + b.team] = [b.equipment_value, b.buy_type];
      }
      section(host, "Economy: each side's equipment at the freeze's end, and its buy").innerHTML +=
        table(["round", "T equipment", "T buy", "CT equipment", "CT buy"],
          Object.keys(by).map((r) => cells([r, by[r][2]?.equipment_value ?? "",
            esc(by[r][2]?.buy_type ?? ""), by[r][3]?.equipment_value ?? "",
            esc(by[r][3]?.buy_type ?? "")])));
    }
    // Each player's kills of enemies by weapon, by the weapons' names.
    this.weapons = {};
    for (const w of d.weapon_kills || []) {
      (this.weapons[w.slot] = this.weapons[w.slot] || []).push([w.weapon, w.kills]);
    }
    if (d.aim) drawAim(host, d.aim, d.utility_on_death || []);
    if (d.players) {
      const s = section(host, "Players");
      s.innerHTML += `<label>over <select id="cs2round"><option value="">the match</option>` +
        rounds.map((r) => `<option value="${r.round}">round ${r.round}</option>`).join("") +
        `</select></label><div id="cs2players"></div>`;
      this.data = d;
      s.querySelector("select").addEventListener("change", (e) => this.players(e.target.value));
      this.players("");
    }
  },
  // The players' table over the match, or one round (player_rounds).
  players(round) {
    const d = this.data, out = {};
    let rows;
    if (round === "") {
      const kda = {};
      for (const r of d.player_rounds || []) {
        const k = (kda[r.slot] = kda[r.slot] || [0, 0, 0]);
        k[0] += r.kills;
        k[1] += r.deaths;
        k[2] += r.assists;
      }
      rows = d.players.map((p) => {
        const k = kda[p.slot] || [0, 0, 0];
        const weapons = this.weapons[p.slot] || [];
        out[p.slot] = { kda: k, kpr: p.kpr, adr: p.adr, kast: p.kast, hs: p.hs_pct,
          rating: p.rating, opening: [p.opening_kills, p.opening_deaths],
          clutches: [p.clutches_won, p.clutches], weapons };
        return cells([esc(p.name || "slot " + p.slot), k.join("/"), num(p.kpr, 2), num(p.adr, 1),
          num(p.kast, 1),
          num(p.hs_pct, 1), num(p.rating, 2), `${p.opening_kills}/${p.opening_deaths}`,
          `${p.trade_kills}/${p.traded_deaths}`, `${p.clutches_won}/${p.clutches}`,
          p.utility_damage, p.flash_assists, p.enemies_flashed,
          `<span class="weapons">${weapons.map(([w, n]) => `${esc(nameOf("weapon", w))} ${n}`)
            .join(", ")}</span>`], `color:${teamColor(p.team)}`, `data-slot="${p.slot}"`);
      });
      $("cs2players").innerHTML = table(["player", "K/D/A", "KPR", "ADR", "KAST %", "HS %",
        "rating 1.0",
        "opening K/D", "trades K/traded", "clutches won/played", "utility damage",
        "flash assists", "enemies flashed", "kills by weapon"], rows, 'id="players"');
    } else {
      rows = (d.player_rounds || []).filter((r) => r.round === Number(round)).map((r) => {
        out[r.slot] = { kills: r.kills, deaths: r.deaths, assists: r.assists, damage: r.damage,
          kast: r.kast };
        return cells([esc(playerName(r.slot)), `${r.kills}/${r.deaths}/${r.assists}`, r.damage,
          r.kast ? "yes" : "no", r.traded ? "yes" : "", r.utility_damage, r.flash_assists,
          r.enemies_flashed]);
      });
      $("cs2players").innerHTML = table(["player", "K/D/A", "damage", "KAST", "traded",
        "utility damage", "flash assists", "enemies flashed"], rows);
    }
    G.page.players = out;
    G.page.over = round === "" ? "match" : Number(round);
  },
};

// Each player's aim and utility (the aim_stats, flash_stats and he_stats
// views: Leetify's measures by the rules docs/cs2.md states).
function drawAim(host, aim, onDeath) {
  const pct = (v) => (v === null || v === undefined ? "" : num(100 * v, 0));
  const death = {};
  for (const u of onDeath) death[u.slot] = u.value_per_death;
  G.page.aim = {};
  const rows = aim.map((a) => {
    G.page.aim[a.slot] = { ttd: a.time_to_damage_ms, crosshair: a.crosshair_angle,
      rifle_cs: a.rifle_counter_strafed, pistol_cs: a.pistol_counter_strafed,
      first: a.first_bullet_accuracy, flashes: a.flashbangs,
      per_flash: a.enemies_per_flash, he: a.damage_per_grenade,
      death_utility: death[a.slot] ?? null };
    return cells([esc(playerName(a.slot)), a.engagements, num(a.time_to_damage_ms, 0),
      num(a.crosshair_angle, 1), pct(a.rifle_counter_strafed), pct(a.pistol_counter_strafed),
      pct(a.first_bullet_accuracy), pct(a.spray_accuracy), pct(a.head_accuracy), a.flashbangs,
      num(a.enemies_per_flash, 2), num(a.enemy_blind_s, 2), a.flashes_to_kills,
      num(a.damage_per_grenade, 1), num(death[a.slot], 0)], "", `data-slot="${a.slot}"`);
  });
  section(host, "Aim and utility (medians over engagements; shares in %)").innerHTML += table(
    ["player", "engagements", "time to damage ms", "crosshair deg", "rifle counter-strafed",
      "pistol counter-strafed", "first bullet", "spray", "head", "flashbangs",
      "enemies per flash", "enemy blind s", "flashes to kills", "HE damage per grenade",
      "$ in grenades per death"],
    rows, 'id="aim"');
}

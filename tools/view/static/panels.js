// gem-view: the side panels beside the map: the scoreboard and the kill
// feed as of the clock's tick, and the game's own panel.
"use strict";
function updateSide(t) {
  const players = info.players || [];
  const money = ["net_worth", "money", "souls"].find((c) => col[c] !== undefined) || null;
  let html = `<tr><th>player</th><th>K</th><th>D</th><th>A</th><th>${money || ""}</th></tr>`;
  for (const p of players) {
    const r = rowAt(p.slot, t);
    const v = (c) => (r && col[c] !== undefined && r[col[c]] !== null ? r[col[c]] : "");
    html += `<tr style="color:${teamColor(p.team)}"><td>${esc(p.name || "slot " + p.slot)}</td><td>${v("kills")}` +
      `</td><td>${v("deaths")}</td><td>${v("assists")}</td><td>${money ? v(money) : ""}</td></tr>`;
  }
  $("score").innerHTML = html;
  const name = (slot) => {
    const p = players.find((q) => q.slot === slot);
    return p ? p.name : slot === null ? "world" : "slot " + slot;
  };
  const past = kills.filter((k) => k.tick <= t).slice(-15).reverse();
  // CS2's feed names the weapon, as the game's does.
  const weapon = (k) => (info.game === "cs2" && k.weapon ?
    ` (${esc(nameOf("weapon", k.weapon))})` : "");
  $("feed").innerHTML = past.map((k) => `<li>${clockText(k.game_time ?? 0)} ${esc(name(k.killer))}` +
    ` &rarr; ${esc(name(k.victim))}${weapon(k)}</li>`).join("");
  $("match").innerHTML = info.game === "deadlock" ? deadlockPanel(name) : "";
}


// gem-view: Deadlock's state beside the map.
"use strict";
// Deadlock, as of tick t (G.deadlock): the urn's carrier (the slot whose
// last urn event is a pickup), the objectives destroyed, each patron's
// phase, the mid boss's last event, and the troopers drawn per lane and
// team. Every value is a row of the index's tables or the frame's units.
const LANES = { 1: ["yellow", "#e8d44d"], 3: ["green", "#4ec95a"], 4: ["blue", "#4a90e2"],
  6: ["purple", "#a66be0"] };
const TEAM_NAMES = { 2: "Amber", 3: "Sapphire" };
function deadlockState(t) {
  let carrier = null;
  for (const e of tables.urn || []) {
    if (e.tick > t) break;
    if (e.event === "picked_up") carrier = e.slot;
    else if ((e.event === "dropped" || e.event === "returned") && e.slot === carrier) carrier = null;
  }
  const destroyed = (tables.objectives || []).filter((o) => o.destroyed_tick !== null &&
    o.destroyed_tick <= t);
  const phases = {};
  for (const p of tables.patron_phases || []) if (p.tick <= t) phases[p.entity] = p;
  const mid = (tables.mid_boss || []).filter((m) => m.tick <= t).pop() || null;
  const lanes = {};
  for (const u of frame.units) {
    if (u.k !== "trooper" || u.l === null || u.l === undefined) continue;
    const key = u.l + "/" + u.t;
    lanes[key] = (lanes[key] || 0) + 1;
  }
  G.deadlock = { tick: t, carrier, destroyed: destroyed.map((o) => o.entity),
    phases: Object.fromEntries(Object.entries(phases).map(([e, p]) => [e, p.phase])),
    mid_boss: mid && mid.kind, lanes };
}
function deadlockPanel(name) {
  const d = G.deadlock;
  if (!d) return "";
  const lost = (team) => (tables.objectives || []).filter((o) => o.team === team &&
    d.destroyed.includes(o.entity)).length;
  let html = `<li>urn: ${d.carrier === null ? "not carried" : "carried by " + esc(name(d.carrier))}</li>`;
  html += `<li>objectives lost: Amber ${lost(2)}, Sapphire ${lost(3)}</li>`;
  for (const [e, phase] of Object.entries(d.phases)) {
    const p = (tables.patron_phases || []).find((x) => String(x.entity) === e);
    html += `<li>patron (${TEAM_NAMES[p.team] || p.team}): phase ${phase}</li>`;
  }
  if (d.mid_boss) html += `<li>mid boss: ${esc(d.mid_boss)}</li>`;
  const lanes = Object.entries(d.lanes).sort();
  if (lanes.length) {
    html += "<li>troopers: " + lanes.map(([k, n]) => {
      const [lane, team] = k.split("/");
      return `${(LANES[lane] || [lane])[0]} ${TEAM_NAMES[team] || team} ${n}`;
    }).join(", ") + "</li>";
  }
  return `<h3>Match</h3><ul>${html}</ul>`;
}

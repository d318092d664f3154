#include "core/dota/ward_views.h"

namespace gem::dota {
namespace {

const char kViews[] =
    "CREATE VIEW ward_lives(  -- each ward's life as OpenDota's vision log reads it (odota/web\n"
    "  -- VisionLog): from its placement to its removal, or to the game's end for a ward that\n"
    "  -- stands, the lifetime capped at 360 s for an observer and 420 s for a sentry as odota/web\n"
    "  -- caps it; destroyed or expired by odota/parser's rule (wards.killed), and by whom\n"
    "  entity,  -- the ward's entity (wards.entity)\n"
    "  kind,  -- observer or sentry\n"
    "  team,  -- the ward's team\n"
    "  owner,  -- the player who placed it (slot)\n"
    "  placed_tick,  -- the tick it was placed at\n"
    "  placed_time,  -- the game clock then, seconds\n"
    "  removed_tick,  -- the tick it went; NULL while it stands at the end\n"
    "  removed_time,  -- the game clock then; NULL while it stands at the end\n"
    "  lifetime_s,  -- removed_time less placed_time (a ward that stands: match_info.duration_s\n"
    "  -- less placed_time), at most 360 (observer) or 420 (sentry); NULL without the clocks, or\n"
    "  -- when the clock says it went before it was placed (meta wards_ended_before_placed)\n"
    "  destroyed,  -- wards.killed: 1 destroyed, 0 expired, NULL when neither is known (it went\n"
    "  -- without dying, or stands)\n"
    "  dewarder,  -- the player (players.slot) whose hero destroyed it (players.hero is\n"
    "  -- wards.killer_name); NULL when none did, or the destroyer is no player's hero\n"
    "  dewarder_name,  -- the destroyer by its combat-log name (wards.killer_name): a hero, a creep,\n"
    "  -- a tower; NULL unless destroyed\n"
    "  x,  -- where it stood: x, world units\n"
    "  y,  -- where it stood: y\n"
    "  z  -- where it stood: z\n"
    ") AS\n"
    "SELECT w.entity, w.kind, w.team, w.owner, w.placed_tick, w.placed_time, w.removed_tick,\n"
    "       w.removed_time,\n"
    "       CASE WHEN w.removed_time < w.placed_time THEN NULL\n"
    "            ELSE min(coalesce(w.removed_time, m.duration_s) - w.placed_time,\n"
    "                     CASE w.kind WHEN 'observer' THEN 360 ELSE 420 END) END,\n"
    "       w.killed, p.slot, w.killer_name, w.x, w.y, w.z\n"
    "FROM wards w LEFT JOIN match_info m LEFT JOIN players p ON p.hero = w.killer_name;\n";

}  // namespace

std::string WardViewsSql() { return kViews; }

}  // namespace gem::dota

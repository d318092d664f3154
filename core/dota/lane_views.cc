#include "core/dota/lane_views.h"

namespace gem::dota {

namespace {

const char kViews[] =
    "CREATE VIEW lane_outcomes(  -- each lane at 10:00 by side, by gem's rule (Stratz publishes\n"
    "  -- none): the laning rows of the lane (bot, mid or top; roamers left out), their net\n"
    "  -- worth and XP summed against those of the other side in the lane, and an outcome by the\n"
    "  -- share s of the lane's net worth the side has: stomp s >= 0.60, win s >= 0.53, draw\n"
    "  -- between, loss s <= 0.47, stomped s <= 0.40\n"
    "  lane,  -- 1 bot, 2 mid, 3 top (lanes.lane)\n"
    "  team,  -- the side (2 Radiant, 3 Dire)\n"
    "  players,  -- the number of laners of the side in the lane\n"
    "  net_worth,  -- their net worth at 10:00, summed (laning.net_worth)\n"
    "  xp,  -- their XP at 10:00, summed (laning.xp)\n"
    "  opponent_net_worth,  -- the net worth of the laners of the other side, summed; NULL when\n"
    "  -- it has none in the lane\n"
    "  opponent_xp,  -- their XP, summed; NULL when the other side has none in the lane\n"
    "  net_worth_diff,  -- net_worth less opponent_net_worth; NULL without an opponent\n"
    "  xp_diff,  -- xp less opponent_xp; NULL without an opponent\n"
    "  net_worth_share,  -- net_worth / (net_worth + opponent_net_worth), 0 to 1; NULL without an\n"
    "  -- opponent or when both are 0\n"
    "  outcome  -- stomp, win, draw, loss or stomped, by net_worth_share; NULL when it is NULL\n"
    ") AS\n"
    "WITH sides AS (\n"
    "  SELECT l.lane, l.team, count(*) AS players, sum(g.net_worth) AS net_worth,\n"
    "         sum(g.xp) AS xp\n"
    "  FROM laning g JOIN lanes l USING (slot)\n"
    "  WHERE g.lane IN (1, 2, 3) AND g.is_roaming = 0\n"
    "  GROUP BY l.lane, l.team),\n"
    "shared AS (\n"
    "  SELECT s.*, o.net_worth AS opponent_net_worth, o.xp AS opponent_xp,\n"
    "         CASE WHEN s.net_worth + o.net_worth > 0\n"
    "              THEN s.net_worth * 1.0 / (s.net_worth + o.net_worth) END AS share\n"
    "  FROM sides s LEFT JOIN sides o ON o.lane = s.lane AND o.team <> s.team)\n"
    "SELECT lane, team, players, net_worth, xp, opponent_net_worth, opponent_xp,\n"
    "       net_worth - opponent_net_worth, xp - opponent_xp, share,\n"
    "       CASE WHEN share IS NULL THEN NULL\n"
    "            WHEN share >= 0.60 THEN 'stomp' WHEN share >= 0.53 THEN 'win'\n"
    "            WHEN share <= 0.40 THEN 'stomped' WHEN share <= 0.47 THEN 'loss'\n"
    "            ELSE 'draw' END\n"
    "FROM shared;\n"
    "CREATE VIEW lane_efficiency(  -- OpenDota's lane_efficiency (odota/core compute.ts): the gold\n"
    "  -- the player earned by 10:00 over 4948, the gold a lane gives in 10 minutes by its count\n"
    "  -- (melee creeps 40 x 60, ranged 45 x 20, siege 74 x 2, passive 600 x 1.5, starting 600);\n"
    "  -- for each player whose timeline reaches game_time 600, at the last sample at or before\n"
    "  -- it\n"
    "  slot,  -- the player (players.slot)\n"
    "  tick,  -- the sample's tick: the last timeline sample of the player at or before 10:00\n"
    "  game_time,  -- the game clock then, seconds (at or before 600)\n"
    "  earned_gold,  -- the gold the player had earned then (timeline.earned_gold: OpenDota's\n"
    "  -- gold_t)\n"
    "  lane_efficiency,  -- earned_gold / 4948; NULL when earned_gold is NULL or 0 (OpenDota\n"
    "  -- leaves it unset)\n"
    "  lane_efficiency_pct  -- floor(lane_efficiency * 100), OpenDota's lane_efficiency_pct\n"
    ") AS\n"
    "WITH last AS (\n"
    "  SELECT slot, max(tick) AS tick FROM timeline WHERE game_time <= 600 GROUP BY slot\n"
    "  HAVING (SELECT max(v.game_time) FROM timeline v WHERE v.slot = timeline.slot) >= 600)\n"
    "SELECT t.slot, t.tick, t.game_time, t.earned_gold,\n"
    "       CASE WHEN t.earned_gold <> 0 THEN t.earned_gold / 4948.0 END,\n"
    // As odota/core: Math.floor(lane_efficiency * 100), the quotient first.
    "       CASE WHEN t.earned_gold <> 0\n"
    "            THEN CAST(floor(t.earned_gold / 4948.0 * 100) AS INTEGER) END\n"
    "FROM last JOIN timeline t USING (slot, tick);\n";

}  // namespace

std::string LaneViewsSql() { return kViews; }

}  // namespace gem::dota

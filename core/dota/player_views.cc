#include "core/dota/player_views.h"

namespace gem::dota {
namespace {

// The gold and XP views: entries of `type` by `reason_column`.
std::string ReasonViewSql(const char* view, int type, const char* reason_column,
                          const char* names, const char* amount) {
  const std::string r = reason_column;
  return std::string("CREATE VIEW ") + view +
         " AS\n"
         "SELECT p.slot, c." + r + " AS reason, n.name AS reason_name,\n"
         "       sum(CASE WHEN c.value >= 2147483648 THEN c.value - 4294967296 ELSE c.value END)"
         " AS " + amount + ",\n"
         "       count(*) AS entries\n"
         "FROM combat_log_entries c\n"
         "  JOIN combat_log_names t ON t.idx = c.target_name_idx\n"
         "  JOIN players p ON p.hero = t.name\n"
         "  LEFT JOIN " + names + " n ON n.reason = c." + r + "\n"
         "WHERE c.type = " + std::to_string(type) + "\n"
         "GROUP BY p.slot, c." + r + ";\n";
}

constexpr const char* kViews =
    "CREATE VIEW apm AS\n"
    "SELECT p.slot, count(a.id) AS actions, m.duration_s / 60.0 AS minutes,\n"
    "       count(a.id) / (m.duration_s / 60.0) AS apm\n"
    "FROM players p CROSS JOIN match_info m LEFT JOIN actions a ON a.slot = p.slot\n"
    "GROUP BY p.slot;\n"
    "CREATE VIEW actions_by_type AS\n"
    "SELECT a.slot, a.order_type, n.name AS order_name, count(*) AS actions\n"
    "FROM actions a LEFT JOIN unit_order_names n USING (order_type)\n"
    "WHERE a.slot IS NOT NULL\n"
    "GROUP BY a.slot, a.order_type;\n"
    "CREATE VIEW time_dead AS\n"
    "SELECT p.slot, count(d.id) AS deaths, coalesce(sum(d.seconds_dead), 0) AS seconds_dead\n"
    "FROM players p LEFT JOIN hero_deaths d ON d.slot = p.slot\n"
    "GROUP BY p.slot;\n"
    // OpenDota's handleDeathCombat: every death entry but those a hero
    // comes back from (will_reincarnate) and suicides (the attacker is the
    // target, not an illusion of it), credited to the damage source.
    "CREATE VIEW credited_deaths AS\n"
    "SELECT c.id, c.tick, s.name AS source, t.name AS target, c.is_target_hero,\n"
    "       c.is_target_illusion\n"
    "FROM combat_log_entries c\n"
    "  JOIN combat_log_names s ON s.idx = c.damage_source_name_idx\n"
    "  JOIN combat_log_names t ON t.idx = c.target_name_idx\n"
    "  LEFT JOIN combat_log_names a ON a.idx = c.attacker_name_idx\n"
    "WHERE c.type = 4\n"
    "  AND coalesce(json_extract(c.extra, '$.will_reincarnate'), 0) = 0\n"
    "  AND NOT (a.name IS t.name AND coalesce(c.is_attacker_illusion, 0) = 0);\n"
    "CREATE VIEW kills_by_kind AS\n"
    "SELECT p.slot,\n"
    "       CASE\n"
    "         WHEN substr(d.target, 1, 13) = 'npc_dota_hero'\n"
    "           THEN CASE WHEN coalesce(d.is_target_illusion, 0) = 0 THEN 'hero'\n"
    "                ELSE 'illusion' END\n"
    "         WHEN instr(d.target, 'creep_goodguys') > 0 OR instr(d.target, 'creep_badguys') > 0\n"
    "           THEN 'lane_creep'\n"
    "         WHEN instr(d.target, 'observer') > 0 THEN 'observer'\n"
    "         WHEN instr(d.target, 'sentry') > 0 THEN 'sentry'\n"
    "         WHEN instr(d.target, '_tower') > 0 THEN 'tower'\n"
    "         WHEN instr(d.target, '_rax_') > 0 THEN 'barracks'\n"
    "         WHEN instr(d.target, '_fort') > 0 THEN 'fort'\n"
    "         WHEN instr(d.target, 'courier') > 0 THEN 'courier'\n"
    "         WHEN instr(d.target, 'roshan') > 0 THEN 'roshan'\n"
    "         WHEN instr(d.target, 'necronomicon') > 0 THEN 'necronomicon'\n"
    "         WHEN substr(d.target, 1, 16) = 'npc_dota_neutral' THEN 'neutral'\n"
    "         ELSE 'other'\n"
    "       END AS kind,\n"
    "       count(*) AS kills\n"
    "FROM credited_deaths d JOIN players p ON p.hero = d.source\n"
    "WHERE d.target <> p.hero\n"
    "GROUP BY p.slot, kind;\n"
    "CREATE VIEW killed_by AS\n"
    "SELECT p.slot, d.source AS killer, count(*) AS kills\n"
    "FROM credited_deaths d JOIN players p ON p.hero = d.target\n"
    "WHERE coalesce(d.is_target_hero, 0) = 1 AND coalesce(d.is_target_illusion, 0) = 0\n"
    "GROUP BY p.slot, d.source;\n"
    "CREATE VIEW laning AS\n"
    "WITH last AS (\n"
    "  SELECT slot, max(tick) AS tick FROM timeline WHERE game_time <= 600 GROUP BY slot\n"
    "  HAVING (SELECT max(v.game_time) FROM timeline v WHERE v.slot = timeline.slot) >= 600),\n"
    "at10 AS (\n"
    "  SELECT t.slot, t.tick, t.game_time, t.last_hits, t.denies, t.net_worth, t.xp, l.lane,\n"
    "         l.team, l.is_roaming\n"
    "  FROM last JOIN timeline t USING (slot, tick) JOIN lanes l USING (slot)),\n"
    "paired AS (\n"
    "  SELECT m.*, (SELECT o.slot FROM at10 o\n"
    "               WHERE o.team <> m.team AND o.lane = m.lane AND m.lane IN (1, 2, 3)\n"
    "                 AND o.is_roaming = 0 AND m.is_roaming = 0\n"
    "               ORDER BY o.net_worth DESC, o.slot LIMIT 1) AS opponent\n"
    "  FROM at10 m)\n"
    "SELECT m.slot, m.tick, m.game_time, m.lane, m.is_roaming, m.last_hits, m.denies,\n"
    "       m.net_worth, m.xp,\n"
    "       m.opponent AS opponent_slot, m.last_hits - o.last_hits AS last_hits_diff,\n"
    "       m.denies - o.denies AS denies_diff, m.net_worth - o.net_worth AS net_worth_diff,\n"
    "       m.xp - o.xp AS xp_diff\n"
    "FROM paired m LEFT JOIN at10 o ON o.slot = m.opponent;\n";

}  // namespace

std::string PlayerViewsSql() {
  return ReasonViewSql("gold_reasons", 8, "gold_reason", "gold_reason_names", "gold") +
         ReasonViewSql("xp_reasons", 10, "xp_reason", "xp_reason_names", "xp") + kViews;
}

}  // namespace gem::dota

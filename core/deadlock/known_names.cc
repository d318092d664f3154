#include "core/deadlock/known_names.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "core/deadlock/messages.h"

namespace gem::deadlock {
namespace {

// Item names (abilities.vdata's upgrade_*).
constexpr std::string_view kItems[] = {
    "upgrade_active_reload",     "upgrade_cardio_calibrator",
    "upgrade_chonky",            "upgrade_clip_size",
    "upgrade_close_range",       "upgrade_damage_recycler",
    "upgrade_discord",           "upgrade_endurance",
    "upgrade_extra_charge",      "upgrade_fleetfoot_boots",
    "upgrade_grit",              "upgrade_headshot_booster",
    "upgrade_health",            "upgrade_health_stealing_magic",
    "upgrade_healing_booster",   "upgrade_improved_spirit",
    "upgrade_improved_stamina",  "upgrade_kinetic_sash",
    "upgrade_lifestrike_gauntlets", "upgrade_magic_burst",
    "upgrade_magic_reach",       "upgrade_magic_tempo",
    "upgrade_medic_bullets",     "upgrade_melee_charge",
    "upgrade_quick_silver",      "upgrade_rapid_rounds",
    "upgrade_sprint_booster",    "upgrade_superior_stamina",
    "upgrade_trophy_collector",  "upgrade_vampire",
    "upgrade_weapon_shielding",
};

// Modifier names (modifiers.vdata): states a player, an objective or a
// trooper is in through a match.
constexpr std::string_view kModifiers[] = {
    "citadel_modifier_teleport",
    "midboss_modifier_damage_resistance",
    "modifier_boss_invuln",
    "modifier_citadel_catapult_damage_slow",
    "modifier_citadel_catapult_damage_stun",
    "modifier_citadel_disarmed",
    "modifier_citadel_idol_return",
    "modifier_citadel_idol_walkback",
    "modifier_citadel_in_enemy_base",
    "modifier_citadel_in_fountain",
    "modifier_citadel_in_friendly_base",
    "modifier_citadel_in_mid_boss_temple",
    "modifier_citadel_in_shop",
    "modifier_citadel_knockdown",
    "modifier_citadel_pulldown_to_ground",
    "modifier_citadel_stunned",
    "modifier_citadel_stunned_no_cc_diminish",
    "modifier_citadel_trooper_in_enemy_base_resist",
    "modifier_combat_status",
    "modifier_combat_status_bullet_hit",
    "modifier_crowd_control_diminish_watcher",
    "modifier_early_gold_pickup_aura",
    "modifier_hero_upgrade_bonuses",
    "modifier_idol_comeback",
    "modifier_idol_pickup_aura",
    "modifier_in_tunnel",
    "modifier_life_steal",
    "modifier_low_health_glow",
    "modifier_near_climbable_rope",
    "modifier_nearby_ally_resist",
    "modifier_neutral_gold_pickup_aura",
    "modifier_no_teleport",
    "modifier_player_disconnected",
    "modifier_rejuv_pickup_aura",
    "modifier_speed_boost",
    "modifier_t3boss_phase1",
    "modifier_tier2boss_electric_beam",
    "modifier_tier2boss_laser_charge",
    "modifier_tier3_boss_invuln",
    "modifier_tier3_damage_pulse",
};

// The table by token, hashed once (about 70 names).
const std::vector<KnownName>& ByToken() {
  static const std::vector<KnownName> table = [] {
    std::vector<KnownName> t;
    t.reserve(std::size(kItems) + std::size(kModifiers));
    for (std::string_view n : kItems) t.push_back({StringToken(n), n, NameKind::kItem});
    for (std::string_view n : kModifiers) t.push_back({StringToken(n), n, NameKind::kModifier});
    std::sort(t.begin(), t.end(), [](const KnownName& a, const KnownName& b) {
      return a.token != b.token ? a.token < b.token : a.kind < b.kind;
    });
    return t;
  }();
  return table;
}

std::string_view Find(uint32_t token, NameKind kind) {
  const std::vector<KnownName>& t = ByToken();
  auto it = std::lower_bound(t.begin(), t.end(), token,
                             [](const KnownName& k, uint32_t v) { return k.token < v; });
  for (; it != t.end() && it->token == token; ++it) {
    if (it->kind == kind) return it->name;
  }
  return {};
}

}  // namespace

std::span<const KnownName> KnownNames() { return ByToken(); }
std::string_view KnownItemName(uint32_t token) { return Find(token, NameKind::kItem); }
std::string_view KnownModifierName(uint32_t token) { return Find(token, NameKind::kModifier); }

void WriteKnownNames(match::MatchContext& ctx, uint32_t table) {
  MatchValue row[4];
  for (const KnownName& k : KnownNames()) {
    row[0] = MatchValue::Int(k.token);
    row[1] = MatchValue::Text(k.name);
    row[2] = MatchValue::Text(k.kind == NameKind::kItem ? "item" : "modifier");
    row[3] = MatchValue::Text(kKnownNamesSource);
    ctx.Row(table, row);
  }
}

}  // namespace gem::deadlock

#include "tools/synth/deadlock_events.h"
#include "tools/synth/json_truth.h"

#include <algorithm>

#include "proto/citadel_usermessages.pb.h"

namespace gem::synth {
namespace {


const char* const kObjectiveClasses[] = {"CNPC_TrooperBoss", "CNPC_Boss_Tier2",
                                         "CNPC_TrooperBarrackBoss",
                                         "CCitadel_Destroyable_Building", "CNPC_Boss_Tier3"};
const char* const kChanges[] = {"bought", "upgraded", "sold", "swapped", "leveled_up", "failed"};

bool IsAbilityClass(const std::string& c) {
  return c.find("Ability") != std::string::npos || c.rfind("CCitadel_Item", 0) == 0 ||
         c.rfind("CAbility", 0) == 0;
}


void SetVector(proto::CitadelVector* v, float x, float y, float z) {
  v->set_x(x);
  v->set_y(y);
  v->set_z(z);
}


}  // namespace

bool DeadlockEvents::Names(const std::string& c) const {
  if (!active_) return false;
  // The game rules too: every row's game_time is their clock.
  if (c == "CCitadelPlayerController" || c == "CCitadelPlayerPawn" || c == "CNPC_Trooper" ||
      c == "CCitadelGameRulesProxy" || c == "CCitadelIdolReturnTrigger" || IsAbilityClass(c)) {
    return true;
  }
  return std::find(std::begin(kObjectiveClasses), std::end(kObjectiveClasses), c) !=
         std::end(kObjectiveClasses);
}

DeadlockEvents::DeadlockEvents(World* world, uint64_t seed, bool flaws, bool post_match_record)
    : world_(world), rng_(seed ^ 0xDEAD10C4ull), flaws_(flaws),
      post_match_record_(post_match_record) {
  active_ = world_->ClassId("CCitadelPlayerController") >= 0;
}

void DeadlockEvents::Start(uint32_t end_tick, FILE* truth) {
  if (!active_) return;
  truth_ = truth;
  start_ = world_->start_tick();
  end_ = end_tick;
  // Times in game seconds, as even tick counts (packets come every 2 ticks).
  const double tps = 1.0 / world_->tick_interval();
  auto ticks = [&](double seconds) {
    return 2 * static_cast<uint32_t>(seconds * tps / 2 + 0.5);
  };
  every_ = ticks(30);
  minute_ = ticks(60);
  kill_after_ = ticks(20);
  stack_every_ = ticks(5);
  modifier_every_ = ticks(10);
  damage_chance_ = 9.0 / (tps / 2);  // about nine a second
  std::vector<std::vector<int32_t>> objectives(std::size(kObjectiveClasses));
  for (const auto& [index, e] : world_->entities()) {
    const std::string& c = e->class_name();
    if (c == "CCitadelPlayerController") {
      const int64_t team = world_->GetInt(*e, "m_iTeamNum", 0);
      const int64_t handle = world_->GetInt(*e, "m_hHeroPawn", 0xFFFFFF);
      auto pawn = world_->entities().find(static_cast<int32_t>(handle & 0x3FFF));
      if ((team == 2 || team == 3) && pawn != world_->entities().end() &&
          pawn->second->handle() == static_cast<uint32_t>(handle)) {
        players_.push_back({index - 1, e.get(), pawn->second.get()});
      }
    } else if (c == "CCitadelGameRulesProxy") {
      rules_ = e.get();
    } else if (c == "CNPC_Trooper") {
      troopers_.push_back(index);
    } else if (IsAbilityClass(c)) {
      const std::string name = world_->EntityName(*e);
      const int64_t id = world_->GetInt(*e, "m_nSubclassID", 0);
      if (!name.empty() && id != 0) {
        abilities_.push_back({index, name, static_cast<uint32_t>(id)});
        const bool has_bits = world_->PathOf(e->class_id, "m_nUpgradeBits") != nullptr ||
                              world_->PathOf(e->class_id, "m_nUpgradeInfo") != nullptr;
        if (has_bits && world_->GetInt(*e, "m_nUpgradeBits",
                                       world_->GetInt(*e, "m_nUpgradeInfo", 1)) == 0) {
          signature_.push_back(index);
          upgrade_levels_.push_back(0);
        }
      }
    }
    for (size_t k = 0; k < std::size(kObjectiveClasses); ++k) {
      if (c == kObjectiveClasses[k]) objectives[k].push_back(index);
    }
  }
  OpenShop();
  // One of each kind in turn (guardian, walker, base guardian, shrine,
  // patron), so that every kind falls within the match (one every two
  // minutes from minute 3: 16 in 36 minutes).
  for (size_t round = 0;; ++round) {
    bool any = false;
    for (const std::vector<int32_t>& kind : objectives) {
      if (round < kind.size()) {
        objectives_.push_back(kind[round]);
        any = true;
      }
    }
    if (!any) break;
  }
}

SimEntity* DeadlockEvents::Pick(const std::vector<int32_t>& indexes) {
  if (indexes.empty()) return nullptr;
  auto it = world_->entities().find(indexes[Below(indexes.size())]);
  return it == world_->entities().end() ? nullptr : it->second.get();
}

int32_t DeadlockEvents::SlotOf(const SimEntity* e) const {
  for (const Player& p : players_) {
    if (p.pawn == e || p.controller == e) return p.slot;
  }
  return -1;
}

void DeadlockEvents::Emit(uint32_t type, const std::string& payload, const std::string& truth) {
  world_->AddMessage(type, payload);
  ++messages_;
  if (truth_ != nullptr && !truth.empty()) std::fprintf(truth_, "%s\n", truth.c_str());
}

void DeadlockEvents::Tick(uint32_t tick) {
  if (!active_) return;
  const uint32_t since = tick - start_;
  if (since == 2) {
    proto::CCitadelUserMsg_BannedHeroes bans;
    std::string truth;
    std::vector<uint32_t> ids = {7, 13, 25};
    if (flaws_) ids.push_back(999);  // no hero has it
    for (uint32_t id : ids) {
      bans.add_banned_hero_ids(id);
      if (!truth.empty()) truth += "\n";
      truth += Json{{"kind", "banned_heroes"}, {"tick", tick}, {"hero_id", id}}.dump();
    }
    Emit(proto::k_EUserMsg_BannedHeroes, bans.SerializeAsString(), truth);
  }
  // Not in the first packet: it creates the players deadlock_crowd.h adds.
  if (Uniform() < damage_chance_ && since > 2) Damage(tick);
  if (since % every_ == every_ / 2) Periodic(tick);
  Objective(tick);
  Modifiers(tick);
  UrnAndPatron(tick);
  Pause(tick);
  if (since >= minute_ && (since - minute_) % (3 * minute_) == 0) Upgrade(tick);
  if (since == 10 * minute_) {
    Emit(proto::k_EUserMsg_MidBossSpawned, proto::CCitadelUserMsg_MidBossSpawned().SerializeAsString(),
         Json{{"kind", "mid_boss"}, {"tick", tick}, {"kind_", "spawned"}, {"team", Null()},
              {"slot", Null()}, {"user_team", Null()}, {"event_type", Null()}}.dump());
  }
  MidBoss(tick, since);
  if (since == 12 * minute_ && !players_.empty()) {
    const Player& p = players_[Below(players_.size())];
    proto::CCitadelUserMsg_RejuvStatus m;
    m.set_killing_team(2);
    m.set_player_pawn(p.pawn->handle());
    m.set_user_team(2);
    m.set_event_type(1);
    Emit(proto::k_EUserMsg_RejuvStatus, m.SerializeAsString(),
         Json{{"kind", "mid_boss"}, {"tick", tick}, {"kind_", "rejuv"}, {"team", 2},
              {"slot", p.slot}, {"user_team", 2}, {"event_type", 1}}.dump());
  }
  if (since % (5 * minute_) == 0) {
    proto::CCitadelUserMsg_ReturnIdol m;
    const int32_t location = static_cast<int32_t>(Below(4));
    const float x = static_cast<float>(Uniform() * 8000 - 4000);
    const float y = static_cast<float>(Uniform() * 8000 - 4000);
    m.set_location_index(location);
    SetVector(m.mutable_return_location(), x, y, 128.5f);
    m.set_location_enabled(true);
    Emit(proto::k_EUserMsg_ReturnIdol, m.SerializeAsString(),
         Json{{"kind", "idol_returns"}, {"tick", tick}, {"location_index", location},
              {"enabled", 1}, {"x", F32(x)}, {"y", F32(y)}, {"z", 128.5}}.dump());
  }
  if (since == 15 * minute_ || since == 25 * minute_) {
    proto::CCitadelUserMsg_FlexSlotUnlocked m;
    const int32_t team = since == 15 * minute_ ? 2 : 3;
    m.set_team_number(team);
    m.set_flexslot_unlocked(since == 15 * minute_ ? 1 : 2);
    Emit(proto::k_EUserMsg_FlexSlotUnlocked, m.SerializeAsString(),
         Json{{"kind", "flex_slots"}, {"tick", tick}, {"team", team},
              {"flex_slot", m.flexslot_unlocked()}}.dump());
  }
  if (tick == end_ && post_match_record_) PostMatchRecord(tick);
  if (tick == end_) {
    proto::CCitadelUserMessage_GameOver m;
    m.set_winning_team(3);
    Emit(proto::k_EUserMsg_GameOver, m.SerializeAsString(),
         Json{{"kind", "game_over"}, {"tick", tick}, {"winner", 3}}.dump());
  }
}

void DeadlockEvents::Damage(uint32_t tick) {
  std::vector<int32_t> pawns;
  for (const Player& p : players_) pawns.push_back(p.pawn->index);
  SimEntity* attacker = Uniform() < 0.5 ? Pick(pawns) : Pick(troopers_);
  SimEntity* victim = Uniform() < 0.3 ? Pick(pawns)
                      : (Uniform() < 0.2 && next_objective_ < objectives_.size())
                          ? Pick({objectives_[next_objective_]})
                          : Pick(troopers_);
  if (attacker == nullptr || victim == nullptr) return;
  ++damage_count_;
  const bool no_victim = flaws_ && damage_count_ % 500 == 0;
  proto::CCitadelUserMessage_Damage m;
  Json t{{"kind", "damage"}, {"tick", tick}};
  const int32_t damage = static_cast<int32_t>(1 + Below(300));
  const float pre = static_cast<float>(damage * (1.0 + Uniform()));
  const float absorbed = static_cast<float>(Uniform() < 0.2 ? Uniform() * 40 : 0.0);
  const bool deprecated = Below(3) == 0;
  const Ability* ability = nullptr;
  bool ability_entity = false;
  if (!abilities_.empty() && Uniform() < 0.5) {
    ability = &abilities_[Below(abilities_.size())];
    ability_entity = Uniform() < 0.6 && world_->entities().count(ability->index) > 0;
  }
  SimEntity* inflictor = ability_entity ? world_->entities().at(ability->index).get() : attacker;
  m.set_damage(damage);
  if (deprecated) {
    m.set_pre_damage_deprecated(static_cast<int32_t>(pre));
    m.set_damage_absorbed_deprecated(static_cast<int32_t>(absorbed));
  } else {
    m.set_pre_damage(pre);
    m.set_damage_absorbed(absorbed);
  }
  const int32_t type = static_cast<int32_t>(Below(4)), citadel_type = static_cast<int32_t>(Below(4));
  m.set_type(type);
  m.set_citadel_type(citadel_type);
  const float x = static_cast<float>(Uniform() * 10000 - 5000);
  const float y = static_cast<float>(Uniform() * 10000 - 5000);
  const float z = static_cast<float>(Uniform() * 500);
  SetVector(m.mutable_origin(), x, y, z);
  if (!no_victim) m.set_entindex_victim(victim->index);
  m.set_entindex_inflictor(inflictor->index);
  m.set_entindex_attacker(attacker->index);
  if (ability_entity) m.set_entindex_ability(ability->index);
  if (ability != nullptr) m.set_ability_id(ability->id);
  const int32_t health_max = static_cast<int32_t>(500 + Below(2000));
  const int32_t health_after = static_cast<int32_t>(Below(health_max));
  m.set_victim_health_max(health_max);
  m.set_victim_health_new(health_after);
  const uint64_t flags = Below(1 << 20);
  m.set_flags(flags);
  m.set_attacker_class(4);
  m.set_victim_class(4);
  const int32_t shield = static_cast<int32_t>(Below(100));
  m.set_victim_shield_max(100);
  m.set_victim_shield_new(shield);
  const int32_t hits = static_cast<int32_t>(1 + Below(3));
  m.set_hits(hits);
  m.set_health_lost(damage);
  const int32_t hitgroup = Below(4) == 0 ? -1 : static_cast<int32_t>(Below(8));
  m.set_hitgroup_id(hitgroup);
  const bool secondary = Below(10) == 0;
  m.set_is_secondary_stat(secondary);
  const float effectiveness = static_cast<float>(Uniform());
  m.set_effectiveness(effectiveness);
  const float crit = static_cast<float>(Below(5) == 0 ? Uniform() * 50 : 0.0);
  m.set_crit_damage(crit);
  const int32_t server_tick = static_cast<int32_t>(tick + 1000);
  m.set_server_tick(server_tick);

  auto slot = [&](const SimEntity* e) { return SlotOf(e) >= 0 ? Json(SlotOf(e)) : Null(); };
  t["attacker"] = slot(attacker);
  t["victim"] = no_victim ? Null() : slot(victim);
  t["attacker_entity"] = attacker->index;
  t["victim_entity"] = no_victim ? Null() : Json(victim->index);
  t["inflictor_entity"] = inflictor->index;
  t["attacker_class"] = attacker->class_name();
  t["victim_class"] = no_victim ? Null() : Json(victim->class_name());
  t["inflictor_class"] = inflictor->class_name();
  t["ability"] = ability ? Json(ability->name) : Null();
  t["ability_id"] = ability ? Json(ability->id) : Null();
  t["damage"] = damage;
  t["pre_damage"] = deprecated ? static_cast<double>(static_cast<int32_t>(pre)) : F32(pre);
  t["absorbed"] =
      deprecated ? static_cast<double>(static_cast<int32_t>(absorbed)) : F32(absorbed);
  t["crit_damage"] = F32(crit);
  t["health_lost"] = damage;
  t["health_after"] = health_after;
  t["health_max"] = health_max;
  t["shield_after"] = shield;
  t["shield_max"] = 100;
  t["hits"] = hits;
  t["hitgroup"] = hitgroup;
  t["type"] = type;
  t["citadel_type"] = citadel_type;
  t["flags"] = flags;
  t["secondary"] = secondary ? 1 : 0;
  t["effectiveness"] = F32(effectiveness);
  t["server_tick"] = server_tick;
  t["x"] = F32(x);
  t["y"] = F32(y);
  t["z"] = F32(z);
  Emit(proto::k_EUserMsg_Damage, m.SerializeAsString(), t.dump());
}

void DeadlockEvents::Periodic(uint32_t tick) {
  if (players_.empty()) return;
  const Player& p = players_[Below(players_.size())];
  const uint32_t round = (tick - start_) / every_;
  {
    proto::CCitadelUserMsg_KillStreak m;
    m.set_player_pawn(p.pawn->handle());
    m.set_num_kills(static_cast<int32_t>(round % 7 + 1));
    m.set_is_first_blood(round == 0);
    m.set_streak_ended(round % 3 == 2);
    m.set_duration(5.0f);
    Emit(proto::k_EUserMsg_KillStreak, m.SerializeAsString(),
         Json{{"kind", "kill_streaks"}, {"tick", tick}, {"slot", p.slot},
              {"kills", m.num_kills()}, {"first_blood", round == 0 ? 1 : 0},
              {"ended", round % 3 == 2 ? 1 : 0}, {"duration", 5.0}}.dump());
  }
  {
    proto::CCitadelUserMsg_PlayerRespawned m;
    const float yaw = static_cast<float>(Uniform() * 360 - 180);
    m.set_player_pawn(p.pawn->handle());
    m.set_facing_yaw(yaw);
    Emit(proto::k_EUserMsg_PlayerRespawned, m.SerializeAsString(),
         Json{{"kind", "respawns"}, {"tick", tick}, {"slot", p.slot}, {"yaw", F32(yaw)}}.dump());
  }
  if (!abilities_.empty()) {
    ++changes_;
    const bool unknown = flaws_ && changes_ % 4 == 0;
    const int32_t change = static_cast<int32_t>(round % 7);  // 6: a change not in the enum
    // A purchase is of an item (the shop's); the other changes name one of
    // the fixture's abilities.
    std::optional<Ability> bought = change == 0 ? Buy(tick, p, !unknown) : std::nullopt;
    const Ability& a = bought ? *bought : abilities_[Below(abilities_.size())];
    const uint32_t id = unknown ? 0x7EADBEEFu : a.id;
    proto::CCitadelUserMsg_AbilitiesChanged m;
    m.set_purchaser_player_slot(p.slot);
    m.set_ability_id(id);
    m.set_change(change);
    if (change == 0 && !unknown) bought_.push_back({tick, p.slot, a.id, a.name});
    Emit(proto::k_EUserMsg_AbilitiesChanged, m.SerializeAsString(),
         Json{{"kind", "purchases"}, {"tick", tick}, {"slot", p.slot},
              {"item", unknown ? Null() : Json(a.name)}, {"ability_id", id},
              {"change", change < 6 ? std::string(kChanges[change]) : std::to_string(change)}}
             .dump());
    proto::CCitadelUserMessage_ItemPurchaseNotification n;
    n.set_userid(p.slot);
    n.set_ability_id(a.id);
    n.set_sell(round % 4 == 3);
    n.set_quickbuy(round % 2 == 1);
    Emit(proto::k_EUserMsg_ItemPurchaseNotification, n.SerializeAsString(),
         Json{{"kind", "purchase_notifications"}, {"tick", tick}, {"slot", p.slot},
              {"item", a.name}, {"ability_id", a.id}, {"sold", n.sell() ? 1 : 0},
              {"quickbuy", n.quickbuy() ? 1 : 0}}.dump());
    proto::CCitadelUserMessage_ImportantAbilityUsed u;
    u.set_player(p.controller->handle());
    u.set_caster(p.pawn->handle());
    u.set_ability_name(a.name);
    Emit(proto::k_EUserMsg_ImportantAbilityUsed, u.SerializeAsString(),
         Json{{"kind", "ability_casts"}, {"tick", tick}, {"slot", p.slot},
              {"caster_entity", p.pawn->index}, {"caster_class", p.pawn->class_name()},
              {"ability", a.name}}.dump());
  }
  {
    proto::CCitadelUserMsg_MapPing m;
    SimEntity* target = Pick(troopers_);
    const float x = static_cast<float>(Uniform() * 8000 - 4000);
    const float y = static_cast<float>(Uniform() * 8000 - 4000);
    proto::CitadelPingCommonData* d = m.mutable_ping_data();
    d->set_ping_message_id(static_cast<uint32_t>(round % 5));
    SetVector(d->mutable_ping_location(), x, y, 64.0f);
    if (target != nullptr) d->set_entity_index(static_cast<uint32_t>(target->index));
    d->set_sender_player_slot(p.slot);
    m.set_event_type(1);
    m.set_pinged_enemy_entity(target != nullptr);
    m.set_is_minimap_ping(round % 2 == 0);
    m.set_pinged_hero_name("hero_synth");
    m.set_is_blind_ping(false);
    Emit(proto::k_EUserMsg_MapPing, m.SerializeAsString(),
         Json{{"kind", "pings"}, {"tick", tick}, {"slot", p.slot}, {"kind_", "map"},
              {"message_id", round % 5},
              {"entity", target ? Json(target->index) : Null()},
              {"entity_class", target ? Json(target->class_name()) : Null()},
              {"x", F32(x)}, {"y", F32(y)}, {"z", 64.0}, {"enemy", target ? 1 : 0},
              {"minimap", round % 2 == 0 ? 1 : 0}, {"blind", 0}, {"hero", "hero_synth"},
              {"param", Null()}, {"lane_color", Null()}}.dump());
  }
  {
    proto::CCitadelUserMsg_ChatWheel m;
    m.set_chat_message_id(40 + round % 3);
    m.set_player_slot(p.slot);
    m.set_pawn_entindex(p.pawn->index);
    m.set_param_1("lane " + std::to_string(round % 4));
    m.set_lane_color(static_cast<int32_t>(round % 4));
    Emit(proto::k_EUserMsg_ChatWheel, m.SerializeAsString(),
         Json{{"kind", "pings"}, {"tick", tick}, {"slot", p.slot}, {"kind_", "wheel"},
              {"message_id", m.chat_message_id()}, {"entity", p.pawn->index},
              {"entity_class", p.pawn->class_name()}, {"x", Null()}, {"y", Null()},
              {"z", Null()}, {"enemy", Null()}, {"minimap", Null()}, {"blind", Null()},
              {"hero", Null()}, {"param", m.param_1()}, {"lane_color", m.lane_color()}}
             .dump());
  }
  {
    proto::CCitadelUserMsg_ChatMsg m;
    m.set_player_slot(p.slot);
    m.set_text(round % 2 ? "gg wp \xF0\x9F\x98\x80" : "push mid");
    m.set_all_chat(round % 2 == 1);
    Emit(proto::k_EUserMsg_ChatMsg, m.SerializeAsString(),
         Json{{"kind", "chat"}, {"tick", tick}, {"sender", p.slot},
              {"channel", round % 2 == 1 ? 1 : 0}, {"text", m.text()}}.dump());
  }
}

void DeadlockEvents::Upgrade(uint32_t tick) {
  if (signature_.empty() || players_.empty()) return;
  const size_t k = Below(signature_.size());
  auto it = world_->entities().find(signature_[k]);
  if (it == world_->entities().end() || upgrade_levels_[k] >= 4) return;
  SimEntity* e = it->second.get();
  const int level = ++upgrade_levels_[k];
  const std::string field =
      world_->PathOf(e->class_id, "m_nUpgradeBits") ? "m_nUpgradeBits" : "m_nUpgradeInfo";
  world_->Set(e, field, world_->Number(*e, field, (1 << level) - 1));
  // The pawn that holds it is the player's (the fixture's one player).
  if (truth_ != nullptr) {
    std::fprintf(truth_, "%s\n",
                 Json{{"kind", "ability_upgrades"}, {"tick", tick}, {"slot", players_[0].slot},
                      {"ability", world_->EntityName(*e)}, {"level", level}}
                     .dump()
                     .c_str());
  }
}

Json DeadlockEvents::LaneOf(const SimEntity& e) {
  return world_->PathOf(e.class_id, "m_iLane") ? Json(world_->GetInt(e, "m_iLane", 0)) : Null();
}

void DeadlockEvents::Objective(uint32_t tick) {
  const uint32_t since = tick - start_;
  if (since < 3 * minute_ || players_.empty()) return;
  const uint32_t step = (since - 3 * minute_) % (2 * minute_);
  if (step == 0 && damaged_ < 0 && next_objective_ < objectives_.size()) {
    auto it = world_->entities().find(objectives_[next_objective_]);
    if (it == world_->entities().end()) return;
    const SimEntity* e = it->second.get();
    const int32_t team = static_cast<int32_t>(world_->GetInt(*e, "m_iTeamNum", 0));
    proto::CCitadelUserMsg_BossDamaged m;
    m.set_objective_team(team);
    m.set_objective_id(static_cast<int32_t>(next_objective_));
    m.set_entity_damaged(e->handle());
    const std::string name = world_->EntityName(*e);
    Emit(proto::k_EUserMsg_BossDamaged, m.SerializeAsString(),
         Json{{"kind", "objective_events"}, {"tick", tick}, {"kind_", "damaged"},
              {"entity", e->index}, {"class", e->class_name()},
              {"name", name.empty() ? Null() : Json(name)}, {"team", team},
              {"lane", LaneOf(*e)}, {"objective_id", next_objective_}, {"mask_change", Null()}, {"killer", Null()},
              {"killer_entity", Null()}, {"killer_class", Null()},
              {"bosses_remaining", Null()}, {"message_time", Null()}, {"x", Null()},
              {"y", Null()}, {"z", Null()}}.dump());
    damaged_ = e->index;
    return;
  }
  if (step != kill_after_ || damaged_ < 0) return;
  auto it = world_->entities().find(damaged_);
  damaged_ = -1;
  if (it == world_->entities().end()) return;
  SimEntity* e = it->second.get();
  const Player& killer = players_[Below(players_.size())];
  const int32_t team = static_cast<int32_t>(world_->GetInt(*e, "m_iTeamNum", 0));
  const float x = static_cast<float>(Uniform() * 8000 - 4000);
  const float y = static_cast<float>(Uniform() * 8000 - 4000);
  const float game_time = static_cast<float>((tick - start_) * world_->tick_interval());
  proto::CCitadelUserMsg_BossKilled m;
  m.set_objective_team(team);
  m.set_objective_mask_change(1 << (next_objective_ % 16));
  m.set_entity_killed(e->handle());
  m.set_entity_killed_class(static_cast<int32_t>(next_objective_ % 5));
  m.set_entity_killer(killer.pawn->handle());
  m.set_gametime(game_time);
  const int32_t remaining = static_cast<int32_t>(objectives_.size() - next_objective_ - 1);
  m.set_bosses_remaining(remaining);
  SetVector(m.mutable_entity_position(), x, y, 0.0f);
  const std::string name = world_->EntityName(*e);
  Emit(proto::k_EUserMsg_BossKilled, m.SerializeAsString(),
       Json{{"kind", "objective_events"}, {"tick", tick}, {"kind_", "killed"},
            {"entity", e->index}, {"class", e->class_name()},
            {"name", name.empty() ? Null() : Json(name)}, {"team", team},
            {"lane", LaneOf(*e)}, {"objective_id", Null()}, {"mask_change", 1 << (next_objective_ % 16)},
            {"killer", killer.slot}, {"killer_entity", killer.pawn->index},
            {"killer_class", killer.pawn->class_name()}, {"bosses_remaining", remaining},
            {"message_time", F32(game_time)}, {"x", F32(x)}, {"y", F32(y)}, {"z", 0.0}}
           .dump());
  killed_objectives_.push_back({tick - kill_after_, tick});
  killed_teams_.push_back(team);
  // Gone in the same packet: the message must still name it.
  world_->Delete(e);
  ++next_objective_;
}

// The mid boss: an entity from its class's baseline when it spawns (the
// fixture has none), damaged two thirds of a minute later and killed by a
// player a minute after that, with BossDamaged and BossKilled naming it.
void DeadlockEvents::MidBoss(uint32_t tick, uint32_t since) {
  const uint32_t spawn = 10 * minute_, damage = spawn + 2 * (minute_ / 3),
                 kill = damage + minute_;
  if (since == spawn) {
    const int32_t cls = world_->ClassId("CNPC_MidBoss");
    if (cls >= 0 && world_->EnsureBaseline(cls)) mid_boss_ = world_->Create(cls);
    return;
  }
  if (mid_boss_ == nullptr || players_.empty() || (since != damage && since != kill)) return;
  SimEntity* e = mid_boss_;
  const int32_t team = static_cast<int32_t>(world_->GetInt(*e, "m_iTeamNum", 0));
  Json row{{"kind", "objective_events"}, {"tick", tick}, {"entity", e->index},
           {"class", e->class_name()}, {"name", Null()}, {"team", team}, {"lane", LaneOf(*e)},
           {"objective_id", Null()}, {"mask_change", Null()}, {"killer", Null()},
           {"killer_entity", Null()}, {"killer_class", Null()}, {"bosses_remaining", Null()},
           {"message_time", Null()}, {"x", Null()}, {"y", Null()}, {"z", Null()}};
  if (since == damage) {
    proto::CCitadelUserMsg_BossDamaged m;
    m.set_objective_team(team);
    m.set_objective_id(99);
    m.set_entity_damaged(e->handle());
    row["kind_"] = "damaged";
    row["objective_id"] = 99;
    Emit(proto::k_EUserMsg_BossDamaged, m.SerializeAsString(), row.dump());
    return;
  }
  const Player& killer = players_[Below(players_.size())];
  const float game_time = static_cast<float>((tick - start_) * world_->tick_interval());
  proto::CCitadelUserMsg_BossKilled m;
  m.set_objective_team(team);
  m.set_entity_killed(e->handle());
  m.set_entity_killer(killer.pawn->handle());
  m.set_gametime(game_time);
  SetVector(m.mutable_entity_position(), 0.0f, 0.0f, 0.0f);
  row["kind_"] = "killed";
  row["killer"] = killer.slot;
  row["killer_entity"] = killer.pawn->index;
  row["killer_class"] = killer.pawn->class_name();
  row["message_time"] = F32(game_time);
  row["x"] = 0.0;
  row["y"] = 0.0;
  row["z"] = 0.0;
  const int64_t killer_team = world_->GetInt(*killer.pawn, "m_iTeamNum", 0);
  Emit(proto::k_EUserMsg_BossKilled, m.SerializeAsString(),
       row.dump() + "\n" +
           Json{{"kind", "mid_boss"}, {"tick", tick}, {"kind_", "killed"}, {"team", killer_team},
                {"slot", killer.slot}, {"user_team", Null()}, {"event_type", Null()}}
               .dump());
  mid_boss_killed_tick_ = tick;
  world_->Delete(e);
  mid_boss_ = nullptr;
}

}  // namespace gem::synth

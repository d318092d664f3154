#include "tools/synth/player_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/dota/combat_log.h"
#include "core/input/inner_messages.h"
#include "proto/dota_usermessages.pb.h"

namespace gem::synth {
namespace {

constexpr int kMaxPlayers = 24;
constexpr int kRadiant = 2, kDire = 3;
constexpr int kStatePreGame = 4, kStateGame = 5;
constexpr int32_t kCombatLogDeath = 4, kCombatLogGold = 8, kCombatLogXp = 10;

}  // namespace

std::string PlayerStats::Slot(const char* array, int i, const char* field) const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s.%04d.%s", array, i, field);
  return buf;
}

SimEntity* PlayerStats::Find(const std::string& class_name) const {
  for (const auto& [index, e] : world_->entities()) {
    if (e->class_name() == class_name) return e.get();
  }
  return nullptr;
}

void PlayerStats::Start(uint32_t start, uint32_t pregame_tick, uint32_t horn_after) {
  resource_ = Find("CDOTA_PlayerResource");
  data_[0] = Find("CDOTA_DataRadiant");
  data_[1] = Find("CDOTA_DataDire");
  rules_ = Find("CDOTAGamerulesProxy");
  interval_ = world_->tick_interval() > 0 ? world_->tick_interval() : 1.0 / 30;
  if (resource_ == nullptr) return;
  for (int i = 0; i < kMaxPlayers; ++i) {
    const int64_t team = world_->GetInt(*resource_, Slot("m_vecPlayerData", i, "m_iPlayerTeam"), 0);
    if (team != kRadiant && team != kDire) continue;
    Player p;
    p.slot = i;
    p.team = static_cast<int>(team);
    p.team_slot = static_cast<int>(
        world_->GetInt(*resource_, Slot("m_vecPlayerTeamData", i, "m_iTeamSlot"), 0));
    const int64_t handle =
        world_->GetInt(*resource_, Slot("m_vecPlayerTeamData", i, "m_hSelectedHero"), -1);
    for (const auto& [index, e] : world_->entities()) {
      if (static_cast<int64_t>(e->handle()) == handle) p.hero = e.get();
    }
    // Counts go on from what the fixture's state holds.
    auto get = [&](SimEntity* e, const std::string& name) {
      return e == nullptr ? 0 : world_->GetInt(*e, name, 0);
    };
    SimEntity* data = data_[p.team == kRadiant ? 0 : 1];
    auto team_data = [&](const char* field) {
      return get(data, Slot("m_vecDataTeam", p.team_slot, field));
    };
    p.reliable = team_data("m_iReliableGold");
    p.unreliable = team_data("m_iUnreliableGold");
    p.net_worth = team_data("m_iNetWorth");
    p.xp = team_data("m_iTotalEarnedXP");
    p.last_hits = team_data("m_iLastHitCount");
    p.denies = team_data("m_iDenyCount");
    p.earned_gold = team_data("m_iTotalEarnedGold");
    p.camps_stacked = team_data("m_iCampsStacked");
    p.creeps_stacked = team_data("m_iCreepsStacked");
    if (data != nullptr) {
      const Value stuns = world_->Get(*data, Slot("m_vecDataTeam", p.team_slot, "m_fStuns"));
      if (stuns.kind == ValueKind::kFloat) p.stuns = stuns.f;
    }
    p.kills = get(resource_, Slot("m_vecPlayerTeamData", i, "m_iKills"));
    p.deaths = get(resource_, Slot("m_vecPlayerTeamData", i, "m_iDeaths"));
    p.assists = get(resource_, Slot("m_vecPlayerTeamData", i, "m_iAssists"));
    players_.push_back(p);
  }
  ward_class_[0] = world_->ClassId("CDOTA_NPC_Observer_Ward");
  ward_class_[1] = world_->ClassId("CDOTA_NPC_Observer_Ward_TrueSight");
  // The horn is due `horn_after` ticks in: the pre-game says so.
  horn_tick_ = start + horn_after;
  pregame_tick_ = std::min(pregame_tick, horn_tick_);
  pause_tick_ = horn_tick_ + 1800;
  next_burst_ = horn_tick_ + 900;
  Participation();
}

void PlayerStats::Participation() {
  // (kills + assists) / the team's kills, as Valve's field holds it.
  int64_t team_kills[2] = {0, 0};
  for (const Player& p : players_) team_kills[p.team == kRadiant ? 0 : 1] += p.kills;
  for (Player& p : players_) {
    const int64_t all = team_kills[p.team == kRadiant ? 0 : 1];
    const float f = all == 0 ? 0.0f : static_cast<float>(p.kills + p.assists) / all;
    if (f == p.participation && f != 0) continue;
    p.participation = f;
    world_->Set(resource_, Slot("m_vecPlayerTeamData", p.slot, "m_flTeamFightParticipation"),
                Value::Float(f));
  }
}

std::vector<PlayerStats::View> PlayerStats::players() const {
  std::vector<View> out;
  for (const Player& p : players_) out.push_back({p.slot, p.team, p.hero});
  return out;
}

std::string PlayerStats::HeroName(const SimEntity* hero) const {
  return hero == nullptr ? "" : world_->EntityName(*hero);
}

void PlayerStats::Economy(Player* p, uint32_t tick) {
  SimEntity* data = data_[p->team == kRadiant ? 0 : 1];
  if (data == nullptr) return;
  const int64_t gold = 1 + static_cast<int64_t>(Below(40));
  if (Uniform() < 0.3) p->reliable += gold; else p->unreliable += gold;
  if (Uniform() < 0.1 && p->unreliable > 100) p->unreliable -= 100;  // a purchase
  p->net_worth += gold;
  p->earned_gold += gold;
  const int64_t xp = static_cast<int64_t>(Below(60));
  p->xp += xp;
  if (Uniform() < 0.2) ++p->last_hits;
  if (Uniform() < 0.05) ++p->denies;
  if (Uniform() < 0.02) p->stuns += 0.5f * static_cast<float>(1 + Below(4));
  if (Uniform() < 0.005) ++p->camps_stacked;
  if (Uniform() < 0.01) p->creeps_stacked += 1 + static_cast<int64_t>(Below(3));
  auto set = [&](const char* field, int64_t v) {
    world_->Set(data, Slot("m_vecDataTeam", p->team_slot, field), Value::Int(v));
  };
  set("m_iReliableGold", p->reliable);
  set("m_iUnreliableGold", p->unreliable);
  set("m_iNetWorth", p->net_worth);
  set("m_iTotalEarnedGold", p->earned_gold);
  set("m_iTotalEarnedXP", p->xp);
  set("m_iLastHitCount", p->last_hits);
  set("m_iDenyCount", p->denies);
  set("m_iCampsStacked", p->camps_stacked);
  set("m_iCreepsStacked", p->creeps_stacked);
  world_->Set(data, Slot("m_vecDataTeam", p->team_slot, "m_fStuns"), Value::Float(p->stuns));
  // Now and then the combat log tells of it.
  if (p->hero != nullptr && Uniform() < 0.1) {
    proto::CMsgDOTACombatLogEntry entry;
    entry.set_type(Uniform() < 0.5 ? kCombatLogGold : kCombatLogXp);
    entry.set_target_name(combat_->Name(HeroName(p->hero)));
    entry.set_is_target_hero(true);
    entry.set_value(static_cast<uint32_t>(entry.type() == kCombatLogGold ? gold : xp));
    if (entry.type() == kCombatLogGold) entry.set_gold_reason(11); else entry.set_xp_reason(1);
    entry.set_timestamp(static_cast<float>(tick * interval_));
    combat_->Write(tick, entry);
  }
}

void PlayerStats::Kill(uint32_t tick) {
  Player* victim = &players_[Below(players_.size())];
  std::vector<Player*> enemies, friends;
  for (Player& p : players_) {
    if (p.team != victim->team) enemies.push_back(&p);
  }
  if (enemies.empty() || victim->hero == nullptr) return;
  Player* killer = enemies[Below(enemies.size())];
  if (killer->hero == nullptr) return;
  for (Player* p : enemies) {
    if (p != killer && Uniform() < 0.3) friends.push_back(p);
  }
  if (friends.size() > 3) friends.resize(3);
  ++killer->kills;
  ++victim->deaths;
  auto set = [&](const Player& p, const char* field, int64_t v) {
    world_->Set(resource_, Slot("m_vecPlayerTeamData", p.slot, field), Value::Int(v));
  };
  set(*killer, "m_iKills", killer->kills);
  set(*victim, "m_iDeaths", victim->deaths);
  for (Player* a : friends) set(*a, "m_iAssists", ++a->assists);

  const std::string weapon = Uniform() < 0.5 ? "dota_unknown" : "item_gem_synth_blade";
  proto::CMsgDOTACombatLogEntry entry;
  entry.set_type(kCombatLogDeath);
  entry.set_target_name(combat_->Name(HeroName(victim->hero)));
  entry.set_attacker_name(combat_->Name(HeroName(killer->hero)));
  entry.set_damage_source_name(entry.attacker_name());
  entry.set_inflictor_name(combat_->Name(weapon));
  entry.set_is_attacker_hero(true);
  entry.set_is_target_hero(true);
  entry.set_is_target_illusion(false);
  entry.set_timestamp(static_cast<float>(tick * interval_));
  for (const Player* a : friends) entry.add_assist_players(a->slot);
  combat_->Write(tick, entry);
  ++kills_;
  // The death costs the victim gold: a negative GOLD entry.
  proto::CMsgDOTACombatLogEntry loss;
  loss.set_type(kCombatLogGold);
  loss.set_target_name(entry.target_name());
  loss.set_is_target_hero(true);
  loss.set_value(static_cast<uint32_t>(-static_cast<int32_t>(50 + Below(200))));
  loss.set_gold_reason(1);
  loss.set_timestamp(entry.timestamp());
  combat_->Write(tick, loss);
  Participation();
  if (on_kill_) on_kill_(tick, killer->slot, victim->slot);
  if (kill_truth_ == nullptr) return;
  std::string line = "{\"kind\":\"kill\",\"tick\":" + std::to_string(tick) +
                     ",\"victim\":" + std::to_string(victim->slot) +
                     ",\"killer\":" + std::to_string(killer->slot) + ",\"assisters\":[";
  for (size_t k = 0; k < friends.size(); ++k) {
    line += (k ? "," : "") + std::to_string(friends[k]->slot);
  }
  line += "],\"weapon\":\"" + weapon + "\"";
  for (const char* axis : {"X", "Y", "Z"}) {
    for (const char* part : {"cell", "vec"}) {
      line += ",\"" + std::string(part) + "_" + static_cast<char>(axis[0] + 32) + "\":";
      world_->Get(*victim->hero, std::string("CBodyComponent.m_") + part + axis).AppendJson(&line);
    }
  }
  line += "}\n";
  std::fputs(line.c_str(), kill_truth_);
}

void PlayerStats::Clock(uint32_t tick) {
  if (rules_ == nullptr) return;
  if (tick == pregame_tick_) {
    world_->Set(rules_, "m_pGameRules.m_flStateTransitionTime",
                Value::Float(static_cast<float>((horn_tick_ - late_horn_) * interval_)));
    world_->Set(rules_, "m_pGameRules.m_nGameState", Value::Int(kStatePreGame));
  }
  if (tick == horn_tick_) {
    start_time_ = static_cast<float>(tick * interval_);
    world_->Set(rules_, "m_pGameRules.m_nGameState", Value::Int(kStateGame));
    world_->Set(rules_, "m_pGameRules.m_flGameStartTime", Value::Float(start_time_));
  } else if (tick == pause_tick_) {
    paused_ = true;
    pause_start_ = tick;
    world_->Set(rules_, "m_pGameRules.m_nPauseStartTick", Value::Int(tick));
    world_->Set(rules_, "m_pGameRules.m_bGamePaused", Value::Bool(true));
  } else if (paused_ && tick == pause_start_ + kPauseTicks) {
    paused_ = false;
    total_paused_ += kPauseTicks;
    world_->Set(rules_, "m_pGameRules.m_bGamePaused", Value::Bool(false));
    world_->Set(rules_, "m_pGameRules.m_nTotalPausedTicks", Value::Int(total_paused_));
  }
}

std::optional<double> PlayerStats::GameTime(uint32_t tick) const {
  if (rules_ == nullptr) return std::nullopt;
  // Before the pre-game the game names no clock: the index counts back
  // from the horn.
  if (tick < pregame_tick_) return (static_cast<double>(tick) - horn_tick_) / 30.0;
  const double origin = tick >= horn_tick_ ? static_cast<double>(start_time_)
                                           : static_cast<double>(static_cast<float>(
                                                 (horn_tick_ - late_horn_) * interval_));
  const int64_t counted = static_cast<int64_t>(paused_ ? pause_start_ : tick) - total_paused_;
  return static_cast<double>(counted) * interval_ - origin;
}

void PlayerStats::Wards(uint32_t tick) {
  for (size_t k = 0; k < wards_.size();) {
    Ward& w = wards_[k];
    if (w.killed && tick >= w.ends + 30) {
      world_->Delete(w.e);  // the body goes a second after the kill
      wards_.erase(wards_.begin() + static_cast<long>(k));
      continue;
    }
    if (!w.killed && tick >= w.ends) {
      if (!vision_) WardTruth(w, tick);
      const bool killed = Uniform() < 0.5;
      if (killed || vision_) {
        w.killed = true;
        w.ends = tick;
        world_->Set(w.e, "m_lifeState", Value::Uint(1));
        if (vision_) {
          w.destroyed = killed;
          if (killed) WardDeath(&w, tick);
          WardTruth(w, tick);
        }
      } else {
        world_->Delete(w.e);
        wards_.erase(wards_.begin() + static_cast<long>(k));
        continue;
      }
    }
    ++k;
  }
  if (late_horn_ > 0 && !late_ward_ && tick + 300 >= horn_tick_) {
    late_ward_ = true;
    for (const Player& p : players_) {
      if (p.hero != nullptr) {
        Plant(tick, p, true, horn_tick_ + 150);
        break;
      }
    }
  }
  if (Uniform() >= 2.0 / (30 * 30)) return;  // a packet every 2 ticks: ~30 s apart
  const Player& p = players_[Below(players_.size())];
  const bool observer = Uniform() < 0.6;
  Plant(tick, p, observer, std::nullopt);
}

void PlayerStats::Plant(uint32_t tick, const Player& p, bool observer,
                        std::optional<uint32_t> ends) {
  const int32_t class_id = ward_class_[observer ? 0 : 1];
  if (p.hero == nullptr || class_id < 0 || !world_->EnsureBaseline(class_id)) return;
  SimEntity* e = world_->Create(class_id);
  if (e == nullptr) return;
  Ward w;
  w.e = e;
  w.index = e->index;
  w.observer = observer;
  w.team = p.team;
  w.owner = p.slot;
  w.placed = tick;
  if (ends) {
    w.ends = *ends;
  } else {
    w.ends = tick + 1800 + static_cast<uint32_t>(Below(5400));
    // With vision one ward in three stands 5 minutes longer: past the
    // lifetimes OpenDota caps (360 s an observer, 420 s a sentry).
    if (vision_ && vision_rng_() % 3 == 0) w.ends += 9000;
  }
  world_->Set(e, "m_iTeamNum", Value::Uint(static_cast<uint64_t>(p.team)));
  world_->Set(e, "m_hOwnerEntity", Value::Uint(p.hero->handle()));
  world_->Set(e, "m_lifeState", Value::Uint(0));
  for (const char* axis : {"X", "Y", "Z"}) {
    for (const char* part : {"cell", "vec"}) {
      const std::string name = std::string("CBodyComponent.m_") + part + axis;
      const Value v = world_->Get(*p.hero, name);
      world_->Set(e, name, v);
      w.position += ",\"" + std::string(part) + "_" + static_cast<char>(axis[0] + 32) + "\":";
      world_->Get(*e, name).AppendJson(&w.position);
    }
  }
  wards_.push_back(w);
  ++wards_planted_;
}

void PlayerStats::WardTruth(const Ward& w, std::optional<uint32_t> removed) {
  if (kill_truth_ == nullptr) return;
  std::string line = "{\"kind\":\"ward\",\"index\":" + std::to_string(w.index) +
                     ",\"ward\":\"" + (w.observer ? "observer" : "sentry") +
                     "\",\"team\":" + std::to_string(w.team) +
                     ",\"owner\":" + std::to_string(w.owner) +
                     ",\"placed_tick\":" + std::to_string(w.placed) + ",\"removed_tick\":" +
                     (removed ? std::to_string(*removed) : "null") + w.position;
  if (vision_) {
    line += ",\"destroyed\":" +
            std::string(!w.destroyed ? "null" : *w.destroyed ? "true" : "false") +
            ",\"killer_name\":" +
            (w.killer_name.empty() ? std::string("null") : "\"" + w.killer_name + "\"");
  }
  line += "}\n";
  std::fputs(line.c_str(), kill_truth_);
}

void PlayerStats::WardDeath(Ward* w, uint32_t tick) {
  std::vector<const Player*> enemies;
  for (const Player& p : players_) {
    if (p.team != w->team && p.hero != nullptr) enemies.push_back(&p);
  }
  if (!enemies.empty() && vision_rng_() % 10 < 7) {
    w->killer_name = HeroName(enemies[vision_rng_() % enemies.size()]->hero);
  } else {
    w->killer_name = w->team == kRadiant ? "npc_dota_creep_badguys_melee"
                                         : "npc_dota_creep_goodguys_melee";
  }
  proto::CMsgDOTACombatLogEntry entry;
  entry.set_type(kCombatLogDeath);
  entry.set_target_name(combat_->Name(w->observer ? "npc_dota_observer_wards"
                                                  : "npc_dota_sentry_wards"));
  entry.set_target_team(static_cast<uint32_t>(w->team));
  entry.set_attacker_name(combat_->Name(w->killer_name));
  entry.set_damage_source_name(entry.attacker_name());
  entry.set_is_target_hero(false);
  entry.set_timestamp(static_cast<float>(tick * interval_));
  combat_->Write(tick, entry);
}

void PlayerStats::Finish() {
  for (const Ward& w : wards_) {
    if (!w.killed) WardTruth(w, std::nullopt);
  }
}

void PlayerStats::Tick(uint32_t tick) {
  Clock(tick);
  if (resource_ == nullptr || players_.empty()) return;
  Wards(tick);
  for (Player& p : players_) {
    if (Uniform() < 0.3) Economy(&p, tick);
  }
  if (Uniform() < 2.0 / (20 * 15)) Kill(tick);  // a packet every 2 ticks: ~20 s apart
  // Bursts: 3-4 kills 3-8 s apart, about every 90 s of game.
  if (tick >= next_burst_ && burst_left_ == 0) {
    burst_left_ = 3 + static_cast<int>(Below(2));
    burst_next_kill_ = tick;
    next_burst_ = tick + 2700;
  }
  if (burst_left_ > 0 && tick >= burst_next_kill_) {
    Kill(tick);
    --burst_left_;
    burst_next_kill_ = tick + 90 + static_cast<uint32_t>(Below(150));
  }
}

void PlayerStats::Truth(uint32_t tick, FILE* out) const {
  const std::optional<double> game_time = GameTime(tick);
  for (const Player& p : players_) {
    std::string line = "{\"kind\":\"player\",\"tick\":" + std::to_string(tick) +
                       ",\"slot\":" + std::to_string(p.slot) + ",\"hero\":" +
                       std::to_string(p.hero ? p.hero->index : -1) + ",\"game_time\":";
    if (game_time) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", *game_time);
      line += buf;
    } else {
      line += "null";
    }
    const std::pair<const char*, int64_t> values[] = {
        {"gold", p.reliable + p.unreliable}, {"earned_gold", p.earned_gold},
        {"net_worth", p.net_worth},          {"xp", p.xp},
        {"last_hits", p.last_hits},          {"denies", p.denies},
        {"kills", p.kills},                  {"deaths", p.deaths},
        {"assists", p.assists},              {"camps_stacked", p.camps_stacked},
        {"creeps_stacked", p.creeps_stacked}};
    for (const auto& [name, v] : values) {
      line += ",\"" + std::string(name) + "\":" + std::to_string(v);
    }
    line += ",\"stuns\":";
    AppendFloat32(p.stuns, &line);
    line += ",\"teamfight_participation\":";
    AppendFloat32(p.participation, &line);
    line += "}\n";
    std::fputs(line.c_str(), out);
  }
}

}  // namespace gem::synth

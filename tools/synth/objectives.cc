#include "tools/synth/objectives.h"

#include "core/dota/chat.h"
#include "core/fields/value.h"
#include "proto/dota_usermessages.pb.h"

namespace gem::synth {
namespace {

constexpr int kRadiant = 2, kDire = 3;
constexpr int32_t kCombatLogDamage = 0, kCombatLogHeal = 1, kCombatLogDeath = 4,
                  kCombatLogBuyback = 12;

std::string Quoted(const std::string& s) { return s.empty() ? "null" : "\"" + s + "\""; }
std::string Number(int64_t v) { return std::to_string(v); }

// A building's combat-log name from its map name; "" for other names.
std::string CombatName(const std::string& map_name, int* team, const char** kind) {
  const bool good = map_name.find("good") != std::string::npos;
  *team = good ? kRadiant : kDire;
  const std::string side = good ? "goodguys" : "badguys";
  if (map_name.find("_tower") != std::string::npos) {
    *kind = "tower";
    if (map_name.find("tower4") != std::string::npos) return "npc_dota_" + side + "_tower4";
    return "npc_" + map_name;
  }
  // good_rax_melee_mid: npc_dota_goodguys_melee_rax_mid
  const size_t rax = map_name.find("_rax_");
  if (rax == std::string::npos) return "";
  *kind = "barracks";
  const std::string rest = map_name.substr(rax + 5);  // melee_mid
  const size_t cut = rest.find('_');
  if (cut == std::string::npos) return "";
  return "npc_dota_" + side + "_" + rest.substr(0, cut) + "_rax" + rest.substr(cut);
}

}  // namespace

void Objectives::Start(uint32_t pregame, uint32_t horn, FILE* truth) {
  truth_ = truth;
  pregame_ = pregame;
  horn_ = horn;
  players_ = stats_->players();
  next_building_ = horn + 900;
  next_roshan_ = horn + 1800;
  for (const auto& [index, e] : world_->entities()) {
    const std::string& c = e->class_name();
    const std::string name = world_->EntityName(*e);
    if (c == "CDOTA_Unit_Roshan") roshan_ = e.get();
    if (c != "CDOTA_BaseNPC_Tower" && c != "CDOTA_BaseNPC_Barracks") continue;
    Building b{e.get(), "", nullptr, 0};
    b.combat_name = CombatName(name, &b.team, &b.kind);
    if (!b.combat_name.empty()) buildings_.push_back(b);
  }
}

int Objectives::TeamOf(int slot) const {
  for (const PlayerStats::View& p : players_) {
    if (p.slot == slot) return p.team;
  }
  return 0;
}

const PlayerStats::View* Objectives::Player(int team) {
  std::vector<const PlayerStats::View*> of;
  for (const PlayerStats::View& p : players_) {
    if ((team == 0 || p.team == team) && p.hero != nullptr) of.push_back(&p);
  }
  return of.empty() ? nullptr : of[Below(of.size())];
}

void Objectives::ChatEvent(int type, uint32_t value, int player1, int player2) {
  proto::CDOTAUserMsg_ChatEvent e;
  e.set_type(type);
  e.set_value(value);
  e.set_playerid_1(player1);
  e.set_playerid_2(player2);
  world_->AddMessage(dota::kDotaUmChatEvent, e.SerializeAsString());
}

void Objectives::Tell(uint32_t tick, const char* kind, const std::string& team,
                      const std::string& by_team, const std::string& slot,
                      const std::string& target, int64_t value, const SimEntity* where) {
  ++objectives_;
  if (truth_ == nullptr) return;
  std::string line = "{\"kind\":\"objective\",\"tick\":" + Number(tick) + ",\"objective\":\"" +
                     kind + "\",\"team\":" + team + ",\"by_team\":" + by_team +
                     ",\"slot\":" + slot + ",\"target\":" + Quoted(target) +
                     ",\"value\":" + (value < 0 ? "null" : Number(value));
  for (const char* axis : {"X", "Y", "Z"}) {
    for (const char* part : {"cell", "vec"}) {
      line += ",\"" + std::string(part) + "_" + static_cast<char>(axis[0] + 32) + "\":";
      if (where == nullptr) {
        line += "null";
      } else {
        world_->Get(*where, std::string("CBodyComponent.m_") + part + axis).AppendJson(&line);
      }
    }
  }
  std::fputs((line + "}\n").c_str(), truth_);
}

void Objectives::OnKill(uint32_t tick, int killer, int victim) {
  if (first_blood_) return;
  first_blood_ = true;
  ChatEvent(dota::kChatFirstBlood, 0, killer, victim);
  const PlayerStats::View* v = nullptr;
  for (const PlayerStats::View& p : players_) {
    if (p.slot == victim) v = &p;
  }
  Tell(tick, "first_blood", Number(TeamOf(victim)), Number(TeamOf(killer)), Number(killer),
       v ? stats_->HeroName(v->hero) : "", 0, v ? v->hero : nullptr);
}

proto::CMsgDOTACombatLogEntry Objectives::Death(uint32_t tick, const std::string& target,
                                                const PlayerStats::View& killer) {
  proto::CMsgDOTACombatLogEntry entry;
  entry.set_type(kCombatLogDeath);
  entry.set_target_name(combat_->Name(target));
  entry.set_attacker_name(combat_->Name(stats_->HeroName(killer.hero)));
  entry.set_damage_source_name(entry.attacker_name());
  entry.set_inflictor_name(combat_->Name("dota_unknown"));
  entry.set_is_attacker_hero(true);
  entry.set_timestamp(static_cast<float>(tick / 30.0));
  return entry;
}

void Objectives::Destroy(uint32_t tick) {
  if (buildings_.empty()) return;
  const size_t k = Below(buildings_.size());
  const Building b = buildings_[k];
  buildings_.erase(buildings_.begin() + static_cast<long>(k));
  const PlayerStats::View* killer = Player(b.team == kRadiant ? kDire : kRadiant);
  if (killer == nullptr) return;
  world_->Set(b.e, "m_lifeState", world_->Number(*b.e, "m_lifeState", 1));
  world_->Set(b.e, "m_iHealth", world_->Number(*b.e, "m_iHealth", 0));
  proto::CMsgDOTACombatLogEntry entry = Death(tick, b.combat_name, *killer);
  entry.set_target_source_name(entry.target_name());
  entry.set_is_target_hero(false);
  entry.set_is_target_building(true);
  entry.set_attacker_team(static_cast<uint32_t>(killer->team));
  entry.set_target_team(static_cast<uint32_t>(b.team));
  combat_->Write(tick, entry);
  Tell(tick, b.kind, Number(b.team), Number(killer->team), Number(killer->slot), b.combat_name, -1,
       b.e);
}

void Objectives::Roshan(uint32_t tick) {
  const int team = Uniform() < 0.5 ? kRadiant : kDire;
  ChatEvent(dota::kChatRoshanKill, 0, team, -1);
  Tell(tick, "roshan", "null", Number(team), "null", "npc_dota_roshan", 0, roshan_);
  // The aegis: taken by the killers, stolen by the others, or denied.
  const int turn = aegis_turn_++ % 3;
  const PlayerStats::View* taker = Player(turn == 0 ? team : (team == kRadiant ? kDire : kRadiant));
  if (taker == nullptr) return;
  const int type = turn == 0 ? dota::kChatAegis
                   : turn == 1 ? dota::kChatAegisStolen
                               : dota::kChatDeniedAegis;
  ChatEvent(type, 0, taker->slot, -1);
  Tell(tick, turn == 0 ? "aegis" : turn == 1 ? "aegis_stolen" : "aegis_denied", "null",
       Number(taker->team), Number(taker->slot), "", 0, taker->hero);
  // Half a minute later the aegis saves its taker: a death it comes back
  // from (no kill; the player resource counts no death).
  if (turn != 2) reincarnate_ = {tick + 900, taker->slot};
}

void Objectives::Reincarnate(uint32_t tick) {
  const PlayerStats::View* victim = nullptr;
  for (const PlayerStats::View& p : players_) {
    if (p.slot == reincarnate_.second) victim = &p;
  }
  reincarnate_ = {0, -1};
  if (victim == nullptr) return;
  const PlayerStats::View* killer = Player(victim->team == kRadiant ? kDire : kRadiant);
  if (killer == nullptr) return;
  proto::CMsgDOTACombatLogEntry entry = Death(tick, stats_->HeroName(victim->hero), *killer);
  entry.set_is_target_hero(true);
  entry.set_is_target_illusion(false);
  entry.set_will_reincarnate(true);
  combat_->Write(tick, entry);
}

void Objectives::Combat(uint32_t tick) {
  // Heroes hit heroes of the other team, and heal their own.
  const PlayerStats::View* a = Player(0);
  if (a == nullptr) return;
  const bool heal = Uniform() < 0.25;
  const PlayerStats::View* t =
      Player(heal ? a->team : (a->team == kRadiant ? kDire : kRadiant));
  if (t == nullptr) return;
  proto::CMsgDOTACombatLogEntry entry;
  entry.set_type(heal ? kCombatLogHeal : kCombatLogDamage);
  entry.set_attacker_name(combat_->Name(stats_->HeroName(a->hero)));
  entry.set_damage_source_name(entry.attacker_name());
  entry.set_target_name(combat_->Name(stats_->HeroName(t->hero)));
  entry.set_inflictor_name(combat_->Name(Uniform() < 0.5 ? "dota_unknown" : "item_gem_synth_blade"));
  entry.set_is_attacker_hero(true);
  entry.set_is_attacker_illusion(false);
  entry.set_is_target_hero(true);
  entry.set_is_target_illusion(!heal && Uniform() < 0.1);
  entry.set_value(static_cast<uint32_t>(10 + Below(190)));
  entry.set_timestamp(static_cast<float>(tick / 30.0));
  combat_->Write(tick, entry);
}

void Objectives::Tick(uint32_t tick) {
  if (players_.empty() || tick < pregame_) return;
  if (Uniform() < 2.0 / (30 * 20)) {
    const PlayerStats::View* p = Player(0);
    if (p != nullptr) {
      const uint32_t rune = static_cast<uint32_t>(Below(10));
      const bool bottled = Uniform() < 0.2;
      ChatEvent(bottled ? dota::kChatRuneBottle : dota::kChatRunePickup, rune, p->slot, -1);
      if (truth_ != nullptr) {
        std::fprintf(truth_,
                     "{\"kind\":\"rune\",\"tick\":%u,\"slot\":%d,\"rune_type\":%u,"
                     "\"bottled\":%d}\n",
                     tick, p->slot, rune, bottled ? 1 : 0);
      }
    }
  }
  if (tick < horn_) return;
  if (Uniform() < 0.5) Combat(tick);
  if (tick >= next_building_) {
    Destroy(tick);
    next_building_ = tick + 1500 + static_cast<uint32_t>(Below(600));
  }
  if (tick >= next_roshan_) {
    Roshan(tick);
    next_roshan_ = tick + 7200;
  }
  if (reincarnate_.second >= 0 && tick >= reincarnate_.first) Reincarnate(tick);
  if (tick == horn_ + 3000) {
    const PlayerStats::View* p = Player(0);
    if (p != nullptr) {
      ChatEvent(dota::kChatMinibossKill, static_cast<uint32_t>(p->team), p->slot, -1);
      Tell(tick, "tormentor", "null", Number(p->team), Number(p->slot), "npc_dota_miniboss",
           p->team, nullptr);
    }
  }
  if (tick == horn_ + 3900) {
    const PlayerStats::View* p = Player(0);
    if (p != nullptr) {
      const int courier = p->team == kRadiant ? kDire : kRadiant;
      ChatEvent(dota::kChatCourierLost, 0, p->slot, courier);
      Tell(tick, "courier", Number(courier), Number(p->team), Number(p->slot), "", 0, nullptr);
    }
  }
  if (Uniform() < 2.0 / (30 * 100)) {
    const PlayerStats::View* p = Player(0);
    if (p != nullptr) {
      proto::CMsgDOTACombatLogEntry entry;
      entry.set_type(kCombatLogBuyback);
      entry.set_value(static_cast<uint32_t>(p->slot));
      entry.set_timestamp(static_cast<float>(tick / 30.0));
      combat_->Write(tick, entry);
      if (truth_ != nullptr) {
        std::fprintf(truth_, "{\"kind\":\"buyback\",\"tick\":%u,\"slot\":%d}\n", tick, p->slot);
      }
    }
  }
}

}  // namespace gem::synth

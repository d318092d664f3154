#include "tools/synth/dota_activity.h"

#include <cmath>

#include "core/dota/chat.h"
#include "core/dota/player_events.h"
#include "core/dota/unit_orders.h"
#include "core/fields/value.h"
#include "proto/dota_usermessages.pb.h"

namespace gem::synth {
namespace {

constexpr int kRadiant = 2;
constexpr int32_t kCombatLogDeath = 4, kCombatLogAbility = 5, kCombatLogItem = 6;
constexpr int32_t kCombatLogGold = 8, kCombatLogXp = 10;
// Laning lasts past the clock's 10:00 (the horn, 600 s, the 10 s pause).
constexpr uint32_t kLaningTicks = (600 + 10 + 10) * 30;
constexpr uint32_t kMultiKillTicks = 18 * 30;

// Lane boxes (world units), each well inside its lane of OpenDota's map.
constexpr double kBot[] = {-3000, 5500, -6500, -5700};
constexpr double kTop[] = {-6500, -5700, -3000, 5500};
constexpr double kMid[] = {-3000, 3000, -200, 200};  // along y = x: t range, offset
constexpr double kDireJungle[] = {-4000, -1000, 2000, 4000};
constexpr double kRadiantJungle[] = {1000, 4000, -4000, -2000};

// Order types given, with their weights: move to a position, to a target,
// attack a target, cast at a position, at a target, with none, purchase.
constexpr struct {
  int32_t type;
  int weight;
} kOrders[] = {{1, 50}, {2, 8}, {4, 20}, {5, 6}, {6, 6}, {8, 6}, {16, 4}};

constexpr const char* kAbilities[] = {"lina_dragon_slave", "axe_berserkers_call",
                                      "juggernaut_blade_fury", "kunkka_torrent"};
constexpr const char* kItems[] = {"item_blink", "item_tpscroll", "item_black_king_bar"};

}  // namespace

void DotaActivity::Start(FILE* truth) {
  truth_ = truth;
  laning_until_ = stats_->horn_tick() + kLaningTicks;
  flaw_tick_ = stats_->horn_tick() + 600;
  auto box = [](const double (&b)[4], bool diagonal = false) {
    return Box{b[0], b[1], b[2], b[3], diagonal};
  };
  int seen[4] = {};  // players met so far, by team
  for (const PlayerStats::View& v : stats_->players()) {
    Player p{v.slot, v.team, v.hero, -1, {}};
    // The controller: the one whose assigned hero is the player's.
    for (const auto& [index, e] : world_->entities()) {
      if (v.hero != nullptr && e->class_name() == "CDOTAPlayerController" &&
          world_->GetInt(*e, "m_hAssignedHero", -1) == static_cast<int64_t>(v.hero->handle())) {
        p.controller = index;
      }
    }
    const bool radiant = v.team == kRadiant;
    const int nth = seen[radiant ? 2 : 3]++;
    int lane = 0;  // 0: roams
    switch (nth) {
      case 0:
      case 1: lane = radiant ? 1 : 3; break;
      case 2: lane = 2; break;
      case 3: lane = radiant ? 3 : 1; break;
      default: lane = radiant ? 0 : 5; break;
    }
    switch (lane) {
      case 1: p.boxes = {box(kBot)}; break;
      case 2: p.boxes = {box(kMid, true)}; break;
      case 3: p.boxes = {box(kTop)}; break;
      case 5: p.boxes = {box(kDireJungle)}; break;
      default:
        p.boxes = {box(kTop), box(kDireJungle), box(kRadiantJungle), box(kBot)};
        break;
    }
    if (truth_ != nullptr) {
      std::fprintf(truth_, "{\"kind\":\"lane\",\"slot\":%d,\"lane\":%s,\"roaming\":%s}\n",
                   p.slot, lane ? std::to_string(lane).c_str() : "null",
                   lane ? "false" : "true");
    }
    players_.push_back(p);
  }
}

bool DotaActivity::LaneTarget(const SimEntity* hero, uint32_t tick, double u, double v,
                              double* x, double* y) {
  if (tick >= laning_until_) return false;
  for (Player& p : players_) {
    if (p.hero != hero || p.boxes.empty()) continue;
    const Box& b = p.boxes[p.next++ % p.boxes.size()];
    if (b.diagonal) {
      const double t = b.x0 + u * (b.x1 - b.x0), d = b.y0 + v * (b.y1 - b.y0);
      *x = t + d;
      *y = t - d;
    } else {
      *x = b.x0 + u * (b.x1 - b.x0);
      *y = b.y0 + v * (b.y1 - b.y0);
    }
    return true;
  }
  return false;
}

void DotaActivity::Order(uint32_t tick, const Player& p, int32_t entindex, int32_t order_type) {
  proto::CDOTAUserMsg_SpectatorPlayerUnitOrders m;
  m.set_entindex(entindex);
  m.set_order_type(order_type);
  if (p.hero != nullptr) m.add_units(p.hero->index);
  const bool targeted = order_type == 2 || order_type == 4 || order_type == 6;
  const bool positioned = order_type == 1 || order_type == 5;
  const bool cast = order_type == 5 || order_type == 6 || order_type == 8;
  if (targeted) m.set_target_index(static_cast<int32_t>(1 + Below(2000)));
  if (cast) m.set_ability_id(static_cast<int32_t>(5000 + Below(1000)));
  if (positioned) {
    m.mutable_position()->set_x(static_cast<float>((Uniform() * 2 - 1) * 7000));
    m.mutable_position()->set_y(static_cast<float>((Uniform() * 2 - 1) * 7000));
    m.mutable_position()->set_z(static_cast<float>(128 + Below(256)));
  }
  if (Uniform() < 0.05) m.set_queue(true);
  m.set_sequence_number(p.sequence);
  world_->AddMessage(dota::kDotaUmSpectatorPlayerUnitOrders, m.SerializeAsString());
  if (truth_ == nullptr) return;
  auto number = [](bool has, int64_t v) { return has ? std::to_string(v) : std::string("null"); };
  std::string line = "{\"kind\":\"order\",\"tick\":" + std::to_string(tick) +
                     ",\"slot\":" + number(entindex == p.controller, p.slot) +
                     ",\"order_type\":" + std::to_string(order_type) +
                     ",\"units\":" + std::to_string(m.units_size()) +
                     ",\"target_index\":" + number(targeted, m.target_index()) +
                     ",\"ability_id\":" + number(cast, m.ability_id());
  for (const char* axis : {"x", "y", "z"}) {
    line += ",\"" + std::string(axis) + "\":";
    if (!positioned) {
      line += "null";
      continue;
    }
    const float f = axis[0] == 'x' ? m.position().x() : axis[0] == 'y' ? m.position().y()
                                                                      : m.position().z();
    AppendFloat32(f, &line);
  }
  line += ",\"queued\":" + std::string(m.queue() ? "1" : "0") + "}\n";
  std::fputs(line.c_str(), truth_);
}

void DotaActivity::Use(uint32_t tick, const Player& p, bool item) {
  proto::CMsgDOTACombatLogEntry e;
  e.set_type(item ? kCombatLogItem : kCombatLogAbility);
  e.set_attacker_name(combat_->Name(stats_->HeroName(p.hero)));
  e.set_is_attacker_hero(true);
  e.set_inflictor_name(combat_->Name(item ? kItems[Below(std::size(kItems))]
                                          : kAbilities[Below(std::size(kAbilities))]));
  if (Uniform() < 0.5) {
    const Player& target = players_[Below(players_.size())];
    if (target.hero != nullptr) {
      e.set_target_name(combat_->Name(stats_->HeroName(target.hero)));
      e.set_is_target_hero(true);
      e.set_is_target_illusion(Uniform() < 0.1);
    }
  }
  e.set_timestamp(static_cast<float>(tick / 30.0));
  combat_->Write(tick, e);
}

void DotaActivity::OnUnitDied(uint32_t tick, bool lane_creep, int team) {
  proto::CMsgDOTACombatLogEntry e;
  e.set_type(kCombatLogDeath);
  const char* name = !lane_creep                ? "npc_dota_neutral_kobold"
                     : team == kRadiant         ? "npc_dota_creep_goodguys_melee"
                                                : "npc_dota_creep_badguys_melee";
  e.set_target_name(combat_->Name(name));
  e.set_target_team(static_cast<uint32_t>(team));
  const Player* killer = nullptr;
  if (!players_.empty() && Uniform() < 0.6) {
    const Player& p = players_[Below(players_.size())];
    if (p.team != team && p.hero != nullptr) killer = &p;
  }
  if (killer != nullptr) {
    // Now and then the hero's summon strikes: the damage source is still
    // the hero.
    const bool summon = Uniform() < 0.25;
    e.set_attacker_name(combat_->Name(summon ? "npc_dota_venomancer_plague_ward_1"
                                             : stats_->HeroName(killer->hero)));
    e.set_is_attacker_hero(!summon);
    e.set_attacker_team(static_cast<uint32_t>(killer->team));
    e.set_damage_source_name(combat_->Name(stats_->HeroName(killer->hero)));
  } else {
    e.set_attacker_name(combat_->Name(team == kRadiant ? "npc_dota_creep_badguys_melee"
                                                       : "npc_dota_creep_goodguys_melee"));
  }
  if (!e.has_damage_source_name()) e.set_damage_source_name(e.attacker_name());
  e.set_timestamp(static_cast<float>(tick / 30.0));
  combat_->Write(tick, e);
}

void DotaActivity::Flaws(uint32_t tick) {
  if (players_.empty()) return;
  Order(tick, players_[0], players_[0].controller, 1000);  // no such order type
  Order(tick, players_[0], 0, 1);                          // the world gives no orders
  // An order cut short: a field's tag without its value.
  world_->AddMessage(dota::kDotaUmSpectatorPlayerUnitOrders, std::string("\x08", 1));
  for (int32_t type : {kCombatLogGold, kCombatLogXp}) {
    proto::CMsgDOTACombatLogEntry e;
    e.set_type(type);
    e.set_target_name(combat_->Name(stats_->HeroName(players_[0].hero)));
    e.set_is_target_hero(true);
    e.set_value(25);
    if (type == kCombatLogGold) e.set_gold_reason(99); else e.set_xp_reason(50);
    e.set_timestamp(static_cast<float>(tick / 30.0));
    combat_->Write(tick, e);
  }
}

DotaActivity::Player* DotaActivity::Find(int slot) {
  for (Player& p : players_) {
    if (p.slot == slot) return &p;
  }
  return nullptr;
}

void DotaActivity::SetLifeState(Player* p, int64_t state) {
  world_->Set(p->hero, "m_lifeState", world_->Number(*p->hero, "m_lifeState", state));
}

void DotaActivity::StreakEntry(uint32_t tick, const Player& p, int32_t type, int64_t value) {
  proto::CMsgDOTACombatLogEntry e;
  e.set_type(type);
  e.set_attacker_name(combat_->Name(stats_->HeroName(p.hero)));
  e.set_is_attacker_hero(true);
  e.set_value(static_cast<uint32_t>(value));
  e.set_timestamp(static_cast<float>(tick / 30.0));
  combat_->Write(tick, e);
}

void DotaActivity::OnKill(uint32_t tick, int killer, int victim) {
  Player* v = Find(victim);
  if (v != nullptr) {
    v->streak = 0;
    if (v->hero != nullptr && v->dead_at == 0 && v->respawn_at == 0) {
      SetLifeState(v, 1);
      v->dead_at = tick + 2;
      v->respawn_at = tick + 180 + 2 * static_cast<uint32_t>(Below(511));
      if (truth_ != nullptr) {
        std::fprintf(truth_, "{\"kind\":\"death\",\"slot\":%d,\"tick\":%u,\"respawn_tick\":%u}\n",
                     v->slot, tick, v->respawn_at);
      }
    }
  }
  Player* k = Find(killer);
  if (k == nullptr || k->hero == nullptr) return;
  k->multi = k->multi > 0 && tick - k->last_kill <= kMultiKillTicks ? k->multi + 1 : 1;
  k->last_kill = tick;
  ++k->streak;
  if (flaws_) return;
  if (k->multi >= 2) StreakEntry(tick, *k, dota::kCombatLogMultikill, k->multi);
  if (k->streak >= 3) StreakEntry(tick, *k, dota::kCombatLogKillstreak, k->streak);
}

void DotaActivity::Pause(uint32_t tick) {
  const Player& p = players_[Below(players_.size())];
  proto::CDOTAUserMsg_ChatEvent e;
  e.set_type(dota::kChatPaused);
  e.set_playerid_1(p.slot);
  world_->AddMessage(dota::kDotaUmChatEvent, e.SerializeAsString());
  if (truth_ != nullptr) {
    std::fprintf(truth_,
                 "{\"kind\":\"pause\",\"start_tick\":%u,\"end_tick\":%u,\"slot\":%d}\n",
                 tick, tick + PlayerStats::kPauseTicks, p.slot);
  }
}

void DotaActivity::Tick(uint32_t tick) {
  if (!players_.empty() && tick == stats_->pause_tick()) Pause(tick);
  for (Player& p : players_) {
    if (p.hero == nullptr) continue;
    if (p.dead_at == tick) {
      SetLifeState(&p, 2);
      p.dead_at = 0;
    }
    if (p.respawn_at == tick) {
      SetLifeState(&p, 0);
      p.respawn_at = 0;
    }
    if (p.controller >= 0 && Uniform() < 0.1) {
      int pick = static_cast<int>(Below(100));
      int32_t type = kOrders[0].type;
      for (const auto& o : kOrders) {
        if (pick < o.weight) {
          type = o.type;
          break;
        }
        pick -= o.weight;
      }
      ++p.sequence;
      Order(tick, p, p.controller, type);
    }
    if (Uniform() < 2.0 / (30 * 3)) Use(tick, p, false);
    if (Uniform() < 2.0 / (30 * 7)) Use(tick, p, true);
  }
  if (flaws_ && tick == flaw_tick_) Flaws(tick);
}

}  // namespace gem::synth

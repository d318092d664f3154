#include "tools/synth/deadlock_crowd.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/fields/world_coord.h"
#include "proto/citadel_usermessages.pb.h"
#include "tools/synth/json_truth.h"

namespace gem::synth {
namespace {

constexpr double kCell = 512.0;  // Deadlock's cell width
// The CUtlStringToken of "upgrade_headshot_booster" (as the tests' own
// MurmurHash2 computes it): a kill's killer_ability_id.
constexpr uint32_t kKillerAbility = 2010028405u;
constexpr int kPlayersPerTeam = 6;
constexpr int kCamps = 20, kPerCamp = 3;
constexpr int kNeutralTeam = 4;
// The controller's creep souls by kind, and the timeline columns gem reads
// them into (core/deadlock/match_module.cc).
constexpr std::pair<const char*, const char*> kCreepSouls[] = {
    {"m_iCreepGoldKill", "creep_kill_souls"},
    {"m_iCreepGoldAirOrb", "creep_air_orb_souls"},
    {"m_iCreepGoldGroundOrb", "creep_ground_orb_souls"},
    {"m_iCreepGoldSoloBonus", "creep_solo_bonus_souls"},
    {"m_iCreepGoldDeny", "creep_deny_souls"},
    {"m_iCreepGoldNeutral", "creep_neutral_souls"}};
// Hero ids and the pawns' EntityNames names of the eleven players added
// (deadlock-api's hero assets list them so).
constexpr struct {
  int id;
  const char* name;
} kHeroes[] = {{1, "hero_inferno"}, {2, "hero_gigawatt"}, {3, "hero_hornet"},
               {4, "hero_ghost"},   {6, "hero_atlas"},    {7, "hero_wraith"},
               {8, "hero_forge"},   {10, "hero_chrono"},  {11, "hero_dynamo"},
               {12, "hero_kelvin"}, {13, "hero_haze"}};

}  // namespace

DeadlockCrowd::DeadlockCrowd(World* world, uint64_t seed, int troopers)
    : world_(world), rng_(seed ^ 0xC20BD5ull), troopers_per_lane_(troopers) {}

void DeadlockCrowd::Set(SimEntity* e, const char* field, double value) {
  world_->Set(e, field, world_->Number(*e, field, value));
}

std::string DeadlockCrowd::StatField(const SimEntity& e, const char* name) {
  const std::string nested = std::string("m_PlayerDataGlobal.") + name;
  return world_->PathOf(e.class_id, nested) != nullptr ? nested : std::string(name);
}

void DeadlockCrowd::SetStat(SimEntity* e, const char* name, double value) {
  const std::string field = StatField(*e, name);
  world_->Set(e, field, world_->Number(*e, field, value));
}

int64_t DeadlockCrowd::GetStat(const SimEntity& e, const char* name) {
  return world_->GetInt(e, StatField(e, name), 0);
}

void DeadlockCrowd::Place(Unit* u) {
  const double v[3] = {u->x, u->y, u->z};
  for (int axis = 0; axis < 3; ++axis) {
    const double w = v[axis] + kWorldOffset;
    const double cell = std::floor(w / kCell);
    const std::string a(1, static_cast<char>('X' + axis));
    world_->Set(u->e, "CBodyComponent.m_cell" + a,
                world_->Number(*u->e, "CBodyComponent.m_cell" + a, cell));
    world_->Set(u->e, "CBodyComponent.m_vec" + a,
                world_->Number(*u->e, "CBodyComponent.m_vec" + a, w - cell * kCell));
  }
}

void DeadlockCrowd::FindLanes() {
  // Each lane's two ends: where its guardians (and base guardians) stand,
  // by team, as the fixture has them.
  struct Sum {
    double x = 0, y = 0;
    int n = 0;
  };
  std::vector<std::pair<int32_t, Sum[2]>> found;
  for (const auto& [index, e] : world_->entities()) {
    const std::string& c = e->class_name();
    if (c != "CNPC_TrooperBoss" && c != "CNPC_TrooperBarrackBoss") continue;
    const int64_t lane = world_->GetInt(*e, "m_iLane", 0);
    const int64_t team = world_->GetInt(*e, "m_iTeamNum", 0);
    if (lane <= 0 || (team != 2 && team != 3)) continue;
    double p[2];
    for (int axis = 0; axis < 2; ++axis) {
      const std::string a(1, static_cast<char>('X' + axis));
      const Value vec = world_->Get(*e, "CBodyComponent.m_vec" + a);
      p[axis] = CellCoord(world_->GetInt(*e, "CBodyComponent.m_cell" + a, 32), kCell,
                          kWorldOffset, vec.kind == ValueKind::kFloat ? vec.f : 0.0f);
      half_ = std::max(half_, std::abs(p[axis]) + 500);
    }
    auto it = std::find_if(found.begin(), found.end(),
                           [&](const auto& f) { return f.first == lane; });
    if (it == found.end()) {
      found.emplace_back();
      found.back().first = static_cast<int32_t>(lane);
      it = found.end() - 1;
    }
    Sum& s = it->second[team - 2];
    s.x += p[0];
    s.y += p[1];
    ++s.n;
  }
  for (auto& [lane, sums] : found) {
    if (sums[0].n == 0 || sums[1].n == 0) continue;
    Lane l{lane, {{sums[0].x / sums[0].n, sums[0].y / sums[0].n},
                  {sums[1].x / sums[1].n, sums[1].y / sums[1].n}}};
    lanes_.push_back(l);
  }
  std::sort(lanes_.begin(), lanes_.end(), [](const Lane& a, const Lane& b) {
    return a.lane < b.lane;
  });
  if (lanes_.empty()) lanes_.push_back(Lane{1, {{0, -8000}, {0, 8000}}});
}

void DeadlockCrowd::Start(uint32_t end_tick, FILE* truth) {
  const int32_t controller_class = world_->ClassId("CCitadelPlayerController");
  const int32_t pawn_class = world_->ClassId("CCitadelPlayerPawn");
  if (troopers_per_lane_ <= 0 || controller_class < 0 || pawn_class < 0) return;
  SimTable* names = world_->FindTable("EntityNames");
  if (names == nullptr || !world_->EnsureBaseline(controller_class) ||
      !world_->EnsureBaseline(pawn_class)) {
    return;
  }
  active_ = true;
  truth_ = truth;
  start_ = world_->start_tick();
  end_ = end_tick;
  tps_ = 1.0 / world_->tick_interval();
  const int32_t trooper = world_->ClassId("CNPC_Trooper");
  trooper_class_ = world_->EnsureBaseline(trooper) ? trooper : -1;
  const int32_t neutral = world_->ClassId("CNPC_TrooperNeutral");
  neutral_class_ = world_->EnsureBaseline(neutral) ? neutral : trooper_class_;
  FindLanes();
  // The fixture's players first (their slots and teams as they are).
  int on_team[2] = {0, 0};
  for (const auto& [index, e] : world_->entities()) {
    if (e->class_name() != "CCitadelPlayerController") continue;
    const int64_t team = world_->GetInt(*e, "m_iTeamNum", 0);
    const int64_t handle = world_->GetInt(*e, "m_hHeroPawn", 0xFFFFFF);
    auto pawn = world_->entities().find(static_cast<int32_t>(handle & 0x3FFF));
    if ((team != 2 && team != 3) || pawn == world_->entities().end()) continue;
    Hero h;
    h.slot = index - 1;
    h.controller = e.get();
    h.u.e = pawn->second.get();
    h.u.team = static_cast<int>(team);
    h.name = world_->EntityName(*pawn->second);
    h.souls = GetStat(*e, "m_iGoldNetWorth");
    h.kills = GetStat(*e, "m_iPlayerKills");
    h.deaths = GetStat(*e, "m_iDeaths");
    h.assists = GetStat(*e, "m_iPlayerAssists");
    ++on_team[team - 2];
    heroes_.push_back(std::move(h));
  }
  // Then the new ones: the controllers first, at the lowest free indexes
  // (their slots, next to each other as a server has them), then a pawn
  // each.
  std::vector<std::pair<SimEntity*, int>> added;  // (controller, team)
  for (size_t k = 0; k < std::size(kHeroes); ++k) {
    const int team = on_team[0] < kPlayersPerTeam ? 2 : 3;
    if (on_team[team - 2] >= kPlayersPerTeam) break;
    SimEntity* c = world_->Create(controller_class);
    if (c == nullptr) break;
    ++on_team[team - 2];
    added.emplace_back(c, team);
  }
  for (size_t k = 0; k < added.size(); ++k) {
    auto [c, team] = added[k];
    SimEntity* p = world_->Create(pawn_class);
    if (p == nullptr) break;
    Hero h;
    h.slot = c->index - 1;
    h.controller = c;
    h.name = kHeroes[k].name;
    const int32_t name_index = static_cast<int32_t>(names->entries.size());
    world_->SetEntry(names, name_index, h.name, "");
    Set(c, "m_iTeamNum", team);
    Set(c, "m_hHeroPawn", p->handle());
    world_->Set(c, "m_iszPlayerName", Value::String("synth player " + std::to_string(h.slot)));
    world_->Set(c, "m_steamID", Value::Uint(76561198000000000ull + static_cast<uint64_t>(h.slot)));
    SetStat(c, "m_nHeroID", kHeroes[k].id);
    SetStat(c, "m_iLevel", 1);
    SetStat(c, "m_iHealthMax", 700);
    Set(p, "m_iTeamNum", team);
    Set(p, "m_pEntity.m_nameStringableIndex", name_index);
    Set(p, "m_hController", c->handle());
    h.u.e = p;
    h.u.team = team;
    heroes_.push_back(std::move(h));
  }
  for (Hero& h : heroes_) {
    const Lane& lane = lanes_[static_cast<size_t>(h.slot) % lanes_.size()];
    // The game's assignment: the lane the hero starts in.
    Set(h.controller, "m_nOriginalLaneAssignment", lane.lane);
    Set(h.controller, "m_nAssignedLane", lane.lane);
    h.u.x = h.u.tx = lane.end[h.u.team - 2][0] + (Uniform() - 0.5) * 400;
    h.u.y = h.u.ty = lane.end[h.u.team - 2][1] + (Uniform() - 0.5) * 400;
    h.u.z = 256;
    h.u.speed = 400;
    h.u.max_health = h.u.health = 700;
    Born(&h.u);
  }
  camp_respawn_.assign(kCamps, 0);
}

void DeadlockCrowd::Step(Unit* u, uint32_t tick) {
  const double dx = u->tx - u->x, dy = u->ty - u->y;
  const double dist = std::hypot(dx, dy);
  const double step = u->speed * 2 / tps_;  // a packet is two ticks
  if (dist > 1 && step > 0) {
    const double f = std::min(1.0, step / dist);
    u->x += dx * f;
    u->y += dy * f;
    Place(u);
    // Facing where it goes (with a stride's sway), and its walk cycle.
    const float angles[3] = {0, static_cast<float>(std::atan2(dy, dx) * 180 / M_PI +
                                                   (Uniform() - 0.5) * 4), 0};
    world_->Set(u->e, "CBodyComponent.m_angRotation", Value::Vector(angles, 3));
    Set(u->e, "CBodyComponent.m_flSeqFixedCycle", std::fmod((tick - u->spawn_tick) / tps_, 1.0));
  }
  Set(u->e, "m_flSimulationTime", tick / tps_);
}

void DeadlockCrowd::Born(Unit* u) {
  Set(u->e, "m_iTeamNum", u->team);
  Set(u->e, "m_iMaxHealth", u->max_health);
  Set(u->e, "m_iHealth", u->health);
  Set(u->e, "m_lifeState", 0);
  Place(u);
}

void DeadlockCrowd::SpawnWave(uint32_t tick) {
  if (trooper_class_ < 0) return;
  for (const Lane& lane : lanes_) {
    for (int team = 2; team <= 3; ++team) {
      for (int k = 0; k < troopers_per_lane_; ++k) {
        SimEntity* e = world_->Create(trooper_class_);
        if (e == nullptr) return;
        Unit u;
        u.e = e;
        u.team = team;
        u.x = lane.end[team - 2][0] + (Uniform() - 0.5) * 300;
        u.y = lane.end[team - 2][1] + (Uniform() - 0.5) * 300;
        u.z = 200;
        // To the lane's middle, where the waves meet and fight.
        u.tx = (lane.end[0][0] + lane.end[1][0]) / 2 + (Uniform() - 0.5) * 600;
        u.ty = (lane.end[0][1] + lane.end[1][1]) / 2 + (Uniform() - 0.5) * 600;
        u.speed = 300;
        u.max_health = u.health = 600;
        u.spawn_tick = tick;
        u.die_tick = tick + static_cast<uint32_t>((50 + Uniform() * 50) * tps_) / 2 * 2;
        Set(e, "m_iLane", lane.lane);
        Born(&u);
        troopers_.push_back(u);
      }
    }
  }
}

void DeadlockCrowd::SpawnCamp(int camp, uint32_t tick) {
  if (neutral_class_ < 0) return;
  const double angle = camp * (2 * M_PI / kCamps);
  for (int k = 0; k < kPerCamp; ++k) {
    SimEntity* e = world_->Create(neutral_class_);
    if (e == nullptr) return;
    Unit u;
    u.e = e;
    u.team = kNeutralTeam;
    u.camp = camp;
    u.x = u.tx = std::cos(angle) * half_ * 0.6 + k * 80;
    u.y = u.ty = std::sin(angle) * half_ * 0.6 + k * 80;
    u.z = 150;
    u.speed = 60;
    u.max_health = u.health = 400;
    u.spawn_tick = tick;
    Born(&u);
    neutrals_.push_back(u);
  }
}

void DeadlockCrowd::Economy() {
  for (Hero& h : heroes_) {
    if (h.respawn_tick != 0) continue;
    h.souls += 20 + static_cast<int64_t>(Below(180));
    SetStat(h.controller, "m_iGoldNetWorth", static_cast<double>(h.souls));
    // Counters: a few last hits and denies, hero damage, and healing, of
    // which self healing is a part.
    const std::pair<const char*, uint64_t> grow[] = {{"m_iLastHits", 3},
                                                     {"m_iDenies", 3},
                                                     {"m_iHeroDamage", 400},
                                                     {"m_iSelfHealing", 60}};
    // The creep souls by kind, where the build has them (m_iCreepGold*).
    for (const auto& [field, column] : kCreepSouls) {
      if (world_->PathOf(h.controller->class_id, StatField(*h.controller, field)) == nullptr) {
        continue;
      }
      const int64_t more = static_cast<int64_t>(Below(25));
      SetStat(h.controller, field, static_cast<double>(GetStat(*h.controller, field) + more));
    }
    for (const auto& [field, below] : grow) {
      const int64_t more = static_cast<int64_t>(Below(below));
      SetStat(h.controller, field, static_cast<double>(GetStat(*h.controller, field) + more));
      if (field == grow[3].first) {
        SetStat(h.controller, "m_iHeroHealing",
                static_cast<double>(GetStat(*h.controller, "m_iHeroHealing") + more +
                                    static_cast<int64_t>(Below(90))));
      }
    }
  }
}

void DeadlockCrowd::Kill(uint32_t tick) {
  std::vector<Hero*> alive[2];
  for (Hero& h : heroes_) {
    if (h.respawn_tick == 0) alive[h.u.team - 2].push_back(&h);
  }
  const int side = static_cast<int>(Below(2));
  if (alive[side].empty() || alive[1 - side].empty()) return;
  Hero* killer = alive[side][Below(alive[side].size())];
  Hero* victim = alive[1 - side][Below(alive[1 - side].size())];
  std::vector<Hero*> assisters;
  const size_t wanted = Below(4);
  for (Hero* h : alive[side]) {
    if (h != killer && assisters.size() < wanted && Below(2) == 0) assisters.push_back(h);
  }
  proto::CCitadelUserMsg_HeroKilled m;
  m.set_entindex_victim(victim->u.e->index);
  m.set_entindex_inflictor(killer->u.e->index);
  m.set_entindex_attacker(killer->u.e->index);
  m.set_entindex_scorer(killer->u.e->index);
  m.set_victim_team_number(victim->u.team);
  // The killer's ability, as later builds send it: an item's token, which
  // the shop's EntityNames entries name.
  m.set_killer_ability_id(kKillerAbility);
  Json t{{"kind", "kills"}, {"tick", tick}, {"victim", victim->slot}, {"killer", killer->slot},
         {"killer_ability_id", kKillerAbility}, {"killer_ability", "upgrade_headshot_booster"}};
  Json slots = Json::array();
  for (Hero* a : assisters) {
    m.add_entindex_assisters(a->u.e->index);
    slots.push_back(a->slot);
  }
  // The victim's position as the message finds it (this packet has not
  // moved anyone yet).
  t["assisters"] = slots.dump();
  t["weapon"] = killer->name;
  t["victim_team"] = victim->u.team;
  t["x"] = F32(CellCoord(world_->GetInt(*victim->u.e, "CBodyComponent.m_cellX", 0), kCell,
                         kWorldOffset, world_->Get(*victim->u.e, "CBodyComponent.m_vecX").f));
  t["y"] = F32(CellCoord(world_->GetInt(*victim->u.e, "CBodyComponent.m_cellY", 0), kCell,
                         kWorldOffset, world_->Get(*victim->u.e, "CBodyComponent.m_vecY").f));
  world_->AddMessage(proto::k_EUserMsg_HeroKilled, m.SerializeAsString());
  if (truth_ != nullptr) std::fprintf(truth_, "%s\n", t.dump().c_str());
  ++killer->kills;
  ++victim->deaths;
  SetStat(killer->controller, "m_iPlayerKills", static_cast<double>(killer->kills));
  SetStat(victim->controller, "m_iDeaths", static_cast<double>(victim->deaths));
  for (Hero* a : assisters) {
    ++a->assists;
    SetStat(a->controller, "m_iPlayerAssists", static_cast<double>(a->assists));
  }
  victim->respawn_tick = tick + static_cast<uint32_t>(15 * tps_) / 2 * 2;
  victim->u.health = 0;
  Set(victim->u.e, "m_iHealth", 0);
  Set(victim->u.e, "m_lifeState", 2);
}

void DeadlockCrowd::Tick(uint32_t tick) {
  if (!active_) return;
  const uint32_t since = tick - start_;
  const uint32_t every = static_cast<uint32_t>(tps_ / 2);  // packets a second
  auto each = [&](double seconds) {
    return static_cast<uint32_t>(seconds * tps_) / 2 * 2;
  };
  if (since >= each(120) && since % each(40) == 0 && tick + each(20) < end_) Kill(tick);
  if (since % each(25) == 2) SpawnWave(tick);
  // The last packet carries the post-match record, which must agree with
  // the counters: none change in it.
  const bool last = tick >= end_;
  if (since % each(5) == 0 && !last) Economy();
  if (since % each(150) == 0 && since > 0 && !last) {
    for (Hero& h : heroes_) {
      h.level = std::min<int64_t>(h.level + 1, 16);
      SetStat(h.controller, "m_iLevel", static_cast<double>(h.level));
    }
  }
  // Camps: one cleared every 30 s; each back 2 minutes after.
  if (since % each(30) == 4 && since > 4) {
    const int camp = static_cast<int>((since / each(30)) % kCamps);
    for (Unit& u : neutrals_) {
      if (u.camp == camp && u.gone_tick == UINT32_MAX) Die(&u, tick);
    }
    camp_respawn_[camp] = tick + each(120);
  }
  for (int camp = 0; camp < kCamps; ++camp) {
    const bool up = std::any_of(neutrals_.begin(), neutrals_.end(),
                                [&](const Unit& u) { return u.camp == camp; });
    if (!up && camp_respawn_[camp] <= tick) {
      SpawnCamp(camp, tick);
      camp_respawn_[camp] = 0;
    }
  }
  for (Hero& h : heroes_) {
    Unit& u = h.u;
    if (h.respawn_tick != 0) {
      if (tick < h.respawn_tick) continue;
      h.respawn_tick = 0;
      const Lane& lane = lanes_[static_cast<size_t>(h.slot) % lanes_.size()];
      u.x = u.tx = lane.end[u.team - 2][0];
      u.y = u.ty = lane.end[u.team - 2][1];
      u.health = u.max_health;
      Set(u.e, "m_iHealth", u.health);
      Set(u.e, "m_lifeState", 0);
      Place(&u);
    }
    if (std::hypot(u.tx - u.x, u.ty - u.y) < 50) {
      // The next point: along its lane, or anywhere in the map.
      u.tx = (Uniform() * 2 - 1) * half_ * 0.8;
      u.ty = (Uniform() * 2 - 1) * half_ * 0.8;
      const double yaw = std::atan2(u.ty - u.y, u.tx - u.x) * 180 / M_PI;
      const float angles[3] = {static_cast<float>(Uniform() * 10 - 5), static_cast<float>(yaw),
                               0};
      world_->Set(u.e, "m_angEyeAngles", Value::Vector(angles, 3));
    }
    if (since % every == 0) {
      u.health = std::clamp(u.health + (Uniform() - 0.55) * 120, 1.0, u.max_health);
      Set(u.e, "m_iHealth", std::floor(u.health));
    }
    Step(&u, tick);
  }
  for (Unit& u : troopers_) {
    if (Dead(&u, tick)) continue;
    if (u.die_tick <= tick) {
      Die(&u, tick);
      continue;
    }
    if (std::hypot(u.tx - u.x, u.ty - u.y) < 20) {  // fighting: shuffling about
      u.tx += (Uniform() - 0.5) * 300;
      u.ty += (Uniform() - 0.5) * 300;
    }
    if (tick - u.spawn_tick > each(30) && Below(4) == 0) {
      u.health = std::max(1.0, u.health - Uniform() * 30);
      Set(u.e, "m_iHealth", std::floor(u.health));
    }
    Step(&u, tick);
  }
  Sweep(&troopers_);
  for (Unit& u : neutrals_) {
    if (Dead(&u, tick)) continue;
    if (Below(8) == 0) {  // swaying in place
      u.tx = u.x + (Uniform() - 0.5) * 40;
      u.ty = u.y + (Uniform() - 0.5) * 40;
    }
    Step(&u, tick);
  }
  Sweep(&neutrals_);
}

void DeadlockCrowd::Die(Unit* u, uint32_t tick) {
  u->health = 0;
  Set(u->e, "m_iHealth", 0);
  Set(u->e, "m_lifeState", 1);
  u->gone_tick = tick + static_cast<uint32_t>(tps_) / 2 * 2;  // deleted a second later
}

bool DeadlockCrowd::Dead(Unit* u, uint32_t tick) {
  if (u->gone_tick <= tick) {
    world_->Delete(u->e);
    u->e = nullptr;
  }
  return u->gone_tick != UINT32_MAX;
}

void DeadlockCrowd::Sweep(std::vector<Unit>* units) {
  units->erase(std::remove_if(units->begin(), units->end(),
                              [](const Unit& u) { return u.e == nullptr; }),
               units->end());
}

void DeadlockCrowd::Finish() {
  if (!active_ || truth_ == nullptr) return;
  for (const Hero& h : heroes_) {
    Json creep = Json::object();  // column -> souls; NULL where the build has no field
    for (const auto& [field, column] : kCreepSouls) {
      const bool has = world_->PathOf(h.controller->class_id, StatField(*h.controller, field));
      creep[column] = has ? Json(GetStat(*h.controller, field)) : Json();
    }
    std::fprintf(truth_, "%s\n",
                 Json{{"kind", "player_totals"}, {"slot", h.slot}, {"hero", h.name},
                      {"creep_souls", creep},
                      {"team", h.u.team}, {"kills", h.kills}, {"deaths", h.deaths},
                      {"assists", h.assists}, {"souls", h.souls},
                      {"lane", world_->PathOf(h.controller->class_id,
                                              "m_nOriginalLaneAssignment") != nullptr
                                   ? Json(world_->GetInt(*h.controller,
                                                         "m_nOriginalLaneAssignment", 0))
                                   : Json()},
                      {"hero_healing", GetStat(*h.controller, "m_iHeroHealing")},
                      {"self_healing", GetStat(*h.controller, "m_iSelfHealing")}}
                     .dump()
                     .c_str());
  }
}

}  // namespace gem::synth

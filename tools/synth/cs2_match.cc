#include "tools/synth/cs2_match.h"

#include <algorithm>
#include <cmath>

#include "core/fields/world_coord.h"

namespace gem::synth {
namespace {

// A competitive round's clock at 64 ticks a second: 15 s of freeze, at
// most 1:55 of play, 7 s before the next.
constexpr uint32_t kFreezeTicks = 960;
constexpr uint32_t kLiveTicks = 7360;
constexpr uint32_t kPostTicks = 448;
constexpr double kCell = 512;
constexpr int64_t kNoHandle = 0xFFFFFF;
constexpr int kNoPlayer = 65535;
// Spawns by team (2 T, 3 CT), and the two sites.
constexpr double kSpawn[4][2] = {{0, 0}, {0, 0}, {-600, -800}, {300, 2200}};
constexpr double kSite[2][2] = {{1100, 2500}, {-1500, 2600}};

const char* ReasonName(int reason) {
  switch (reason) {
    case 1: return "bomb_exploded";
    case 7: return "bomb_defused";
    case 8: return "t_eliminated";
    case 9: return "ct_eliminated";
    case 12: return "target_saved";
    default: return "";
  }
}

const char* ReasonMessage(int reason) {
  switch (reason) {
    case 1: return "#SFUI_Notice_Target_Bombed";
    case 7: return "#SFUI_Notice_Bomb_Defused";
    case 8: return "#SFUI_Notice_CTs_Win";
    case 9: return "#SFUI_Notice_Terrorists_Win";
    default: return "#SFUI_Notice_Target_Saved";
  }
}

}  // namespace

Cs2Match::Cs2Match(World* world, const Cs2Options& options)
    : world_(world),
      options_(options),
      rng_(options.seed),
      utility_rng_(options.seed ^ 0x9e3779b97f4a7c15ull) {}

std::string Cs2Match::Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string Cs2Match::Opt(int64_t v, bool present) {
  return present ? std::to_string(v) : "null";
}

void Cs2Match::Truth(const std::string& line) {
  if (truth_ != nullptr) std::fprintf(truth_, "%s\n", line.c_str());
}

bool Cs2Match::Find() {
  for (const auto& [index, e] : world_->entities()) {
    const std::string& c = e->class_name();
    if (c == "CCSGameRulesProxy") rules_ = e.get();
    if (c == "CCSTeam") {
      const int64_t team = world_->GetInt(*e, "m_iTeamNum", 0);
      if (team == 2 || team == 3) team_entity_[team] = e.get();
    }
    if (c == "CC4") c4_ = e.get();
    if (c != "CCSPlayerController") continue;
    const int64_t team = world_->GetInt(*e, "m_iTeamNum", 0);
    const int64_t handle = world_->GetInt(*e, "m_hPlayerPawn", kNoHandle);
    auto pawn = world_->entities().find(static_cast<int32_t>(handle & 0x3FFF));
    if ((team != 2 && team != 3) || pawn == world_->entities().end()) continue;
    Player p;
    p.slot = index - 1;
    p.controller = e.get();
    p.pawn = pawn->second.get();
    p.team = static_cast<int>(team);
    players_.push_back(p);
  }
  c4_class_ = world_->ClassId("CC4");
  planted_class_ = world_->ClassId("CPlantedC4");
  inferno_class_ = world_->ClassId("CInferno");
  for (const char* c : {"CSmokeGrenadeProjectile", "CFlashbangProjectile",
                        "CHEGrenadeProjectile", "CMolotovProjectile", "CDecoyProjectile"}) {
    projectile_class_[c] = world_->ClassId(c);
  }
  // A client's recording (--pov) that never received the decoy
  // projectile's baseline (docs/recordings.md): its creates still come as
  // deltas from it.
  if (options_.pov_slot >= 0) world_->WithholdBaseline(projectile_class_["CDecoyProjectile"]);
  for (int32_t id : {c4_class_, planted_class_, inferno_class_}) {
    if (id < 0 || !world_->EnsureBaseline(id)) return false;
  }
  for (const auto& [name, id] : projectile_class_) {
    if (id < 0 || !world_->EnsureBaseline(id)) return false;
  }
  return rules_ != nullptr && team_entity_[2] != nullptr && team_entity_[3] != nullptr &&
         players_.size() >= 4;
}

void Cs2Match::Place(SimEntity* e, double x, double y, double z) {
  const double v[3] = {x, y, z};
  for (int axis = 0; axis < 3; ++axis) {
    const double w = v[axis] + kWorldOffset;
    const double cell = std::floor(w / kCell);
    const std::string a(1, static_cast<char>('X' + axis));
    const std::string cell_name = "CBodyComponent.m_cell" + a;
    const std::string vec_name = "CBodyComponent.m_vec" + a;
    world_->Set(e, cell_name, world_->Number(*e, cell_name, cell));
    world_->Set(e, vec_name, world_->Number(*e, vec_name, w - cell * kCell));
  }
}

void Cs2Match::WorldPos(const SimEntity& e, double* x, double* y, double* z) {
  double* out[3] = {x, y, z};
  for (int axis = 0; axis < 3; ++axis) {
    const std::string a(1, static_cast<char>('X' + axis));
    const int64_t cell = world_->GetInt(e, "CBodyComponent.m_cell" + a, 0);
    const Value vec = world_->Get(e, "CBodyComponent.m_vec" + a);
    *out[axis] = CellCoord(cell, kCell, kWorldOffset, vec.kind == ValueKind::kFloat ? vec.f : 0);
  }
}

void Cs2Match::PlacePlayer(Player* p) {
  Place(p->pawn, p->x, p->y, p->z);
  const float angles[3] = {static_cast<float>(std::round(Uniform() * 20 - 10)),
                           static_cast<float>(p->yaw), 0};
  world_->Set(p->pawn, "m_angEyeAngles", Value::Vector(angles, 3));
  // What else a real pawn sends every tick it lives (about fifteen fields,
  // as the fixtures' pawns do): its velocity, body and head rotation,
  // movement prediction and weapon animation state.
  auto set = [&](const char* name, double v) {
    world_->Set(p->pawn, name, world_->Number(*p->pawn, name, v));
  };
  set("m_vecVelocity.m_vecX", p->vx);
  set("m_vecVelocity.m_vecY", p->vy);
  const float rotation[3] = {0, static_cast<float>(p->yaw), 0};
  world_->Set(p->pawn, "CBodyComponent.m_angRotation", Value::Vector(rotation, 3));
  world_->Set(p->pawn, "m_thirdPersonHeading", Value::Vector(rotation, 3));
  set("m_flSlopeDropHeight", std::round(Uniform() * 64) / 8);
  set("m_flSlopeDropOffset", std::round(Uniform() * 64) / 8);
  for (const char* pred : {"CBodyComponent.m_PredFloatVariables.0005",
                           "CBodyComponent.m_PredFloatVariables.0009",
                           "CBodyComponent.m_PredFloatVariables.0010",
                           "CBodyComponent.m_PredFloatVariables.0011"}) {
    set(pred, std::round(Uniform() * 1024) / 16);
  }
  // Builds name these differently: what the fixture's build has is set.
  for (const char* timing :
       {"m_pWeaponServices.m_networkAnimTiming.0001", "m_pWeaponServices.m_networkAnimTiming.0002",
        "m_pWeaponServices.m_networkAnimTiming.0004", "m_pWeaponServices.m_networkAnimTiming.0005",
        "m_pWeaponServices.m_networkAnimTiming.0011", "m_pWeaponServices.m_networkAnimTiming.0012",
        "m_pWeaponServices.m_networkAnimTiming.0014", "m_pWeaponServices.m_networkAnimTiming.0015",
        "CBodyComponent.m_SerializePoseRecipeAG2Dynamic.0000",
        "CBodyComponent.m_SerializePoseRecipeAG2Dynamic.0014",
        "CBodyComponent.m_SerializePoseRecipeAG2Dynamic.0015",
        "CBodyComponent.m_SerializePoseRecipeAG2Dynamic.0019",
        "CBodyComponent.m_SerializePoseRecipeAG2Dynamic.0045"}) {
    set(timing, static_cast<double>(Below(256)));
  }
}

void Cs2Match::Money(Player* p) {
  p->money = std::min(p->money, 16000);
  world_->Set(p->controller, "m_pInGameMoneyServices.m_iAccount",
              world_->Number(*p->controller, "m_pInGameMoneyServices.m_iAccount", p->money));
}

std::map<std::string, Value> Cs2Match::Who(const char* key, const Player* p) const {
  const std::string k = key;
  if (p == nullptr) return {{k, Value::Int(kNoPlayer)}, {k + "_pawn", Value::Int(-1)}};
  return {{k, Value::Int(p->slot)},
          {k + "_pawn", Value::Int(static_cast<int32_t>(p->pawn->handle()))}};
}

void Cs2Match::Event(const std::string& name, std::map<std::string, Value> keys) {
  for (const std::string& dropped : options_.dropped_events) {
    if (dropped == name) return;
  }
  world_->AddGameEvent(name, keys);
}

Cs2Match::Player* Cs2Match::RandomAlive(int team) {
  std::vector<Player*> alive;
  for (Player& p : players_) {
    if (p.alive && p.team == team) alive.push_back(&p);
  }
  return alive.empty() ? nullptr : alive[Below(alive.size())];
}

int Cs2Match::Alive(int team) const {
  int n = 0;
  for (const Player& p : players_) n += p.alive && p.team == team;
  return n;
}

void Cs2Match::RoundTruth(int64_t official_end) {
  if (round_ == 0) return;
  DuelsTruth();
  RoundsTruth("{\"kind\":\"round\",\"round\":" + std::to_string(round_) +
      ",\"start_tick\":" + std::to_string(round_start_) +
      ",\"freeze_end_tick\":" + std::to_string(freeze_end_) +
      ",\"end_tick\":" + std::to_string(live_until_) +
      ",\"official_end_tick\":" + Opt(official_end, official_end >= 0) + ",\"winner\":" +
      std::to_string(winner_) + ",\"reason\":\"" + ReasonName(reason_) +
      "\",\"ct_score\":" + std::to_string(score_[3]) + ",\"t_score\":" +
      std::to_string(score_[2]) + ",\"bomb_plant_tick\":" +
      Opt(plant_tick_, plant_tick_ >= 0) + ",\"bomb_site\":" +
      (round_site_.empty() ? "null" : "\"" + round_site_ + "\"") + "}");
  for (const Player& p : players_) {
    RoundsTruth("{\"kind\":\"economy\",\"round\":" + std::to_string(round_) + ",\"slot\":" +
          std::to_string(p.slot) + ",\"team\":" + std::to_string(p.team) +
          ",\"tick\":" + std::to_string(freeze_end_) +
          ",\"start_money\":" + std::to_string(p.start_money) + ",\"equipment_value\":" +
          std::to_string(p.freeze_equipment) + ",\"spent\":" + std::to_string(p.spent) +
          ",\"kill_reward\":" + std::to_string(p.kill_reward - p.reward_at_start) + "}");
  }
}

void Cs2Match::StartRound(uint32_t tick) {
  if (round_ > 0) {
    // The round before is over: its rows, now that its official end is
    // this tick.
    RoundTruth(tick);
    if (round_events_) Event("round_officially_ended", {});
  }
  ++round_;
  ++counters_.rounds;
  if (round_ == options_.rounds / 2 + 1) {
    // Half time: sides switch, and the scores with them.
    for (Player& p : players_) {
      p.team = 5 - p.team;
      p.money = 800;
      DropUtility(&p);  // a new half starts empty-handed
      world_->Set(p.controller, "m_iTeamNum", world_->Number(*p.controller, "m_iTeamNum", p.team));
      world_->Set(p.pawn, "m_iTeamNum", world_->Number(*p.pawn, "m_iTeamNum", p.team));
    }
    std::swap(score_[2], score_[3]);
    for (int team : {2, 3}) {
      world_->Set(team_entity_[team], "m_iScore",
                  world_->Number(*team_entity_[team], "m_iScore", score_[team]));
    }
  }
  start_count_ = (start_count_ + 1) & 0xFF;
  auto rule = [&](const char* name, double v) {
    const std::string n = std::string("m_pGameRules.") + name;
    world_->Set(rules_, n, world_->Number(*rules_, n, v));
  };
  rule("m_nRoundStartCount", start_count_);
  rule("m_bFreezePeriod", 1);
  rule("m_iRoundWinStatus", 0);
  rule("m_eRoundWinReason", 0);
  rule("m_bBombPlanted", 0);
  rule("m_bWarmupPeriod", 0);
  rule("m_bHasMatchStarted", 1);
  rule("m_totalRoundsPlayed", round_ - 1);
  for (Player& p : players_) {
    p.alive = true;
    p.health = 100;
    p.hurt_by.clear();
    p.x = kSpawn[p.team][0] + (Uniform() - 0.5) * 400;
    p.y = kSpawn[p.team][1] + (Uniform() - 0.5) * 400;
    p.z = 0;
    p.tx = p.x;
    p.ty = p.y;
    p.yaw = std::round(Uniform() * 340 - 170);
    p.flash = 0;
    p.flashed_by = -1;
    p.start_money = p.money;
    p.spent = 0;
    p.equipment = 200;
    p.reward_at_start = p.kill_reward;
    world_->Set(p.pawn, "m_iHealth", world_->Number(*p.pawn, "m_iHealth", 100));
    world_->Set(p.pawn, "m_lifeState", world_->Number(*p.pawn, "m_lifeState", 0));
    world_->Set(p.pawn, "m_flFlashDuration", world_->Number(*p.pawn, "m_flFlashDuration", 0));
    world_->Set(p.pawn, "m_unCurrentEquipmentValue",
                world_->Number(*p.pawn, "m_unCurrentEquipmentValue", p.equipment));
    world_->Set(p.pawn, "m_szLastPlaceName",
                Value::String(p.team == 2 ? "TSpawn" : "CTSpawn"));
    world_->Set(p.controller, "m_pInGameMoneyServices.m_iStartAccount",
                world_->Number(*p.controller, "m_pInGameMoneyServices.m_iStartAccount", p.money));
    world_->Set(p.controller, "m_pInGameMoneyServices.m_iCashSpentThisRound",
                world_->Number(*p.controller, "m_pInGameMoneyServices.m_iCashSpentThisRound", 0));
    Money(&p);
    PlacePlayer(&p);
    p.shots_fired = p.burst_left = 0;
    HoldForRound(&p, false);
  }
  round_start_ = tick;
  freeze_end_ = tick + kFreezeTicks;
  live_until_ = freeze_end_ + kLiveTicks;
  in_freeze_ = true;
  live_ = false;
  ended_ = false;
  plant_tick_ = -1;
  round_site_.clear();
  defused_ = false;
  deaths_.clear();
  clutches_.clear();
  if (round_events_ && options_.round_start_events) {
    Event("round_start", {{"timelimit", Value::Int(115)}, {"objective",
                                                           Value::String("BOMB TARGET")}});
  }
  // The bomb: a new C4 for a T, and whether they go for a site.
  if (planted_ != nullptr) world_->Delete(planted_);
  planted_ = nullptr;
  if (c4_ != nullptr) world_->Delete(c4_);
  c4_ = nullptr;
  Player* carrier = RandomAlive(2);
  carrier_ = carrier ? carrier->slot : -1;
  defuser_ = -1;
  bomb_ = BombState::kDone;
  if (carrier != nullptr) {
    c4_ = world_->Create(c4_class_);
    if (c4_ != nullptr) {
      world_->Set(c4_, "m_hOwnerEntity", world_->Number(*c4_, "m_hOwnerEntity",
                                                        carrier->pawn->handle()));
      Place(c4_, carrier->x, carrier->y, carrier->z);
      bomb_ = BombState::kCarried;
      site_ = static_cast<int>(Below(2));
      bomb_at_ = Uniform() < 0.65 ? freeze_end_ + static_cast<uint32_t>(1280 + Below(1280))
                                  : UINT32_MAX;
      Event("bomb_pickup", Who("userid", carrier));
      BombRow(tick, "pickup", carrier, "", carrier->pawn);
    }
  }
}

void Cs2Match::FreezeEnd(uint32_t tick) {
  world_->Set(rules_, "m_pGameRules.m_bFreezePeriod",
              world_->Number(*rules_, "m_pGameRules.m_bFreezePeriod", 0));
  if (round_events_) Event("round_freeze_end", {});
  for (Player& p : players_) p.freeze_equipment = p.equipment;
  in_freeze_ = false;
  live_ = true;
  (void)tick;
}

void Cs2Match::Buy(Player* p) {
  static constexpr int kBuys[] = {0, 650, 1000, 2700, 3100, 4700};
  // A player who can afford it mostly buys in full (rifle, armour,
  // utility); one who cannot mostly saves.
  const double u = Uniform();
  const int spend = p->money >= 5200 && u < 0.7   ? 4700
                    : p->money < 3000 && u < 0.6 ? 0
                                                 : std::min(p->money, kBuys[Below(std::size(kBuys))]);
  p->money -= spend;
  p->spent += spend;
  p->total_spent += spend;
  p->equipment += spend;
  Money(p);
  auto set = [&](SimEntity* e, const char* name, double v) {
    world_->Set(e, name, world_->Number(*e, name, v));
  };
  set(p->controller, "m_pInGameMoneyServices.m_iCashSpentThisRound", p->spent);
  set(p->controller, "m_pInGameMoneyServices.m_iTotalCashSpent", p->total_spent);
  set(p->pawn, "m_unCurrentEquipmentValue", p->equipment);
  if (spend >= 1000) {
    p->armor = 100;
    set(p->pawn, "m_ArmorValue", 100);
    set(p->pawn, "m_pItemServices.m_bHasHelmet", 1);
  }
  if (spend >= 2700 && p->team == 3) set(p->pawn, "m_pItemServices.m_bHasDefuser", 1);
  HoldForRound(p, spend >= 2700);
  BuyUtility(p, spend);
}

void Cs2Match::EndRound(uint32_t tick, int winner, int reason) {
  end_count_ = (end_count_ + 1) & 0xFF;
  auto rule = [&](const char* name, double v) {
    const std::string n = std::string("m_pGameRules.") + name;
    world_->Set(rules_, n, world_->Number(*rules_, n, v));
  };
  rule("m_nRoundEndCount", end_count_);
  rule("m_iRoundWinStatus", winner);
  rule("m_eRoundWinReason", reason);
  rule("m_totalRoundsPlayed", round_);
  ++score_[winner];
  world_->Set(team_entity_[winner], "m_iScore",
              world_->Number(*team_entity_[winner], "m_iScore", score_[winner]));
  for (Player& p : players_) {
    p.money += p.team == winner ? 3250 : 1400;
    Money(&p);
  }
  if (round_events_) {
    Event("round_end", {{"winner", Value::Int(winner)},
                        {"reason", Value::Int(reason)},
                        {"message", Value::String(ReasonMessage(reason))},
                        {"player_count", Value::Int(Alive(2) + Alive(3))}});
  }
  winner_ = winner;
  reason_ = reason;
  live_until_ = tick;  // the round's end, as its row says
  live_ = false;
  ended_ = true;
  next_start_ = tick + kPostTicks;
  if (options_.flaws && round_ == 2) second_end_ = tick + 32;
}

void Cs2Match::Play(uint32_t tick) {
  tick_ = tick;
  for (Player& p : players_) {  // the grenades held as the last tick ended
    std::copy(std::begin(p.ammo), std::end(p.ammo), std::begin(p.ammo_before));
    p.fire_item_before = p.fire_item;
  }
  if (ended_ && tick >= next_start_) {
    if (!restarted_ && options_.restart_after > 0 && round_ == options_.restart_after) {
      Restart(tick);
      return;
    }
    if (round_ >= options_.rounds) return;
    StartRound(tick);
    return;
  }
  if (ended_ && second_end_ == tick) {
    // The flaw: the round ends once more.
    end_count_ = (end_count_ + 1) & 0xFF;
    world_->Set(rules_, "m_pGameRules.m_nRoundEndCount",
                world_->Number(*rules_, "m_pGameRules.m_nRoundEndCount", end_count_));
    if (round_events_) {
      Event("round_end", {{"winner", Value::Int(winner_)}, {"reason", Value::Int(reason_)}});
    }
  }
  if (in_freeze_ && tick == round_start_ + 64) {
    for (Player& p : players_) Buy(&p);
  }
  if (in_freeze_ && tick >= freeze_end_) FreezeEnd(tick);
  if (live_ || ended_) {
    for (Player& p : players_) {
      if (!p.alive || in_freeze_) continue;
      if (p.slot == carrier_ && bomb_ == BombState::kPlanting) continue;
      if (p.slot == defuser_ && bomb_ == BombState::kDefusing) continue;
      const double dx = p.tx - p.x, dy = p.ty - p.y, d = std::hypot(dx, dy);
      const double step = 250.0 / 64;
      p.vx = p.vy = 0;
      if (d < step) {
        const double* aim = p.slot == carrier_ && bomb_ == BombState::kCarried
                                ? kSite[site_] : kSpawn[5 - p.team];
        p.tx = aim[0] + (Uniform() - 0.5) * 1200;
        p.ty = aim[1] + (Uniform() - 0.5) * 1200;
      } else {
        p.x += dx / d * step;
        p.y += dy / d * step;
        p.vx = dx / d * 250.0;
        p.vy = dy / d * 250.0;
        p.yaw = std::round(std::atan2(dy, dx) * 180 / M_PI);
      }
      PlacePlayer(&p);
    }
  }
  if (!live_) {
    Grenades(tick);
    return;
  }
  Fight(tick);
  if (Uniform() < 0.006) {  // a grenade in 2.6 s, some 15 a round
    Player* p = RandomAlive(Below(2) ? 2 : 3);
    if (p != nullptr && !Protected(*p)) Throw(tick, p);
  }
  Grenades(tick);
  Bomb(tick);
  if (!live_) return;
  const bool planted = bomb_ == BombState::kPlanted || bomb_ == BombState::kDefusing;
  if (Alive(3) == 0) {
    EndRound(tick, 2, 9);
  } else if (Alive(2) == 0 && !planted) {
    EndRound(tick, 3, 8);
  } else if (tick >= live_until_ && !planted) {
    EndRound(tick, 3, 12);
  }
}

void Cs2Match::Restart(uint32_t tick) {
  // The rounds so far are void: their round and economy rows go, and the
  // game counts from round 1 again, scores 0 and money as at the start.
  restarted_ = true;
  rounds_truth_.clear();
  round_ = 0;
  score_[2] = score_[3] = 0;
  for (int team : {2, 3}) {
    world_->Set(team_entity_[team], "m_iScore", world_->Number(*team_entity_[team], "m_iScore", 0));
  }
  for (Player& p : players_) {
    p.money = 800;
    DropUtility(&p);
  }
  StartRound(tick);
}

Status Cs2Match::Run(ReplayWriter* out, FILE* truth) {
  truth_ = truth;
  round_events_ = options_.round_events;
  if (!Find()) {
    return Status::InvalidArgument(
        "the fixture has no CS2 game rules, teams, ten players with pawns, or the C4 and "
        "grenade classes");
  }
  start_count_ = static_cast<int>(world_->GetInt(*rules_, "m_pGameRules.m_nRoundStartCount", 0));
  end_count_ = static_cast<int>(world_->GetInt(*rules_, "m_pGameRules.m_nRoundEndCount", 0));
  if (options_.pov_slot >= 0) {
    if (Index(options_.pov_slot) != 0 || players_.front().slot == options_.pov_slot) {
      world_->RecordAsClient(options_.pov_slot);
    } else {
      return Status::InvalidArgument("--pov " + std::to_string(options_.pov_slot) +
                                     " is no player's slot");
    }
    options_.full_packet_interval = 0;  // a client records none
  }
  ArmPlayers();
  GEM_RETURN_IF_ERROR(world_->WritePrefix(out));
  // A packet every tick, as CS2's GOTV records (the fixtures do).
  const uint32_t start = world_->start_tick();
  uint32_t t = start + 1;
  if (options_.pov_slot >= 0) {
    Event("player_activate", Who("userid", &players_[static_cast<size_t>(
                                               Index(options_.pov_slot))]));
  }
  ended_ = true;
  next_start_ = t;
  uint32_t last = t;
  for (;; ++t) {
    Play(t);
    Spot(t);
    if (options_.pov_slot >= 0) UpdateView(t);
    GEM_RETURN_IF_ERROR(world_->FlushPacket(t, out));
    if (options_.full_packet_interval > 0 && (t - start) % options_.full_packet_interval == 0) {
      GEM_RETURN_IF_ERROR(world_->WriteFullPacket(t, out));
    }
    last = t;
    if (round_ >= options_.rounds && ended_ && t >= next_start_) break;
  }
  // The match is over: the last round's rows (no round follows it).
  world_->Set(rules_, "m_pGameRules.m_gamePhase",
              world_->Number(*rules_, "m_pGameRules.m_gamePhase", 5));
  ++t;
  GEM_RETURN_IF_ERROR(world_->FlushPacket(t, out));
  last = t;
  FinishRound();
  FinishGrenades();
  FinishSightings();
  for (const std::string& line : rounds_truth_) Truth(line);
  counters_.last_tick = last;
  return world_->WriteEnd(last, out);
}

}  // namespace gem::synth

#include "tools/synth/match.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/codec/varint.h"
#include "core/dota/combat_log.h"
#include "core/input/inner_messages.h"
#include "core/fields/value.h"
#include "proto/dota_usermessages.pb.h"

namespace gem::synth {
namespace {

constexpr double kPacketSeconds = 2.0 / 30;
constexpr double kMapHalf = 7200;
constexpr int kRadiant = 2, kDire = 3, kNeutralTeam = 4;
constexpr uint32_t kWaveTicks = 900;  // 30 s
constexpr int kCreepsPerLane = 5;
constexpr int kNeutralCamps = 18;
constexpr int kNeutralsPerCamp = 3;
constexpr int kNudgesPerPacket = 30;
constexpr int32_t kCombatLogDeath = 4;

// Protobuf wire format, for the one message we have no .proto for
// (CDOTAModifierBuffTableEntry: field numbers from Valve's
// dota_modifiers.proto).
void PutVarintField(uint32_t field, uint64_t v, std::string* out) {
  PutVarint(field << 3, out);
  PutVarint(v, out);
}
void PutFloatField(uint32_t field, float f, std::string* out) {
  PutVarint((field << 3) | 5, out);
  char b[4];
  std::memcpy(b, &f, 4);
  out->append(b, 4);
}

std::string ModifierEntry(const Match::Modifier& m, int32_t index, bool removed) {
  std::string out;
  PutVarintField(1, removed ? 2 : 1, &out);  // entry_type: ACTIVE 1, REMOVED 2
  PutVarintField(2, m.parent, &out);
  PutVarintField(3, static_cast<uint32_t>(index), &out);
  PutVarintField(4, m.serial, &out);
  PutVarintField(5, m.modifier_class, &out);
  PutFloatField(8, m.created, &out);
  PutFloatField(9, m.duration, &out);
  return out;
}

// The meeting points of the three lanes and the two bases.
constexpr double kLaneMeet[3][2] = {{-6000, 5600}, {-300, -200}, {6000, -6200}};
constexpr double kBase[2][2] = {{-6700, -6200}, {6400, 5900}};

}  // namespace

Match::Match(World* world, const MatchOptions& options)
    : world_(world), options_(options), rng_(options.seed) {}

void Match::Start() {
  for (const auto& [index, e] : world_->entities()) {
    if (e->class_name().rfind("CDOTA_Unit_Hero_", 0) == 0) {
      Unit u;
      u.e = e.get();
      u.kind = Kind::kHero;
      auto num = [&](const char* name, double fallback) {
        Value v = world_->Get(*e, name);
        switch (v.kind) {
          case ValueKind::kInt: return static_cast<double>(v.i);
          case ValueKind::kUint: return static_cast<double>(v.u);
          case ValueKind::kFloat: return static_cast<double>(v.f);
          default: return fallback;
        }
      };
      u.x = num("CBodyComponent.m_cellX", 64) * 128 + num("CBodyComponent.m_vecX", 0) - 16384;
      u.y = num("CBodyComponent.m_cellY", 64) * 128 + num("CBodyComponent.m_vecY", 0) - 16384;
      u.tx = u.x;
      u.ty = u.y;
      u.speed = 290 + Below(40);
      u.max_health = std::max(200.0, num("m_iMaxHealth", 600));
      u.health = u.max_health;
      u.max_mana = std::max(100.0, num("m_flMaxMana", 300));
      u.mana = u.max_mana;
      u.team = static_cast<int>(num("m_iTeamNum", kRadiant));
      u.parity = static_cast<int32_t>(num("CBodyComponent.m_nNewSequenceParity", 0));
      u.wearables_base = static_cast<size_t>(num("m_hMyWearables", 0));
      units_.push_back(u);
    } else if (!PlayerStats::Manages(e->class_name()) && !items_.Owns(index) &&
               !deadlock_.Names(e->class_name())) {
      others_.push_back(index);
    }
  }
  const int32_t lane = world_->ClassId("CDOTA_BaseNPC_Creep_Lane");
  creep_class_ = world_->EnsureBaseline(lane) ? lane : -1;
  const int32_t neutral = world_->ClassId("CDOTA_BaseNPC_Creep_Neutral");
  neutral_class_ = world_->EnsureBaseline(neutral) ? neutral : creep_class_;
  modifiers_ = world_->FindTable("ActiveModifiers");
  if (SimTable* names = world_->FindTable("CombatLogNames")) combat_names_ = names->entries.size();
}

Match::Unit* Match::Spawn(int32_t class_id, Kind kind, int team, double x, double y,
                          uint32_t tick) {
  if (class_id < 0) return nullptr;
  SimEntity* e = world_->Create(class_id);
  if (e == nullptr) return nullptr;
  Unit u;
  u.e = e;
  u.kind = kind;
  u.team = team;
  u.x = u.tx = x;
  u.y = u.ty = y;
  u.speed = kind == Kind::kLaneCreep ? 325 : 0;
  u.max_health = u.health = kind == Kind::kLaneCreep ? 550 : 400 + Below(800);
  world_->Set(e, "m_iTeamNum", world_->Number(*e, "m_iTeamNum", team));
  world_->Set(e, "m_iMaxHealth", world_->Number(*e, "m_iMaxHealth", u.max_health));
  world_->Set(e, "m_iHealth", world_->Number(*e, "m_iHealth", u.health));
  world_->Set(e, "m_lifeState", world_->Number(*e, "m_lifeState", 0));
  world_->Set(e, "CBodyComponent.m_cellZ", world_->Number(*e, "CBodyComponent.m_cellZ", 128));
  world_->Set(e, "m_flSimulationTime", world_->Number(*e, "m_flSimulationTime", tick / 30.0));
  Place(&u);
  units_.push_back(u);
  return &units_.back();
}

void Match::Place(Unit* u) {
  for (int axis = 0; axis < 2; ++axis) {
    const double w = (axis == 0 ? u->x : u->y) + 16384;
    const double cell = std::floor(w / 128);
    const char* cell_name = axis == 0 ? "CBodyComponent.m_cellX" : "CBodyComponent.m_cellY";
    const char* vec_name = axis == 0 ? "CBodyComponent.m_vecX" : "CBodyComponent.m_vecY";
    world_->Set(u->e, cell_name, world_->Number(*u->e, cell_name, cell));
    world_->Set(u->e, vec_name, world_->Number(*u->e, vec_name, w - cell * 128));
  }
}

void Match::SpawnWave(uint32_t tick) {
  for (int team = 0; team < 2; ++team) {
    for (int lane = 0; lane < 3; ++lane) {
      for (int k = 0; k < kCreepsPerLane; ++k) {
        const double x = kBase[team][0] + (Uniform() - 0.5) * 600;
        const double y = kBase[team][1] + (Uniform() - 0.5) * 600;
        Unit* u = Spawn(creep_class_, Kind::kLaneCreep, team == 0 ? kRadiant : kDire, x, y, tick);
        if (u == nullptr) return;
        u->tx = kLaneMeet[lane][0] + (Uniform() - 0.5) * 800;
        u->ty = kLaneMeet[lane][1] + (Uniform() - 0.5) * 800;
        u->die_tick = tick + 3000 + static_cast<uint32_t>(Below(1500));
      }
    }
  }
}

void Match::SpawnNeutrals(uint32_t tick) {
  std::vector<int> alive(kNeutralCamps, 0);
  for (const Unit& u : units_) {
    if (u.kind == Kind::kNeutral) ++alive[u.camp];
  }
  for (int camp = 0; camp < kNeutralCamps; ++camp) {
    if (alive[camp] > 0) continue;
    // Camps sit on a fixed ring of the map, one per 20 degrees.
    const double angle = camp * (2 * M_PI / kNeutralCamps);
    for (int k = 0; k < kNeutralsPerCamp; ++k) {
      Unit* u = Spawn(neutral_class_, Kind::kNeutral, kNeutralTeam,
                      std::cos(angle) * 4000 + k * 60, std::sin(angle) * 4000 + k * 60, tick);
      if (u == nullptr) return;
      u->camp = camp;
      u->die_tick = tick + 600 + static_cast<uint32_t>(Below(6000));
    }
  }
}

void Match::Step(Unit* u, uint32_t tick) {
  SimEntity* e = u->e;
  const double dx = u->tx - u->x, dy = u->ty - u->y;
  const double dist = std::hypot(dx, dy);
  const double step = u->speed * kPacketSeconds;
  if (u->kind == Kind::kHero && dist < step) {
    // Two draws either way, so that the rest of the match draws the same.
    const double a = Uniform(), b = Uniform();
    if (!activity_.LaneTarget(e, tick, a, b, &u->tx, &u->ty)) {
      u->tx = (a * 2 - 1) * kMapHalf;
      u->ty = (b * 2 - 1) * kMapHalf;
    }
    const double yaw = std::atan2(u->ty - u->y, u->tx - u->x) * 180 / M_PI;
    const float angle[3] = {0, static_cast<float>(yaw < 0 ? yaw + 360 : yaw), 0};
    world_->Set(e, "CBodyComponent.m_angRotation", Value::Vector(angle, 3));
  }
  if (u->kind == Kind::kLaneCreep && dist < step && Uniform() < 0.1) {
    // Fighting creeps shuffle around their lane's meeting point.
    u->tx += (Uniform() - 0.5) * 300;
    u->ty += (Uniform() - 0.5) * 300;
  }
  const bool moving = dist > 1 && step > 0;
  if (moving) {
    const double f = std::min(1.0, step / dist);
    u->x += dx * f;
    u->y += dy * f;
    Place(u);
  }
  // Fighting: heroes anywhere, creeps once they stand still.
  const bool fighting = u->kind == Kind::kHero || !moving;
  if (fighting && Uniform() < (u->kind == Kind::kNeutral ? 0.05 : 0.4)) {
    u->health -= Uniform() * 40;
  } else if (u->kind == Kind::kHero) {
    u->health = std::min(u->max_health, u->health + 2);
  }
  if (u->health <= 0) {
    // Heroes respawn at their base (but stay in their lane while laning:
    // dota_activity.h); units die at their die tick.
    u->health = u->max_health;
    if (u->kind == Kind::kHero && !activity_.Laning(tick)) {
      const int side = u->team == kDire ? 1 : 0;
      u->x = u->tx = kBase[side][0];
      u->y = u->ty = kBase[side][1];
      Place(u);
    }
  }
  world_->Set(e, "m_iHealth", world_->Number(*e, "m_iHealth", std::ceil(u->health)));
  if (u->kind == Kind::kHero) {
    u->mana = std::clamp(u->mana + (Uniform() < 0.1 ? -30 * Uniform() : 0.4), 0.0, u->max_mana);
    world_->Set(e, "m_flMana", world_->Number(*e, "m_flMana", u->mana));
    if (Uniform() < 0.2) {
      world_->Set(e, "m_anglediff", world_->Number(*e, "m_anglediff", Below(40) - 20.0));
    }
    if (Uniform() < 1.0 / 300) ChangeWearables(u);
  }
  if (u->kind != Kind::kHero) {
    world_->Set(e, "m_flSimulationTime", world_->Number(*e, "m_flSimulationTime", tick / 30.0));
  }
  if (Uniform() < 0.08) {
    // A new animation: sequence parity, start cycle, playback rate.
    ++u->parity;
    world_->Set(e, "CBodyComponent.m_nNewSequenceParity",
                world_->Number(*e, "CBodyComponent.m_nNewSequenceParity", u->parity & 7));
    world_->Set(e, "m_flStartSequenceCycle",
                world_->Number(*e, "m_flStartSequenceCycle", Uniform()));
    world_->Set(e, "CBodyComponent.m_flPlaybackRate",
                world_->Number(*e, "CBodyComponent.m_flPlaybackRate", 0.5 + Uniform()));
    world_->Set(e, "m_NetworkSequenceIndex",
                world_->Number(*e, "m_NetworkSequenceIndex", Below(60)));
  }
}

void Match::ChangeWearables(Unit* u) {
  const FieldPath* length_path = world_->PathOf(u->e->class_id, "m_hMyWearables");
  if (length_path == nullptr || others_.empty()) return;
  const Value now = world_->Get(*u->e, "m_hMyWearables");
  if (now.kind != ValueKind::kUint) return;
  const uint64_t n = now.u;
  const bool grow = n < 2 || (n < u->wearables_base + 2 && (n + 2 <= u->wearables_base ||
                                                            Uniform() < 0.5));
  const uint64_t length = grow ? n + 1 : n - 1;
  world_->SetPath(u->e, *length_path, Value::Uint(length));
  if (grow) {
    FieldPath element = *length_path;
    element.last += 1;
    element.index[element.last] = static_cast<int32_t>(n);
    const auto& all = world_->entities();
    auto it = all.find(others_[Below(others_.size())]);
    const uint32_t handle = it != all.end() ? it->second->handle() : 0xFFFFFF;
    world_->SetPath(u->e, element, Value::Uint(handle));
  }
  ++counters_.wearable_changes;
}

void Match::NudgeOthers() {
  const auto& all = world_->entities();
  for (int n = 0; n < kNudgesPerPacket && !others_.empty(); ++n) {
    auto it = all.find(others_[Below(others_.size())]);
    if (it == all.end() || it->second->state.empty()) continue;
    SimEntity* e = it->second.get();
    auto field = e->state.begin();
    std::advance(field, static_cast<long>(Below(e->state.size())));
    // A player's controller keeps who it is: its orders name it.
    if (activity_.IsController(it->first)) continue;
    bool is_new = false;
    const uint32_t id = e->fields->Lookup(field->first, &is_new);
    if (id == ClassFields::kInvalid) continue;
    const FieldMeta& meta = e->fields->meta(id);
    const DecodeOp op = e->fields->decoder(id)->op;
    // Values that shape the tree (lengths, table flags, pointers) stay.
    if (meta.is_length || meta.is_table_flag || op == DecodeOp::kPointer ||
        op == DecodeOp::kPolymorphicPointer) {
      continue;
    }
    Value v = field->second.value;
    std::string text;
    switch (v.kind) {
      case ValueKind::kBool: v.b = !v.b; break;
      case ValueKind::kInt: v.i += 1; break;
      case ValueKind::kUint: v.u += 1; break;
      case ValueKind::kFloat: v.f += 1.0f; break;
      case ValueKind::kVector:
        for (int k = 0; k < v.count; ++k) v.v[k] += 1.0f;
        break;
      case ValueKind::kString:
        // Short, so that readers keep them in small-string storage.
        text = "gem" + std::to_string(Below(1000));
        v = Value::String(text);
        break;
      default: continue;
    }
    world_->SetPath(e, field->first, v);
  }
}

void Match::Modifiers(uint32_t tick) {
  if (modifiers_ == nullptr) return;
  if (Uniform() < 0.5 && !units_.empty()) {
    const Unit& parent = units_[Below(units_.size())];
    Modifier m{parent.e->handle(), static_cast<uint32_t>(Below(1 << 16)),
               static_cast<uint32_t>(Below(700)), static_cast<float>(tick / 30.0),
               static_cast<float>(2 + Below(30))};
    int32_t index;
    if (!free_modifiers_.empty() && Uniform() < 0.7) {
      const size_t k = Below(free_modifiers_.size());
      index = free_modifiers_[k];
      free_modifiers_.erase(free_modifiers_.begin() + static_cast<long>(k));
    } else {
      index = static_cast<int32_t>(modifiers_->entries.size());
    }
    world_->SetEntry(modifiers_, index, std::to_string(index), ModifierEntry(m, index, false));
    active_.push_back({index, m});
    ++counters_.modifiers_added;
  }
  if (Uniform() < 0.5 && active_.size() > 1) {
    // Not the one just added: each entry changes once per packet.
    const size_t k = Below(active_.size() - 1);
    const auto [index, m] = active_[k];
    active_.erase(active_.begin() + static_cast<long>(k));
    world_->SetEntry(modifiers_, index, std::to_string(index), ModifierEntry(m, index, true));
    released_modifiers_.push_back(index);
    ++counters_.modifiers_removed;
  }
}

void Match::CombatLog(uint32_t tick) {
  const int n = 2 + (Uniform() < 0.22 ? 1 : 0);
  for (int k = 0; k < n && !units_.empty(); ++k) {
    const Unit& attacker = units_[Below(units_.size())];
    const Unit& target = units_[Below(units_.size())];
    proto::CMsgDOTACombatLogEntry entry;
    // The truth line is written beside the entry, field by field (only
    // when it is asked for).
    const bool truth = combat_truth_ != nullptr;
    std::string& line = combat_line_;
    line = "{\"tick\":" + std::to_string(tick);
    auto key = [&](const char* name) {
      if (!truth) return;
      line += ",\"";
      line += name;
      line += "\":";
    };
    auto put_int = [&](const char* name, int64_t v) {
      key(name);
      if (truth) line += std::to_string(v);
    };
    auto put_bool = [&](const char* name, bool v) {
      key(name);
      if (truth) line += v ? "true" : "false";
    };
    auto put_float = [&](const char* name, float v) {
      key(name);
      if (truth) AppendFloat32(v, &line);
    };
    // Any type but deaths (PlayerStats writes those, as the truth knows).
    int32_t type = static_cast<int32_t>(Below(5));
    if (type >= kCombatLogDeath) ++type;
    entry.set_type(type);
    put_int("type", entry.type());
    if (combat_names_ > 0) {
      entry.set_target_name(static_cast<uint32_t>(Below(combat_names_)));
      entry.set_target_source_name(static_cast<uint32_t>(Below(combat_names_)));
      entry.set_attacker_name(static_cast<uint32_t>(Below(combat_names_)));
      entry.set_damage_source_name(static_cast<uint32_t>(Below(combat_names_)));
      entry.set_inflictor_name(static_cast<uint32_t>(Below(combat_names_)));
      put_int("target_name", entry.target_name());
      put_int("target_source_name", entry.target_source_name());
      put_int("attacker_name", entry.attacker_name());
      put_int("damage_source_name", entry.damage_source_name());
      put_int("inflictor_name", entry.inflictor_name());
    }
    entry.set_is_attacker_hero(attacker.kind == Kind::kHero);
    entry.set_is_target_hero(target.kind == Kind::kHero);
    entry.set_is_visible_radiant(true);
    entry.set_is_visible_dire(Uniform() < 0.5);
    entry.set_value(static_cast<uint32_t>(Below(400)));
    entry.set_health(static_cast<int32_t>(target.health));
    entry.set_timestamp(static_cast<float>(tick / 30.0));
    entry.set_location_x(static_cast<float>(target.x));
    entry.set_location_y(static_cast<float>(target.y));
    entry.set_attacker_team(static_cast<uint32_t>(attacker.team));
    entry.set_target_team(static_cast<uint32_t>(target.team));
    put_bool("is_attacker_hero", entry.is_attacker_hero());
    put_bool("is_target_hero", entry.is_target_hero());
    put_bool("is_visible_radiant", entry.is_visible_radiant());
    put_bool("is_visible_dire", entry.is_visible_dire());
    put_int("value", entry.value());
    put_int("health", entry.health());
    put_float("timestamp", entry.timestamp());
    put_float("location_x", entry.location_x());
    put_float("location_y", entry.location_y());
    put_int("attacker_team", entry.attacker_team());
    put_int("target_team", entry.target_team());
    // Kills now and then: assisting players, and fields the index keeps
    // in its JSON column rather than a column of their own.
    if (Uniform() < 0.1) {
      const int assists = 1 + static_cast<int>(Below(4));
      for (int a = 0; a < assists; ++a) {
        entry.add_assist_players(static_cast<int32_t>(Below(10)));
      }
      key("assist_players");
      if (truth) {
        line += "[";
        for (int a = 0; a < assists; ++a) {
          line += (a ? "," : "") + std::to_string(entry.assist_players(a));
        }
        line += "]";
      }
      entry.set_obs_wards_placed(static_cast<uint32_t>(Below(30)));
      entry.set_is_ability_toggle_on(Uniform() < 0.5);
      put_int("obs_wards_placed", entry.obs_wards_placed());
      put_bool("is_ability_toggle_on", entry.is_ability_toggle_on());
    }
    if (truth) {
      line += "}\n";
      std::fputs(line.c_str(), combat_truth_);
    }
    world_->AddMessage(dota::kDotaUmCombatLogDataHltv, entry.SerializeAsString());
    ++counters_.combat_log;
  }
}

void Match::Tick(uint32_t tick) {
  deadlock_.Tick(tick);  // names the entities as they are before this tick's changes
  crowd_.Tick(tick);
  const uint32_t since = tick - world_->start_tick();
  if (since % kWaveTicks == 2) SpawnWave(tick);
  if (since % 1800 == 2) SpawnNeutrals(tick);
  free_modifiers_.insert(free_modifiers_.end(), released_modifiers_.begin(),
                         released_modifiers_.end());
  released_modifiers_.clear();
  for (Unit& u : units_) {
    if (u.kind != Kind::kHero && u.die_tick <= tick) {
      activity_.OnUnitDied(tick, u.kind == Kind::kLaneCreep, u.team);
      world_->Delete(u.e);
      u.e = nullptr;
      continue;
    }
    Step(&u, tick);
  }
  units_.erase(std::remove_if(units_.begin(), units_.end(),
                              [](const Unit& u) { return u.e == nullptr; }),
               units_.end());
  NudgeOthers();
  Modifiers(tick);
  CombatLog(tick);
  stats_.Tick(tick);
  activity_.Tick(tick);
  if (options_.vision) smokes_.Tick(tick);
  draft_.Tick(tick);
  items_.Tick(tick);
  objectives_.Tick(tick);
  deadlock_.EndPacket();
}

void Match::Truth(uint32_t tick, FILE* out) {
  int creeps = 0, neutrals = 0;
  for (const Unit& u : units_) {
    if (u.kind == Kind::kLaneCreep && ++creeps > 40) continue;
    if (u.kind == Kind::kNeutral && ++neutrals > 10) continue;
    world_->WriteTruth(tick, *u.e, out);
    ++counters_.truth_entities;
  }
  const auto& all = world_->entities();
  for (size_t k = 0; k < others_.size(); k += 40) {
    auto it = all.find(others_[k]);
    if (it == all.end()) continue;
    world_->WriteTruth(tick, *it->second, out);
    ++counters_.truth_entities;
  }
}

Status Match::Run(ReplayWriter* out, FILE* truth, FILE* combat_truth, FILE* match_truth) {
  combat_truth_ = combat_truth;
  combat_.set_truth(combat_truth);
  GEM_RETURN_IF_ERROR(world_->WritePrefix(out));
  const uint32_t start = world_->start_tick();
  const uint32_t pregame = start + std::min<uint32_t>(600, options_.horn_after);
  const uint32_t horn = start + options_.horn_after;
  stats_.Start(start, pregame, options_.horn_after);
  stats_.set_kill_truth(match_truth);
  stats_.set_kill_listener(
      [this](uint32_t tick, int killer, int victim) {
        objectives_.OnKill(tick, killer, victim);
        activity_.OnKill(tick, killer, victim);
        if (options_.vision) smokes_.OnKill(tick, killer, victim);
      });
  items_.set_flaws(options_.flaws);
  items_.Start(start, pregame, horn, match_truth);
  draft_.Start(start, pregame, stats_, match_truth);
  objectives_.Start(pregame, horn, match_truth);
  activity_.Start(match_truth);
  Start();
  // The world's own tick rate: 30 in Dota, 64 in Deadlock.
  const uint32_t ticks =
      static_cast<uint32_t>(options_.minutes * 60 / world_->tick_interval() + 0.5);
  crowd_.Start(start + ticks - ticks % 2, match_truth);  // its players, before the events'
  if (options_.vision) {
    smokes_.Start(start + ticks - ticks % 2);
    stats_.SetVision(options_.seed);
    if (options_.flaws) stats_.SetLateHorn(20);
  }
  deadlock_.Start(start + ticks - ticks % 2, match_truth);
  uint32_t last = start;
  for (uint32_t t = start + 2; t <= start + ticks; t += 2) {
    Tick(t);
    GEM_RETURN_IF_ERROR(world_->FlushPacket(t, out));
    const uint32_t since = t - start;
    if (options_.full_packet_interval > 0 && since % options_.full_packet_interval == 0) {
      GEM_RETURN_IF_ERROR(world_->WriteFullPacket(t, out));
    }
    const bool truth_tick = options_.truth_interval > 0 && since % options_.truth_interval == 0;
    if (truth != nullptr && truth_tick) Truth(t, truth);
    if (match_truth != nullptr && truth_tick) stats_.Truth(t, match_truth);
    last = t;
  }
  stats_.Finish();
  crowd_.Finish();
  if (options_.vision) smokes_.Finish(match_truth);
  counters_.last_tick = last;
  counters_.kills = stats_.kills();
  counters_.wards = stats_.wards();
  counters_.smokes = smokes_.smokes();
  counters_.purchases = items_.purchases();
  counters_.level_ups = items_.level_ups();
  counters_.objectives = objectives_.objectives();
  counters_.draft_actions = draft_.actions();
  counters_.combat_log += combat_.written();
  return world_->WriteEnd(last, out);
}

}  // namespace gem::synth

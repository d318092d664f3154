#include "core/cs2/event_lists.h"
#include "core/cs2/match_module.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/cs2/bomb.h"
#include "core/input/demo_stream.h"
#include "core/cs2/combat.h"
#include "core/cs2/economy.h"
#include "core/cs2/event_keys.h"
#include "core/cs2/grenades.h"
#include "core/cs2/match_state.h"
#include "core/cs2/rounds.h"
#include "core/cs2/sightings.h"
#include "core/cs2/tables.h"
#include "core/cs2/utility_held.h"
#include "core/cs2/weapons.h"
#include "core/match/body.h"
#include "core/match/field_codes.h"
#include "core/match/game_clock.h"
#include "core/match/named_entity.h"
#include "core/match/player_controllers.h"
#include "core/fields/world_coord.h"

namespace gem::cs2 {
namespace {

using match::FieldReader;
using match::IntCell;
using match::MatchContext;

constexpr int64_t kPhaseMatchEnded = 5;
constexpr int64_t kNoPlayer = 65535;  // a game event's "no player" id

constexpr MatchColumn kExtraColumns[] = {
    {"armor", "INTEGER", "the pawn's armor: m_ArmorValue"},
    {"money", "INTEGER",
     "the money on hand, dollars: the controller's m_pInGameMoneyServices.m_iAccount"},
    {"active_weapon", "TEXT",
     "the class of the weapon entity the pawn's m_pWeaponServices.m_hActiveWeapon names "
     "(CAK47, CWeaponGlock, CKnife, ...); NULL when it names none"},
    {"kills", "INTEGER",
     "the player's kills in the match so far as the scoreboard counts them: the controller's "
     "m_pActionTrackingServices.m_iKills"},
    {"deaths", "INTEGER",
     "the player's deaths in the match so far: the controller's "
     "m_pActionTrackingServices.m_iDeaths"},
    {"assists", "INTEGER",
     "the player's assists in the match so far: the controller's "
     "m_pActionTrackingServices.m_iAssists"},
    {"round", "INTEGER",
     "the round in play (rounds.round); NULL in the warm-up and before the first round the "
     "replay shows starts; samples after a round's end and before the next start are the ended "
     "round's"},
    {"place", "TEXT",
     "the map's name for where the pawn is (BombsiteA, TSpawn, ...): its m_szLastPlaceName"},
    {"has_defuser", "INTEGER", "1 when the player carries a defuse kit: m_pItemServices.m_bHasDefuser"},
    {"has_helmet", "INTEGER", "1 when the player wears a helmet: m_pItemServices.m_bHasHelmet"},
    {"equipment_value", "INTEGER",
     "the value of what the pawn carries, dollars: m_unCurrentEquipmentValue"},
    {"flash_duration", "REAL",
     "the length in seconds of the flash that last blinded the pawn: m_flFlashDuration, as the "
     "game keeps it (not a countdown: it may stay set after the blindness is over)"},
    {"velocity", "REAL",
     "the pawn's speed over the last packet, game units a second: the distance its body moved "
     "in that packet over the time since the packet before; 0 when it did not move; NULL for "
     "a pawn new since, or back in a client recording's view since"},
};
enum ExtraColumn : size_t {
  kArmor = kTimelineCommon, kMoney, kWeapon, kKills, kDeaths, kAssists, kRound, kPlace,
  kHasDefuser, kHasHelmet, kEquipment, kFlashDuration, kVelocity
};

class Module : public match::GameModule, public MatchState {
 public:
  const GameSchema& schema() const override { return Cs2Schema(); }
  std::span<const MatchColumn> extra_columns() const override { return kExtraColumns; }
  float cell_width() const override { return 512.0f; }
  std::span<const KnownEventList> known_event_lists() const override {
    return KnownEventLists();
  }
  // The pawns: where they move, their health and flashes, as they change.
  bool Watches(std::string_view c) const override { return c == "CCSPlayerPawn"; }
  void OnEntityUpdated(MatchContext& ctx, const Entity& e,
                       std::span<const FieldChange> changes) override;

  void OnEntityCreated(MatchContext& ctx, const Entity& e) override {
    players_.OnCreated(ctx, e);
    if (ctx.match_layer() && ctx.ClassName(e.class_id) == "CCSPlayerPawn") PawnCreated(ctx, e);
    rules_.OnCreated(ctx, e);
    if (ctx.ClassName(e.class_id) == "CCSTeam") teams_.insert(e.index);
    if (!ctx.game_tables()) return;
    grenades_.OnEntityCreated(ctx, *this, e);
    bomb_.OnEntityCreated(ctx, *this, e);
  }
  void OnEntityDeleted(MatchContext& ctx, const Entity& e) override {
    players_.OnDeleted(ctx, e);
    if (ctx.match_layer() && ctx.ClassName(e.class_id) == "CCSPlayerPawn") {
      sightings_.MarkChanged();
    }
    teams_.erase(e.index);
    if (!ctx.game_tables()) return;
    grenades_.OnEntityDeleted(ctx, *this, e);
    bomb_.OnEntityDeleted(ctx, e);
  }
  // A pawn out of a client recording's view: where it goes and how its
  // sightings stand are unknown until it comes back.
  void OnEntityLeft(MatchContext& ctx, const Entity& e) override {
    if (!ctx.match_layer() || ctx.ClassName(e.class_id) != "CCSPlayerPawn") return;
    if (Motion* m = MotionOf(e)) {
      if (!m->away) ++away_;
      m->hidden = m->away = true;
    }
    sightings_.MarkChanged();
  }
  void OnGameEvent(MatchContext& ctx, const GameEvent& e) override;
  void OnFrameEnd(MatchContext& ctx, ReplayMetadata* meta) override;
  std::optional<double> ClockAt(MatchContext& ctx, int64_t tick) override;
  void Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) override;
  void Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) override;
  void PlayersSoFar(std::vector<PlayerRow>* out) const override {
    players_.AppendRows(out);
  }
  void WriteSoFar(MatchContext& ctx) override;
  std::vector<std::pair<std::string, uint64_t>> Counters() const override;

  // MatchState.
  int32_t Participant(MatchContext& ctx, const GameEvent& e, std::string_view who) override;
  int32_t SlotOfEntity(MatchContext& ctx, const Entity& e) override {
    if (players_.IsController(ctx, e.class_id)) return e.index - 1;
    return players_.SlotOfPawnIndex(ctx, e.index);
  }
  const Entity* Pawn(MatchContext& ctx, int32_t slot) override {
    const Entity* controller = ctx.Get(slot + 1);
    if (controller == nullptr || !players_.IsController(ctx, controller->class_id)) return nullptr;
    return players_.Pawn(ctx, *controller);
  }
  MatchValue Team(MatchContext& ctx, int32_t slot) override {
    std::optional<int64_t> team = match::ReadInt(team_, match::InView(Pawn(ctx, slot)));
    if (!team) team = match::ReadInt(team_, ctx.Get(slot + 1));
    return IntCell(team);
  }
  void Position(const Entity* e, MatchValue* x, MatchValue* y, MatchValue* z) override {
    body_.position().Read(match::InView(e), x, y, z);  // unknown while out of view
  }
  MatchValue Round(MatchContext& ctx) override { return rounds_.current(ctx, *this); }
  MatchValue Clock(MatchContext& ctx) override {
    return match::RealCell(GameTime(ctx, ctx.tick()));
  }
  MatchValue GrenadeAt(int32_t index) override { return grenades_.IdAt(index); }
  const Entity* GameRules(MatchContext& ctx) override { return rules_.Get(ctx); }
  void TeamScores(MatchContext& ctx, MatchValue* ct, MatchValue* t) override;
  int GrenadeNow(MatchContext& ctx, std::string_view kind, MatchValue* id,
                 int32_t* thrower) override {
    return grenades_.WentOffAt(kind, ctx.tick(), id, thrower);
  }
  int FiresNow(MatchContext&, int32_t* thrower) override { return grenades_.Burning(thrower); }

 private:
  // A pawn's body position as sent (cell and offset a axis), since its
  // last move (at `tick`) and before that move; for the velocity. Kept
  // from the updates' own values: a move reads no field.
  struct BodyPosition {
    std::optional<int64_t> cell[3];
    std::optional<float> vec[3];
    bool World(double* out) const;  // false without every part
  };
  struct Motion {
    uint64_t lifetime = 0;
    int64_t tick = -1;
    bool has_before = false;
    bool hidden = false;  // out of a client recording's view since it last moved
    bool away = false;    // out of it since its last update
    BodyPosition now, before;
  };
  // Codes of the pawn fields followed: the cells and offsets by axis.
  enum PawnField : uint16_t {
    kCellX = 1, kCellY, kCellZ, kVecX, kVecY, kVecZ, kPawnHealth, kPawnFlash, kPawnArmor,
    kPawnSpotted, kPawnLife, kPawnTeam, kPawnWeapon, kPawnAmmo, kPawnWeapons, kPawnWeaponCount
  };
  void PawnCreated(MatchContext& ctx, const Entity& e);
  // The motion of pawn `e`, if followed since its creation.
  Motion* MotionOf(const Entity& e);
  // The velocity column of `pawn` now.
  MatchValue Velocity(MatchContext& ctx, const Entity* pawn) const;
  void Kill(MatchContext& ctx, const GameEvent& e);

  match::PlayerControllers players_{"CCSPlayerController", "m_hPlayerPawn"};
  match::NamedEntity rules_{"CCSGameRulesProxy"};
  std::set<int32_t> teams_;
  match::BodyColumns body_{512.0f, "m_angEyeAngles"};
  match::PauseClock pause_clock_;
  EventKeys keys_;
  Rounds rounds_;
  Combat combat_;
  Grenades grenades_;
  Bomb bomb_;
  Economy economy_;
  Sightings sightings_;
  HeldWeapons held_;
  HeldUtility utility_;
  std::vector<Motion> motion_;  // by pawn entity index
  match::FieldCodes pawn_codes_{{{"CBodyComponent.m_cellX", kCellX},
                                 {"CBodyComponent.m_cellY", kCellY},
                                 {"CBodyComponent.m_cellZ", kCellZ},
                                 {"CBodyComponent.m_vecX", kVecX},
                                 {"CBodyComponent.m_vecY", kVecY},
                                 {"CBodyComponent.m_vecZ", kVecZ},
                                 {"m_iHealth", kPawnHealth},
                                 {"m_flFlashDuration", kPawnFlash},
                                 {"m_ArmorValue", kPawnArmor},
                                 {"m_bSpottedByMask.#", kPawnSpotted},
                                 {"m_lifeState", kPawnLife},
                                 {"m_iTeamNum", kPawnTeam},
                                 {"m_pWeaponServices.m_hActiveWeapon", kPawnWeapon},
                                 {"m_pWeaponServices.m_iAmmo.#", kPawnAmmo},
                                 {"m_pWeaponServices.m_hMyWeapons.#", kPawnWeapons},
                                 {"m_pWeaponServices.m_hMyWeapons", kPawnWeaponCount}}};
  std::string utility_json_;  // a kill's utility_held, reused
  uint64_t samples_out_of_view_ = 0;  // timeline rows of a pawn out of view
  uint32_t away_ = 0;                  // pawns out of a client recording's view
  // The tick of the last packet, and the packet tick before it.
  int64_t packet_tick_ = -1, prev_packet_tick_ = -1;
  FieldReader max_health_{"m_iMaxHealth"}, health_{"m_iHealth"};
  FieldReader team_{"m_iTeamNum"}, armor_{"m_ArmorValue"};
  FieldReader weapon_{"m_pWeaponServices.m_hActiveWeapon"};
  FieldReader money_{"m_pInGameMoneyServices.m_iAccount"};
  FieldReader kills_{"m_pActionTrackingServices.m_iKills"};
  FieldReader deaths_{"m_pActionTrackingServices.m_iDeaths"};
  FieldReader assists_{"m_pActionTrackingServices.m_iAssists"};
  FieldReader place_{"m_szLastPlaceName"};
  FieldReader defuser_{"m_pItemServices.m_bHasDefuser"}, helmet_{"m_pItemServices.m_bHasHelmet"};
  FieldReader equipment_{"m_unCurrentEquipmentValue"}, flash_{"m_flFlashDuration"};
  FieldReader warmup_{"m_pGameRules.m_bWarmupPeriod"};
  FieldReader freeze_{"m_pGameRules.m_bFreezePeriod"};
  FieldReader match_started_{"m_pGameRules.m_bHasMatchStarted"};
  FieldReader match_start_{"m_pGameRules.m_fMatchStartTime"};
  FieldReader phase_{"m_pGameRules.m_gamePhase"};
  FieldReader score_{"m_iScore"};
  FieldReader clan_name_{"m_szClanTeamname"}, team_name_{"m_szTeamname"};
};

void Module::TeamScores(MatchContext& ctx, MatchValue* ct, MatchValue* t) {
  *ct = *t = MatchValue();
  for (int32_t index : teams_) {
    const Entity* e = ctx.Get(index);
    const std::optional<int64_t> team = match::ReadInt(team_, e);
    const std::optional<int64_t> score = match::ReadInt(score_, e);
    if (!team || !score) continue;
    if (*team == 3) *ct = MatchValue::Int(*score);
    if (*team == 2) *t = MatchValue::Int(*score);
  }
}

std::optional<double> Module::ClockAt(MatchContext& ctx, int64_t tick) {
  const Entity* r = rules_.Get(ctx);
  if (r == nullptr || match::ReadInt(warmup_, r).value_or(0) != 0) return std::nullopt;
  // Before the match goes live (warm-up, a restart's countdown) the start
  // time is an old one.
  if (match::ReadInt(match_started_, r).value_or(1) == 0) return std::nullopt;
  const std::optional<double> start = match::ReadReal(match_start_, r);
  if (!start || *start <= 0) return std::nullopt;
  return pause_clock_.GameSeconds(r, ctx.ServerTickAt(tick), ctx.tick_interval()) - *start;
}


bool Module::BodyPosition::World(double* out) const {
  for (int a = 0; a < 3; ++a) {
    if (!cell[a] || !vec[a]) return false;
    out[a] = CellCoord(*cell[a], 512.0, kWorldOffset, *vec[a]);
  }
  return true;
}

Module::Motion* Module::MotionOf(const Entity& e) {
  if (e.index < 0 || static_cast<size_t>(e.index) >= motion_.size()) return nullptr;
  Motion& m = motion_[static_cast<size_t>(e.index)];
  return m.lifetime == e.lifetime ? &m : nullptr;
}

void Module::PawnCreated(MatchContext& ctx, const Entity& e) {
  if (e.index < 0 || e.index >= (1 << 14)) return;
  if (static_cast<size_t>(e.index) >= motion_.size()) motion_.resize(e.index + 1);
  Motion& m = motion_[static_cast<size_t>(e.index)];
  m = Motion();
  m.lifetime = e.lifetime;
  m.tick = ctx.tick();
  // Its creation state: the only read of its position.
  for (const uint16_t kind : {kCellX, kCellY, kCellZ, kVecX, kVecY, kVecZ}) {
    const uint32_t id = pawn_codes_.FieldOf(e, kind, 0);
    if (id == ClassFields::kInvalid) continue;
    const Value v = e.state.Get(e.fields->slot(id)).value;
    const int a = (kind - kCellX) % 3;
    if (kind <= kCellZ) {
      m.now.cell[a] = match::AsInt(v);
    } else if (v.kind == ValueKind::kFloat) {
      m.now.vec[a] = v.f;
    }
  }
  combat_.OnPawnCreated(e.index, match::ReadInt(health_, &e), match::ReadInt(armor_, &e));
  sightings_.MarkChanged();
  held_.OnChanged(e);
  utility_.OnChanged(e);
}

void Module::OnEntityUpdated(MatchContext& ctx, const Entity& e,
                             std::span<const FieldChange> changes) {
  if (!ctx.match_layer()) return;
  if (away_ > 0) {
    // Back in a client recording's view (its return is an update).
    Motion* back = MotionOf(e);
    if (back != nullptr && back->away) {
      back->away = false;
      --away_;
      sightings_.MarkChanged();
    }
  }
  const std::span<const uint32_t> codes = pawn_codes_.Codes(e);
  Motion* m = nullptr;
  for (const FieldChange& c : changes) {
    const uint32_t code =
        c.field_id < codes.size() ? codes[c.field_id] : pawn_codes_.Code(e, c.field_id);
    const uint16_t kind = match::FieldCodes::KindOf(code);
    if (kind == 0) continue;
    if (kind <= kVecZ) {
      if (m == nullptr) {
        m = MotionOf(e);
        if (m == nullptr) continue;
        if (ctx.tick() != m->tick) {
          // The first move of this tick: where it was is where it had been
          // since its last move (packets of one tick are one move), unless
          // it comes back into view: where it went meanwhile is unknown.
          m->before = m->now;
          m->has_before = !m->hidden;
          m->hidden = false;
          m->tick = ctx.tick();
        }
      }
      const int a = (kind - kCellX) % 3;
      if (kind <= kCellZ) {
        m->now.cell[a] = match::AsInt(c.value);
      } else {
        m->now.vec[a] = c.value.kind == ValueKind::kFloat ? std::optional<float>(c.value.f)
                                                          : std::nullopt;
      }
    } else if (kind == kPawnHealth) {
      combat_.OnPawnHealth(e.index, c.value);
    } else if (kind == kPawnFlash && ctx.game_tables()) {
      combat_.OnPawnFlash(e.index, c.value);
    } else if (kind == kPawnArmor) {
      combat_.OnPawnArmor(e.index, c.value);
    } else if (kind == kPawnWeapon) {
      held_.OnChanged(e);
    } else if (kind >= kPawnAmmo) {  // grenades, weapons held
      utility_.OnChanged(e);
    } else {  // the spotted mask, life state or team
      sightings_.MarkChanged();
      if (kind != kPawnSpotted) utility_.OnChanged(e);
    }
  }
}

void Module::OnFrameEnd(MatchContext& ctx, ReplayMetadata*) {
  if (!ctx.match_layer() || !ctx.has_sink()) return;
  const uint32_t command = ctx.frame().command;
  if ((command == kDemPacket || command == kDemFullPacket) && ctx.tick() >= 0 &&
      ctx.tick() > packet_tick_) {
    prev_packet_tick_ = packet_tick_;
    packet_tick_ = ctx.tick();
  }
  if (ctx.game_tables()) {
    rounds_.OnFrameEnd(ctx, *this);
    grenades_.OnFrameEnd(ctx, *this);
    bomb_.OnFrameEnd(ctx, *this);
    combat_.OnFrameEnd(ctx, *this);
    held_.OnFrameEnd(ctx);
    utility_.OnFrameEnd(ctx);
    sightings_.OnFrameEnd(ctx, *this, players_);
    const bool in_freeze = match::ReadInt(freeze_, rules_.Get(ctx)).value_or(0) != 0;
    economy_.OnFrameEnd(ctx, rounds_.current(ctx, *this), rounds_.started_now(), in_freeze,
                        rounds_.over(), [&]() -> std::span<const PlayerNow> { return players_.InPlay(ctx); });
  }
}

MatchValue Module::Velocity(MatchContext& ctx, const Entity* pawn) const {
  // The speed over the last packet: the pawn's move in it (none: 0), over
  // the ticks since the packet before, in units a second.
  if (pawn == nullptr || pawn->index < 0 || static_cast<size_t>(pawn->index) >= motion_.size() ||
      ctx.tick_interval() <= 0 || prev_packet_tick_ < 0) {
    return MatchValue();
  }
  const Motion& m = motion_[static_cast<size_t>(pawn->index)];
  if (m.lifetime != pawn->lifetime || m.tick > packet_tick_) return MatchValue();
  double now[3], before[3];
  if (!m.now.World(now)) return MatchValue();
  if (m.tick < packet_tick_) {
    // It did not move in the last packet; it is known if it was there.
    return m.tick <= prev_packet_tick_ ? MatchValue::Real(0) : MatchValue();
  }
  if (!m.has_before || !m.before.World(before)) return MatchValue();
  // World coordinates as float32, as the timeline's x, y, z are.
  double d2 = 0;
  for (int a = 0; a < 3; ++a) {
    const double d = static_cast<double>(static_cast<float>(now[a])) -
                     static_cast<double>(static_cast<float>(before[a]));
    d2 += d * d;
  }
  return MatchValue::Real(std::sqrt(d2) / (static_cast<double>(packet_tick_ - prev_packet_tick_) *
                                           ctx.tick_interval()));
}

void Module::Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    players_.Record(ctx, p, {});
    const Entity* pawn = match::InView(p.pawn);
    if (pawn != p.pawn) ++samples_out_of_view_;
    row[kTlSlot] = MatchValue::Int(p.slot);
    body_.Fill(pawn, row);
    if (pawn != p.pawn) {
      // Out of view: which pawn it is, and the team its controller says.
      row[kTlEntity] = MatchValue::Int(static_cast<int64_t>(p.pawn->lifetime));
      row[kTlTeam] = Team(ctx, p.slot);
    }
    row[kTlMaxHealth] = IntCell(match::ReadInt(max_health_, pawn));
    row[kArmor] = IntCell(match::ReadInt(armor_, pawn));
    row[kMoney] = IntCell(match::ReadInt(money_, p.controller));
    const Entity* weapon = ctx.ByHandle(match::ReadInt(weapon_, pawn));
    row[kWeapon] = weapon ? MatchValue::Text(ctx.ClassName(weapon->class_id)) : MatchValue();
    row[kKills] = IntCell(match::ReadInt(kills_, p.controller));
    row[kDeaths] = IntCell(match::ReadInt(deaths_, p.controller));
    row[kAssists] = IntCell(match::ReadInt(assists_, p.controller));
    row[kRound] = rounds_.current(ctx, *this);
    const Value place = pawn ? place_.Read(*pawn) : Value();
    row[kPlace] = place.kind == ValueKind::kString ? MatchValue::Text(place.s) : MatchValue();
    row[kHasDefuser] = IntCell(match::ReadInt(defuser_, pawn));
    row[kHasHelmet] = IntCell(match::ReadInt(helmet_, pawn));
    row[kEquipment] = IntCell(match::ReadInt(equipment_, pawn));
    row[kFlashDuration] = match::RealCell(match::ReadReal(flash_, pawn));
    row[kVelocity] = Velocity(ctx, pawn);
    emit.Emit(row);
  }
}

int32_t Module::Participant(MatchContext& ctx, const GameEvent& e, std::string_view who) {
  const GameEventKey* pawn = EventKeys::Find(e, std::string(who) + "_pawn");
  if (pawn != nullptr) {
    // A participant that is no player has no pawn handle.
    const std::optional<int64_t> h = match::AsInt(pawn->value);
    if (!h || *h == -1) return -1;
  }
  const GameEventKey* id = EventKeys::Find(e, who);
  if (id != nullptr) {
    const std::optional<int64_t> v = match::AsInt(id->value);
    if (!v || *v == kNoPlayer || *v < 0) return -1;
    const int32_t slot = players_.SlotOfUserId(ctx, *v);
    if (slot >= 0) return slot;
  }
  if (pawn != nullptr) {
    const int64_t h = *match::AsInt(pawn->value);
    return players_.SlotOfPawnIndex(ctx, static_cast<int32_t>(h & match::kHandleIndexMask));
  }
  return -1;
}

void Module::OnGameEvent(MatchContext& ctx, const GameEvent& e) {
  if (!ctx.match_layer()) return;
  if (ctx.game_tables()) {
    rounds_.OnGameEvent(ctx, e, keys_);
    combat_.OnGameEvent(ctx, *this, e, keys_);
    grenades_.OnGameEvent(ctx, *this, e, keys_);
    bomb_.OnGameEvent(ctx, *this, e, keys_);
  }
  if (e.name == "player_death") Kill(ctx, e);
}

void Module::Kill(MatchContext& ctx, const GameEvent& e) {
  const int32_t victim = Participant(ctx, e, "userid");
  if (victim < 0) return;
  KillRow k;
  k.tick = ctx.tick();
  k.game_time = match::RealCell(GameTime(ctx, ctx.tick()));
  k.victim = victim;
  const int32_t killer = Participant(ctx, e, "attacker");
  if (killer >= 0) k.killer = killer;
  const int32_t assister = Participant(ctx, e, "assister");
  if (assister >= 0) k.assisters.push_back(assister);
  if (const std::optional<std::string_view> w = keys_.Text(e, "weapon")) k.weapon.assign(*w);
  if (const std::optional<int64_t> h = keys_.Int(e, "headshot")) k.headshot = *h != 0;
  Position(Pawn(ctx, victim), &k.x, &k.y, &k.z);
  if (ctx.game_tables()) {
    combat_.FillKill(ctx, *this, e, keys_, &k);
    const Entity* pawn = match::InView(Pawn(ctx, victim));
    const WeaponInfo* held = held_.Last(ctx, pawn);
    k.extra[kKillVictimWeapon] = held ? MatchValue::Text(held->name) : MatchValue();
    int64_t value = 0;
    if (utility_.Last(pawn, &utility_json_, &value)) {
      k.extra[kKillUtilityHeld] = MatchValue::Text(utility_json_);
      k.extra[kKillUtilityValue] = MatchValue::Int(value);
    }
  }
  ctx.Kill(k);
}

void Module::Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    players_.Record(ctx, p, {});
  }
  players_.AppendRows(&out->players);
  if (ctx.game_tables() && ctx.has_sink()) {
    combat_.Finish(ctx);
    sightings_.Finish(ctx);
    grenades_.Finish(ctx);
    bomb_.Finish(ctx);
    rounds_.Finish(ctx, bomb_);
    economy_.Finish(ctx, players_.InPlay(ctx));
  }
  if (meta.match_id != 0) out->match_id = meta.match_id;
  const Entity* r = rules_.Get(ctx);
  if (r != nullptr && match::ReadInt(phase_, r) == kPhaseMatchEnded) {
    const Entity* best = nullptr;
    int64_t best_score = -1;
    bool tie = false;
    for (int32_t index : teams_) {
      const Entity* t = ctx.Get(index);
      const int64_t team = match::ReadInt(team_, t).value_or(0);
      if (team != 2 && team != 3) continue;
      const int64_t score = match::ReadInt(score_, t).value_or(-1);
      if (score == best_score) tie = true;
      if (score > best_score) {
        best = t;
        best_score = score;
        tie = false;
      }
    }
    if (best != nullptr && !tie) {
      out->winner = IntCell(match::ReadInt(team_, best));
      Value name = clan_name_.Read(*best);
      if (name.kind != ValueKind::kString || name.s.empty()) name = team_name_.Read(*best);
      if (name.kind == ValueKind::kString) out->winner_name.assign(name.s);
    }
  }
  if (out->players.empty()) {
    out->note = "no players: no CCSPlayerController was on team 2 or 3";
  }
}

void Module::WriteSoFar(MatchContext& ctx) {
  // Finish's end-written tables (tables.cc), as they stand: the grenades
  // thrown so far (those in the air have no end yet), the bomb's rows, the
  // rounds the game counts now and their economy.
  if (!ctx.has_sink()) return;
  grenades_.Finish(ctx);
  economy_.Write(ctx);
  std::vector<Bomb::Plant> plants;
  uint64_t unknown_sites = 0;
  bomb_.Write(ctx, &plants, &unknown_sites);
  rounds_.Write(ctx, plants);
}

std::vector<std::pair<std::string, uint64_t>> Module::Counters() const {
  std::vector<std::pair<std::string, uint64_t>> out = {
      {"event_keys_of_wrong_type", keys_.wrong_types()},
      {"timeline_out_of_view", samples_out_of_view_}};
  for (auto& c : rounds_.Counters()) out.push_back(c);
  for (auto& c : combat_.Counters()) out.push_back(c);
  for (auto& c : sightings_.Counters()) out.push_back(c);
  for (auto& c : grenades_.Counters()) out.push_back(c);
  for (auto& c : bomb_.Counters()) out.push_back(c);
  return out;
}

}  // namespace

bool IsReplayOf(const ReplayHeader& h) {
  return h.game == "csgo" || h.game == "cs2" || h.game_directory.find("csgo") != std::string::npos;
}

std::unique_ptr<match::GameModule> NewMatchModule() { return std::make_unique<Module>(); }

}  // namespace gem::cs2

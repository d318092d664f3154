#include "core/deadlock/event_lists.h"
#include "core/deadlock/match_module.h"

#include <algorithm>
#include <vector>

#include "core/deadlock/hero_names.h"
#include "core/deadlock/known_names.h"
#include "core/deadlock/loadout.h"
#include "core/deadlock/match_messages.h"
#include "core/deadlock/modifiers.h"
#include "core/deadlock/post_match.h"
#include "core/deadlock/tables.h"
#include "core/deadlock/teamfights.h"
#include "core/deadlock/urn.h"
#include "core/match/body.h"
#include "core/match/game_clock.h"
#include "core/match/named_entity.h"
#include "core/match/player_controllers.h"
#include "core/codec/varint.h"
#include "core/util/proto_wire.h"

namespace gem::deadlock {
namespace {

using match::FieldReader;
using match::IntCell;
using match::MatchContext;


constexpr std::string_view kStringTables[] = {"ActiveModifiers"};
// The urn's delivery points (urn.h) and the patron, whose phases are a table.
constexpr std::string_view kTriggerClass = "CCitadelIdolReturnTrigger";
constexpr std::string_view kPatronClass = "CNPC_Boss_Tier3";

// Valve's schema: Deadlock's HeroID_t is a boxed uint32 (Dota's is
// signed); read signed, its ids come out as -10 and -28 (odd varints).
constexpr TypeRule kTypeRules[] = {{"HeroID_t", DecodeOp::kUVar32}};

// Each the controller's m_PlayerDataGlobal field (the bare name in builds
// without the struct), as of the row's tick; NULL in a build without it.
constexpr MatchColumn kExtraColumns[] = {
    {"level", "INTEGER", "the controller's m_PlayerDataGlobal.m_iLevel: the hero's level"},
    {"souls", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iGoldNetWorth: the net worth in souls, not the souls "
     "on hand"},
    {"kills", "INTEGER", "the controller's m_PlayerDataGlobal.m_iPlayerKills"},
    {"deaths", "INTEGER", "the controller's m_PlayerDataGlobal.m_iDeaths"},
    {"assists", "INTEGER", "the controller's m_PlayerDataGlobal.m_iPlayerAssists"},
    {"ap_net_worth", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iAPNetWorth, as the game counts it; NULL in builds "
     "without it"},
    {"last_hits", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iLastHits; NULL in builds without it"},
    {"denies", "INTEGER", "the controller's m_PlayerDataGlobal.m_iDenies; NULL in builds without it"},
    {"player_damage", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iHeroDamage: damage to heroes as the game counts it; "
     "NULL in builds without it"},
    {"damage_taken", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iDamageTaken; NULL in builds without it (10423 and "
     "10524 have none)"},
    {"healing", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iHeroHealing: the healing of heroes as the game "
     "counts it; NULL in builds without it"},
    {"self_healing", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iSelfHealing; NULL in builds without it"},
    {"objective_damage", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iObjectiveDamage; NULL in builds without it"},
    {"kill_streak", "INTEGER",
     "the controller's m_PlayerDataGlobal.m_iKillStreak; NULL in builds without it (10423 and "
     "10524 have none)"},
    {"lane", "INTEGER",
     "the controller's m_nOriginalLaneAssignment: the lane the game gave the player before any "
     "swap (CMsgLaneColor: 1 yellow, 3 green, 4 blue, 6 purple; 0 none); NULL in builds "
     "without it"},
    // The controller's creep souls by kind (bare names in 10423 and
    // 10524, which hold 0 in them all).
    {"creep_kill_souls", "INTEGER",
     "the controller's m_iCreepGoldKill, souls as the game counts them; NULL in builds without it"},
    {"creep_air_orb_souls", "INTEGER", "the controller's m_iCreepGoldAirOrb, as creep_kill_souls"},
    {"creep_ground_orb_souls", "INTEGER",
     "the controller's m_iCreepGoldGroundOrb, as creep_kill_souls"},
    {"creep_solo_bonus_souls", "INTEGER",
     "the controller's m_iCreepGoldSoloBonus, as creep_kill_souls"},
    {"creep_deny_souls", "INTEGER", "the controller's m_iCreepGoldDeny, as creep_kill_souls"},
    {"creep_neutral_souls", "INTEGER",
     "the controller's m_iCreepGoldNeutral, as creep_kill_souls"},
};
enum ExtraColumn : size_t {
  kLevel = kTimelineCommon, kSouls, kKills, kDeaths, kAssists, kApNetWorth, kLastHits, kDenies,
  kPlayerDamage, kDamageTaken, kHealing, kSelfHealing, kObjectiveDamage, kKillStreak, kLane,
  kCreepKillSouls, kCreepNeutralSouls = kCreepKillSouls + 5, kExtraEnd
};
static_assert(kExtraEnd - kTimelineCommon == std::size(kExtraColumns));

// CCitadelUserMsg_HeroKilled, as read.
struct HeroKilledMessage {
  int32_t victim = -1, inflictor = -1, attacker = -1, scorer = -1;
  std::vector<int32_t> assisters;
  std::optional<int32_t> respawn_reason, victim_team;
  std::optional<uint32_t> killer_ability;  // later builds
};

bool ReadHeroKilled(const uint8_t* data, size_t size, HeroKilledMessage* out) {
  WireReader r(data, size);
  while (r.Next()) {
    if (r.wire_type() == 0) {
      switch (r.field()) {
        case 1: out->victim = r.int32(); break;
        case 2: out->inflictor = r.int32(); break;
        case 3: out->attacker = r.int32(); break;
        case 4: out->assisters.push_back(r.int32()); break;
        case 5: out->scorer = r.int32(); break;
        case 6: out->respawn_reason = r.int32(); break;
        case 7: out->victim_team = r.int32(); break;
        case 9: out->killer_ability = static_cast<uint32_t>(r.varint()); break;
        default: break;
      }
    } else if (r.wire_type() == 2 && r.field() == 4) {
      // Packed assisters: varints back to back.
      const std::string_view packed = r.bytes();
      size_t pos = 0;
      uint64_t v;
      while (pos < packed.size() && GetVarint(packed, &pos, &v)) {
        out->assisters.push_back(static_cast<int32_t>(v));
      }
    }
  }
  return r.ok();
}

class Module : public match::GameModule, public MessageHost {
 public:
  const GameSchema& schema() const override { return DeadlockSchema(); }
  std::span<const MatchColumn> extra_columns() const override { return kExtraColumns; }
  float cell_width() const override { return 512.0f; }
  bool Watches(std::string_view name) const override {
    return Loadout::Watches(name) || name == kTriggerClass || name == kPatronClass;
  }

  void OnEntityCreated(MatchContext& ctx, const Entity& e) override {
    players_.OnCreated(ctx, e);
    rules_.OnCreated(ctx, e);
    if (ctx.match_layer()) loadout_.OnCreated(e);
    if (ctx.match_layer() && ctx.game_tables()) WorldObject(ctx, e, true);
  }
  void OnEntityUpdated(MatchContext& ctx, const Entity& e,
                       std::span<const FieldChange> changes) override {
    // A pawn's array, or what it holds (watched once held).
    loadout_.OnUpdated(e, players_.SlotOfPawnIndex(ctx, e.index), changes);
    if (ctx.match_layer() && ctx.game_tables()) WorldObject(ctx, e, false);
  }
  void OnEntityDeleted(MatchContext& ctx, const Entity& e) override {
    players_.OnDeleted(ctx, e);
    if (ctx.match_layer()) loadout_.OnDeleted(e);
  }
  void OnFrameEnd(MatchContext& ctx, ReplayMetadata*) override;
  std::vector<std::pair<std::string, uint64_t>> Counters() const override {
    std::vector<std::pair<std::string, uint64_t>> out = loadout_.Counters();
    out.emplace_back("timeline_out_of_view", samples_out_of_view_);
    if (teamfights_.unplaced() > 0) {
      out.emplace_back("teamfight_damage_without_position", teamfights_.unplaced());
    }
    for (auto& c : messages_.Counters()) out.push_back(std::move(c));
    for (auto& c : modifiers_.Counters()) out.push_back(std::move(c));
    if (unknown_heroes_ > 0) out.emplace_back("unknown_hero_ids", unknown_heroes_);
    for (const auto& c : record_counts_) out.push_back(c);
    return out;
  }
  std::span<const std::string_view> string_tables() const override { return kStringTables; }
  void OnStringTableEntry(MatchContext& ctx, const StringTable& table, int32_t index) override {
    if (ctx.game_tables()) modifiers_.OnEntry(ctx, *this, table, index);
  }
  std::span<const match::UserMessageSpec> user_messages() const override {
    return MatchMessages::Specs();
  }
  std::span<const TypeRule> type_rules() const override { return kTypeRules; }
  std::span<const KnownEventList> known_event_lists() const override {
    return KnownEventLists();
  }
  Status OnUserMessage(MatchContext& ctx, uint32_t type, const uint8_t* data,
                       size_t size) override;
  std::optional<double> ClockAt(MatchContext& ctx, int64_t tick) override;
  void Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) override;
  void WriteSoFar(MatchContext& ctx) override;
  void Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) override;
  void PlayersSoFar(std::vector<PlayerRow>* out) const override {
    players_.AppendRows(out);
  }

  // MessageHost.
  int32_t SlotOfEntity(MatchContext& ctx, int32_t index) override;
  MatchValue Clock(MatchContext& ctx) override {
    return match::RealCell(GameTime(ctx, ctx.tick()));
  }
  void OnPlayerDamage(MatchContext& ctx, int32_t attacker, int32_t victim,
                      MatchValue damage) override {
    teamfights_.OnDamage(attacker, victim, damage, Clock(ctx));
  }

 private:
  Status HeroKilled(MatchContext& ctx, const uint8_t* data, size_t size);
  // A pause's start or end at this frame's end, or (`finish`) the pause
  // still under way at the end.
  void Pauses(MatchContext& ctx, bool finish);
  // The post-match record's meta counts (post_match.h).
  void RecordCounts(MatchContext& ctx);
  // A delivery point or the patron, created or updated.
  void WorldObject(MatchContext& ctx, const Entity& e, bool created);

  // The frame's players as the teamfights place their damage.
  void PlaceFights(MatchContext& ctx, const std::vector<match::PlayerControllers::Player>& players);

  MatchMessages messages_;
  Teamfights teamfights_;
  std::vector<Teamfights::Player> fighters_;  // by slot, reused each frame
  Urn urn_;
  Modifiers modifiers_{&messages_, &urn_};
  int32_t trigger_class_ = -1, patron_class_ = -1;  // class ids, once one is created
  std::vector<std::pair<int32_t, int64_t>> patron_phase_;  // (index, phase) last written
  FieldReader phase_{"m_ePhase"};
  FieldReader team_{"m_iTeamNum"};
  PostMatch post_match_{&messages_};
  // Where the post-match record and the replay's own fields disagree.
  std::vector<std::pair<std::string, uint64_t>> record_counts_;
  HeroNames heroes_;
  uint64_t unknown_heroes_ = 0;
  uint64_t samples_out_of_view_ = 0;  // timeline rows of a pawn out of view

  match::PlayerControllers players_{"CCitadelPlayerController", "m_hHeroPawn"};
  Loadout loadout_;
  std::vector<const Entity*> pawns_;  // by slot, at the frame's end
  match::NamedEntity rules_{"CCitadelGameRulesProxy"};
  match::BodyColumns body_{512.0f, "m_angEyeAngles"};
  match::PauseClock pause_clock_;
  FieldReader max_health_{"m_PlayerDataGlobal.m_iHealthMax", "m_iHealthMax"};
  FieldReader level_{"m_PlayerDataGlobal.m_iLevel", "m_iLevel"};
  FieldReader souls_{"m_PlayerDataGlobal.m_iGoldNetWorth", "m_iGoldNetWorth"};
  FieldReader kills_{"m_PlayerDataGlobal.m_iPlayerKills", "m_iPlayerKills"};
  FieldReader deaths_{"m_PlayerDataGlobal.m_iDeaths", "m_iDeaths"};
  FieldReader assists_{"m_PlayerDataGlobal.m_iPlayerAssists", "m_iPlayerAssists"};
  // m_PlayerDataGlobal's counters (NULL in a build without the field).
  FieldReader ap_net_worth_{"m_PlayerDataGlobal.m_iAPNetWorth", "m_iAPNetWorth"};
  FieldReader last_hits_{"m_PlayerDataGlobal.m_iLastHits", "m_iLastHits"};
  FieldReader denies_{"m_PlayerDataGlobal.m_iDenies", "m_iDenies"};
  FieldReader player_damage_{"m_PlayerDataGlobal.m_iHeroDamage", "m_iHeroDamage"};
  FieldReader damage_taken_{"m_PlayerDataGlobal.m_iDamageTaken", "m_iDamageTaken"};
  FieldReader healing_{"m_PlayerDataGlobal.m_iHeroHealing", "m_iHeroHealing"};
  FieldReader self_healing_{"m_PlayerDataGlobal.m_iSelfHealing", "m_iSelfHealing"};
  FieldReader objective_damage_{"m_PlayerDataGlobal.m_iObjectiveDamage", "m_iObjectiveDamage"};
  FieldReader kill_streak_{"m_PlayerDataGlobal.m_iKillStreak", "m_iKillStreak"};
  FieldReader lane_{"m_nOriginalLaneAssignment"};
  // From kCreepKillSouls on, in the columns' order.
  FieldReader creep_souls_[6] = {
      FieldReader{"m_PlayerDataGlobal.m_iCreepGoldKill", "m_iCreepGoldKill"},
      FieldReader{"m_PlayerDataGlobal.m_iCreepGoldAirOrb", "m_iCreepGoldAirOrb"},
      FieldReader{"m_PlayerDataGlobal.m_iCreepGoldGroundOrb", "m_iCreepGoldGroundOrb"},
      FieldReader{"m_PlayerDataGlobal.m_iCreepGoldSoloBonus", "m_iCreepGoldSoloBonus"},
      FieldReader{"m_PlayerDataGlobal.m_iCreepGoldDeny", "m_iCreepGoldDeny"},
      FieldReader{"m_PlayerDataGlobal.m_iCreepGoldNeutral", "m_iCreepGoldNeutral"}};
  FieldReader game_start_{"m_pGameRules.m_flGameStartTime"};
  FieldReader game_mode_{"m_pGameRules.m_eGameMode"};
  FieldReader match_mode_{"m_pGameRules.m_eMatchMode"};
  FieldReader hero_id_{"m_PlayerDataGlobal.m_nHeroID", "m_nHeroID"};
  FieldReader paused_{"m_pGameRules.m_bGamePaused"};
  FieldReader pause_team_{"m_pGameRules.m_iPauseTeam"};
  // The pause under way: its row so far (tick, clock, team).
  std::optional<std::vector<MatchValue>> pause_;
};

void Module::OnFrameEnd(MatchContext& ctx, ReplayMetadata*) {
  if (!ctx.match_layer()) return;
  if (ctx.game_tables()) {
    modifiers_.OnFrameEnd(ctx, *this);
    urn_.OnFrameEnd(ctx, false);
    Pauses(ctx, false);
  }
  const std::vector<match::PlayerControllers::Player>& players = players_.InPlay(ctx);
  pawns_.assign(pawns_.size(), nullptr);
  for (const match::PlayerControllers::Player& p : players) {
    if (p.slot < 0 || p.slot >= match::HeldEntities::kMaxSlots) continue;
    if (static_cast<size_t>(p.slot) >= pawns_.size()) pawns_.resize(p.slot + 1, nullptr);
    pawns_[p.slot] = p.pawn;
  }
  loadout_.OnFrameEnd(ctx, pawns_, match::RealCell(GameTime(ctx, ctx.tick())));
  if (ctx.game_tables() && teamfights_.pending()) PlaceFights(ctx, players);
}

void Module::PlaceFights(MatchContext& ctx,
                         const std::vector<match::PlayerControllers::Player>& players) {
  fighters_.assign(fighters_.size(), Teamfights::Player());
  for (const match::PlayerControllers::Player& p : players) {
    if (p.slot < 0 || p.slot >= match::HeldEntities::kMaxSlots) continue;
    if (static_cast<size_t>(p.slot) >= fighters_.size()) fighters_.resize(p.slot + 1);
    Teamfights::Player& f = fighters_[static_cast<size_t>(p.slot)];
    f.team = match::ReadInt(team_, p.controller).value_or(-1);
    MatchValue x, y, z;
    body_.position().Read(match::InView(p.pawn), &x, &y, &z);
    if (x.kind == MatchValue::Kind::kReal && y.kind == MatchValue::Kind::kReal) {
      f.placed = true;
      f.x = x.r;
      f.y = y.r;
    }
  }
  teamfights_.OnFrameEnd(ctx.tick(), ctx.tick_interval(), fighters_);
}

std::optional<double> Module::ClockAt(MatchContext& ctx, int64_t tick) {
  const Entity* r = rules_.Get(ctx);
  const std::optional<double> start = match::ReadReal(game_start_, r);
  if (!start || *start < 0.001) return std::nullopt;  // not started
  return pause_clock_.GameSeconds(r, ctx.ServerTickAt(tick), ctx.tick_interval()) - *start;
}

void Module::Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    const Entity* pawn = match::InView(p.pawn);
    if (pawn != p.pawn) ++samples_out_of_view_;
    const std::string_view hero = p.pawn ? ctx.EntityName(*p.pawn) : std::string_view();
    players_.Record(ctx, p, hero);
    if (const std::optional<int64_t> id = match::ReadInt(hero_id_, p.controller); id && *id > 0) {
      heroes_.Saw(*id, hero);
    }
    row[kTlSlot] = MatchValue::Int(p.slot);
    body_.Fill(pawn, row);
    if (pawn != p.pawn) {  // out of view: which entity it is is known
      row[kTlEntity] = MatchValue::Int(static_cast<int64_t>(p.pawn->lifetime));
    }
    row[kTlMaxHealth] = IntCell(match::ReadInt(max_health_, p.controller));
    row[kLevel] = IntCell(match::ReadInt(level_, p.controller));
    row[kSouls] = IntCell(match::ReadInt(souls_, p.controller));
    row[kKills] = IntCell(match::ReadInt(kills_, p.controller));
    row[kDeaths] = IntCell(match::ReadInt(deaths_, p.controller));
    row[kAssists] = IntCell(match::ReadInt(assists_, p.controller));
    FieldReader* const counters[] = {&ap_net_worth_,  &last_hits_,    &denies_,
                                     &player_damage_, &damage_taken_, &healing_,
                                     &self_healing_,  &objective_damage_, &kill_streak_};
    for (size_t i = 0; i < std::size(counters); ++i) {
      row[kApNetWorth + i] = IntCell(match::ReadInt(*counters[i], p.controller));
    }
    row[kLane] = IntCell(match::ReadInt(lane_, p.controller));
    for (size_t i = 0; i < std::size(creep_souls_); ++i) {
      row[kCreepKillSouls + i] = IntCell(match::ReadInt(creep_souls_[i], p.controller));
    }
    emit.Emit(row);
  }
}

void Module::Pauses(MatchContext& ctx, bool finish) {
  const bool paused = !finish && match::ReadInt(paused_, rules_.Get(ctx)).value_or(0) != 0;
  if (paused && !pause_) {
    pause_.emplace(kPauseColumns, MatchValue());
    (*pause_)[kTick] = MatchValue::Int(ctx.tick());
    (*pause_)[kGameTime] = Clock(ctx);
    const std::optional<int64_t> team = match::ReadInt(pause_team_, rules_.Get(ctx));
    if (team && *team >= 0) (*pause_)[kPauseTeam] = MatchValue::Int(*team);
  } else if (!paused && pause_) {
    if (!finish) {
      (*pause_)[kPauseEndTick] = MatchValue::Int(ctx.tick());
      (*pause_)[kPauseDuration] =
          MatchValue::Real((ctx.tick() - (*pause_)[kTick].i) * ctx.tick_interval());
    }
    ctx.Row(kPauses, *pause_);
    pause_.reset();
  }
}

void Module::RecordCounts(MatchContext& ctx) {
  record_counts_ = {{"post_match_record", post_match_.present() ? 1 : 0}};
  if (post_match_.damaged() > 0) {
    record_counts_.emplace_back("damaged_post_match_records", post_match_.damaged());
  }
  if (post_match_.misaligned_damage_cells() > 0) {
    record_counts_.emplace_back("record_damage_cells_misaligned",
                                post_match_.misaligned_damage_cells());
  }
  if (!post_match_.present()) return;
  uint64_t kills = 0, souls = 0;
  for (const auto& [slot, totals] : post_match_.totals()) {
    const Entity* controller =
        slot >= 0 && slot < match::HeldEntities::kMaxSlots ? ctx.Get(static_cast<int32_t>(slot) + 1)
                                                           : nullptr;
    if (controller == nullptr || !players_.IsController(ctx, controller->class_id)) {
      ++kills, ++souls;  // no such player in the replay
      continue;
    }
    if (match::ReadInt(kills_, controller) != totals.first) ++kills;
    if (match::ReadInt(souls_, controller) != totals.second) ++souls;
  }
  const int64_t objectives = post_match_.objectives_destroyed() - messages_.objectives_killed();
  record_counts_.emplace_back("record_kills_disagree", kills);
  record_counts_.emplace_back("record_souls_disagree", souls);
  record_counts_.emplace_back("record_objectives_disagree",
                              static_cast<uint64_t>(objectives < 0 ? -objectives : objectives));
}

void Module::WorldObject(MatchContext& ctx, const Entity& e, bool created) {
  if (created) {
    const std::string_view name = ctx.ClassName(e.class_id);
    if (name == kTriggerClass) trigger_class_ = e.class_id;
    if (name == kPatronClass) patron_class_ = e.class_id;
  }
  if (e.class_id == trigger_class_) {
    urn_.OnTrigger(ctx, *this, e);
    return;
  }
  if (e.class_id != patron_class_) return;
  const std::optional<int64_t> phase = match::ReadInt(phase_, &e);
  if (!phase) return;
  auto it = std::find_if(patron_phase_.begin(), patron_phase_.end(),
                         [&](const auto& p) { return p.first == e.index; });
  if (it == patron_phase_.end()) {
    patron_phase_.emplace_back(e.index, *phase);
  } else if (!created && it->second == *phase) {
    return;
  } else {
    it->second = *phase;
  }
  std::vector<MatchValue> row(kPatronColumns);
  row[kTick] = MatchValue::Int(ctx.tick());
  row[kGameTime] = Clock(ctx);
  row[kPatronEntity] = MatchValue::Int(e.index);
  row[kPatronTeam] = IntCell(match::ReadInt(team_, &e));
  row[kPatronPhase] = MatchValue::Int(*phase);
  ctx.Row(kPatronPhases, row);
}

int32_t Module::SlotOfEntity(MatchContext& ctx, int32_t index) {
  if (index < 0) return -1;
  const Entity* e = ctx.Get(index);
  if (e != nullptr && players_.IsController(ctx, e->class_id)) return index - 1;
  return players_.SlotOfPawnIndex(ctx, index);
}

Status Module::OnUserMessage(MatchContext& ctx, uint32_t type, const uint8_t* data,
                             size_t size) {
  if (!ctx.match_layer()) return Status::Ok();
  if (type == kMsgHeroKilled) return HeroKilled(ctx, data, size);
  if (!ctx.game_tables()) return Status::Ok();
  if (type == kMsgPostMatchDetails) {
    post_match_.OnMessage(ctx, data, size);
  } else {
    messages_.OnMessage(ctx, *this, type, data, size);
    for (auto& [slot, item] : messages_.TakeBought()) {
      loadout_.ExpectHeld(slot, std::move(item), ctx.tick());
    }
  }
  return Status::Ok();
}

Status Module::HeroKilled(MatchContext& ctx, const uint8_t* data, size_t size) {
  HeroKilledMessage m;
  if (!ReadHeroKilled(data, size, &m)) return Status::Ok();
  const int32_t victim = SlotOfEntity(ctx, m.victim);
  if (victim < 0) return Status::Ok();
  KillRow k;
  k.tick = ctx.tick();
  k.game_time = match::RealCell(GameTime(ctx, ctx.tick()));
  k.victim = victim;
  const int32_t killer = SlotOfEntity(ctx, m.scorer > 0 ? m.scorer : m.attacker);
  if (killer >= 0) k.killer = killer;
  for (int32_t a : m.assisters) {
    const int32_t slot = SlotOfEntity(ctx, a);
    if (slot >= 0) k.assisters.push_back(slot);
  }
  if (const Entity* inflictor = m.inflictor >= 0 ? ctx.Get(m.inflictor) : nullptr) {
    std::string_view name = ctx.EntityName(*inflictor);
    if (name.empty()) name = ctx.ClassName(inflictor->class_id);
    k.weapon.assign(name);
  }
  k.extra.assign(kKillColumns, MatchValue());
  if (m.victim_team) k.extra[kKillVictimTeam] = MatchValue::Int(*m.victim_team);
  if (m.respawn_reason) k.extra[kKillRespawnReason] = MatchValue::Int(*m.respawn_reason);
  if (const Entity* inflictor = m.inflictor >= 0 ? ctx.Get(m.inflictor) : nullptr) {
    const std::string_view c = ctx.ClassName(inflictor->class_id);
    if (!c.empty()) k.extra[kKillInflictorClass] = MatchValue::Text(c);
  }
  if (m.killer_ability && *m.killer_ability != 0) {
    k.extra[kKillAbilityId] = MatchValue::Int(*m.killer_ability);
    const std::string_view name = messages_.AbilityName(ctx, *m.killer_ability);
    if (!name.empty()) k.extra[kKillAbility] = MatchValue::Text(name);
  }
  const Entity* controller = ctx.Get(victim + 1);
  body_.position().Read(controller ? players_.Pawn(ctx, *controller) : nullptr, &k.x, &k.y,
                        &k.z);
  if (ctx.game_tables()) teamfights_.OnKill(victim);
  ctx.Kill(k);
  return Status::Ok();
}

void Module::WriteSoFar(MatchContext& ctx) {
  // The heroes table as Finish writes it, as it stands: a copy takes the
  // bans, so that nothing the parse goes on with changes.
  HeroNames heroes = heroes_;
  for (int64_t id : messages_.banned()) heroes.Saw(id, {});
  (void)heroes.Write(ctx);
  if (ctx.game_tables()) teamfights_.Write(ctx);
}

void Module::Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) {
  if (ctx.match_layer() && ctx.game_tables()) {
    modifiers_.Finish(ctx);
    urn_.OnFrameEnd(ctx, true);
    Pauses(ctx, true);
    for (int64_t id : messages_.banned()) heroes_.Saw(id, {});
    unknown_heroes_ = heroes_.Write(ctx);
    WriteKnownNames(ctx, kKnownNames);
    RecordCounts(ctx);
    teamfights_.Write(ctx);
  }
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    players_.Record(ctx, p, p.pawn ? ctx.EntityName(*p.pawn) : std::string_view());
  }
  players_.AppendRows(&out->players);
  if (meta.match_id != 0) out->match_id = meta.match_id;
  if (messages_.winner()) {
    out->winner = MatchValue::Int(*messages_.winner());
    if (*messages_.winner() == 2) out->winner_name = "Amber";
    if (*messages_.winner() == 3) out->winner_name = "Sapphire";
  }
  if (const std::optional<int64_t> mode = match::ReadInt(game_mode_, rules_.Get(ctx))) {
    out->game_mode = MatchValue::Int(*mode);
  }
  if (const std::optional<int64_t> mode = match::ReadInt(match_mode_, rules_.Get(ctx))) {
    out->match_mode = MatchValue::Int(*mode);
  }
  if (out->players.empty()) {
    out->note = "no players: no CCitadelPlayerController was on team 2 or 3";
  }
}

}  // namespace

bool IsReplayOf(const ReplayHeader& h) {
  return h.game == "citadel" || h.game_directory.find("citadel") != std::string::npos;
}

std::unique_ptr<match::GameModule> NewMatchModule() { return std::make_unique<Module>(); }

}  // namespace gem::deadlock

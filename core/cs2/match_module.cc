#include "core/cs2/match_module.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/cs2/bomb.h"
#include "core/demo_stream.h"
#include "core/cs2/combat.h"
#include "core/cs2/economy.h"
#include "core/cs2/event_keys.h"
#include "core/cs2/grenades.h"
#include "core/cs2/match_state.h"
#include "core/cs2/rounds.h"
#include "core/cs2/tables.h"
#include "core/match/body.h"
#include "core/match/game_clock.h"
#include "core/match/named_entity.h"
#include "core/match/player_controllers.h"

namespace gem::cs2 {
namespace {

using match::FieldReader;
using match::IntCell;
using match::MatchContext;

constexpr int64_t kPhaseMatchEnded = 5;
constexpr int64_t kNoPlayer = 65535;  // a game event's "no player" id

constexpr MatchColumn kExtraColumns[] = {
    {"armor", "INTEGER"},         {"money", "INTEGER"},        {"active_weapon", "TEXT"},
    {"kills", "INTEGER"},         {"deaths", "INTEGER"},       {"assists", "INTEGER"},
    {"round", "INTEGER"},         {"place", "TEXT"},           {"has_defuser", "INTEGER"},
    {"has_helmet", "INTEGER"},    {"equipment_value", "INTEGER"},
    {"flash_duration", "REAL"},   {"velocity", "REAL"},
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
  bool Watches(std::string_view) const override { return false; }

  void OnEntityCreated(MatchContext& ctx, const Entity& e) override {
    players_.OnCreated(ctx, e);
    rules_.OnCreated(ctx, e);
    if (ctx.ClassName(e.class_id) == "CCSTeam") teams_.insert(e.index);
    if (!ctx.game_tables()) return;
    rounds_.OnEntityCreated(ctx, e);
    grenades_.OnEntityCreated(ctx, *this, e);
    bomb_.OnEntityCreated(ctx, *this, e);
  }
  void OnEntityDeleted(MatchContext& ctx, const Entity& e) override {
    players_.OnDeleted(ctx, e);
    teams_.erase(e.index);
    if (!ctx.game_tables()) return;
    rounds_.OnEntityDeleted(ctx, e);
    grenades_.OnEntityDeleted(ctx, *this, e);
    bomb_.OnEntityDeleted(ctx, e);
  }
  void OnGameEvent(MatchContext& ctx, const GameEvent& e) override;
  void OnFrameEnd(MatchContext& ctx, ReplayMetadata* meta) override;
  std::optional<double> GameTime(MatchContext& ctx, int64_t tick) override;
  void Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) override;
  void Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) override;
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
    std::optional<int64_t> team = match::ReadInt(team_, Pawn(ctx, slot));
    if (!team) team = match::ReadInt(team_, ctx.Get(slot + 1));
    return IntCell(team);
  }
  void Position(const Entity* e, MatchValue* x, MatchValue* y, MatchValue* z) override {
    body_.position().Read(e, x, y, z);
  }
  MatchValue Round(MatchContext& ctx) override { return rounds_.current(ctx); }
  MatchValue Clock(MatchContext& ctx) override {
    return match::RealCell(GameTime(ctx, ctx.tick()));
  }
  MatchValue GrenadeAt(int32_t index) override { return grenades_.IdAt(index); }
  bool FlashbangNow(MatchContext& ctx, MatchValue* id, int32_t* thrower) override {
    return grenades_.FlashAt(ctx.tick(), id, thrower);
  }

 private:
  // Where each player's pawn was at the end of the last two packets, for
  // the velocity.
  struct Motion {
    int64_t tick = -1, prev_tick = -1;
    uint64_t pawn = 0, prev_pawn = 0;
    MatchValue x, y, z, px, py, pz;
  };
  void Move(MatchContext& ctx, const PlayerNow& p);
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
  std::vector<PlayerNow> in_play_;
  std::vector<Motion> motion_;  // by slot
  // The tick of the last packet, and the packet tick before it.
  int64_t packet_tick_ = -1, prev_packet_tick_ = -1;
  FieldReader max_health_{"m_iMaxHealth"};
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

std::optional<double> Module::GameTime(MatchContext& ctx, int64_t tick) {
  const Entity* r = rules_.Get(ctx);
  if (r == nullptr || match::ReadInt(warmup_, r).value_or(0) != 0) return std::nullopt;
  // Before the match goes live (warm-up, a restart's countdown) the start
  // time is an old one.
  if (match::ReadInt(match_started_, r).value_or(1) == 0) return std::nullopt;
  const std::optional<double> start = match::ReadReal(match_start_, r);
  if (!start || *start <= 0) return std::nullopt;
  return pause_clock_.GameSeconds(r, ctx.ServerTickAt(tick), ctx.tick_interval()) - *start;
}

void Module::OnFrameEnd(MatchContext& ctx, ReplayMetadata*) {
  if (!ctx.match_layer() || !ctx.has_sink()) return;
  in_play_.clear();
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    in_play_.push_back({p.slot, p.controller, p.pawn});
  }
  if (ctx.game_tables()) {
    rounds_.OnFrameEnd(ctx);
    grenades_.OnFrameEnd(ctx, *this);
    bomb_.OnFrameEnd(ctx, *this);
    combat_.OnFrameEnd(ctx, *this, in_play_);
  }
  const uint32_t command = ctx.frame().command;
  if ((command == kDemPacket || command == kDemFullPacket) && ctx.tick() >= 0) {
    if (ctx.tick() > packet_tick_) {
      prev_packet_tick_ = packet_tick_;
      packet_tick_ = ctx.tick();
    }
    for (const PlayerNow& p : in_play_) Move(ctx, p);
  }
  if (!ctx.game_tables()) return;
  const bool in_freeze = match::ReadInt(freeze_, rules_.Get(ctx)).value_or(0) != 0;
  economy_.OnFrameEnd(ctx, rounds_.current(ctx), rounds_.started_now(), in_freeze,
                      rounds_.over(), in_play_);
}

void Module::Move(MatchContext& ctx, const PlayerNow& p) {
  if (p.slot < 0 || p.slot >= (1 << 14)) return;
  if (static_cast<size_t>(p.slot) >= motion_.size()) motion_.resize(p.slot + 1);
  Motion& m = motion_[static_cast<size_t>(p.slot)];
  if (ctx.tick() > m.tick) {
    // A packet of a later tick: the last one's position becomes the one
    // before (several packets of one tick are one position), if the player
    // was in play at the packet tick before.
    m.prev_tick = m.tick == prev_packet_tick_ ? m.tick : -1;
    m.prev_pawn = m.pawn;
    m.px = m.x;
    m.py = m.y;
    m.pz = m.z;
    m.tick = ctx.tick();
  }
  m.pawn = p.pawn ? p.pawn->lifetime : 0;
  Position(p.pawn, &m.x, &m.y, &m.z);
}

void Module::Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    players_.Record(ctx, p, {});
    const Entity* pawn = p.pawn;
    row[kTlSlot] = MatchValue::Int(p.slot);
    body_.Fill(pawn, row);
    row[kTlMaxHealth] = IntCell(match::ReadInt(max_health_, pawn));
    row[kArmor] = IntCell(match::ReadInt(armor_, pawn));
    row[kMoney] = IntCell(match::ReadInt(money_, p.controller));
    const Entity* weapon = ctx.ByHandle(match::ReadInt(weapon_, pawn));
    row[kWeapon] = weapon ? MatchValue::Text(ctx.ClassName(weapon->class_id)) : MatchValue();
    row[kKills] = IntCell(match::ReadInt(kills_, p.controller));
    row[kDeaths] = IntCell(match::ReadInt(deaths_, p.controller));
    row[kAssists] = IntCell(match::ReadInt(assists_, p.controller));
    row[kRound] = rounds_.current(ctx);
    const Value place = pawn ? place_.Read(*pawn) : Value();
    row[kPlace] = place.kind == ValueKind::kString ? MatchValue::Text(place.s) : MatchValue();
    row[kHasDefuser] = IntCell(match::ReadInt(defuser_, pawn));
    row[kHasHelmet] = IntCell(match::ReadInt(helmet_, pawn));
    row[kEquipment] = IntCell(match::ReadInt(equipment_, pawn));
    row[kFlashDuration] = match::RealCell(match::ReadReal(flash_, pawn));
    // The speed over the last packet: the pawn's move from the packet
    // before (the same pawn, in play in both), in units a second.
    row[kVelocity] = MatchValue();
    const size_t slot = static_cast<size_t>(p.slot);
    if (slot < motion_.size() && ctx.tick_interval() > 0) {
      const Motion& m = motion_[slot];
      auto real = [](const MatchValue& v) { return v.kind == MatchValue::Kind::kReal; };
      if (m.prev_tick >= 0 && m.tick == packet_tick_ && m.pawn != 0 &&
          m.pawn == m.prev_pawn && pawn != nullptr && pawn->lifetime == m.pawn && real(m.x) &&
          real(m.y) && real(m.z) && real(m.px) && real(m.py) && real(m.pz)) {
        const double dx = m.x.r - m.px.r, dy = m.y.r - m.py.r, dz = m.z.r - m.pz.r;
        row[kVelocity] = MatchValue::Real(
            std::sqrt(dx * dx + dy * dy + dz * dz) /
            (static_cast<double>(m.tick - m.prev_tick) * ctx.tick_interval()));
      }
    }
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
  if (ctx.game_tables()) combat_.FillKill(ctx, *this, e, keys_, &k);
  ctx.Kill(k);
}

void Module::Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    players_.Record(ctx, p, {});
  }
  players_.AppendRows(&out->players);
  if (ctx.game_tables() && ctx.has_sink()) {
    combat_.Finish(ctx);
    grenades_.Finish(ctx);
    bomb_.Finish(ctx);
    rounds_.Finish(ctx, bomb_);
    in_play_.clear();
    for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
      in_play_.push_back({p.slot, p.controller, p.pawn});
    }
    economy_.Finish(ctx, in_play_);
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

std::vector<std::pair<std::string, uint64_t>> Module::Counters() const {
  std::vector<std::pair<std::string, uint64_t>> out = {
      {"event_keys_of_wrong_type", keys_.wrong_types()}};
  for (auto& c : rounds_.Counters()) out.push_back(c);
  for (auto& c : combat_.Counters()) out.push_back(c);
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

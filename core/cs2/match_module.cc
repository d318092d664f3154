#include "core/cs2/match_module.h"

#include <set>
#include <string>

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
    {"armor", "INTEGER"}, {"money", "INTEGER"},  {"active_weapon", "TEXT"},
    {"kills", "INTEGER"}, {"deaths", "INTEGER"}, {"assists", "INTEGER"},
};
enum ExtraColumn : size_t { kArmor = kTimelineCommon, kMoney, kWeapon, kKills, kDeaths, kAssists };

const GameEventKey* Key(const GameEvent& e, std::string_view name) {
  for (const GameEventKey& k : e.keys) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

class Module : public match::GameModule {
 public:
  std::span<const MatchColumn> extra_columns() const override { return kExtraColumns; }
  float cell_width() const override { return 512.0f; }
  bool Watches(std::string_view) const override { return false; }

  void OnEntityCreated(MatchContext& ctx, const Entity& e) override {
    players_.OnCreated(ctx, e);
    rules_.OnCreated(ctx, e);
    if (ctx.ClassName(e.class_id) == "CCSTeam") teams_.insert(e.index);
  }
  void OnEntityDeleted(MatchContext& ctx, const Entity& e) override {
    players_.OnDeleted(ctx, e);
    teams_.erase(e.index);
  }
  void OnGameEvent(MatchContext& ctx, const GameEvent& e) override;
  std::optional<double> GameTime(MatchContext& ctx, int64_t tick) override;
  void Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) override;
  void Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) override;

 private:
  // The slot a player_death participant ("userid", "attacker", "assister")
  // names, -1 when it is no player.
  int32_t Participant(MatchContext& ctx, const GameEvent& e, const std::string& who);

  match::PlayerControllers players_{"CCSPlayerController", "m_hPlayerPawn"};
  match::NamedEntity rules_{"CCSGameRulesProxy"};
  std::set<int32_t> teams_;
  match::BodyColumns body_{512.0f, "m_angEyeAngles"};
  match::PauseClock pause_clock_;
  FieldReader max_health_{"m_iMaxHealth"};
  FieldReader team_{"m_iTeamNum"}, armor_{"m_ArmorValue"};
  FieldReader weapon_{"m_pWeaponServices.m_hActiveWeapon"};
  FieldReader money_{"m_pInGameMoneyServices.m_iAccount"};
  FieldReader kills_{"m_pActionTrackingServices.m_iKills"};
  FieldReader deaths_{"m_pActionTrackingServices.m_iDeaths"};
  FieldReader assists_{"m_pActionTrackingServices.m_iAssists"};
  FieldReader warmup_{"m_pGameRules.m_bWarmupPeriod"};
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
    emit.Emit(row);
  }
}

int32_t Module::Participant(MatchContext& ctx, const GameEvent& e, const std::string& who) {
  const GameEventKey* pawn = Key(e, who + "_pawn");
  if (pawn != nullptr) {
    // A participant that is no player has no pawn handle.
    const std::optional<int64_t> h = match::AsInt(pawn->value);
    if (!h || *h == -1) return -1;
  }
  const GameEventKey* id = Key(e, who);
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
  if (e.name != "player_death" || !ctx.match_layer()) return;
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
  if (const GameEventKey* w = Key(e, "weapon"); w && w->value.kind == ValueKind::kString) {
    k.weapon.assign(w->value.s);
  }
  if (const GameEventKey* h = Key(e, "headshot")) {
    if (std::optional<int64_t> v = match::AsInt(h->value)) k.headshot = *v != 0;
  }
  const Entity* controller = ctx.Get(victim + 1);
  body_.position().Read(controller ? players_.Pawn(ctx, *controller) : nullptr, &k.x, &k.y,
                        &k.z);
  ctx.Kill(k);
}

void Module::Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    players_.Record(ctx, p, {});
  }
  players_.AppendRows(&out->players);
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

}  // namespace

bool IsReplayOf(const ReplayHeader& h) {
  return h.game == "csgo" || h.game == "cs2" || h.game_directory.find("csgo") != std::string::npos;
}

std::unique_ptr<match::GameModule> NewMatchModule() { return std::make_unique<Module>(); }

}  // namespace gem::cs2

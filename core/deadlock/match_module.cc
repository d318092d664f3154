#include "core/deadlock/match_module.h"

#include <vector>

#include "core/deadlock/loadout.h"
#include "core/match/body.h"
#include "core/match/game_clock.h"
#include "core/match/named_entity.h"
#include "core/match/player_controllers.h"
#include "core/codec/varint.h"
#include "core/proto_wire.h"

namespace gem::deadlock {
namespace {

using match::FieldReader;
using match::IntCell;
using match::MatchContext;

constexpr uint32_t kUserMsgHeroKilled = 319;
constexpr match::UserMessageSpec kUserMessages[] = {{kUserMsgHeroKilled, 0}};

// Valve's schema: Deadlock's HeroID_t is a boxed uint32 (Dota's is
// signed); read signed, its ids come out as -10 and -28 (odd varints).
constexpr TypeRule kTypeRules[] = {{"HeroID_t", DecodeOp::kUVar32}};

constexpr MatchColumn kExtraColumns[] = {
    {"level", "INTEGER"}, {"souls", "INTEGER"},  {"kills", "INTEGER"},
    {"deaths", "INTEGER"}, {"assists", "INTEGER"},
};
enum ExtraColumn : size_t { kLevel = kTimelineCommon, kSouls, kKills, kDeaths, kAssists };

// CCitadelUserMsg_HeroKilled, as read.
struct HeroKilled {
  int32_t victim = -1, inflictor = -1, attacker = -1, scorer = -1;
  std::vector<int32_t> assisters;
};

bool ReadHeroKilled(const uint8_t* data, size_t size, HeroKilled* out) {
  WireReader r(data, size);
  while (r.Next()) {
    if (r.wire_type() == 0) {
      switch (r.field()) {
        case 1: out->victim = r.int32(); break;
        case 2: out->inflictor = r.int32(); break;
        case 3: out->attacker = r.int32(); break;
        case 4: out->assisters.push_back(r.int32()); break;
        case 5: out->scorer = r.int32(); break;
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

class Module : public match::GameModule {
 public:
  const GameSchema& schema() const override { return DeadlockSchema(); }
  std::span<const MatchColumn> extra_columns() const override { return kExtraColumns; }
  float cell_width() const override { return 512.0f; }
  bool Watches(std::string_view name) const override { return Loadout::Watches(name); }

  void OnEntityCreated(MatchContext& ctx, const Entity& e) override {
    players_.OnCreated(ctx, e);
    rules_.OnCreated(ctx, e);
    if (ctx.match_layer()) loadout_.OnCreated(e);
  }
  void OnEntityUpdated(MatchContext& ctx, const Entity& e,
                       std::span<const FieldChange> changes) override {
    // A pawn's array, or what it holds (watched once held).
    loadout_.OnUpdated(e, players_.SlotOfPawnIndex(ctx, e.index), changes);
  }
  void OnEntityDeleted(MatchContext& ctx, const Entity& e) override {
    players_.OnDeleted(ctx, e);
    if (ctx.match_layer()) loadout_.OnDeleted(e);
  }
  void OnFrameEnd(MatchContext& ctx, ReplayMetadata*) override;
  std::vector<std::pair<std::string, uint64_t>> Counters() const override {
    return loadout_.Counters();
  }
  std::span<const match::UserMessageSpec> user_messages() const override {
    return kUserMessages;
  }
  std::span<const TypeRule> type_rules() const override { return kTypeRules; }
  Status OnUserMessage(MatchContext& ctx, uint32_t type, const uint8_t* data,
                       size_t size) override;
  std::optional<double> GameTime(MatchContext& ctx, int64_t tick) override;
  void Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) override;
  void Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) override;

 private:
  // The slot of the player an entity index names (a pawn or a
  // controller), -1 when none.
  int32_t SlotOfEntity(MatchContext& ctx, int32_t index);

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
  FieldReader game_start_{"m_pGameRules.m_flGameStartTime"};
};

void Module::OnFrameEnd(MatchContext& ctx, ReplayMetadata*) {
  if (!ctx.match_layer()) return;
  const std::vector<match::PlayerControllers::Player>& players = players_.InPlay(ctx);
  pawns_.assign(pawns_.size(), nullptr);
  for (const match::PlayerControllers::Player& p : players) {
    if (p.slot < 0 || p.slot >= match::HeldEntities::kMaxSlots) continue;
    if (static_cast<size_t>(p.slot) >= pawns_.size()) pawns_.resize(p.slot + 1, nullptr);
    pawns_[p.slot] = p.pawn;
  }
  loadout_.OnFrameEnd(ctx, pawns_, match::RealCell(GameTime(ctx, ctx.tick())));
}

std::optional<double> Module::GameTime(MatchContext& ctx, int64_t tick) {
  const Entity* r = rules_.Get(ctx);
  const std::optional<double> start = match::ReadReal(game_start_, r);
  if (!start || *start < 0.001) return std::nullopt;  // not started
  return pause_clock_.GameSeconds(r, ctx.ServerTickAt(tick), ctx.tick_interval()) - *start;
}

void Module::Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    const Entity* pawn = p.pawn;
    players_.Record(ctx, p, pawn ? ctx.EntityName(*pawn) : std::string_view());
    row[kTlSlot] = MatchValue::Int(p.slot);
    body_.Fill(pawn, row);
    row[kTlMaxHealth] = IntCell(match::ReadInt(max_health_, p.controller));
    row[kLevel] = IntCell(match::ReadInt(level_, p.controller));
    row[kSouls] = IntCell(match::ReadInt(souls_, p.controller));
    row[kKills] = IntCell(match::ReadInt(kills_, p.controller));
    row[kDeaths] = IntCell(match::ReadInt(deaths_, p.controller));
    row[kAssists] = IntCell(match::ReadInt(assists_, p.controller));
    emit.Emit(row);
  }
}

int32_t Module::SlotOfEntity(MatchContext& ctx, int32_t index) {
  if (index < 0) return -1;
  const Entity* e = ctx.Get(index);
  if (e != nullptr && players_.IsController(ctx, e->class_id)) return index - 1;
  return players_.SlotOfPawnIndex(ctx, index);
}

Status Module::OnUserMessage(MatchContext& ctx, uint32_t type, const uint8_t* data,
                             size_t size) {
  if (type != kUserMsgHeroKilled || !ctx.match_layer()) return Status::Ok();
  HeroKilled m;
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
  const Entity* controller = ctx.Get(victim + 1);
  body_.position().Read(controller ? players_.Pawn(ctx, *controller) : nullptr, &k.x, &k.y,
                        &k.z);
  ctx.Kill(k);
  return Status::Ok();
}

void Module::Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) {
  for (const match::PlayerControllers::Player& p : players_.InPlay(ctx)) {
    players_.Record(ctx, p, p.pawn ? ctx.EntityName(*p.pawn) : std::string_view());
  }
  players_.AppendRows(&out->players);
  if (meta.match_id != 0) out->match_id = meta.match_id;
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

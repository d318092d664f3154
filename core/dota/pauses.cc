#include "core/dota/pauses.h"

#include "core/dota/tables.h"
#include "core/match/game_module.h"

namespace gem::dota {

TableSpec PausesTable() {
  // Deadlock's pauses' columns (core/deadlock/tables.cc), and the player.
  return EventTable("pauses",
                    "the game paused (m_pGameRules.m_bGamePaused), by whom when a chat event says",
                    {{"end_tick", "INTEGER"},
                     {"duration_s", "REAL"},
                     {"slot", "INTEGER"},
                     {"team", "INTEGER"}});
}

void Pauses::Move(match::MatchContext& ctx, bool paused, const MatchValue& game_time) {
  if (paused) {
    open_ = Open{ctx.tick(), game_time};
    return;
  }
  closed_.push_back({*open_, ctx.tick(), paused_by_});
  open_.reset();
  paused_by_ = -1;
}

void Pauses::Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick) {
  if (open_) closed_.push_back({*open_, std::nullopt, paused_by_});
  open_.reset();
  Write(ctx, start_tick, true);
}

void Pauses::Write(match::MatchContext& ctx, std::optional<int64_t> start_tick, bool at_end) {
  const double rate = ctx.tick_interval() > 0 ? 1.0 / ctx.tick_interval() : 30;
  std::span<Roster::Slot> slots;
  size_t written = 0;
  for (const Closed& p : closed_) {
    if (!at_end && p.begin.game_time.kind != MatchValue::Kind::kReal && !start_tick) break;
    if (slots.empty()) slots = roster_->heroes(ctx);
    MatchValue slot, team;
    if (p.by >= 0 && p.by < kMaxPlayers) {
      slot = MatchValue::Int(p.by);
      if (slots[p.by].team != 0) team = MatchValue::Int(slots[p.by].team);
    }
    const MatchValue row[] = {
        MatchValue::Int(p.begin.tick),
        match::GameModule::ClockOrCountedBack(p.begin.game_time, p.begin.tick, start_tick,
                                              ctx.tick_interval()),
        p.end_tick ? MatchValue::Int(*p.end_tick) : MatchValue(),
        p.end_tick ? MatchValue::Real(match::GameModule::RoundToMillisecond(
                         static_cast<double>(*p.end_tick - p.begin.tick) / rate))
                   : MatchValue(),
        slot,
        team};
    ctx.Row(kPauses, row);
    ++written;
  }
  closed_.erase(closed_.begin(), closed_.begin() + static_cast<ptrdiff_t>(written));
}

}  // namespace gem::dota

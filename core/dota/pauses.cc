#include "core/dota/pauses.h"

#include "core/dota/tables.h"
#include "core/match/game_module.h"

namespace gem::dota {

TableSpec PausesTable() {
  // Deadlock's pauses' columns (core/deadlock/tables.cc), and the player.
  TableSpec t = EventTable(
      "pauses",
      "a pause: the game rules' m_pGameRules.m_bGamePaused turning true at a frame's end until "
      "it turns false. Who paused is the player of the last CHAT_MESSAGE_PAUSED chat event "
      "since the pause before; the game rules network no pausing team (m_pausingPlayerId is not "
      "networked). A row is written as its pause ends (one still on at the replay's end, then)",
      {{"end_tick", "INTEGER",
        "the tick of the frame at whose end m_bGamePaused turned false; NULL while paused at "
        "the replay's end"},
       {"duration_s", "REAL",
        "end_tick less tick over the tick rate: the pause's length in real seconds (the game "
        "clock stands still in it); NULL while paused at the end"},
       {"slot", "INTEGER",
        "who paused (players.slot): the first player id of the last CHAT_MESSAGE_PAUSED chat "
        "event since the pause before ended, up to this one's end; NULL when the replay names "
        "none"},
       {"team", "INTEGER",
        "the pausing player's team (2 Radiant, 3 Dire) when the row is written; NULL without "
        "a player"}});
  t.columns[0].doc = "the tick of the frame at whose end m_bGamePaused turned true";
  t.columns[1].doc =
      "the (stopped) game clock at the pause's start, in seconds (counted back from the horn's "
      "tick before the replay shows the clock)";
  return t;
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

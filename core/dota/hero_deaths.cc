#include "core/dota/hero_deaths.h"

#include "core/dota/tables.h"
#include "core/match/game_module.h"

namespace gem::dota {

TableSpec HeroDeathsTable() {
  return EventTable("hero_deaths", "a player's hero not alive (m_lifeState), until it was again",
                    {{"slot", "INTEGER NOT NULL"},
                     {"life_state", "INTEGER NOT NULL"},
                     {"respawn_tick", "INTEGER"},
                     {"respawn_time", "REAL"},
                     {"seconds_dead", "REAL"}});
}

void HeroDeaths::OnLifeState(match::MatchContext& ctx, int slot, int64_t state,
                             const MatchValue& game_time) {
  auto it = open_.find(slot);
  if (state != 0) {
    if (it == open_.end()) open_.emplace(slot, Open{ctx.tick(), game_time, state});
    return;
  }
  if (it == open_.end()) return;
  closed_.push_back({slot, it->second, MatchValue::Int(ctx.tick()), game_time});
  open_.erase(it);
  Write(ctx, ctx.start_tick(), false);
}

void HeroDeaths::Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick) {
  for (const auto& [slot, o] : open_) closed_.push_back({slot, o, MatchValue(), MatchValue()});
  open_.clear();
  Write(ctx, start_tick, true);
}

void HeroDeaths::Write(match::MatchContext& ctx, std::optional<int64_t> start_tick,
                       bool at_end) {
  size_t written = 0;
  for (const Span& d : closed_) {
    if (!at_end && !start_tick &&
        (d.begin.game_time.kind != MatchValue::Kind::kReal ||
         d.respawn_time.kind != MatchValue::Kind::kReal)) {
      break;
    }
    const MatchValue died = match::GameModule::ClockOrCountedBack(
        d.begin.game_time, d.begin.tick, start_tick, ctx.tick_interval());
    const MatchValue back =
        d.respawn_tick.is_null() ? MatchValue()
                                 : match::GameModule::ClockOrCountedBack(
                                       d.respawn_time, d.respawn_tick.i, start_tick,
                                       ctx.tick_interval());
    MatchValue seconds;
    if (died.kind == MatchValue::Kind::kReal && back.kind == MatchValue::Kind::kReal) {
      seconds = MatchValue::Real(match::GameModule::RoundToMillisecond(back.r - died.r));
    }
    const MatchValue row[] = {MatchValue::Int(d.begin.tick), died,
                              MatchValue::Int(d.slot),       MatchValue::Int(d.begin.state),
                              d.respawn_tick,                back,
                              seconds};
    ctx.Row(kHeroDeaths, row);
    ++written;
  }
  closed_.erase(closed_.begin(), closed_.begin() + static_cast<ptrdiff_t>(written));
}

}  // namespace gem::dota

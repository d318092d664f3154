#include "core/dota/hero_deaths.h"

#include "core/dota/tables.h"
#include "core/match/game_module.h"

namespace gem::dota {

TableSpec HeroDeathsTable() {
  TableSpec t = EventTable(
      "hero_deaths",
      "a time a player's hero was not alive, by its m_lifeState (0 alive, 1 dying, 2 dead): "
      "from the frame in which it left 0 to the frame in which it was 0 again. The field's word: "
      "a reincarnation (the aegis, Wraith King) that passes through a life state other than 0 "
      "is a row too, though the kills table counts no death. Rows (and ids) come in the order "
      "the heroes came back, those dead at the replay's end last, by slot",
      {{"slot", "INTEGER NOT NULL", "the player (players.slot) whose hero it was"},
       {"life_state", "INTEGER NOT NULL",
        "the m_lifeState the hero took on leaving 0: 1 dying, 2 dead"},
       {"respawn_tick", "INTEGER",
        "the tick of the frame in which its m_lifeState was 0 again; NULL for a hero still "
        "dead at the replay's end"},
       {"respawn_time", "REAL",
        "the game clock at respawn_tick, in seconds (counted back from the horn before the "
        "replay shows the clock); NULL for a hero still dead at the end"},
       {"seconds_dead", "REAL",
        "respawn_time less game_time: seconds on the game clock, which stops in pauses as the "
        "respawn timer does; NULL for a hero still dead at the end, or when a clock is unknown"}});
  t.columns[0].doc = "the tick of the frame in which the hero's m_lifeState left 0";
  t.columns[1].doc =
      "the game clock then, in seconds (negative before the horn; counted back from the horn's "
      "tick before the replay shows the clock)";
  return t;
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

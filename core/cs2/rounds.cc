#include "core/cs2/rounds.h"

#include <algorithm>
#include <array>

#include "core/cs2/tables.h"

namespace gem::cs2 {
namespace {

using match::MatchContext;

MatchValue TeamCell(std::optional<int64_t> team) {
  return team && (*team == 2 || *team == 3) ? MatchValue::Int(*team) : MatchValue();
}

}  // namespace

const char* ReasonName(int64_t reason) {
  // The game's RoundEndReason, named by what ended the round.
  switch (reason) {
    case 1: return "bomb_exploded";
    case 2: return "vip_escaped";
    case 3: return "vip_killed";
    case 4: return "t_escaped";
    case 5: return "ct_stopped_escape";
    case 6: return "t_stopped";
    case 7: return "bomb_defused";
    case 8: return "t_eliminated";
    case 9: return "ct_eliminated";
    case 10: return "draw";
    case 11: return "hostages_rescued";
    case 12: return "target_saved";
    case 13: return "hostages_not_rescued";
    case 14: return "t_not_escaped";
    case 15: return "vip_not_escaped";
    case 16: return "game_start";
    case 17: return "t_surrender";
    case 18: return "ct_surrender";
    case 19: return "t_planted";
    case 20: return "ct_reached_hostage";
    default: return nullptr;
  }
}

void Rounds::OnGameEvent(MatchContext&, const GameEvent& e, EventKeys& keys) {
  if (e.name == "round_start") {
    saw_round_start_event_ = true;
    event_start_ = true;
  } else if (e.name == "round_freeze_end") {
    event_freeze_end_ = true;
  } else if (e.name == "round_end") {
    saw_round_end_event_ = true;
    event_end_ = true;
    event_winner_ = TeamCell(keys.Int(e, "winner"));
    const std::optional<int64_t> reason = keys.Int(e, "reason");
    const char* name = reason ? ReasonName(*reason) : nullptr;
    if (reason && name == nullptr) ++unknown_reasons_;
    event_reason_ = name ? MatchValue::Text(name) : MatchValue();
  } else if (e.name == "round_officially_ended") {
    event_official_end_ = true;
  }
}

MatchValue Rounds::current(MatchContext& ctx, MatchState& state) {
  const Entity* r = state.GameRules(ctx);
  if (r == nullptr || !seen_rules_) return current_;
  const bool starting =
      event_start_ || match::ReadInt(start_count_field_, r).value_or(-1) != start_count_;
  if (!starting) return current_;
  if (match::ReadInt(warmup_field_, r).value_or(0) != 0) return MatchValue();
  return MatchValue::Int(match::ReadInt(played_field_, r).value_or(0) + 1);
}


void Rounds::Start(MatchContext& ctx, Source* s, int64_t number, bool known_start) {
  // A restart counts from 1 again: the rounds it voids are dropped.
  while (!s->rounds.empty() && s->rounds.back().number >= number) s->rounds.pop_back();
  // The round before ends officially as this one starts (unless its own
  // event said when).
  if (!s->rounds.empty() && s->rounds.back().official_end_tick.is_null() && s == &game_rules_) {
    s->rounds.back().official_end_tick = MatchValue::Int(ctx.tick());
  }
  Round r;
  r.number = number;
  r.first_tick = ctx.tick();
  if (known_start) r.start_tick = MatchValue::Int(ctx.tick());
  s->rounds.push_back(r);
  s->open = true;
}

void Rounds::End(MatchContext& ctx, MatchState& state, Source* s, MatchValue winner,
                 MatchValue reason) {
  if (!s->open || s->rounds.empty()) {
    if (!s->rounds.empty()) ++s->repeated_ends;
    return;
  }
  Round& r = s->rounds.back();
  r.end_tick = MatchValue::Int(ctx.tick());
  r.winner = winner;
  r.reason = reason;
  r.ended = true;
  state.TeamScores(ctx, &r.ct_score, &r.t_score);
  s->open = false;
}

void Rounds::FreezeEnd(MatchContext& ctx, Source* s) {
  if (!s->open || s->rounds.empty()) return;
  Round& r = s->rounds.back();
  if (r.freeze_end_tick.is_null()) r.freeze_end_tick = MatchValue::Int(ctx.tick());
}

void Rounds::OnFrameEnd(MatchContext& ctx, MatchState& state) {
  started_now_ = freeze_ended_now_ = false;
  const Entity* r = state.GameRules(ctx);
  bool rules_start = false, rules_freeze_end = false, rules_end = false;
  bool warmup = false;
  int64_t played = 0;
  if (r != nullptr) {
    const int64_t starts = match::ReadInt(start_count_field_, r).value_or(-1);
    const int64_t ends = match::ReadInt(end_count_field_, r).value_or(-1);
    const bool freeze = match::ReadInt(freeze_field_, r).value_or(0) != 0;
    if (!seen_rules_) {
      seen_rules_ = true;
      // A replay that starts in a round in play: the round, its start
      // unknown (unless it starts in this very frame).
      const bool won = match::ReadInt(win_status_field_, r).value_or(0) != 0;
      warmup = match::ReadInt(warmup_field_, r).value_or(0) != 0;
      played = match::ReadInt(played_field_, r).value_or(0);
      if (!warmup && starts > 0 && !won && !event_start_) {
        Start(ctx, &events_, played + 1, false);
        Start(ctx, &game_rules_, played + 1, false);
        current_ = MatchValue::Int(played + 1);
        ++started_before_;
      }
    } else {
      rules_start = starts != start_count_;
      rules_freeze_end = freeze_ && !freeze;
      rules_end = ends != end_count_;
    }
    start_count_ = starts;
    end_count_ = ends;
    freeze_ = freeze;
  }
  if (r != nullptr && (event_start_ || rules_start)) {
    // Read only when a round starts (every frame reads but the counters).
    warmup = match::ReadInt(warmup_field_, r).value_or(0) != 0;
    played = match::ReadInt(played_field_, r).value_or(0);
  }
  // The round before ends officially as the next begins: first.
  if (event_official_end_ && !events_.rounds.empty() && events_.rounds.back().ended &&
      events_.rounds.back().official_end_tick.is_null()) {
    events_.rounds.back().official_end_tick = MatchValue::Int(ctx.tick());
  }
  if (event_start_ || rules_start) {
    if (warmup) {
      current_ = MatchValue();
      events_.open = game_rules_.open = false;
    } else {
      if (event_start_) Start(ctx, &events_, played + 1, true);
      if (rules_start) Start(ctx, &game_rules_, played + 1, true);
      current_ = MatchValue::Int(played + 1);
      started_now_ = true;
    }
  }
  if (event_freeze_end_) FreezeEnd(ctx, &events_);
  if (rules_freeze_end) FreezeEnd(ctx, &game_rules_);
  freeze_ended_now_ = (event_freeze_end_ || rules_freeze_end) && !current_.is_null();
  if (event_end_) End(ctx, state, &events_, event_winner_, event_reason_);
  if (rules_end && r != nullptr) {
    const std::optional<int64_t> reason = match::ReadInt(win_reason_field_, r);
    const char* name = reason ? ReasonName(*reason) : nullptr;
    if (reason && *reason != 0 && name == nullptr) ++unknown_reasons_;
    End(ctx, state, &game_rules_, TeamCell(match::ReadInt(win_status_field_, r)),
        name ? MatchValue::Text(name) : MatchValue());
  }
  event_start_ = event_freeze_end_ = event_end_ = event_official_end_ = false;
}

void Rounds::Write(MatchContext& ctx, const std::vector<Bomb::Plant>& plants) const {
  const Source& s = UseEvents() ? events_ : game_rules_;
  for (const Round& round : s.rounds) {
    std::array<MatchValue, kRoundColumns> row{};
    row[kRoundNumber] = MatchValue::Int(round.number);
    row[kRoundTick] = MatchValue::Int(round.first_tick);
    row[kRoundStart] = round.start_tick;
    row[kRoundFreezeEnd] = round.freeze_end_tick;
    row[kRoundEnd] = round.end_tick;
    row[kRoundOfficialEnd] = round.official_end_tick;
    row[kRoundWinner] = round.winner;
    row[kRoundReason] = round.reason;
    row[kRoundCtScore] = round.ct_score;
    row[kRoundTScore] = round.t_score;
    for (const Bomb::Plant& p : plants) {
      if (p.round.kind != MatchValue::Kind::kInt || p.round.i != round.number) continue;
      row[kRoundPlantTick] = MatchValue::Int(p.tick);
      if (!p.site.empty()) row[kRoundSite] = MatchValue::Text(p.site);
      break;
    }
    ctx.Row(kRounds, row);
  }
}

std::vector<std::pair<std::string, uint64_t>> Rounds::Counters() const {
  const bool events = UseEvents();
  const Source& s = events ? events_ : game_rules_;
  return {{"rounds_from_events", events ? s.rounds.size() : 0},
          {"rounds_from_game_rules", events ? 0 : s.rounds.size()},
          {"round_ends_repeated", s.repeated_ends},
          {"rounds_started_before_the_replay", started_before_},
          {"round_end_reasons_unknown", unknown_reasons_}};
}

}  // namespace gem::cs2

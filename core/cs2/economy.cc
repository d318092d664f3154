#include "core/cs2/economy.h"

#include <array>
#include <vector>

#include "core/cs2/tables.h"

namespace gem::cs2 {

using match::MatchContext;

void Economy::RowsOfRound(std::vector<EconomyRow>* out) const {
  for (size_t slot = 0; slot < rows_.size(); ++slot) {
    const Row& r = rows_[slot];
    if (!r.present) continue;
    EconomyRow row{};
    row[kEcoRound] = MatchValue::Int(round_);
    row[kEcoSlot] = MatchValue::Int(static_cast<int64_t>(slot));
    row[kEcoTeam] = r.team;
    row[kEcoTick] = MatchValue::Int(r.tick);
    row[kEcoStartMoney] = r.start_money;
    row[kEcoEquipment] = r.equipment_value;
    row[kEcoSpent] = r.spent;
    row[kEcoKillReward] = r.kill_reward;
    out->push_back(row);
  }
}

void Economy::Close() {
  RowsOfRound(&held_);
  for (Row& r : rows_) r = Row();
}

void Economy::Write(MatchContext& ctx) const {
  for (const EconomyRow& row : held_) ctx.Row(kEconomy, row);
  std::vector<EconomyRow> open;
  RowsOfRound(&open);
  for (const EconomyRow& row : open) ctx.Row(kEconomy, row);
}

void Economy::OnFrameEnd(MatchContext& ctx, MatchValue round, bool started, bool in_freeze,
                         bool over,
                         const std::function<std::span<const PlayerNow>()>& players) {
  const int64_t number = round.kind == MatchValue::Kind::kInt ? round.i : -1;
  if (number != round_ || started) {
    Close();
    // A restart counts from 1 again: the rounds it voids go (a round
    // numbered as one held, or later).
    if (number >= 0) {
      std::erase_if(held_, [&](const EconomyRow& row) { return row[kEcoRound].i >= number; });
    }
    round_ = number;
    roster_taken_ = false;
  }
  if (round_ < 0) return;
  if (!in_freeze && !roster_taken_) {
    // The first frame past the freeze: the round's players, their money,
    // equipment and kill rewards so far (no one kills in the freeze).
    roster_taken_ = true;
    for (const PlayerNow& p : players()) {
      if (p.slot < 0 || p.slot >= kSlots) continue;
      const size_t slot = static_cast<size_t>(p.slot);
      if (slot >= rows_.size()) rows_.resize(slot + 1);
      Row& r = rows_[slot];
      r.present = true;
      r.tick = ctx.tick();
      // A pawn out of the recorder's view says nothing (its team may have
      // switched unseen): the controller's team, no equipment value.
      const Entity* pawn = match::InView(p.pawn);
      std::optional<int64_t> team = match::ReadInt(team_, pawn);
      if (!team) team = match::ReadInt(team_, p.controller);
      r.team = match::IntCell(team);
      r.start_money = match::IntCell(match::ReadInt(start_account_, p.controller));
      r.equipment_value = match::IntCell(match::ReadInt(equipment_, pawn));
      r.reward_at_start = match::ReadInt(reward_field_, p.controller);
    }
  }
  // Spending and rewards are over once the round is: read from then on,
  // each frame until the next round, the last read stands.
  if (over) Settle(players());
}

void Economy::Settle(std::span<const PlayerNow> players) {
  for (const PlayerNow& p : players) {
    if (p.slot < 0 || static_cast<size_t>(p.slot) >= rows_.size()) continue;
    Row& r = rows_[static_cast<size_t>(p.slot)];
    if (!r.present) continue;
    r.spent = match::IntCell(match::ReadInt(spent_, p.controller));
    const std::optional<int64_t> reward = match::ReadInt(reward_field_, p.controller);
    if (reward && r.reward_at_start) r.kill_reward = MatchValue::Int(*reward - *r.reward_at_start);
  }
}

void Economy::Finish(MatchContext& ctx, std::span<const PlayerNow> players) {
  // A round the replay ends in: what it has come to.
  Settle(players);
  Close();
  Write(ctx);
}

}  // namespace gem::cs2

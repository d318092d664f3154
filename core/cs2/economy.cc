#include "core/cs2/economy.h"

#include <array>

#include "core/cs2/tables.h"

namespace gem::cs2 {

using match::MatchContext;

void Economy::Flush(MatchContext& ctx) {
  for (const auto& [slot, r] : rows_) {
    std::array<MatchValue, kEconomyColumns> row{};
    row[kEcoRound] = MatchValue::Int(round_);
    row[kEcoSlot] = MatchValue::Int(slot);
    row[kEcoTeam] = r.team;
    row[kEcoTick] = MatchValue::Int(r.tick);
    row[kEcoStartMoney] = r.start_money;
    row[kEcoEquipment] = r.equipment_value;
    row[kEcoSpent] = r.spent;
    row[kEcoKillReward] = r.kill_reward;
    ctx.Row(kEconomy, row);
  }
  rows_.clear();
}

void Economy::OnFrameEnd(MatchContext& ctx, MatchValue round, bool started, bool in_freeze,
                         std::span<const InPlay> players) {
  const int64_t number = round.kind == MatchValue::Kind::kInt ? round.i : -1;
  if (number != round_ || started) {
    Flush(ctx);
    round_ = number;
    roster_taken_ = false;
    // Each player's total before the round: its kill reward starts here.
    reward_at_start_ = reward_;
  }
  if (round_ >= 0 && !in_freeze && !roster_taken_) {
    // The first frame past the freeze: the round's players, their money
    // and equipment.
    roster_taken_ = true;
    for (const InPlay& p : players) {
      Row r;
      r.tick = ctx.tick();
      std::optional<int64_t> team = match::ReadInt(team_, p.pawn);
      if (!team) team = match::ReadInt(team_, p.controller);
      r.team = match::IntCell(team);
      r.start_money = match::IntCell(match::ReadInt(start_account_, p.controller));
      r.equipment_value = match::IntCell(match::ReadInt(equipment_, p.pawn));
      rows_.emplace(p.slot, r);
    }
  }
  for (const InPlay& p : players) {
    const std::optional<int64_t> reward = match::ReadInt(reward_field_, p.controller);
    if (reward) reward_[p.slot] = *reward;
    auto it = rows_.find(p.slot);
    if (it == rows_.end()) continue;
    Row& r = it->second;
    r.spent = match::IntCell(match::ReadInt(spent_, p.controller));
    auto before = reward_at_start_.find(p.slot);
    if (reward && before != reward_at_start_.end()) {
      r.kill_reward = MatchValue::Int(*reward - before->second);
    }
  }
}

void Economy::Finish(MatchContext& ctx) { Flush(ctx); }

}  // namespace gem::cs2

#include "core/dota/activity.h"

namespace gem::dota {

void Activity::OnSample(match::MatchContext& ctx, int slot, std::span<const MatchValue> row) {
  if (On(ctx)) {
    lanes_.OnSample(ctx, slot, row[kTlTick].i, row[kTlTeam], row[kTlGameTime], row[kTlX], row[kTlY]);
  }
}

void Activity::Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick) {
  if (!On(ctx)) return;
  lanes_.Finish(ctx, start_tick);
  events_.Finish(ctx);
  pauses_.Finish(ctx, start_tick);
  deaths_.Finish(ctx, start_tick);
}

std::vector<std::pair<std::string, uint64_t>> Activity::Counters() const {
  std::vector<std::pair<std::string, uint64_t>> c = orders_.Counters();
  for (auto& part : events_.Counters()) c.push_back(std::move(part));
  return c;
}

}  // namespace gem::dota

#include "core/match/game_module.h"

#include <cmath>

namespace gem::match {

const GameSchema& GameModule::schema() const {
  static const GameSchema* const kNone = new GameSchema();
  return *kNone;
}

double GameModule::RoundToMillisecond(double seconds) {
  return std::round(seconds * 1000) / 1000;
}

MatchValue GameModule::ClockOrCountedBack(const MatchValue& clock, int64_t tick,
                                          std::optional<int64_t> start_tick,
                                          double tick_interval) {
  if (clock.kind == MatchValue::Kind::kReal || !start_tick || tick_interval <= 0) return clock;
  return MatchValue::Real(
      RoundToMillisecond(static_cast<double>(tick - *start_tick) / (1.0 / tick_interval)));
}

}  // namespace gem::match

#include "core/match/game_clock.h"

namespace gem::match {

double PauseClock::GameSeconds(const Entity* rules, int64_t server_tick,
                               double tick_interval) {
  int64_t ticks = server_tick;
  if (rules != nullptr) {
    if (ReadInt(paused_, rules).value_or(0) != 0) {
      ticks = ReadInt(pause_start_, rules).value_or(server_tick);
    }
    ticks -= ReadInt(total_paused_, rules).value_or(0);
  }
  return static_cast<double>(ticks) * tick_interval;
}

}  // namespace gem::match

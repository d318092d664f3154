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

}  // namespace gem::match

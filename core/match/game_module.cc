#include "core/match/game_module.h"

namespace gem::match {

const GameSchema& GameModule::schema() const {
  static const GameSchema* const kNone = new GameSchema();
  return *kNone;
}

}  // namespace gem::match

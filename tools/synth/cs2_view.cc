// Cs2Match's client recording (--pov): what the recorder's client is sent.
// The server sends a client the entities it can see; this match's rule is
// its own and simple: the recorder's teammates always, an enemy while his
// pawn is within kViewRange units (x, y) of the recorder's.
#include <cmath>

#include "tools/synth/cs2_match.h"

namespace gem::synth {

void Cs2Match::UpdateView(uint32_t tick) {
  const Player& me = players_[static_cast<size_t>(Index(options_.pov_slot))];
  for (Player& p : players_) {
    if (p.slot == me.slot || p.pawn == nullptr) continue;
    const bool seen = p.team == me.team || std::hypot(p.x - me.x, p.y - me.y) <= kViewRange;
    if (seen == p.seen) continue;
    p.seen = seen;
    if (seen) {
      world_->Enter(p.pawn);
    } else {
      world_->Leave(p.pawn);
    }
    Truth("{\"kind\":\"view\",\"tick\":" + std::to_string(tick) + ",\"slot\":" +
          std::to_string(p.slot) + ",\"seen\":" + std::to_string(seen) + "}");
  }
}

}  // namespace gem::synth

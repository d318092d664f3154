// PawnMarks<State>: what a tracker keeps of each pawn (a State per entity
// index, started afresh when another entity takes the index), and which
// pawns changed since the last frame's end, each once. The held weapon
// (weapons.h) and the grenades held (utility_held.h) read a pawn only at
// the end of a frame in which one of its fields of interest changed.
#ifndef GEM_CORE_CS2_PAWN_MARKS_H_
#define GEM_CORE_CS2_PAWN_MARKS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/entities/entities.h"
#include "core/match/match_context.h"

namespace gem::cs2 {

template <typename State>
class PawnMarks {
 public:
  // Pawn `e` changed (or was created).
  void Mark(const Entity& e) {
    if (e.index < 0 || e.index >= kMaxIndex) return;
    const size_t i = static_cast<size_t>(e.index);
    if (i >= by_index_.size()) by_index_.resize(i + 1);
    Slot& s = by_index_[i];
    if (s.lifetime != e.lifetime) {
      s = Slot();
      s.lifetime = e.lifetime;
    }
    if (!s.marked) marked_.push_back(e.index);
    s.marked = true;
  }
  // Calls read(pawn, state) for each pawn marked since the last call that
  // is still the entity that was marked, then forgets the marks.
  template <typename Read>
  void TakeMarked(match::MatchContext& ctx, Read read) {
    for (const int32_t index : marked_) {
      Slot& s = by_index_[static_cast<size_t>(index)];
      s.marked = false;
      const Entity* pawn = ctx.Get(index);
      if (pawn != nullptr && pawn->lifetime == s.lifetime) read(*pawn, s.state);
    }
    marked_.clear();
  }
  // Pawn `e`'s state; nullptr when it was never marked.
  State* Find(const Entity* e) {
    if (e == nullptr || e->index < 0 || static_cast<size_t>(e->index) >= by_index_.size()) {
      return nullptr;
    }
    Slot& s = by_index_[static_cast<size_t>(e->index)];
    return s.lifetime == e->lifetime ? &s.state : nullptr;
  }

 private:
  static constexpr int32_t kMaxIndex = 1 << 14;
  struct Slot {
    uint64_t lifetime = 0;
    bool marked = false;
    State state;
  };
  std::vector<Slot> by_index_;
  std::vector<int32_t> marked_;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_PAWN_MARKS_H_

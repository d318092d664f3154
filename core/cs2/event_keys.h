// EventKeys: a game event's keys by name, typed. A key of another type
// than the one asked for (a changed or hostile event list: a string where
// a number goes) reads as absent and is counted, so no table takes a value
// of the wrong kind and the index's meta says how often it happened. A key
// the event does not have reads as absent and is not counted: builds add
// and drop keys.
#ifndef GEM_CORE_CS2_EVENT_KEYS_H_
#define GEM_CORE_CS2_EVENT_KEYS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/events/events.h"
#include "core/events/match_rows.h"

namespace gem::cs2 {

class EventKeys {
 public:
  static const GameEventKey* Find(const GameEvent& e, std::string_view name);

  // Integers: int, uint and bool keys (a bool is 0 or 1).
  std::optional<int64_t> Int(const GameEvent& e, std::string_view name);
  // Reals: float keys, and integer ones as reals.
  std::optional<double> Real(const GameEvent& e, std::string_view name);
  // Text: string keys; the view points into the event.
  std::optional<std::string_view> Text(const GameEvent& e, std::string_view name);

  // The same as cells (NULL when absent or of the wrong type).
  MatchValue IntCell(const GameEvent& e, std::string_view name);
  MatchValue RealCell(const GameEvent& e, std::string_view name);
  MatchValue TextCell(const GameEvent& e, std::string_view name);

  uint64_t wrong_types() const { return wrong_types_; }

 private:
  uint64_t wrong_types_ = 0;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_EVENT_KEYS_H_

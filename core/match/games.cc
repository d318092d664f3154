#include "core/match/games.h"

#include <iterator>

#include "core/cs2/match_module.h"
#include "core/deadlock/match_module.h"
#include "core/dota/match_module.h"

namespace gem::match {
namespace {

struct GameEntry {
  const char* name;     // as meta.game says it
  const char* display;  // as people say it
  bool (*recognizes)(const ReplayHeader&);
  std::unique_ptr<GameModule> (*create)();
};

// In the order headers are tried.
const GameEntry kGames[] = {
    {"dota2", "Dota 2", dota::IsReplayOf, dota::NewMatchModule},
    {"cs2", "CS2", cs2::IsReplayOf, cs2::NewMatchModule},
    {"deadlock", "Deadlock", deadlock::IsReplayOf, deadlock::NewMatchModule},
};

}  // namespace

std::string GameOf(const ReplayHeader& header) {
  for (const GameEntry& g : kGames) {
    if (g.recognizes(header)) return g.name;
  }
  return header.game;
}

std::unique_ptr<GameModule> CreateGameModule(std::string_view game) {
  for (const GameEntry& g : kGames) {
    if (game == g.name) return g.create();
  }
  return nullptr;
}

std::vector<MatchColumn> TimelineColumnsFor(std::string_view game) {
  std::vector<MatchColumn> columns(std::begin(kTimelineCommonColumns),
                                   std::end(kTimelineCommonColumns));
  if (std::unique_ptr<GameModule> m = CreateGameModule(game)) {
    for (const MatchColumn& c : m->extra_columns()) columns.push_back(c);
  }
  return columns;
}

GameSchema SchemaFor(std::string_view game) {
  std::unique_ptr<GameModule> m = CreateGameModule(game);
  return m == nullptr ? GameSchema() : m->schema();
}

std::string KnownGames() {
  std::string out;
  const size_t n = std::size(kGames);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n ? " and " : ", ";
    out += kGames[i].display;
  }
  return out;
}

}  // namespace gem::match

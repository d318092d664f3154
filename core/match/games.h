// The games gem knows, registered in one place (games.cc): each game's
// name, how its replays are recognised, and its module (game_module.h).
// Nothing else in the parser, the indexer or the extension names a game.
#ifndef GEM_CORE_MATCH_GAMES_H_
#define GEM_CORE_MATCH_GAMES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/events/events.h"
#include "core/match/game_module.h"
#include "core/events/match_rows.h"
#include "core/events/table_spec.h"

namespace gem::match {

// The game a replay's header names ("dota2", "cs2", "deadlock"), or the
// header's own word for a game gem does not know.
std::string GameOf(const ReplayHeader& header);

// The module of `game`; null for a game gem does not know.
std::unique_ptr<GameModule> CreateGameModule(std::string_view game);

// Every timeline column of `game`'s index, the common ones first.
std::vector<MatchColumn> TimelineColumnsFor(std::string_view game);
// The tables `game`'s module writes (none for a game gem does not know).
GameSchema SchemaFor(std::string_view game);

// The games known, as people name them ("Dota 2, CS2 and Deadlock").
std::string KnownGames();

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_GAMES_H_

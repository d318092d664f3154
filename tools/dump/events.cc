// gem-dump events: the replay's own game-event descriptor list, one event
// a line ("ID NAME KEY:TYPE ...", GameEventRegistry's text form), after a
// line naming the game and build. The game modules' known lists
// (core/<game>/event_lists/) are this output, kept for replays that lack
// their own list.
#include <fmt/core.h>

#include <string>

#include "core/util/exit_codes.h"
#include "tools/dump/commands.h"

namespace gem::dump {

int RunEvents(const Args& args) {
  if (args.size() != 1) {
    fmt::print(stderr, "usage: gem-dump events REPLAY.dem\n");
    return cli::kExitUsage;
  }
  int code = 0;
  const int parsed = ParseReplay(args[0], nullptr, [&](const Parser& p) {
    const ReplayMetadata& m = p.metadata();
    if (m.event_list != "replay") {
      fmt::print(stderr, "gem-dump: {}: the replay sends no game-event descriptor list\n",
                 args[0]);
      code = cli::kExitDataError;
      return;
    }
    fmt::print("# {} network_protocol {} build_num {}\n", m.game, m.header.network_protocol,
               m.header.build_num);
    fmt::print("{}", p.game_events().ToText());
  });
  return parsed != 0 ? parsed : code;
}

}  // namespace gem::dump

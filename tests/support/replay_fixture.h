// Parsing a fixture replay in a test.
#ifndef GEM_TESTS_REPLAY_FIXTURE_H_
#define GEM_TESTS_REPLAY_FIXTURE_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/input/mapped_file.h"
#include "core/parser/parser.h"

namespace gem::testing {

struct ParsedReplay {
  MappedFile file;
  std::unique_ptr<Parser> parser;
  Status status;
};

// Maps `path` and parses it with `sink` (may be null). `ready`, if given,
// receives the parser before parsing starts (sinks that read the parser's
// state during the parse need it). The parser stays available afterwards.
std::unique_ptr<ParsedReplay> ParseReplayFile(
    const std::string& path, Sink* sink,
    const std::function<void(const Parser*)>& ready = {});

// What the game's module counted under `name` (Parser::game_counters),
// 0 when it counted nothing by that name.
uint64_t GameCounter(const Parser& parser, std::string_view name);

}  // namespace gem::testing

#endif  // GEM_TESTS_REPLAY_FIXTURE_H_

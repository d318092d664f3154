#include "tests/support/replay_fixture.h"

namespace gem::testing {

std::unique_ptr<ParsedReplay> ParseReplayFile(
    const std::string& path, Sink* sink,
    const std::function<void(const Parser*)>& ready) {
  auto r = std::make_unique<ParsedReplay>();
  r->status = r->file.Open(path);
  if (!r->status.ok()) return r;
  r->parser = std::make_unique<Parser>(sink);
  if (ready) ready(r->parser.get());
  r->status = r->parser->Parse(r->file.data(), r->file.size());
  return r;
}

uint64_t GameCounter(const Parser& parser, std::string_view name) {
  for (const auto& [n, count] : parser.game_counters()) {
    if (n == name) return count;
  }
  return 0;
}

}  // namespace gem::testing

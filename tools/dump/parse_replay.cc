// ParseReplay: the shared "open, parse, report" step of gem-dump's commands.
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "core/util/exit_codes.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {

// Not file-local: a store to it cannot be optimized away.
Parser* g_kept_parser = nullptr;

void KeepUntilExit(std::unique_ptr<Parser> parser) {
  delete g_kept_parser;
  g_kept_parser = parser.release();
}

int ParseReplay(const std::string& path, Sink* sink,
                const std::function<void(const Parser&)>& done) {
  ReplayInput input;
  if (int rc = cli::OpenReplay("gem-dump", path, &input); rc != 0) return rc;
  // One pass, front to back: the mapping's pages behind the parse go (kept,
  // the whole replay stayed resident: summary of the 30-minute synthetic
  // replay peaked at 67 MiB against parse's 29).
  ParserOptions options;
  options.consumed = cli::DropBehind(&input);
  auto kept = std::make_unique<Parser>(sink, options);
  Parser& parser = *kept;
  KeepUntilExit(std::move(kept));
  Status s = parser.Parse(input.source());
  if (!s.ok()) s = input.FailureOf(s);
  if (!s.ok()) {
    fmt::print(stderr, "gem-dump: {}: {}\n", path, s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  if (parser.metadata().truncated) {
    fmt::print(stderr, "gem-dump: {}: read up to the cut: {}\n", path,
               parser.metadata().truncation_reason.c_str());
  }
  done(parser);
  return cli::kExitOk;
}

}  // namespace gem::dump

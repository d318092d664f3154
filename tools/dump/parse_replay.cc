// ParseReplay: the shared "map, parse, report" step of gem-dump's commands.
#include <cstdio>
#include <string>

#include "core/exit_codes.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {

int ParseReplay(const std::string& path, Sink* sink,
                const std::function<void(const Parser&)>& done) {
  MappedFile file;
  if (int rc = cli::OpenReplay("gem-dump", path, &file); rc != 0) return rc;
  Parser parser(sink);
  Status s = parser.Parse(file.data(), file.size());
  if (!s.ok()) {
    std::fprintf(stderr, "gem-dump: %s: %s\n", path.c_str(), s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  if (parser.metadata().truncated) {
    std::fprintf(stderr, "gem-dump: %s: read up to the cut: %s\n", path.c_str(),
                 parser.metadata().truncation_reason.c_str());
  }
  done(parser);
  return cli::kExitOk;
}

}  // namespace gem::dump

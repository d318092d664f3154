#include "tools/cli/replay_file.h"

#include <fmt/core.h>

#include <cstdio>

#include "core/util/exit_codes.h"

namespace gem::cli {

int OpenReplay(const char* tool, const std::string& path, ReplayInput* input) {
  Status s = input->Open(path);
  if (!s.ok()) {
    fmt::print(stderr, "{}: {}\n", tool, s.message().c_str());
    return kExitNoInput;
  }
  return kExitOk;
}

std::function<void(uint64_t)> DropBehind(ReplayInput* input) {
  if (!input->mapped()) return nullptr;
  return [input](uint64_t at) { input->file().DropBefore(at); };
}

}  // namespace gem::cli

#include "tools/cli/replay_file.h"

#include <fmt/core.h>

#include <cstdio>

#include "core/exit_codes.h"

namespace gem::cli {

int OpenReplay(const char* tool, const std::string& path, MappedFile* file) {
  bool not_found = false;
  Status s = file->Open(path, &not_found);
  if (!s.ok()) {
    fmt::print(stderr, "{}: {}\n", tool, s.message().c_str());
    return kExitNoInput;
  }
  return kExitOk;
}

}  // namespace gem::cli

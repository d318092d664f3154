// Opening a replay for a tool: a plain, bzip2, gzip or zstd replay, a file
// or standard input ("-") (core/input/replay_input.h), with failures turned into
// the tools' exit codes and messages.
#ifndef GEM_TOOLS_CLI_REPLAY_FILE_H_
#define GEM_TOOLS_CLI_REPLAY_FILE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "core/input/replay_input.h"

namespace gem::cli {

// Opens `path`. On failure prints "<tool>: <why>" to stderr and returns the
// exit code (66); returns 0 on success.
int OpenReplay(const char* tool, const std::string& path, ReplayInput* input);

// A parse's `consumed` hook for a one-pass read: a mapped file's pages
// behind the parse leave memory (nothing to do for a stream).
std::function<void(uint64_t)> DropBehind(ReplayInput* input);

}  // namespace gem::cli

#endif  // GEM_TOOLS_CLI_REPLAY_FILE_H_

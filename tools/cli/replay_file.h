// Opening a replay for a tool: maps the file and turns failures into the
// tools' exit codes and messages.
#ifndef GEM_TOOLS_CLI_REPLAY_FILE_H_
#define GEM_TOOLS_CLI_REPLAY_FILE_H_

#include <string>

#include "core/mapped_file.h"

namespace gem::cli {

// Maps `path`. On failure prints "<tool>: <why>" to stderr and returns the
// exit code (66); returns 0 on success.
int OpenReplay(const char* tool, const std::string& path, MappedFile* file);

}  // namespace gem::cli

#endif  // GEM_TOOLS_CLI_REPLAY_FILE_H_

// Exit codes of gem's command-line programs, gem-index and the tools alike
// (BSD sysexits.h), and the mapping from a core Status to them.
#ifndef GEM_CORE_UTIL_EXIT_CODES_H_
#define GEM_CORE_UTIL_EXIT_CODES_H_

#include "core/util/status.h"

namespace gem::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 64,        // EX_USAGE: bad command line
  kExitDataError = 65,    // EX_DATAERR: not a replay, Source 1, corrupt, legacy
  kExitNoInput = 66,      // EX_NOINPUT: input missing or unreadable
  kExitSoftware = 70,     // EX_SOFTWARE: an internal error
  kExitCantCreate = 73,   // EX_CANTCREAT: cannot create the output
  kExitIoError = 74,      // EX_IOERR: an I/O error (disk full, ...)
};

// Bad data of any kind is 65; trouble reading the input 66; creating the
// output 73; writing it 74.
inline int ExitCodeFor(const Status& s) {
  switch (s.code()) {
    case Status::Code::kOk: return kExitOk;
    case Status::Code::kNotAReplay:
    case Status::Code::kUnsupported:
    case Status::Code::kCorrupt:
    case Status::Code::kTruncated: return kExitDataError;
    case Status::Code::kInputError: return kExitNoInput;
    case Status::Code::kIoError: return kExitIoError;
    case Status::Code::kCannotCreate: return kExitCantCreate;
    case Status::Code::kInvalidArgument: return kExitUsage;
  }
  return kExitSoftware;
}

}  // namespace gem::cli

#endif  // GEM_CORE_UTIL_EXIT_CODES_H_

// gem-dump's subcommands. Each takes the arguments after its name and
// returns a process exit code (sysexits); output goes to stdout, messages
// to stderr.
#ifndef GEM_TOOLS_DUMP_COMMANDS_H_
#define GEM_TOOLS_DUMP_COMMANDS_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/parser/parser.h"

namespace gem::dump {

using Args = std::vector<std::string>;

int RunSummary(const Args& args);
int RunState(const Args& args);
int RunStrings(const Args& args);
int RunCombatLog(const Args& args);
int RunParse(const Args& args);
int RunTrace(const Args& args);
int RunSchema(const Args& args);
int RunVerify(const Args& args);
int RunBroadcast(const Args& args);
int RunSplit(const Args& args);
int RunEvents(const Args& args);

// Maps and parses the replay at `path` with `sink`, then calls `done` with
// the parser (metadata and final state). Failures are reported on stderr
// as "gem-dump: ..." and turned into an exit code; a truncated replay is
// parsed up to the cut, noted on stderr, and is not a failure.
int ParseReplay(const std::string& path, Sink* sink,
                const std::function<void(const Parser&)>& done);

// Keeps a parser until the process ends, which every command does right
// after its parse: giving its many small blocks back one by one cost a
// short replay's parse about a twelfth more (the auto fixture's summary:
// 6M of 78M instructions). Held by a static, it is still reachable at
// exit, so a leak checker does not count it as lost.
void KeepUntilExit(std::unique_ptr<Parser> parser);

}  // namespace gem::dump

#endif  // GEM_TOOLS_DUMP_COMMANDS_H_

// gem-dump: a developer's window into the parser.
//
//   gem-dump summary REPLAY              key<TAB>value facts
//   gem-dump state --ticks T1,T2 REPLAY  entity states as JSON lines
//   gem-dump strings REPLAY              final string tables (TSV)
//   gem-dump combatlog REPLAY            combat log as JSON lines
//   gem-dump parse [--repeat N] REPLAY   parse only; times and peak memory
//   gem-dump trace REPLAY                frames and inner messages
//   gem-dump schema REPLAY [CLASS]       serializer fields and encodings
//   gem-dump events REPLAY               the game-event descriptor list
//   gem-dump broadcast REPLAY DIR        the replay as a recorded broadcast
#include <fmt/core.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "core/util/exit_codes.h"
#include "core/util/huge_page_heap.h"
#include "tools/dump/commands.h"

namespace gem::dump {

namespace {

void Usage(FILE* out) {
  fmt::print(out,
             "usage: gem-dump COMMAND [OPTIONS] REPLAY.dem\n"
             "\n"
             "commands:\n"
             "  summary                 key<TAB>value facts about the replay\n"
             "  state --ticks T1,T2,..  every live entity's fields after the first\n"
             "                          packet at or past each tick, then at the end\n"
             "                          (req_tick 4294967295), as JSON lines\n"
             "  strings                 the final string tables as TSV\n"
             "  combatlog               the combat log as JSON lines, names resolved\n"
             "  parse [--repeat N]      parse only: wall time per run, median, peak RSS\n"
             "  trace [--payload TYPE]  frames and inner messages, in applied order\n"
             "                          (TYPE's with their bytes in hex)\n"
             "  schema [CLASS]          serializer fields with their encodings\n"
             "  events                  the replay's game-event descriptor list, one\n"
             "                          event a line: ID NAME KEY:TYPE ...\n"
             "  verify                  checks every full packet against the state the\n"
             "                          deltas built up to it; each mismatch a line;\n"
             "                          and every packet that did not decode to its\n"
             "                          end (a decode fault); exit 0 only when all\n"
             "                          agree and none faulted (1: otherwise)\n"
             "  broadcast [--fragment-seconds S] REPLAY DIR\n"
             "                          the replay as the fragments a broadcast relay\n"
             "                          serves (DIR/sync, DIR/0/start, DIR/1/full,\n"
             "                          DIR/N/delta), which gem-index DIR reads\n"
             "  split --at T1[,T2,..] REPLAY OUT_PREFIX\n"
             "                          the replay as a recording restarted at each\n"
             "                          tick (at the next full packet) leaves it:\n"
             "                          OUT_PREFIX1.dem, OUT_PREFIX2.dem, ..., each\n"
             "                          later part with its own header and signon;\n"
             "                          gem-index PART1 PART2 ... OUT.db reads them\n");
}

}  // namespace
}  // namespace gem::dump

int main(int argc, char** argv) {
  gem::BackHeapWithHugePages();
  using namespace gem::dump;
  if (argc < 2) {
    Usage(stderr);
    return gem::cli::kExitUsage;
  }
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    Usage(stdout);
    return 0;
  }
  Args args(argv + 2, argv + argc);
  if (command == "summary") return RunSummary(args);
  if (command == "state") return RunState(args);
  if (command == "strings") return RunStrings(args);
  if (command == "combatlog") return RunCombatLog(args);
  if (command == "parse") return RunParse(args);
  if (command == "trace") return RunTrace(args);
  if (command == "schema") return RunSchema(args);
  if (command == "verify") return RunVerify(args);
  if (command == "broadcast") return RunBroadcast(args);
  if (command == "split") return RunSplit(args);
  if (command == "events") return RunEvents(args);
  fmt::print(stderr, "gem-dump: unknown command '{}'\n", command);
  Usage(stderr);
  return gem::cli::kExitUsage;
}

// Indexing one replay into one gem index file: the whole job of gem-index,
// as a library call (the command line is main.cc).
#ifndef GEM_INDEXER_INDEXER_H_
#define GEM_INDEXER_INDEXER_H_

#include <string>
#include <vector>

#include "core/events/events.h"
#include "core/util/status.h"
#include "indexer/index_writer.h"

namespace gem {
class Parser;
}  // namespace gem

namespace gem::index {

// Measured on the 60-minute synthetic replay (docs/querying.md, "State at any tick").
constexpr double kDefaultKeyframeSeconds = 240;
constexpr uint32_t kDefaultKeyframeMaxLogged = 16;

// At 441 MB (36 minutes of Deadlock) the finish stays under the parse's
// peak; at 888 MB (72) it passed it by 3.4 MB until the states went first.
constexpr uint64_t kDefaultReleaseStatesFrom = uint64_t{256} << 20;

// A followed replay that has not grown for this long is taken as ended.
constexpr double kDefaultIdleSeconds = 60;

// A live run's commit interval, in seconds of game time (docs/live.md).
constexpr double kDefaultCommitSeconds = 1;

struct IndexOptions {
  bool force = false;     // replace an existing output
  bool progress = false;  // draw progress on stderr (if it is a terminal)
  // Ticks between timeline samples; 0: one game second (the tick rate).
  int64_t timeline_step = 0;
  // Leave the match-layer tables empty (what the match layer costs is
  // measured against this).
  bool match_layer = true;
  // With the match layer, leave the game's own analyst tables empty (what
  // they cost is measured against this; see ParserOptions::game_tables).
  bool game_tables = true;
  // Keyframes every this many game seconds (0: none; then gem_state reads
  // every entity's history) and the changes a row logs per field
  // (keyframe_builder.h).
  double keyframe_seconds = kDefaultKeyframeSeconds;
  uint32_t keyframe_max_logged = kDefaultKeyframeMaxLogged;
  // The process exits once this returns (gem-index): a finished index's
  // parser and writer are left to the exit, not freed piece by piece
  // (6 ms of the 10-minute synthetic replay's 250). Not for a process
  // that indexes again.
  bool exit_after = false;
  // Replays of this many bytes and more free the parse's entity states
  // before the finish (IndexReplay says why); tests set 0 to take that
  // path on a short replay.
  uint64_t release_states_from = kDefaultReleaseStatesFrom;
  // A replay still being written: read as it grows, to its DEM_Stop, or
  // until no byte has come for idle_seconds (core/input/replay_input.h).
  bool follow = false;
  double idle_seconds = kDefaultIdleSeconds;
  // A live run (indexer/live_index.h): `out` is readable from the start,
  // committed every this many seconds of game time (0: a plain run,
  // written whole at the end). gem-index sets it for --follow and
  // broadcasts.
  double commit_seconds = 0;
};

// Where exit_after leaves them (the last ones only).
struct KeptUntilExit {
  Parser* parser = nullptr;
  IndexWriter* writer = nullptr;
};
extern KeptUntilExit g_kept_until_exit;

struct IndexReport {
  ReplayMetadata meta;
  WriterStats stats;
  double seconds = 0;        // the whole job
  double parse_seconds = 0;  // parsing, including the writer's callbacks
  // CPU seconds: the whole process's, the parsing thread's while it
  // parsed, and the checksum thread's (a mapped replay's).
  double cpu_seconds = 0;
  double parse_cpu_seconds = 0;
  double sha_cpu_seconds = 0;
  uint64_t db_bytes = 0;
};

// Parses `replay` and writes the index to `out` atomically. Status codes:
// kInputError (replay unreadable), kNotAReplay/kUnsupported/kCorrupt/
// kTruncated (bad data), kCannotCreate (output), kIoError (writing failed).
// A replay cut after its signon is indexed up to the cut: ok, with
// report->meta.truncated set. A live run (options.commit_seconds) that
// fails leaves `out` as its last commit left it, meta's live_error saying
// why; one that succeeds leaves the finished index there.
Status IndexReplay(const std::string& replay, const std::string& out,
                   const IndexOptions& options, IndexReport* report);
// A recording split over several files, in recording order, into one
// index (Parser::ParseParts; a single path is IndexReplay's). The parts
// are finished files: neither followed nor live. Parts that do not join
// (another match, the wrong order) are kInvalidArgument, naming them.
Status IndexReplay(const std::vector<std::string>& parts, const std::string& out,
                   const IndexOptions& options, IndexReport* report);

}  // namespace gem::index

#endif  // GEM_INDEXER_INDEXER_H_

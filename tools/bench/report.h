// What gem-bench measured of each replay, and how it prints it: a table
// of text or one JSON document.
#ifndef GEM_TOOLS_BENCH_REPORT_H_
#define GEM_TOOLS_BENCH_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tools/bench/keyframe_cost.h"
#include "tools/bench/live_cost.h"
#include "tools/bench/match_cost.h"
#include "tools/bench/peer.h"
#include "tools/bench/queries.h"

namespace gem::bench {

// One peer's figures on one replay.
struct PeerResult {
  std::string peer;        // Peer::name
  PeerComparison parse;    // gem-dump parse against it
  PeerComparison index;    // gem-index against it (synthetic replays; else not run)
};

struct Row {
  std::string name;
  std::string game;  // the header's ("dota2", "cs2", ...)
  std::string error;
  double bytes = 0;
  int64_t ticks = 0;
  double changes = 0, created_values = 0;
  double parse_s = 0, parse_peak_mib = 0, parse_cpu_s = 0;
  double index_s = 0, index_parse_s = 0, index_sqlite_s = 0, index_peak_mib = 0, index_cpu_s = 0;
  // Medians over the runs of index time / parse time, each run's index
  // against the parse run just before it (this machine's speed drifts).
  double index_over_parse = 0, index_cpu_over_parse = 0;
  double db_bytes = 0;
  QueryLatencies q;
  MatchLayerCost match;  // when measured
  GameTablesCost tables;  // the CS2 synthetic match: its tables' cost
  KeyframeFigures keyframes;  // when measured
  LiveCost live;              // when measured
  double bz2_bytes = 0;       // the replay as .dem.bz2, when the compressed input was measured
  std::vector<PeerResult> peers;  // with --peer: each peer that reads the replay's game
};

// The text tables: the replays, then the keyframe, match-layer and game
// tables' figures where measured.
void PrintTable(const std::vector<Row>& rows);
// Each peer's table: gem-dump parse against it, and gem-index against it.
void PrintPeerTables(const std::vector<Row>& rows);
// The JSON document's "replays" member (without the key).
std::string ReplaysJson(const std::vector<Row>& rows);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_REPORT_H_

// gem against other parsers, as whole processes on one replay.
//
// A peer is a command run as `COMMAND... FILE.dem`:
//   - a parser binary given by its path (haste-bench: a full parse, a
//     visitor that does nothing), run on every replay that is not CS2's
//     (haste reads Dota 2; a replay it cannot read is reported, with its
//     exit code);
//   - `demoparser2`, the CS2 parser (npm @laihoe/demoparser2, pinned in
//     tools/bench/peers/package-lock.json), run by node on CS2 replays in
//     its two ways (tools/bench/peers/demoparser2.js): parseTicks of the
//     props gem's CS2 timeline holds, and parseEvents(["all"]).
// gem's side is `gem-dump parse FILE.dem`, which parses with no sink as
// haste parses with a visitor that does nothing (ComparePeer), or
// gem-index writing the whole index (CompareIndexToPeer: what an index
// costs beside a parse). Runs alternate, gem then peer, after one
// unmeasured pair (the replay then in the page cache for both), and each
// figure is the median over pairs of the ratio within the pair: this
// machine's speed drifts, and a pair's two runs see the same drift.
#ifndef GEM_TOOLS_BENCH_PEER_H_
#define GEM_TOOLS_BENCH_PEER_H_

#include <string>
#include <vector>

namespace gem::bench {

struct Peer {
  std::string name;               // "haste-bench", "demoparser2 ticks"
  std::vector<std::string> argv;  // the command; the replay is appended
  bool cs2 = false;               // runs on CS2 replays only, else on the others
};

// The peers `spec` (a --peer value) names; false, with *error, when it
// names none that can run (a path that is not executable, node missing).
// `checkout` is where tools/bench/peers lies.
bool PeersFor(const std::string& spec, const std::string& checkout, std::vector<Peer>* out,
              std::string* error);

// The game a replay's header names ("dota2", "cs2", "deadlock", ...), or
// "" when it does not read as a replay.
std::string GameOf(const std::string& replay);

struct PeerComparison {
  bool ran = false;       // both parsed the replay every time
  std::string error;      // why not ("peer exited with 1", ...)
  int pairs = 0;
  double gem_s = 0, peer_s = 0;            // medians of the wall times
  double gem_cpu_s = 0, peer_cpu_s = 0;    // medians of the CPU times (all threads)
  double gem_peak_mib = 0, peer_peak_mib = 0;  // medians of the peaks
  double wall_ratio = 0;                   // gem / peer, median over pairs
  double wall_ratio_min = 0, wall_ratio_max = 0;
  double cpu_ratio = 0;                    // gem / peer, median over pairs
  double peak_ratio = 0;                   // gem / peer, median over pairs
};

PeerComparison ComparePeer(const std::string& gem_dump, const Peer& peer,
                           const std::string& replay, int pairs);
// gem-index REPLAY OUT (`out` is written and removed) against the peer.
PeerComparison CompareIndexToPeer(const std::string& gem_index, const Peer& peer,
                                  const std::string& replay, const std::string& out, int pairs);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_PEER_H_

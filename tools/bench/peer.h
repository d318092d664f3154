// gem against another parser, as whole processes on one replay.
//
// The peer is a binary run as `PEER FILE.dem` (haste-bench, say); gem's
// side is `gem-dump parse FILE.dem`, which parses with no sink as the peer
// parses with a visitor that does nothing (ComparePeer), or gem-index
// writing the whole index (CompareIndexToPeer: what an index costs beside
// the fastest parse). Runs alternate, gem then peer,
// after one unmeasured pair (the replay then in the page cache for both),
// and each figure is the median over pairs of the ratio within the pair:
// this machine's speed drifts, and a pair's two runs see the same drift.
#ifndef GEM_TOOLS_BENCH_PEER_H_
#define GEM_TOOLS_BENCH_PEER_H_

#include <string>

namespace gem::bench {

struct PeerComparison {
  bool ran = false;       // both parsed the replay every time
  std::string error;      // why not ("peer exited with 1", ...)
  int pairs = 0;
  double gem_s = 0, peer_s = 0;            // medians of the wall times
  double gem_peak_mib = 0, peer_peak_mib = 0;  // medians of the peaks
  double wall_ratio = 0;                   // gem / peer, median over pairs
  double wall_ratio_min = 0, wall_ratio_max = 0;
  double peak_ratio = 0;                   // gem / peer, median over pairs
};

PeerComparison ComparePeer(const std::string& gem_dump, const std::string& peer,
                           const std::string& replay, int pairs);
// gem-index REPLAY OUT (`out` is written and removed) against the peer.
PeerComparison CompareIndexToPeer(const std::string& gem_index, const std::string& peer,
                                  const std::string& replay, const std::string& out, int pairs);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_PEER_H_

#include "tools/bench/peer.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "tools/bench/measure.h"

namespace gem::bench {

namespace {

PeerComparison Compare(const std::vector<std::string>& gem_argv, const std::string& what,
                       const std::string& peer, const std::string& replay, int pairs) {
  PeerComparison c;
  const std::vector<std::string> peer_argv = {peer, replay};
  std::vector<double> gem_s, peer_s, gem_peak, peer_peak, wall, peak;
  for (int i = -1; i < pairs; ++i) {  // pair -1 warms the page cache
    const ChildRun g = RunChild(gem_argv);
    if (g.exit_code != 0) {
      c.error = what + " exited with " + std::to_string(g.exit_code);
      return c;
    }
    const ChildRun p = RunChild(peer_argv);
    if (p.exit_code != 0) {
      c.error = "peer exited with " + std::to_string(p.exit_code);
      return c;
    }
    if (i < 0) continue;
    gem_s.push_back(g.seconds);
    peer_s.push_back(p.seconds);
    gem_peak.push_back(g.peak_rss_kib / 1024.0);
    peer_peak.push_back(p.peak_rss_kib / 1024.0);
    wall.push_back(g.seconds / std::max(1e-9, p.seconds));
    peak.push_back(static_cast<double>(g.peak_rss_kib) /
                   static_cast<double>(std::max<long>(1, p.peak_rss_kib)));
  }
  c.ran = !wall.empty();
  c.pairs = static_cast<int>(wall.size());
  if (!c.ran) return c;
  c.gem_s = Median(gem_s);
  c.peer_s = Median(peer_s);
  c.gem_peak_mib = Median(gem_peak);
  c.peer_peak_mib = Median(peer_peak);
  c.wall_ratio = Median(wall);
  c.wall_ratio_min = *std::min_element(wall.begin(), wall.end());
  c.wall_ratio_max = *std::max_element(wall.begin(), wall.end());
  c.peak_ratio = Median(peak);
  return c;
}

}  // namespace

PeerComparison ComparePeer(const std::string& gem_dump, const std::string& peer,
                           const std::string& replay, int pairs) {
  return Compare({gem_dump, "parse", replay}, "gem-dump parse", peer, replay, pairs);
}

PeerComparison CompareIndexToPeer(const std::string& gem_index, const std::string& peer,
                                  const std::string& replay, const std::string& out, int pairs) {
  PeerComparison c =
      Compare({gem_index, "--force", "--quiet", replay, out}, "gem-index", peer, replay, pairs);
  std::remove(out.c_str());
  return c;
}

}  // namespace gem::bench

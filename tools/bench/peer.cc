#include "tools/bench/peer.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/parser/parser.h"
#include "core/input/replay_input.h"
#include "tools/bench/measure.h"

namespace gem::bench {

namespace {

// The path of `program` on $PATH, or "" when there is none.
std::string OnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (size_t p = 0; p <= dirs.size();) {
    size_t e = dirs.find(':', p);
    if (e == std::string::npos) e = dirs.size();
    const std::string candidate = (e > p ? dirs.substr(p, e - p) : ".") + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    p = e + 1;
  }
  return "";
}

PeerComparison Compare(const std::vector<std::string>& gem_argv, const std::string& what,
                       const Peer& peer, const std::string& replay, int pairs) {
  PeerComparison c;
  std::vector<std::string> peer_argv = peer.argv;
  peer_argv.push_back(replay);
  std::vector<double> gem_s, peer_s, gem_cpu, peer_cpu, gem_peak, peer_peak, wall, cpu, peak;
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
    gem_cpu.push_back(g.cpu_seconds);
    peer_cpu.push_back(p.cpu_seconds);
    gem_peak.push_back(g.peak_rss_kib / 1024.0);
    peer_peak.push_back(p.peak_rss_kib / 1024.0);
    wall.push_back(g.seconds / std::max(1e-9, p.seconds));
    cpu.push_back(g.cpu_seconds / std::max(1e-9, p.cpu_seconds));
    peak.push_back(static_cast<double>(g.peak_rss_kib) /
                   static_cast<double>(std::max<long>(1, p.peak_rss_kib)));
  }
  c.ran = !wall.empty();
  c.pairs = static_cast<int>(wall.size());
  if (!c.ran) return c;
  c.gem_s = Median(gem_s);
  c.peer_s = Median(peer_s);
  c.gem_cpu_s = Median(gem_cpu);
  c.peer_cpu_s = Median(peer_cpu);
  c.gem_peak_mib = Median(gem_peak);
  c.peer_peak_mib = Median(peer_peak);
  c.wall_ratio = Median(wall);
  c.wall_ratio_min = *std::min_element(wall.begin(), wall.end());
  c.wall_ratio_max = *std::max_element(wall.begin(), wall.end());
  c.cpu_ratio = Median(cpu);
  c.peak_ratio = Median(peak);
  return c;
}

}  // namespace

bool PeersFor(const std::string& spec, const std::string& checkout, std::vector<Peer>* out,
              std::string* error) {
  if (spec == "demoparser2") {
    const std::string node = OnPath("node");
    if (node.empty()) {
      *error = "demoparser2 runs under node, which is not on PATH";
      return false;
    }
    const std::string script = checkout + "/tools/bench/peers/demoparser2.js";
    if (access(script.c_str(), R_OK) != 0) {
      *error = "cannot read " + script;
      return false;
    }
    for (const char* mode : {"ticks", "events"}) {
      out->push_back({std::string("demoparser2 ") + mode, {node, script, mode}, true});
    }
    return true;
  }
  if (access(spec.c_str(), X_OK) != 0) {
    *error = "cannot run the peer " + spec;
    return false;
  }
  out->push_back({spec.substr(spec.rfind('/') + 1), {spec}, false});
  return true;
}

std::string GameOf(const std::string& replay) {
  ReplayInput input;
  if (!input.Open(replay).ok()) return "";
  ReplayHeader header;
  std::string game;
  if (!Parser::ReadHeader(input.source(), &header, &game).ok()) return "";
  return game;
}

PeerComparison ComparePeer(const std::string& gem_dump, const Peer& peer,
                           const std::string& replay, int pairs) {
  return Compare({gem_dump, "parse", replay}, "gem-dump parse", peer, replay, pairs);
}

PeerComparison CompareIndexToPeer(const std::string& gem_index, const Peer& peer,
                                  const std::string& replay, const std::string& out, int pairs) {
  PeerComparison c =
      Compare({gem_index, "--force", "--quiet", replay, out}, "gem-index", peer, replay, pairs);
  std::remove(out.c_str());
  return c;
}

}  // namespace gem::bench

// What reading a compressed replay costs gem-index: the same replay as a
// plain .dem and as .dem.bz2, .dem.gz and .dem.zst (written once into the
// work directory), indexed in rounds that alternate the four; each ratio
// pairs a run with the plain run of its round (this machine's speed
// drifts). Decompression runs on its own thread beside the parse.
#ifndef GEM_TOOLS_BENCH_COMPRESSION_COST_H_
#define GEM_TOOLS_BENCH_COMPRESSION_COST_H_

#include <cstdio>
#include <string>
#include <vector>

namespace gem::bench {

struct FormatCost {
  std::string format;  // "plain", "bzip2", "gzip", "zstd"
  double mb = 0;       // the file's size
  double wall_s = 0, cpu_s = 0, peak_mib = 0;  // medians, peak the largest
  double wall_ratio = 0, cpu_ratio = 0;        // over the plain file, medians
};

struct CompressionCost {
  bool ok = false;
  std::string error;
  std::string replay;
  int rounds = 0;
  std::vector<FormatCost> formats;  // plain first
};

CompressionCost MeasureCompression(const std::string& gem_index, const std::string& replay,
                                   const std::string& work, int runs);

void PrintCompressionCost(const CompressionCost& c, std::FILE* out);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_COMPRESSION_COST_H_

#include "tools/bench/compression_cost.h"

#include <bzlib.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "tools/bench/measure.h"

namespace gem::bench {
namespace {

// The replay compressed as the usual tools do by default (bzip2 -9,
// gzip -6, zstd -3); empty on failure.
std::string Compress(const std::string& format, const std::string& in) {
  std::string out;
  if (format == "bzip2") {
    unsigned int n = static_cast<unsigned int>(in.size() + in.size() / 100 + 600);
    out.resize(n);
    if (BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(in.data()),
                                 static_cast<unsigned int>(in.size()), 9, 0, 0) != BZ_OK) {
      return "";
    }
    out.resize(n);
  } else if (format == "gzip") {
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return "";
    out.resize(deflateBound(&z, in.size()) + 32);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const bool done = deflate(&z, Z_FINISH) == Z_STREAM_END;
    out.resize(out.size() - z.avail_out);
    deflateEnd(&z);
    if (!done) return "";
  } else {
    out.resize(ZSTD_compressBound(in.size()));
    const size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
    if (ZSTD_isError(n)) return "";
    out.resize(n);
  }
  return out;
}

double FileMb(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? st.st_size / 1e6 : 0;
}

}  // namespace

CompressionCost MeasureCompression(const std::string& gem_index, const std::string& replay,
                                   const std::string& work, int runs) {
  CompressionCost c;
  c.replay = replay.substr(replay.rfind('/') + 1);
  const std::vector<std::string> formats = {"plain", "bzip2", "gzip", "zstd"};
  const std::vector<std::string> suffix = {"", ".bz2", ".gz", ".zst"};
  std::vector<std::string> paths;
  std::string plain;
  for (size_t f = 0; f < formats.size(); ++f) {
    const std::string path = work + "/" + c.replay + suffix[f];
    paths.push_back(f == 0 ? replay : path);
    if (f == 0 || FileMb(path) > 0) continue;
    if (plain.empty()) {
      std::ifstream in(replay, std::ios::binary);
      plain.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::string packed = Compress(formats[f], plain);
    std::ofstream out(path, std::ios::binary);
    if (packed.empty() || !out.write(packed.data(), static_cast<std::streamsize>(packed.size()))) {
      c.error = "could not write " + path;
      return c;
    }
  }
  std::vector<std::vector<double>> wall(formats.size()), cpu(formats.size()),
      wall_ratio(formats.size()), cpu_ratio(formats.size());
  std::vector<double> peak(formats.size(), 0);
  const std::string db = work + "/compression.db";
  for (int round = 0; round < runs + 1; ++round) {  // the first round warms up
    ChildRun plain_run;
    for (size_t f = 0; f < formats.size(); ++f) {
      const ChildRun r = RunChild({gem_index, "--force", "--quiet", paths[f], db});
      if (r.exit_code != 0) {
        c.error = "gem-index exited with " + std::to_string(r.exit_code) + " on " + paths[f];
        return c;
      }
      if (f == 0) plain_run = r;
      if (round == 0) continue;
      wall[f].push_back(r.seconds);
      cpu[f].push_back(r.cpu_seconds);
      wall_ratio[f].push_back(r.seconds / std::max(1e-9, plain_run.seconds));
      cpu_ratio[f].push_back(r.cpu_seconds / std::max(1e-9, plain_run.cpu_seconds));
      peak[f] = std::max(peak[f], r.peak_rss_kib / 1024.0);
    }
  }
  std::remove(db.c_str());
  for (size_t f = 0; f < formats.size(); ++f) {
    c.formats.push_back({formats[f], FileMb(paths[f]), Median(wall[f]), Median(cpu[f]), peak[f],
                         Median(wall_ratio[f]), Median(cpu_ratio[f])});
  }
  c.rounds = runs;
  c.ok = true;
  return c;
}

void PrintCompressionCost(const CompressionCost& c, std::FILE* out) {
  if (!c.ok) {
    fmt::print(out, "\ncompressed input ({}): {}\n", c.replay, c.error);
    return;
  }
  fmt::print(out,
             "\ncompressed input ({}: gem-index on the plain file and on each compression, "
             "{} alternating rounds):\n",
             c.replay, c.rounds);
  fmt::print(out, "{:<7} {:>8} {:>8} {:>7} {:>8} {:>7} {:>7}\n", "format", "MB", "wall_s",
             "wall_x", "cpu_s", "cpu_x", "peakMB");
  for (const FormatCost& f : c.formats) {
    fmt::print(out, "{:<7} {:>8.2f} {:>8.3f} {:>7.3f} {:>8.3f} {:>7.3f} {:>7.1f}\n", f.format,
               f.mb, f.wall_s, f.wall_ratio, f.cpu_s, f.cpu_ratio, f.peak_mib);
  }
}

}  // namespace gem::bench

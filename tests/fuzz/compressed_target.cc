// The compressed front end (core/input/replay_input.h): bytes as a file gem-index
// would open, its compression told by its magic, decoded on the reading
// thread and parsed, then the stream's own failure looked for as gem-index
// does. The first byte chooses whether the rest goes as it is (0) or is
// first compressed by bzip2 (1), gzip (2) or zstd (3), so that the fuzzer
// reaches the replay through each decoder as well as each decoder's own
// damage.
#include <bzlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "core/parser/parser.h"
#include "core/input/replay_input.h"
#include "tests/fuzz/targets.h"

namespace gem::fuzz {
namespace {

std::vector<uint8_t> Compressed(int how, const uint8_t* data, size_t size) {
  std::vector<uint8_t> out;
  if (how == 1) {
    unsigned int n = static_cast<unsigned int>(size + size / 100 + 600);
    out.resize(n);
    if (BZ2_bzBuffToBuffCompress(reinterpret_cast<char*>(out.data()), &n,
                                 reinterpret_cast<char*>(const_cast<uint8_t*>(data)),
                                 static_cast<unsigned int>(size), 1, 0, 0) != BZ_OK) {
      n = 0;
    }
    out.resize(n);
  } else if (how == 2) {
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return out;
    out.resize(deflateBound(&z, size) + 32);
    z.next_in = const_cast<Bytef*>(data);
    z.avail_in = static_cast<uInt>(size);
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(out.size() - z.avail_out);
    deflateEnd(&z);
  } else {
    out.resize(ZSTD_compressBound(size));
    const size_t n = ZSTD_compress(out.data(), out.size(), data, size, 1);
    out.resize(ZSTD_isError(n) ? 0 : n);
  }
  return out;
}

}  // namespace

int CompressedReplay(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int how = data[0] & 3;
  std::vector<uint8_t> bytes = how == 0 ? std::vector<uint8_t>(data + 1, data + size)
                                        : Compressed(how, data + 1, size - 1);
  // A file in memory, opened by its /proc path as gem-index opens a file.
  const int fd = memfd_create("gem-fuzz", MFD_CLOEXEC);
  if (fd < 0) return 0;
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  {
    ReplayInput input;
    if (input.Open("/proc/self/fd/" + std::to_string(fd)).ok()) {
      Parser parser(nullptr);
      if (!parser.Parse(input.source()).ok()) static_cast<void>(input.StreamFailure(1u << 20));
    }
  }
  close(fd);
  return 0;
}

}  // namespace gem::fuzz

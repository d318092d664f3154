// A recorded broadcast from bytes (core/input/broadcast_source.h). The first
// byte chooses the form: even, fragments from the rest (a fixed sync:
// protocol 5, start at fragment 0, full and deltas from fragment 1; then
// the fragments in order, 0/start, 1/full, 1/delta, 2/delta, ..., each a
// 3-byte little-endian length and that many bytes, a length past the input
// taking what is left), read as gem-index reads a directory; odd, the rest
// as a broadcast saved as one file (core/input/broadcast_file.h), opened as
// gem-index opens a file. Either is read as a replay and parsed: the
// relay's framing, the splitting of a saved file, the conversion to
// replay frames, and the parse behind it.
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "core/input/broadcast_source.h"
#include "core/parser/parser.h"
#include "core/input/replay_input.h"
#include "tests/fuzz/targets.h"

namespace gem::fuzz {
namespace {

class MemoryFragments : public FragmentStore {
 public:
  explicit MemoryFragments(std::vector<std::string> fragments)
      : fragments_(std::move(fragments)) {}
  Status Sync(std::string* json) override {
    *json = R"({"tick":0,"fragment":1,"signup_fragment":0,"tps":30,"protocol":5})";
    return Status::Ok();
  }
  Status Fetch(Kind kind, int64_t n, std::string* body, bool* missing) override {
    // 0/start is fragments_[0], 1/full [1], n/delta [n + 1].
    const int64_t at = kind == Kind::kStart ? (n == 0 ? 0 : -1)
                       : kind == Kind::kFull ? (n == 1 ? 1 : -1)
                                             : n + 1;
    *missing = at < 0 || at >= static_cast<int64_t>(fragments_.size());
    if (!*missing) *body = fragments_[static_cast<size_t>(at)];
    return Status::Ok();
  }
  bool HasDeltaAfter(int64_t n) override {
    return n + 2 < static_cast<int64_t>(fragments_.size());
  }

 private:
  std::vector<std::string> fragments_;
};

// The input as a file gem-index opens (by its /proc path), parsed.
void ReadSavedBroadcast(const uint8_t* data, size_t size) {
  const int fd = memfd_create("gem-fuzz-broadcast", MFD_CLOEXEC);
  if (fd < 0) return;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  {
    ReplayInput input;
    if (input.Open("/proc/self/fd/" + std::to_string(fd)).ok() && input.broadcast()) {
      Parser parser(nullptr);
      static_cast<void>(parser.Parse(input.source()));
    }
  }
  close(fd);
}

}  // namespace

int BroadcastFragments(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] & 1) {
    ReadSavedBroadcast(data + 1, size - 1);
    return 0;
  }
  ++data;
  --size;
  std::vector<std::string> fragments;
  size_t pos = 0;
  while (pos + 3 <= size && fragments.size() < 64) {
    const size_t n = data[pos] | size_t{data[pos + 1]} << 8 | size_t{data[pos + 2]} << 16;
    pos += 3;
    const size_t take = n < size - pos ? n : size - pos;
    fragments.emplace_back(reinterpret_cast<const char*>(data + pos), take);
    pos += take;
  }
  std::unique_ptr<BroadcastSource> source;
  if (!BroadcastSource::Open(std::make_unique<MemoryFragments>(std::move(fragments)), "fuzz",
                             nullptr, nullptr, &source)
           .ok()) {
    return 0;
  }
  Parser parser(nullptr);
  static_cast<void>(parser.Parse(source.get()));
  return 0;
}

}  // namespace gem::fuzz

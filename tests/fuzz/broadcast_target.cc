// A recorded broadcast from bytes (core/broadcast_source.h): a fixed sync
// (protocol 5, start at fragment 0, full and deltas from fragment 1), then
// the fragments in order (0/start, 1/full, 1/delta, 2/delta, ...), each a
// 3-byte little-endian length and that many bytes (a length past the
// input takes what is left). Read as a replay and parsed, as gem-index
// reads a recorded broadcast's directory: the relay's framing, the
// conversion to replay frames, and the parse behind it.
#include <string>
#include <vector>

#include "core/broadcast_source.h"
#include "core/parser.h"
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

}  // namespace

int BroadcastFragments(const uint8_t* data, size_t size) {
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

#include "indexer/quantizer_registry.h"

#include <cstring>

namespace gem::index {
namespace {

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

}  // namespace

uint16_t QuantizerRegistry::Intern(const FloatQuantizer& q) {
  const std::array<uint32_t, 4> key = {Bits(q.low), Bits(q.high), Bits(q.mul), q.bits};
  auto it = ids_.find(key);
  if (it != ids_.end()) return it->second;
  if (store_.size() >= kCapacity) return kNone;
  store_.push_back(q);  // within the reserve: earlier entries stay put
  const auto id = static_cast<uint16_t>(store_.size());
  ids_.emplace(key, id);
  return id;
}

}  // namespace gem::index

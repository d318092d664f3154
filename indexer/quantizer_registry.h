// QuantizerRegistry: how the replay's quantized float fields decode
// (FloatQuantizer), each distinct one kept once and named by a 16-bit id,
// so that a held change (change_store.h) carries two bytes instead of an
// eight-byte pointer: 32-byte changes instead of 40 through the pipeline's
// batches and the entity buffers, millions of them.
//
// Threads: ids are given on the parser's thread and read on the change
// store's. The storage is reserved whole at construction and never moves;
// an id reaches the reader only inside a batch handed over under the
// pipeline's lock, after its entry was written.
#ifndef GEM_INDEXER_QUANTIZER_REGISTRY_H_
#define GEM_INDEXER_QUANTIZER_REGISTRY_H_

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "core/codec/chunk_codec.h"

namespace gem::index {

class QuantizerRegistry {
 public:
  static constexpr uint16_t kNone = 0;        // not a quantized float
  static constexpr size_t kCapacity = 65535;  // ids 1 .. 65535

  // Reserves kCapacity entries (untouched pages cost no memory).
  QuantizerRegistry() { store_.reserve(kCapacity); }
  QuantizerRegistry(const QuantizerRegistry&) = delete;
  QuantizerRegistry& operator=(const QuantizerRegistry&) = delete;

  // The id of `q`, new or the one an equal quantizer got; kNone once full
  // (the chunk codec then leaves the unit modes out for that field: other
  // bytes, the same values).
  uint16_t Intern(const FloatQuantizer& q);
  // The quantizer of `id`; null for kNone.
  const FloatQuantizer* Get(uint16_t id) const {
    return id == kNone ? nullptr : store_.data() + (id - 1);
  }
  size_t size() const { return store_.size(); }

 private:
  std::vector<FloatQuantizer> store_;
  std::map<std::array<uint32_t, 4>, uint16_t> ids_;  // bit patterns, bits
};

}  // namespace gem::index

#endif  // GEM_INDEXER_QUANTIZER_REGISTRY_H_

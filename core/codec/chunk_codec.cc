#include "core/codec/chunk_codec.h"

#include <cstring>

namespace gem {
namespace {

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view data, size_t* pos, uint64_t* out) {
  uint64_t result = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (*pos >= data.size()) return false;
    uint8_t b = static_cast<uint8_t>(data[(*pos)++]);
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = result;
      return true;
    }
  }
  return false;
}

uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

uint32_t FloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float BitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// The difference of two float bit patterns as a signed 32-bit number:
// nearby floats of one sign have nearby patterns.
uint64_t FloatDelta(uint32_t now, uint32_t prev) {
  return ZigZag(static_cast<int32_t>(now - prev));
}

}  // namespace

void ChunkWriter::Add(int64_t tick, const Value& value) {
  if (count_ == 0) {
    kind_ = value.kind;
    first_tick_ = tick;
    prev_ = 0;
    std::memset(prev_vec_, 0, sizeof prev_vec_);
  } else {
    PutVarint(static_cast<uint64_t>(tick - last_tick_), &ticks_);
  }
  last_tick_ = tick;
  ++count_;
  switch (value.kind) {
    case ValueKind::kNone:
      break;
    case ValueKind::kBool:
      values_.push_back(value.b ? 1 : 0);
      break;
    case ValueKind::kInt:
    case ValueKind::kUint:
      // The same 64 bits either way; the difference wraps.
      PutVarint(ZigZag(static_cast<int64_t>(value.u - prev_)), &values_);
      prev_ = value.u;
      break;
    case ValueKind::kFloat: {
      uint32_t bits = FloatBits(value.f);
      PutVarint(FloatDelta(bits, static_cast<uint32_t>(prev_)), &values_);
      prev_ = bits;
      break;
    }
    case ValueKind::kVector:
      values_.push_back(static_cast<char>(value.count));
      for (int k = 0; k < value.count && k < 4; ++k) {
        uint32_t bits = FloatBits(value.v[k]);
        PutVarint(FloatDelta(bits, prev_vec_[k]), &values_);
        prev_vec_[k] = bits;
      }
      break;
    case ValueKind::kString:
      PutVarint(value.s.size(), &values_);
      values_.append(value.s);
      break;
  }
}

void ChunkWriter::Finish(std::string* out) {
  out->push_back(static_cast<char>(kChunkFormatVersion));
  PutVarint(count_, out);
  out->push_back(static_cast<char>(kind_));
  out->append(ticks_);
  out->append(values_);
  ticks_.clear();
  values_.clear();
  count_ = 0;
}

bool ChunkReader::Open(std::string_view blob, int64_t first_tick) {
  *this = ChunkReader();
  blob_ = blob;
  size_t pos = 1;
  uint64_t count;
  if (blob.empty() || static_cast<uint8_t>(blob[0]) != kChunkFormatVersion ||
      !GetVarint(blob, &pos, &count) || count == 0 || count > blob.size() ||
      pos >= blob.size()) {
    return ok_ = false;
  }
  uint8_t kind = static_cast<uint8_t>(blob[pos++]);
  if (kind > static_cast<uint8_t>(ValueKind::kString)) return ok_ = false;
  kind_ = static_cast<ValueKind>(kind);
  count_ = static_cast<size_t>(count);
  tick_pos_ = pos;
  for (size_t i = 1; i < count_; ++i) {  // the values follow the deltas
    uint64_t ignored;
    if (!GetVarint(blob, &pos, &ignored)) return ok_ = false;
  }
  value_pos_ = pos;
  tick_ = first_tick;
  return true;
}

bool ChunkReader::Next(int64_t* tick, Value* value) {
  if (!ok_ || index_ >= count_) return false;
  if (index_ > 0) {
    uint64_t delta;
    if (!GetVarint(blob_, &tick_pos_, &delta)) return ok_ = false;
    tick_ += static_cast<int64_t>(delta);
  }
  *tick = tick_;
  uint64_t raw;
  switch (kind_) {
    case ValueKind::kNone:
      *value = Value::None();
      break;
    case ValueKind::kBool:
      if (value_pos_ >= blob_.size()) return ok_ = false;
      *value = Value::Bool(blob_[value_pos_++] != 0);
      break;
    case ValueKind::kInt:
      if (!GetVarint(blob_, &value_pos_, &raw)) return ok_ = false;
      prev_ += static_cast<uint64_t>(UnZigZag(raw));
      *value = Value::Int(static_cast<int64_t>(prev_));
      break;
    case ValueKind::kUint:
      if (!GetVarint(blob_, &value_pos_, &raw)) return ok_ = false;
      prev_ += static_cast<uint64_t>(UnZigZag(raw));
      *value = Value::Uint(prev_);
      break;
    case ValueKind::kFloat:
      if (!GetVarint(blob_, &value_pos_, &raw)) return ok_ = false;
      prev_ = static_cast<uint32_t>(prev_ + static_cast<uint64_t>(UnZigZag(raw)));
      *value = Value::Float(BitsFloat(static_cast<uint32_t>(prev_)));
      break;
    case ValueKind::kVector: {
      if (value_pos_ >= blob_.size()) return ok_ = false;
      uint8_t n = static_cast<uint8_t>(blob_[value_pos_++]);
      if (n > 4) return ok_ = false;
      float v[4] = {0, 0, 0, 0};
      for (int k = 0; k < n; ++k) {
        if (!GetVarint(blob_, &value_pos_, &raw)) return ok_ = false;
        prev_vec_[k] += static_cast<uint32_t>(UnZigZag(raw));
        v[k] = BitsFloat(prev_vec_[k]);
      }
      *value = Value::Vector(v, n);
      break;
    }
    case ValueKind::kString:
      if (!GetVarint(blob_, &value_pos_, &raw) || raw > blob_.size() - value_pos_) {
        return ok_ = false;
      }
      *value = Value::String(blob_.substr(value_pos_, raw));
      value_pos_ += raw;
      break;
  }
  ++index_;
  return true;
}

}  // namespace gem

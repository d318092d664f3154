#include "core/codec/keyframe_block.h"

#include <zstd.h>

#include <algorithm>

#include "core/codec/varint.h"

namespace gem {

KeyframeCompressor::KeyframeCompressor() : cctx_(ZSTD_createCCtx()) {
  // No checksum (the block is read whole, under SQLite's own page checks),
  // no content size (the block stores the body's length before the frame).
  ok_ = cctx_ != nullptr &&
        !ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, kLevel)) &&
        !ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 0)) &&
        !ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_contentSizeFlag, 0));
}

KeyframeCompressor::~KeyframeCompressor() { ZSTD_freeCCtx(cctx_); }

bool KeyframeCompressor::Compress(std::string_view body, std::string* out) {
  if (!ok_) return false;
  const size_t head = out->size();
  out->resize(head + ZSTD_compressBound(body.size()));
  const size_t n = ZSTD_compress2(cctx_, out->data() + head, out->size() - head, body.data(),
                                  body.size());
  if (ZSTD_isError(n)) {
    out->resize(head);
    return false;
  }
  out->resize(head + n);
  return true;
}

KeyframeDecompressor::KeyframeDecompressor() : dctx_(ZSTD_createDCtx()) {}

KeyframeDecompressor::~KeyframeDecompressor() { ZSTD_freeDCtx(dctx_); }

bool KeyframeDecompressor::Decompress(std::string_view in, size_t size, std::string* out) {
  if (dctx_ == nullptr) return false;
  // Exactly one frame: the one-shot call would go on into a second one, so
  // the first frame's extent is found from its block headers first.
  const size_t frame = ZSTD_findFrameCompressedSize(in.data(), in.size());
  if (ZSTD_isError(frame) || frame != in.size()) return false;
  out->resize(size);
  const size_t got = ZSTD_decompressDCtx(dctx_, out->data(), size, in.data(), in.size());
  return !ZSTD_isError(got) && got == size;
}

bool KeyframeBlockWriter::Add(int64_t entity, std::string_view row) {
  if (count_ == 0) {
    first_entity_ = last_entity_ = entity;
  } else if (entity <= last_entity_) {
    return false;
  }
  PutVarint(static_cast<uint64_t>(entity - last_entity_), &directory_);
  PutVarint(row.size(), &directory_);
  rows_.append(row);
  last_entity_ = entity;
  ++count_;
  return true;
}

bool KeyframeBlockWriter::Finish(KeyframeCompressor* compressor, std::string* out) {
  body_.clear();
  PutVarint(count_, &body_);
  body_.append(directory_);
  body_.append(rows_);
  out->clear();
  out->push_back(static_cast<char>(kKeyframeBlockVersion));
  out->push_back(static_cast<char>(kKeyframeBlockCompressed));
  PutVarint(body_.size(), out);
  bool ok = compressor->Compress(body_, out);
  if (ok && out->size() >= 2 + body_.size()) {
    // Incompressible: stored as it is.
    out->resize(2);
    (*out)[1] = 0;
    out->append(body_);
  }
  count_ = 0;
  directory_.clear();
  rows_.clear();
  return ok;
}

bool KeyframeBlock::Open(std::string_view blob, int64_t first_entity,
                         KeyframeDecompressor* decompressor) {
  entries_.clear();
  body_.clear();
  if (blob.size() < 2 || static_cast<uint8_t>(blob[0]) != kKeyframeBlockVersion) return false;
  const uint8_t flags = static_cast<uint8_t>(blob[1]);
  if ((flags & ~kKeyframeBlockCompressed) != 0) return false;
  size_t pos = 2;
  if ((flags & kKeyframeBlockCompressed) != 0) {
    // A zstd frame expands at most 32768 to 1 (a 4-byte run-length block of
    // 128 KiB): a larger claim is damage, found before anything is
    // allocated.
    uint64_t n;
    if (!GetVarint(blob, &pos, &n) || n > kMaxKeyframeBody || n / 32768 > blob.size() - pos ||
        !decompressor->Decompress(blob.substr(pos), static_cast<size_t>(n), &body_)) {
      body_.clear();
      return false;
    }
  } else {
    if (blob.size() - pos > kMaxKeyframeBody) return false;
    body_.assign(blob.substr(pos));
  }
  // The directory: each entry takes at least two bytes.
  pos = 0;
  uint64_t n;
  if (!GetVarint(body_, &pos, &n) || n == 0 || n > kMaxKeyframeBlockRows ||
      n > (body_.size() - pos) / 2) {
    return false;
  }
  entries_.reserve(static_cast<size_t>(n));
  int64_t entity = first_entity;
  size_t offset = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t delta, size;
    if (!GetVarint(body_, &pos, &delta) || !GetVarint(body_, &pos, &size) ||
        (i == 0) != (delta == 0) || delta > static_cast<uint64_t>(INT64_MAX - entity) ||
        size > body_.size()) {
      entries_.clear();
      return false;
    }
    entity += static_cast<int64_t>(delta);
    entries_.push_back({entity, offset, static_cast<size_t>(size)});
    offset += static_cast<size_t>(size);
  }
  // The rows fill the rest of the body exactly.
  if (offset != body_.size() - pos) {
    entries_.clear();
    return false;
  }
  for (Entry& e : entries_) e.offset += pos;
  return true;
}

bool KeyframeBlock::IndexOf(int64_t entity, size_t* i) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), entity,
                             [](const Entry& e, int64_t id) { return e.entity < id; });
  if (it == entries_.end() || it->entity != entity) return false;
  *i = static_cast<size_t>(it - entries_.begin());
  return true;
}

bool KeyframeBlock::Find(int64_t entity, std::string_view* row) const {
  size_t i;
  if (!IndexOf(entity, &i)) return false;
  *row = this->row(i);
  return true;
}

}  // namespace gem

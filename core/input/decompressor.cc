#include "core/input/decompressor.h"

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace gem {
namespace {

constexpr uint8_t kBzip2Magic[3] = {'B', 'Z', 'h'};
constexpr uint8_t kGzipMagic[2] = {0x1f, 0x8b};
constexpr uint8_t kZstdMagic[4] = {0x28, 0xb5, 0x2f, 0xfd};

std::string At(const char* name, uint64_t offset) {
  return std::string(name) + " data at byte " + std::to_string(offset) + " of the compressed file";
}

Status CutAt(const char* name, uint64_t offset) {
  return Status::Truncated(std::string("the ") + name + " stream is cut at byte " +
                           std::to_string(offset) + " of the compressed file");
}

// Input follows a finished stream: it must be another stream of the kind.
Status NextStreamOrCorrupt(const char* name, const uint8_t* magic, size_t magic_size,
                           const uint8_t* in, size_t size, uint64_t offset) {
  if (size >= magic_size && std::memcmp(in, magic, magic_size) == 0) return Status::Ok();
  if (size < magic_size && std::memcmp(in, magic, size) == 0) return Status::Ok();
  return Status::Corrupt(At(name, offset) + " follow the end of its stream and start no other");
}

class Bzip2 : public Decompressor {
 public:
  Bzip2() { ok_ = BZ2_bzDecompressInit(&s_, 0, 0) == BZ_OK; }
  ~Bzip2() override {
    if (ok_) BZ2_bzDecompressEnd(&s_);
  }

  Status Decode(const uint8_t* in, size_t size, size_t* used, uint8_t* out, size_t room,
                size_t* produced) override {
    *used = *produced = 0;
    if (!ok_) return Status::IoError("bzip2: the decoder could not be set up");
    while (*produced < room) {
      if (ended_) {
        if (*used == size) break;
        // Another stream follows (pbzip2 writes one per block).
        GEM_RETURN_IF_ERROR(NextStreamOrCorrupt("bzip2", kBzip2Magic, 3, in + *used,
                                                size - *used, consumed_));
        BZ2_bzDecompressEnd(&s_);
        ok_ = BZ2_bzDecompressInit(&s_, 0, 0) == BZ_OK;
        if (!ok_) return Status::IoError("bzip2: the decoder could not be set up");
        ended_ = false;
      }
      s_.next_in = reinterpret_cast<char*>(const_cast<uint8_t*>(in + *used));
      s_.avail_in = static_cast<unsigned>(std::min<size_t>(size - *used, 1u << 30));
      s_.next_out = reinterpret_cast<char*>(out + *produced);
      s_.avail_out = static_cast<unsigned>(std::min<size_t>(room - *produced, 1u << 30));
      const unsigned in_before = s_.avail_in, out_before = s_.avail_out;
      const int rc = BZ2_bzDecompress(&s_);
      const size_t took = in_before - s_.avail_in;
      *used += took;
      consumed_ += took;
      *produced += out_before - s_.avail_out;
      if (rc == BZ_STREAM_END) {
        ended_ = true;
        continue;
      }
      if (rc != BZ_OK) {
        return Status::Corrupt(At("bzip2", consumed_) + " do not decode (" +
                               (rc == BZ_DATA_ERROR_MAGIC ? "not a bzip2 stream"
                                : rc == BZ_MEM_ERROR      ? "out of memory"
                                                          : "bad data") +
                               ")");
      }
      if (took == 0 && out_before == s_.avail_out) break;
    }
    return Status::Ok();
  }

  Status Finish() const override {
    if (ended_) return Status::Ok();
    return CutAt("bzip2", consumed_);
  }

 private:
  bz_stream s_{};
  bool ok_ = false;
  bool ended_ = false;
};

class Gzip : public Decompressor {
 public:
  // 16 + 15: a gzip wrapper, the largest window.
  Gzip() { ok_ = inflateInit2(&z_, 16 + 15) == Z_OK; }
  ~Gzip() override {
    if (ok_) inflateEnd(&z_);
  }

  Status Decode(const uint8_t* in, size_t size, size_t* used, uint8_t* out, size_t room,
                size_t* produced) override {
    *used = *produced = 0;
    if (!ok_) return Status::IoError("gzip: the decoder could not be set up");
    while (*produced < room) {
      if (ended_) {
        if (*used == size) break;
        // Another member follows (pigz, or files concatenated).
        GEM_RETURN_IF_ERROR(NextStreamOrCorrupt("gzip", kGzipMagic, 2, in + *used,
                                                size - *used, consumed_));
        if (inflateReset(&z_) != Z_OK) return Status::IoError("gzip: inflateReset failed");
        ended_ = false;
      }
      z_.next_in = const_cast<Bytef*>(in + *used);
      z_.avail_in = static_cast<uInt>(std::min<size_t>(size - *used, 1u << 30));
      z_.next_out = out + *produced;
      z_.avail_out = static_cast<uInt>(std::min<size_t>(room - *produced, 1u << 30));
      const uInt in_before = z_.avail_in, out_before = z_.avail_out;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      const size_t took = in_before - z_.avail_in;
      *used += took;
      consumed_ += took;
      *produced += out_before - z_.avail_out;
      if (rc == Z_STREAM_END) {
        ended_ = true;
        continue;
      }
      if (rc == Z_BUF_ERROR) break;  // no progress possible: more input or room
      if (rc != Z_OK) {
        return Status::Corrupt(At("gzip", consumed_) + " do not decode (" +
                               (z_.msg != nullptr ? z_.msg : "zlib error " + std::to_string(rc)) +
                               ")");
      }
      if (took == 0 && out_before == z_.avail_out) break;
    }
    return Status::Ok();
  }

  Status Finish() const override {
    if (ended_) return Status::Ok();
    return CutAt("gzip", consumed_);
  }

 private:
  z_stream z_{};
  bool ok_ = false;
  bool ended_ = false;
};

class Zstd : public Decompressor {
 public:
  // libzstd's default window limit (128 MiB) bounds a frame's memory.
  Zstd() : d_(ZSTD_createDCtx()) {}
  ~Zstd() override { ZSTD_freeDCtx(d_); }

  Status Decode(const uint8_t* in, size_t size, size_t* used, uint8_t* out, size_t room,
                size_t* produced) override {
    *used = *produced = 0;
    if (d_ == nullptr) return Status::IoError("zstd: the decoder could not be set up");
    ZSTD_inBuffer src{in, size, 0};
    ZSTD_outBuffer dst{out, room, 0};
    // An empty input still flushes what the context holds.
    while (dst.pos < room) {
      const size_t in_before = src.pos, out_before = dst.pos;
      // Frames follow one another in one context; 0: a frame ended.
      const size_t rc = ZSTD_decompressStream(d_, &dst, &src);
      consumed_ += src.pos - in_before;
      if (ZSTD_isError(rc)) {
        return Status::Corrupt(At("zstd", consumed_) + " do not decode (" +
                               ZSTD_getErrorName(rc) + ")");
      }
      // A call that moved nothing says nothing of the frame (past a
      // frame's end it asks for the next one's header).
      if (src.pos == in_before && dst.pos == out_before) break;
      ended_ = rc == 0;
    }
    *used = src.pos;
    *produced = dst.pos;
    return Status::Ok();
  }

  Status Finish() const override {
    if (ended_) return Status::Ok();
    return CutAt("zstd", consumed_);
  }

 private:
  ZSTD_DCtx* d_;
  bool ended_ = false;
};

}  // namespace

const char* CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone: return "none";
    case Compression::kBzip2: return "bzip2";
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
  }
  return "none";
}

Compression DetectCompression(const uint8_t* head, size_t size) {
  if (size >= 3 && std::memcmp(head, kBzip2Magic, 3) == 0) return Compression::kBzip2;
  if (size >= 2 && std::memcmp(head, kGzipMagic, 2) == 0) return Compression::kGzip;
  if (size >= 4 && std::memcmp(head, kZstdMagic, 4) == 0) return Compression::kZstd;
  return Compression::kNone;
}

std::unique_ptr<Decompressor> Decompressor::New(Compression c) {
  switch (c) {
    case Compression::kBzip2: return std::make_unique<Bzip2>();
    case Compression::kGzip: return std::make_unique<Gzip>();
    case Compression::kZstd: return std::make_unique<Zstd>();
    case Compression::kNone: break;
  }
  return nullptr;
}

}  // namespace gem

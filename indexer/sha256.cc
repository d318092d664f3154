#include "indexer/sha256.h"

#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

namespace gem::index {
namespace {

constexpr uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

inline uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void Block(uint32_t h[8], const uint8_t* p) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = uint32_t{p[4 * i]} << 24 | uint32_t{p[4 * i + 1]} << 16 |
           uint32_t{p[4 * i + 2]} << 8 | uint32_t{p[4 * i + 3]};
  }
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = Rotr(w[i - 15], 7) ^ Rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = Rotr(w[i - 2], 17) ^ Rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t s1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = k + s1 + ch + kK[i] + w[i];
    uint32_t s0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + maj;
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

// Compresses `blocks` 64-byte blocks into `h`.
using BlocksFn = void (*)(uint32_t h[8], const uint8_t* p, size_t blocks);

void PortableBlocks(uint32_t h[8], const uint8_t* p, size_t blocks) {
  for (size_t i = 0; i < blocks; ++i) Block(h, p + 64 * i);
}

#if defined(__x86_64__)
// The SHA extensions keep the state as two vectors, ABEF and CDGH, and run
// two rounds per sha256rnds2; sha256msg1/2 compute the message schedule
// four words at a time.
__attribute__((target("sha,sse4.1,ssse3"))) void ShaNiBlocks(uint32_t h[8], const uint8_t* p,
                                                              size_t blocks) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[0]));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[4]));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (size_t b = 0; b < blocks; ++b, p += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i w[4];  // the last 16 schedule words, four per vector
    // Unrolled, the ring of four vectors lives in registers.
#pragma GCC unroll 16
    for (int g = 0; g < 16; ++g) {
      __m128i& wg = w[g & 3];
      if (g < 4) {
        wg = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * g)),
                              byte_swap);
      } else {
        // W[t-16] + s0(W[t-15]) + W[t-7] + s1(W[t-2]), four t at once.
        const __m128i w7 = _mm_alignr_epi8(w[(g - 1) & 3], w[(g - 2) & 3], 4);
        wg = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(wg, w[(g - 3) & 3]), w7),
                                  w[(g - 1) & 3]);
      }
      __m128i wk = _mm_add_epi32(wg, _mm_loadu_si128(reinterpret_cast<const __m128i*>(&kK[4 * g])));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      wk = _mm_shuffle_epi32(wk, 0x0E);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  dcba = _mm_blend_epi16(feba, dchg, 0xF0);
  hgfe = _mm_alignr_epi8(dchg, feba, 8);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[0]), dcba);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[4]), hgfe);
}

bool CpuHasShaNi() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool sha = b & (1u << 29);
  return ssse3 && sse41 && sha;
}
#endif

constexpr uint32_t kInitial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// The padding and the last blocks of a message of `size` bytes whose
// final `rest` (< 64) bytes are at `data`; then the hex digest.
std::string Finish(uint32_t h[8], const uint8_t* data, size_t rest, uint64_t size,
                   BlocksFn blocks) {
  uint8_t tail[128] = {};
  if (rest) std::memcpy(tail, data, rest);
  tail[rest] = 0x80;
  const size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
  const uint64_t bits = size * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
  blocks(h, tail, tail_len / 64);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int k = 0; k < 8; ++k) {
    for (int shift = 28; shift >= 0; shift -= 4) out.push_back(kHex[(h[k] >> shift) & 15]);
  }
  return out;
}

std::string Digest(const uint8_t* data, size_t size, BlocksFn blocks) {
  uint32_t h[8];
  std::memcpy(h, kInitial, sizeof h);
  const size_t full = size / 64;
  blocks(h, data, full);
  return Finish(h, data + full * 64, size - full * 64, size, blocks);
}

BlocksFn FastestBlocks() {
#if defined(__x86_64__)
  if (CpuHasShaNi()) return ShaNiBlocks;
#endif
  return PortableBlocks;
}

}  // namespace

std::string Sha256HexPortable(const uint8_t* data, size_t size) {
  return Digest(data, size, PortableBlocks);
}

std::string Sha256HexAccelerated(const uint8_t* data, size_t size) {
#if defined(__x86_64__)
  if (CpuHasShaNi()) return Digest(data, size, ShaNiBlocks);
#endif
  return "";
}

std::string Sha256Hex(const uint8_t* data, size_t size) {
  std::string fast = Sha256HexAccelerated(data, size);
  return fast.empty() ? Sha256HexPortable(data, size) : fast;
}

Status Sha256HexOfFile(const std::string& path, std::string* hex) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::InputError("cannot open " + path + ": " + std::strerror(errno));
  const BlocksFn blocks = FastestBlocks();
  uint32_t h[8];
  std::memcpy(h, kInitial, sizeof h);
  constexpr size_t kChunk = 1u << 20;  // a multiple of 64
  std::unique_ptr<uint8_t[]> buf(new uint8_t[kChunk]);
  uint64_t total = 0;
  size_t have = 0;  // bytes in buf
  for (;;) {
    const ssize_t n = ::read(fd, buf.get() + have, kChunk - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return Status::InputError("cannot read " + path + ": " + std::strerror(err));
    }
    have += static_cast<size_t>(n);
    total += static_cast<uint64_t>(n);
    if (n == 0 || have == kChunk) {
      const size_t full = have / 64;
      blocks(h, buf.get(), full);
      const size_t rest = have - full * 64;
      if (n == 0) {
        ::close(fd);
        *hex = Finish(h, buf.get() + full * 64, rest, total, blocks);
        return Status::Ok();
      }
      have = 0;  // kChunk is a multiple of 64: nothing is left over
    }
  }
}

}  // namespace gem::index

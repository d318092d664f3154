// SHA-256: the portable code against FIPS 180-4's examples, and the
// accelerated code against the portable one on every tail length.
#include "indexer/sha256.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace gem::index {
namespace {

std::string Portable(const std::string& s) {
  return Sha256HexPortable(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

TEST(Sha256Test, PortableMatchesPublishedDigests) {
  EXPECT_EQ(Portable(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Portable("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Portable("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Portable(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, AcceleratedEqualsPortable) {
  std::vector<uint8_t> data(70000);
  std::mt19937 rng(7);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  if (Sha256HexAccelerated(data.data(), 1).empty()) {
    GTEST_SKIP() << "this CPU has no SHA extensions; only the portable code runs here";
  }
  // Every length to three blocks (each padding case), then long ones.
  std::vector<size_t> sizes;
  for (size_t n = 0; n <= 200; ++n) sizes.push_back(n);
  for (size_t n : {1000u, 4095u, 4096u, 65536u, 70000u}) sizes.push_back(n);
  for (size_t n : sizes) {
    ASSERT_EQ(Sha256HexAccelerated(data.data(), n), Sha256HexPortable(data.data(), n))
        << n << " bytes";
  }
  EXPECT_EQ(Sha256Hex(data.data(), data.size()), Sha256HexPortable(data.data(), data.size()));
}

// The file digest reads in 1 MiB pieces: sizes on each side of a piece's
// edge must hash as the whole buffer does.
TEST(Sha256Test, FileDigestEqualsBufferDigest) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/sha256_file_test.bin";
  constexpr size_t kPiece = size_t{1} << 20;
  std::vector<uint8_t> data(2 * kPiece + 65);
  std::mt19937 rng(11);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  for (size_t n : {size_t{0}, size_t{63}, size_t{64}, kPiece - 1, kPiece, kPiece + 1,
                   2 * kPiece, 2 * kPiece + 65}) {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(data.data(), 1, n, f), n);
    ASSERT_EQ(std::fclose(f), 0);
    std::string hex;
    ASSERT_TRUE(Sha256HexOfFile(path, &hex).ok()) << n << " bytes";
    EXPECT_EQ(hex, Sha256HexPortable(data.data(), n)) << n << " bytes";
  }
  std::remove(path.c_str());
}

TEST(Sha256Test, FileDigestOfMissingFileIsAnError) {
  std::string hex = "unchanged";
  Status s = Sha256HexOfFile("/nonexistent/gem/sha256_missing.dem", &hex);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("sha256_missing.dem"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace gem::index

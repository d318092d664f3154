// SHA-256: FIPS 180-4's examples, and a file's digest read in pieces
// against the whole buffer's.
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

std::string Digest(const std::string& s) {
  std::string hex;
  EXPECT_TRUE(Sha256Hex(reinterpret_cast<const uint8_t*>(s.data()), s.size(), &hex).ok());
  return hex;
}

TEST(Sha256Test, MatchesPublishedDigests) {
  EXPECT_EQ(Digest(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Digest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Digest(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
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
    std::string whole;
    ASSERT_TRUE(Sha256Hex(data.data(), n, &whole).ok());
    EXPECT_EQ(hex, whole) << n << " bytes";
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

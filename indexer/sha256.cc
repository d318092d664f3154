#include "indexer/sha256.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

namespace gem::index {
namespace {

struct CtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using Ctx = std::unique_ptr<EVP_MD_CTX, CtxFree>;

std::string Hex(const unsigned char* md, unsigned int n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * n);
  for (unsigned int i = 0; i < n; ++i) {
    hex.push_back(kDigits[md[i] >> 4]);
    hex.push_back(kDigits[md[i] & 15]);
  }
  return hex;
}

Status CryptoError(const char* what) {
  return Status::IoError(std::string("SHA-256: libcrypto failed to ") + what);
}

}  // namespace

Status Sha256Hex(const uint8_t* data, size_t size, std::string* hex) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(data, size, md, &n, EVP_sha256(), nullptr) != 1) return CryptoError("digest");
  *hex = Hex(md, n);
  return Status::Ok();
}

Status Sha256HexOfFile(const std::string& path, std::string* hex) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::InputError("cannot open " + path + " to checksum it: " +
                              std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  Ctx ctx(EVP_MD_CTX_new());
  if (ctx == nullptr || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return CryptoError("start");
  }
  std::vector<uint8_t> piece(size_t{1} << 20);
  for (;;) {
    const ssize_t got = read(fd, piece.data(), piece.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      return Status::InputError("cannot read " + path + " to checksum it: " +
                                std::strerror(errno));
    }
    if (got == 0) break;
    if (EVP_DigestUpdate(ctx.get(), piece.data(), static_cast<size_t>(got)) != 1) {
      return CryptoError("update");
    }
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(ctx.get(), md, &n) != 1) return CryptoError("finish");
  *hex = Hex(md, n);
  return Status::Ok();
}

Sha256Stream::Sha256Stream() : ctx_(EVP_MD_CTX_new()) {
  ok_ = ctx_ != nullptr &&
        EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) == 1;
}

Sha256Stream::~Sha256Stream() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256Stream::Update(const uint8_t* data, size_t size) {
  if (ok_) ok_ = EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data, size) == 1;
}

Status Sha256Stream::Finish(std::string* hex) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!ok_ || EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), md, &n) != 1) {
    return CryptoError("finish");
  }
  ok_ = false;
  *hex = Hex(md, n);
  return Status::Ok();
}

}  // namespace gem::index

#include "indexer/chunk_spill.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace gem::index {
namespace {

constexpr size_t kBufferBytes = 1u << 20;

}  // namespace

ChunkSpill::~ChunkSpill() {
  if (fd_ >= 0) ::close(fd_);
}

Status ChunkSpill::Open(const std::string& directory) {
  fd_ = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    // A filesystem without O_TMPFILE: a named file, unlinked at once.
    std::string path = directory + "/.gem-spill-XXXXXX";
    fd_ = mkostemp(path.data(), O_CLOEXEC);
    if (fd_ >= 0) ::unlink(path.c_str());
  }
  if (fd_ < 0) {
    status_ = Status::CannotCreate("cannot create a temporary file in " + directory + ": " +
                                   std::strerror(errno));
    return status_;
  }
  buffer_.reserve(kBufferBytes);
  return Status::Ok();
}

void ChunkSpill::WriteBuffer() {
  size_t done = 0;
  while (status_.ok() && done < buffer_.size()) {
    ssize_t n = ::pwrite(fd_, buffer_.data() + done, buffer_.size() - done,
                         static_cast<off_t>(written_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      status_ = Status::IoError(std::string("cannot write the temporary chunk file: ") +
                                (n < 0 ? std::strerror(errno) : "no space"));
      break;
    }
    done += static_cast<size_t>(n);
  }
  written_ += done;
  buffer_.clear();
}

uint64_t ChunkSpill::Append(std::string_view bytes) {
  const uint64_t at = size_;
  size_ += bytes.size();
  if (!status_.ok()) return at;
  if (buffer_.size() + bytes.size() > kBufferBytes) WriteBuffer();
  buffer_.append(bytes);
  return at;
}

Status ChunkSpill::Flush() {
  if (status_.ok() && !buffer_.empty()) WriteBuffer();
  return status_;
}

Status ChunkSpill::Read(uint64_t offset, size_t size, char* out) const {
  if (!status_.ok()) return status_;
  if (offset + size > written_) return Status::IoError("a chunk lies past the temporary file");
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd_, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Status::IoError(std::string("cannot read the temporary chunk file: ") +
                             (n < 0 ? std::strerror(errno) : "short read"));
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

}  // namespace gem::index

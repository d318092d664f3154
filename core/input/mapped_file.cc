#include "core/input/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gem {

MappedFile::~MappedFile() {
  if (mapping_ != nullptr) munmap(mapping_, size_);
}

void MappedFile::DropBefore(uint64_t offset) {
  constexpr uint64_t kBatch = 1u << 20;
  if (mapping_ == nullptr || offset < dropped_ + kBatch) return;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t end = std::min<uint64_t>(offset, size_) / page * page;
  if (end <= dropped_) return;
  // A private read-only file mapping: dropped pages read the file again
  // if touched, so this never changes what the bytes are.
  madvise(static_cast<uint8_t*>(mapping_) + dropped_, end - dropped_, MADV_DONTNEED);
  dropped_ = end;
}

Status MappedFile::Open(const std::string& path, bool* not_found) {
  if (not_found != nullptr) *not_found = false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (not_found != nullptr) *not_found = (errno == ENOENT);
    return Status::InputError("cannot open " + path + ": " + std::strerror(errno));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Status::InputError("cannot stat " + path + ": " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::InputError(path + " is a directory, not a replay file");
  }
  if (S_ISREG(st.st_mode)) {
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
      void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        madvise(p, size_, MADV_SEQUENTIAL);
        mapping_ = p;
        data_ = static_cast<const uint8_t*>(p);
        ::close(fd);
        return Status::Ok();
      }
    }
  }
  // Not mappable: read it all.
  buffer_.clear();
  uint8_t chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Status::InputError("cannot read " + path + ": " + std::strerror(err));
    }
    if (n == 0) break;
    buffer_.insert(buffer_.end(), chunk, chunk + n);
  }
  ::close(fd);
  data_ = buffer_.data();
  size_ = buffer_.size();
  return Status::Ok();
}

}  // namespace gem

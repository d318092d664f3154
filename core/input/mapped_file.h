// MappedFile: a read-only view of a whole file's bytes.
//
// Regular files are memory-mapped; anything else (a pipe, a character
// device) is read into memory. The bytes stay valid for the object's life.
#ifndef GEM_CORE_INPUT_MAPPED_FILE_H_
#define GEM_CORE_INPUT_MAPPED_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/util/status.h"

namespace gem {

class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  // InputError says why the file could not be opened or read (missing,
  // unreadable, a directory); `*not_found` is set when it does not exist.
  Status Open(const std::string& path, bool* not_found = nullptr);

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // Whether the bytes are a mapping of the file (a regular file).
  bool is_mapped() const { return mapping_ != nullptr; }

  // The bytes before `offset` may leave memory: a reader that is done with
  // them (a parse streams through a replay once) keeps its resident size
  // flat. They stay readable: a later read brings them back from the file.
  // Cheap to call often (acts once per few MiB).
  void DropBefore(uint64_t offset);

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;
  uint64_t dropped_ = 0;  // bytes from the start already given back
  std::vector<uint8_t> buffer_;  // used when the file cannot be mapped
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_MAPPED_FILE_H_

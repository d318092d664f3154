// BroadcastFile: a broadcast saved as one file, as haste's broadcast tool
// and deadem save one: the start, the full and every delta's commands back
// to back, with no sync and no fragment boundaries (core/input/broadcast.h).
//
// It is served as fragments to BroadcastSource: the leading signon
// commands (signon packets, send tables, class info, spawn groups) are the
// start, what follows up to the first DEM_Packet the full, and the rest
// deltas of whole commands, about kDeltaBytes each, read from the file in
// order (one at a time in memory). So the same broadcast makes the same
// replay bytes from its directory and from such a file. A command cut by the file's end ends
// the broadcast there (a cut replay, as a cut .dem is).
#ifndef GEM_CORE_INPUT_BROADCAST_FILE_H_
#define GEM_CORE_INPUT_BROADCAST_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "core/input/broadcast_source.h"

namespace gem {

// Whether a file's first bytes read as a broadcast's first command (a
// signon packet, send tables, class info or spawn groups, then a tick and
// the zero byte), not a replay or a compressed stream.
bool LooksLikeBroadcast(const uint8_t* head, size_t size);

class BroadcastFile : public FragmentStore {
 public:
  static constexpr size_t kDeltaBytes = size_t{1} << 20;
  static constexpr size_t kHeadBytes = 10;  // enough for LooksLikeBroadcast

  // Takes `fd` (closed when done); `name` goes into errors.
  BroadcastFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  ~BroadcastFile() override;

  Status Sync(std::string* json) override;
  Status Fetch(Kind kind, int64_t n, std::string* body, bool* missing) override;
  bool HasDeltaAfter(int64_t) override { return false; }

 private:
  // The next command's header at offset_: its command and whole size; false
  // at the end of the file or when it is cut there.
  Status Peek(uint32_t* command, uint64_t* size, bool* end);
  // Appends the command at offset_ (`size` bytes) to *body.
  Status Take(uint64_t size, std::string* body);

  int fd_;
  std::string name_;
  uint64_t offset_ = 0;
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_BROADCAST_FILE_H_

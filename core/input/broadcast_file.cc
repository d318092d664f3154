#include "core/input/broadcast_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/input/broadcast.h"
#include "core/input/demo_stream.h"

namespace gem {
namespace {

uint32_t LoadLe32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

}  // namespace

bool LooksLikeBroadcast(const uint8_t* head, size_t size) {
  if (size < BroadcastFile::kHeadBytes) return false;
  const uint32_t command = head[0] & ~uint32_t{64};
  // One-byte command ids; the tick, then the byte that is always 0.
  return (head[0] & 0x80) == 0 &&
         (command == kDemSignonPacket || command == kDemSendTables ||
          command == kDemClassInfo || command == kDemSpawnGroups) &&
         head[5] == 0;
}

BroadcastFile::~BroadcastFile() { ::close(fd_); }

Status BroadcastFile::Sync(std::string* json) {
  // A saved broadcast starts at its start and its first full.
  *json = R"({"fragment":1,"signup_fragment":0,"protocol":5})";
  return Status::Ok();
}

Status BroadcastFile::Peek(uint32_t* command, uint64_t* size, bool* end) {
  uint8_t head[15];
  ssize_t got;
  do {
    got = ::pread(fd_, head, sizeof head, static_cast<off_t>(offset_));
  } while (got < 0 && errno == EINTR);
  if (got < 0) return Status::InputError("cannot read " + name_ + ": " + std::strerror(errno));
  // The command's varint, then 4 + 1 bytes, then (not for DEM_Stop) 4.
  size_t pos = 0;
  uint64_t id = 0;
  for (int shift = 0;; shift += 7) {
    if (shift > 28) {
      return Status::Corrupt(name_ + ": a command id runs on", offset_);
    }
    if (pos == static_cast<size_t>(got)) {
      *end = true;  // the file ends inside it (or here): the broadcast ends before it
      return Status::Ok();
    }
    id |= uint64_t{head[pos] & 0x7Fu} << shift;
    if ((head[pos++] & 0x80) == 0) break;
  }
  *command = static_cast<uint32_t>(id & ~uint64_t{64});
  const size_t fixed = pos + 5 + (*command == kDemStop ? 0 : 4);
  if (static_cast<size_t>(got) < fixed) {
    *end = true;  // cut inside its header: the broadcast ends before it
    return Status::Ok();
  }
  *size = fixed;
  if (*command != kDemStop) {
    const uint32_t payload = LoadLe32(head + pos + 5);
    if (payload > DemoStream::kMaxFramePayload) {
      return Status::Corrupt(name_ + ": a command claims " + std::to_string(payload) +
                                 " bytes, more than any replay frame can hold",
                             offset_);
    }
    *size += payload;
  }
  *end = false;
  return Status::Ok();
}

Status BroadcastFile::Take(uint64_t size, std::string* body) {
  const size_t at = body->size();
  body->resize(at + size);
  uint64_t done = 0;
  while (done < size) {
    const ssize_t got = ::pread(fd_, body->data() + at + done, size - done,
                                static_cast<off_t>(offset_ + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Status::InputError("cannot read " + name_ + ": " + std::strerror(errno));
    if (got == 0) {
      body->resize(at);  // cut by the file's end: not taken
      return Status::Truncated(name_ + " ends inside a command", offset_);
    }
    done += static_cast<uint64_t>(got);
  }
  offset_ += size;
  return Status::Ok();
}

Status BroadcastFile::Fetch(Kind kind, int64_t, std::string* body, bool* missing) {
  body->clear();
  *missing = false;
  for (;;) {
    uint32_t command = 0;
    uint64_t size = 0;
    bool end = false;
    GEM_RETURN_IF_ERROR(Peek(&command, &size, &end));
    // Start: the signon's kinds of command; full: up to the first packet;
    // a delta: whole commands up to about kDeltaBytes.
    const bool signon = command == kDemSignonPacket || command == kDemSendTables ||
                        command == kDemClassInfo || command == kDemSpawnGroups;
    const bool stop_before =
        end || (kind == Kind::kStart && !signon) ||
        (kind == Kind::kDelta && !body->empty() && body->size() + size > kDeltaBytes);
    if (stop_before) break;
    // The start and the full end at a command of another kind; a file
    // without one is no broadcast to hold whole.
    if (body->size() + size > DirectoryFragments::kMaxFragmentBytes) {
      return Status::Corrupt(name_ + ": its " + KindName(kind) + " runs past " +
                                 std::to_string(DirectoryFragments::kMaxFragmentBytes) +
                                 " bytes",
                             offset_);
    }
    Status s = Take(size, body);
    if (s.IsRecoverable()) break;  // cut: what came before it is the broadcast
    GEM_RETURN_IF_ERROR(s);
    if (command == kDemStop || (kind == Kind::kFull && command == kDemPacket)) break;
  }
  *missing = body->empty() && kind != Kind::kStart;
  return Status::Ok();
}

}  // namespace gem

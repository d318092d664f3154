#include "core/input/demo_stream.h"

#include <snappy.h>

#include <cstring>

namespace gem {
namespace {

constexpr char kSource2Magic[8] = {'P', 'B', 'D', 'E', 'M', 'S', '2', '\0'};
constexpr char kSource1Magic[8] = {'H', 'L', '2', 'D', 'E', 'M', 'O', '\0'};

uint32_t LoadLe32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
         uint32_t{p[3]} << 24;
}

}  // namespace

const char* DemoCommandName(uint32_t command) {
  switch (command) {
    case kDemStop: return "DEM_Stop";
    case kDemFileHeader: return "DEM_FileHeader";
    case kDemFileInfo: return "DEM_FileInfo";
    case kDemSyncTick: return "DEM_SyncTick";
    case kDemSendTables: return "DEM_SendTables";
    case kDemClassInfo: return "DEM_ClassInfo";
    case kDemStringTables: return "DEM_StringTables";
    case kDemPacket: return "DEM_Packet";
    case kDemSignonPacket: return "DEM_SignonPacket";
    case kDemConsoleCmd: return "DEM_ConsoleCmd";
    case kDemCustomData: return "DEM_CustomData";
    case kDemCustomDataCallbacks: return "DEM_CustomDataCallbacks";
    case kDemUserCmd: return "DEM_UserCmd";
    case kDemFullPacket: return "DEM_FullPacket";
    case kDemSaveGame: return "DEM_SaveGame";
    case kDemSpawnGroups: return "DEM_SpawnGroups";
    case kDemAnimationData: return "DEM_AnimationData";
    case kDemAnimationHeader: return "DEM_AnimationHeader";
    case kDemRecovery: return "DEM_Recovery";
    default: return "unknown command";
  }
}

namespace {

// A varint of at most 5 bytes from bytes [*pos, size); false when they end
// inside it.
bool ReadVarint32(const uint8_t* bytes, size_t size, size_t* pos, uint32_t* out) {
  uint32_t result = 0;
  for (unsigned shift = 0; shift < 35; shift += 7) {
    if (*pos >= size) return false;
    uint32_t b = bytes[(*pos)++];
    result |= (b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = result;
      return true;
    }
  }
  *out = result;  // a 5-byte varint: Valve's writers stop there too
  return true;
}

// How many bytes the frame header at `bytes` needs, from the `have` there:
// its length when they hold its three varints, else a lower bound (one
// more byte for the varint they end in, one for each after it).
size_t FrameHeaderBytesNeeded(const uint8_t* bytes, size_t have) {
  size_t pos = 0;
  for (size_t i = 0; i < 3; ++i) {
    uint32_t ignored;
    if (!ReadVarint32(bytes, have, &pos, &ignored)) return have + 3 - i;
  }
  return pos;
}

// A source's failure, placed at the frame it cut (the offset in the replay;
// the message says where in the compressed file).
Status At(const Status& failure, uint64_t frame_start) {
  return failure.has_offset() ? failure
                              : failure.WithContext("reading the frame there", frame_start);
}

}  // namespace

bool DemoStream::StartsWithMagic(const uint8_t* bytes, size_t size) {
  return size >= 8 && std::memcmp(bytes, kSource2Magic, 8) == 0;
}

bool DemoStream::ReadFrameHeader(const uint8_t* bytes, size_t size, size_t* pos,
                                 uint32_t* command, uint32_t* tick, uint32_t* payload) {
  return ReadVarint32(bytes, size, pos, command) && ReadVarint32(bytes, size, pos, tick) &&
         ReadVarint32(bytes, size, pos, payload);
}

Status DemoStream::Open() {
  // The magic, the offsets, and the first frame's command at either
  // header size.
  const uint8_t* head = nullptr;
  size_t size = 0;
  Status peeked = source_->Peek(kHeaderSize + 5, &head, &size);
  if (size == 0) {
    return peeked.ok() ? Status::NotAReplay("the file is empty", 0) : peeked;
  }
  if (size >= 8 && std::memcmp(head, kSource1Magic, 8) == 0) {
    return Status::Unsupported(
        "this is a Source 1 demo (HL2DEMO); only Source 2 replays "
        "(PBDEMS2) are supported",
        0);
  }
  if (!StartsWithMagic(head, size)) {
    if (!peeked.ok()) return peeked;
    return Status::NotAReplay(
        "not a Source 2 replay: the file does not start with PBDEMS2", 0);
  }
  if (size < kHeaderSize) {
    return peeked.ok() ? Status::Truncated("the file ends inside its 16-byte header", size)
                       : peeked;
  }
  fileinfo_offset_ = LoadLe32(head + 8);
  spawngroups_offset_ = LoadLe32(head + 12);

  // The 2014 beta replays have a 12-byte header (magic and one offset), so
  // their first frame, always DEM_FileHeader, starts at byte 12. A current
  // replay's first frame starts at byte 16.
  auto first_command_at = [&](size_t at) -> int64_t {
    uint32_t command;
    if (!ReadVarint32(head, size, &at, &command)) return -1;
    return command & ~uint32_t{kDemIsCompressed};
  };
  if (first_command_at(kHeaderSize) != kDemFileHeader &&
      first_command_at(kLegacyHeaderSize) == kDemFileHeader) {
    return Status::Unsupported(
        "legacy replay not supported: 12-byte header of the 2014 Source 2 "
        "beta (network protocol 40 era)",
        8);
  }
  source_->Consume(kHeaderSize);
  return Status::Ok();
}

Status DemoStream::Next(Frame* frame, bool* end) {
  *end = false;
  const uint64_t start = source_->position();
  const uint8_t* bytes = nullptr;
  size_t have = 0;
  // The header's bytes are asked for as its varints need them, never
  // more: a followed replay's last frame (a file info of a few bytes) is
  // read as soon as its bytes are there, not after waiting for bytes past
  // the end that may never come.
  size_t want = 3;  // the shortest header: three one-byte varints
  Status peeked;
  for (;;) {
    peeked = source_->Peek(want, &bytes, &have);
    if (have == 0) {
      if (!peeked.ok()) return At(peeked, start);
      *end = true;
      return Status::Ok();
    }
    const size_t needed = FrameHeaderBytesNeeded(bytes, have);
    if (needed <= have) break;
    if (have < want) {
      return peeked.ok() ? Status::Truncated("the file ends inside a frame header", start)
                         : At(peeked, start);
    }
    want = needed;  // at most kMaxFrameHeader: a varint stops at 5 bytes
  }
  size_t p = 0;
  uint32_t command, tick, size;
  ReadFrameHeader(bytes, have, &p, &command, &tick, &size);  // whole: needed <= have
  if (size > kMaxFramePayload) {
    return Status::Corrupt("frame claims " + std::to_string(size) +
                               " bytes, more than any replay frame can hold",
                           start);
  }
  const size_t head = p;
  peeked = source_->Peek(head + size, &bytes, &have);
  if (have < head + size) {
    if (!peeked.ok()) return At(peeked, start);
    return Status::Truncated("frame of " + std::to_string(size) +
                                 " bytes is cut by the end of the file (" +
                                 std::to_string(have - head) + " bytes remain)",
                             start);
  }
  frame->command = command & ~uint32_t{kDemIsCompressed};
  frame->compressed = (command & kDemIsCompressed) != 0;
  frame->tick = tick;
  frame->offset = start;
  const char* payload = reinterpret_cast<const char*>(bytes + head);
  // The view stays valid until the next Peek: this frame's payload is
  // used (or decompressed) before then.
  source_->Consume(head + size);

  if (!frame->compressed) {
    frame->data = bytes + head;
    frame->size = size;
    return Status::Ok();
  }
  size_t raw_size = 0;
  if (!snappy::GetUncompressedLength(payload, size, &raw_size)) {
    return Status::Corrupt("snappy payload has no valid length", start);
  }
  // Snappy expands at most 64 bytes per 3-byte copy element, so a length
  // beyond 22x the compressed size is a lie; refuse it before allocating.
  if (raw_size > kMaxFramePayload || raw_size > uint64_t{size} * 22 + 32) {
    return Status::Corrupt("snappy payload claims " + std::to_string(raw_size) +
                               " bytes, more than any replay frame can hold",
                           start);
  }
  scratch_.resize(raw_size);
  if (!snappy::RawUncompress(payload, size, scratch_.data())) {
    return Status::Corrupt("snappy payload does not decompress", start);
  }
  frame->data = reinterpret_cast<const uint8_t*>(scratch_.data());
  frame->size = raw_size;
  return Status::Ok();
}

}  // namespace gem

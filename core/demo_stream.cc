#include "core/demo_stream.h"

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

bool DemoStream::ReadVarint32(uint64_t* pos, uint32_t* out) const {
  uint32_t result = 0;
  for (unsigned shift = 0; shift < 35; shift += 7) {
    if (*pos >= size_) return false;
    uint32_t b = file_[(*pos)++];
    result |= (b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = result;
      return true;
    }
  }
  *out = result;  // a 5-byte varint: Valve's writers stop there too
  return true;
}

Status DemoStream::Open() {
  if (size_ == 0) return Status::NotAReplay("the file is empty", 0);
  if (size_ >= 8 && std::memcmp(file_, kSource1Magic, 8) == 0) {
    return Status::Unsupported(
        "this is a Source 1 demo (HL2DEMO); only Source 2 replays "
        "(PBDEMS2) are supported",
        0);
  }
  if (size_ < 8 || std::memcmp(file_, kSource2Magic, 8) != 0) {
    return Status::NotAReplay(
        "not a Source 2 replay: the file does not start with PBDEMS2", 0);
  }
  if (size_ < kHeaderSize) {
    return Status::Truncated("the file ends inside its 16-byte header", size_);
  }
  fileinfo_offset_ = LoadLe32(file_ + 8);
  spawngroups_offset_ = LoadLe32(file_ + 12);

  // The 2014 beta replays have a 12-byte header (magic and one offset), so
  // their first frame, always DEM_FileHeader, starts at byte 12. A current
  // replay's first frame starts at byte 16.
  auto first_command_at = [&](uint64_t at) -> int64_t {
    uint32_t command;
    if (!ReadVarint32(&at, &command)) return -1;
    return command & ~uint32_t{kDemIsCompressed};
  };
  if (first_command_at(kHeaderSize) != kDemFileHeader &&
      first_command_at(kLegacyHeaderSize) == kDemFileHeader) {
    return Status::Unsupported(
        "legacy replay not supported: 12-byte header of the 2014 Source 2 "
        "beta (network protocol 40 era)",
        8);
  }
  pos_ = kHeaderSize;
  return Status::Ok();
}

Status DemoStream::Next(Frame* frame, bool* end) {
  *end = false;
  if (pos_ >= size_) {
    *end = true;
    return Status::Ok();
  }
  const uint64_t start = pos_;
  uint64_t p = pos_;
  uint32_t command, tick, size;
  if (!ReadVarint32(&p, &command) || !ReadVarint32(&p, &tick) ||
      !ReadVarint32(&p, &size)) {
    return Status::Truncated("the file ends inside a frame header", start);
  }
  if (size > kMaxFramePayload) {
    return Status::Corrupt("frame claims " + std::to_string(size) +
                               " bytes, more than any replay frame can hold",
                           start);
  }
  if (size > size_ - p) {
    return Status::Truncated("frame of " + std::to_string(size) +
                                 " bytes is cut by the end of the file (" +
                                 std::to_string(size_ - p) + " bytes remain)",
                             start);
  }
  frame->command = command & ~uint32_t{kDemIsCompressed};
  frame->compressed = (command & kDemIsCompressed) != 0;
  frame->tick = tick;
  frame->offset = start;
  const char* payload = reinterpret_cast<const char*>(file_ + p);
  pos_ = p + size;

  if (!frame->compressed) {
    frame->data = file_ + p;
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

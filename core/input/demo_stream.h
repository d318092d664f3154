// DemoStream: the outer layer of a Source 2 replay.
//
// Layout: an 8-byte magic "PBDEMS2\0", two little-endian int32 offsets (file
// info, spawn groups), then frames until the end of the file:
//   varint command (EDemoCommands, bit 64 = payload is snappy-compressed)
//   varint tick    (uint32; 0xFFFFFFFF during signon)
//   varint size
//   size bytes of protobuf payload
// DEM_Stop marks the end of play; DEM_SpawnGroups and DEM_FileInfo follow it.
//
// Contract: the stream reads its bytes from a ReplaySource (a buffer, or a
// decompressed stream) that must outlive it; it does not own them. A
// Frame's payload stays valid until the next call to Next(). Sizes are
// checked against kMaxFramePayload before anything is allocated, and a
// source holds only bytes that arrived (replay_source.h).
#ifndef GEM_CORE_INPUT_DEMO_STREAM_H_
#define GEM_CORE_INPUT_DEMO_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/input/replay_source.h"
#include "core/util/status.h"

namespace gem {

// Outer command ids (EDemoCommands).
enum DemoCommand : uint32_t {
  kDemStop = 0,
  kDemFileHeader = 1,
  kDemFileInfo = 2,
  kDemSyncTick = 3,
  kDemSendTables = 4,
  kDemClassInfo = 5,
  kDemStringTables = 6,
  kDemPacket = 7,
  kDemSignonPacket = 8,
  kDemConsoleCmd = 9,
  kDemCustomData = 10,
  kDemCustomDataCallbacks = 11,
  kDemUserCmd = 12,
  kDemFullPacket = 13,
  kDemSaveGame = 14,
  kDemSpawnGroups = 15,
  kDemAnimationData = 16,
  kDemAnimationHeader = 17,
  kDemRecovery = 18,
  kDemIsCompressed = 64,
};

const char* DemoCommandName(uint32_t command);

struct Frame {
  uint32_t command = 0;     // without the compressed flag
  bool compressed = false;  // payload was snappy-compressed in the file
  uint32_t tick = 0;        // as written (0xFFFFFFFF = before the first tick)
  uint64_t offset = 0;      // file offset of the frame's first byte
  const uint8_t* data = nullptr;  // payload, decompressed
  size_t size = 0;
};

class DemoStream {
 public:
  // Frames larger than this (compressed or not) are refused as corrupt; the
  // largest real frames (full packets of long matches) are a few MiB.
  static constexpr size_t kMaxFramePayload = 256u << 20;
  static constexpr size_t kHeaderSize = 16;
  static constexpr size_t kLegacyHeaderSize = 12;
  // A frame's header at bytes [*pos, size): its command, tick and payload
  // size, three varints of at most 5 bytes each (kMaxFrameHeader), *pos
  // moved past them; false when the bytes end inside them.
  static constexpr size_t kMaxFrameHeader = 15;
  // Whether `size` bytes at `bytes` start with the Source 2 magic.
  static bool StartsWithMagic(const uint8_t* bytes, size_t size);
  static bool ReadFrameHeader(const uint8_t* bytes, size_t size, size_t* pos, uint32_t* command,
                              uint32_t* tick, uint32_t* payload);

  // Over bytes in memory (kept alive by the caller), or over a source.
  DemoStream(const uint8_t* file, size_t size) : memory_(file, size), source_(&memory_) {}
  explicit DemoStream(ReplaySource* source) : memory_(nullptr, 0), source_(source) {}

  // Checks the magic and positions the stream at the first frame.
  // NotAReplay: empty, too short or wrong magic. Unsupported: a Source 1 demo
  // ("HL2DEMO") or a 2014 beta replay with the 12-byte header.
  Status Open();

  // Reads the next frame. At the end of the file returns ok with *end set.
  // A frame cut by the end of the file gives Truncated; a payload that does
  // not decompress gives Corrupt. Both carry the frame's offset.
  Status Next(Frame* frame, bool* end);

  // The replay offset of the next frame.
  uint64_t position() const { return source_->position(); }
  uint32_t fileinfo_offset() const { return fileinfo_offset_; }
  uint32_t spawngroups_offset() const { return spawngroups_offset_; }

 private:
  MemorySource memory_;
  ReplaySource* source_;
  uint32_t fileinfo_offset_ = 0;
  uint32_t spawngroups_offset_ = 0;
  std::string scratch_;  // decompressed payload, reused
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_DEMO_STREAM_H_

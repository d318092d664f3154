// Broadcast fragments: a match as Valve's HTTP broadcast (CSTV, and the
// same relay protocol, 5, for Dota 2 and Deadlock) hands it out, and how
// they become a replay's frames.
//
// A broadcast is a `sync` JSON document and numbered fragments: `start`
// (the signon: string tables created, server info, send tables, class
// info), then per fragment of a few seconds a `full` (an entity snapshot)
// and a `delta` (the packets after it). A fragment's body is commands,
// each (all little-endian):
//   varint command (EDemoCommands; bit 64: payload snappy-compressed)
//   uint32 tick
//   uint8  0
//   uint32 payload size, then the payload   (absent for DEM_Stop)
// A broadcast has no file header, file info or sync tick, and its packets
// carry the net messages' bit stream itself, where a replay's frame wraps
// it in a CDemoPacket (field 3). The broadcast's end is a delta that holds
// only a DEM_Stop (six zero bytes).
//
// Contract: sizes are checked against DemoStream::kMaxFramePayload and the
// bytes at hand before anything is allocated; every failure says which
// fragment and byte.
#ifndef GEM_CORE_INPUT_BROADCAST_H_
#define GEM_CORE_INPUT_BROADCAST_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace gem {

constexpr int kBroadcastProtocol = 5;

struct BroadcastCommand {
  uint32_t command = 0;     // without the compressed flag
  bool compressed = false;  // payload is snappy-compressed
  uint32_t tick = 0;
  const uint8_t* data = nullptr;
  size_t size = 0;
  size_t offset = 0;  // of the command's first byte in its fragment
};

// Reads one fragment's commands, in order. `name` ("delta 12") goes into
// errors.
class BroadcastReader {
 public:
  BroadcastReader(std::string_view body, std::string name)
      : data_(reinterpret_cast<const uint8_t*>(body.data())), size_(body.size()),
        name_(std::move(name)) {}
  // The next command; *end at the end of the body. Corrupt when a command
  // is cut or claims more bytes than the limit or the body holds.
  Status Next(BroadcastCommand* c, bool* end);

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::string name_;
};

// Appends one command to a fragment body (uncompressed).
void AppendBroadcastCommand(uint32_t command, uint32_t tick, std::string_view payload,
                            std::string* body);
// The body of the broadcast's last delta: a DEM_Stop alone.
std::string BroadcastEndBody();

// Appends `c` as a replay frame (varint command, tick and size, then the
// payload, decompressed; a packet's wrapped in a CDemoPacket).
Status AppendReplayFrame(const BroadcastCommand& c, std::string* out, std::string* scratch);
// Appends a replay frame of `command` at `tick` with `payload` as it is.
void AppendReplayFrame(uint32_t command, uint32_t tick, std::string_view payload,
                       std::string* out);

// A packet's net-message bit stream from a replay frame's CDemoPacket
// payload; false when it does not parse.
bool PacketBits(const uint8_t* payload, size_t size, std::string_view* bits);
// A replay's CDemoFullPacket: its string tables (field 1, a
// CDemoStringTables) and its packet's bit stream; false when it does not
// parse. Either may be empty.
bool FullPacketParts(const uint8_t* payload, size_t size, std::string_view* tables,
                     std::string_view* bits);

}  // namespace gem

#endif  // GEM_CORE_INPUT_BROADCAST_H_

#include "core/input/broadcast.h"

#include <snappy.h>

#include <cstring>

#include "core/codec/varint.h"
#include "core/input/demo_stream.h"
#include "core/util/proto_wire.h"

namespace gem {
namespace {

void AppendLe32(uint32_t v, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint32_t LoadLe32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// A CDemoPacket's data field (3), length-delimited.
constexpr char kPacketDataTag = (3 << 3) | 2;

}  // namespace

Status BroadcastReader::Next(BroadcastCommand* c, bool* end) {
  *end = pos_ == size_;
  if (*end) return Status::Ok();
  const size_t start = pos_;
  auto cut = [&](const char* what) {
    return Status::Corrupt(name_ + ": a command is cut inside its " + what, start);
  };
  uint64_t command = 0;
  int shift = 0;
  for (;;) {
    if (pos_ == size_) return cut("command");
    const uint8_t b = data_[pos_++];
    if (shift == 28 && (b & 0x70) != 0) {
      return Status::Corrupt(name_ + ": a command id does not fit 32 bits", start);
    }
    command |= uint64_t{b & 0x7Fu} << shift;
    if ((b & 0x80) == 0) break;
    shift += 7;
    if (shift > 28) return Status::Corrupt(name_ + ": a command id runs on", start);
  }
  if (size_ - pos_ < 5) return cut("tick");
  c->compressed = (command & 64) != 0;
  c->command = static_cast<uint32_t>(command & ~uint64_t{64});
  c->tick = LoadLe32(data_ + pos_);
  pos_ += 5;  // the tick and a byte that is always 0
  c->offset = start;
  c->data = data_ + pos_;
  c->size = 0;
  if (c->command == 0) return Status::Ok();  // DEM_Stop: no size
  if (size_ - pos_ < 4) return cut("size");
  const uint32_t size = LoadLe32(data_ + pos_);
  pos_ += 4;
  if (size > DemoStream::kMaxFramePayload) {
    return Status::Corrupt(name_ + ": a command claims " + std::to_string(size) +
                               " bytes, more than any replay frame can hold",
                           start);
  }
  if (size > size_ - pos_) {
    return Status::Corrupt(name_ + ": a command of " + std::to_string(size) +
                               " bytes is cut by the fragment's end, " +
                               std::to_string(size_ - pos_) + " bytes on",
                           start);
  }
  c->data = data_ + pos_;
  c->size = size;
  pos_ += size;
  return Status::Ok();
}

void AppendBroadcastCommand(uint32_t command, uint32_t tick, std::string_view payload,
                            std::string* body) {
  PutVarint(command, body);
  AppendLe32(tick, body);
  body->push_back('\0');
  if (command == 0) return;
  AppendLe32(static_cast<uint32_t>(payload.size()), body);
  body->append(payload);
}

std::string BroadcastEndBody() { return std::string(6, '\0'); }

void AppendReplayFrame(uint32_t command, uint32_t tick, std::string_view payload,
                       std::string* out) {
  PutVarint(command, out);
  PutVarint(tick, out);
  PutVarint(payload.size(), out);
  out->append(payload);
}

Status AppendReplayFrame(const BroadcastCommand& c, std::string* out, std::string* scratch) {
  std::string_view payload(reinterpret_cast<const char*>(c.data), c.size);
  if (c.compressed) {
    size_t raw_size = 0;
    if (!snappy::GetUncompressedLength(payload.data(), payload.size(), &raw_size)) {
      return Status::Corrupt("a snappy payload has no valid length", c.offset);
    }
    // As DemoStream: snappy expands at most 22 times; a larger claim is a lie.
    if (raw_size > DemoStream::kMaxFramePayload || raw_size > uint64_t{c.size} * 22 + 32) {
      return Status::Corrupt("a snappy payload claims " + std::to_string(raw_size) + " bytes",
                             c.offset);
    }
    scratch->resize(raw_size);
    if (!snappy::RawUncompress(payload.data(), payload.size(), scratch->data())) {
      return Status::Corrupt("a snappy payload does not decompress", c.offset);
    }
    payload = *scratch;
  }
  if (c.command != kDemPacket && c.command != kDemSignonPacket) {
    AppendReplayFrame(c.command, c.tick, payload, out);
    return Status::Ok();
  }
  // The replay's CDemoPacket around the bit stream: its data field.
  std::string head;
  head.push_back(kPacketDataTag);
  PutVarint(payload.size(), &head);
  PutVarint(c.command, out);
  PutVarint(c.tick, out);
  PutVarint(head.size() + payload.size(), out);
  out->append(head);
  out->append(payload);
  return Status::Ok();
}

bool PacketBits(const uint8_t* payload, size_t size, std::string_view* bits) {
  const uint8_t* data = nullptr;
  size_t data_size = 0;
  bool found = false;
  if (!FindBytesField(payload, size, 3, &data, &data_size, &found)) return false;
  *bits = found ? std::string_view(reinterpret_cast<const char*>(data), data_size)
                : std::string_view();
  return true;
}

bool FullPacketParts(const uint8_t* payload, size_t size, std::string_view* tables,
                     std::string_view* bits) {
  const uint8_t* data = nullptr;
  size_t data_size = 0;
  bool found = false;
  if (!FindBytesField(payload, size, 1, &data, &data_size, &found)) return false;
  *tables = found ? std::string_view(reinterpret_cast<const char*>(data), data_size)
                  : std::string_view();
  if (!FindBytesField(payload, size, 2, &data, &data_size, &found)) return false;
  *bits = std::string_view();
  return !found || PacketBits(data, data_size, bits);
}

}  // namespace gem

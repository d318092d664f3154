#include "core/input/inner_messages.h"

#include <algorithm>

#include "core/util/bit_reader.h"

namespace gem {

int InnerMessagePriority(uint32_t type) {
  switch (type) {
    case kNetTick:
    case kSvcServerInfo:
    case kSvcCreateStringTable:
    case kSvcUpdateStringTable:
    case kSvcClearAllStringTables:  // keeps its place among the table messages
      return -10;
    case kSvcPacketEntities:
      return 5;
    case kGeSource1LegacyGameEvent:
      return 10;
    default:
      return 0;
  }
}

Status SplitPacket(const uint8_t* data, size_t size,
                   std::vector<InnerMessage>* messages, std::string* payloads,
                   std::span<const int8_t> priorities) {
  messages->clear();
  payloads->clear();
  BitReader r(data, size);
  while (r.bits_left() >= 8) {
    uint32_t type = r.ReadUBitVar();
    uint32_t len = r.ReadVarUint32();
    if (r.overflowed() || len > r.bits_left() / 8) {
      return Status::Corrupt("inner message of type " + std::to_string(type) +
                             " claims " + std::to_string(len) + " bytes, " +
                             std::to_string(r.bits_left() / 8) + " remain");
    }
    size_t offset = payloads->size();
    payloads->resize(offset + len);
    r.ReadBytes(reinterpret_cast<uint8_t*>(payloads->data()) + offset, len);
    const int priority =
        type < priorities.size() ? priorities[type] : InnerMessagePriority(type);
    messages->push_back({type, priority, offset, len});
  }
  std::stable_sort(messages->begin(), messages->end(),
                   [](const InnerMessage& a, const InnerMessage& b) {
                     return a.priority < b.priority;
                   });
  return Status::Ok();
}

}  // namespace gem

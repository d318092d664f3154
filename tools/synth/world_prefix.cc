// World's prefix: the fixture's frames before the synthetic play, written
// as they are or rewritten (a client's recording, no event list, a type
// renamed in the send tables).
#include <string>

#include "core/input/demo_stream.h"
#include "core/input/inner_messages.h"
#include "core/util/bit_reader.h"
#include "core/util/bit_writer.h"
#include "core/util/proto_wire.h"
#include "proto/demo.pb.h"
#include "proto/netmessages.pb.h"
#include "tools/synth/world.h"

namespace gem::synth {

std::string World::ClientName() const {
  for (const SimTable& t : tables_) {
    if (t.name != "userinfo" || client_slot_ < 0 ||
        static_cast<size_t>(client_slot_) >= t.entries.size()) {
      continue;
    }
    // CMsgPlayerInfo: name is field 1.
    WireReader r(t.entries[static_cast<size_t>(client_slot_)].data);
    while (r.Next()) {
      if (r.field() == 1 && r.wire_type() == 2) return std::string(r.bytes());
    }
  }
  return "player " + std::to_string(client_slot_);
}

Status World::PrefixFrameOut(const PrefixFrame& f, ReplayWriter* out) {
  const std::string_view framed(reinterpret_cast<const char*>(file_.data() + f.at), f.bytes);
  if (f.command == kDemSendTables && !retype_.first.empty()) return RetypedSendTables(f, out);
  const bool packet = f.command == kDemSignonPacket || f.command == kDemPacket;
  const bool rewrite = (packet && (!event_list_ || client_slot_ >= 0)) ||
                       (f.command == kDemFileHeader && client_slot_ >= 0);
  if (!rewrite) return out->CopyFrame(framed);
  DemoStream stream(file_.data() + f.at, f.bytes);  // the one frame: no file header
  Frame frame;
  bool end = false;
  GEM_RETURN_IF_ERROR(stream.Next(&frame, &end));
  const std::string_view payload(reinterpret_cast<const char*>(frame.data), frame.size);
  if (f.command == kDemFileHeader) {
    proto::CDemoFileHeader header;
    header.ParseFromArray(payload.data(), static_cast<int>(payload.size()));
    header.set_client_name(ClientName());
    return out->Frame(f.command, f.tick, header.SerializeAsString());
  }
  std::string rewritten;
  GEM_RETURN_IF_ERROR(RewritePacket(
      payload,
      [&](uint32_t type, std::string_view body, PacketBuilder* b) {
        if (type == kGeSource1LegacyGameEventList && !event_list_) return;
        if (type == kSvcServerInfo && client_slot_ >= 0) {
          proto::CSVCMsg_ServerInfo info;
          info.ParseFromArray(body.data(), static_cast<int>(body.size()));
          info.set_is_hltv(false);
          info.set_player_slot(client_slot_);
          b->Add(type, info.SerializeAsString());
          return;
        }
        b->Add(type, body);
      },
      &rewritten));
  return out->Frame(f.command, f.tick, rewritten);
}

Status World::RetypedSendTables(const PrefixFrame& f, ReplayWriter* out) {
  DemoStream stream(file_.data() + f.at, f.bytes);
  Frame frame;
  bool end = false;
  GEM_RETURN_IF_ERROR(stream.Next(&frame, &end));
  proto::CDemoSendTables tables;
  if (!tables.ParseFromArray(frame.data, static_cast<int>(frame.size))) {
    return Status::Corrupt("the fixture's send tables do not parse");
  }
  // CDemoSendTables.data: a varint length, then the serializers.
  const std::string& data = tables.data();
  BitReader r(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  const uint32_t len = r.ReadVarUint32();
  const size_t start = r.position_bits() / 8;
  proto::CSVCMsg_FlattenedSerializer serializers;
  if (r.overflowed() || len > data.size() - start ||
      !serializers.ParseFromArray(data.data() + start, static_cast<int>(len))) {
    return Status::Corrupt("the fixture's serializers do not parse");
  }
  int renamed = 0;
  for (std::string& symbol : *serializers.mutable_symbols()) {
    if (symbol == retype_.first) {
      symbol = retype_.second;
      ++renamed;
    }
  }
  if (renamed == 0) return Status::InvalidArgument("no field type is named " + retype_.first);
  const std::string body = serializers.SerializeAsString();
  BitWriter w;
  w.WriteVarUint32(static_cast<uint32_t>(body.size()));
  tables.set_data(w.str() + body);
  return out->Frame(f.command, f.tick, tables.SerializeAsString());
}

Status World::WritePrefix(ReplayWriter* out) {
  for (const PrefixFrame& f : prefix_) GEM_RETURN_IF_ERROR(PrefixFrameOut(f, out));
  return Status::Ok();
}

}  // namespace gem::synth

#include "tools/synth/replay_writer.h"

#include <snappy.h>

#include <cstring>

#include "core/codec/varint.h"
#include "core/input/demo_stream.h"
#include "core/input/inner_messages.h"

namespace gem::synth {
ReplayWriter::~ReplayWriter() {
  if (f_ != nullptr) std::fclose(f_);
}

Status ReplayWriter::Open(const std::string& path) {
  path_ = path;
  f_ = std::fopen(path.c_str(), "wb");
  if (f_ == nullptr) return Status::CannotCreate("cannot create " + path);
  // Magic and two offsets, filled in by Close().
  std::string header("PBDEMS2\0", 8);
  header.append(8, '\0');
  return Write(header);
}

Status ReplayWriter::Write(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) {
    return Status::IoError("cannot write " + path_);
  }
  pos_ += bytes.size();
  return Status::Ok();
}

Status ReplayWriter::CopyFrame(std::string_view framed) { return Write(framed); }

Status ReplayWriter::Frame(uint32_t command, uint32_t tick, std::string_view payload) {
  scratch_.clear();
  std::string compressed;
  bool use_compressed = false;
  if (payload.size() >= 256) {
    snappy::Compress(payload.data(), payload.size(), &compressed);
    use_compressed = compressed.size() + 8 < payload.size();
  }
  PutVarint(command | (use_compressed ? static_cast<uint32_t>(kDemIsCompressed) : 0u), &scratch_);
  PutVarint(tick, &scratch_);
  std::string_view body = use_compressed ? std::string_view(compressed) : payload;
  PutVarint(body.size(), &scratch_);
  scratch_.append(body);
  return Write(scratch_);
}

Status ReplayWriter::Close() {
  if (f_ == nullptr) return Status::Ok();
  uint8_t offsets[8];
  uint32_t a = static_cast<uint32_t>(fileinfo_at_), b = static_cast<uint32_t>(spawngroups_at_);
  for (int i = 0; i < 4; ++i) {
    offsets[i] = static_cast<uint8_t>(a >> (8 * i));
    offsets[4 + i] = static_cast<uint8_t>(b >> (8 * i));
  }
  bool ok = std::fseek(f_, 8, SEEK_SET) == 0 && std::fwrite(offsets, 1, 8, f_) == 8;
  ok &= std::fclose(f_) == 0;
  f_ = nullptr;
  return ok ? Status::Ok() : Status::IoError("cannot finish " + path_);
}

void PacketBuilder::Add(uint32_t type, std::string_view payload) {
  w_.WriteUBitVar(type);
  w_.WriteVarUint32(static_cast<uint32_t>(payload.size()));
  w_.WriteBytes(payload);
}

std::string PacketBuilder::Finish() {
  std::string out = w_.str();
  w_ = BitWriter();
  return out;
}

Status RewritePacket(
    std::string_view payload,
    const std::function<void(uint32_t type, std::string_view body, PacketBuilder* out)>& each,
    std::string* out) {
  proto::CDemoPacket packet;
  if (!packet.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
    return Status::Corrupt("a packet does not parse");
  }
  // Every type at one priority: the messages keep their order.
  static const std::vector<int8_t> kSameOrder(1 << 16, 0);
  std::vector<InnerMessage> inner;
  std::string data;
  GEM_RETURN_IF_ERROR(SplitPacket(reinterpret_cast<const uint8_t*>(packet.data().data()),
                                  packet.data().size(), &inner, &data, kSameOrder));
  PacketBuilder builder;
  for (const InnerMessage& m : inner) {
    each(m.type, std::string_view(data.data() + m.offset, m.size), &builder);
  }
  packet.set_data(builder.Finish());
  *out = packet.SerializeAsString();
  return Status::Ok();
}

void AddSnapshotTable(const std::string& name, int32_t flags,
                      const std::vector<StringTableEntry>& entries,
                      proto::CDemoStringTables* snapshot) {
  proto::CDemoStringTables::table_t* table = snapshot->add_tables();
  table->set_table_name(name);
  table->set_table_flags(flags);
  for (const StringTableEntry& e : entries) {
    proto::CDemoStringTables::items_t* item = table->add_items();
    item->set_str(e.name);
    if (!e.data.empty()) item->set_data(e.data);
  }
}

}  // namespace gem::synth

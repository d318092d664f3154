#include "tests/fuzz/seed_cutter.h"

#include <snappy.h>
#include <sqlite3.h>

#include <charconv>
#include <map>
#include <string_view>

#include "core/demo_stream.h"
#include "core/entities.h"
#include "core/inner_messages.h"
#include "core/parser.h"
#include "core/proto_wire.h"
#include "core/string_table_messages.h"

namespace gem::fuzz {
namespace {

std::string_view View(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

void AppendU16(std::string* out, uint32_t v) {
  out->push_back(static_cast<char>(v & 0xff));
  out->push_back(static_cast<char>((v >> 8) & 0xff));
}

void AppendU32(std::string* out, uint32_t v) {
  AppendU16(out, v & 0xffff);
  AppendU16(out, v >> 16);
}

// InputReader::Int() reads U32 - 2^30.
void AppendInt(std::string* out, int64_t v) {
  AppendU32(out, static_cast<uint32_t>(v + (int64_t{1} << 30)));
}

// InputReader::Blob(): a length byte times 4 plus a byte mod 4, then the
// bytes. The caller keeps blobs under 1 KiB.
void AppendBlob(std::string* out, std::string_view blob) {
  out->push_back(static_cast<char>(blob.size() / 4));
  out->push_back(static_cast<char>(blob.size() % 4));
  out->append(blob);
}

// Candidates of one kind, thinned to kMaxSeedsPerKind spread evenly.
class Kind {
 public:
  Kind(std::string target, std::string stem) : target_(std::move(target)), stem_(std::move(stem)) {}
  void Offer(std::string bytes) {
    if (!bytes.empty() && bytes.size() <= kMaxSeedBytes) all_.push_back(std::move(bytes));
  }
  void MoveTo(std::vector<Seed>* out) {
    const size_t n = std::min(all_.size(), kMaxSeedsPerKind);
    for (size_t i = 0; i < n; ++i) {
      out->push_back(
          {target_, stem_ + "." + std::to_string(i), std::move(all_[i * all_.size() / n])});
    }
    all_.clear();
  }

 private:
  std::string target_, stem_;
  std::vector<std::string> all_;
};

struct ReplayKinds {
  ReplayKinds(const std::string& stem)
      : prefixes("demo_stream", stem + ".signon"),
        frames("demo_stream", stem + ".frame"),
        entity_packets("packet_entities_update", stem + ".packet"),
        table_creates("string_table_entries", stem + ".create"),
        table_updates("string_table_entries", stem + ".update"),
        baselines("field_paths_and_decoders", stem + ".baseline") {}
  void MoveTo(std::vector<Seed>* out) {
    for (Kind* k :
         {&prefixes, &frames, &entity_packets, &table_creates, &table_updates, &baselines}) {
      k->MoveTo(out);
    }
  }
  Kind prefixes, frames, entity_packets, table_creates, table_updates, baselines;
};

std::string TableSeed(const StringTableSettings& s, int32_t entries, std::string_view data) {
  std::string seed;
  seed.push_back(static_cast<char>((s.user_data_fixed_size ? 1 : 0) | ((s.flags & 1) << 1) |
                                   (s.using_varint_bitcounts ? 4 : 0)));
  seed.push_back(static_cast<char>(s.user_data_size));
  seed.push_back(static_cast<char>(s.user_data_size_bits));
  AppendU32(&seed, static_cast<uint32_t>(entries));
  seed.append(data);
  return seed;
}

// The string-table and entity messages of one packet. `tables` holds the
// settings of the tables created so far, by table id.
void CutInner(const uint8_t* data, size_t size, bool with_entity_packets,
              std::vector<StringTableSettings>* tables, ReplayKinds* kinds) {
  std::vector<InnerMessage> messages;
  std::string payloads;
  if (!SplitPacket(data, size, &messages, &payloads).ok()) return;
  for (const InnerMessage& m : messages) {
    const std::string_view msg(payloads.data() + m.offset, m.size);
    if (m.type == kSvcClearAllStringTables) {
      tables->clear();
    } else if (m.type == kSvcCreateStringTable) {
      CreateStringTableMessage create;
      if (!ReadCreateStringTable(msg, &create)) continue;
      tables->push_back(create.settings);
      std::string raw(create.string_data);
      if (create.data_compressed) {
        std::string plain;
        if (!snappy::Uncompress(raw.data(), raw.size(), &plain)) continue;
        raw = std::move(plain);
      }
      kinds->table_creates.Offer(TableSeed(create.settings, create.num_entries, raw));
    } else if (m.type == kSvcUpdateStringTable) {
      UpdateStringTableMessage update;
      if (!ReadUpdateStringTable(msg, &update) || update.table_id < 0 ||
          static_cast<size_t>(update.table_id) >= tables->size()) {
        continue;
      }
      kinds->table_updates.Offer(
          TableSeed((*tables)[update.table_id], update.num_changed_entries, update.string_data));
    } else if (m.type == kSvcPacketEntities && with_entity_packets) {
      PacketEntities pe;
      if (!ReadPacketEntities(reinterpret_cast<const uint8_t*>(msg.data()), msg.size(), &pe)) {
        continue;
      }
      std::string seed(1, static_cast<char>(pe.has_pvs_bits ? 1 : 0));
      AppendU16(&seed, static_cast<uint32_t>(pe.updated_entries));
      seed.append(View(pe.data, pe.size));
      kinds->entity_packets.Offer(std::move(seed));
    }
  }
}

// A frame's inner packet: CDemoPacket.data, or CDemoFullPacket.packet.data.
bool PacketOf(const Frame& frame, const uint8_t** data, size_t* size) {
  bool found = false;
  if (frame.command == kDemPacket || frame.command == kDemSignonPacket) {
    return FindBytesField(frame.data, frame.size, 3, data, size, &found) && found;
  }
  if (frame.command != kDemFullPacket) return false;
  const uint8_t* packet = nullptr;
  size_t packet_size = 0;
  if (!FindBytesField(frame.data, frame.size, 2, &packet, &packet_size, &found) || !found) {
    return false;
  }
  return FindBytesField(packet, packet_size, 3, data, size, &found) && found;
}

// Class baselines: each a field-path stream from bit 0.
void CutBaselines(const uint8_t* replay, size_t size, Kind* baselines) {
  Parser parser(nullptr);
  static_cast<void>(parser.Parse(replay, size));
  const StringTable* table = parser.string_tables().Find("instancebaseline");
  if (table == nullptr) return;
  for (size_t i = 0; i < table->size(); ++i) {
    const std::string& data = table->entry(i).data;
    baselines->Offer(std::string(1, static_cast<char>(i)) + data);
  }
}

}  // namespace

Status CutReplaySeeds(const uint8_t* replay, size_t size, const std::string& stem,
                      bool with_entity_packets, std::vector<Seed>* out) {
  ReplayKinds kinds(stem);
  DemoStream stream(replay, size);
  Status status = stream.Open();
  if (status.ok()) {
    const std::string_view header = View(replay, stream.position());
    std::vector<StringTableSettings> tables;
    std::map<uint32_t, size_t> frames_of_command;
    bool signon = true;
    for (;;) {
      Frame frame;
      bool end = false;
      const uint64_t start = stream.position();
      status = stream.Next(&frame, &end);
      if (!status.ok() || end) break;
      const std::string_view whole = View(replay + start, stream.position() - start);
      if (signon) kinds.prefixes.Offer(std::string(View(replay, stream.position())));
      if (frame.command == kDemSyncTick) signon = false;
      // A few frames of each command, each alone after the header.
      if (frames_of_command[frame.command]++ < 4) {
        kinds.frames.Offer(std::string(header) + std::string(whole));
      }
      const uint8_t* data = nullptr;
      size_t data_size = 0;
      if (PacketOf(frame, &data, &data_size)) {
        CutInner(data, data_size, with_entity_packets, &tables, &kinds);
      }
    }
  }
  CutBaselines(replay, size, &kinds.baselines);
  kinds.MoveTo(out);
  return status;
}

Status CutIndexSeeds(const std::string& index_path, const std::string& stem,
                     std::vector<Seed>* out) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(index_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return Status::InputError("cannot open index " + index_path);
  }
  Kind chunks("chunk_and_state_codecs", stem + ".chunk");
  Kind states("chunk_and_state_codecs", stem + ".state");
  Kind queries("extension_queries", stem + ".entity");
  // Entities with a whole creation state and their first change chunks,
  // small enough for the extension target's 1 KiB blobs.
  static const char kSql[] =
      "SELECT e.entity, e.ent_index, e.serial, e.class_id, e.created_tick, "
      "  coalesce(e.deleted_tick, 1 << 31), s.tick, s.data "
      "FROM entities e JOIN entity_states s USING(entity) "
      "WHERE s.base IS NULL AND length(s.data) < 1024 ORDER BY e.entity LIMIT 400";
  sqlite3_stmt* st = nullptr;
  sqlite3_stmt* chunk_st = nullptr;
  Status status;
  if (sqlite3_prepare_v2(db, kSql, -1, &st, nullptr) != SQLITE_OK ||
      sqlite3_prepare_v2(db,
                         "SELECT field_id, start_tick, seq, end_tick, count, data FROM changes "
                         "WHERE entity = ?1 AND length(data) < 1024 LIMIT 3",
                         -1, &chunk_st, nullptr) != SQLITE_OK) {
    status = Status::Corrupt(std::string("index ") + index_path + ": " + sqlite3_errmsg(db));
  }
  while (status.ok() && sqlite3_step(st) == SQLITE_ROW) {
    const std::string_view state(static_cast<const char*>(sqlite3_column_blob(st, 7)),
                                 sqlite3_column_bytes(st, 7));
    states.Offer(std::string(state));
    const int class_id = sqlite3_column_int(st, 3);
    std::string seed;
    AppendInt(&seed, sqlite3_column_int64(st, 4));  // the tick asked about
    AppendInt(&seed, sqlite3_column_int64(st, 5));  // last_tick
    seed.push_back(static_cast<char>(class_id));
    seed.push_back(5);  // 1 + 5 % 6 class fields
    for (int f = 0; f < 6; ++f) {
      seed.push_back(static_cast<char>(class_id));
      seed.push_back(static_cast<char>(f));
    }
    seed.push_back(0);  // one entity
    seed.push_back(0);  // entity 1
    seed.push_back(static_cast<char>(sqlite3_column_int(st, 1)));
    seed.push_back(static_cast<char>(sqlite3_column_int(st, 2)));
    seed.push_back(static_cast<char>(class_id));
    AppendInt(&seed, sqlite3_column_int64(st, 4));
    AppendInt(&seed, sqlite3_column_int64(st, 5));
    AppendU16(&seed, 0);  // every number as an integer
    AppendBlob(&seed, state);
    AppendInt(&seed, sqlite3_column_int64(st, 6));
    seed.push_back(0);  // a whole state (no base)
    std::string rows;
    int count = 0;
    sqlite3_bind_int64(chunk_st, 1, sqlite3_column_int64(st, 0));
    while (sqlite3_step(chunk_st) == SQLITE_ROW) {
      const std::string_view chunk(static_cast<const char*>(sqlite3_column_blob(chunk_st, 5)),
                                   sqlite3_column_bytes(chunk_st, 5));
      chunks.Offer(std::string(chunk));
      AppendBlob(&rows, chunk);
      rows.push_back(static_cast<char>(sqlite3_column_int(chunk_st, 0)));
      AppendInt(&rows, sqlite3_column_int64(chunk_st, 1));
      rows.push_back(static_cast<char>(sqlite3_column_int(chunk_st, 2)));
      AppendInt(&rows, sqlite3_column_int64(chunk_st, 3));
      rows.push_back(static_cast<char>(sqlite3_column_int(chunk_st, 4)));
      AppendU16(&rows, 0);
      ++count;
    }
    sqlite3_reset(chunk_st);
    seed.push_back(static_cast<char>(count));
    queries.Offer(seed + rows);
  }
  sqlite3_finalize(st);
  sqlite3_finalize(chunk_st);
  // Keyframe blocks, for the codec target (their rows are read through).
  Kind blocks("chunk_and_state_codecs", stem + ".keyframes");
  sqlite3_stmt* block_st = nullptr;
  if (status.ok() &&
      sqlite3_prepare_v2(db, "SELECT data FROM keyframes ORDER BY key LIMIT 400", -1, &block_st,
                         nullptr) == SQLITE_OK) {
    while (sqlite3_step(block_st) == SQLITE_ROW) {
      blocks.Offer(std::string(static_cast<const char*>(sqlite3_column_blob(block_st, 0)),
                               sqlite3_column_bytes(block_st, 0)));
    }
  }
  sqlite3_finalize(block_st);
  sqlite3_close(db);
  for (Kind* k : {&chunks, &states, &blocks, &queries}) k->MoveTo(out);
  return status;
}

}  // namespace gem::fuzz

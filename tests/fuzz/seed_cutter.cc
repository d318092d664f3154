#include "tests/fuzz/seed_cutter.h"

#include <snappy.h>
#include <sqlite3.h>

#include <charconv>
#include <map>
#include <string_view>

#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/input/demo_stream.h"
#include "core/entities/entities.h"
#include "core/input/inner_messages.h"
#include "core/parser/parser.h"
#include "core/util/proto_wire.h"
#include "core/string_tables/string_table_messages.h"

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

// An index's rows, by (slot, entity), with their keyframe tick; and its
// changes rows by id.
struct IndexRows {
  std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, std::string>> rows;
  std::map<int64_t, std::string> pages;
};

bool ReadIndexRows(sqlite3* db, IndexRows* out) {
  sqlite3_stmt* st = nullptr;
  KeyframeDecompressor d;
  bool ok = sqlite3_prepare_v2(db, "SELECT key, tick, first_entity, data FROM keyframes", -1,
                               &st, nullptr) == SQLITE_OK;
  while (ok && sqlite3_step(st) == SQLITE_ROW) {
    KeyframeBlock block;
    const std::string_view blob(static_cast<const char*>(sqlite3_column_blob(st, 3)),
                                sqlite3_column_bytes(st, 3));
    if (!block.Open(blob, sqlite3_column_int64(st, 2), &d)) continue;
    const int64_t slot = sqlite3_column_int64(st, 0) >> kKeyframeEntityBits;
    for (int64_t e = block.first_entity(); e <= block.last_entity(); ++e) {
      std::string_view row;
      if (block.Find(e, &row)) out->rows[{slot, e}] = {sqlite3_column_int64(st, 1), std::string(row)};
    }
  }
  sqlite3_finalize(st);
  ok = ok && sqlite3_prepare_v2(db, "SELECT id, data FROM changes", -1, &st, nullptr) == SQLITE_OK;
  while (ok && sqlite3_step(st) == SQLITE_ROW) {
    out->pages[sqlite3_column_int64(st, 0)] = std::string(
        static_cast<const char*>(sqlite3_column_blob(st, 1)), sqlite3_column_bytes(st, 1));
  }
  sqlite3_finalize(st);
  return ok;
}

// Row `row` (of keyframe tick k) with each run it names moved to a changes
// row of its own, ids from *next_page on, appended to *pages (id, run);
// false when a run is missing or past a seed's sizes.
bool RowWithOwnPages(std::string_view row, int64_t k, const IndexRows& index, int* next_page,
                     std::vector<std::pair<int64_t, std::string>>* pages, std::string* out) {
  KeyframeReader r;
  if (!r.Open(row, k)) return false;
  KeyframeWriter w;
  w.Begin(k, r.flags());
  if (!r.born() && !r.delta()) w.SetState(r.state());
  uint32_t field;
  bool runs;
  uint64_t count;
  while (r.NextLater(&field, &runs, &count)) {
    if (!runs) {
      int64_t t;
      Value v;
      while (r.NextLogged(&t, &v)) {
        if (!w.AddLogged(field, t, v)) return false;
      }
      continue;
    }
    std::vector<RunRef> refs;
    RunRef ref;
    while (r.NextRun(&ref)) {
      auto page = index.pages.find(ref.page);
      if (page == index.pages.end() || ref.offset + ref.length > page->second.size() ||
          ref.length > 1000 || pages->size() >= 3) {
        return false;
      }
      pages->emplace_back(*next_page, page->second.substr(ref.offset, ref.length));
      refs.push_back(RunRef{ref.first_tick, (*next_page)++, 0, ref.length});
    }
    w.AddRuns(field, refs);
  }
  if (!r.ok()) return false;
  w.Finish(out);
  return out->size() <= 1000;
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
  IndexRows index;
  int64_t interval = 0;
  {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'keyframe_interval'", -1,
                           &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      interval = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
  }
  // Entities with a whole creation state, small enough for the extension
  // target's 1 KiB blobs, with their first rows and the runs those name.
  static const char kSql[] =
      "SELECT e.entity, e.ent_index, e.serial, e.class_id, e.created_tick, "
      "  coalesce(e.deleted_tick, 1 << 31), s.tick, s.data "
      "FROM entities e JOIN entity_states s USING(entity) "
      "WHERE s.base IS NULL AND length(s.data) < 1024 ORDER BY e.entity LIMIT 400";
  sqlite3_stmt* st = nullptr;
  Status status;
  if (sqlite3_prepare_v2(db, kSql, -1, &st, nullptr) != SQLITE_OK || !ReadIndexRows(db, &index)) {
    status = Status::Corrupt(std::string("index ") + index_path + ": " + sqlite3_errmsg(db));
  }
  while (status.ok() && sqlite3_step(st) == SQLITE_ROW) {
    const int64_t entity = sqlite3_column_int64(st, 0);
    const std::string_view state(static_cast<const char*>(sqlite3_column_blob(st, 7)),
                                 sqlite3_column_bytes(st, 7));
    states.Offer(std::string(state));
    const int class_id = sqlite3_column_int(st, 3);
    std::string seed;
    AppendInt(&seed, sqlite3_column_int64(st, 4));  // the tick asked about
    AppendInt(&seed, sqlite3_column_int64(st, 5));  // last_tick
    AppendInt(&seed, interval);                     // keyframe_interval
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
    // Its rows in its first slots (as entity 1's), each run in a changes
    // row of its own.
    std::string rows;
    int count = 0, next_page = 1;
    std::vector<std::pair<int64_t, std::string>> pages;
    for (auto it = index.rows.begin(); it != index.rows.end() && count < 3; ++it) {
      if (it->first.second != entity) continue;
      std::string row;
      if (!RowWithOwnPages(it->second.second, it->second.first, index, &next_page, &pages,
                           &row)) {
        continue;
      }
      rows.push_back(static_cast<char>(it->first.first));  // slot
      AppendInt(&rows, it->second.first);                  // its keyframe tick
      AppendBlob(&rows, row);
      rows.push_back(0);  // made into a block
      ++count;
    }
    seed.push_back(static_cast<char>(count));
    seed += rows;
    seed.push_back(static_cast<char>(pages.size()));
    for (const auto& [id, run] : pages) {
      chunks.Offer(run);
      seed.push_back(static_cast<char>(id));
      AppendBlob(&seed, run);
    }
    queries.Offer(seed);
  }
  sqlite3_finalize(st);
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
